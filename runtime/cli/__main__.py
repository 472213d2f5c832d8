"""``python -m mjr.cli``: the ``mjr`` command line, as ``python -m mjr``."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
