"""The error of the hand readers: a bad hand string (or JSON value), with the place
of the first mistake shown by a caret under it."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import MjrError, _blank

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import NoReturn

#: How much of the text an error quotes around its caret.
_QUOTE_WIDTH = 80


class NotationError(MjrError):
    """A bad hand string (or JSON value), with the place of the first mistake.

    ``column`` is 0-based; ``str()`` shows the text with a caret under it so a
    CLI can print the error as it is.
    """

    def __init__(self, text: str, column: int, reason: str) -> None:
        self.text = text
        self.column = column
        self.reason = reason
        shown, caret = _quote(text, column)
        super().__init__(f"bad hand at column {column + 1}: {reason}\n    {shown}\n    {caret}")

    def __reduce__(self) -> tuple[type[NotationError], tuple[str, int, str]]:
        """Pickle by the three fields, since ``__init__`` does not take the message."""
        return (type(self), (self.text, self.column, self.reason))


def _quote(text: str, column: int) -> tuple[str, str]:
    """The stretch of ``text`` an error shows, and the caret line under it.

    At most :data:`_QUOTE_WIDTH` characters around the caret, with ``...`` where
    the text is cut; whitespace shows as a space and other unprintable characters
    as ``?``, so the caret stays under its character and no control code reaches
    a terminal.
    """
    start, end = 0, len(text)
    if end > _QUOTE_WIDTH:
        start = max(0, min(column - _QUOTE_WIDTH // 2, end - _QUOTE_WIDTH))
        end = start + _QUOTE_WIDTH
    before, after = _printable(text[start:column]), _printable(text[column:end])
    lead = "..." if start else ""
    tail = "..." if end < len(text) else ""
    caret = " " * len(lead) + "".join(_blank(ch) for ch in before) + "^"
    return lead + before + after + tail, caret


def _guess(word: str, known: Sequence[str], cutoff: float = 0.6) -> str | None:
    """The known word ``word`` is most likely a misspelling of, if any."""
    from difflib import get_close_matches  # only a misspelling needs it

    guess = get_close_matches(word, known, 1, cutoff) or get_close_matches(word.lower(), known, 1, cutoff)
    return guess[0] if guess else None


def _printable(text: str) -> str:
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else " " if ch.isspace() else "?" for ch in text)


def _fail(text: str, column: int, reason: str) -> NoReturn:
    raise NotationError(text, column, reason)
