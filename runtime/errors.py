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
            line, start, end = _window(self.source_line, start, end)
            prefix = "".join(_blank(c) for c in line[:start]) + " " * max(start - len(line), 0)
            under = line[start:end]
            width = sum(len(_blank(c)) if c != "\t" else 1 for c in under) + max(end - start - len(under), 0)
            caret = prefix + "^" * max(width, 1)
            text += f"\n    {line}\n    {caret}"
        return text


#: The most characters of a source line an error shows; a longer line is cut around
#: the place, with '...', so a one-line megabyte file still gives a readable message.
LINE_WIDTH = 120


def _window(line: str, start: int, end: int) -> tuple[str, int, int]:
    """The part of ``line`` to show around ``start``-``end``, and those positions in it."""
    if len(line) <= LINE_WIDTH:
        return line, start, end
    first = max(0, min(start - LINE_WIDTH // 3, len(line) - LINE_WIDTH))
    lead = "..." if first else ""
    shown = lead + line[first:first + LINE_WIDTH] + ("..." if first + LINE_WIDTH < len(line) else "")
    offset = len(lead) - first
    return shown, start + offset, min(end + offset, len(lead) + LINE_WIDTH)


def _blank(char: str) -> str:
    """What stands under ``char`` in a caret line, so the caret lines up on a terminal:
    a tab, two spaces under a wide (East Asian) character, none under a combining mark."""
    if char == "\t":
        return "\t"
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


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest candidate, or an empty string."""
    import difflib  # only an error message needs it

    hint = difflib.get_close_matches(name, list(candidates), n=1)
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


class LogWriteError(MjrError):
    """A table's event log could not be written (a full disk, a closed stream): the
    action it records stands, and the table writes no more to that log, so what the
    log holds is the hand's log cut short (a replay refuses it as truncated).  The
    ``OSError`` is its ``__cause__``."""
