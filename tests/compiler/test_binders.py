"""Variables over values, ``any | all | no NAME in (VALUES) : CONDITION``: the
condition written out for each number, word or tile, scored as the same condition
written out by hand on both backends; misuse refused where written."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

import mjr
from mjr.compiler.build import check_file

BACKENDS = ["compiled", "python"]

RULES = """ruleset t.binders "Binders" {{
    tiles suits(m p s) winds dragons
    option wide "Wide" flag default off
    define like_pungs: any n in (1 to 9) : all x in (m p s) : any sets are (pung and x and rank == n)
    fan like "Like numbers" 10 : like_pungs
    fan run "A run of pungs" 5 : any x in (m p s) : any n in (1 to 7)
        : count(kinds where x and rank >= n and rank <= n + 2 and copies >= 3) == 3
    fan chickens "Chickens" 1 : any t in (1s 8p E) : count(tiles where t) >= 3
    fan plain "No honours" 1 : no h in (E S W N P F C) : count(tiles where h) > 0
    fan inner "Shadowed" 1 : any n in (1 2) : any n in (8 9) : any tiles are (rank == n)
    {extra}
}}
"""

WRITTEN_OUT = """ruleset t.by_hand "By hand" {
    tiles suits(m p s) winds dragons
    define like_pungs: """ + " or ".join(
    "(" + " and ".join(f"any sets are (pung and {x} and rank == {n})" for x in "mps") + ")" for n in range(1, 10)) + """
    fan like "Like numbers" 10 : like_pungs
    fan run "A run of pungs" 5 : """ + " or ".join(
    f"count(kinds where {x} and rank >= {n} and rank <= {n + 2} and copies >= 3) == 3" for x in "mps"
    for n in range(1, 8)) + """
    fan chickens "Chickens" 1 : count(tiles where 1s) >= 3 or count(tiles where 8p) >= 3 or count(tiles where E) >= 3
    fan plain "No honours" 1 : not (""" + " or ".join(f"count(tiles where {h}) > 0" for h in "ESWNPFC") + """)
    fan inner "Shadowed" 1 : any tiles are (rank == 8) or any tiles are (rank == 9)
}
"""

HANDS = [
    "111m 111p 111s 234m 5p win 5p from L",
    "111m 222m 333m 789p 5p win 5p from L",
    "444s 555s 666s EE 12m win 3m self_draw",
    "123m 456m 234p 888p E win E from O",
    "999m 999p 9s 123s 456s win 9s self_draw",
    "234m 345p 456s 777s 1p win 1p from R",
]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.mjr"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_variable_scores_as_its_conditions_written_out(tmp_path: Path, backend: str) -> None:
    bound = load_on(_write(tmp_path, "bound", RULES.format(extra="")), backend, unoptimised=True)
    by_hand = load_on(_write(tmp_path, "by_hand", WRITTEN_OUT), backend, unoptimised=True)
    seen = set()
    for hand in HANDS:
        ours, theirs = bound.evaluate(hand), by_hand.evaluate(hand)
        assert ours.fan_ids == theirs.fan_ids and ours.fan == theirs.fan, hand
        seen.update(ours.fan_ids)
    assert seen == {"like", "run", "chickens", "plain", "inner"}


@pytest.mark.parametrize(("extra", "message"), [
    ("fan a \"A\" 1 : any m in (1 2) : any tiles are (rank == m)",
     "variable 'm' would hide the word 'm': name it otherwise"),
    ("fan a \"A\" 1 : any like_pungs in (1 2) : like_pungs",
     "variable 'like_pungs' would hide the define 'like_pungs'"),
    ("fan a \"A\" 1 : any wide in (1 2) : any tiles are (rank == wide)",
     "variable 'wide' would hide the option 'wide'"),
    ("fan a \"A\" 1 : any n in (1 2 1) : any tiles are (rank == n)", "1 is written twice among the values of 'n'"),
    ("fan a \"A\" 1 : any n in (9 to 1) : any tiles are (rank == n)",
     "9 to 1: a variable takes 1 to 64 values, from the lower to the higher"),
    ("fan a \"A\" 1 : any n in (1 to 40) : any k in (1 to 40) : count(tiles where rank == n) == k",
     "the variables written out make more than 1024 conditions: take fewer values"),
    ("fan a \"A\" 1 : any n in (1 2) : n + 1", "expected a condition (true or false) here, found a number"),
    ("fan a \"A\" 1 : any n in (1 2) : any tiles are (rank == nn)", "unknown name 'nn' (did you mean 'n'?)"),
    ("define d: any suit in (m p s) : any tiles are sut", "unknown name 'sut' (did you mean 'suit'?)"),
])
def test_a_variable_is_checked_where_it_is_written(tmp_path: Path, extra: str, message: str) -> None:
    with pytest.raises(mjr.SourceError) as error:
        check_file(_write(tmp_path, "bad", RULES.format(extra=extra)))
    assert message in str(error.value)
    assert ":11:" in str(error.value)
    assert str(error.value).count(message) == 1  # once, not once for each value
