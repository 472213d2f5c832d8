"""The wall of a hand of play: a shuffled list of tiles, drawn from the front, with
kong and flower replacements from the back.

A tile of the wall is a kind 0-33, a flower: :data:`FLOWER_BASE` + n - 1 for
flower n (1-8), or a dedicated joker, :data:`WALL_JOKER` (a tile set's ``jokers N``:
no kind of its own, written ``J``; see :mod:`mjr.tiles.jokers`).  The last ``dead`` tiles
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
from ..tiles.kinds import N_KINDS, parse_tile, tile_name

#: A flower's tile number in the wall: flower n is FLOWER_BASE + n - 1.
FLOWER_BASE = N_KINDS
#: A dedicated joker's tile number in the wall, after the flowers (a hand's joker is
#: :data:`mjr.tiles.JOKER`, which the wall gives to flower 1).
WALL_JOKER = FLOWER_BASE + N_FLOWERS


def is_flower(tile: int) -> bool:
    return FLOWER_BASE <= tile < WALL_JOKER


def wall_tile_name(tile: int) -> str:
    if tile == WALL_JOKER:
        return JOKER_LETTER
    return flower_name(tile - FLOWER_BASE + 1) if is_flower(tile) else tile_name(tile)


def parse_wall_tile(text: str) -> int:
    """A tile of the wall from its name (``5m``, ``E``, ``3f``, ``J``); an error names it."""
    if len(text) == 2 and text[1] == "f" and text[0] in "12345678":
        return FLOWER_BASE + int(text[0]) - 1
    if text == JOKER_LETTER:
        return WALL_JOKER
    try:
        return parse_tile(text)
    except ValueError:
        raise MjrError(f"unknown tile {clip_repr(text)} (tiles are written 1m-9m, 1p-9p, 1s-9s, E S W N P F C, 1f-8f, "
                       f"{JOKER_LETTER} for a joker)") from None


def full_set(kinds: Iterable[int], flowers: bool, jokers: int = 0) -> list[int]:
    """Every tile of a tile set, four of each kind, one of each flower and its ``jokers``."""
    tiles = [kind for kind in sorted(kinds) for _ in range(4)]
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
    def shuffled(cls, kinds: Iterable[int], flowers: bool, seed: int, dead: int, jokers: int = 0) -> Wall:
        tiles = full_set(kinds, flowers, jokers)
        random.Random(seed).shuffle(tiles)
        return cls(tiles, dead)

    @classmethod
    def given(cls, tiles: Sequence[int], kinds: Iterable[int], flowers: bool, dead: int, jokers: int = 0) -> Wall:
        """A wall given tile by tile: it must hold exactly the ruleset's tile set."""
        expected = Counter(full_set(kinds, flowers, jokers))
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

    def draw_back(self) -> int:
        """A replacement tile (after a kong or a flower), from the back of the wall."""
        if self.live == 0:
            raise MjrError("the wall is empty")
        self.tail -= 1
        return self.tiles[self.tail]
