"""A ruleset's rules of play, spelled once (:mod:`mjr.authoring.play_text`) and shown by
``mjr explain``: in the whole table, by id or name, and in JSON."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

import mjr
from mjr.authoring.play_text import hand_end, play_lines
from mjr.ruleset.rules_of_play import DealerRule, DrawCheck, FalseWin, OpenKong, PlayerTest, PlayRules

PY = ["--backend", "python"]
SICHUAN = "sichuan.xuezhan"
SICHUAN_KONGS = [
    'kong_pay gua_feng_direct "刮风(直杠)" on direct : discarder pays 1 refund_unless_ready',
    'kong_pay gua_feng_added "刮风(面下杠)" on added : each opponent pays 1 refund_unless_ready',
    'kong_pay xia_yu "下雨(暗杠)" on concealed : each opponent pays 2 refund_unless_ready',
]
SICHUAN_DRAWS = [
    'at_draw cha_hua_zhu "查花猪" : each player where suits == 3 and not won pays each player where suits < 3 16',
    'at_draw cha_da_jiao "查大叫" : each player where not ready and suits < 3 and not won '
    'pays each player where ready and not won best',
]


pytestmark = pytest.mark.usefixtures("private_cache")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return run_cli(capsys, "explain", *PY, *argv)


def test_sichuan_spells_every_rule_of_play_in_the_files_words() -> None:
    lines = play_lines(mjr.load(SICHUAN, backend="python").play)
    assert [statement for line in lines for statement in line.statements] == [
        "discard_win all", "missed_win none", "hand_ends wins 3", "dead_wall 0", "last_draw ordinary", "void_suit none",
        "indicator_flip back", *SICHUAN_KONGS,
        *SICHUAN_DRAWS,
        "next_dealer : random"]
    assert [line.key for line in lines if line.keyword in ("kong_pay", "at_draw")] == [
        "kong_pay gua_feng_direct", "kong_pay gua_feng_added", "kong_pay xia_yu", "at_draw cha_hua_zhu",
        "at_draw cha_da_jiao"]


def test_the_defaults_are_spelled_and_the_dealer_rules_are_one_rule() -> None:
    lines = play_lines(PlayRules())
    assert [line.statements for line in lines] == [
        ("discard_win nearest",), ("missed_win none",), ("hand_ends first_win",), ("dead_wall 0",),
        ("last_draw ordinary",), ("void_suit none",), ("indicator_flip back",),
        ("next_dealer when drawn or dealer_won : dealer", "next_dealer : next")]
    assert hand_end(PlayRules()) == "first_win"
    assert hand_end(PlayRules(hand_ends="wins", ends_after=3)) == "wins 3"


def test_facts_streaks_and_a_side_without_tests_are_spelled() -> None:
    rules = PlayRules(
        draw_checks=(DrawCheck("all_pay", 'say "x"', PlayerTest(won=True), PlayerTest(), 2),),
        fact_sources=(("horse_tiles", "wall_after_win", 2), ("streak", "dealer_streak", 0)),
        next_dealer=(DealerRule(("streak", "several_winners"), "discarder", 3), DealerRule((), "winner")))
    assert [statement for line in play_lines(rules) for statement in line.statements][7:] == [
        'at_draw all_pay "say \\"x\\"" : each player where won pays each player 2',
        "fact horse_tiles from wall_after_win 2", "fact streak from dealer_streak",
        "next_dealer when streak 3 or several_winners : discarder", "next_dealer : winner"]


def test_an_open_kong_a_false_win_and_a_growing_dead_wall_are_spelled() -> None:
    rules = PlayRules(dead_wall=16, dead_per_kong=1, last_draw="roams", open_kong=OpenKong("opened", True, True),
                      false_win=FalseWin("zha_hu", "诈胡", 30, dead_hand=True))
    assert [statement for line in play_lines(rules) for statement in line.statements][3:9] == [
        "dead_wall 16 plus 1 per kong", "last_draw roams", "void_suit none", "indicator_flip back",
        "open_kong opened when_ready locks",
        'false_win zha_hu "诈胡" : pays each opponent 30 dead_hand']


def test_the_whole_table_ends_with_the_rules_of_play(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "-r", SICHUAN)
    assert code == 0
    play = out.split("\n\n")[-1]
    assert play.splitlines() == ["rules of play", "  discard_win all", "  missed_win none", "  hand_ends wins 3",
                                 "  dead_wall 0", "  last_draw ordinary", "  void_suit none",
                                 "  indicator_flip back",
                                 *(f"  {line}" for line in SICHUAN_KONGS + SICHUAN_DRAWS),
                                 "  next_dealer : random"]
    code, out, _ = run(capsys, "-r", SICHUAN, "-o", "bloody_flow=on")
    assert "\n  hand_ends wall\n" in out
    code, out, _ = run(capsys, "-r", SICHUAN, "--json")
    play_json = json.loads(out)["play"]
    assert [rule["key"] for rule in play_json if rule["kind"] == "kong_pay"] == [
        "kong_pay gua_feng_direct", "kong_pay gua_feng_added", "kong_pay xia_yu"]
    assert [rule["statements"] for rule in play_json if rule["kind"] == "at_draw"] == [[s] for s in SICHUAN_DRAWS]


@pytest.mark.parametrize("query", ["xia_yu", "下雨(暗杠)", "XIA_YU"])
def test_a_kong_payment_is_found_by_id_or_name(capsys: pytest.CaptureFixture[str], query: str) -> None:
    code, out, _ = run(capsys, "-r", SICHUAN, query)
    assert code == 0
    assert out.splitlines() == ["kong_pay  xia_yu 下雨(暗杠)", f"    {SICHUAN_KONGS[2]}"]


def test_a_draw_check_is_found_and_travels_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "-r", SICHUAN, "--json", "查大叫")
    assert code == 0
    (rule,) = json.loads(out)["items"]
    assert rule == {"section": "play", "kind": "at_draw", "key": "at_draw cha_da_jiao", "id": "cha_da_jiao",
                    "name": "查大叫", "statements": [SICHUAN_DRAWS[1]]}


def test_an_unknown_name_suggests_a_rule_of_play(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "-r", SICHUAN, "查大脚")
    assert code == 2 and out == ""
    assert err == ("mjr: error: sichuan.xuezhan has no fan, requirement, floor, payment clause or rule of play "
                   "'查大脚' (did you mean 'cha_da_jiao' (查大叫)?); to list them all: "
                   "mjr explain -r sichuan.xuezhan\n")
