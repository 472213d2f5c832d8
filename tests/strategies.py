"""Hypothesis strategies for hands, shared by the notation and robustness tests."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from fuzz.inputs import valid_contexts
from mjr.abi import SOURCES
from mjr.hand.model import CHOW, KONG, PUNG, Context, Hand, Meld
from mjr.tiles.kinds import N_KINDS, rank_of

kinds = st.integers(0, N_KINDS - 1)
sources = st.sampled_from([None, *SOURCES])
chow_starts = st.sampled_from([k for k in range(27) if rank_of(k) <= 7])

melds = st.one_of(
    st.builds(Meld, st.just(CHOW), chow_starts, st.just(False), sources, st.just(False)),
    st.builds(Meld, st.just(PUNG), kinds, st.just(False), sources, st.just(False)),
    st.builds(Meld, st.just(KONG), kinds, st.just(False), sources, st.booleans()),
    st.builds(Meld, st.just(KONG), kinds, st.just(True), st.none(), st.just(False)),
)


contexts = valid_contexts()


def _hand(tiles: tuple[int, ...], melds: tuple[Meld, ...], win_tile: int | None, context: Context,
          aside: tuple[int, ...] = ()) -> Hand:
    """A Hand, without ``first_turn`` where a meld is exposed (the two contradict)."""
    if any(not meld.concealed for meld in melds):
        context = replace(context, first_turn=False)
    return Hand(tiles, melds, win_tile, context, aside=aside)


#: tiles set aside (mjr.tiles.aside): any kinds, at most four of each
asides = st.lists(kinds, max_size=8).map(lambda ks: tuple(sorted(k for i, k in enumerate(ks) if ks[:i].count(k) < 4)))


def hands_in(context_strategy: st.SearchStrategy[Context]) -> st.SearchStrategy[Hand]:
    """Hands the notation can write (any tiles, melds and winning tile, at least one
    of them), with contexts drawn from ``context_strategy``."""
    return st.builds(
        _hand,
        tiles=st.lists(kinds, max_size=14).map(lambda ts: tuple(sorted(ts))),
        melds=st.lists(melds, max_size=4).map(tuple),
        win_tile=st.none() | kinds,
        context=context_strategy,
        aside=asides,
    ).filter(lambda h: bool(h.tiles or h.melds or h.win_tile is not None))
