"""The mjr compiler: ``.mjr`` text -> checked IR -> generated Cython -> built module."""

from .build import Built, build, check_file, generate_file

__all__ = ["Built", "build", "check_file", "generate_file"]
