"""The house's boundaries: the runtime runs a built ruleset without lark, jinja2 or
the compiler, and no region knowledge lives in the engine."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import mjr
from mjr.compiler.vocabulary import ALL_WORDS

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ("dsl", "compiler", "runtime")
#: a run of letters, digits and underscores: a whole word of a line
WORD_RUN = re.compile(r"\w+")


def test_a_bundled_ruleset_runs_with_the_runtime_alone() -> None:
    pytest.importorskip("mjr._generated", reason="bundled rulesets are built at install time")
    script = (
        "import sys, mjr\n"
        "r = mjr.load('guangdong.jipinghu').evaluate('234m 567m 345p 678s 2s win 2s self_draw')\n"
        "assert r.points == 4, r\n"
        "print(sorted(m for m in ('lark', 'jinja2', 'mjr.compiler', 'mjr.dsl') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def _region_words() -> set[str]:
    """Region names, fan names and fan ids of the bundled rulesets.  An id part that is
    a word of the language (the ruleset ``simple``) names the word where the engine
    says it, not the region."""
    words = set()
    for ident in mjr.bundled_ids():
        ruleset = mjr.load(ident, backend="python")
        parts = ident.split(".")
        if len(ruleset.module.FILES) > 1:  # a variant's last part names the variation (cap5, thirteen)
            parts = parts[:-1]
        words.update(part for part in parts if len(part) > 4 and part not in ALL_WORDS)
        words.update(fan.name for fan in ruleset.fans)  # display names: 鸡胡, 混一色, ...
        words.update(fan.id for fan in ruleset.fans if "_" in fan.id)  # half_flush, all_pungs, ...
    return words


def test_no_region_knowledge_in_the_engine() -> None:
    if not all((ROOT / folder).is_dir() for folder in ENGINE):
        pytest.skip("needs the source tree")
    # A word of letters, digits and underscores alone stands between two characters
    # that are none of those exactly where it is one whole run of them in the line: a
    # look-up of each run in a set, not one pattern of every word tried at every place
    # of every line (a minute and a half).  Any other word is still found by a pattern.
    words = _region_words()
    whole = {word for word in words if WORD_RUN.fullmatch(word)}
    others = sorted(words - whole)
    pattern = re.compile("|".join(rf"(?<![\w]){re.escape(w)}(?![\w])" for w in others)) if others else None
    found = []
    for folder in ENGINE:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".lark", ".j2") and path.is_file():
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if not whole.isdisjoint(WORD_RUN.findall(line)) or (pattern and pattern.search(line)):
                        found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "region knowledge in the engine:\n" + "\n".join(found)
