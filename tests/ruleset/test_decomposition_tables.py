"""Hands without wildcards take their standard decompositions from the shared
kernel's tables when compiled, and from the search when interpreted: the two must
find the same readings in the same order, so the same best one (its groups, their
order and its fans) wins.  The hands here are sets piled into one or two suits,
which split in many ways."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjr
from mjr.hand import Context, Hand

#: A ruleset, its sets, and the words its hands need besides the tiles.
RULESETS = [
    ("guangdong.jipinghu", 4, ""),
    ("mcr", 4, ""),
    ("japan.riichi", 4, "dealer dora_indicators E"),
    ("taiwan", 5, "dealer"),
]


@st.composite
def piled_hands(draw: st.DrawFn, sets: int) -> tuple[tuple[int, ...], int]:
    """Concealed tiles and a winning tile: ``sets`` chows and pungs of low ranks in
    one or two suits, and a pair, no kind more than four times."""
    suits = draw(st.lists(st.integers(0, 2), min_size=1, max_size=2, unique=True))
    counts = [0] * 34
    for _ in range(sets):
        base = 9 * draw(st.sampled_from(suits))
        if draw(st.booleans()):
            rank = draw(st.integers(0, 5))
            for step in range(3):
                counts[base + rank + step] += 1
        else:
            counts[base + draw(st.integers(0, 6))] += 3
    counts[9 * draw(st.sampled_from(suits)) + draw(st.integers(0, 8))] += 2
    if max(counts) > 4:
        return draw(piled_hands(sets))
    tiles = [kind for kind in range(34) for _ in range(counts[kind])]
    win = tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    return tuple(tiles), win


@pytest.mark.parametrize(("ident", "sets", "words"), RULESETS)
def test_the_tables_find_the_searchs_best_reading(ident: str, sets: int, words: str) -> None:
    compiled, interpreted = mjr.load(ident), mjr.load(ident, backend="python")

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(piled_hands(sets), st.sampled_from(["self_draw", "discard"]))
    def check(hand: tuple[tuple[int, ...], int], method: str) -> None:
        tiles, win = hand
        context = Context(win_by=method, source="L" if method == "discard" else None)
        text = f"{mjr.format_hand(Hand(tiles, win_tile=win, context=context))} {words}"
        expected = interpreted.evaluate(text)
        found = compiled.evaluate(text)
        assert found == expected
        if expected.is_win:
            assert (found.groups, found.fans) == (expected.groups, expected.fans)

    check()
