"""The ``mcr`` ruleset against PyMahjongGB, hand by hand (issue: MCR checked against the library).

N generated legal hands (10,000; ``MJR_MCR_HANDS`` sets another number) are
scored by ``mjr.load("mcr")`` as one batch and compared with the library's
answers recorded when they were generated: the fan total (the library's includes
花牌) must agree on at least 99.9% of them.  The summary of the differences,
grouped by class, is printed (``pytest -s``) and shown when the test fails.
``python benchmarks/mcr_differential.py --hands 1000000`` runs the same
comparison on a million hands.
"""

from __future__ import annotations

import pytest
from hand_counts import DEFAULT_HANDS, hands_wanted
from mcr_compare import HANDS_VARIABLE, compare
from mcr_hands import generate, library_available

import mjr

#: Agreement on the total fan the ruleset must reach.
REQUIRED = 0.999


@pytest.mark.skipif(library_available() is not None, reason=str(library_available()))
def test_mcr_agrees_with_pymahjonggb() -> None:
    ruleset = mjr.load("mcr")
    report = compare(ruleset, generate(hands_wanted(HANDS_VARIABLE)))
    print(report.summary())
    assert report.total_agreement >= REQUIRED, report.summary()
    # the fan lists too: they differ only where two readings of equal total are
    # named by each side's own order (tests/regions/test_mcr_classes.py)
    assert report.fans_agreement >= REQUIRED, report.summary()


@pytest.mark.parametrize(("value", "expected"), [("250", 250), ("1_000_000", 1_000_000), (None, DEFAULT_HANDS)])
def test_the_number_of_hands(value: str | None, expected: int) -> None:
    assert hands_wanted(HANDS_VARIABLE, {} if value is None else {HANDS_VARIABLE: value}) == expected


@pytest.mark.parametrize("value", ["", "0", "-5", "ten", "1e6", "2.5", " "])
def test_a_bad_number_of_hands_is_named(value: str) -> None:
    with pytest.raises(mjr.MjrError, match=rf"environment variable MJR_MCR_HANDS={value!r}: expected a whole number"):
        hands_wanted(HANDS_VARIABLE, {HANDS_VARIABLE: value})
