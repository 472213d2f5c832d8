"""Text on the terminal: tables aligned by display width (a CJK character takes
two columns), counts that agree with their words, lines on stdout, notes on
stderr, JSON documents."""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal: East Asian wide characters take two."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text
    )


def table(rows: Sequence[Sequence[object]], right: Iterable[int] = (), indent: str = "") -> list[str]:
    """Rows as aligned text lines; the columns in ``right`` are right-aligned."""
    cells = [[str(cell) for cell in row] for row in rows]
    if not cells:
        return []
    widths = [max(width(row[i]) for row in cells) for i in range(len(cells[0]))]
    right = set(right)
    lines = []
    for row in cells:
        padded = []
        for i, cell in enumerate(row):
            gap = " " * (widths[i] - width(cell))
            padded.append(gap + cell if i in right else cell + gap)
        lines.append((indent + "  ".join(padded)).rstrip())
    return lines


def say(*lines: str) -> None:
    for line in lines:
        print(line)


def note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def dump(doc: Any) -> None:
    print(json.dumps(doc, ensure_ascii=False, indent=2))


def counted(number: int, word: str, plural: str | None = None) -> str:
    """``number`` and ``word`` agreeing: ``1 point``, ``2 points``, ``0 tiles``
    (``plural`` where adding an ``s`` is not it)."""
    return f"{number} {word if number == 1 else plural or word + 's'}"
