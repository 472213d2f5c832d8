"""The wall of a hand of play: a shuffled list of tiles, drawn from the front, with
kong and flower replacements from the back.

A tile of the wall is a kind 0-33, a flower: :data:`FLOWER_BASE` + n - 1 for
flower n (1-8), a dedicated joker, :data:`WALL_JOKER` (a tile set's ``jokers N``:
no kind of its own, written ``J``; see :mod:`mjr.tiles.jokers`), or a red five,
:data:`RED_BASE` + the suit (0m 0p 0s: a tile set's ``red_fives``, one of the four
copies of each suit's 5; a 5 in play, and counted).  The last ``dead`` tiles
are never drawn; a tile flipped as an indicator is taken from the back and, unless
it goes back into play, out of the wall.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from ..errors import MjrError, clip_repr
from ..tiles.flowers import N_FLOWERS, flower_name
from ..tiles.jokers import JOKER_LETTER
from ..tiles.kinds import N_KINDS, SUIT_LETTERS, parse_tile, tile_name
from ..tiles.red import RED_DIGIT, RED_KINDS

#: A flower's tile number in the wall: flower n is FLOWER_BASE + n - 1.
FLOWER_BASE = N_KINDS
#: A dedicated joker's tile number in the wall, after the flowers (a hand's joker is
#: :data:`mjr.tiles.JOKER`, which the wall gives to flower 1).
WALL_JOKER = FLOWER_BASE + N_FLOWERS
#: A red five's tile number in the wall: RED_BASE + its suit (0 m, 1 p, 2 s), after the joker.
RED_BASE = WALL_JOKER + 1
#: The highest tile number of a wall.
LAST_WALL_TILE = RED_BASE + len(RED_KINDS) - 1


def is_flower(tile: int) -> bool:
    return FLOWER_BASE <= tile < WALL_JOKER


def is_red(tile: int) -> bool:
    return RED_BASE <= tile <= LAST_WALL_TILE


def kind_of(tile: int) -> int:
    """The kind a wall tile plays as: a red five's 5, any other tile itself (a
    flower's or a joker's number, which name no kind, unchanged)."""
    return RED_KINDS[tile - RED_BASE] if is_red(tile) else tile


def red_tile(kind: int) -> int:
    """The wall tile of the red copy of ``kind`` (a suit's 5)."""
    return RED_BASE + RED_KINDS.index(kind)


def wall_tile_name(tile: int) -> str:
    if tile == WALL_JOKER:
        return JOKER_LETTER
    if is_red(tile):
        return RED_DIGIT + SUIT_LETTERS[tile - RED_BASE]
    return flower_name(tile - FLOWER_BASE + 1) if is_flower(tile) else tile_name(tile)


def parse_wall_tile(text: str) -> int:
    """A tile of the wall from its name (``5m``, ``0m``, ``E``, ``3f``, ``J``); an error names it."""
    if len(text) == 2 and text[1] == "f" and text[0] in "12345678":
        return FLOWER_BASE + int(text[0]) - 1
    if text == JOKER_LETTER:
        return WALL_JOKER
    if len(text) == 2 and text[0] == RED_DIGIT and text[1] in SUIT_LETTERS:
        return RED_BASE + SUIT_LETTERS.index(text[1])
    try:
        return parse_tile(text)
    except ValueError:
        raise MjrError(f"unknown tile {clip_repr(text)} (tiles are written 1m-9m, 1p-9p, 1s-9s, E S W N P F C, 1f-8f, "
                       f"{JOKER_LETTER} for a joker, 0m 0p 0s for a red five)") from None


def full_set(kinds: Iterable[int], flowers: bool, jokers: int = 0, red: Iterable[int] = ()) -> list[int]:
    """Every tile of a tile set, four of each kind (of each kind in ``red``, one of
    them its red copy), one of each flower and its ``jokers``."""
    red = frozenset(red)
    tiles = [kind for kind in sorted(kinds) for _ in range(4 - (kind in red))]
    tiles += [red_tile(kind) for kind in sorted(red)]
    if flowers:
        tiles += [FLOWER_BASE + n for n in range(N_FLOWERS)]
    return tiles + [WALL_JOKER] * jokers


class Wall:
    """The tiles not yet drawn: ``tiles[head:tail]``, of which the last ``dead`` are never drawn."""

    def __init__(self, tiles: Sequence[int], dead: int):
        self.original = tuple(tiles)  # the wall as shuffled or given, before any tile was taken
        self.tiles = list(tiles)
        self.head = 0
        self.tail = len(self.tiles)
        self.dead = dead

    @classmethod
    def shuffled(cls, kinds: Iterable[int], flowers: bool, seed: int, dead: int, jokers: int = 0,
                 red: Iterable[int] = ()) -> Wall:
        tiles = full_set(kinds, flowers, jokers, red)
        random.Random(seed).shuffle(tiles)
        return cls(tiles, dead)

    @classmethod
    def given(cls, tiles: Sequence[int], kinds: Iterable[int], flowers: bool, dead: int, jokers: int = 0,
              red: Iterable[int] = ()) -> Wall:
        """A wall given tile by tile: it must hold exactly the ruleset's tile set."""
        expected = Counter(full_set(kinds, flowers, jokers, red))
        got = Counter(tiles)
        if got != expected:
            extra = sorted((got - expected).elements())
            missing = sorted((expected - got).elements())
            parts = []
            if extra:
                parts.append(f"{len(extra)} too many ({' '.join(map(wall_tile_name, extra[:8]))})")
            if missing:
                parts.append(f"{len(missing)} missing ({' '.join(map(wall_tile_name, missing[:8]))})")
            raise MjrError(f"the wall does not hold the ruleset's tiles: {'; '.join(parts)}")
        return cls(tiles, dead)

    @property
    def live(self) -> int:
        """How many tiles may still be drawn."""
        return max(0, self.tail - self.head - self.dead)

    def draw(self) -> int:
        if self.live == 0:
            raise MjrError("the wall is empty")
        tile = self.tiles[self.head]
        self.head += 1
        return tile

    def take_out(self, position: int) -> None:
        """Take the tile at ``position`` out of play (a flipped indicator, a flower
        set aside): the tiles before it move up one place, the order of the rest kept."""
        if not self.head <= position < self.tail:
            raise MjrError("the wall is empty")
        if position == self.tail - 1:
            self.tail -= 1
        else:
            self.tiles.insert(self.head, self.tiles.pop(position))
            self.head += 1

    def set_back(self, kept: int, count: int) -> list[int]:
        """Take ``count`` tiles out of the dead wall, those just before its last
        ``kept`` (the tiles a ``reveal`` turns up and those under them), the nearest
        the back first; the dead wall is that much shorter."""
        end = self.tail - kept
        taken = self.tiles[end - count:end][::-1]
        del self.tiles[end - count:end]
        self.tail -= count
        self.dead -= count
        return taken

    def draw_back(self) -> int:
        """A replacement tile (after a kong or a flower), from the back of the wall."""
        if self.live == 0:
            raise MjrError("the wall is empty")
        self.tail -= 1
        return self.tiles[self.tail]
