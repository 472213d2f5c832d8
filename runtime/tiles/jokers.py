"""Dedicated jokers: tiles of no kind of their own, always wild.

A ruleset whose tile set has ``jokers N`` adds ``N`` joker tiles beside the 34
kinds.  A joker stands for any tile, as a wildcard does, but has no kind to play
as itself.  The notation writes one ``J`` (a letter, as the honours' letters):
among the concealed tiles (``123m J``), as the winning tile (``win J``) and in a
meld, where it takes the place of one of the meld's tiles (``[5J5m]``: a pung of
5m holding one joker; ``[3J5m]``: the chow 345m, the joker as its 4m).

A :class:`~mjr.Hand` keeps the jokers among its concealed tiles as
``Hand.jokers`` (a count, the winning tile not among them), a joker winning tile
as ``win_tile == JOKER``, and a meld's jokers as ``Meld.jokers``: the kinds they
stand for, sorted (``(4,)`` for ``[3J5m]``).  A meld holds at least one real
tile, which names its kind.  A hand record holds the concealed jokers (the
winning one included) in one byte after the red fives', a joker winning tile as
the winning byte :data:`JOKER`, and each meld's jokers as a bit per place in the
high half of its flags byte.
"""

from __future__ import annotations

from ..abi import JOKER, MAX_JOKERS
from .kinds import tile_name

#: The letter that writes a joker.
JOKER_LETTER = "J"


def meld_joker_problem(tiles: tuple[int, ...], jokers: object) -> tuple[str, object, str] | None:
    """(field, value, reason) of what is wrong with a meld's ``jokers`` (the kinds
    they stand for), or ``None``: kinds of the meld's tiles, no more of a kind than
    it holds, and at least one real tile left."""
    if type(jokers) is not tuple:
        return "jokers", jokers, "expected a tuple of the kinds the meld's jokers stand for"
    for index, kind in enumerate(jokers):
        if type(kind) is not int or kind not in tiles:
            return f"jokers[{index}]", kind, "a meld's joker stands for one of the meld's own tiles"
        if jokers.count(kind) > tiles.count(kind):
            return f"jokers[{index}]", kind, f"more jokers as {tile_name(kind)} than the meld holds {tile_name(kind)}"
    if jokers and len(jokers) >= len(tiles):
        return "jokers", jokers, "a meld holds at least one real tile, which names its kind"
    return None


def joker_places(tiles: tuple[int, ...], jokers: tuple[int, ...]) -> int:
    """The places of a meld's tiles its jokers take, a bit each (the first places of
    their kinds)."""
    mask = 0
    for kind in jokers:
        place = next(p for p, k in enumerate(tiles) if k == kind and not mask >> p & 1)
        mask |= 1 << place
    return mask


def jokers_of_places(tiles: tuple[int, ...], mask: int) -> tuple[int, ...]:
    """The kinds the jokers at the places ``mask`` stand for, sorted."""
    return tuple(sorted(kind for place, kind in enumerate(tiles) if mask >> place & 1))


def hand_jokers_problem(jokers: object, total: int) -> tuple[str, object, str] | None:
    """(field, value, reason) of what is wrong with a hand's concealed ``jokers``,
    or ``None``; ``total`` counts every joker of the hand (melds and the winning
    tile too)."""
    if type(jokers) is not int or jokers < 0:
        return "jokers", jokers, "expected the number of jokers among the concealed tiles, an int 0 or more"
    if total > MAX_JOKERS:
        return "jokers", jokers, f"{total} jokers in the hand: no tile set has more than {MAX_JOKERS}"
    return None


def held_name(tile: int) -> str:
    """A tile as the notation names it: its MPSZ name, ``J`` for a joker."""
    return JOKER_LETTER if tile == JOKER else tile_name(tile)
