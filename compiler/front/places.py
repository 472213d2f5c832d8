"""Places in a ruleset's text: where an id is written, problems in reading order."""

from __future__ import annotations

import re

from mjr.errors import Problem, Span


def id_span(lines: list[str], span: Span, ident: str) -> Span:
    """Where ``ident`` is written in the statement at ``span`` (the first whole word
    after the keyword's first letter), so a caret underlines the id, not the whole
    statement; the statement's span where it cannot be found."""
    line = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
    found = re.search(rf"(?<![a-z0-9_]){re.escape(ident)}(?![a-z0-9_])", line[span.column:])
    if found is None:
        return span
    column = span.column + 1 + found.start()
    return Span(span.file, span.line, column, span.line, column + len(ident))


def in_order(problems: list[Problem]) -> list[Problem]:
    """``problems`` sorted by file, line and column, as they are shown."""
    return sorted(problems, key=lambda p: (p.span.file, p.span.line, p.span.column))
