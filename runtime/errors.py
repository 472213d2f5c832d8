"""Errors that point at a place in a user's text.

Every user mistake (a syntax error in a ``.mjr`` file, an unknown name, a bad hand
string) becomes a :class:`SourceError` carrying the place and a caret rendering; the
CLI prints them and exits non-zero, never with a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class MjrError(Exception):
    """Base of every error mjr raises for a user's mistake."""


@dataclass(frozen=True)
class Span:
    """A place in a source text: 1-based line and column, ``end_column`` exclusive."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Problem:
    span: Span
    message: str
    source_line: str = ""

    def render(self) -> str:
        text = f"{self.span}: {self.message}"
        if self.source_line:
            start = max(self.span.column, 1) - 1
            end = start + 1
            if self.span.end_line in (0, self.span.line) and self.span.end_column > self.span.column:
                end = self.span.end_column - 1
            shown, caret = quote(self.source_line, start, end, LINE_WIDTH, LINE_WIDTH // 3)
            text += f"\n    {shown}\n    {caret}"
        return text


#: The most characters of a source line an error shows; a longer line is cut around
#: the place, with '...', so a one-line megabyte file still gives a readable message.
LINE_WIDTH = 120
#: The most characters of a hand's text an error shows around its caret.
HAND_WIDTH = 80


def quote(line: str, start: int, end: int, width: int, before: int) -> tuple[str, str]:
    """The stretch of ``line`` an error shows, and the caret line under it: carets
    under the characters ``start`` to ``end`` (0-based, ``end`` exclusive; at least
    one, which may stand just past the end of the line).

    At most ``width`` characters of the line, ``before`` of them before the place
    where the line is longer, with ``...`` where it is cut;
    whitespace shows as a space and other unprintable characters as ``?``, so the
    carets stay under their characters on a terminal (two columns under a wide
    East Asian character) and no control code reaches it.
    """
    first = max(0, min(start - before, len(line) - width)) if len(line) > width else 0
    last = min(first + width, len(line))
    lead, tail = "..." if first else "", "..." if last < len(line) else ""
    shown = _printable(line[first:last])
    start, end = start - first, max(min(end, last) - first, start - first + 1)
    ahead, under = shown[:start], shown[start:end]
    prefix = " " * len(lead) + "".join(map(_blank, ahead)) + " " * (start - len(ahead))
    carets = sum(len(_blank(ch)) for ch in under) + (end - start - len(under))
    return lead + shown + tail, prefix + "^" * max(carets, 1)


def _printable(text: str) -> str:
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else " " if ch.isspace() else "?" for ch in text)


def _blank(char: str) -> str:
    """What stands under ``char`` in a caret line: two spaces under a wide (East
    Asian) character, none under a combining mark, else one."""
    if char.isascii():
        return " "
    import unicodedata  # only an error message needs it

    if unicodedata.east_asian_width(char) in ("W", "F"):
        return "  "
    return "" if unicodedata.combining(char) else " "


class SourceError(MjrError):
    """One or more problems, each with its place; ``str()`` shows them all."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(p.render() for p in self.problems))


def problem_at(text: str, span: Span, message: str) -> Problem:
    """A problem whose source line is taken from ``text``."""
    lines = text.split("\n")  # lines end at '\n' only, as the parser counts them
    line = lines[span.line - 1].removesuffix("\r") if 0 < span.line <= len(lines) else ""
    return Problem(span, message, line)


class PurePythonWarning(RuntimeWarning):
    """A ruleset runs interpreted (pure-Python mode) because it could not be compiled.

    Given once per process, for the first ruleset that falls back."""


class NotCompiledError(MjrError):
    """``backend="compiled"`` was asked for, but no compiled build can be had here
    (no working C compiler now, or none when mjr was installed)."""


class CacheWarning(RuntimeWarning):
    """The build cache cannot be used (``MJR_CACHE_DIR`` names a file, a folder that
    cannot be made, a read-only place; or the default location is another user's, or
    writable by others); builds go to a temporary folder instead."""


class CacheError(MjrError):
    """The build cache folder named by ``MJR_CACHE_DIR`` (or asked about by ``mjr
    cache``) is not private: another user's, or writable by its group or others.
    A module found there could be anyone's, so nothing there is loaded."""


def first_line(error: BaseException) -> str:
    """An error's first line, or its class's name when it says nothing: a library's
    error (a cluster's, a file format's) can run to many lines, a message to one."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def os_reason(error: BaseException | None) -> str:
    """Why an operating-system call failed, in words (``No space left on device``):
    an ``OSError``'s ``strerror``, else the error's own text."""
    return error.strerror if isinstance(error, OSError) and error.strerror else str(error)


def closest(word: str, candidates: Iterable[str], n: int = 1, cutoff: float = 0.6, *,
            lower: bool = True) -> list[str]:
    """The candidates ``word`` is most likely a misspelling of, best first (at most
    ``n``; ``cutoff`` as in :func:`difflib.get_close_matches`), trying ``word`` in
    lower case when it matches none as it is and ``lower`` is set.  The one fuzzy
    match of every did-you-mean in mjr."""
    import difflib  # only an error message needs it

    known = list(candidates)
    found = difflib.get_close_matches(word, known, n, cutoff)
    if not found and lower and word != word.lower():
        found = difflib.get_close_matches(word.lower(), known, n, cutoff)
    return found


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest candidate, or an empty string."""
    hint = closest(name, candidates, lower=False)
    return f" (did you mean {hint[0]!r}?)" if hint and hint[0] != name else ""


class UnfinishedRunError(MjrError):
    """A run over a file of hands that started and stopped before its end: a worker
    lost with its task, a part of the input that cannot be read, an output that
    cannot be written.  What it wrote is not left as if it were complete, and
    ``mjr score --batch`` exits with status 3 (a finished run with refusals exits 1)."""


class IllegalAction(MjrError):
    """An action a table refuses, saying why: one the rules or the state of play do not
    allow, or no action at all (a seat, kind or tile of the wrong type or out of
    range, named as the argument it came in).  The table is unchanged."""


class TableError(MjrError, ValueError):
    """A setting of a table of play or a session that cannot be played (a stake, a
    seed, a seating out of range or of the wrong type); names the argument."""


class PlayStopped(MjrError):
    """A person ended ``mjr play`` at its prompt: the input ended (Ctrl-D) or they
    typed ``quit``.  The hands played stand; the hand in play is left unfinished."""


class LogWriteError(MjrError):
    """A table's event log could not be written (a full disk, a closed stream): the
    action it records stands, and the table writes no more to that log, so what the
    log holds is the hand's log cut short (a replay refuses it as truncated).  The
    ``OSError`` is its ``__cause__``."""


def clip_repr(value: object, limit: int = 40) -> str:
    """``repr(value)`` for an error message, never long and never failing.

    A container is described, not printed (it may be huge or nested deeper than
    ``repr`` can go), and an int too long to print is given by its size.
    """
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        return f"a {type(value).__name__} of {len(value)} items"
    if isinstance(value, int) and value.bit_length() > 4 * limit:
        return f"an int of {value.bit_length()} bits"
    if isinstance(value, str) and len(value) > limit:
        return clip(repr(value[:limit]), limit)
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a user's object whose repr fails still gets a message
        text = f"a {type(value).__name__}"
    return clip(text, limit)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, non-printable characters
    shown as ``?`` so an error never writes control codes to a terminal."""
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text if text.isprintable() else "".join(ch if ch.isprintable() else "?" for ch in text)


class HandFieldError(MjrError, ValueError):
    """A :class:`Hand`, :class:`Meld` or :class:`Context` built with a bad field.

    ``field`` names it as the dataclass does (``tiles[3]``, ``source``), ``value``
    is the value given and ``reason`` says what the field takes.  It is also a
    ValueError, as a bad argument to a constructor conventionally is.
    """

    def __init__(self, owner: str, field: str, value: object, reason: str) -> None:
        self.owner = owner
        self.field = field
        self.value = value
        self.reason = reason
        super().__init__(f"bad {owner}.{field} {clip_repr(value)}: {reason}")

    def __reduce__(self) -> tuple[type[HandFieldError], tuple[str, str, object, str]]:
        """Pickle by the fields, since ``__init__`` does not take the message."""
        return (type(self), (self.owner, self.field, self.value, self.reason))


class BatchError(MjrError):
    """A batch buffer of the wrong type, item size, shape or layout."""


class ExtraMissingError(MjrError):
    """An optional dependency is not installed; the message names the extra."""


class OptionError(MjrError):
    """An unknown option, a value it does not allow, or a combination the ruleset refuses."""


class ArgumentError(MjrError, ValueError):
    """A bad argument for the calculator, named as its place in the call:
    ``pack[1][2]``, ``hand[4]``, ``seatWind``."""

    def __init__(self, where: str, value: object, reason: str) -> None:
        self.where = where
        self.value = value
        self.reason = reason
        super().__init__(f"bad PyMahjongGB argument {where} = {clip_repr(value)}: {reason}")

    def __reduce__(self) -> tuple[type[ArgumentError], tuple[str, object, str]]:
        """Pickle by the fields, since ``__init__`` does not take the message."""
        return (type(self), (self.where, self.value, self.reason))


class UnconvertibleError(MjrError, ValueError):
    """A hand the calculator cannot be asked about (a waiting hand, a context it has
    no argument for), naming the :class:`~mjr.Hand` field."""


class RecordError(MjrError):
    """A record no hand can have: a field out of its range."""


class HandError(MjrError):
    """A hand this ruleset cannot be asked about: impossible, or outside its rules."""


class KernelError(MjrError, ValueError):
    """Arguments the kernel cannot take: counts that are not 34 small numbers, a
    seven-pairs mode or a code out of range."""


class NotationError(MjrError):
    """A bad hand string (or JSON value), with the place of the first mistake.

    ``column`` is 0-based; ``str()`` shows the text with a caret under it so a
    CLI can print the error as it is.
    """

    def __init__(self, text: str, column: int, reason: str) -> None:
        self.text = text
        self.column = column
        self.reason = reason
        shown, caret = quote(text, column, column + 1, HAND_WIDTH, HAND_WIDTH // 2)
        super().__init__(f"bad hand at column {column + 1}: {reason}\n    {shown}\n    {caret}")

    def __reduce__(self) -> tuple[type[NotationError], tuple[str, int, str]]:
        """Pickle by the three fields, since ``__init__`` does not take the message."""
        return (type(self), (self.text, self.column, self.reason))


def missing_extra(what: str, extra: str) -> ExtraMissingError:
    """The one-line error for a feature whose optional dependency is missing."""
    return ExtraMissingError(f"{what}; install it with: pip install 'mahjong-rules[{extra}]'")


class LogError(MjrError):
    """A log that cannot be replayed, or that the rules contradict; names the line."""
