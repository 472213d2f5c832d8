"""Numbers shared by the runtime and the code the compiler generates.

The compiler writes these into every generated module; the runtime encodes hands
with them.  Changing one changes the build-cache key (it is part of mjr's version).
"""

from __future__ import annotations

#: Context flags, bit i for word i.
CONTEXT_FLAGS = ("self_draw", "discard", "robbing_kong", "after_kong", "last_tile", "first_turn", "dealer")
#: Group kinds as the kernels store them.
GROUP_KINDS = ("pair", "chow", "pung", "kong")
GROUP_CONCEALED, GROUP_CLAIMED, GROUP_ADDED, GROUP_DECLARED, GROUP_LATEST = 1, 2, 4, 8, 16
SHAPES = ("standard", "seven_pairs", "thirteen_orphans")


def context_bits(words: set[str]) -> int:
    return sum(1 << i for i, name in enumerate(CONTEXT_FLAGS) if name in words)
