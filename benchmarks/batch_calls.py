"""Batches: ``evaluate_batch`` on record arrays, ``evaluate_counts``, their fixed cost per
call, wildcard scaling, core scaling and the memory floor.

The hands are distinct (no hand twice in a pass) and packed before timing into a
NumPy array of the ruleset's ``record_dtype()``, read in place by the batch call.
"""

from __future__ import annotations

import random

import hands as H
import numpy as np
from timing import Suite

import mjr

#: The Tuidaohu region of the wildcard rows, and the most wildcards a hand holds there.
WILD_REGION = "guangdong.tuidaohu"
MAX_WILD = 4


def record_array(rs: mjr.Ruleset, hands: list[H.BenchHand], indicators: list[int] | None = None) -> np.ndarray:
    """The hands as records: concealed, self-drawn, seat and round East, the
    indicator of each hand where given.  Filled field by field from the counts, and
    checked against the ruleset's own encoding of the first hands."""
    out = np.zeros(len(hands), dtype=rs.record_dtype())
    out["counts"] = np.frombuffer(H.pack_counts(hands), dtype=np.uint8).reshape(len(hands), 34)
    out["win"] = [h.win for h in hands]
    out["dealer"] = out["void"] = out["indicator"] = 255
    out["winners"] = 1
    if indicators is not None:
        out["indicator"] = indicators
    for i, hand in enumerate(hands[:50]):
        indicator = None if indicators is None else indicators[i]
        expected = rs.records.record(mjr.parse_hand(H.to_mjr(hand, "self_draw", indicator)))
        assert out[i].tobytes() == expected, f"record {i} differs from the ruleset's encoding"
    return out


def expect_status(rs: mjr.Ruleset, records: np.ndarray, wins: bool, what: str) -> None:
    """Every hand of ``records`` wins (or, with ``wins`` false, none does), and none is refused."""
    scores = rs.evaluate_batch(records, workers=1)
    counts = scores.counts()
    assert scores.first_refused < 0, f"{what}: hand {scores.first_refused} refused: {counts}"
    if wins:
        assert list(counts) == ["win"], f"{what}: not every hand wins: {counts}"
    else:
        assert "win" not in counts, f"{what}: {counts['win']} hands win"


def add_regular(suite: Suite, rs: mjr.Ruleset, winning: list[H.BenchHand], non_winning: list[H.BenchHand],
                check: bool) -> None:
    """Batch per hand on one core and on two, ``evaluate_counts``, the fixed cost of
    a call on one hand, and the NumPy pass over the same bytes."""
    records = record_array(rs, winning)
    others = record_array(rs, non_winning)
    counts = H.pack_counts(winning)
    context = mjr.parse_hand("win 1m self_draw")
    batch, evaluate_counts = rs.evaluate_batch, rs.evaluate_counts
    if check:
        expect_status(rs, records, True, "regular winning hands")
        expect_status(rs, others, False, "non-winning hands")
        assert min(evaluate_counts(counts, context)[0]) >= 0, "evaluate_counts: a regular hand does not win"
        assert list(batch(records, workers=2).points) == list(batch(records, workers=1).points)
    n = len(winning)
    suite.add("batch_1", lambda: batch(records, workers=1), n)
    suite.add("batch_2", lambda: batch(records, workers=2), n)
    suite.add("batch_non_winning", lambda: batch(others, workers=1), len(non_winning))
    suite.add("counts", lambda: evaluate_counts(counts, context), n)

    size = rs.records.size
    one_records = [records[i:i + 1].tobytes() for i in range(n)]
    one_counts = [counts[34 * i:34 * i + 34] for i in range(n)]

    def batch_of_one(items: list[bytes] = one_records) -> None:
        for record in items:
            batch(record, workers=1)

    def counts_of_one(items: list[bytes] = one_counts) -> None:
        for hand in items:
            evaluate_counts(hand, context)

    suite.add("batch_call", batch_of_one, n)
    suite.add("counts_call", counts_of_one, n)

    words = records.view(np.uint8).view(np.uint64)  # the record bytes, 8 at a time
    assert words.nbytes == n * size
    suite.add("floor", lambda: words.sum(), n, note=f"{n * size / 1e6:.1f} MB, {size} bytes a record")


def wildcard_hands(rs: mjr.Ruleset, rng: random.Random, n: int, wild: int) -> tuple[list[H.BenchHand], list[int]]:
    """``n`` distinct standard winning hands with ``wild`` wildcards each, each with
    its own indicator drawn at random (the wildcard is the tile after it)."""
    kinds = tuple(sorted(rs.kinds))
    out: list[H.BenchHand] = []
    indicators: list[int] = []
    seen: set[H.BenchHand] = set()
    while len(out) < n:
        indicator = rng.choice(kinds)
        hand = H.wildcard_winning(rng, kinds, indicator, wild)
        if hand not in seen:
            seen.add(hand)
            out.append(hand)
            indicators.append(indicator)
    return out, indicators


def add_wildcards(suite: Suite, rs: mjr.Ruleset, rng: random.Random, n: int, check: bool) -> None:
    """Tuidaohu batches (one core) of hands with 0, 1, ... 4 wildcards."""
    probe = mjr.parse_hand("win 1m self_draw indicator 9s")
    assert [k for k in range(34) if rs.wildcard_kinds(probe)[k]] == [H.wildcard_of(26)], \
        "hands.wildcard_of disagrees with the ruleset"
    batch = rs.evaluate_batch
    for wild in range(MAX_WILD + 1):
        hands, indicators = wildcard_hands(rs, rng, n, wild)
        records = record_array(rs, hands, indicators)
        if check:
            expect_status(rs, records, True, f"{wild} wildcards")
        suite.add(f"wild_{wild}", lambda records=records: batch(records, workers=1), n)
