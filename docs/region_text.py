"""The text helpers of the region pages (docs/make_region_pages.py): rST cells,
headings and tables, links to the Rules pages, and a ``.mjr`` source line's code
and comment apart."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path

from mjr.errors import Span

#: A citation of a point of the Rules pages: ``§5.3``, ``§2``, ``§M3.2`` (a trailing dot is no part of it).
CITATION = re.compile(r"§(M?[0-9]+(?:\.[0-9]+)*)")
#: The label of a point on a Rules page: ``.. _rules-5.3:`` labels §5.3 (``.. _rules-M:`` the MCR rules whole).
RULE_LABEL = re.compile(r"^\.\. _rules-(M|M?[0-9]+(?:\.[0-9]+)*)\.?:\s*$", re.MULTILINE)


def rule_labels(folder: Path) -> frozenset[str]:
    """The numbers of the points the Rules pages in ``folder`` label (``5.3`` for ``.. _rules-5.3:``)."""
    return frozenset(m.group(1) for page in sorted(folder.glob("*.rst"))
                     for m in RULE_LABEL.finditer(page.read_text(encoding="utf-8")))


def rule_point(number: str, labels: frozenset[str]) -> str:
    """The labelled point a citation of ``number`` links to: the point itself, else the
    nearest point that encloses it (§5.3.2 falls back to §5.3, then §5; §M3.2 to §M3,
    then §M).  A number no point encloses is an error naming it."""
    parts = number.split(".")
    while parts:
        if ".".join(parts) in labels:
            return ".".join(parts)
        parts.pop()
    if number.startswith("M") and "M" in labels:
        return "M"
    raise LookupError(f"§{number}: no point of the Rules pages has this number or encloses it")


def _escaped(part: str) -> str:
    part = part.replace("\\", "\\\\").replace("*", "\\*").replace("|", "\\|")
    return re.sub(r"(\w)_(?=\W|$)", r"\1\\_", part)


def _opens(char: str) -> bool:
    """Whether rST starts inline markup after ``char``: a space or punctuation other than a closing bracket."""
    return char.isspace() or unicodedata.category(char) in ("Ps", "Pi", "Pf", "Pd", "Po")


def _closes(char: str) -> bool:
    """Whether rST ends inline markup before ``char``: a space or punctuation other than an opening bracket."""
    return char.isspace() or unicodedata.category(char) in ("Pe", "Pi", "Pf", "Pd", "Po")


def _cited(part: str, labels: frozenset[str]) -> str:
    """Plain text with each citation a link to its point of the Rules pages.  A link
    touching a word (``见§2.1的``) is set off by an escaped space, which rST drops."""
    pieces = CITATION.split(part)  # text, number, text, number, ..., text
    out = [_escaped(pieces[0])]
    for index in range(1, len(pieces), 2):
        before, after = pieces[index - 1], pieces[index + 1]
        number = pieces[index]
        link = f":ref:`§{number} <rules-{rule_point(number, labels)}>`"
        if before and not _opens(before[-1]):
            link = "\\ " + link
        if after and not _closes(after[0]):
            link += "\\ "
        out += [link, _escaped(after)]
    return "".join(out)


def rst_text(text: str, labels: frozenset[str] | None = None) -> str:
    """Plain text safe in running rST: `code` becomes ``code``; markup characters are
    escaped.  Given the labels of the Rules pages (:func:`rule_labels`), each ``§``
    citation outside code becomes a link to its point (:func:`rule_point`)."""
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 2:
            out.append(literal(part[1:-1]))
            continue
        out.append(_cited(part, labels) if labels is not None else _escaped(part))
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
