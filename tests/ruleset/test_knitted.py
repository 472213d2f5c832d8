"""``shapes standard(knitted)``: a standard hand holding one knitted straight
(1-4-7, 2-5-8, 3-6-9 of three suits) in place of three sets, as the group word
``knitted``; on both backends, through evaluate, is_win, waits and the output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import load_on

import mjr
from mjr.abi import GROUP_KNIT_SHIFT, knitted_kinds
from mjr.authoring import describe
from mjr.cli import main

BACKENDS = ["compiled", "python"]

KNITTED = """ruleset k.knitted "Knitted" {
    tiles suits(m p s) winds dragons
    claims chow pung kong
    shapes standard(knitted) seven_pairs
    fan knitted_straight "组合龙" 12 : any groups are knitted
    fan one_set     "One set"     1 : count(sets) == 1
    fan all_chows   "All chows"   2 : all sets are chow and no tiles are honor
    fan knit_pair   "Knit pair"   0 : count(groups where knitted or pair) == 2 and count(pairs) == 1
    fan any_wait    "Any wait"    1 : wait_edge or wait_closed or wait_open or wait_pair or wait_pung
    fan single      "Single"      2 : wait_pair
    fan in_knit     "In knit"     4 : any groups are (knitted and winning)
    fan from_one    "From one"    0 : any groups are (knitted and rank == 1 and contains (rank == 9))
    fan all_m       "All m"       0 : any groups are (knitted and m)
    fan all_suited  "All suited"  0 : all groups are suited
    fan knit_hidden "Knit hidden" 0 : any groups are (knitted and concealed and not pair and not chow and not pung)
    fan chicken     "Chicken"     0 : standard
}
"""
WITHOUT = KNITTED.replace("k.knitted", "k.plain").replace("standard(knitted)", "standard")
WILD = KNITTED.replace("k.knitted", "k.wild").replace("claims chow pung kong", "claims chow pung kong\n"
                                                      "    wildcard fixed C")


def ruleset(tmp_path: Path, text: str, backend: str) -> mjr.Ruleset:
    path = tmp_path / f"{text.split()[1]}.mjr"
    path.write_text(text, encoding="utf-8")
    return load_on(path, backend, unoptimised=True)


def shown(result: mjr.Result) -> list[tuple[str, str, bool]]:
    return [(g.kind, "".join(g.tiles), g.winning) for g in result.groups]


KNIT = ("knitted", "1m4m7m2p5p8p3s6s9s")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_knitted_straight_with_a_concealed_chow_and_a_pair(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, KNITTED, backend)
    result = rs.evaluate("147m258p369s 13m 55p win 2m discard")
    assert result.is_win and result.shape == "standard"
    assert result.fan_ids == ("knitted_straight", "one_set", "all_chows", "knit_pair", "any_wait", "from_one",
                              "all_suited", "knit_hidden", "chicken")
    assert shown(result) == [(*KNIT, False), ("chow", "1m2m3m", True), ("pair", "5p5p", False)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_knitted_straight_with_the_only_declared_meld(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, KNITTED, backend)
    result = rs.evaluate("147m258p369s 1z [777z] win 1z discard")
    assert result.fan_ids == ("knitted_straight", "one_set", "knit_pair", "any_wait", "single", "from_one",
                              "knit_hidden", "chicken")
    assert shown(result) == [("pung", "7z7z7z", False), (*KNIT, False), ("pair", "1z1z", True)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_winning_tile_inside_the_knitted_nine(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, KNITTED, backend)
    result = rs.evaluate("147m258p36s 234m 77m win 9s discard")
    assert "in_knit" in result.fan_ids and "any_wait" not in result.fan_ids  # no wait word for a knitted place
    assert shown(result)[0] == (*KNIT, True)
    # 7m sits in the knitted straight or in the pair: each place is scored, the better kept
    both = "147m258p369s 234m 7m win 7m discard"
    assert shown(rs.evaluate(both))[0] == (*KNIT, True)
    paired = ruleset(tmp_path, KNITTED.replace('"In knit"     4', '"In knit"     0'), backend).evaluate(both)
    assert "single" in paired.fan_ids and shown(paired)[2] == ("pair", "7m7m", True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_hand_without_a_knitted_straight_is_unaffected(tmp_path: Path, backend: str) -> None:
    knitted, plain = ruleset(tmp_path, KNITTED, backend), ruleset(tmp_path, WITHOUT, backend)
    for hand in ("123m 456m 789m 234p 5p win 5p", "147m258p369s 1477m win 7m", "1133557799m 11p 2p win 2p"):
        assert knitted.evaluate(hand) == plain.evaluate(hand)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_ruleset_without_the_option_never_forms_one(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, WITHOUT, backend)
    assert not rs.evaluate("147m258p369s 13m 55p win 2m").is_win
    assert not rs.is_win("147m258p369s 13m 55p win 2m")
    assert rs.waits("147m258p369s 13m 55p") == [] and rs.near_misses("147m258p369s 13m 55p") == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_is_win_waits_and_near_misses_see_it(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, KNITTED, backend)
    assert rs.is_win("147m258p369s 13m 55p win 2m") and rs.is_win("147m258p369s 1z [777z] win 1z")
    assert not rs.is_win("147m258p369s 1z [777z] win 2z")
    assert [w.tile for w in rs.waits("147m258p369s 13m 55p")] == ["2m"]
    assert [w.tile for w in rs.waits("147m258p36s 234m 77m")] == ["9s"]
    picky = ruleset(tmp_path, KNITTED.replace("k.knitted", "k.picky").replace(
        "    fan chicken", "    require no_knit \"No knit\" : no groups are knitted\n    fan chicken"), backend)
    assert [w.tile for w in picky.waits("147m258p36s 234m 77m")] == []
    assert [(w.tile, w.result.reason) for w in picky.near_misses("147m258p36s 234m 77m")] == [
        ("9s", "fails requirement no_knit (No knit)")]


@pytest.mark.parametrize("backend", BACKENDS)
def test_wildcards_fill_the_set_and_pair_but_no_knitted_place(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, WILD, backend)
    result = rs.evaluate("147m258p369s 13m 5p C win 2m")
    assert shown(result) == [(*KNIT, False), ("chow", "1m2m3m", True), ("pair", "5p5p", False)]
    assert not rs.evaluate("147m258p36s C 234m 7m win 7m").is_win  # C may not stand for the 9s
    assert not rs.is_win("147m258p36s C 234m 7m win 7m")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_batch_scores_it_as_evaluate_does(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, KNITTED, backend)
    hands = ["147m258p369s 13m 55p win 2m", "147m258p36s 234m 77m win 9s", "123m 456m 789m 234p 5p win 5p"]
    scores = rs.evaluate_batch(hands, fans=True)
    assert list(scores.fan) == [rs.evaluate(h).fan for h in hands]


def test_the_nine_kinds_of_each_arrangement() -> None:
    assert knitted_kinds(0, 1 << GROUP_KNIT_SHIFT) == (0, 3, 6, 10, 13, 16, 20, 23, 26)
    assert knitted_kinds(18, 0) == (18, 21, 24, 1, 4, 7, 11, 14, 17)  # 147s 258m 369p


def test_the_command_line_shows_the_knitted_group(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.knitted.mjr"
    path.write_text(KNITTED, encoding="utf-8")
    assert main(["score", "-r", str(path), "147m258s369p 13m 55p win 2m discard"]) == 0
    assert "groups         147m258s369p 123m 55p" in capsys.readouterr().out
    assert main(["score", "-r", str(path), "--json", "147m258p369s 13m 55p win 2m discard"]) == 0
    group = json.loads(capsys.readouterr().out)["result"]["groups"][0]
    assert group == {"kind": "knitted", "tiles": ["1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "9s"],
                     "concealed": True, "declared": False, "winning": False}
    assert describe.shapes(mjr.load(path)) == "standard(knitted) seven_pairs"
