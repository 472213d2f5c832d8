"""The comparison behind the MCR differential test, on a small ruleset of a few MCR fans.

The ``mcr`` ruleset is not needed: a stand-in declaring 十三幺, 自摸, 和绝张 and
花牌 agrees with PyMahjongGB on some hands and not on others, and the report
must say which, and why, by class.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import unoptimised
from mcr_compare import FROM_LIBRARY, compare, library_fans
from mcr_hands import McrHand, library_available, score

import mjr

pytestmark = pytest.mark.skipif(library_available() is not None, reason=str(library_available()))

STAND_IN = """
ruleset mcr_few "a few MCR fans" "国标 (部分)" {
    source "the comparison's test"
    tiles    suits(m p s) winds dragons flowers
    claims   chow(left) pung kong
    win      self_draw discard robbing_kong
    shapes   standard thirteen_orphans
    fact last_copy "和绝张" flag
    score    fan
    fan orphans      "十三幺" 88 : thirteen_orphans
    fan self_drawn   "自摸"   1 : self_draw
    fan last_copy_4  "和绝张" 4 : last_copy
    fan flower_tiles "花牌"   1 each : flowers
}
"""


@pytest.fixture(scope="module")
def few(tmp_path_factory: pytest.TempPathFactory) -> mjr.Ruleset:
    path = Path(tmp_path_factory.mktemp("mcr_few")) / "mcr_few.mjr"
    path.write_text(STAND_IN, encoding="utf-8")
    return mjr.load(path, backend="python")


def scored(text: str) -> McrHand:
    hand = score(mjr.parse_hand(text))
    assert hand is not None, text
    return hand


def test_agreement_and_difference_classes(few: mjr.Ruleset) -> None:
    same = scored("19m19p19s1234567z 25f win 1m self_draw")          # 十三幺 88, 自摸 1, 花牌 2
    pairs = scored("1133557799m113z win 3z self_draw")               # 七对: no such shape here
    flush = scored("123456789m1235m win 5m self_draw")                # 清龙, 清一色 ... not here
    report = compare(few, [same, pairs, flush, same], workers=1)
    assert (report.hands, report.same_total, report.same_fans) == (4, 2, 2)
    assert report.total_agreement == report.fans_agreement == 0.5
    assert report.classes["mjr: not a win (the tiles do not form a complete hand)"] == 1
    (flush_class,) = [c for c in report.classes if "清龙" in c]
    # in the book's order; 不求人 excludes 自摸 in the library, the stand-in has no 不求人
    assert flush_class == "清一色 24→0, 清龙 16→0, 不求人 4→0, 平和 2→0, 一般高 1→0, 嵌张 1→0, 自摸 0→1"
    assert report.examples[flush_class] == [flush.text]
    summary = report.summary()
    assert summary.startswith("4 hands: total fan agrees on 2 (50.000%), fan list on 2 (50.000%)")
    assert f"e.g. {pairs.text}" in summary


def test_a_refused_hand_is_its_own_class(few: mjr.Ruleset, tmp_path: Path) -> None:
    """A hand the ruleset cannot take (here: a fact it does not declare) is named, not a crash."""
    path = tmp_path / "no_facts.mjr"
    path.write_text(STAND_IN.replace('fact last_copy "和绝张" flag', "").replace(
        'fan last_copy_4  "和绝张" 4 : last_copy', ""), encoding="utf-8")
    report = compare(mjr.load(path, backend="python"), [scored("19m19p19s1234567z win 1m last_copy")])
    (only,) = report.classes
    assert only.startswith("mjr refuses the hand: bad hand at column") and "last_copy" in only


def test_library_names_become_display_names() -> None:
    hand = scored("123m456p789s23s55z win 1s")
    assert FROM_LIBRARY["独听・边张"] == "边张"
    assert library_fans(scored("123m456p789s12s55z win 3s")).get("边张") == 1
    assert "独听・边张" not in library_fans(hand)


def run_script(name: str, *args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / name
    # compiles at -O0, in half the time: the tests check what the scripts print, not their figures
    env = unoptimised(dict(os.environ, MJR_CACHE_DIR=str(cache)))
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=600,
                          env=env, check=False)


@pytest.fixture(scope="module")
def stand_in_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = Path(tmp_path_factory.mktemp("stand_in")) / "mcr_few.mjr"
    path.write_text(STAND_IN, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One build cache for both scripts: the stand-in is compiled once (and once more, cold, by the benchmark)."""
    return Path(tmp_path_factory.mktemp("cache"))


def test_the_million_hand_command_prints_the_comparison(stand_in_file: Path, cache: Path) -> None:
    """benchmarks/mcr_differential.py, on a few hands and the stand-in: the test's report, and timings."""
    done = run_script("mcr_differential.py", "--hands", "1_500", "--chunk", "600", "--ruleset", str(stand_in_file),
                      cache=cache)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"1,500 hands: total fan agrees on \d+ \(\d+\.\d{3}%\), fan list on \d+ \(.*\)", lines[0])
    assert lines[1].startswith("mjr time: ") and "µs a hand" in lines[1]
    assert re.search(r"^ +\d+  mjr: not a win \(the tiles do not form a complete hand\)$", done.stdout, re.M)
    assert lines[-1].startswith("hands made and scored by PyMahjongGB: ")
    assert "600 hands" in done.stderr and "1,200 hands" in done.stderr
    refused = run_script("mcr_differential.py", "--hands", "ten", cache=cache)
    assert refused.returncode == 2 and "--hands: expected a whole number, 1 or more, not 'ten'" in refused.stderr


def test_the_benchmark_prints_every_row(stand_in_file: Path, cache: Path) -> None:
    """benchmarks/mcr_vs_pymahjonggb.py, one small round of each row (its timings are not checked)."""
    done = run_script("mcr_vs_pymahjonggb.py", "--hands", "300", "--rounds", "1", "--compile-rounds", "1",
                      "--load-rounds", "1", "--ruleset", str(stand_in_file), cache=cache)
    assert done.returncode == 0, done.stderr
    for row in ("batch, per hand (300 distinct hands, one core)", "one call, parsed `Hand`",
                "one call, notation text", "cold compile of the ruleset (1 runs)",
                "load of the built ruleset, new process (1 runs)"):
        assert f"| {row} |" in done.stdout, row
    assert "PyMahjongGB's time |" in done.stdout
