"""Tiles: the 34 kinds and their names (:mod:`.kinds`), and what a tile set may add to
them: flowers, red fives, jokers, kinds set aside as they are drawn."""

from __future__ import annotations

from ..abi import JOKER, MAX_JOKERS
from .jokers import JOKER_LETTER
from .kinds import (
    COPIES,
    FIRST_HONOR,
    HONOR_LETTERS,
    N_KINDS,
    SUIT_LETTERS,
    TERMINALS_AND_HONORS,
    TILE_NAMES,
    WIND_LETTERS,
    is_honor,
    kind_of,
    parse_tile,
    rank_of,
    suit_of,
    tile_name,
)

__all__ = [
    "JOKER",
    "JOKER_LETTER",
    "MAX_JOKERS",
    "COPIES",
    "FIRST_HONOR",
    "HONOR_LETTERS",
    "is_honor",
    "kind_of",
    "N_KINDS",
    "parse_tile",
    "rank_of",
    "SUIT_LETTERS",
    "suit_of",
    "TERMINALS_AND_HONORS",
    "tile_name",
    "TILE_NAMES",
    "WIND_LETTERS",
]
