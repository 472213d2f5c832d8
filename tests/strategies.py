"""Hypothesis strategies for hands, shared by the notation and robustness tests."""

from __future__ import annotations

from hypothesis import strategies as st

from fuzz.inputs import valid_contexts
from mjr.hand import CHOW, KONG, PUNG, Meld
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


contexts = valid_contexts()
