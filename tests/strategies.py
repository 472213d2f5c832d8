"""Hypothesis strategies for hands, shared by the notation and robustness tests."""

from __future__ import annotations

from hypothesis import strategies as st

from mjr.hand import CHOW, KONG, PUNG, WIN_METHODS, Context, Meld
from mjr.tiles import N_KINDS, rank_of

kinds = st.integers(0, N_KINDS - 1)
sources = st.sampled_from([None, "L", "O", "R"])
chow_starts = st.sampled_from([k for k in range(27) if rank_of(k) <= 7])

melds = st.one_of(
    st.builds(Meld, st.just(CHOW), chow_starts, st.just(False), sources, st.just(False)),
    st.builds(Meld, st.just(PUNG), kinds, st.just(False), sources, st.just(False)),
    st.builds(Meld, st.just(KONG), kinds, st.just(False), sources, st.booleans()),
    st.builds(Meld, st.just(KONG), kinds, st.just(True), st.none(), st.just(False)),
)


@st.composite
def _contexts(draw: st.DrawFn) -> Context:
    """Any context a Context accepts: a self-draw has no source and one winner, and
    a robbed kong is not after a kong."""
    win_by = draw(st.sampled_from(WIN_METHODS))
    return Context(
        win_by=win_by,
        after_kong=draw(st.booleans()) and win_by != "robbing_kong",
        last_tile=draw(st.booleans()),
        first_turn=draw(st.booleans()),
        dealer=draw(st.booleans()),
        seat=draw(st.integers(0, 3)),
        round=draw(st.integers(0, 3)),
        source=None if win_by == "self_draw" else draw(sources),
        indicator=draw(st.none() | kinds),
        winners=1 if win_by == "self_draw" else draw(st.integers(1, 3)),
        void=draw(st.none() | st.integers(0, 2)),
    )


contexts = _contexts()
