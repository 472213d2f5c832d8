"""Ruleset.shape_completes and Ruleset.shape_may_wait: the table kernel's look-ups
from counts agree with ``is_win`` and ``waits`` on the same hands, and arguments
that make no hand are refused with a HandError naming them."""

from __future__ import annotations

import random

import pytest
from conftest import complete_by_the_module, completed_by_a_tile

import mjr
from mjr.errors import HandError

WALL = [kind for kind in range(34) for _ in range(4)]


def _counts(tiles: list[int]) -> bytearray:
    counts = bytearray(34)
    for kind in tiles:
        counts[kind] += 1
    return counts


@pytest.mark.parametrize("ident", ["guangdong.jipinghu", "mcr", "sichuan.xuezhan", "simple", "changsha"])
def test_the_look_ups_agree_with_is_win_and_waits(ident: str) -> None:
    """On random hands of the ruleset's tiles: a True or False of shape_completes is
    the module's answer on the whole hand (and is_win's, which uses the look-up);
    shape_may_wait is never False for a hand some tile completes."""
    ruleset = mjr.load(ident)
    wall = [kind for kind in WALL if kind in ruleset.kinds]
    rng = random.Random(ident)
    for _ in range(300):
        tiles = sorted(rng.sample(wall, ruleset.deal + 1))
        hand = mjr.Hand(tuple(tiles[:-1]), win_tile=tiles[-1])
        complete = ruleset.shape_completes(_counts(tiles), 0, 0, None)
        if complete is not None:
            assert complete == complete_by_the_module(ruleset, hand) == ruleset.is_win(hand)
        short = mjr.Hand(tuple(tiles[:-1]))
        if not ruleset.shape_may_wait(_counts(tiles[:-1]), 0, 0, None):
            assert not completed_by_a_tile(ruleset, short)
            assert not ruleset.waits(short) and not ruleset.near_misses(short)


def test_a_complete_hand_and_a_ready_one() -> None:
    ruleset = mjr.load("guangdong.jipinghu")
    hand = mjr.parse_hand("123m 456m 789m 123p 5p win 5p")
    counts = bytes(hand.concealed_counts())
    assert ruleset.shape_completes(counts, 0, 0, None) is True
    assert ruleset.shape_completes(list(counts), 0, 0, None) is True
    ready = bytearray(counts)
    ready[13] -= 1  # 5p: one tile short, waiting on it
    assert ruleset.shape_may_wait(ready, 0, 0, None)
    assert counts == bytes(hand.concealed_counts())  # the caller's counts left as they were


def _bad_arguments() -> list[tuple[tuple[object, ...], str]]:
    two = bytearray(34)
    two[0] = 2
    full = bytearray(34)
    for kind in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 13):
        full[kind] += 1
    five = bytearray(full)
    five[13], five[0] = 5, 0
    return [
        ((two, 0, 0, None), "make 2 tiles; here a hand has 14"),
        ((full, 0, 4, None), "make 26 tiles"),
        ((full, 3, 0, None), "has 0 dedicated jokers"),
        ((34, 0, 0, None), "not int"),
        ((None, 0, 0, None), "not NoneType"),
        ((full[:33], 0, 0, None), "not 33 numbers"),
        ((five, 0, 0, None), "up to 5"),
        (([300] + [0] * 33, 0, 0, None), "34 whole numbers 0-4"),
        (([1.5] * 34, 0, 0, None), "34 whole numbers 0-4"),
        ((full, -1, 0, None), "jokers must be a whole number 0 or more, not -1"),
        ((full, 1.7, 0, None), "jokers must be a whole number 0 or more, not 1.7"),
        ((full, "1", 0, None), "jokers must be"),
        ((full, True, 0, None), "jokers must be"),
        ((full, 0, -3, None), "melds must be a whole number 0 or more, not -3"),
        ((full, 0, None, None), "melds must be"),
        ((full, 0, 0, 1), "where it has a wildcard from an indicator, not 1"),
        ((full, 0, 0, "5m"), "not '5m'"),
    ]


@pytest.mark.parametrize(("arguments", "words"), _bad_arguments())
def test_arguments_that_make_no_hand_are_refused(arguments: tuple[object, ...], words: str) -> None:
    ruleset = mjr.load("guangdong.jipinghu")
    with pytest.raises(HandError, match=words.replace("(", r"\(")):
        ruleset.shape_completes(*arguments)  # type: ignore[arg-type]


def test_an_indicator_must_be_a_kind_of_a_ruleset_with_one() -> None:
    ruleset = mjr.load("guangdong.tuidaohu.t2", ghost="flip")
    counts = bytearray(34)
    counts[0] = 2
    hand = bytearray(mjr.parse_hand("123m 456m 789m 123p 5p win 5p").concealed_counts())
    assert ruleset.shape_completes(hand, 0, 0, 0) is not None
    for indicator in (34, -1, 40):
        with pytest.raises(HandError, match=f"not {indicator}"):
            ruleset.shape_completes(hand, 0, 0, indicator)
    with pytest.raises(HandError, match="make 2 tiles"):
        ruleset.shape_may_wait(counts, 0, 0, None)
