"""One-line assertions on the Hangzhou ruleset beyond its own examples: hands it
refuses, which an example cannot show (Rules §6)."""

from __future__ import annotations

import pytest

import mjr
from mjr import HandError


@pytest.fixture(scope="module")
def hangzhou() -> mjr.Ruleset:
    return mjr.load("hangzhou")


def test_a_caishen_may_not_be_ponged_with(hangzhou: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="wildcard may_not"):
        hangzhou.evaluate("123m 456m 789s 9p [555p<O] win 9p self_draw dealer indicator 4p")


def test_a_caishen_may_not_be_chowed_with(hangzhou: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="wildcard may_not"):
        hangzhou.evaluate("123m 456m 789s 9p [345p<L] win 9p self_draw dealer indicator 4p")


def test_only_the_left_player_feeds_a_chow(hangzhou: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="only from the left"):
        hangzhou.evaluate("123m 456m 789s 9p [234p<O] win 9p self_draw dealer indicator 4p")


def test_a_caishen_may_not_be_konged_even_concealed(hangzhou: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="concealed kong"):
        hangzhou.evaluate("123m 456m 789s 9p (5555p) win 9p self_draw dealer indicator 4p")
