"""The words of the hand notation, shared by both readers (the fast one in
:mod:`mjr.notation.scan`, the full one in :mod:`mjr.notation.parse`) and the
writer: the letters of a tile word, the context keywords, and how a word that is
none of them is told apart from a misspelt keyword."""

from __future__ import annotations

from ..abi import ASIDE
from ..errors import NotationError, closest
from ..hand.model import WIN_METHODS
from ..tiles.jokers import JOKER_LETTER
from ..tiles.kinds import HONOR_LETTERS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import NoReturn

DIGITS = "0123456789"
#: Suit letters in kind order; ``z`` is the honours.
SUITS = "mpsz"
FLAG_WORDS = ("after_kong", "last_tile", "first_turn", "dealer")
VALUE_WORDS = ("seat", "round", "from", "indicator", "winners", "void")
#: Every word that is not tiles or a meld; unknown words are matched against these.
KEYWORDS = ("win", *WIN_METHODS, *FLAG_WORDS, *VALUE_WORDS, ASIDE)
#: How close to a keyword an undeclared word must be to be read as its misspelling
#: rather than as a fact of play (``sef_draw`` is a typo; ``streak`` is a fact).
TYPO = 0.7

_TILE_CHARS = frozenset(DIGITS + SUITS + HONOR_LETTERS + JOKER_LETTER)


def is_number(text: str) -> bool:
    """A whole number in ASCII digits: ``isdigit`` alone takes ``²`` and ``٣``."""
    return text.isascii() and text.isdigit()


def looks_like_tiles(word: str) -> bool:
    """Whether a word is meant as tiles, so its errors point inside it.

    A word that merely starts with an honour letter but resembles a keyword
    (``Seat``, ``Dealer``) is treated as a misspelt keyword instead.
    """
    if word[0] in DIGITS:
        return True
    if set(word) <= _TILE_CHARS and any(ch in DIGITS for ch in word):
        return True
    if word[0] in HONOR_LETTERS or word[0] == JOKER_LETTER:
        return set(word) <= _TILE_CHARS or not closest(word, KEYWORDS, lower=False)
    return False


def misspelt_keyword(word: str) -> str | None:
    """The keyword an undeclared word is most likely a misspelling of, if any."""
    guess = closest(word, KEYWORDS, cutoff=TYPO)
    return guess[0] if guess else None


def fail(text: str, column: int, reason: str) -> NoReturn:
    """Refuse ``text`` at ``column`` (0-based), saying why."""
    raise NotationError(text, column, reason)
