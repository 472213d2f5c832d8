"""A ``.mjr`` file -> an importable module: finding the file, the content-keyed
cache, the C toolchain.  The compiler's entry points are here."""

from .cache import cache_dir
from .pipeline import (
    MAX_SOURCE_BYTES,
    Built,
    build,
    build_key,
    builder_key,
    bundled_dir,
    check_file,
    check_options,
    display_name,
    find_source,
    generate_file,
    known_ids,
    will_compile,
)

__all__ = ["MAX_SOURCE_BYTES", "Built", "build", "build_key", "builder_key", "bundled_dir", "cache_dir",
           "check_file", "check_options", "display_name", "find_source", "generate_file", "known_ids", "will_compile"]
