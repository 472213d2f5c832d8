"""The Rules pages (docs/rules/) are what the rulesets and the docs cite: every ``§``
citation names a labelled point of them, and no file names the notes they were
written from.  Plain text reading: no build and no Sphinx needed."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))
from region_text import CITATION, rst_text, rule_labels, rule_point  # noqa: E402 - the docs folder is no package

RULES = ROOT / "docs" / "rules"
#: The files whose citations must resolve: the rulesets, the docs and the generated region pages.
CITING = ("rulesets/*.mjr", "docs/*.rst", "docs/regions/*.rst", "docs/rules/*.rst", "README.md")
#: Folders that hold no file of the repository (build output, environments, caches).
NOT_SOURCE = {".git", "build", "dist", "_build", "_generated", "__pycache__", ".venv", ".venv-nocc", ".venv-dev",
              ".ruff_cache", ".mypy_cache", ".pytest_cache", ".hypothesis", "tests"}
#: The names of the working notes the Rules pages replace.
NOTES = re.compile(r"\b(?:regions|mcr)\.md\b")


def cited_files() -> list[Path]:
    return sorted(path for pattern in CITING for path in ROOT.glob(pattern))


def citations(path: Path) -> list[tuple[int, str]]:
    """(line, number) of each citation in a file: ``§5.3`` gives ``5.3``."""
    return [(number, match.group(1)) for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            for match in CITATION.finditer(line)]


def test_the_rules_pages_label_their_sections() -> None:
    labels = rule_labels(RULES)
    assert {str(n) for n in range(13)} | {"M"} <= labels


@pytest.mark.parametrize("path", cited_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_citation_names_a_labelled_point(path: Path) -> None:
    labels = rule_labels(RULES)
    missing = [f"{path.relative_to(ROOT)}:{line}: §{number}" for line, number in citations(path)
               if number not in labels]
    assert not missing, "citations with no label in docs/rules:\n" + "\n".join(missing)


def test_a_citation_falls_back_to_the_point_that_encloses_it() -> None:
    labels = frozenset({"5", "5.3", "M", "M3"})
    assert rule_point("5.3", labels) == "5.3"
    assert rule_point("5.3.2", labels) == "5.3"
    assert rule_point("5.9", labels) == "5"
    assert rule_point("M3.2", labels) == "M3"
    assert rule_point("M7.1", labels) == "M"
    with pytest.raises(LookupError, match="§6.1"):
        rule_point("6.1", labels)


def test_a_region_page_links_each_citation() -> None:
    labels = frozenset({"2", "2.1", "5"})
    assert rst_text("(§5, §2.9 L3)", labels) == "(:ref:`§5 <rules-5>`, :ref:`§2.9 <rules-2>` L3)"
    # touching a word, a link is set off by escaped spaces; in code it stays code
    assert rst_text("见§2.1的 `§5`", labels) == "见\\ :ref:`§2.1 <rules-2.1>`\\ 的 ``§5``"
    assert rst_text("§5 *", None) == "§5 \\*"


def repository_files() -> list[Path]:
    found = []
    for folder, folders, files in os.walk(ROOT):
        folders[:] = [name for name in folders if name not in NOT_SOURCE and not name.endswith(".egg-info")]
        found += [Path(folder) / name for name in files]
    return found


def test_no_file_names_the_working_notes() -> None:
    named = []
    for path in repository_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a binary file
        named += [f"{path.relative_to(ROOT)}:{n}" for n, line in enumerate(text.splitlines(), 1) if NOTES.search(line)]
    assert not named, "files that cite notes outside the repository (cite the Rules pages, §N):\n" + "\n".join(named)
