"""Numbers shared by the runtime and the code the compiler generates.

The compiler writes these into every generated module; the runtime encodes hands
with them.  Changing one changes the build-cache key (it is part of mjr's version).
"""

from __future__ import annotations

#: Context flags, bit i for word i.
CONTEXT_FLAGS = ("self_draw", "discard", "robbing_kong", "after_kong", "last_tile", "first_turn", "dealer")
#: Every word of the hand notation that is not a tile: no fact of play may take one.
CONTEXT_WORDS = ("win", "self_draw", "discard", "robbing_kong", "after_kong", "last_tile", "first_turn", "dealer",
                 "seat", "round", "from", "indicator", "winners", "void")
#: Group kinds as the kernels store them.
GROUP_KINDS = ("pair", "chow", "pung", "kong")
GROUP_CONCEALED, GROUP_CLAIMED, GROUP_ADDED, GROUP_DECLARED, GROUP_LATEST = 1, 2, 4, 8, 16
#: Who a claimed meld's tile came from.
GROUP_FROM_RIGHT, GROUP_FROM_OPPOSITE, GROUP_FROM_LEFT = 32, 64, 128
#: A source (L, O, R) as steps on from the winner in play order.
SOURCE_STEPS = {"R": 1, "O": 2, "L": 3}
SHAPES = ("standard", "seven_pairs", "thirteen_orphans")


def context_bits(words: set[str]) -> int:
    return sum(1 << i for i, name in enumerate(CONTEXT_FLAGS) if name in words)

#: Group bits the search writes beside the flags above, for group words of the
#: winning tile and wildcards: the places (bit i: the group's tile i) a wildcard
#: fills, how many of those stand for another kind, and "the winning tile is here".
GROUP_WILD_SHIFT, GROUP_SUBST_SHIFT, GROUP_WINNING = 16, 20, 1 << 24
#: The wait a winning tile completed, as the kernels store it (0: none known).
WAITS = ("", "wait_edge", "wait_closed", "wait_open", "wait_pair", "wait_pung")
