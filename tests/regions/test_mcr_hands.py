"""The MCR hand generator: legal hands of every shape and context, every fan covered.

The hands are what the differential test (test_mcr_differential.py) compares, so
these tests check that they are worth comparing: each is a hand a table can deal
and a win PyMahjongGB scores at 8 fan or more, and 10,000 of them show every fan.
"""

from __future__ import annotations

from collections import Counter

import pytest
from mcr_compare import FAN_NAMES, library_fans
from mcr_hands import MINIMUM, generate, library_available

import mjr
from mjr.hand.model import impossibility
from mjr.plugins.pymahjonggb import to_args

pytestmark = pytest.mark.skipif(library_available() is not None, reason=str(library_available()))

N = 10_000


@pytest.fixture(scope="module")
def hands():  # type: ignore[no-untyped-def]
    return generate(N)


def test_every_fan_appears_in_ten_thousand_hands(hands) -> None:  # type: ignore[no-untyped-def]
    seen = Counter(name for hand in hands for name in library_fans(hand))
    assert set(FAN_NAMES) - seen.keys() == set()
    assert seen.keys() <= set(FAN_NAMES)
    assert len(FAN_NAMES) == 82 and len(set(FAN_NAMES)) == 82


def test_the_same_seed_gives_the_same_hands() -> None:
    first = [hand.text for hand in generate(300, seed=7)]
    generate.cache_clear()
    assert [hand.text for hand in generate(300, seed=7)] == first
    assert [hand.text for hand in generate(300, seed=8)] != first


def test_every_hand_is_legal_and_a_win_of_eight(hands) -> None:  # type: ignore[no-untyped-def]
    for hand in hands:
        assert impossibility(hand.hand) is None, hand.text
        assert mjr.parse_hand(hand.text) == hand.hand
        assert to_args(hand.text) == hand.args
        without_flowers = hand.total - library_fans(hand).get("花牌", 0)
        assert without_flowers >= MINIMUM, hand.text
        assert library_fans(hand).get("花牌", 0) == len(hand.hand.flowers)
        context = hand.hand.context
        if context.after_kong:
            assert context.self_draw and any(meld.kind == "kong" for meld in hand.hand.melds), hand.text
        if context.win_by == "robbing_kong":
            assert hand.hand.all_counts()[hand.hand.win_tile] == 1 and not context.last_tile, hand.text
        if context.fact("last_copy"):
            assert hand.hand.tiles.count(hand.hand.win_tile) == 0, hand.text


def test_every_shape_and_context_is_drawn(hands) -> None:  # type: ignore[no-untyped-def]
    themes = Counter(hand.theme for hand in hands)
    assert {"seven_pairs", "shifted_pairs", "orphans", "honors_knitted", "knitted", "nine_gates"} <= themes.keys()
    contexts = [hand.hand.context for hand in hands]
    assert {c.win_by for c in contexts} == {"self_draw", "discard", "robbing_kong"}
    assert {c.seat for c in contexts} == {c.round for c in contexts} == {0, 1, 2, 3}
    assert any(c.after_kong for c in contexts) and any(c.last_tile for c in contexts)
    assert any(c.fact("last_copy") for c in contexts)
    assert {len(hand.hand.flowers) for hand in hands} == set(range(9))
    assert {len(hand.hand.melds) for hand in hands} == set(range(5))
    kongs = Counter((m.concealed, m.added) for hand in hands for m in hand.hand.melds if m.kind == "kong")
    assert kongs.keys() == {(True, False), (False, False), (False, True)}
    knitted_with_meld = [h for h in hands if h.theme == "knitted" and h.hand.melds]
    assert knitted_with_meld and all(len(h.hand.melds) == 1 for h in knitted_with_meld)
    # seven pairs with four of a kind
    assert any(h.theme == "seven_pairs" and 4 in h.hand.concealed_counts() for h in hands)
