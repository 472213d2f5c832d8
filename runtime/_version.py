"""The version of mjr: part of every build-cache key and generated module."""

__version__ = "0.1.0"
