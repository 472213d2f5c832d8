"""``fact ... from unseen``: a table marks a win on a tile none of whose other
copies is in sight (生牌), on both backends, from arranged walls."""

from __future__ import annotations

import pytest
from conftest import load_on
from table_script import arranged_wall, play_script

import mjr
from mjr.table.actions import Action
from mjr.table.referee import Seating, Table

BACKENDS = ["compiled", "python"]

RULES = """ruleset t.fresh "Fresh tiles" {
    tiles suits(m p s) winds dragons
    claims pung kong
    fact fresh "生牌" flag from unseen
    fan plain "Plain" 1 : standard
    fan fresh_win "Fresh" 1 : fresh
    pay discarded "D" when discard : discarder pays points
    pay self_drawn "S" when self_draw : each opponent pays points
}
"""

#: seat 1 waits on 5p
WAITING = "123m 456m 789m 123p 5p"


@pytest.fixture(params=BACKENDS)
def rules(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> mjr.Ruleset:
    path = tmp_path_factory.mktemp("fresh") / "t.fresh.mjr"
    path.write_text(RULES, encoding="utf-8")
    return load_on(path, request.param, unoptimised=True)


def _win_on_5p(rules: mjr.Ruleset, draws: list[str], after_discards_of: int | None) -> Table:
    """Seat 1 wins on a discarded 5p: the first it is offered, or the one after seat
    ``after_discards_of`` has discarded."""
    table = Table(rules, wall=arranged_wall(rules, {1: WAITING}, draws=draws, seed=2), seating=Seating(dealer=0))

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        ready = after_discards_of is None or table.players[after_discards_of].discards
        return Action(1, "win") if Action(1, "win") in actions and ready else None

    return play_script(table, policy)


def test_a_win_on_a_tile_never_seen_is_fresh(rules: mjr.Ruleset) -> None:
    table = _win_on_5p(rules, ["5p"], None)  # the dealer's first draw, discarded at once
    (win,) = table.wins
    assert (win.seat, win.method, win.source) == (1, "discard", 0)
    assert win.result.hand.context.fact("fresh") is True
    assert "fresh_win" in win.result.fan_ids


def test_a_win_on_a_tile_discarded_before_is_not(rules: mjr.Ruleset) -> None:
    table = _win_on_5p(rules, ["5p", "N", "N", "5p"], 3)  # seat 1 lets the first 5p pass
    (win,) = table.wins
    assert (win.seat, win.method, win.source) == (1, "discard", 3)
    assert win.result.hand.context.fact("fresh") is None
    assert "fresh_win" not in win.result.fan_ids
