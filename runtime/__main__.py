"""``python -m mjr``: the ``mjr`` command line (see :mod:`mjr.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
