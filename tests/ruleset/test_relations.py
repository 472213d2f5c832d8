"""Fans over combinations of sets: ``count(N sets where ...)`` with its words
(``same_suit``, ``distinct_suits``, ``step``), ``account_once`` (the kept
combinations form a forest: 套算一次), ``no_other_fans``, ``minimum ... without``,
and a tile kind written in a condition (``F``, ``6z``) -- on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

from mjr.compiler.build import check_file
from mjr.errors import SourceError

BACKENDS = ["compiled", "python"]

RULES = """ruleset t.rel "Relations" {
    tiles suits(m p s) winds dragons flowers
    shapes standard
    minimum 2 without flower_tiles
    fan pure_double    "一般高" 1 each : count(2 sets where chow and same_suit and step == 0)
    fan mixed_double   "喜相逢" 1 each : count(2 sets where chow and distinct_suits and step == 0)
    fan short_straight "连六"   1 each : count(2 sets where chow and same_suit and step == 3)
    fan two_terminal   "老少副" 1 each : count(2 sets where chow and same_suit and step == 6)
    fan pure_straight  "清龙"  16 each : count(3 sets where chow and same_suit and step == 3)
    fan mixed_straight "花龙"   8 each : count(3 sets where chow and distinct_suits and step == 3)
    fan shifted_four   "一色四步高" 32 : count(4 sets where chow and same_suit and step in (1, 2)) > 0
        excludes pure_double short_straight two_terminal pure_straight
    fan double_pung    "双同刻" 2 each : count(2 sets where pung and distinct_suits and step == 0)
    fan winds_three    "三风刻" 12 each : count(3 sets where pung and wind)
    fan green          "绿一色" 88 : all tiles are ((s and rank in (2, 3, 4, 6, 8)) or F)
    fan green_pung     "发刻"   2 : any sets are (pung and 6z)
    bonus flower_tiles "花牌"   1 each : flowers
    fan chicken        "无番和" 8 : no_other_fans
    account_once pure_straight mixed_straight pure_double mixed_double short_straight two_terminal
}
"""


@pytest.fixture(scope="module", params=BACKENDS)
def rules(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> object:
    path = tmp_path_factory.mktemp("rel") / "t.rel.mjr"
    path.write_text(RULES, encoding="utf-8")
    return load_on(path, request.param, unoptimised=True)


def fans_of(rules: object, hand: str) -> dict[str, int]:
    result = rules.evaluate(hand)  # type: ignore[attr-defined]
    assert result.is_win, (hand, result.reason)
    return {line.id: line.value for line in result.fans}


@pytest.mark.parametrize(("hand", "expected"), [
    # four relations in a cycle: three are kept, the short straight first to go (its
    # fan is listed after mixed_double)
    ("234567m 23456p 11z win 7p", {"mixed_double": 2, "short_straight": 1}),
    # 123 789 in two suits: Two Terminal Chows twice and Mixed Double Chow twice is the classic mistake
    ("123m 789m 123s 789s 5p win 5p", {"mixed_double": 2, "two_terminal": 1}),
    # a pure straight and a fourth chow: one more relation, the first listed
    ("123456789m 123m 5p win 5p", {"pure_straight": 16, "pure_double": 1}),
    ("123m 456m 456p 789s 1s win 1s", {"mixed_straight": 8, "mixed_double": 1}),
    # 123 123 789: a pure double and a two terminal chows, not two of the latter
    ("123m 123m 789m 234s 5p win 5p", {"pure_double": 1, "two_terminal": 1}),
    # a fan that excludes the relation fans takes the four chows whole
    ("123345567789p 5s win 5s", {"shifted_four": 32}),
    ("222m 222p 777m 777p 5s win 5s", {"double_pung": 4}),
    ("111z 222z 333z 234m 5p win 5p", {"winds_three": 12}),
    ("234s 666s 888s 22s FF win F", {"green": 88, "green_pung": 2}),
])
def test_combinations_and_account_once(rules: object, hand: str, expected: dict[str, int]) -> None:
    assert fans_of(rules, hand) == expected


def test_no_other_fans_ignores_bonuses(rules: object) -> None:
    assert fans_of(rules, "123m 456p 678s 234s 1z win 1z") == {"chicken": 8}
    assert fans_of(rules, "123m 456p 678s 234s 1z 1f2f win 1z") == {"chicken": 8, "flower_tiles": 2}
    assert "chicken" not in fans_of(rules, "123m 123m 789m 234s 5z 1f win 5z")


def test_minimum_without_leaves_the_flowers_out(rules: object) -> None:
    result = rules.evaluate("123m 123m 678s 234s 1z 1f win 1z")  # type: ignore[attr-defined]
    assert not result.is_win and "minimum" in result.reason
    assert rules.evaluate("123m 123m 678s 234s 1z win 1z").reason  # type: ignore[attr-defined]


@pytest.mark.parametrize(("text", "message"), [
    ("fan a \"A\" 1 each : count(2 sets where chow) + step",
     "'step' describes a combination of groups: it can be used only directly inside count(N sets where ...)"),
    ("fan b \"B\" 1 : F", "a tile kind (F) is a quality of a tile: use it inside tiles, kinds or a group"),
    ("fan c \"C\" 1 each : count(5 sets where chow)", "a combination has 2 to 4 groups, not 5"),
    ("fan d \"D\" 1 : count(2 tiles where honor) > 0", "combinations are of groups"),
    ("fan h \"H\" 1 each : count(2 sets where chow and rank + step == 3)",
     "a number of each member cannot stand alone in a combination"),
    ("require r \"R\" : no_other_fans", "'no_other_fans' can be used only in a fan's condition"),
    ("fan e \"E\" 2 : no_other_fans excludes g\n fan g \"G\" 1 : standard",
     "fan 'e' asks 'no_other_fans', so it is decided after every other fan and cannot exclude one"),
    ("fan e \"E\" 2 : no_other_fans\n fan g \"G\" 1 : e", "fan 'g' reads fan 'e', which asks 'no_other_fans'"),
    ("fan g \"G\" 1 each : count(sets where chow)\n account_once g", "fan 'g' cannot be accounted once"),
    ("account_once zz", "unknown fan 'zz' in 'account_once'"),
    ("prefer zz", "unknown fan 'zz' in 'prefer'"),
    ("minimum 3 without qq", "unknown fan 'qq' in 'minimum ... without'"),
])
def test_misuse_is_refused_at_its_place(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "t.bad.mjr"
    path.write_text(f'ruleset t.bad "Bad" {{\n tiles suits(m p s) winds dragons\n {text}\n}}\n', encoding="utf-8")
    with pytest.raises(SourceError) as info:
        check_file(path)
    assert message in str(info.value)
    assert f"{path}:3:" in str(info.value) or f"{path}:4:" in str(info.value)


@pytest.mark.parametrize("backend", BACKENDS)
def test_winning_tile_names_the_kind_won_on(tmp_path: Path, backend: str) -> None:
    """和绝张 as the Chinese Official rules normalise it: the copies the winner's
    own melds hold are in view, the concealed ones are not."""
    path = tmp_path / "t.win.mjr"
    path.write_text("""ruleset t.win "Winning tile" {
    tiles suits(m p s) winds dragons
    claims pung chow
    define in_melds: count(melds where pung and winning_tile) * 3 + count(melds where chow and contains winning_tile)
    fan held    "held" 1 each : count(tiles where winning_tile)
    fan in_view "in view" 1 each : in_melds
}
""", encoding="utf-8")
    rules = load_on(path, backend, unoptimised=True)

    def got(hand: str) -> dict[str, int]:
        return {line.id: line.value for line in rules.evaluate(hand).fans}

    assert got("[111m<L] 23m 567p 789s EE win 1m") == {"held": 4, "in_view": 3}
    assert got("[123m<L] 1m 567p 789s 234s win 1m") == {"held": 3, "in_view": 1}
    assert got("123m 567p 789s 234s E win E") == {"held": 2}


@pytest.mark.parametrize("backend", BACKENDS)
def test_prefer_names_the_reading_kept_on_a_tie(tmp_path: Path, backend: str) -> None:
    """111222333m is three chows or three pungs for the same value: without
    ``prefer`` the first reading found is named, with it the preferred one."""
    text = """ruleset t.prefer "Prefer" {
    tiles suits(m p s) winds dragons
    fan chows "三同顺" 4 : count(3 sets where chow and same_suit and step == 0) > 0
    fan pungs "三节高" 4 : count(3 sets where pung and same_suit and step == 1) > 0
    PREFER
}
"""
    def named(prefer: str) -> set[str]:
        path = tmp_path / f"t.prefer{len(prefer)}.mjr"
        path.write_text(text.replace("PREFER", prefer), encoding="utf-8")
        result = load_on(path, backend, unoptimised=True).evaluate("111222333m 456p 7s win 7s")
        assert result.fan == 4
        return {line.id for line in result.fans}

    assert named("") == {"pungs"}  # the search meets the pungs first
    assert named("prefer chows") == {"chows"}
    assert named("prefer pungs chows") == {"pungs"}
