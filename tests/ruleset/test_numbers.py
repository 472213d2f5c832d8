"""Functions of numbers (``min``, ``max``, ``round_up``, ``round_down``), lookup
tables, ``sum(COLLECTION of VALUE)`` and named values (``value``), on both
backends: each against the same arithmetic written in Python, over every value of
the facts it reads.  One ruleset holds them all, built once per backend."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import load_on

import mjr
from mjr.cli import main

BACKENDS = ["compiled", "python"]

RULES = """ruleset t.numbers "Numbers" {
    tiles suits(m p s) winds dragons
    fact n "n" number 0 to 30
    fact k "k" number 1 to 7
    table steps "Steps" {
        0: 5
        3: 8        # 3 and 4
        5: 20
        10: 100     # 10 and up
    }
    table grid "Grid" {
        columns  20   25   30   40
        1:      100  125  150  200
        2:      200  250  300  400
        4:      800  900 1000 1200
    }
    fan plain "Plain" 1 : standard
    fan low   "Low"   (min(n, 7, k + 3)) : n > 0
    fan high  "High"  (max(n - 20, 0 - n, k)) : n > 1
    fan up    "Up"    (round_up(n - 15, k)) : n > 2
    fan down  "Down"  (round_down(n - 15, k)) : n > 3
    value chows "Chow ranks" : sum(sets of (rank if chow else 0))
    value tiles "Tile ranks" : sum(tiles of rank) + sum(kinds of (10 if honor else 0))
    value stepped "Stepped" : steps(n)
    value looked "Looked up" : grid(min(k, 5), 20 + n)
    value both "Both" : stepped + looked + fan
    score both * 2
    pay each "Each" when scored plain and both > 10 : each opponent pays both - points / 4 + chows
}
"""


def low(n: int, m: int) -> int:
    return min(n, 7, m + 3) if n > 0 else 0


def fans(n: int, m: int) -> int:
    total = 1 + low(n, m)
    total += max(n - 20, -n, m) if n > 1 else 0
    total += -(-(n - 15) // m) * m if n > 2 else 0
    total += (n - 15) // m * m if n > 3 else 0
    return total


def stepped(n: int) -> int:
    return 5 if n < 3 else 8 if n < 5 else 20 if n < 10 else 100


def looked(n: int, m: int) -> int:
    row = {1: 0, 2: 1, 3: 1, 4: 2, 5: 2}[min(m, 5)]
    column = 20 + n
    place = 0 if column < 25 else 1 if column < 30 else 2 if column < 40 else 3
    return [[100, 125, 150, 200], [200, 250, 300, 400], [800, 900, 1000, 1200]][row][place]


HAND = "123m 456m 789m EEE 5s win 5s"
#: the chows' lowest ranks 1 + 4 + 7; the tiles' ranks 1 to 9 and 5 + 5 (winds 0), and 10 for the kind E
CHOWS, TILES = 12, 45 + 10 + 10


@pytest.fixture(scope="module")
def rules_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("numbers") / "t.numbers.mjr"
    path.write_text(RULES, encoding="utf-8")
    return path


@pytest.mark.parametrize("backend", BACKENDS)
def test_functions_tables_sums_and_values_on_both_backends(rules_path: Path, backend: str) -> None:
    rules = load_on(rules_path, backend, unoptimised=True)
    for n in range(31):
        for m in range(1, 8):
            result = rules.evaluate(f"{HAND} self_draw n {n} k {m}")
            fan = fans(n, m)
            both = stepped(n) + looked(n, m) + fan
            assert result.fan == fan, (n, m)
            assert dict(result.values) == {"chows": CHOWS, "tiles": TILES, "stepped": stepped(n),
                                           "looked": looked(n, m), "both": both}, (n, m)
            assert result.points == both * 2
            if both > 10:
                amount = both - both * 2 // 4 + CHOWS
                assert dict(result.amounts) == {"S": amount, "W": amount, "N": amount}, (n, m)


@pytest.mark.parametrize("backend", BACKENDS)
def test_values_are_results_in_order_in_json_and_by_name(rules_path: Path, backend: str) -> None:
    result = load_on(rules_path, backend, unoptimised=True).evaluate(f"{HAND} n 4 k 2")
    assert [name for name, _ in result.values] == ["chows", "tiles", "stepped", "looked", "both"]
    assert result.value("stepped") == 8
    assert result.to_json()["values"] == dict(result.values)
    with pytest.raises(KeyError, match="no value 'fu' in this result; its values: chows, tiles"):
        result.value("fu")


def test_values_in_the_score_command(rules_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "-r", str(rules_path), "--backend", "python", "--json", f"{HAND} n 4 k 2"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["result"]["values"]["stepped"] == 8
    assert main(["score", "-r", str(rules_path), "--backend", "python", f"{HAND} n 4 k 2"]) == 0
    assert re.search(r"^stepped Stepped +8$", capsys.readouterr().out, re.MULTILINE)


def test_a_ruleset_without_values_has_none(tmp_path: Path) -> None:
    assert mjr.load("simple", backend="python").evaluate("123m 456m 789m 123p 4p win 4p").values == ()


@pytest.mark.parametrize(("expect", "failure"), [
    ("expect stepped 8", None),
    ("expect both 23", "expected both 23, got"),
])
def test_expect_a_named_value(tmp_path: Path, expect: str, failure: str | None) -> None:
    path = tmp_path / "t.numbers.mjr"
    path.write_text(RULES.rstrip().rstrip("}") + f'    example "values" {{\n        hand "{HAND} n 4 k 2"\n'
                    f"        {expect}\n    }}\n}}\n", encoding="utf-8")
    from mjr.authoring.examples import run_examples

    outcomes = run_examples(mjr.load(path, backend="python"))
    assert len(outcomes) == 1
    problems = outcomes[0].failures
    if failure is None:
        assert problems == ()
    else:
        assert len(problems) == 1 and failure in problems[0], problems


def test_the_formulas_are_spelled_back(rules_path: Path) -> None:
    from mjr.compiler.build import check_file
    from mjr.compiler.emit.spelling import spelled

    ruleset = check_file(rules_path)
    bodies = {value.id: spelled(value.body, ruleset) for value in ruleset.values}
    assert bodies["chows"] == "sum(sets of rank if chow else 0)"
    assert bodies["looked"] == "grid(min(k, 5), 20 + n)"
    assert spelled(ruleset.score, ruleset) == "both * 2"
    assert spelled(ruleset.payments[0].amount, ruleset) == "both - points / 4 + chows"


def test_explain_lists_values_and_tables(rules_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "-r", str(rules_path), "--backend", "python"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^  stepped +Stepped +steps\(n\)$", out, re.MULTILINE)
    assert re.search(r"^  grid +Grid +3 rows x 4 columns$", out, re.MULTILINE)
    assert main(["explain", "-r", str(rules_path), "--backend", "python", "grid"]) == 0
    assert "        columns  20   25   30   40" in capsys.readouterr().out


def test_diff_names_a_changed_table_cell(rules_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    changed = tmp_path / "t.changed.mjr"
    changed.write_text(RULES.replace("t.numbers", "t.changed").replace("800  900 1000 1200", "800  900 1000 1300"),
                       encoding="utf-8")
    main(["diff", "--backend", "python", str(rules_path), str(changed)])
    out = capsys.readouterr().out
    assert "4: 800 900 1000 1200" in out and "4: 800 900 1000 1300" in out
    assert "stepped" not in out
