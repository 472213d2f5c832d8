"""Dedicated jokers in declared melds stay in sight: they count in the meld's
``wilds`` and ``substitutes`` and in the hand's ``wildcards`` and ``substituted``
(a pung with a joker in it is no jokerless hand), on both backends and in a held
amount too."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

BACKENDS = ["compiled", "python"]

RULES = """ruleset t.melded_jokers "Jokers melded" {
    tiles suits(m p s) winds dragons jokers 8
    claims pung kong
    shapes standard
    fan jokerless "No joker" 2 : wildcards == 0
    fan subs "Substitutes" 1 each : substituted
    fan meld_wilds "Melded jokers" 1 each : sum(melds of wilds)
    fan meld_subs "Melded substitutes" 1 each : sum(melds of substitutes)
    pay discarded "D" when discard : discarder pays points
    at_end jokers "Jokers" : each player pays each player where won (wildcards) of payee
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("hand", "fans", "substituted"), [
    # a joker in an exposed pung: no jokerless hand
    ("123m 456p 789s 1p [5J5m<L] win 1p from O", {"subs": 1, "meld_wilds": 1, "meld_subs": 1}, 1),
    # a kong of one tile and three jokers: all three count
    ("123m 456p 789s 1p [5JJJm<L] win 1p from O", {"subs": 3, "meld_wilds": 3, "meld_subs": 3}, 3),
    ("123m 456p 789s 1p [555m<L] win 1p from O", {"jokerless": 2}, 0),
    # a concealed joker (pairing the 1p) and a melded one
    ("123m 456p 78s J 1p [5J5m<L] win 9s from O", {"subs": 2, "meld_wilds": 1, "meld_subs": 1}, 2),
])
def test_a_melded_joker_counts_as_a_joker(tmp_path: Path, backend: str, hand: str, fans: dict[str, int],
                                          substituted: int) -> None:
    path = tmp_path / "melded_jokers.mjr"
    path.write_text(RULES, encoding="utf-8")
    rules = load_on(path, backend, unoptimised=True)
    result = rules.evaluate(hand)
    assert {line.id: line.value for line in result.fans} == fans
    assert result.substituted == substituted
    assert rules.held_amounts(hand) == (hand.count("J"),)
