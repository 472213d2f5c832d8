"""``derive``: kinds counted from the indicators of a tiles fact (dora), not wild,
on both backends: each indicator counts once for the kind it points at, several
indicators of one kind count several times, and the honours follow the cycles the
statement gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

BACKENDS = ["compiled", "python"]

RULES = """ruleset t.derive "Derived kinds" {
    tiles suits(m p s) winds dragons
    fact indicators "Indicators" tiles 1 to 5
    fact under "Under" tiles 0 to 5
    derive dora "宝牌" from indicators + 1 honors(E S W N) (P F C)
    derive under_dora "里宝牌" from under - 1
    fan plain "Plain" 1 : standard
    bonus dora_count "Dora" 1 each : sum(tiles of dora)
    bonus under_count "Under" 1 each : sum(tiles of under_dora)
    bonus dora_kinds "Dora kinds" 1 each : count(kinds where dora > 0)
    minimum 1 without dora_count under_count dora_kinds
}
"""

HAND = "123m 456m 789m NNN 5s win 5s"


@pytest.fixture(scope="module")
def rules_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("derive") / "t.derive.mjr"
    path.write_text(RULES, encoding="utf-8")
    return path


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("facts", "fans"), [
    # 9m -> 1m (one held), W -> N (three), 4s -> 5s (the pair)
    ("indicators 9mW4s", {"dora_count": 6, "dora_kinds": 3}),
    # the same indicator twice counts twice; C -> P (the dragons' own cycle), none held
    ("indicators 4s4sC", {"dora_count": 4, "dora_kinds": 1}),
    # N -> E: no East held; under - 1: 6s -> 5s twice, 1m -> 9m once
    ("indicators N under 6s1m", {"under_count": 3}),
    ("indicators N under 2m", {"under_count": 1}),
])
def test_kinds_are_counted_not_wild(rules_path: Path, backend: str, facts: str, fans: dict[str, int]) -> None:
    result = load_on(rules_path, backend, unoptimised=True).evaluate(f"{HAND} {facts}")
    assert result.is_win
    assert {line.id: line.value for line in result.fans} == {"plain": 1, **fans}
    assert result.wildcards == ()


@pytest.mark.parametrize("backend", BACKENDS)
def test_indicators_are_tiles_out_of_play(rules_path: Path, backend: str) -> None:
    """Three North in the hand and the fourth shown as an indicator: a fifth is refused."""
    from mjr.errors import HandError

    rules = load_on(rules_path, backend, unoptimised=True)
    assert rules.evaluate(f"{HAND} indicators N").is_win
    with pytest.raises(HandError, match="5 copies|five"):
        rules.evaluate(f"{HAND} indicators NN")


WILD_RULES = """ruleset t.derive_wild "Derived kinds and a wildcard" {
    tiles suits(m p s) winds dragons
    wildcard fixed C
    fact indicators "Indicators" tiles 1 to 5
    derive dora "宝牌" from indicators + 1
    fan plain "Plain" 1 : standard
    bonus dora_count "Dora" 1 each : sum(tiles of dora)
    minimum 1 without dora_count
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("indicator", "dora"), [("9p", 3), ("3p", 1)])
def test_a_sum_over_the_tiles_follows_each_reading_of_a_wildcard(tmp_path: Path, backend: str, indicator: str,
                                                                 dora: int) -> None:
    """The sum over the tiles is kept while the tiles stay and worked out again when a
    wildcard plays as another kind: 中 is 1p (three 1p: dora 1p counts 3) or 4p (one
    4p), and the best reading counts the dora of its own tiles."""
    path = tmp_path / "t.derive_wild.mjr"
    path.write_text(WILD_RULES, encoding="utf-8")
    result = load_on(path, backend, unoptimised=True).evaluate(f"123m 456m 789m 11p 2p C win 3p indicators {indicator}")
    assert {line.id: line.value for line in result.fans} == {"plain": 1, "dora_count": dora}


DEFINES = """ruleset t.derive_defines "Derived kinds in defines" {
    tiles suits(m p s) winds dragons
    fact indicators "Indicators" tiles 1 to 5
    derive dora "宝牌" from indicators + 1
    define dora_held: sum(tiles of dora)
    define is_dora: dora > 0
    fan plain "Plain" 1 : standard
    fan many "Many dora" 2 : dora_held >= 3
    bonus dora_kinds "Dora kinds" 1 each : count(kinds where is_dora)
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_derived_kind_is_read_through_a_define(tmp_path: Path, backend: str) -> None:
    """A define may read a derived kind, for a hand (a sum over the tiles) or for a
    tile, as the statements that use the define could."""
    path = tmp_path / "t.derive_defines.mjr"
    path.write_text(DEFINES, encoding="utf-8")
    result = load_on(path, backend, unoptimised=True).evaluate(f"{HAND} indicators 9mW4s")
    assert {line.id: line.value for line in result.fans} == {"plain": 1, "many": 2, "dora_kinds": 3}


def test_a_derived_kind_read_through_a_define_in_the_wrong_place_is_refused_there(tmp_path: Path) -> None:
    from mjr.compiler.build import check_file
    from mjr.errors import SourceError

    path = tmp_path / "t.derive_misplaced.mjr"
    path.write_text(DEFINES.replace("bonus dora_kinds", "fan wrong \"Wrong\" 1 : is_dora\n    bonus dora_kinds"),
                    encoding="utf-8")
    with pytest.raises(SourceError, match="'dora' is a number of a tile .*: use it inside tiles or kinds"):
        check_file(path)
