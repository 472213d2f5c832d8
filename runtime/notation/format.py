"""Writing hands as text: the canonical notation :mod:`mjr.notation` reads.

:func:`format_hand` writes concealed tiles grouped by suit in kind order with
honours as ``z`` digits (a red five as ``0``, in the first place one can stand),
the flowers as one word (``15f``), one word per meld, ``win T``, the tiles set
aside (``aside 117z``), then the context
words that differ from :class:`~mjr.hand.Context`'s defaults, in field order, then
the facts of play by name.  ``parse_hand(format_hand(h)) == h`` for every hand it accepts.
"""

from __future__ import annotations

from ..abi import JOKER, SEAT_NAMES
from ..hand.model import Context, Hand, Meld
from ..tiles.aside import ASIDE
from ..tiles.flowers import format_flowers
from ..tiles.jokers import JOKER_LETTER, joker_places
from ..tiles.kinds import WIND_LETTERS, suit_of, tile_name
from ..tiles.red import RED_DIGIT
from .words import FLAG_WORDS, SUITS

VOID_LETTERS = "mps"
CLOSER_OF = {"[": "]", "(": ")"}
DEFAULT_CONTEXT = Context()


def check_writable(hand: Hand) -> None:
    """Refuse to write what could not be read back as the same hand: a Hand is
    valid by construction, so only the hand with no tile at all remains."""
    if not hand.tiles and not hand.jokers and not hand.melds and hand.win_tile is None:
        raise ValueError("a hand with no tiles has no notation")


def _format_tiles(kinds: tuple[int, ...], red: list[int] | None = None) -> str:
    """``2234m567p11z``: grouped by suit, in kind order; the first copies of the
    kinds in ``red`` are written as red fives (``406m``) and taken from it."""
    groups: list[str] = []
    for suit, letter in enumerate(SUITS):
        ranks = ""
        for k in sorted(kinds):
            if suit_of(k) == suit:
                ranks += _rank(k, red)
        if ranks:
            groups.append(ranks + letter)
    return "".join(groups)


def _rank(kind: int, red: list[int] | None) -> str:
    if red and kind in red:
        red.remove(kind)
        return RED_DIGIT
    return tile_name(kind)[0]


def format_meld(meld: Meld, red: list[int] | None = None) -> str:
    """One meld as the notation writes it: ``[555p<O]``, ``(5555p)``."""
    opener = "(" if meld.concealed else "["
    source = f"<{meld.source}" if meld.source else ""
    plus = "+" if meld.added else ""
    tiles = _format_joker_meld(meld, red) if meld.jokers else _format_tiles(meld.tiles, red)
    return f"{opener}{tiles}{source}{plus}{CLOSER_OF[opener]}"


def _format_joker_meld(meld: Meld, red: list[int] | None) -> str:
    """A meld's tiles with its jokers: a chow's in their places (``3J5m``), a pung's
    or kong's after its real tiles (``55Jm``)."""
    tiles = meld.tiles
    if meld.kind == "chow":
        places = joker_places(tiles, meld.jokers)
        ranks = "".join(JOKER_LETTER if places >> p & 1 else _rank(k, red) for p, k in enumerate(tiles))
    else:
        real = tiles[:len(tiles) - len(meld.jokers)]
        ranks = "".join(_rank(k, red) for k in real) + JOKER_LETTER * len(meld.jokers)
    return ranks + SUITS[suit_of(meld.tile)]


def _format_context(context: Context) -> list[str]:
    """Only the words that differ from the defaults, in field order, so equal
    hands always give equal text."""
    words: list[str] = []
    if context.win_by != DEFAULT_CONTEXT.win_by:
        words.append(context.win_by)
    words += [flag for flag in FLAG_WORDS if getattr(context, flag)]
    if context.seat:
        words += ["seat", SEAT_NAMES[context.seat]]
    if context.round:
        words += ["round", WIND_LETTERS[context.round]]
    if context.source is not None:
        words += ["from", context.source]
    if context.indicator is not None:
        words += ["indicator", tile_name(context.indicator)]
    if context.winners != DEFAULT_CONTEXT.winners:
        words += ["winners", str(context.winners)]
    if context.void is not None:
        words += ["void", VOID_LETTERS[context.void]]
    if context.dealer_seat is not None:
        words += ["dealer", SEAT_NAMES[context.dealer_seat]]
    for name, value in context.facts:
        words.append(name)
        if type(value) is int:
            words.append(str(value))
        elif type(value) is tuple:
            words.append(_format_tiles(value))
    return words


def format_hand(hand: Hand) -> str:
    """The canonical text of a hand; :func:`parse_hand` reads it back as an equal hand.

    Raises ValueError for a hand with no tile at all, which the notation cannot
    express (anything else a :class:`~mjr.Hand` holds, it can).
    """
    check_writable(hand)
    red = list(hand.red)  # written in the first places they can stand: concealed, melds, the winning tile
    words = [_format_tiles(hand.tiles, red) + JOKER_LETTER * hand.jokers] if hand.tiles or hand.jokers else []
    if hand.flowers:
        words.append(format_flowers(hand.flowers))
    words += [format_meld(meld, red) for meld in hand.melds]
    if hand.win_tile == JOKER:
        words += ["win", JOKER_LETTER]
    elif hand.win_tile is not None:
        words += ["win", RED_DIGIT + tile_name(hand.win_tile)[1] if red else tile_name(hand.win_tile)]
    if hand.aside:
        words += [ASIDE, _format_tiles(hand.aside)]
    return " ".join(words + _format_context(hand.context))

