"""One-line assertions on the bundled regions beyond their own examples: hands a
region refuses, settlement in 血战 play, and the API's shapes of answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

import mjr
from mjr import HandError, MjrError, Stakes


def test_a_chow_from_the_opposite_player_is_refused(jipinghu: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="only from the left"):
        jipinghu.evaluate("123m 456p 789s 5s [234m<O] win 5s")


def test_sichuan_has_no_chow(sichuan: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="does not allow claiming a chow"):
        sichuan.evaluate("123m 456m 789m 5p [234p<L] win 5p")


def test_sichuan_has_no_honours(sichuan: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="not in sichuan.xuezhan's tile set"):
        sichuan.evaluate("123m 456m 789m EEE 5p win 5p")


def test_a_fifth_copy_is_impossible(jipinghu: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="5 copies of 1m"):
        jipinghu.evaluate("1111m 123m 456p 789s 5s win 5s")


def test_the_indicator_counts_as_a_copy(tuidaohu: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="with the indicator"):
        tuidaohu.evaluate("1111m 234m 456p 789s 5s win 5s indicator 1m")


def test_earthly_hand_is_void_after_a_claim(jipinghu: mjr.Ruleset) -> None:
    """§2.8: 地和 is void once anyone chowed or ponged; first_turn is before any claim."""
    with pytest.raises(MjrError, match="'first_turn' contradicts '\\[555p<L\\]'"):
        jipinghu.evaluate("[555p<L] 123m 456m 789s 2s win 2s self_draw first_turn seat S")


@pytest.mark.parametrize("hand", ["123m 456p 789s 234s 5s win 5s robbing_kong from R",
                                  "123m 11s 46s [456p<O] [345s<L] win 5s robbing_kong from R"])
def test_robbing_a_kong_while_holding_its_tile_is_impossible(jipinghu: mjr.Ruleset, hand: str) -> None:
    """Three copies of the robbed tile are in the robbed player's pung."""
    with pytest.raises(HandError, match=r"5 copies of 5s \(with the three in the robbed player's pung\)"):
        jipinghu.evaluate(hand)


def test_a_robbed_kong_is_no_wait_on_a_held_tile(jipinghu: mjr.Ruleset) -> None:
    assert [w.tile for w in jipinghu.waits("123m 456p 789s 234s 5s robbing_kong from R")] == []
    assert [w.tile for w in jipinghu.waits("123m 456p 789s 46s 11s robbing_kong from R")] == ["5s"]
    assert [w.tile for w in jipinghu.waits("123m 456p 789s 234s 5s from R")] == ["2s", "5s"]


def test_a_wrong_tile_count_is_refused(jipinghu: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="14 tiles"):
        jipinghu.evaluate("123m 456p 789s 234s 555s 6s win 5s")


def test_a_wildcard_may_not_be_claimed_with(tuidaohu: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match=r"\[666m<L\] holds the wildcard 6m: .* in a pung \(wildcard may_not pung\)"):
        tuidaohu.evaluate("123m 456p 789s 5s [666m<L] win 5s indicator 5m")


def test_a_concealed_kong_of_wildcards_is_refused(tuidaohu: mjr.Ruleset) -> None:
    """T-1 §3.1 (003's note: 赖子 "不能用来开杠"): no 硬胡 from a concealed kong of 赖子."""
    with pytest.raises(HandError, match=r"\(6666m\) holds the wildcard 6m: .* in a concealed kong"):
        tuidaohu.evaluate("123m 456p 789s 5s (6666m) win 5s self_draw indicator 5m")
    assert tuidaohu.evaluate("123m 456p 789s 5s (7777m) win 5s self_draw indicator 5m").is_win


@pytest.mark.parametrize("how", ["from L", "robbing_kong from L"])
def test_no_win_on_a_discarded_wildcard(tuidaohu: mjr.Ruleset, how: str) -> None:
    """T-1 §3.1 "赖子牌不能打出"."""
    with pytest.raises(HandError, match="the winning tile 6m is a wildcard"):
        tuidaohu.evaluate(f"111m 999p 555s 777s 3m win 6m {how} indicator 5m")
    assert tuidaohu.evaluate("111m 999p 555s 777s 3m win 6m self_draw indicator 5m").is_win
    assert "6m" not in [w.tile for w in tuidaohu.waits("111m 999p 555s 777s 3m from L indicator 5m")]
    assert "6m" in [w.tile for w in tuidaohu.waits("111m 999p 555s 777s 3m self_draw indicator 5m")]


def test_evaluate_needs_the_winning_tile(jipinghu: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="win T"):
        jipinghu.evaluate("123m 456p 789s 234s 5s")


def test_waits_refuse_a_complete_hand(jipinghu: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="without its winning tile"):
        jipinghu.waits("123m 456p 789s 234s 5s win 5s")


def test_players_who_already_won_pay_nothing_more(sichuan: mjr.Ruleset) -> None:
    result = sichuan.evaluate("123m 456m 789m 234p 5p win 5p self_draw seat S")
    totals = sichuan.settle(result, Stakes(won=frozenset({"E"}))).totals()
    assert totals == {"E": 0, "S": 2, "W": -1, "N": -1}


def test_a_stake_multiplies_every_line(sichuan: mjr.Ruleset) -> None:
    result = sichuan.evaluate("123m 456m 789m 234p 5p win 5p self_draw")
    assert sichuan.settle(result, Stakes(stake=10)).totals()["E"] == 30


def test_settlement_is_zero_sum(jipinghu: mjr.Ruleset) -> None:
    for hand in ("123m 456p 789s 46s 11s win 5s robbing_kong from R",
                 "5s [123m<L] [456p<L] [789s<L] [777s<O] win 5s self_draw",
                 "123m 456m 789m EEE C win C from R"):
        assert sum(jipinghu.settle(jipinghu.evaluate(hand)).totals().values()) == 0


def test_settling_a_discard_needs_the_discarder(sichuan: mjr.Ruleset) -> None:
    result = sichuan.evaluate("123m 456m 789m 234p 5p win 5p")
    with pytest.raises(MjrError, match="from L"):
        sichuan.settle(result)


def test_a_non_win_cannot_be_settled(sichuan: mjr.Ruleset) -> None:
    with pytest.raises(MjrError, match="only a win"):
        sichuan.settle(sichuan.evaluate("123m 456p 789s 234m 5m win 5m"))


def test_a_win_method_the_region_lacks_is_no_win(tmp_path: Path) -> None:
    path = tmp_path / "self.only.mjr"
    path.write_text('ruleset self.only "Self-draw only" {\n  tiles suits(m p s)\n  win self_draw\n'
                    '  fan plain "Plain" 1 : standard\n}\n', encoding="utf-8")
    ruleset = mjr.load(path, backend="python")
    assert ruleset.evaluate("123m 456m 789m 234p 5p win 5p").reason == "self.only does not allow winning by discard"
    assert ruleset.evaluate("123m 456m 789m 234p 5p win 5p self_draw").is_win


def test_waits_of_nine_gates(jipinghu: mjr.Ruleset) -> None:
    assert [w.tile for w in jipinghu.waits("1112345678999m")] == [f"{r}m" for r in range(1, 10)]


def test_results_are_json_serialisable(tuidaohu: mjr.Ruleset) -> None:
    import json

    result = tuidaohu.evaluate("234m 567m 345p 67p 2s 1s win 2s self_draw indicator 9s")
    data = json.loads(json.dumps(result.to_json()))
    assert data["wildcards"] and data["substituted"] == 1


def test_batch_scoring_matches_single_calls(jipinghu: mjr.Ruleset) -> None:
    hands = ["123m 456m 789m 234p 5p win 5p", "111m 999p 555s 777s 3m win 3m", "19m19p19s1234567z win 1m",
             "123m 456p 789s 234s 5s win 6s"]
    parsed = [mjr.parse_hand(h) for h in hands]
    buffer = b"".join(bytes(h.concealed_counts()) for h in parsed)
    points, fan = jipinghu.evaluate_counts(buffer)
    expected = [jipinghu.evaluate(h) for h in parsed]
    assert list(points) == [r.points if r.is_win else -1 for r in expected]
    assert list(fan) == [r.fan if r.is_win else -1 for r in expected]


def test_every_bundled_ruleset_loads() -> None:
    assert set(mjr.bundled_ids()) >= {"guangdong.jipinghu", "guangdong.jipinghu.cap5", "guangdong.tuidaohu",
                                       "sichuan.xuezhan"}
    for ident in mjr.bundled_ids():
        assert mjr.load(ident).id == ident


def test_unknown_ruleset_suggests_a_bundled_one() -> None:
    with pytest.raises(MjrError, match="did you mean 'sichuan.xuezhan'"):
        mjr.load("sichuan.xuezan")


NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_nine_gates_is_the_nine_sided_wait_not_its_fourteen_tiles(backend: str) -> None:
    """§2.3 row 15: 1112345678999 of one suit waits on any tile of the suit.  Every
    fourteen tiles 1112345678999 + x are 九莲宝灯 won on x, and won on any other
    tile (from a hand that was not the nine-sided wait) are only 清一色."""
    rules = load_on("guangdong.jipinghu", backend)
    extras = range(9) if backend == "compiled" else (0, 4, 8)
    for extra in extras:
        counts = [n + (rank == extra) for rank, n in enumerate(NINE_GATES)]
        tiles = "".join(str(rank + 1) * n for rank, n in enumerate(counts))
        for win in range(9):
            rest = tiles.replace(str(win + 1), "", 1)
            result = rules.evaluate(f"{rest}p win {win + 1}p self_draw")
            assert result.fan_ids == (("nine_gates",) if win == extra else ("full_flush",)), (extra, win)


def test_a_white_ghost_with_108_tiles_is_refused() -> None:
    """T-2: 白板做鬼 needs 白板, which the 108-tile set leaves out."""
    with pytest.raises(MjrError, match="refuses ghost=white tiles=108: 白板做鬼 needs the honours"):
        mjr.load("guangdong.tuidaohu.t2", backend="python", ghost="white", tiles=108)


def test_the_108_tile_tuidaohu_has_no_honours() -> None:
    ruleset = mjr.load("guangdong.tuidaohu.t2", backend="python", tiles=108)
    with pytest.raises(HandError, match="not in guangdong.tuidaohu.t2's tile set"):
        ruleset.evaluate("123m 456m 789m EEE C win C self_draw")


def test_a_horse_on_the_winner_doubles_every_share() -> None:
    """§3.4 H1: a horse on the winner wins one more share from each loser."""
    ruleset = mjr.load("guangdong.tuidaohu", backend="python", horses=1, horse_mapping="h1")
    result = ruleset.evaluate("234m 567m 345p 678p 2s win 2s self_draw indicator 9s horse_tiles 5p")
    assert result.amounts == (("S", 16), ("W", 16), ("N", 16))


def test_sichuan_with_two_players_claims_nothing() -> None:
    """§5.10: two players discard face down, so no pung (nor kong) is claimed."""
    ruleset = mjr.load("sichuan.xuezhan", backend="python", players=2)
    with pytest.raises(HandError, match="claim"):
        ruleset.evaluate("123m 456m 789m 2m [555m<O] win 2m self_draw")


# -- taiwan (§9): the table options and the 13-tile variant -------------------------

FED_FLUSH = "[111m<O] [567m<L] [888m<R] [234m<L] 56m 99m win 7m self_draw dealer S"


@pytest.mark.parametrize(("liability", "payments"), [
    ("whole", {"E": 370, "S": 0, "W": 0, "N": -370}),
    ("half", {"E": 370, "S": -65, "W": -60, "N": -245}),
])
def test_taiwan_liability_moves_the_fed_flush_onto_its_feeder(liability: str, payments: dict[str, int]) -> None:
    ruleset = mjr.load("taiwan", liability=liability)
    assert ruleset.settle(ruleset.evaluate(FED_FLUSH)).totals() == payments


def test_taiwan_liability_takes_whole_or_half_only() -> None:
    with pytest.raises(MjrError, match="liability.*whole.*half"):
        mjr.load("taiwan", liability="quarter")


def test_taiwan_thirteen_refuses_a_sixteen_tile_hand_and_flowers() -> None:
    ruleset = mjr.load("taiwan.thirteen")
    with pytest.raises(HandError, match="14 tiles"):
        ruleset.evaluate("123m 456m 789m 11s 22p [567s<L] win 2p from O dealer S")
    with pytest.raises(MjrError, match="has none"):
        ruleset.evaluate("123m 456m 78m EE [567s<L] 1f win 9m from O dealer S")


@pytest.mark.parametrize("held", [0, 1, 4])
def test_taiwan_thirteen_counts_a_tai_for_each_bonus_tile(held: int) -> None:
    hand = f"123m 456m 78m EE [567s<L] win 9m from O dealer S bonus_tiles {held}"
    result = mjr.load("taiwan.thirteen").evaluate(hand)
    assert result.points == 30 + 10 * held


def test_taiwan_refuses_a_kong_on_the_left_players_discard_unless_the_table_allows_it() -> None:
    """§9.5 不得顺杠: ``claims ... kong(right opposite)``; the option shun_gang lifts it."""
    hand = "123m 456m 789m 11s 22p [5555s<L] win 2p from O dealer S"
    with pytest.raises(HandError, match="a kong is claimed only from the right or opposite player, not L"):
        mjr.load("taiwan").evaluate(hand)
    assert mjr.load("taiwan", shun_gang=True).evaluate(hand).is_win
    assert mjr.load("taiwan").evaluate("123m 456m 789m 11s 22p [5555s<L+] win 2p from O dealer S").is_win


@pytest.mark.parametrize(("fan", "points"), [(3, 8), (4, 16), (5, 24), (6, 32), (7, 48), (8, 64), (9, 96), (10, 128)])
def test_hongkong_pays_the_half_spicy_table(fan: int, points: int) -> None:
    """半辣上: from 4 faan on, each faan adds a half and a third in turn."""
    hands = {3: "111m 999p 555s 3m [777s<O] 2f win 3m from O",            # 對對糊
             4: "234m 567m 345p 678s 2s win 2s self_draw",                  # 平糊 門前清 自摸 無花
             5: "123m 456m 789m EEE 5m 2f win 5m from L round S",           # 混一色 門風 門前清
             6: "123p 345p 555p 1p [789p<L] 2f win 1p from O",              # 清一色 6
             7: "123p 345p 555p 1p [789p<L] 2f win 1p from O",              # 清一色 7
             8: "PPP FFF 123m 5s [CCC<L] 2f win 5s from O",                 # 大三元
             9: "EEE SSS N 123m [WWW<L] 2f win N from O",                   # 小四喜 混一色
             10: "19m19p19s1234567z 2f win 1m from O"}                      # 十三么
    ruleset = mjr.load("hongkong", full_flush_faan=6) if fan == 6 else mjr.load("hongkong")
    result = ruleset.evaluate(hands[fan])
    assert (result.fan, result.points) == (fan, points)


def test_hongkong_leaves_the_flowers_out_of_the_minimum_unless_the_table_counts_them() -> None:
    hand = "123m 456p PPP 5s [789p<L] 1f win 5s self_draw"              # 自摸 三元牌 + 正花
    assert "minimum of 3" in mjr.load("hongkong").evaluate(hand).reason
    assert mjr.load("hongkong", flowers_to_minimum=True).evaluate(hand).fan == 3


@pytest.mark.parametrize(("shooter", "payments"), [("half", {"E": 48, "S": -12, "W": -12, "N": -24}),
                                                   ("full", {"E": 48, "S": 0, "W": 0, "N": -48})])
def test_hongkong_discarder_pays_double_or_for_all(shooter: str, payments: dict[str, int]) -> None:
    """半銃: the discarder pays T, the others T / 2; 全銃: the discarder pays it all."""
    ruleset = mjr.load("hongkong", shooter=shooter)
    result = ruleset.evaluate("123m 456m 789m EEE 5m 2f win 5m from L round S")
    assert ruleset.settle(result).totals() == payments


def test_hongkong_twelve_tiles_out_makes_the_fourth_feeder_pay_a_self_draw() -> None:
    ruleset = mjr.load("hongkong")
    result = ruleset.evaluate("5m [123m<L] [456m<L] [789m<L] [EEE<O] 2f win 5m self_draw round S")
    assert ruleset.settle(result).totals() == {"E": 72, "S": 0, "W": -72, "N": 0}


def test_hongkong_limit_hands_score_the_limit_chosen() -> None:
    orphans = "19m19p19s1234567z 2f win 1m from O"
    assert mjr.load("hongkong").evaluate(orphans).fan == 10
    assert mjr.load("hongkong", limit_faan=13).evaluate(orphans).fan == 13
    assert mjr.load("hongkong", limit_faan=13, spicy="full").evaluate(orphans).points == 2 ** 13


def test_shanghai_keeps_the_baida_out_of_melds() -> None:
    """[bk] 百搭: a 百搭 may not be used to chow, pung or kong (翻百搭: the flipped kind)."""
    hand = "[444p<L] 123m 567p 789s 5s win 5s from O indicator 4p"
    with pytest.raises(HandError, match="may not be used in a pung"):
        mjr.load("shanghai").evaluate(hand)
    assert mjr.load("shanghai", baida="next").evaluate(hand).is_win  # 5p is the 百搭 then


def test_shanghai_counts_the_hua_of_each_kong() -> None:
    """花: 底花 2, a concealed wind kong 3, an exposed one 2, a concealed suit kong 2, an exposed one 1."""
    result = mjr.load("shanghai").evaluate("(EEEE) [SSSS<L] (1111m) [9999p<O] 5s win 5s self_draw indicator 4p")
    assert (result.value("hua"), result.points) == (10, 10 * 2 ** 3)


@pytest.mark.parametrize(("lezi", "each"), [(10, 20), (20, 24)])
def test_shanghai_caps_what_each_player_pays_at_the_lezi(lezi: int, each: int) -> None:
    """勒子: each payer pays at most lezi x 底花 (2); the points themselves are not capped."""
    ruleset = mjr.load("shanghai", lezi=lezi)
    result = ruleset.evaluate("234m 567m 345p 678s 2s 1f win 2s self_draw indicator 9p")
    assert result.points == 24
    assert ruleset.settle(result).totals() == {"E": 3 * each, "S": -each, "W": -each, "N": -each}


@pytest.mark.parametrize("backend", ["auto", "python"])
def test_waits_over_fifteen_tiles_of_one_suit(backend: str) -> None:
    """A 16-tile hand can hold 15 tiles of a suit: every wait is found (the kernel's
    tables once stopped at 14 tiles a suit and found only 1m)."""
    taiwan = mjr.load("taiwan", backend=backend)
    assert [wait.tile for wait in taiwan.waits("11m22233344456678s self_draw dealer")] == ["1m", "1s", "4s", "7s"]
