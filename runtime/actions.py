"""The actions of a hand of play, and their one-line text.

``draw``, ``discard 5m``, ``kong 5m`` (concealed or added, on the player's own turn),
``win``, and the answers to a discard: ``chow 345m``, ``pung``, ``kong``, ``win``,
``pass``.  Where the rules have them: ``void m`` (the suit a player declares void
after the deal, ``void_suit declared``), ``pass`` on a roaming last tile
(``last_draw roams``), and ``open`` for a kong's replacement by opening the kong
(``open_kong``).
Flowers are set aside and replaced as they are drawn, by the table.  A dedicated
joker is discarded as ``discard J``; a claim takes the held jokers it needs itself
(see :meth:`mjr.table.Table.claim_tiles`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import MjrError
from .tiles import tile_name
from .wall import WALL_JOKER, is_flower, parse_wall_tile, wall_tile_name

#: The kinds of action, and which of them name a tile.
KINDS = ("draw", "discard", "chow", "pung", "kong", "win", "pass", "open", "void")
_WITH_TILE = ("discard", "chow", "void")
#: The suits a ``void`` declaration names, by letter: its ``tile`` is the suit's first kind.
VOID_SUITS = "mps"


@dataclass(frozen=True, order=True)
class Action:
    """What one player does: ``seat`` 0-3, the kind, and its tile where it has one
    (the discard, the lowest tile of a chow, the kind of a kong on the player's own turn)."""

    seat: int
    kind: str
    tile: int | None = None

    def __str__(self) -> str:
        if self.tile is None:
            return self.kind
        if self.kind == "void":
            return f"void {VOID_SUITS[self.tile // 9]}"
        if self.kind == "chow":
            return f"chow {''.join(str(self.tile % 9 + rank) for rank in (1, 2, 3))}{tile_name(self.tile)[1]}"
        return f"{self.kind} {wall_tile_name(self.tile)}"

    @classmethod
    def parse(cls, seat: int, text: str) -> Action:
        """The action ``text`` says, by the player at ``seat``; an error names what is wrong."""
        if not isinstance(text, str):
            raise MjrError(f"an action is text such as 'discard 5m', not {type(text).__name__}")
        words = text.split()
        if not words or words[0] not in KINDS:
            raise MjrError(f"unknown action {text!r}: actions are {', '.join(KINDS)}")
        kind = words[0]
        if len(words) == 1:
            if kind in _WITH_TILE:
                example = {"chow": "345m", "void": "m"}.get(kind, "5m")
                raise MjrError(f"{kind!r} names its {'suit' if kind == 'void' else 'tile'}, e.g. '{kind} {example}'")
            return cls(seat, kind)
        if len(words) > 2 or kind not in (*_WITH_TILE, "kong"):
            raise MjrError(f"{text!r}: {kind!r} takes {'one tile' if kind in (*_WITH_TILE, 'kong') else 'no tile'}")
        if kind == "chow":
            return cls(seat, kind, _chow_start(words[1]))
        if kind == "void":
            if words[1] not in VOID_SUITS:
                raise MjrError(f"{text!r}: 'void' names a suit, m, p or s, e.g. 'void m'")
            return cls(seat, kind, VOID_SUITS.index(words[1]) * 9)
        tile = parse_wall_tile(words[1])
        if is_flower(tile):
            raise MjrError(f"{text!r}: a flower is set aside as it is drawn, never {kind}ed")
        if tile == WALL_JOKER and kind == "kong":
            raise MjrError(f"{text!r}: a joker has no kind of its own; a kong names the kind of its real tiles, "
                           "e.g. 'kong 5m'")
        return cls(seat, kind, tile)


def _chow_start(text: str) -> int:
    """The lowest tile of a chow written ``345m``."""
    if len(text) == 4 and text[:3].isdigit() and text[3] in "mps":
        low = int(text[0])
        if 1 <= low <= 7 and text[1:3] == f"{low + 1}{low + 2}":
            return "mps".index(text[3]) * 9 + low - 1
    raise MjrError(f"a chow is written as its three tiles in a row, e.g. 'chow 345m', not {text!r}")
