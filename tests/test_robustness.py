"""Whatever hand a user passes, a ruleset answers with a Result or a clear MjrError:
never a traceback from deeper down."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjr
from mjr.hand import CHOW, KONG, PUNG, SOURCES, WIN_METHODS, Context, Hand, Meld
from mjr.tiles import N_KINDS

kinds = st.integers(0, N_KINDS - 1)


@st.composite
def melds(draw: st.DrawFn) -> Meld:
    kind = draw(st.sampled_from((CHOW, PUNG, KONG)))
    if kind == CHOW:
        tile = draw(st.sampled_from([s * 9 + r for s in range(3) for r in range(7)]))
        return Meld(CHOW, tile, source=draw(st.sampled_from((None, *SOURCES))))
    concealed = kind == KONG and draw(st.booleans())
    source = None if concealed else draw(st.sampled_from((None, *SOURCES)))
    return Meld(kind, draw(kinds), concealed, source, kind == KONG and not concealed and draw(st.booleans()))


contexts = st.builds(
    Context,
    win_by=st.sampled_from(WIN_METHODS),
    after_kong=st.booleans(),
    last_tile=st.booleans(),
    first_turn=st.booleans(),
    dealer=st.booleans(),
    seat=st.integers(0, 3),
    round=st.integers(0, 3),
    source=st.sampled_from((None, *SOURCES)),
    indicator=st.none() | kinds,
    winners=st.integers(1, 3),
    void=st.none() | st.integers(0, 2),
)


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """Hands of the right size more often than not (so they reach the kernel), any
    size sometimes (so they reach the checks)."""
    declared = draw(st.lists(melds(), max_size=4))
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
