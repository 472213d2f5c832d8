"""``python -m mjr``: the ``mjr`` command line (see :mod:`mjr.cli`).

It reaches the command through the package's lazy namespace, as every public name
of ``mjr`` is reached: the package's face sits above all the rooms, though Python
keeps it in the folder of the base modules."""

import sys

import mjr

if __name__ == "__main__":
    sys.exit(mjr.cli.main())
