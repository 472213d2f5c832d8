"""Red fives: a copy of the 5 of a suit marked red.

MPSZ writes a red five ``0m``, ``0p`` or ``0s`` (the digit 0 where a 5 stands): it
is a 5 of its suit in every respect (shape, melds, waits) and is only counted.  A hand
keeps the kinds of the red fives it holds, sorted (:attr:`mjr.Hand.red`): ``(4,
13)`` for a red 5m and a red 5p.  A ruleset whose tile set has ``red_fives`` has
one red copy of each suit's 5; a hand record holds the count of each suit's in
two bits of one byte.
"""

from __future__ import annotations

from .kinds import tile_name

#: The digit that writes a red five, and the kinds that may be red (5m, 5p, 5s).
RED_DIGIT = "0"
RED_KINDS = (4, 13, 22)
#: The most red fives of a suit a hand holds.
MOST_RED = 3


def red_byte(red: tuple[int, ...]) -> int:
    """The record byte of a hand's red fives: two bits of count per suit (m p s)."""
    byte = 0
    for kind in red:
        byte += 1 << (2 * RED_KINDS.index(kind))
    return byte


def red_of_byte(byte: int) -> tuple[int, ...]:
    """The red fives a record byte holds, sorted."""
    return tuple(kind for suit, kind in enumerate(RED_KINDS) for _ in range(byte >> (2 * suit) & 3))


def red_problem(red: object, counts: list[int] | None) -> tuple[str, object, str] | None:
    """(field, value, reason) of what is wrong with a hand's ``red``, or ``None``: a
    tuple of the kinds 5m, 5p and 5s (4, 13, 22), no more of a kind than the hand
    holds (``counts``, all its copies; None: not known yet) nor than three."""
    if type(red) is not tuple:
        return "red", red, "expected a tuple of the kinds of red fives (4, 13 or 22: 5m, 5p, 5s)"
    for index, kind in enumerate(red):
        if type(kind) is not int or kind not in RED_KINDS:
            return f"red[{index}]", kind, "a red five is a 5m, 5p or 5s (kinds 4, 13, 22)"
        held = red.count(kind)
        if held > MOST_RED:
            return f"red[{index}]", kind, "at most three red fives of a suit"
        if counts is not None and held > counts[kind]:
            name = tile_name(kind)
            return f"red[{index}]", kind, f"{held} red {name}, and the hand holds {counts[kind] or 'no'} {name}"
    return None
