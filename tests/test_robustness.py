"""Whatever hand a user passes, a ruleset answers with a Result or a clear MjrError:
never a traceback from deeper down."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import contexts, kinds, melds

import mjr
from mjr.hand import Hand


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """Hands of the right size more often than not (so they reach the kernel), any
    size sometimes (so they reach the checks)."""
    declared = draw(st.lists(melds, max_size=4))
    size = 13 - 3 * len(declared) if draw(st.booleans()) else draw(st.integers(1, 15))
    tiles = draw(st.lists(kinds, min_size=size, max_size=size))
    win = draw(st.none() | kinds) if draw(st.booleans()) else draw(kinds)
    return Hand(tuple(sorted(tiles)), tuple(declared), win, draw(contexts))


@pytest.fixture(scope="module", params=["guangdong.jipinghu", "guangdong.tuidaohu", "sichuan.xuezhan"])
def ruleset(request: pytest.FixtureRequest) -> mjr.Ruleset:
    return mjr.load(request.param)


@settings(max_examples=300)
@given(hand=hands())
def test_evaluate_answers_or_explains(ruleset: mjr.Ruleset, hand: Hand) -> None:
    try:
        result = ruleset.evaluate(hand) if hand.win_tile is not None else None
        waits = ruleset.waits(hand) if hand.win_tile is None else None
    except mjr.MjrError as error:
        assert str(error)
        return
    if result is not None:
        assert result.is_win or result.reason
        if result.is_win:
            try:
                assert sum(ruleset.settle(result).totals().values()) == 0
            except mjr.MjrError as error:
                assert str(error)
    if waits is not None:
        assert all(wait.result.is_win for wait in waits)
