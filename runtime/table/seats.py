"""The people at a table of play: one seat's tiles and standing, and who deals.

:class:`Player` is the state a :class:`mjr.table.Table` keeps for each seat;
:class:`Seating` is what one hand hands on to the next (the dealer, the round wind,
the dealer's streak, the previous winner).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import index
from typing import SupportsIndex, cast

from ..abi import SEATS, step_sources
from ..errors import IllegalAction, MjrError, TableError, clip_repr
from ..hand.model import Meld
from ..ruleset.rules_of_play import Declaration
from ..tiles.kinds import N_KINDS
from .wall import WALL_JOKER


@dataclass
class Player:
    """One seat's tiles and standing."""

    counts: list[int] = field(default_factory=lambda: [0] * N_KINDS)
    jokers: int = 0  # the dedicated jokers among the concealed tiles (mjr.table.wall.WALL_JOKER)
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
    #: the red fives among the concealed tiles, and among the melds' (by kind: 4, 13, 22)
    red: list[int] = field(default_factory=list)
    melded_red: list[int] = field(default_factory=list)
    #: every kind discarded this hand, claimed or not (``missed_win ... own_discards``)
    discarded: set[int] = field(default_factory=set)
    #: the declaration made (``declare``), once it stands, and the flag fact it sets
    declared: Declaration | None = None
    declared_fact: str = ""
    next_turn: bool = False  # the declaration's ``next_turn`` fact holds (一发: no discard or claim since)
    barred: bool = False  # passed up a win after a declaration with ``missed_win_bars``: no discard win

    def tiles(self) -> tuple[int, ...]:
        return tiles_of(self.counts)

    def give_up(self, tile: int, red: bool = False) -> bool:
        """Take one ``tile`` (a kind, or :data:`~mjr.table.wall.WALL_JOKER`) from the
        concealed tiles: its red copy where ``red``, or where no other copy is held
        (a red five leaves the hand last); whether it was the red copy."""
        if tile == WALL_JOKER:
            self.jokers -= 1
            return False
        self.counts[tile] -= 1
        if tile in self.red and (red or self.counts[tile] < self.red.count(tile)):
            self.red.remove(tile)
            return True
        return False

    def meld_from_hand(self, tiles: list[int]) -> None:
        """Take ``tiles`` (kinds) from the concealed tiles into a meld: a red five
        goes with them where no other copy is left."""
        for kind in tiles:
            if self.give_up(kind):
                self.melded_red.append(kind)

    def all_red(self) -> tuple[int, ...]:
        """Every red five the player holds, concealed or melded, sorted."""
        return tuple(sorted(self.red + self.melded_red))

    @property
    def held(self) -> int:
        """How many concealed tiles the player holds, jokers included."""
        return sum(self.counts) + self.jokers


def tiles_of(counts: list[int]) -> tuple[int, ...]:
    """The sorted tile kinds of 34 counts."""
    return tuple(chain.from_iterable(repeat(kind, count) for kind, count in enumerate(counts) if count))


#: The dealer's streak a seating may carry (far past any hand's rules: a streak counts hands).
MAX_STREAK = 2**31 - 1
#: The most points a seating may carry on the table.
MAX_DEPOSITS = 2**62


def whole_number(value: object, name: str, low: int, high: int, error: type[MjrError] = TableError) -> int:
    """``value`` as a plain int in ``low``-``high``: an int, or a number that is an
    index (a numpy int: ``__index__``), never a bool, a float or text; else ``error``
    naming ``name``."""
    number: int | None = None
    if type(value) is int:
        number = value
    elif not isinstance(value, bool) and hasattr(type(value), "__index__"):
        try:
            number = index(cast(SupportsIndex, value))  # it has __index__
        except (TypeError, ValueError, OverflowError):
            pass
    if number is None:
        raise error(f"{name} must be an int {low}-{high:,}, not {clip_repr(value)} ({type(value).__name__})")
    if not low <= number <= high:
        raise error(f"{name} must be {low}-{high:,}, not {clip_repr(number)}")
    return number


def seat_number(value: object, name: str = "seat", seats: int = SEATS) -> int:
    """``value`` as a seat of a table of ``seats``, 0 to ``seats - 1`` (see
    :func:`whole_number`); else :class:`IllegalAction`."""
    if type(value) is int and 0 <= value < seats:
        return value
    return whole_number(value, name, 0, seats - 1, IllegalAction)


def relative_source(seat: int, source: int, seats: int) -> str:
    """Where ``source`` sits for ``seat`` at a table of ``seats``, as a claimed
    tile's source is written: ``R`` (the next in play order), ``O`` (opposite),
    ``L`` (the one before), or the steps on by number: see :func:`mjr.abi.seat_steps`."""
    return step_sources(seats)[(source - seat) % seats]


@dataclass(frozen=True)
class Seating:
    """Who deals, the round wind, and what the session carries into the hand: the
    dealer's seat 0-7, the round wind 0-3 (E S W N), the dealer's streak (hands kept,
    0 or more), the previous hand's winner (a seat, or ``None``), the hands in a row
    drawn or won by their dealer (``repeats``, 本场: fact source ``repeats``) and the
    deposits on the table (``declare``'s stakes, in points, not yet won).  A seating
    out of range, or not of ints, is refused with :class:`~mjr.errors.TableError`."""

    dealer: int = 0
    round: int = 0
    streak: int = 0
    previous_winner: int | None = None
    repeats: int = 0
    deposits: int = 0

    def __post_init__(self) -> None:
        fields = {"dealer": (0, SEATS - 1), "round": (0, 3), "streak": (0, MAX_STREAK), "repeats": (0, MAX_STREAK),
                  "deposits": (0, MAX_DEPOSITS)}
        for name, (low, high) in fields.items():
            object.__setattr__(self, name, whole_number(getattr(self, name), f"Seating.{name}", low, high))
        if self.previous_winner is not None:
            winner = whole_number(self.previous_winner, "Seating.previous_winner", 0, SEATS - 1)
            object.__setattr__(self, "previous_winner", winner)


__all__ = ["SEATS", "Player", "Seating", "relative_source", "seat_number", "tiles_of", "whole_number"]
