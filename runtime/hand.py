"""The in-memory hand: tile counts, declared melds, the winning tile and its context.

Hands are plain frozen data.  The notation module reads and writes them as text
and JSON; rulesets check them against their own tile set and claims.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .tiles import N_KINDS, tile_name

CHOW, PUNG, KONG = "chow", "pung", "kong"
MELD_KINDS = (CHOW, PUNG, KONG)
#: Where a claimed tile came from, relative to the hand's owner.
SOURCES = ("L", "O", "R")
WIN_METHODS = ("self_draw", "discard", "robbing_kong")


@dataclass(frozen=True)
class Meld:
    """A declared set: ``[345p<L]`` chow, ``[555p]`` pung, ``[5555p]`` / ``(5555p)`` kong.

    ``tile`` is the lowest tile kind of the set.  ``source`` is the player the
    claimed tile came from (L left, O opposite, R right), ``None`` when unknown or
    for a concealed kong.  ``added`` marks a kong made by adding a drawn fourth tile
    to an exposed pung (补杠).
    """

    kind: str
    tile: int
    concealed: bool = False
    source: str | None = None
    added: bool = False

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == KONG else 3)


@dataclass(frozen=True)
class Context:
    """Everything about a win that is not the tiles themselves.

    ``source`` names the player who discarded the winning tile, or whose kong was
    robbed (L, O, R).  ``seat`` and ``round`` are winds 0-3 (E S W N).  ``void`` is a
    declared void suit (0-2) where a region declares one.
    """

    win_by: str = "discard"
    after_kong: bool = False
    last_tile: bool = False
    first_turn: bool = False
    dealer: bool = False
    seat: int = 0
    round: int = 0
    source: str | None = None
    indicator: int | None = None
    winners: int = 1
    void: int | None = None

    @property
    def self_draw(self) -> bool:
        return self.win_by == "self_draw"


@dataclass(frozen=True)
class Hand:
    """Concealed tiles (sorted kinds, the winning tile not among them), melds in the
    order they were declared, the winning tile (``None`` for a waiting hand of 13) and
    the context."""

    tiles: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    win_tile: int | None = None
    context: Context = field(default_factory=Context)

    def concealed_counts(self) -> list[int]:
        """Counts of the 34 kinds among the concealed tiles, the winning tile included."""
        counts = [0] * N_KINDS
        for kind in self.tiles:
            counts[kind] += 1
        if self.win_tile is not None:
            counts[self.win_tile] += 1
        return counts

    def all_counts(self) -> list[int]:
        """Counts of every tile the hand holds, melds and winning tile included."""
        counts = self.concealed_counts()
        for meld in self.melds:
            for kind in meld.tiles:
                counts[kind] += 1
        return counts

    @property
    def size(self) -> int:
        """Tiles as the deal counts them: a kong counts three."""
        return len(self.tiles) + 3 * len(self.melds) + (self.win_tile is not None)

    def with_win(self, tile: int) -> Hand:
        return Hand(self.tiles, self.melds, tile, self.context)


def impossibility(hand: Hand) -> str | None:
    """Why no real table could produce this hand, or ``None``.

    A fifth copy of a kind (the flipped indicator tile counts as a copy) or a
    tile count that is not 3n+1 / 3n+2.
    """
    counts = hand.all_counts()
    if hand.context.indicator is not None:
        counts[hand.context.indicator] += 1
    if max(counts) > 4:
        kind = next(kind for kind, n in enumerate(counts) if n > 4)
        extra = " (with the indicator)" if kind == hand.context.indicator else ""
        return f"{counts[kind]} copies of {tile_name(kind)}{extra}: there are only 4"
    wanted = 2 if hand.win_tile is not None else 1
    if hand.size % 3 != wanted:
        what = "a winning hand" if hand.win_tile is not None else "a waiting hand"
        return f"{hand.size} tiles is not a size for {what} (3n+{wanted})"
    return None
