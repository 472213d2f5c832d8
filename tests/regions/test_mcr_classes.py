"""The classes of difference between ``mcr`` and PyMahjongGB, one test each.

A million generated hands agree on the total fan; the fan lists differ on about
three hands in ten thousand, all of one class, and the library takes some input a
game can never produce, which mjr refuses.  Each class is pinned here with a hand
that shows it, so a change that widens or closes one is seen.
"""

from __future__ import annotations

import pytest
from mcr_compare import FROM_LIBRARY
from mcr_hands import library_available

import mjr
from mjr.plugins.pymahjonggb import to_args

pytestmark = pytest.mark.skipif(library_available() is not None, reason=str(library_available()))


@pytest.fixture(scope="module")
def mcr() -> mjr.Ruleset:
    return mjr.load("mcr")


def library(text: str) -> dict[str, int]:
    from MahjongGB import MahjongFanCalculator

    answer = MahjongFanCalculator(*to_args(text), verbose=True)
    return {FROM_LIBRARY.get(name, name): value * count for value, count, name, _ in answer}


def ours(ruleset: mjr.Ruleset, text: str) -> dict[str, int]:
    return {line.name: line.value for line in ruleset.evaluate(text).fans}


@pytest.mark.parametrize(("hand", "library_only", "mjr_only"), [
    # 1111223344456m read as 111 123 234 44 456 (library) or 11 123 123 ... : one
    # point either way, named 幺九刻 by the library and 一般高 here
    ("1111223344456m 56f win 4m self_draw", {"幺九刻": 1}, {"一般高": 1}),
    # 6678899m677889p + 7m: an edge wait in one reading, a closed wait in the other
    ("6678899m677889p 5f win 7m seat S round N", {"嵌张": 1}, {"边张": 1}),
])
def test_equal_readings_are_named_by_each_ones_search_order(mcr: mjr.Ruleset, hand: str,
                                                             library_only: dict[str, int],
                                                             mjr_only: dict[str, int]) -> None:
    """the MCR rules §M2.4, §6 row 13: of readings with the same total, the library names
    the first in its order of decompositions; mjr the first in its own search
    (after ``prefer``).  The totals agree; only the names differ."""
    theirs, mine = library(hand), ours(mcr, hand)
    assert sum(theirs.values()) == sum(mine.values())
    assert {k: v for k, v in theirs.items() if mine.get(k) != v} == library_only
    assert {k: v for k, v in mine.items() if theirs.get(k) != v} == mjr_only


@pytest.mark.parametrize(("hand", "message"), [
    # a robbed kong's tile has no other copy: the library clears the flag, mjr refuses
    ("111s 23s 456p 789m 44z win 1s robbing_kong", "a hand that robs a kong holds no other copy"),
    # a fifth copy: the library does not count copies (the MCR rules §M6 row 20)
    ("1111m 456p 789s 234s win 1m", "5 copies of 1m"),
])
def test_input_no_game_produces_is_refused(mcr: mjr.Ruleset, hand: str, message: str) -> None:
    """The library scores what it is given (the MCR rules §M1.4, §6 rows 15 and 20); mjr
    refuses a hand that cannot happen, saying why."""
    library(hand)  # scored without complaint
    with pytest.raises(mjr.MjrError, match=message):
        mcr.evaluate(hand)
