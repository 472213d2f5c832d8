"""Settlement is zero-sum for every bundled ruleset, whoever deals, discards or has
already won, whatever facts of play the hand gives and whatever the stake: the
winner gains exactly what the others lose, per-payer amounts and liability
included."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjr
from mjr import HandError, MjrError
from mjr.notation.parse import parse_hand
from mjr.ruleset.loader import bundled_ids
from mjr.tiles.kinds import WIND_LETTERS

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _winning_examples(rules: mjr.Ruleset) -> list[mjr.Hand]:
    hands = []
    for example in rules.generated.examples:
        try:
            hand = parse_hand(example.hand, rules.facts.kinds)
            if rules.evaluate(hand).is_win:
                hands.append(hand)
        except MjrError:
            continue
    return hands


@st.composite
def fact_values(draw: st.DrawFn, rules: mjr.Ruleset) -> tuple[tuple[str, object], ...]:
    """Values within each declared fact's range (tiles from the ruleset's set)."""
    facts: list[tuple[str, object]] = []
    for fact in rules.facts.by_id.values():
        if fact.kind == "flag":
            if draw(st.booleans()):
                facts.append((fact.id, True))
        elif fact.kind == "number":
            facts.append((fact.id, draw(st.integers(fact.low, fact.high))))
        else:
            size = draw(st.integers(fact.low, fact.high))
            if size:
                tiles = draw(st.lists(st.sampled_from(sorted(rules.kinds)), min_size=size, max_size=size))
                facts.append((fact.id, tuple(tiles)))
    return tuple(facts)


@pytest.mark.parametrize("ident", bundled_ids())
def test_every_settlement_sums_to_zero(ident: str) -> None:
    rules = mjr.load(ident)
    hands = _winning_examples(rules)
    assert hands, f"{ident} has no winning example to vary"

    @SETTINGS
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        hand = data.draw(st.sampled_from(hands))
        context = hand.context
        seat = data.draw(st.integers(0, 3))
        dealer_seat = data.draw(st.one_of(st.none(), st.integers(0, 3)))
        source = context.source
        if context.win_by != "self_draw":
            source = data.draw(st.sampled_from(["L", "O", "R"]))
        try:
            varied = dataclasses.replace(
                context, seat=seat, source=source, dealer=dealer_seat is None and data.draw(st.booleans()),
                dealer_seat=dealer_seat, facts=data.draw(fact_values(rules)))
            result = rules.evaluate(dataclasses.replace(hand, context=varied))
        except HandError:  # a variation the rules refuse (a fifth tile among the birds, ...)
            return
        if not result.is_win or result.payment is None:
            return
        winner = WIND_LETTERS[seat]
        # players who already won are out of the hand: none of them discarded this tile
        discarder = WIND_LETTERS[(seat + "ROL".index(source) + 1) % 4] if source else None
        others = [w for w in WIND_LETTERS if w not in (winner, discarder)]
        won = frozenset(data.draw(st.lists(st.sampled_from(others), max_size=2, unique=True)))
        table = mjr.Stakes(stake=data.draw(st.integers(1, 5)), won=won)
        try:
            settlement = rules.settle(result, table)
        except MjrError:  # a payer the hand cannot name (the feeder of a meld with no source)
            return
        totals = settlement.totals()
        assert sum(totals.values()) == 0
        assert all(line.payee == winner and line.payer != winner for line in settlement.lines)
        if result.liable is None:
            assert all(line.payer not in won for line in settlement.lines)

    check()

