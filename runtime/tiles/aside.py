"""Tiles set aside when drawn: kinds of the tile set a ruleset plays as flowers.

Some regions set whole kinds aside as they are drawn and replace them, as flowers
are (say the winds and the red dragon): ``tiles suits(m p s) winds dragons
aside(E S W N C)``.  Such a kind is in the wall, four copies, but never in play: it
is no part of a hand's shape, melds or waits.  A hand keeps the tiles it has set
aside as a sorted tuple of kinds, a kind repeated for each copy
(:attr:`mjr.Hand.aside`); the notation writes them after the word ``aside`` as one
tiles word (``aside 1z1z7z``, ``aside EEC``); a hand record holds 34 counts after
the tiles facts'.  The language reads them as the collection ``aside``
(``count(aside)``, ``count(aside where wind)``) and the word ``aside_fours``.
"""

from __future__ import annotations

from ..abi import ASIDE
from .kinds import COPIES, N_KINDS, tile_name

__all__ = ["ASIDE", "aside_problem", "foreign_aside"]

def aside_problem(aside: object) -> tuple[str, object, str] | None:
    """(field, value, reason) of what is wrong with a hand's ``aside``, or ``None``:
    a tuple of tile kinds 0-33, each at most four times (a hand built with them
    unsorted has them sorted before this is asked)."""
    if type(aside) is not tuple:
        return "aside", aside, "expected a tuple of the tile kinds set aside (0-33, a kind once for each copy)"
    for index, kind in enumerate(aside):
        if type(kind) is not int or not 0 <= kind < N_KINDS:
            return f"aside[{index}]", kind, "a tile kind is 0-33"
        if aside.count(kind) > COPIES:
            copies = aside.count(kind)
            return f"aside[{index}]", kind, f"{copies} copies of {tile_name(kind)} set aside: there are only {COPIES}"
    return None


def foreign_aside(aside: tuple[int, ...], kinds: frozenset[int]) -> int | None:
    """The first kind of ``aside`` a ruleset setting ``kinds`` aside does not, or None."""
    return next((kind for kind in aside if kind not in kinds), None)
