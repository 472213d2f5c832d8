"""Tests for the pytest plugin, as a user's repository meets it: pytest run in a
scratch folder, in a separate process, on ``.mjr`` files there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mjr.compiler.build.toolchain import compiler_problem
from mjr.plugins.pytest_plugin import example_names, glob_matches

RULES = """\
ruleset my.region "My region" {
    tiles    suits(m p s) winds dragons
    deal     13
    claims   chow(left) pung kong
    win      self_draw discard
    shapes   standard
    wildcard none
    fan chicken   "鸡胡" 0 : standard
    fan all_chows "平胡" 1 : standard and all sets are chow  excludes chicken
    example "平胡" {
        hand "234m 567m 345p 678s 2s win 2s"
        expect fans all_chows
    }
}
"""


def pytest_in(folder: Path, *args: str) -> tuple[int, str]:
    """Run pytest in ``folder`` (its own rootdir) on the interpreted backend."""
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    env = dict(os.environ, MJR_CACHE_DIR=str(folder / ".cache"))
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "mjr_backends=python",
                           "-W", "error", *args], cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


def test_a_file_named_on_the_command_line_is_collected(tmp_path: Path) -> None:
    (tmp_path / "my.region.mjr").write_text(RULES, encoding="utf-8")  # outside rulesets/
    code, out = pytest_in(tmp_path, "-q", "my.region.mjr")
    assert code == 0, out
    assert "1 passed" in out and "not found" not in out


def test_a_broken_file_named_on_the_command_line_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "my.region.mjr").write_text(RULES.replace(": standard\n", ": standrd\n"), encoding="utf-8")
    code, out = pytest_in(tmp_path, "-q", "my.region.mjr")
    assert code != 0
    assert "my.region.mjr:8:" in out and "standrd" in out


def test_default_patterns_find_nested_rulesets_only_under_rulesets(tmp_path: Path) -> None:
    for place in ("rulesets/a.mjr", "rulesets/china/south/b.mjr", "elsewhere/c.mjr", "d.mjr"):
        (tmp_path / place).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / place).write_text(RULES, encoding="utf-8")
    code, out = pytest_in(tmp_path, "-q", "--collect-only")
    assert code == 0, out
    collected = sorted(line.split("::")[0] for line in out.splitlines() if "::" in line)
    assert collected == ["rulesets/a.mjr", "rulesets/china/south/b.mjr"]


@pytest.mark.parametrize(("path", "pattern", "expected"), [
    ("rulesets/a.mjr", "rulesets/**/*.mjr", True),
    ("rulesets/x/y/a.mjr", "rulesets/**/*.mjr", True),
    ("other/rulesets/a.mjr", "rulesets/**/*.mjr", False),
    ("rulesets/x/a.mjr", "rulesets/*.mjr", False),
    ("rulesets/a.mjr", "rulesets/*.mjr", True),
    ("a/b/c.mjr", "**/*.mjr", True),
    ("rulesets/a.txt", "rulesets/**/*.mjr", False),
    ("rulesets/b.mjr", "rulesets/[ab].mjr", True),
    ("rulesets/c.mjr", "rulesets/[ab].mjr", False),
])
def test_glob_matches(path: str, pattern: str, expected: bool) -> None:
    assert glob_matches(path, pattern) is expected


ODD_TITLES = RULES.replace('    example "平胡" {', "".join(
    f'    example "{title}" {{\n        hand "234m 567m 345p 678s 2s win 2s"\n        expect fans all_chows\n    }}\n'
    for title in ("a::b", "x[1]", "a:b", "a:b")) + '    example "平胡" {')


def test_an_example_with_an_odd_title_is_selected_by_the_id_pytest_shows(tmp_path: Path) -> None:
    (tmp_path / "my.region.mjr").write_text(ODD_TITLES, encoding="utf-8")
    ids = ["my.region.mjr::a:b[python]", "my.region.mjr::x(1)[python]", "my.region.mjr::a:b (2)[python]",
           "my.region.mjr::a:b (3)[python]", "my.region.mjr::平胡[python]"]
    code, out = pytest_in(tmp_path, "-v", "-p", "no:xdist", *ids)  # an id pytest cannot find is an error
    assert code == 0 and "5 passed" in out, out
    assert [line.split(" PASSED")[0] for line in out.splitlines() if " PASSED" in line] == ids
    code, out = pytest_in(tmp_path, "-q", "-p", "no:xdist", "my.region.mjr::x(1)")  # on every backend
    assert code == 0 and "1 passed" in out, out


def test_example_names_are_unique_and_keep_ordinary_titles() -> None:
    assert example_names(["平胡 self drawn", "a/b", " tab\there ", "[x]::y", "(x):y", "", ""]) == [
        "平胡 self drawn", "a/b", "tab here", "(x):y", "(x):y (2)", "(untitled)", "(untitled) (2)"]


OPTIONED = RULES.replace("    fan chicken", '    option bonus "Bonus" number 0 to 3\n    fan chicken').replace(
    '    fan all_chows "平胡" 1', '    fan all_chows "平胡" (1 + bonus)').replace(
    "    example", '    example "with a bonus" {\n        options bonus = 2\n'
                   '        hand "234m 567m 345p 678s 2s win 2s"\n        expect fan 3\n    }\n    example', 1)


@pytest.mark.skipif(bool(compiler_problem()), reason="needs a working C compiler")
def test_a_combination_of_options_is_compiled_when_its_examples_run(tmp_path: Path) -> None:
    """Collecting compiles the file's defaults only, so that test processes do not
    each compile every combination while they collect (pytest-xdist)."""
    (tmp_path / "my.region.mjr").write_text(OPTIONED, encoding="utf-8")
    compiled = ["-o", "mjr_backends=compiled", "-p", "no:xdist", "my.region.mjr"]
    code, out = pytest_in(tmp_path, "-q", "--collect-only", *compiled)
    assert code == 0, out
    assert "my.region.mjr::with a bonus[compiled bonus=2]" in out
    assert len(list((tmp_path / ".cache").rglob("*.so"))) == 1
    code, out = pytest_in(tmp_path, "-q", *compiled)
    assert code == 0 and "2 passed" in out, out
    assert len(list((tmp_path / ".cache").rglob("*.so"))) == 2
