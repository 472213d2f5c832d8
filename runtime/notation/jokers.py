"""Reading a meld that holds dedicated jokers (``J``, see :mod:`mjr.tiles.jokers`).

A joker in a meld takes the place of one of its tiles.  The real tiles name the
meld's kind: all of one kind make a pung (a kong with four tiles), as ``[5J5m]``
or ``[EJE]``; otherwise the meld is a chow written in rank order, the joker in
the place it fills: ``[3J5m]`` is 345m with the joker as 4m, ``[J45m]`` 345m with
it as 3m.  A meld of jokers alone names no kind and is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..abi import JOKER
from ..hand.model import CHOW, KONG, PUNG
from ..tiles.jokers import JOKER_LETTER
from ..tiles.kinds import is_honor, suit_of, tile_name
from .words import fail

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import Protocol

    class _Read(Protocol):
        """A tile read with its column (as mjr.notation.tiles reads it)."""

        @property
        def kind(self) -> int: ...

        @property
        def column(self) -> int: ...


def joker_meld(text: str, tiles: Sequence[_Read], stop: int) -> tuple[str, int, tuple[int, ...]]:
    """(kind, lowest tile, the kinds the jokers stand for) of a meld whose ``tiles``
    (read with their columns, 3 or 4 of them) hold a joker, or fail at the tile that
    spoils it."""
    ordered = sorted(tiles, key=lambda t: t.column)
    real = [t for t in ordered if t.kind != JOKER]
    if not real:
        fail(text, ordered[0].column, f"a meld of jokers alone names no tile: write one real tile, as in "
                                       f"[5{JOKER_LETTER}{JOKER_LETTER}m]")
    first = real[0].kind
    names = " ".join(JOKER_LETTER if t.kind == JOKER else tile_name(t.kind) for t in ordered)
    for tile in real[1:]:
        if suit_of(tile.kind) != suit_of(first):
            fail(text, tile.column, f"a meld is all one suit: {names} mixes suits")
    jokers = len(ordered) - len(real)
    if all(t.kind == first for t in real):
        return (KONG if len(ordered) == 4 else PUNG), first, (first,) * jokers
    odd = next(t for t in real if t.kind != first)
    if len(ordered) == 4:
        fail(text, odd.column, f"four tiles make a kong only if all are the same: {names}")
    if is_honor(first):
        fail(text, odd.column, f"honours make no chow: {names} is not a pung either")
    return _joker_chow(text, ordered, names)


def _joker_chow(text: str, ordered: list[_Read], names: str) -> tuple[str, int, tuple[int, ...]]:
    """A chow with a joker, written in rank order: each tile one rank above the one
    before it, the joker in its place."""
    place, anchor = next((p, t) for p, t in enumerate(ordered) if t.kind != JOKER)
    base = anchor.kind - place
    for step, tile in enumerate(ordered):
        if tile.kind != JOKER and tile.kind != base + step:
            fail(text, tile.column, f"{names} is neither a pung nor a chow written in rank order (a joker in "
                                     f"a chow stands where its rank goes, as in [3{JOKER_LETTER}5m])")
    if base < anchor.kind - anchor.kind % 9 or base % 9 > 6:
        fail(text, ordered[0].column, f"{names} runs past the suit: a chow is three ranks in a row, 1-9")
    return CHOW, base, tuple(base + step for step, tile in enumerate(ordered) if tile.kind == JOKER)
