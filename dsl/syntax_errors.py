"""Syntax errors in words: where Lark stopped, what it found (the whole word, a
string's bad escape), and what the grammar accepts there, with a did-you-mean."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from mjr.errors import Problem, Span, closest, did_you_mean, problem_at

from .quoting import quoted
from .recovery import statement_keywords

#: Friendly names for terminals in "expected ..." messages.
TERMINAL_NAMES = {
    "RULESET_ID": "a ruleset id",
    "NAME": "a name",
    "STRING": "a quoted string",
    "INT": "a number",
    "SIGNED_INT": "a number",
    "TILE": "a tile",
    "SEAT_NUMBER": "a seat 5-8",
    "SUIT": "a suit letter",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "COLON": "':'",
    "COMPARE": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'",
    "PLACE": "'left', 'opposite' or 'right'",
    "SIGN": "'+' or '-'",
    "$END": "end of file",
}

_WORD = re.compile(r"\w+")
_NAME = re.compile(r"[a-z_][a-z0-9_]*")


def syntax_problem(lark: Lark, error: UnexpectedInput, text: str, file: str, parsed: str = "") -> Problem:
    """Lark's ``error`` in ``text`` as a problem at its place, saying what was found
    and what ``lark``'s grammar expected there.  ``parsed`` is the text Lark read, when
    not ``text`` itself (after recovery has blanked statements: same lines, same places)."""
    parsed = parsed or text
    line, column = max(error.line, 1), max(error.column, 1)
    width = 1
    misspelt = _misspelt_statement(lark, error, parsed)
    if misspelt is not None:
        word, keyword, column = misspelt
        span = Span(file, error.line, column, error.line, column + len(word))
        return problem_at(text, span, typo_message(word, keyword))
    if isinstance(error, UnexpectedToken) and error.token.type == "$END":  # how LALR sees the end
        line, column = _end_of_text(text)
        expected = error.accepts or error.expected
        opened = _unclosed_brace(lark, parsed) if "RBRACE" in expected else None
        if opened is not None:
            message = f"unexpected end of file: the '{{' opened at {opened.line}:{opened.column} is never closed"
        else:
            message = "unexpected end of file" + _expected(lark, expected)
    elif isinstance(error, UnexpectedEOF):
        line, column = _end_of_text(text)
        message = "unexpected end of file" + _expected(lark, error.expected)
    elif isinstance(error, UnexpectedToken):
        found = str(error.token)
        word = _whole_word(text, error.token.start_pos, found)
        expected = error.accepts or error.expected
        message = f"unexpected {quoted(word)}" + _expected(lark, expected, word) + _name_hint(word, expected)
        width = len(word)
    elif isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream or 0
        char = text[position]
        if char == '"':
            return _string_problem(text, file, position, line, column)
        word = _whole_word(text, position, char)
        if _WORD.fullmatch(word):
            allowed = error.allowed
            message = f"unexpected {quoted(word)}" + _expected(lark, allowed, word) + _name_hint(word, allowed)
            width = len(word)
        else:
            message = f"unexpected character {char!r}" + _expected(lark, error.allowed)
    else:  # pragma: no cover - lark has no other kinds today
        message = "syntax error"
    return problem_at(text, Span(file, line, column, line, column + max(width, 1)), message)


def _end_of_text(text: str) -> tuple[int, int]:
    """The place just after the last character that is not white space."""
    lines = text.rstrip().split("\n")
    return len(lines), len(lines[-1]) + 1


_FIRST_WORD = re.compile(r"\s*([A-Za-z_]\w*)")


def statement_typo(lark: Lark, line: str) -> tuple[int, str, str] | None:
    """(column, word, keyword) when ``line`` starts with a word that is no keyword of
    the grammar but close to a statement's keyword; the column counts from 1."""
    match = _FIRST_WORD.match(line)
    if match is None or match.group(1) in _keywords(lark):
        return None
    close = closest(match.group(1), sorted(statement_keywords(lark)), lower=False)
    return (match.start(1) + 1, match.group(1), close[0]) if close else None


def typo_message(word: str, keyword: str) -> str:
    """What a misspelt statement keyword is told (see :func:`statement_typo`)."""
    return f"unexpected {quoted(word)}; expected a statement keyword (did you mean {quoted(keyword)}?)"


def _misspelt_statement(lark: Lark, error: UnexpectedInput, text: str) -> tuple[str, str, int] | None:
    """When the line of ``error`` starts with a misspelt statement keyword (see
    :func:`statement_typo`) at or before the error, and that keyword in its place
    makes the line parse: the word, the keyword and the word's column.  Lark may stop
    later on the line (``bonsu x "X" 1 : c`` after an ``excludes`` list reads
    ``bonsu x`` as more names and stops at the string)."""
    if isinstance(error, UnexpectedEOF) or (isinstance(error, UnexpectedToken) and error.token.type == "$END"):
        return None
    lines = text.split("\n")
    if not 0 < error.line <= len(lines):
        return None
    line = lines[error.line - 1]
    typo = statement_typo(lark, line)
    if typo is None or error.column < typo[0]:
        return None
    column, word, keyword = typo
    mended = "\n".join([*lines[:error.line - 1], line[:column - 1] + keyword + line[column - 1 + len(word):],
                         *lines[error.line:]])
    try:
        lark.parse(mended)
    except UnexpectedInput as later:
        if later.line <= error.line and not isinstance(later, UnexpectedEOF):
            return None  # the keyword does not mend the line
    except RecursionError:
        return None
    return word, keyword, column


@lru_cache(maxsize=4)
def _keywords(lark: Lark) -> frozenset[str]:
    """Every word the grammar spells out (``fan``, ``and``, ``excludes``, ...)."""
    spelt = (terminal.pattern for terminal in lark.terminals if terminal.pattern.type == "str")
    return frozenset(pattern.value for pattern in spelt if pattern.value.isidentifier())


def _unclosed_brace(lark: Lark, text: str) -> Token | None:
    """The '{' that lacks its '}' in ``text``, whose every token parses (it ends too
    early): the first whose '}' stands further out than the line that opened it (that
    '}' closes an outer block, as its indentation shows), else the innermost left open."""
    opened: list[Token] = []
    pairs: list[tuple[Token, Token]] = []
    for token in lark.parse_interactive(text).iter_parse():
        if token.type == "LBRACE":
            opened.append(token)
        elif token.type == "RBRACE" and opened:
            pairs.append((opened.pop(), token))
    lines = text.split("\n")
    for opening, closing in sorted(pairs, key=lambda pair: pair[0].start_pos or 0):
        if _indent(lines[(closing.line or 1) - 1]) < _indent(lines[(opening.line or 1) - 1]):
            return opening
    return opened[-1] if opened else None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _whole_word(text: str, start: int | None, found: str) -> str:
    """``found`` with the rest of the word it begins (lark stops at 'C' in 'Chicken')."""
    if start is None or not _WORD.fullmatch(found):
        return found
    match = _WORD.match(text, start)
    return match.group() if match and len(match.group()) > len(found) else found


def _name_hint(word: str, expected: Any) -> str:
    """What a name looks like, when one was expected and ``word`` is none."""
    if not {"NAME", "RULESET_ID"} & set(expected or ()) or not _WORD.fullmatch(word) or _NAME.fullmatch(word):
        return ""
    if _NAME.fullmatch("_" + word):
        return " (names start with a lowercase letter or _)"
    return " (names are lowercase letters, digits and _)"


def _string_problem(text: str, file: str, start: int, line: int, column: int) -> Problem:
    """Why the string opened at ``start`` (line, column) is no string of the language."""
    position = start + 1
    while position < len(text) and text[position] not in '"\n' and text[position : position + 2] != "\r\n":
        char = text[position]
        offset = column + position - start
        if char == "\\":
            escaped = text[position + 1 : position + 2]
            if escaped in ('"', "\\", "n"):
                position += 2
                continue
            if escaped not in ("", "\n"):
                message = f"unknown escape '\\{escaped}' in a string (the escapes are \\\", \\\\ and \\n)"
                return problem_at(text, Span(file, line, offset, line, offset + 2), message)
        elif char in "\x00\r":
            message = f"control character U+{ord(char):04X} in a string"
            return problem_at(text, Span(file, line, offset, line, offset + 1), message)
        position += 1
    message = "unterminated string: the closing '\"' is missing before the end of the line"
    return problem_at(text, Span(file, line, column, line, column + 1), message)


#: The most expected words a syntax error lists; the rest are counted.
_MOST_EXPECTED = 12


def _expected(lark: Lark, terminals: Any, found: str = "") -> str:
    names = set()
    keywords = []
    for terminal in terminals or ():
        if terminal in TERMINAL_NAMES:
            names.add(TERMINAL_NAMES[terminal])
            continue
        try:
            pattern = lark.get_terminal(terminal).pattern
        except KeyError:  # lark's own markers, such as the end of the input
            names.add("the end of the file" if "END" in terminal.upper() else terminal.lower())
            continue
        if pattern.type == "str":
            keywords.append(pattern.value)
            names.add(repr(pattern.value))
        else:
            names.add(terminal.lower())
    if not names:
        return ""
    suggestion = did_you_mean(found, keywords) if found else ""
    # What a word is (a name, a number) first, then the keywords, alphabetically.
    listed = sorted(names, key=lambda name: (name.startswith("'"), name))
    if len(listed) > _MOST_EXPECTED:
        listed = [*listed[:_MOST_EXPECTED], f"... ({len(listed) - _MOST_EXPECTED} more)"]
    return f"; expected {', '.join(listed)}{suggestion}"
