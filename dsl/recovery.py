"""Report more than the first syntax error of a file, where the parser can recover.

After a syntax error, the statement it lies in (from the line that starts it to the
line before the next statement) is blanked out, its line breaks kept so every place
stays where it was, and the text is parsed again; each further error found this way
is reported too.  A statement starts a line with one of the keywords the grammar
accepts at the start of a statement, read from the grammar itself so new statements
count without a list here.  Blanking only ever removes text, never adds it, so an
error after a blanked statement is an error in the file.  Recovery stops at the end
of the file (an error there may come from the blanking), at the ruleset's own line,
and after a few errors.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from lark import Lark, Token, Tree, UnexpectedInput, UnexpectedToken
from lark.exceptions import UnexpectedEOF

from mjr.errors import Problem

#: The most syntax errors reported for one file.
MOST_ERRORS = 20
#: Larger texts report their first syntax error only (each error is another parse).
MOST_RECOVERED_BYTES = 200_000
_FIRST_WORD = re.compile(r"\s*([a-z_]+)")


@lru_cache(maxsize=4)
def statement_keywords(lark: Lark) -> frozenset[str]:
    """The keywords that can start a statement, as the grammar says."""
    interactive = lark.parse_interactive('ruleset x "x" {')
    interactive.exhaust_lexer()
    words = set()
    for terminal in interactive.accepts():  # type: ignore[no-untyped-call]
        pattern = lark.get_terminal(terminal).pattern
        if pattern.type == "str" and pattern.value.isidentifier():
            words.add(pattern.value)
    return frozenset(words)


def more_problems(lark: Lark, text: str, error: UnexpectedInput,
                  describe: Callable[[UnexpectedInput, str], Problem]) -> list[Problem]:
    """The syntax errors after ``error`` (the first), each described by ``describe``
    (given the error and the text parsed, with the statements before it blanked)."""
    if len(text) > MOST_RECOVERED_BYTES:
        return []
    keywords = statement_keywords(lark)
    lines = text.split("\n")
    found: list[Problem] = []
    while len(found) < MOST_ERRORS - 1 and not _at_end(error):
        if not _blank_statement(lines, error, keywords):
            break
        blanked = "\n".join(lines)
        try:
            lark.parse(blanked)
            break
        except UnexpectedInput as later:
            error = later
        except RecursionError:
            break
        if _at_end(error):
            break
        found.append(describe(error, blanked))
    return found


def _at_end(error: UnexpectedInput) -> bool:
    return isinstance(error, UnexpectedEOF) or (isinstance(error, UnexpectedToken) and error.token.type == "$END")


def _starts_statement(line: str, keywords: frozenset[str]) -> bool:
    match = _FIRST_WORD.match(line)
    return match is not None and match.group(1) in keywords


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _next_statement(line: str, keywords: frozenset[str], indent: int) -> bool:
    """Does ``line`` start the statement after one indented ``indent``: a keyword,
    or a word (a misspelt keyword) no further in than that statement?"""
    if _starts_statement(line, keywords):
        return True
    word = _FIRST_WORD.match(line)
    return word is not None and _indent(line) <= indent


def _statement_start(error: UnexpectedInput) -> int | None:
    """The line (1-based) of the statement the parser was in at ``error``: the first
    token it holds after the ruleset's '{' and the statements completed before;
    the error's own line when it is at a statement's first word; None in the
    ruleset's own line."""
    parser = getattr(error, "interactive_parser", None)
    if parser is None:
        return None
    stack = list(parser.parser_state.value_stack)
    opening = next((i for i, item in enumerate(stack) if isinstance(item, Token) and item.type == "LBRACE"), None)
    if opening is None:
        return None
    rest = stack[opening + 1:]
    if rest and isinstance(rest[0], Tree) and str(rest[0].data).startswith("__"):  # the statements so far
        rest = rest[1:]
    lines = [line for line in map(_first_line, rest) if line is not None]
    return lines[0] if lines else error.line


def _first_line(item: object) -> int | None:
    if isinstance(item, Token):
        return item.line
    if isinstance(item, Tree):
        for child in item.children:
            line = _first_line(child)
            if line is not None:
                return line
    return None


def _blank_statement(lines: list[str], error: UnexpectedInput, keywords: frozenset[str]) -> bool:
    """Blank (in place) the statement ``error`` lies in, up to the next line that
    starts a statement; False when there is none to blank."""
    start = _statement_start(error)
    if start is None or start < 1:
        return False
    indent = _indent(lines[start - 1])
    end = error.line
    while end < len(lines) and not _next_statement(lines[end], keywords, indent):
        end += 1
    if end == len(lines):  # the last statement: keep the ruleset's closing brace
        end = max((i for i in range(error.line, len(lines)) if lines[i].strip() == "}"), default=error.line)
    for i in range(start - 1, end):
        lines[i] = " " * len(lines[i])
    return True
