"""The table's short cuts are exact: where it tells from a player's counts that no
win is there (:func:`mjr.table.hands.may_win`), scoring the hand finds none either;
where it tells that no tile completes a hand one tile short
(:meth:`mjr.Ruleset.shape_may_wait`), the hand has no waits nor near misses; and
the actions it offers come in :class:`Action` order, as sorting them would put
them.  Checked at every step of random hands under every bundled ruleset, and under
rulesets of dedicated jokers beside a flipped wildcard."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_rulesets

import mjr
from mjr.table import GreedyBot, Table, unplayable
from mjr.table.hands import may_win, score, seat_hand
from mjr.table.state import Phase

HANDS = 6
MOST = 30

#: dedicated jokers beside a flipped wildcard, a knitted straight and a shape of the file's own
JOKERS = """\
ruleset t.jokers "Jokers and a flip" {
    tiles suits(m p s) winds dragons jokers 4
    wildcard indicator + 1
    indicator_flip back
    claims chow pung kong
    win self_draw discard
    shapes standard(knitted) seven_pairs thirteen_orphans
    shape four_kinds "Four of a kind" : any kinds are (copies == 4)
    score 2 ^ fan
    fan plain "Plain" 1 : standard
    pay self_drawn "Self" when self_draw : each opponent pays points
    pay discarded "Discard" when discard : discarder pays points
}
"""


def _check_state(table: Table) -> None:
    """At this step: no win the short cut rules out, and the actions in order."""
    state = table.state
    if state.phase is Phase.DISCARD:
        assert all(actions == sorted(actions) for actions in table.legal().values())
    asks: list[tuple[int, int, str]] = []
    if state.phase is Phase.DISCARD and state.turn_tile.drawn is not None:
        asks.append((state.turn, state.turn_tile.drawn, "self_draw"))
    if state.phase.offered and state.offer is not None:
        method = "robbing_kong" if state.phase is Phase.ROB else "discard"
        asks += [(seat, state.offer.tile, method) for seat in range(state.seats)
                 if seat != state.offer.seat and not state.players[seat].out]
    if state.phase is Phase.DRAW:  # every hand one tile short: none that may wait is passed over
        for seat, player in enumerate(state.players):
            if player.out or state.ruleset.shape_may_wait(bytearray(player.counts), player.jokers, len(player.melds),
                                                          state.indicator):
                continue
            hand = seat_hand(state, seat, None, "self_draw")
            assert not state.ruleset.waits(hand) and not state.ruleset.near_misses(hand), mjr.format_hand(hand)
    for seat, tile, method in asks:
        if not may_win(state, seat, tile, method):
            result = score(state, seat, tile, method)
            assert not result.is_win, (state.ruleset.id, seat, tile, method, mjr.format_hand(result.hand))


def _play_checked(ruleset: mjr.Ruleset) -> int:
    """Play greedy hands (which come near wins, where the short cuts matter) checking
    every step, ``HANDS`` of them and on to the first win (at most ``MOST``); the wins
    they made."""
    wins = 0
    for seed in range(MOST):
        if seed >= HANDS and wins:
            break
        table, bots = Table(ruleset, seed=seed), [GreedyBot(seed + seat) for seat in range(ruleset.seats)]
        while not table.over:
            _check_state(table)
            seat, actions = min(table.legal().items())
            table.act(bots[seat](table, seat, actions))
        wins += len(table.wins)
    return wins


@pytest.mark.parametrize("ident", [ident for ident in mjr.bundled_ids() if not unplayable(mjr.load(ident))])
def test_the_short_cuts_are_exact_under_every_bundled_ruleset(ident: str) -> None:
    assert _play_checked(mjr.load(ident)) > 0


@pytest.fixture(scope="module")
def jokers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_rulesets(tmp_path_factory.mktemp("fast_paths"), {"jokers": JOKERS})["jokers"]


def test_the_short_cuts_are_exact_with_jokers_wildcards_and_a_shape_of_its_own(jokers: Path) -> None:
    assert _play_checked(mjr.load(jokers)) > 0
