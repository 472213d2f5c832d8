"""The seeds' worked payment examples, played out at a table from arranged walls."""

from __future__ import annotations

from table_script import arranged_wall, play_script

import mjr
from mjr.actions import Action
from mjr.table import Seating, Table
from mjr.wall import parse_wall_tile as rules_kind


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
    assert win.result.hand.context.fact("birds") == (rules_kind("7s"),)
    assert [(p.payer, p.payee, p.amount, p.clause) for p in win.lines] == [(taker, winner, 24, "whole_lot")]
    assert table.net() == [0, 24, 0, -24]
