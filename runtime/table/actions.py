"""The actions of a hand of play, and their one-line text.

``draw``, ``discard 5m``, ``kong 5m`` (concealed or added, on the player's own turn),
``win``, and the answers to a discard: ``chow 345m``, ``pung``, ``kong``, ``win``,
``pass``.  Where the rules have them: ``void m`` (the suit a player declares void
after the deal, ``void_suit declared``), ``pass`` on a roaming last tile
(``last_draw roams``), ``open`` for a kong's replacement by opening the kong
(``open_kong``), ``declare 5m``, a discard that makes the ruleset's declaration
(``declare``), and ``abort``, an abortive draw a player may call (``abort ...
nine_kinds N``, 九種九牌).  A red five is discarded as its kind: a hand gives up a plain
copy first.
Flowers are set aside and replaced as they are drawn, by the table.  A dedicated
joker is discarded as ``discard J``; a claim takes the held jokers it needs itself
(see :meth:`mjr.table.Table.claim_tiles`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..errors import IllegalAction, MjrError, clip_repr
from ..tiles.kinds import FIRST_HONOR, N_KINDS, tile_name
from .seats import SEATS, seat_number, whole_number
from .wall import WALL_JOKER, is_flower, is_red, kind_of, parse_wall_tile, wall_tile_name

#: The kinds of action, and which of them name a tile.
KINDS = ("draw", "discard", "chow", "pung", "kong", "win", "pass", "open", "void", "declare", "abort")
_WITH_TILE = ("discard", "chow", "void", "declare")
#: The suits a ``void`` declaration names, by letter: its ``tile`` is the suit's first kind.
VOID_SUITS = "mps"
#: What the tile of each kind of action that has one stands for.
_TILE_OF = {"discard": "tile (a kind 0-33, or the joker 42)", "chow": "chow's lowest tile (a suited kind, rank 1-7)",
            "void": "suit (0, 9 or 18: its first kind)", "kong": "kong's kind (0-33; none when claiming)",
            "declare": "discard (a kind 0-33, or the joker 42)"}


def _fits(kind: str, tile: int) -> bool:
    """Whether ``tile`` (an int) is a tile ``kind`` may name."""
    if kind in ("discard", "declare"):
        return 0 <= tile < N_KINDS or tile == WALL_JOKER
    if kind == "chow":
        return 0 <= tile < FIRST_HONOR and tile % 9 <= 6
    if kind == "void":
        return tile in (0, 9, 18)
    return kind == "kong" and 0 <= tile < N_KINDS


def _checked_tile(kind: str, tile: object) -> int:
    """``tile`` as the plain int of a tile ``kind`` names; else :class:`~mjr.errors.IllegalAction`."""
    if kind not in _TILE_OF:
        raise IllegalAction(f"Action.tile: {kind!r} takes no tile, not {clip_repr(tile)}")
    number = whole_number(tile, "Action.tile", 0, WALL_JOKER, IllegalAction)
    if not _fits(kind, number):
        raise IllegalAction(f"Action.tile: {number} is no {_TILE_OF[kind]} of {kind!r}")
    return number


@dataclass(frozen=True, order=True)
class Action:
    """What one player does: ``seat`` (0 to the table's seats less one, at most
    0-7), the kind, and its tile where it has one (the discard, the lowest tile of
    a chow, the kind of a kong on the player's own turn)."""

    seat: int
    kind: str
    tile: int | None = None

    def __post_init__(self) -> None:
        """Refuse what is no action (:class:`~mjr.errors.IllegalAction`, naming the
        field): a seat, kind or tile of the wrong type or out of range, a tile where
        the kind takes none.  A seat or tile given as a numpy int is kept as an int.
        (The plain ints of a table's own actions pass the first test of each field.)"""
        seat, kind, tile = self.seat, self.kind, self.tile
        if type(seat) is not int or not 0 <= seat < SEATS:
            object.__setattr__(self, "seat", seat_number(seat, "Action.seat"))
        if type(kind) is not str or kind not in KINDS:
            raise IllegalAction(f"Action.kind must be one of {', '.join(KINDS)}, not {clip_repr(kind)}")
        if tile is None:
            if kind in _WITH_TILE:
                raise IllegalAction(f"Action.tile: {kind!r} names its {_TILE_OF[kind]}")
        elif type(tile) is not int or not _fits(kind, tile):
            object.__setattr__(self, "tile", _checked_tile(kind, tile))

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
        """The action ``text`` says, by the player at ``seat``; an :class:`~mjr.errors.IllegalAction`
        names what is wrong."""
        if not isinstance(text, str):
            raise IllegalAction(f"an action is text such as 'discard 5m', not {type(text).__name__}")
        words = text.split()
        if not words or words[0] not in KINDS:
            raise IllegalAction(f"unknown action {clip_repr(text)}: actions are {', '.join(KINDS)}")
        kind = words[0]
        if len(words) == 1:
            if kind in _WITH_TILE:
                example = {"chow": "345m", "void": "m"}.get(kind, "5m")
                what = "suit" if kind == "void" else "tile"
                raise IllegalAction(f"{kind!r} names its {what}, e.g. '{kind} {example}'")
            return cls(seat, kind)
        if len(words) > 2 or kind not in (*_WITH_TILE, "kong"):
            takes = "one tile" if kind in (*_WITH_TILE, "kong") else "no tile"
            raise IllegalAction(f"{clip_repr(text)}: {kind!r} takes {takes}")
        if kind == "chow":
            return cls(seat, kind, _chow_start(words[1]))
        if kind == "void":
            if words[1] not in VOID_SUITS:
                raise IllegalAction(f"{clip_repr(text)}: 'void' names a suit, m, p or s, e.g. 'void m'")
            return cls(seat, kind, VOID_SUITS.index(words[1]) * 9)
        try:
            tile = parse_wall_tile(words[1])
        except MjrError as error:
            raise IllegalAction(str(error)) from None
        if is_flower(tile):
            raise IllegalAction(f"{clip_repr(text)}: a flower is set aside as it is drawn, never {kind}ed")
        if is_red(tile):
            raise IllegalAction(f"{clip_repr(text)}: a red five is named by its kind, e.g. '{kind} "
                                f"{tile_name(kind_of(tile))}' (a hand gives up a plain copy first)")
        if tile == WALL_JOKER and kind == "kong":
            raise IllegalAction(f"{clip_repr(text)}: a joker has no kind of its own; a kong names the kind of its "
                                "real tiles, e.g. 'kong 5m'")
        return cls(seat, kind, tile)


@cache
def offered(seat: int, kind: str, tile: int | None = None) -> Action:
    """The action of these fields as a table offers it: made (and checked) once,
    then shared, an :class:`Action` being frozen.  A table offers a few hundred
    actions in all, and each of them again and again."""
    return Action(seat, kind, tile)


def _chow_start(text: str) -> int:
    """The lowest tile of a chow written ``345m``."""
    if len(text) == 4 and text[:3].isdigit() and text[3] in "mps":
        low = int(text[0])
        if 1 <= low <= 7 and text[1:3] == f"{low + 1}{low + 2}":
            return "mps".index(text[3]) * 9 + low - 1
    raise IllegalAction(f"a chow is written as its three tiles in a row, e.g. 'chow 345m', not {clip_repr(text)}")
