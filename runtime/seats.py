"""The people at a table of play: one seat's tiles and standing, and who deals.

:class:`Player` is the state a :class:`mjr.table.Table` keeps for each seat;
:class:`Seating` is what one hand hands on to the next (the dealer, the round wind,
the dealer's streak, the previous winner).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain, repeat

from .hand import Meld
from .tiles import N_KINDS
from .wall import WALL_JOKER


@dataclass
class Player:
    """One seat's tiles and standing."""

    counts: list[int] = field(default_factory=lambda: [0] * N_KINDS)
    jokers: int = 0  # the dedicated jokers among the concealed tiles (mjr.wall.WALL_JOKER)
    melds: list[Meld] = field(default_factory=list)
    flowers: list[int] = field(default_factory=list)
    #: the tiles of kinds the ruleset sets aside as drawn (tiles ... aside(...))
    aside: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    wins: int = 0
    out: bool = False  # won and left the hand (血战)
    banned: set[int] | None = None  # missed win: kinds not to be won on a discard (None: no ban)
    acted: bool = False  # has discarded or claimed: no longer the first turn
    locked: bool = False  # opened a kong that locks: discards each tile drawn unless winning, claims no tile
    dead: bool = False  # declared a false win under ``dead_hand``: may not win this hand
    void: int | None = None  # the suit declared void (0-2: m p s) under ``void_suit declared``

    def tiles(self) -> tuple[int, ...]:
        return tiles_of(self.counts)

    def give_up(self, tile: int) -> None:
        """Take one ``tile`` (a kind, or :data:`~mjr.wall.WALL_JOKER`) from the concealed tiles."""
        if tile == WALL_JOKER:
            self.jokers -= 1
        else:
            self.counts[tile] -= 1

    @property
    def held(self) -> int:
        """How many concealed tiles the player holds, jokers included."""
        return sum(self.counts) + self.jokers


def tiles_of(counts: list[int]) -> tuple[int, ...]:
    """The sorted tile kinds of 34 counts."""
    return tuple(chain.from_iterable(repeat(kind, count) for kind, count in enumerate(counts) if count))


@dataclass(frozen=True)
class Seating:
    """Who deals, the round wind, and what the session carries into the hand."""

    dealer: int = 0
    round: int = 0
    streak: int = 0
    previous_winner: int | None = None


__all__ = ["Player", "Seating", "tiles_of"]
