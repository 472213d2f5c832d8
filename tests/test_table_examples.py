"""The seeds' worked payment examples, played out at a table from arranged walls."""

from __future__ import annotations

import pytest
from table_script import arranged_wall, play_script

import mjr
from mjr.actions import Action
from mjr.table import Seating, Table


def test_changsha_sea_bottom_taker_pays_the_whole_lot() -> None:
    """§4.5 大包干: the 海底 taker cannot win with it and another player wins on it;
    the taker pays the winner's whole self-draw amount: 6 from each of three, and
    the 海底 itself is the bird (§4.4 "以海底为牌为鸟"): 7s lands on seat 2 (7 counts
    to the third seat from the dealer), whose share doubles: 6 + 12 + 6 = 24."""
    rules = mjr.load("changsha")
    winner, taker = 1, 3  # 56 tiles after the deal: the 56th draw is seat 3's
    # the 海底 (the last tile of the wall) is the fourth 7s; seat 0 holds two of them
    wall = arranged_wall(rules, {winner: "123m 456m 789p 234s 7s", 0: "77s 111m 999p 555m 33p"}, draws=[],
                         back=["7s"])
    table = Table(rules, wall=wall, seating=Seating(dealer=0))

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        if seat == winner and Action(seat, "win") in actions:
            return Action(seat, "win")
        return None

    play_script(table, policy)
    (win,) = table.wins
    assert (win.seat, win.method, win.source) == (winner, "discard", taker)
    assert [line.id for line in win.result.fans] == ["sea_bottom_discard"]
    assert win.result.hand.context.fact("birds") is None  # no tile left to draw: the 海底 is the bird
    assert [(p.payer, p.payee, p.amount, p.clause) for p in win.lines] == [(taker, winner, 24, "whole_lot")]
    assert table.net() == [0, 24, 0, -24]


H2_VARIANT = """
ruleset test.h2_units "H2 units" extends guangdong.tuidaohu {
    # every win worth one unit, as in the worked example's 10元20元 table
    score base * mult / mult
}
"""


@pytest.mark.parametrize(("horses", "each_pays"), [("1m 1p", 20), ("3m 1p", 40), ("3m W", 60)])
def test_guangdong_h2_horses_add_a_unit_per_hit(tmp_path, horses: str, each_pays: int) -> None:
    """§3.4 H2: A won the last hand, C (opposite) wins this one; C's horses, drawn
    after the win and counted from A, hit on 3, 7, 西 and 发: "中一只加上胡牌，每人给你
    40元，中2只加上胡牌每人给你60元" at a 20 a unit table."""
    path = tmp_path / "h2.mjr"
    path.write_text(H2_VARIANT, encoding="utf-8")
    rules = mjr.load(path, horses=2, horse_mapping="h2")
    winner = 2
    wall = arranged_wall(rules, {winner: "234m 567m 345p 678p 2s"}, draws=["9m", "9p", "2s", *horses.split()],
                         back=["9s"])
    table = Table(rules, wall=wall, seating=Seating(dealer=0, previous_winner=0), stake=20)

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        return Action(seat, "win") if Action(seat, "win") in actions else None

    play_script(table, policy)
    (win,) = table.wins
    assert (win.seat, win.method) == (winner, "self_draw")
    assert win.result.hand.context.fact("last_winner") == 2
    assert sorted(p.amount for p in win.lines) == [each_pays] * 3
    assert table.net()[winner] == 3 * each_pays


SICHUAN_OTHERS = {0: "258m 258s 369m 369s 4m", 2: "258m 258s 369m 369s 4s", 3: "258m 258s 369m 369s 7m"}


def _sichuan_rain(kong_maker_rest: str, first_draw: str) -> Table:
    """Seat 1 holds 1111m and konges it on its first turn (下雨); every other hand is
    dealt far from ready and in two suits, and nobody wins: the wall runs out."""
    rules = mjr.load("sichuan.xuezhan")
    hands = {**SICHUAN_OTHERS, 1: f"1111m {kong_maker_rest}"}
    wall = arranged_wall(rules, hands, draws=["1s", first_draw], back=["9s"])
    table = Table(rules, wall=wall, seating=Seating(dealer=0))

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        return Action(1, "kong", 0) if Action(1, "kong", 0) in actions else None

    return play_script(table, policy)


def _lines(table: Table, *clauses: str) -> list[tuple[int, int, int, str]]:
    return sorted((p.payer, p.payee, p.amount, p.clause) for p in table.payments if p.clause in clauses)


def test_sichuan_rain_is_kept_by_a_ready_maker() -> None:
    """§5.5 下雨: a concealed kong takes 2 from each other player at once; the maker
    is ready when the wall runs out, so keeps it, and §5.6 查大叫 has each player who
    is not ready pay him the most his waits (2p, 5p) could score."""
    table = _sichuan_rain("234p 567p 789p", "5p")
    assert table.outcome.drawn and not table.wins
    assert _lines(table, "xia_yu") == [(0, 1, 2, "xia_yu"), (2, 1, 2, "xia_yu"), (3, 1, 2, "xia_yu")]
    assert not [p for p in table.payments if p.name.endswith("refunded")]
    best = [p.amount for p in table.payments if p.clause == "cha_da_jiao"]
    assert len(best) == 3 and best[0] > 0
    assert table.net() == [-2 - best[0], 6 + 3 * best[0], -2 - best[0], -2 - best[0]]


def test_sichuan_rain_is_refunded_by_a_maker_not_ready() -> None:
    """§5.5: "如果流局时玩家还未叫牌，则须退回全部刮风下雨所得"."""
    table = _sichuan_rain("224p 567p 789p", "9m")
    assert table.outcome.drawn and table.outcome.ready[1] is False
    assert _lines(table, "xia_yu") == [(0, 1, 2, "xia_yu"), (1, 0, 2, "xia_yu"), (1, 2, 2, "xia_yu"),
                                       (1, 3, 2, "xia_yu"), (2, 1, 2, "xia_yu"), (3, 1, 2, "xia_yu")]
    assert table.net() == [0, 0, 0, 0]


def test_sichuan_a_three_suit_hand_pays_the_flower_pig() -> None:
    """§5.6 查花猪: a player still holding three suits when the wall runs out pays 16
    to each player who does not (to each: §11 row 25)."""
    rules = mjr.load("sichuan.xuezhan")
    hands = {**SICHUAN_OTHERS, 1: "1m 5m 9m 1p 5p 9p 1s 5s 7s 2p 4p 6p 8p"}
    table = play_script(Table(rules, wall=arranged_wall(rules, hands, draws=[]), seating=Seating(dealer=0)))
    assert _lines(table, "cha_hua_zhu") == [(1, 0, 16, "cha_hua_zhu"), (1, 2, 16, "cha_hua_zhu"),
                                            (1, 3, 16, "cha_hua_zhu")]


@pytest.mark.parametrize(("streak", "next_dealer", "next_streak"), [(0, 2, 1), (2, 2, 3), (3, 3, 0)])
def test_wenzhou_a_dealer_keeps_a_drawn_hand_four_hands_at_most(streak: int, next_dealer: int,
                                                                 next_streak: int) -> None:
    """§7.7: a draw without a kong keeps the dealer, "庄家连庄4把之后由庄家下家继续坐庄"."""
    rules = mjr.load("wenzhou")
    table = play_script(Table(rules, seed=5, seating=Seating(dealer=2, streak=streak)))
    assert table.outcome.drawn and not any(m.kind == "kong" for p in table.players for m in p.melds)
    assert (table.outcome.next_seating.dealer, table.outcome.next_seating.streak) == (next_dealer, next_streak)
