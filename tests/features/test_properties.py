"""Properties that tie the kernels together.

* Evaluating a hand with wildcards gives the best result over every way of
  replacing the wildcards with real tiles (brute-force substitution).
* ``waits`` lists exactly the tiles with which ``evaluate`` says the hand wins.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from conftest import load_on
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import mjr
from mjr.errors import HandError
from mjr.hand.model import Context, Hand
from mjr.tiles.kinds import N_KINDS, tile_name

HERE = Path(__file__).parents[1]  # tests/
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def wild() -> mjr.Ruleset:
    return load_on(HERE / "rulesets" / "test.wildcards.mjr", "auto", unoptimised=True)  # what it scores, not how fast


@st.composite
def complete_hands(draw: st.DrawFn) -> list[int]:
    """Counts of a complete 14-tile hand (sets and a pair, or seven pairs)."""
    counts = [0] * N_KINDS
    if draw(st.booleans()):
        for _ in range(4):
            if draw(st.booleans()):
                start = draw(st.sampled_from([s * 9 + r for s in range(3) for r in range(7)]))
                for kind in (start, start + 1, start + 2):
                    counts[kind] += 1
            else:
                counts[draw(st.integers(0, N_KINDS - 1))] += 3
        counts[draw(st.integers(0, N_KINDS - 1))] += 2
    else:
        for kind in draw(st.lists(st.integers(0, N_KINDS - 1), min_size=7, max_size=7, unique=True)):
            counts[kind] += 2
    return counts


def _hand(counts: list[int], win: int, **context: object) -> Hand:
    tiles = [kind for kind in range(N_KINDS) for _ in range(counts[kind])]
    tiles.remove(win)
    return Hand(tuple(sorted(tiles)), (), win, Context(**context))  # type: ignore[arg-type]


@st.composite
def wildcard_hands(draw: st.DrawFn) -> tuple[list[int], int, int]:
    """A complete hand with up to three wildcards (sometimes one tile moved), the
    indicator that makes that kind wild, and the winning tile."""
    counts = draw(complete_hands())
    # at most one natural copy of the wildcard kind: at most three wildcards, which
    # keeps the brute force (every kind for every wildcard) small
    wildcard = draw(st.sampled_from([kind for kind in range(N_KINDS) if counts[kind] <= 1]))
    swaps = draw(st.integers(0, 3 - counts[wildcard]))
    held = [kind for kind in range(N_KINDS) for _ in range(counts[kind]) if kind != wildcard]
    for kind in draw(st.permutations(held))[:swaps]:
        counts[kind] -= 1
        counts[wildcard] += 1
    if draw(st.booleans()):  # move one real tile elsewhere: often no longer a win
        held = [kind for kind in range(N_KINDS) if counts[kind] and kind != wildcard]
        counts[draw(st.sampled_from(held))] -= 1
        counts[draw(st.sampled_from([k for k in range(N_KINDS) if k != wildcard]))] += 1
    predecessor = {  # the indicator whose successor is the wildcard
        **{s * 9 + (r + 1) % 9: s * 9 + r for s in range(3) for r in range(9)},
        28: 27, 29: 28, 30: 29, 27: 30, 32: 31, 33: 32, 31: 33,
    }
    win = draw(st.sampled_from([kind for kind in range(N_KINDS) if counts[kind]]))
    return counts, predecessor[wildcard], win


@SETTINGS
@given(wildcard_hands())
def test_wildcards_equal_brute_force_substitution(wild: mjr.Ruleset, case: tuple[list[int], int, int]) -> None:
    counts, indicator, win = case
    hand = _hand(counts, win, indicator=indicator, win_by="self_draw")
    wildcard = wild.wildcard_kinds(hand).index(1)
    jokers = counts[wildcard]
    try:
        with_wildcards = wild.evaluate(hand)
    except HandError:  # a fifth copy, the indicator counted: no table deals it
        assume(False)
        return
    best = None
    real = counts.copy()
    real[wildcard] = 0
    stood = {tile_name(kind): 0 for kind in range(N_KINDS)} | dict(with_wildcards.wildcards)
    # A wildcard may stand for a fifth copy of a kind; a plain hand cannot hold one,
    # so such a win has no plain hand to compare with.
    assume(all(real[kind] + stood[tile_name(kind)] <= 4 for kind in range(N_KINDS)))
    for kinds in itertools.combinations_with_replacement(sorted(wild.kinds), jokers):
        substituted = real.copy()
        for kind in kinds:
            substituted[kind] += 1
        if max(substituted) > 4:  # no plain hand holds a fifth copy
            continue
        plain = _hand(substituted, kinds[0] if kinds else win, win_by="self_draw")
        result = wild.evaluate(plain)
        if result.is_win and (best is None or result.points > best.points):
            best = result
    event(f"{jokers} wildcards, {'a win' if best is not None else 'no win'}")
    assert with_wildcards.is_win == (best is not None)
    if best is not None:
        assert with_wildcards.points == best.points


@SETTINGS
@given(complete_hands(), st.data())
def test_waits_agree_with_evaluate(wild: mjr.Ruleset, counts: list[int], data: st.DataObject) -> None:
    drop = data.draw(st.sampled_from([kind for kind in range(N_KINDS) if counts[kind]]))
    counts[drop] -= 1
    tiles = tuple(kind for kind in range(N_KINDS) for _ in range(counts[kind]))
    hand13 = Hand(tiles, (), None, Context(indicator=data.draw(st.integers(0, N_KINDS - 1))))
    if mjr.hand.impossibility(hand13) is not None:
        return
    waits = {wait.tile: wait.result.points for wait in wild.waits(hand13)}
    expected = {}
    for kind in sorted(wild.kinds):
        candidate = hand13.with_win(kind)
        if mjr.hand.impossibility(candidate) is None:
            result = wild.evaluate(candidate)
            if result.is_win:
                expected[mjr.tiles.tile_name(kind)] = result.points
    assert waits == expected
