"""Declared winning shapes (``shape ID "name" : COND``) and ``wildcard stand_in``:
on both backends, through evaluate, is_win and waits."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

import mjr

BACKENDS = ["compiled", "python"]

SHAPES = """ruleset d.shapes "Shapes" {
    tiles suits(m p s) winds dragons
    wildcard fixed C
    shape four_kind   "四喜"   : any kinds are (copies == 4)
    shape three_wilds "三财神" : wildcards >= 3
    fan by_four  "By four"  10 : four_kind
    fan by_wilds "By wilds" 20 : three_wilds
    fan chicken  "Chicken"  1  : standard
}
"""

STAND_IN = """ruleset d.stand_in "Stand-in" {
    tiles suits(m p s) winds dragons
    claims pung kong
    wildcard indicator + 1
    wildcard stand_in P
    fan plain  "Plain"  1 : standard
    fan wild   "Wild"   2 : wildcards > 0
    fan m_pung "M pung" 4 : any sets are (pung and m)
    fan closed "Closed" 8 : wait_closed
}
"""


def ruleset(tmp_path: Path, text: str, backend: str) -> mjr.Ruleset:
    path = tmp_path / f"{text.split()[1]}.mjr"
    path.write_text(text, encoding="utf-8")
    return load_on(path, backend, unoptimised=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_hand_wins_by_a_declared_shape(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, SHAPES, backend)
    four = rs.evaluate("1111m 2m 3m 5p 7p 9s E S W N win P")
    assert (four.is_win, four.shape, four.fan_ids, four.groups) == (True, "four_kind", ("by_four",), ())
    wilds = rs.evaluate("CCC 1m 5m 9m 1p 5p 9p 1s 5s 9s E win W")
    assert (wilds.shape, wilds.fan_ids, wilds.substituted) == ("three_wilds", ("by_wilds",), 0)
    assert not rs.evaluate("111m 2m 3m 4m 5p 7p 9s E S W N win P").is_win


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_declared_shape_beside_a_standard_one_scores_the_better(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, SHAPES, backend)
    both = rs.evaluate("1111m 23m 567m 789m 5p win 5p")  # also 111m 123m 567m 789m 55p
    assert (both.shape, both.fan_ids) == ("four_kind", ("by_four",))
    cheap = ruleset(tmp_path, SHAPES.replace("by_four  \"By four\"  10", "by_four  \"By four\"  0"), backend)
    assert cheap.evaluate("1111m 23m 567m 789m 5p win 5p").shape == "standard"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_declared_shape_keeps_the_declared_melds(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, SHAPES, backend)
    result = rs.evaluate("(1111m) 2m 3m 5p 7p 9s E S W N P win F")
    assert result.shape == "four_kind"
    assert [(g.kind, g.declared) for g in result.groups] == [("kong", True)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_is_win_and_waits_see_declared_shapes(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, SHAPES, backend)
    assert rs.is_win("1111m 2m 3m 5p 7p 9s E S W N win P")
    waits = rs.waits("1111m 2m 3m 5p 7p 9s E S W N")
    assert len(waits) == 33 and "1m" not in [w.tile for w in waits]  # four 1m held: every other kind


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_stand_in_plays_as_the_wildcard_kind(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, STAND_IN, backend)
    # indicator 4m: 5m is wild, and P plays as a (real) 5m
    result = rs.evaluate("123m 4m P 6m 789m 111p 2p win 2p indicator 4m")
    assert (result.is_win, result.fan_ids) == (True, ("plain",))
    assert [g.tiles for g in result.groups if g.kind == "chow"][1] == ("4m", "5m", "6m")
    # indicator N: P is the wildcard itself
    wild = rs.evaluate("123m 4m P 6m 789m 111p 2p win 2p indicator N")
    assert wild.fan_ids == ("plain", "wild")
    # without the line, P is only itself
    plain = ruleset(tmp_path, STAND_IN.replace("wildcard stand_in P", "").replace("d.stand_in", "d.plain"), backend)
    assert not plain.evaluate("123m 4m P 6m 789m 111p 2p win 2p indicator 4m").is_win


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_stand_in_in_a_meld_and_as_the_winning_tile(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, STAND_IN, backend)
    meld = rs.evaluate("123m 789m 234s [PPP<L] 2p win 2p indicator 4m")
    assert meld.fan_ids == ("plain", "m_pung")
    assert meld.groups[0].tiles == ("5m", "5m", "5m")
    # a stand-in winning tile is a real tile of the kind it plays: it closes 4m-6m
    assert rs.evaluate("123m 4m 6m 789m 111p 22p win P indicator 4m").fan_ids == ("plain", "closed")
    suited = ruleset(tmp_path, STAND_IN.replace("stand_in P", "stand_in 5p").replace("claims", "claims chow")
                     .replace("d.stand_in", "d.suited"), backend)
    with pytest.raises(mjr.HandError, match=r"the chow \[456p<L\] holds 5p, which plays as 5m this hand: no chow"):
        suited.evaluate("123m 456m 789m [456p<L] 2p win 2p indicator 4m")
