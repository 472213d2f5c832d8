"""The text helpers of the region pages (docs/make_region_pages.py): rST cells,
headings and tables, and a ``.mjr`` source line's code and comment apart."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from mjr.errors import Span


def rst_text(text: str) -> str:
    """Plain text safe in running rST: `code` becomes ``code``; markup characters are escaped."""
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 2:
            out.append(literal(part[1:-1]))
            continue
        part = part.replace("\\", "\\\\").replace("*", "\\*").replace("|", "\\|")
        part = re.sub(r"(\w)_(?=\W|$)", r"\1\\_", part)
        out.append(part)
    return "".join(out)


def literal(text: str) -> str:
    text = " ".join(text.split())
    return f"``{text}``" if text else ""


def heading(text: str, underline: str, overline: bool = False) -> list[str]:
    """A section title; wide (East Asian) characters take two columns of the rule."""
    width = sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)
    rule = underline * width
    return ([rule] if overline else []) + [text, rule, ""]


def list_table(header: Sequence[str], rows: Iterable[Sequence[str]], widths: Sequence[int]) -> list[str]:
    lines = [".. list-table::", "   :header-rows: 1", f"   :widths: {' '.join(map(str, widths))}", ""]
    for row in [header, *rows]:
        for index, cell in enumerate(row):
            bullet = "   * - " if index == 0 else "     - "
            lines.append((bullet + cell).rstrip())
    return lines + [""]


def strip_comment(line: str) -> tuple[str, str]:
    """A source line split into its code and its comment (a ``#`` outside a string)."""
    quoted = False
    escaped = False
    for index, char in enumerate(line):
        if quoted:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif char == "#":
            return line[:index].rstrip(), line[index + 1 :].strip()
    return line.rstrip(), ""


def span_text(lines: list[str], span: Span) -> str:
    """The source text of a span (1-based, end exclusive), comments removed, on one line."""
    first, last = span.line - 1, (span.end_line or span.line) - 1
    if first == last:
        pieces = [lines[first][span.column - 1 : span.end_column - 1]]
    else:
        pieces = [lines[first][span.column - 1 :], *lines[first + 1 : last], lines[last][: span.end_column - 1]]
    return " ".join(" ".join(strip_comment(piece)[0].split()) for piece in pieces).strip()


def comment_text(comment: str) -> str:
    """A comment line as prose: a section rule (``-- heading ----``) becomes its words
    followed by a colon."""
    text = comment.strip()
    if not text.startswith("--"):
        return text
    text = text[2:].strip()
    if re.search(r"-{3,}$", text):  # a heading: "-- the fan table ------"
        text = re.sub(r"\s*-{3,}$", "", text)
        return text + ":" if text and text[-1] not in ".:;)" else text
    return text
