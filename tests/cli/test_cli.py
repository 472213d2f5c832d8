"""Tests for the ``mjr`` command line, run in-process through ``mjr.cli.main``.

Temporary ``.mjr`` files and the bundled rulesets are loaded with
``--backend python`` (interpreted, well under a second) rather than compiled.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

import mjr
from mjr import cli
from mjr.cli import output

BUNDLED = "guangdong.jipinghu"
PY = ["--backend", "python"]

RULES = """\
ruleset tiny.test "Tiny test rules" "小测试" {
    tiles    suits(m p s) winds dragons
    deal     13
    claims   chow(left) pung kong
    win      self_draw discard
    shapes   standard
    wildcard none
    score    base * 2 ^ fan
    base     1
    fan chicken   "鸡胡" 0 : standard
    fan all_chows "平胡" 1 : standard and all sets are chow  excludes chicken
    bonus self_drawn "自摸" 1 : self_draw
    pay discarded "点炮" when discard : discarder pays points
    pay self_drawn "自摸" when self_draw : each opponent pays points
    example "平胡 passes" {
        hand "234m 567m 345p 678s 2s win 2s"
        expect fans all_chows
    }
"""
FAILING = """\
    example "wrong points" {
        hand "234m 567m 345p 678s 2s win 2s self_draw"
        expect points 99
    }
"""
SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed in \d+\.\d\ds$")


pytestmark = pytest.mark.usefixtures("private_cache")


@pytest.fixture
def tiny(tmp_path: Path) -> str:
    path = tmp_path / "tiny.mjr"
    path.write_text(RULES + "}\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def failing(tmp_path: Path) -> str:
    path = tmp_path / "failing.mjr"
    path.write_text(RULES + FAILING + "}\n", encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return run_cli(capsys, *argv)


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code, out, _ = run(capsys, *argv, "--json")
    return code, json.loads(out)


# --------------------------------------------------------------------------- usage


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("list", "check", "build", "test", "score", "waits", "explain"):
        assert command in out
    code, out, _ = run(capsys, "--version")
    assert (code, out.strip()) == (0, f"mjr {mjr.__version__}")


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert code == 2 and out == ""
    assert "usage: mjr" in err and "required" in err
    code, out, err = run(capsys, "score", "-r", BUNDLED)
    assert code == 2 and "mjr score: error:" in err
    code, doc = run_json(capsys, "score", "-r", BUNDLED)
    assert code == 2 and "HAND" in doc["error"]
    code, doc = run_json(capsys, "build", BUNDLED, "--backend", "fast")
    assert code == 2 and "invalid choice" in doc["error"]


def test_module_runs_as_a_script() -> None:
    root = str(Path(mjr.__file__).absolute().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "mjr.cli", "--help"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "usage: mjr" in done.stdout


def test_package_runs_as_a_script() -> None:
    done = subprocess.run([sys.executable, "-m", "mjr", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: mjr ")
    done = subprocess.run([sys.executable, "-m", "mjr", "check", "no-such.mjr"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "mjr: error: no-such.mjr: no such file" in done.stderr


def test_wide_characters_count_two_columns() -> None:
    assert output.width("abc") == 3
    assert output.width("平胡") == 4
    lines = output.table([["平胡", "x"], ["all_chows", "y"]])
    assert [output.width(line[:-1]) for line in lines] == [11, 11]


# --------------------------------------------------------------------------- list, check, build


def test_list_names_and_aligns_titles(capsys: pytest.CaptureFixture[str]) -> None:
    """One run of each form (a list loads every bundled ruleset): the titles, the
    ids in order, and the native titles in one column."""
    code, out, _ = run(capsys, "list")
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith(BUNDLED + " "))
    assert "Guangdong Jipinghu" in line and "广东鸡平胡" in line
    code, doc = run_json(capsys, "list")
    assert code == 0
    entry = next(r for r in doc["rulesets"] if r["id"] == BUNDLED)
    assert entry["native_title"] == "广东鸡平胡"
    assert [r["id"] for r in doc["rulesets"]] == mjr.bundled_ids()
    starts = set()
    for line, entry in zip(out.splitlines(), doc["rulesets"], strict=True):
        if "title" in entry:
            starts.add(output.width(line[: line.index(entry["native_title"])]))
    assert len(starts) == 1


def test_check_counts_the_examples_of_every_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The examples played under an option's other value count too, each once, as
    ``mjr test`` plays them."""
    path = tmp_path / "options.mjr"
    path.write_text(RULES + """\
    option rich "Rich" flag default off
    example "rich" {
        options rich = on
        hand "234m 567m 345p 678s 2s win 2s"
        expect fans all_chows
    }
    example "rich by its own options" {
        options rich = on
        hand "234m 567m 345p 678s 5s win 5s"
        expect fans all_chows
    }
}
""", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(path))
    assert (code, out) == (0, f"{path}: ok (3 fans, 3 examples)\n")
    code, out, _ = run(capsys, "check", str(path), "-o", "rich=on")  # the examples played under those options
    assert (code, out) == (0, f"{path}: ok (3 fans, 2 examples)\n")
    code, out, _ = run(capsys, "check", str(path), "-o", "rich=off")
    assert (code, out) == (0, f"{path}: ok (3 fans, 1 example)\n")


def test_check_ok(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    bundled = Path(__file__).resolve().parents[2] / "rulesets" / f"{BUNDLED}.mjr"
    code, out, _ = run(capsys, "check", tiny, str(bundled))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{tiny}: ok (3 fans, 1 example)"
    assert re.fullmatch(rf"{re.escape(str(bundled))}: ok \(\d+ fans, \d+ examples\)", lines[1])
    code, doc = run_json(capsys, "check", tiny)
    assert code == 0 and doc["ok"] is True
    assert doc["files"][0] == {"file": tiny, "ok": True, "id": "tiny.test", "fans": 3, "examples": 1,
                                "warnings": []}


def test_check_bad_file(capsys: pytest.CaptureFixture[str], tiny: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.mjr"
    bad.write_text(RULES.replace("all sets are chow", "all sets are chw") + "}\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", tiny, str(bad))
    assert code == 1
    assert f"{tiny}: ok" in out
    assert f"{bad}:11:" in out and "chw" in out and "^" in out
    code, doc = run_json(capsys, "check", str(bad))
    assert code == 1 and doc["ok"] is False
    (problem,) = doc["files"][0]["problems"]
    assert (problem["file"], problem["line"]) == (str(bad), 11)
    assert "chw" in problem["source_line"]


IMPOSSIBLE = """\
    example "no such tile" {
        hand "234m 567m 345p 678s 2s win 2x"
        expect fans all_chows
    }
    example "five of a tile" {
        hand "11111m 567m 345p 678s win 2s"
        expect fans all_chows
    }
    example "thirteen tiles" {
        hand "234m 567m 345p 678s win 2s"
        expect fans all_chows
    }
"""


def test_check_reads_every_examples_hand(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'check' refuses the hands 'test' would refuse, each at its place, without scoring them."""
    bad = tmp_path / "hands.mjr"
    bad.write_text(RULES + IMPOSSIBLE + "}\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(bad))
    assert code == 1 and ": ok" not in out
    assert f"{bad}:20:43: example 'no such tile': 'x' is not part of a tile" in out
    assert f"{bad}:24:15: example 'five of a tile': 5 copies of 1m: there are only 4" in out
    assert f"{bad}:28:15: example 'thirteen tiles': 13 tiles is not a size for a winning hand" in out
    assert '\n            hand "11111m 567m 345p 678s win 2s"\n' + " " * 18 + "^" * 28 + "\n" in out  # the hand
    code, doc = run_json(capsys, "check", str(bad))
    assert code == 1 and doc["ok"] is False
    assert [(p["line"], p["column"]) for p in doc["files"][0]["problems"]] == [(20, 43), (24, 15), (28, 15)]
    code, out, _ = run(capsys, "test", str(bad), *PY)  # the same words, at the same places
    assert code == 1
    assert f"{bad}:24:15: 5 copies of 1m: there are only 4" in out


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder of two good files and a bad one, and a file in a sub-folder (not checked)."""
    rules = tmp_path / "rules"
    (rules / "deeper").mkdir(parents=True)
    (rules / "b.mjr").write_text(RULES + "}\n", encoding="utf-8")
    (rules / "a.mjr").write_text(RULES.replace("tiny.test", "tiny.other") + "}\n", encoding="utf-8")
    (rules / "c.mjr").write_text(RULES + IMPOSSIBLE + "}\n", encoding="utf-8")
    (rules / "deeper" / "d.mjr").write_text("not a ruleset\n", encoding="utf-8")
    (rules / "notes.txt").write_text("not a ruleset\n", encoding="utf-8")
    return rules


def test_check_a_folder_checks_each_of_its_files(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    code, out, _ = run(capsys, "check", str(folder))
    assert code == 1
    assert out.startswith(f"{folder / 'a.mjr'}: ok (3 fans, 1 example)\n{folder / 'b.mjr'}: ok (3 fans, 1 example)\n"
                          f"{folder / 'c.mjr'}:20:43: example 'no such tile'")
    code, doc = run_json(capsys, "check", str(folder))
    assert [(f["file"], f["ok"]) for f in doc["files"]] == [
        (str(folder / "a.mjr"), True), (str(folder / "b.mjr"), True), (str(folder / "c.mjr"), False)]
    (folder / "c.mjr").unlink()
    code, out, _ = run(capsys, "check", str(folder))
    assert code == 0


def test_test_a_folder_runs_each_of_its_files(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    code, out, _ = run(capsys, "test", str(folder), *PY)
    assert code == 1
    assert out.splitlines()[:3] == ["tiny.other .", "tiny.test .", "tiny.test .FFF"]
    assert out.splitlines()[-1].startswith("3 passed, 3 failed in ")


def test_a_folder_without_rulesets_is_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               tiny: str) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = run(capsys, "check", str(empty), tiny)
    assert code == 2
    assert f"mjr: error: {empty}: a folder with no .mjr files in it" in err and f"{tiny}: ok" in out
    code, out, _ = run(capsys, "test", str(empty), tiny, *PY)
    assert code == 2
    assert f"{empty} E" in out and f"{empty}: a folder with no .mjr files in it" in out
    assert out.splitlines()[-1].startswith("1 passed, 0 failed, 1 failed to load in ")


def test_check_missing_file(capsys: pytest.CaptureFixture[str], tiny: str, tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.mjr")
    code, out, err = run(capsys, "check", tiny, missing)
    assert code == 2
    assert f"{tiny}: ok" in out
    assert err.startswith("mjr: error:") and "no such file" in err
    code, doc = run_json(capsys, "check", missing)
    assert code == 2 and "no such file" in doc["error"]


def test_build(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, out, err = run(capsys, "build", tiny, *PY)
    assert code == 0 and err == ""
    fields = dict(line.split(None, 1) for line in out.splitlines())
    assert fields["ruleset"] == "tiny.test" and fields["backend"] == "python"
    assert Path(fields["module"]).is_file()
    code, doc = run_json(capsys, "build", BUNDLED, *PY)
    assert code == 0
    assert (doc["id"], doc["backend"]) == (BUNDLED, "python")
    assert Path(doc["module"]).is_file()


def test_build_notes_a_compile(capsys: pytest.CaptureFixture[str], tiny: str, tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJR_CACHE_DIR", str(tmp_path / "fresh"))
    real_load = mjr.ruleset.loader.load
    monkeypatch.setattr(cli.loader, "load", lambda name, backend="auto": real_load(name, "python"))
    code, _, err = run(capsys, "build", tiny)  # would compile: nothing is cached
    assert code == 0
    assert err == "compiling tiny.test ...\n"


def test_build_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "build", "guangdong.jipingu")
    assert code == 2 and out == ""
    assert err.startswith("mjr: error: unknown ruleset")
    assert f"did you mean {BUNDLED!r}" in err
    code, doc = run_json(capsys, "build", "guangdong.jipingu")
    assert code == 2 and f"did you mean {BUNDLED!r}" in doc["error"]


# --------------------------------------------------------------------------- test


def test_test_passing(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, out, _ = run(capsys, "test", tiny, *PY)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "tiny.test ."
    assert SUMMARY.match(lines[-1]) and lines[-1].startswith("1 passed, 0 failed in ")
    assert "FAILURES" not in out


def test_test_failing(capsys: pytest.CaptureFixture[str], failing: str) -> None:
    code, out, _ = run(capsys, "test", failing, *PY)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "tiny.test .F"
    assert "FAILURES" in out and "tiny.test: wrong points" in out
    assert f"{failing}:20" in out
    assert f"{failing}:21: expected points 99, got 4" in out
    assert lines[-1].startswith("1 passed, 1 failed in ") and SUMMARY.match(lines[-1])


def test_test_quiet_and_json(capsys: pytest.CaptureFixture[str], failing: str) -> None:
    code, out, _ = run(capsys, "test", failing, *PY, "-q")
    assert code == 1
    assert "tiny.test .F" not in out and "wrong points" in out
    assert out.splitlines()[-1].startswith("1 passed, 1 failed")
    code, doc = run_json(capsys, "test", failing, *PY)
    assert code == 1
    assert (doc["passed"], doc["failed"]) == (1, 1)
    (ruleset,) = doc["rulesets"]
    assert [e["passed"] for e in ruleset["examples"]] == [True, False]
    assert ruleset["examples"][1]["failures"][0].startswith(f"{failing}:21:")


def test_test_bundled(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "test", BUNDLED, *PY)
    match = SUMMARY.match(out.splitlines()[-1])
    assert match, out
    passed, failed = map(int, match.groups())
    assert passed > 0
    assert code == (1 if failed else 0)


def test_test_broken_ruleset_is_reported_and_counted(capsys: pytest.CaptureFixture[str], tiny: str,
                                                    tmp_path: Path) -> None:
    bad = tmp_path / "bad.mjr"
    bad.write_text(RULES.replace("standard\n", "standrd\n", 1) + "}\n", encoding="utf-8")
    code, out, _ = run(capsys, "test", str(bad), tiny, *PY)
    assert code == 1
    lines = out.splitlines()
    assert lines[:2] == [f"{bad} E", "tiny.test ."]  # the run goes on past the broken file
    assert "ERRORS" in out and f"{bad}:6:" in out and "standrd" in out and "^" in out
    assert lines[-1].startswith("1 passed, 0 failed, 1 failed to load in ")
    code, doc = run_json(capsys, "test", str(bad), tiny, *PY)
    assert code == 1 and (doc["passed"], doc["failed"]) == (1, 0)
    (error,) = doc["load_errors"]
    assert error["ruleset"] == str(bad) and error["problems"][0]["line"] == 6
    assert [r["id"] for r in doc["rulesets"]] == ["tiny.test"]


def test_test_unknown_ruleset_is_reported_with_the_others(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, out, _ = run(capsys, "test", "guangdong.jipingu", tiny, *PY)
    assert code == 2
    assert "guangdong.jipingu E" in out and f"did you mean {BUNDLED!r}" in out
    assert out.splitlines()[-1].startswith("1 passed, 0 failed, 1 failed to load in ")
    code, doc = run_json(capsys, "test", "guangdong.jipingu", *PY)
    assert code == 2 and "did you mean" in doc["load_errors"][0]["error"]


# --------------------------------------------------------------------------- score


def test_score(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, out, _ = run(capsys, "score", "-r", tiny, *PY, "234m 567m 345p 678s 2s win 2s self_draw")
    assert code == 0
    assert re.search(r"^all_chows\s+平胡\s+fan\s+1$", out, re.M)
    assert re.search(r"^self_drawn\s+自摸\s+bonus\s+1$", out, re.M)
    assert re.search(r"^fan\s+2$", out, re.M) and re.search(r"^points\s+4$", out, re.M)
    assert "multiplier" not in out and "floor" not in out
    assert re.search(r"^groups\s+234m 567m 345p 22s 678s$", out, re.M)
    assert re.search(r"^winning group\s+22s$", out, re.M)
    for seat in "SWN":
        assert re.search(rf"^\s+{seat} -> E\s+4\s+self_drawn\s+自摸$", out, re.M)


def test_score_aligns_wide_names(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    _, out, _ = run(capsys, "score", "-r", tiny, *PY, "234m 567m 345p 678s 2s win 2s self_draw")
    fans = out.split("\n\n")[1].splitlines()  # header, all_chows, self_drawn
    kinds = ["kind", "fan", "bonus"]
    assert len({output.width(line[: line.rindex(kind)]) for line, kind in zip(fans, kinds, strict=True)}) == 1


def test_score_words_need_no_quotes(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, doc = run_json(capsys, "score", "-r", tiny, *PY, "234m", "567m", "345p", "678s", "2s", "win", "2s")
    assert code == 0 and doc["result"]["points"] == 2


def test_score_json(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, doc = run_json(capsys, "score", "-r", tiny, *PY, "234m 567m 345p 678s 2s win 2s self_draw")
    assert code == 0
    assert doc["ruleset"] == "tiny.test"
    assert doc["result"]["is_win"] is True and doc["result"]["points"] == 4
    assert [f["id"] for f in doc["result"]["fans"]] == ["all_chows", "self_drawn"]
    assert [g["tiles"] for g in doc["result"]["groups"] if g["winning"]] == [["2s", "2s"]]
    assert doc["settlement"]["totals"] == {"E": 12, "S": -4, "W": -4, "N": -4}
    assert doc["settlement_error"] is None


def test_score_without_settlement(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, out, _ = run(capsys, "score", "-r", tiny, *PY, "234m 567m 345p 678s 2s win 2s")
    assert code == 0
    assert "settlement: not shown:" in out and "from L" in out
    code, doc = run_json(capsys, "score", "-r", tiny, *PY, "234m 567m 345p 678s 2s win 2s")
    assert code == 0 and doc["settlement"] is None and "from L" in doc["settlement_error"]


def test_score_floor_on_bundled(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "123m 456p 789s 5s (7777p) win 5s self_draw after_kong"
    code, out, _ = run(capsys, "score", "-r", BUNDLED, *PY, hand)
    assert code == 0
    assert re.search(r"^floor\s+kong_bloom 杠上开花$", out, re.M)
    assert "(7777p)" in out


def test_score_not_a_win(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, out, _ = run(capsys, "score", "-r", tiny, *PY, "123m 456p 789s 234s 5s win 6s")
    assert code == 1
    assert "not a win: the tiles do not form a complete hand" in out
    code, doc = run_json(capsys, "score", "-r", tiny, *PY, "123m 456p 789s 234s 5s win 6s")
    assert code == 1 and doc["result"]["is_win"] is False and doc["settlement"] is None


def test_score_bad_hand(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, out, err = run(capsys, "score", "-r", tiny, *PY, "123m 456x win 5m")
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith("mjr: error: bad hand at column 9:")
    assert lines[1:] == ["    123m 456x win 5m", "            ^"]
    code, doc = run_json(capsys, "score", "-r", tiny, *PY, "123m 456x win 5m")
    assert code == 2 and doc["error"].startswith("bad hand at column 9")


def test_score_impossible_hand(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, _, err = run(capsys, "score", "-r", tiny, *PY, "123m win 5m")
    assert code == 2 and err.startswith("mjr: error:")


def test_score_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "score", "-r", "guangdong.jipingu", "123m win 5m")
    assert code == 2 and f"did you mean {BUNDLED!r}" in err


def test_score_broken_ruleset_shows_problems(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.mjr"
    bad.write_text(RULES.replace("deal     13", "deal     x"), encoding="utf-8")
    code, _, err = run(capsys, "score", "-r", str(bad), *PY, "123m win 5m")
    assert code == 2 and err.startswith(f"{bad}:3:")
    code, doc = run_json(capsys, "score", "-r", str(bad), *PY, "123m win 5m")
    assert code == 2 and doc["problems"][0]["line"] == 3


# --------------------------------------------------------------------------- waits


def test_waits(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, out, _ = run(capsys, "waits", "-r", tiny, *PY, "234m 567m 345p 678s 2s")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["tile", "fan", "points", "fans"]
    assert lines[1].split() == ["2s", "1", "2", "all_chows"]
    code, doc = run_json(capsys, "waits", "-r", tiny, *PY, "234m 567m 345p 678s 2s")
    assert code == 0
    assert [w["tile"] for w in doc["waits"]] == ["2s"]
    assert doc["waits"][0]["result"]["points"] == 2


def test_no_waits_when_no_tile_completes_the_hand(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, out, _ = run(capsys, "waits", "-r", tiny, *PY, "1357m 2468p 159s EN")
    assert (code, out) == (1, "not ready: no tile completes the hand\n")
    code, doc = run_json(capsys, "waits", "-r", tiny, *PY, "1357m 2468p 159s EN")
    assert code == 1 and doc["waits"] == [] and doc["near_misses"] == []


def test_no_waits_says_which_requirement_fails(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "123m 456p 789s 2348s"  # 8s pairs it up, but the hand holds all three suits
    code, out, _ = run(capsys, "waits", "-r", "sichuan.xuezhan", *PY, hand)
    assert (code, out) == (1, "no waits: 8s completes the hand but fails requirement lacks_a_suit (缺一门)\n")
    code, doc = run_json(capsys, "waits", "-r", "sichuan.xuezhan", *PY, hand)
    assert code == 1 and doc["waits"] == []
    assert [(m["tile"], m["result"]["reason"]) for m in doc["near_misses"]] == [
        ("8s", "fails requirement lacks_a_suit (缺一门)")]


def test_no_waits_lists_each_near_miss(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "waits", "-r", "sichuan.xuezhan", *PY, "123m 456p 789s 234s 5s")
    assert code == 1
    assert out.splitlines() == ["no waits: these tiles complete the hand but do not win:",
                                "  2s  fails requirement lacks_a_suit (缺一门)",
                                "  5s  fails requirement lacks_a_suit (缺一门)"]


def test_near_misses_beside_waits(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rules = tmp_path / "min.mjr"  # a minimum of 1 fan: only all_chows reaches it
    rules.write_text(RULES.replace("    base     1\n", "    base     1\n    minimum  1\n") + "}\n", encoding="utf-8")
    hand = "234m 567m 345p 1112s"  # 3s: 11s 123s, all chows; 2s: 111s 22s, a chicken hand
    code, out, _ = run(capsys, "waits", "-r", str(rules), *PY, hand)
    assert code == 0
    blocks = out.split("\n\n")
    assert [line.split() for line in blocks[0].splitlines()[1:]] == [["3s", "1", "2", "all_chows"]]
    assert blocks[1].splitlines() == ["these tiles complete the hand but do not win:",
                                      "  2s  below the minimum of 1 fan"]
    ruleset = mjr.load(rules, backend="python")
    assert [w.tile for w in ruleset.waits(hand)] == ["3s"]
    (miss,) = ruleset.near_misses(hand)
    assert (miss.tile, miss.result.is_win, miss.result.reason) == ("2s", False, "below the minimum of 1 fan")


def test_waits_wrong_size(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, _, err = run(capsys, "waits", "-r", tiny, *PY, "234m 567m 345p 678s 2s win 2s")
    assert code == 2 and "win" in err


# --------------------------------------------------------------------------- explain


def test_explain(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    line = next(i for i, text in enumerate(RULES.splitlines(), 1) if "fan all_chows" in text)
    code, out, _ = run(capsys, "explain", "-r", tiny, *PY, "all_chows")
    assert code == 0
    assert re.search(r"^fan\s+all_chows 平胡$", out, re.M)
    assert re.search(r"^kind\s+fan$", out, re.M) and re.search(r"^value\s+1$", out, re.M)
    assert re.search(rf"^defined\s+{re.escape(tiny)}:{line}$", out, re.M)
    assert "standard and all sets are chow" in out
    assert re.search(r"^excludes\s+chicken$", out, re.M)
    assert re.search(rf"^  平胡 passes\s+{re.escape(tiny)}:\d+$", out, re.M)
    code, doc = run_json(capsys, "explain", "-r", tiny, *PY, "all_chows")
    assert code == 0 and (doc["ruleset"], doc["query"]) == ("tiny.test", "all_chows")
    (item,) = doc["items"]
    assert (item["id"], item["name"], item["kind"], item["line"]) == ("all_chows", "平胡", "fan", line)
    assert (item["value"], item["condition"]) == ("1", "standard and all sets are chow")
    assert item["excludes"] == ["chicken"] and item["path"] == str(Path(tiny).resolve())
    assert [e["title"] for e in item["examples"]] == ["平胡 passes"]


def test_explain_reads_the_examples_with_the_rulesets_facts(capsys: pytest.CaptureFixture[str]) -> None:
    """japan.riichi's examples say ``dora_indicators ...``, a fact a plain reader takes
    for a misspelt keyword: explain reads them as the ruleset does."""
    code, doc = run_json(capsys, "explain", "-r", "japan.riichi", *PY, "dora_han")
    (item,) = doc["items"]
    assert code == 0 and len(item["examples"]) >= 2
    assert "kazoe: seventeen han, dora included, pay as one yakuman" in [e["title"] for e in item["examples"]]


def test_explain_by_display_name(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, doc = run_json(capsys, "explain", "-r", tiny, *PY, "平胡")
    assert code == 0 and [i["id"] for i in doc["items"]] == ["all_chows"]


def test_explain_every_item_sharing_a_name(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, out, _ = run(capsys, "explain", "-r", tiny, *PY, "自摸")
    assert code == 0
    fan, clause = out.split("\n\n")
    assert re.search(r"^fan\s+self_drawn 自摸$", fan, re.M) and re.search(r"^kind\s+bonus$", fan, re.M)
    assert re.search(r"^excludes\s+\(nothing\)$", fan, re.M)
    assert "(no example hand of this ruleset shows it)" in fan  # the example is a discard
    assert re.search(r"^clause\s+self_drawn 自摸$", clause, re.M) and re.search(r"^kind\s+pay$", clause, re.M)
    assert re.search(r"^pays\s+each opponent pays points$", clause, re.M)
    assert "excludes" not in clause
    code, doc = run_json(capsys, "explain", "-r", tiny, *PY, "self_drawn")
    assert [(i["section"], i["kind"]) for i in doc["items"]] == [("fan", "bonus"), ("clause", "pay")]


def test_explain_a_floor_of_an_installed_ruleset(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # outside any checkout: the installed file is the source
    code, out, _ = run(capsys, "explain", "-r", BUNDLED, "kong_bloom")
    assert code == 0
    assert re.search(r"^floor\s+kong_bloom 杠上开花$", out, re.M) and re.search(r"^value\s+3$", out, re.M)
    assert re.search(rf"^defined\s+{re.escape(BUNDLED)}\.mjr:\d+$", out, re.M)
    assert "after_kong and self_draw" in out and "excludes" not in out
    assert re.search(r"^  \S.*\s{BUNDLED}\.mjr:\d+$".replace("{BUNDLED}", re.escape(BUNDLED)), out, re.M)
    code, doc = run_json(capsys, "explain", "-r", BUNDLED, "kong_bloom")
    (item,) = doc["items"]
    installed = Path(mjr.__file__).resolve().parent / "rulesets" / f"{BUNDLED}.mjr"
    assert item["path"] == str(installed) and item["place"] == f"{BUNDLED}.mjr:{item['line']}"
    assert installed.read_text(encoding="utf-8").splitlines()[item["line"] - 1].strip().startswith(
        "floor kong_bloom")
    assert item["examples"], "the bundled examples include a kong bloom under the floor"


def test_explain_a_requirement_and_the_examples_failing_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(capsys, "explain", "-r", "sichuan.xuezhan", *PY, "缺一门")
    assert code == 0
    (item,) = doc["items"]
    assert (item["section"], item["id"], item["condition"]) == ("requirement", "lacks_a_suit", "suits <= 2")
    ruleset = mjr.load("sichuan.xuezhan", backend="python")
    failing = [e.title for e in ruleset.generated.examples if "lacks_a_suit" in ruleset.evaluate(e.hand).reason]
    assert failing and [e["title"] for e in item["examples"]] == failing


def test_explain_unknown_item(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, out, err = run(capsys, "explain", "-r", tiny, *PY, "chiken")
    assert code == 2 and out == ""
    assert err == ("mjr: error: tiny.test has no fan, requirement, floor, payment clause or rule of play 'chiken' "
                   f"(did you mean 'chicken'?); to list them all: mjr explain -r {tiny}\n")
    code, doc = run_json(capsys, "explain", "-r", tiny, *PY, "chiken")
    assert code == 2 and "did you mean 'chicken'" in doc["error"]


def test_explain_unknown_item_hints_a_command_that_works(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The hint names the ruleset as the user did (here a path with a space, which the
    shell needs quoted), with the options they chose."""
    path = tmp_path / "house rules" / "tiny.mjr"
    path.parent.mkdir()
    staked = RULES.replace("    base     1\n", '    base     1\n    option stake "Stake" number 0 to 3\n')
    staked = staked.replace('fan all_chows "平胡" 1', 'fan all_chows "平胡" (1 + stake)')
    path.write_text(staked + "}\n", encoding="utf-8")
    code, _, err = run(capsys, "explain", "-r", str(path), "-o", "stake=2", *PY, "chiken")
    assert code == 2
    hint = err.rstrip("\n").split("; to list them all: ")[1]
    assert hint == f"mjr explain -r '{path}' -o stake=2"
    code, out, err = run(capsys, *shlex.split(hint)[1:], *PY)
    assert code == 0, err
    assert "chicken" in out and "stake" in out


def test_explain_hint_for_a_file_whose_name_starts_with_a_dash_works(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path, monkeypatch) -> None:
    """``mjr explain -r -tiny.mjr`` reads -tiny.mjr as an option: the hint says --ruleset=-tiny.mjr."""
    monkeypatch.chdir(tmp_path)
    Path("-tiny.mjr").write_text(RULES + "}\n", encoding="utf-8")
    code, _, err = run(capsys, "explain", "--ruleset=-tiny.mjr", *PY, "chiken")
    hint = err.rstrip("\n").split("; to list them all: ")[1]
    assert code == 2 and hint == "mjr explain --ruleset=-tiny.mjr"
    code, out, err = run(capsys, *shlex.split(hint)[1:], *PY)
    assert code == 0 and "chicken" in out, err


def test_explain_unknown_display_name_suggests_the_close_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "explain", "-r", "sichuan.xuezhan", *PY, "平胡")
    assert code == 2 and err.count("\n") == 1
    assert "has no fan, requirement, floor, payment clause or rule of play '平胡' (did you mean 'plain' (平和)?)" in err


def test_explain_without_an_item_lists_the_whole_table(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    code, out, _ = run(capsys, "explain", "-r", tiny, *PY)
    assert code == 0
    head, fans, requirements, floors, clauses, play = out.split("\n\n")
    assert re.search(r"^ruleset\s+tiny\.test\s+Tiny test rules\s+小测试$", head, re.M)
    assert re.search(r"^cap\s+none$", head, re.M) and re.search(r"^minimum\s+none$", head, re.M)
    assert [line.split() for line in fans.splitlines()] == [
        ["fans"], ["id", "name", "kind", "value", "excludes"], ["chicken", "鸡胡", "fan", "0"],
        ["all_chows", "平胡", "fan", "1", "chicken"], ["self_drawn", "自摸", "bonus", "1"]]
    assert requirements.splitlines() == ["requirements", "  (none)"]
    assert floors.splitlines() == ["floors", "  (none)"]
    assert clauses.splitlines()[2].split() == ["discarded", "点炮", "pay", "discarder", "pays", "points", "discard"]
    assert play.splitlines()[:4] == ["rules of play", "  discard_win nearest", "  missed_win none",
                                     "  hand_ends first_win"]
    code, doc = run_json(capsys, "explain", "-r", tiny, *PY)
    assert code == 0 and (doc["cap"], doc["minimum"], doc["base"], doc["limits"]) == (None, None, 1, "highest")
    assert [(i["kind"], i["id"]) for i in doc["items"]] == [
        ("fan", "chicken"), ("fan", "all_chows"), ("bonus", "self_drawn"), ("pay", "discarded"),
        ("pay", "self_drawn")]
    assert doc["files"] == [{"file": tiny, "path": str(Path(tiny).resolve())}]


def test_explain_table_of_a_bundled_ruleset_has_every_section(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(capsys, "explain", "-r", "guangdong.tuidaohu", *PY)
    assert code == 0
    kinds = {item["kind"] for item in doc["items"]}
    assert {"fan", "multiplier", "requirement", "pay"} <= kinds
    ruleset = mjr.load("guangdong.tuidaohu", backend="python")
    assert len(doc["items"]) == len(ruleset.fans) + len(ruleset.generated.requirements) + len(
        ruleset.generated.floors) + len(ruleset.generated.payments)
