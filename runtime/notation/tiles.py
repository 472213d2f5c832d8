"""Reading the tiles and melds of hand text, each tile with its column.

:mod:`mjr.notation` reads a hand word by word and gives its tile words and
bracketed meld words to this module: :func:`scan_tiles` reads MPSZ runs, honour
letters, flowers (``15f``), red fives (``0m``) and jokers (``J``), refusing a
character that is no part of a tile where it stands, and :func:`parse_meld` reads
one meld word, ``[345p<L]`` ... ``(5555p)``, and checks its shape (a meld holding
a joker is read by :mod:`mjr.notation.jokers`).  Every mistake raises
:class:`~mjr.errors.NotationError` at its character.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..abi import JOKER, SOURCES
from ..hand.model import CHOW, KONG, PUNG, Meld
from ..tiles.flowers import FLOWER_LETTER, N_FLOWERS
from ..tiles.jokers import JOKER_LETTER
from ..tiles.kinds import FIRST_HONOR, HONOR_LETTERS, is_honor, kind_of, suit_of, tile_name
from ..tiles.red import RED_DIGIT
from .format import CLOSER_OF
from .jokers import joker_meld
from .words import DIGITS, SUITS, fail

# --------------------------------------------------------------------------- tiles


@dataclass(frozen=True)
class Tile:
    """A tile read from text, with where it was read so errors can point at it."""

    kind: int
    column: int
    #: a red five (written 0m, 0p, 0s)
    red: bool = False


def _bad_char_reason(ch: str) -> str:
    """Explain a stray character, with a hint for the likely case slips."""
    if ch in "MPSZ" and ch.lower() in SUITS:
        return f"'{ch}' is not a suit letter: suits are lowercase m p s z"
    if ch.islower() and ch.upper() in HONOR_LETTERS and ch not in SUITS:
        return f"'{ch}' is not a tile letter: honour letters are uppercase E S W N P F C"
    shown = f"'{ch}'" if ch.isprintable() else f"U+{ord(ch):04X}"
    return f"{shown} is not part of a tile: expected ranks 1-9 then m p s z, or an honour letter E S W N P F C"


def _suit_group(text: str, ranks: list[tuple[int, int]], pos: int) -> list[Tile]:
    """Close a run of ranks with the suit letter at ``pos``."""
    letter = text[pos]
    if not ranks:
        fail(text, pos, f"'{letter}' has no ranks before it: write ranks then the suit, as in 123{letter}")
    suit = SUITS.index(letter)
    for rank, column in ranks:
        if suit == 3 and rank > 7:
            fail(text, column, f"there is no {rank}z: honours are 1z-7z (E S W N P F C)")
        if suit == 3 and rank == 0:
            fail(text, column, "0 writes a red five, 0m 0p or 0s: there is no red honour")
    return [Tile(kind_of(rank or 5, suit), column, rank == 0) for rank, column in ranks]


def _flower_group(text: str, ranks: list[tuple[int, int]], pos: int, flowers: list[Tile] | None) -> None:
    """Close a run of ranks with the flower letter at ``pos``: flowers 1-8."""
    if flowers is None:
        fail(text, pos, "a flower (1f-8f) stands only among the concealed tiles, before 'win': it is no tile "
                         "of a meld, a win or a fact")
    if not ranks:
        fail(text, pos, "'f' has no numbers before it: write the flowers as in 15f (flowers 1-8)")
    for rank, column in ranks:
        if rank > N_FLOWERS or rank == 0:
            fail(text, column, f"there is no {rank}f: flowers are 1f-8f (1-4 梅兰竹菊, 5-8 春夏秋冬)")
        flowers.append(Tile(rank, column))


def scan_tiles(text: str, start: int, end: int, stops: str = "",
                flowers: list[Tile] | None = None, red: bool = False, jokers: bool = False) -> tuple[list[Tile], int]:
    """Read tiles from ``text[start:end]`` up to the first character in ``stops``.

    Returns the tiles and where reading stopped, so a meld can go on to its
    source and closing bracket.  Flowers (``15f``) go to ``flowers`` as numbers;
    where none may stand (``None``: a meld, ``win``, a fact) they are refused.  A
    red five (``0m``) stands only among the hand's own tiles (``red``): an
    indicator or a fact writes its kind, ``5m``.  So does a joker (``J``, read as
    kind :data:`mjr.tiles.JOKER`, ``jokers``), which may stand among a suit's
    ranks (``3J5m``).
    """
    tiles: list[Tile] = []
    ranks: list[tuple[int, int]] = []
    pos = start
    while pos < end and text[pos] not in stops:
        ch = text[pos]
        if ch in DIGITS:
            if ch == RED_DIGIT and not red:
                fail(text, pos, "0 writes a red five (0m 0p 0s), one of the hand's own tiles: an indicator or a "
                                 "fact writes its kind, 5m")
            ranks.append((int(ch), pos))
        elif ch in SUITS:
            tiles += _suit_group(text, ranks, pos)
            ranks = []
        elif ch == FLOWER_LETTER:
            _flower_group(text, ranks, pos, flowers)
            ranks = []
        elif ch in HONOR_LETTERS:
            if ranks:
                fail(text, pos, f"the ranks before '{ch}' have no suit letter (m p s z)")
            tiles.append(Tile(FIRST_HONOR + HONOR_LETTERS.index(ch), pos))
        elif ch == JOKER_LETTER:
            if not jokers:
                fail(text, pos, "J writes a joker, one of the hand's own tiles (concealed, in a meld or the "
                                 "winning tile): an indicator or a fact names a tile kind")
            tiles.append(Tile(JOKER, pos))
        else:
            fail(text, pos, _bad_char_reason(ch))
        pos += 1
    if ranks:
        fail(text, pos, "the ranks here have no suit letter (m p s z) after them")
    return tiles, pos


# --------------------------------------------------------------------------- melds


def _meld_size_check(text: str, tiles: list[Tile], stop: int) -> None:
    """A meld holds three or four tiles."""
    if not tiles:
        fail(text, stop, "empty meld: expected 3 or 4 tiles such as [555p]")
    if len(tiles) < 3:
        fail(text, stop, f"a meld needs 3 or 4 tiles, this one has {len(tiles)}")
    if len(tiles) > 4:
        fail(text, tiles[4].column, "a meld has at most 4 tiles")


def _meld_shape(text: str, tiles: list[Tile], stop: int) -> tuple[str, int]:
    """Classify the tiles of a meld as (kind, lowest tile), or fail at the tile
    that spoils the shape."""
    _meld_size_check(text, tiles, stop)
    first = tiles[0].kind
    names = " ".join(tile_name(t.kind) for t in tiles)
    for tile in tiles[1:]:
        if suit_of(tile.kind) != suit_of(first):
            fail(text, tile.column, f"a meld is all one suit: {names} mixes suits")
    odd = next((t for t in tiles if t.kind != first), None)
    if odd is None:
        return (KONG if len(tiles) == 4 else PUNG), first
    if len(tiles) == 4:
        fail(text, odd.column, f"four tiles make a kong only if all are the same: {names}")
    if is_honor(first):
        fail(text, odd.column, f"honours make no chow: {names} is not a pung either")
    ordered = sorted(tiles, key=lambda t: (t.kind, t.column))
    base = ordered[0].kind
    for step, tile in enumerate(ordered):
        if tile.kind != base + step:
            fail(text, tile.column, f"{names} is neither a chow (three ranks in a row) nor a pung")
    return CHOW, base


@dataclass(frozen=True)
class _Suffix:
    """What follows the tiles inside a meld's brackets."""

    source: str | None
    added: bool
    plus_at: int


def _meld_suffix(text: str, pos: int, end: int, opener: int) -> _Suffix:
    """Read ``<X``, ``+`` and the closing bracket that end a meld word."""
    concealed = text[opener] == "("
    closer = CLOSER_OF[text[opener]]
    source = None
    if pos < end and text[pos] == "<":
        if concealed:
            fail(text, pos, "a concealed kong (5555p) takes no source; write [5555p<L] for a claimed kong")
        pos += 1
        if pos >= end or text[pos] not in SOURCES:
            fail(text, pos, "expected L, O or R after '<' (left, opposite, right), or 2-6 (steps on in play order "
                            "at a table of five or more)")
        source = text[pos]
        pos += 1
    plus_at = pos
    added = pos < end and text[pos] == "+"
    if added:
        if concealed:
            fail(text, pos, "a concealed kong (5555p) cannot be added; write [5555p+]")
        pos += 1
    if pos >= end:
        fail(text, pos, f"'{text[opener]}' is not closed: expected '{closer}' (no spaces inside a meld)")
    if text[pos] == "<" and added:
        fail(text, pos, "the source goes before '+', as in [5555p<L+]")
    if text[pos] != closer:
        fail(text, pos, f"expected '{closer}' to close the meld")
    if pos + 1 < end:
        fail(text, pos + 1, "unexpected text after the meld: write one meld per word")
    return _Suffix(source, added, plus_at)


def parse_meld(text: str, start: int, end: int, red: list[Tile] | None = None,
                jokers: list[Tile] | None = None) -> Meld:
    """One bracketed meld word, ``[345p<L]`` ... ``(5555p)``; its red fives go to
    ``red``, its jokers (``[5J5m]``) to ``jokers``."""
    tiles, stop = scan_tiles(text, start + 1, end, stops="<+])", red=red is not None, jokers=jokers is not None)
    if red is not None:
        red += [tile for tile in tiles if tile.red]
    held = [tile for tile in tiles if tile.kind == JOKER]
    suffix = _meld_suffix(text, stop, end, start)
    stands_for: tuple[int, ...] = ()
    if held:
        assert jokers is not None  # (read only where they may stand)
        jokers += held
        _meld_size_check(text, tiles, stop)
        kind, tile, stands_for = joker_meld(text, tiles, stop)
    else:
        kind, tile = _meld_shape(text, tiles, stop)
    if suffix.added and kind != KONG:
        fail(text, suffix.plus_at, "only a kong can be added (+): a fourth tile added to a pung")
    concealed = text[start] == "("
    if concealed and kind != KONG:
        fail(text, start, f"( ) holds only a concealed kong; write [ ] for a {kind}")
    return Meld(kind, tile, concealed, suffix.source, suffix.added, stands_for)
