"""Hands to and from the arguments of PyMahjongGB's ``MahjongFanCalculator``.

PyMahjongGB (``pip install PyMahjongGB``, module ``MahjongGB``) is a C++ fan
calculator for Chinese Official mahjong (MCR, 国标).  Comparing a ruleset with it
hand by hand needs each hand in both forms, so this module converts between them
and nothing more: it never imports the library.

The calculator's positional arguments are ``(pack, hand, winTile, flowerCount,
isSelfDrawn, is4thTile, isAboutKong, isWallLast, seatWind, prevalentWind)``:

* tiles are codes: ``W1``-``W9`` characters (m), ``B1``-``B9`` dots (p),
  ``T1``-``T9`` bamboo (s), ``F1``-``F4`` the winds E S W N, ``J1`` red (7z),
  ``J2`` green (6z), ``J3`` white (5z);
* ``pack`` is a tuple of declared sets ``(type, tile, offer)``: type ``CHI``
  (its tile is the chow's *middle* tile), ``PENG`` or ``GANG``; offer 1, 2, 3 says
  who fed a pung or kong (left 上家, opposite 对家, right 下家) and which tile of a
  chow was claimed (first, second, third); offer 0 is a concealed kong;
* ``hand`` is the concealed tiles without the winning tile, as in mjr;
* ``is4thTile`` is the fact of play ``last_copy`` (the other three copies of the
  winning tile are in sight); ``isAboutKong`` is ``after_kong`` on a self-draw (a
  win on a kong's replacement tile) and ``robbing_kong`` otherwise; ``isWallLast``
  is ``last_tile``; the winds are 0-3 (E S W N).
"""

from __future__ import annotations

import re
from typing import NoReturn

from ..errors import ArgumentError, NotationError, UnconvertibleError
from ..hand.model import CHOW, KONG, PUNG, Context, Hand, Meld
from ..notation.parse import format_hand, parse_hand
from ..tiles.kinds import FIRST_HONOR

#: The library's code of each tile kind 0-33 (see :mod:`mjr.tiles`): white is J3, red J1.
TILE_CODES = (
    tuple(f"W{rank}" for rank in range(1, 10)) + tuple(f"B{rank}" for rank in range(1, 10))
    + tuple(f"T{rank}" for rank in range(1, 10)) + ("F1", "F2", "F3", "F4", "J3", "J2", "J1")
)
KIND_OF_CODE = {code: kind for kind, code in enumerate(TILE_CODES)}
PACK_TYPES = {CHOW: "CHI", PUNG: "PENG", KONG: "GANG"}
MELD_KIND_OF_PACK = {pack: kind for kind, pack in PACK_TYPES.items()}
#: A pung's or kong's offer by the meld's source; a meld of unknown source is given 1.
OFFER_OF_SOURCE = {"L": 1, "O": 2, "R": 3}
SOURCE_OF_OFFER = {offer: source for source, offer in OFFER_OF_SOURCE.items()}
#: The offer given to a chow: mjr does not record which of its tiles was claimed.
CHOW_OFFER = 1
#: The fact of play the calculator's ``is4thTile`` stands for.
LAST_COPY = "last_copy"
#: The argument names, in the calculator's order.
ARGUMENT_NAMES = ("pack", "hand", "winTile", "flowerCount", "isSelfDrawn", "is4thTile", "isAboutKong",
                  "isWallLast", "seatWind", "prevalentWind")
#: Context fields the calculator has no argument for: the word that writes each, and why it cannot go.
_UNSAID = (
    ("first_turn", "first_turn", "MCR scores no first-turn win, and the calculator has no argument for one"),
    ("dealer", "dealer", "the calculator does not know the dealer"),
    ("dealer_seat", "dealer", "the calculator does not know the dealer"),
    ("indicator", "indicator", "MCR has no indicator"),
    ("void", "void", "MCR declares no void suit"),
    ("winners", "winners", "the calculator scores one winner"),
)

#: A context with every field at its default, to tell the fields a hand sets.
_PLAIN = Context()

Args = tuple[tuple[tuple[str, str, int], ...], tuple[str, ...], str, int, bool, bool, bool, bool, int, int]






# --------------------------------------------------------------------------- mjr to the library


def to_args(hand: Hand | str) -> Args:
    """The positional arguments of ``MahjongFanCalculator`` for a winning hand.

    ``hand`` is a :class:`~mjr.Hand` or a notation string (read with ``last_copy``
    as its one fact of play, so a mistake is refused at its character).  A meld's
    source gives a pung's or kong's offer (1 when unknown); a chow gets offer 1,
    since the notation does not say which of its tiles was claimed.  An added
    kong is a kong of its source.  ``discard after_kong`` (a win on the discard
    after a kong, no MCR fan) and ``from X`` have no argument and are dropped; a
    context the calculator cannot express is refused.
    """
    text = hand if isinstance(hand, str) else None
    if text is not None:
        hand = parse_hand(text, {LAST_COPY: "flag"})
    if not isinstance(hand, Hand):
        raise UnconvertibleError(f"to_args takes a Hand or a hand string, not {type(hand).__name__}")
    problem = _unsaid(hand)
    if problem is not None:
        field, word, reason = problem
        _refuse(text, field, word, reason)
    context = hand.context
    if hand.win_tile is None:
        _refuse(text, "win_tile", None, "a waiting hand: the calculator scores a winning hand (write 'win T')")
    pack = tuple(_pack(index, meld, text) for index, meld in enumerate(hand.melds))
    about_kong = context.win_by == "robbing_kong" or (context.self_draw and context.after_kong)
    return (pack, tuple(TILE_CODES[kind] for kind in sorted(hand.tiles)), TILE_CODES[hand.win_tile],
            len(hand.flowers), context.self_draw, context.fact(LAST_COPY) is True, about_kong, context.last_tile,
            context.seat, context.round)


def _unsaid(hand: Hand) -> tuple[str, str, str] | None:
    """(field, word, why) of the first context field set that has no argument."""
    context = hand.context
    for name, word, reason in _UNSAID:
        if getattr(context, name) != getattr(_PLAIN, name):
            return f"context.{name}", word, reason
    for name, _ in context.facts:
        if name != LAST_COPY:
            return "context.facts", name, f"the calculator knows no fact of play but {LAST_COPY!r}"
    return None


def _pack(index: int, meld: Meld, text: str | None) -> tuple[str, str, int]:
    """One declared set as ``(type, tile, offer)``."""
    if meld.kind == CHOW:
        if meld.source not in (None, "L"):
            _refuse(text, f"melds[{index}].source", None,
                    "a chow is claimed from the left (上家): the calculator's chow offer says which tile was taken")
        return ("CHI", TILE_CODES[meld.tile + 1], CHOW_OFFER)
    offer = 0 if meld.concealed else OFFER_OF_SOURCE.get(meld.source or "L", 1)
    return (PACK_TYPES[meld.kind], TILE_CODES[meld.tile], offer)


def _refuse(text: str | None, field: str, word: str | None, reason: str) -> NoReturn:
    """Raise for a hand the calculator cannot take: at the word's column for a
    string, naming the field for a Hand."""
    if text is not None:
        found = re.search(rf"(?<!\S){re.escape(word)}(?!\S)", text) if word else None
        column = found.start() if found else (_meld_column(text, field) if "melds[" in field else len(text))
        raise NotationError(text, column, reason)
    raise UnconvertibleError(f"cannot give Hand.{field} to PyMahjongGB: {reason}")


def _meld_column(text: str, field: str) -> int:
    """The column of the meld ``melds[i]`` names in a hand string."""
    index = int(field[len("melds["):field.index("]")])
    starts = [found.start() for found in re.finditer(r"[\[(]", text)]
    return starts[index] if index < len(starts) else 0


# --------------------------------------------------------------------------- the library to mjr


def from_args(pack: object, hand: object, winTile: object, flowerCount: object,  # noqa: N803 - the library's names
              isSelfDrawn: object, is4thTile: object, isAboutKong: object, isWallLast: object,  # noqa: N803
              seatWind: object, prevalentWind: object) -> str:  # noqa: N803
    """The notation of the hand ``MahjongFanCalculator`` is called with.

    Each argument is checked as the calculator reads it, and a bad one raises
    :class:`ArgumentError` naming its place (``pack[0][2]``).  The flowers are
    written ``1f`` up to the count; ``isAboutKong`` is ``after_kong`` on a
    self-draw and ``robbing_kong`` otherwise.  A chow is written claimed from the
    left, a concealed kong ``(...)``, a melded pung or kong with its offer's source.
    """
    melds = _melds(pack)
    tiles = tuple(sorted(_kind(f"hand[{index}]", code) for index, code in enumerate(_sequence("hand", hand))))
    win = _kind("winTile", winTile)
    flowers = _int("flowerCount", flowerCount, 0, 8)
    drawn, about_kong = _flag("isSelfDrawn", isSelfDrawn), _flag("isAboutKong", isAboutKong)
    method = "self_draw" if drawn else "robbing_kong" if about_kong else "discard"
    context = Context(
        win_by=method, after_kong=drawn and about_kong, last_tile=_flag("isWallLast", isWallLast),
        seat=_int("seatWind", seatWind, 0, 3), round=_int("prevalentWind", prevalentWind, 0, 3),
        facts=((LAST_COPY, True),) if _flag("is4thTile", is4thTile) else (),
    )
    return format_hand(Hand(tiles, melds, win, context, tuple(range(1, flowers + 1))))


def _melds(pack: object) -> tuple[Meld, ...]:
    melds = []
    for index, item in enumerate(_sequence("pack", pack)):
        where = f"pack[{index}]"
        if not isinstance(item, (tuple, list)) or len(item) != 3:
            raise ArgumentError(where, item, "expected a (type, tile, offer) tuple")
        kind_code, code, offer = item
        if kind_code not in MELD_KIND_OF_PACK:
            raise ArgumentError(f"{where}[0]", kind_code, "expected 'CHI', 'PENG' or 'GANG'")
        kind, tile = MELD_KIND_OF_PACK[kind_code], _kind(f"{where}[1]", code)
        offer = _int(f"{where}[2]", offer, 0, 3)
        melds.append(_meld(where, kind, tile, offer))
    return tuple(melds)


def _meld(where: str, kind: str, tile: int, offer: int) -> Meld:
    if offer == 0 and kind != KONG:
        raise ArgumentError(f"{where}[2]", offer, f"offer 0 is a concealed kong; a {PACK_TYPES[kind]} "
                            "was claimed, offer 1-3")
    if kind == CHOW:
        if tile >= FIRST_HONOR or tile % 9 in (0, 8):
            raise ArgumentError(f"{where}[1]", TILE_CODES[tile], "a CHI names its middle tile, rank 2-8 of a suit")
        return Meld(CHOW, tile - 1, source="L")
    if offer == 0:
        return Meld(KONG, tile, concealed=True)
    return Meld(kind, tile, source=SOURCE_OF_OFFER[offer])


def _sequence(where: str, value: object) -> tuple[object, ...]:
    if not isinstance(value, (tuple, list)):
        raise ArgumentError(where, value, f"expected a tuple, not {type(value).__name__}")
    return tuple(value)


def _kind(where: str, code: object) -> int:
    if isinstance(code, str) and code in KIND_OF_CODE:
        return KIND_OF_CODE[code]
    raise ArgumentError(where, code, "not a tile code: W1-W9, B1-B9, T1-T9, F1-F4 (E S W N) or J1-J3 (red green white)")


def _int(where: str, value: object, low: int, high: int) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    raise ArgumentError(where, value, f"expected an int {low}-{high}")


def _flag(where: str, value: object) -> bool:
    if isinstance(value, bool) or (type(value) is int and value in (0, 1)):
        return bool(value)
    raise ArgumentError(where, value, "expected True or False")

