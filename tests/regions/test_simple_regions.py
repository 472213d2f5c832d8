"""One-line assertions on the simplest game and the city files over it (Rules
§10), and on the Jipinghu variants J-C and J-D (§2.5, §2.6), beyond their own
examples: the refused hands an example cannot hold, and how the files share."""

from __future__ import annotations

import pytest

import mjr
from mjr import HandError


@pytest.mark.parametrize("ident", ["simple", "tianjin", "jinan", "wuhan"])
def test_the_simplest_game_and_its_cities_refuse_a_chow(ident: str) -> None:
    """§10 "许碰不许吃"; the cities state nothing else and take it."""
    with pytest.raises(HandError, match="does not allow claiming a chow"):
        mjr.load(ident).evaluate("123m 456p 789s 5s [234s<L] win 5s self_draw")


def test_northeast_chows_from_the_left_only() -> None:
    northeast = mjr.load("northeast")
    assert northeast.evaluate("[789m<L] 456p 567s 234s 5p win 5p self_draw").is_win
    with pytest.raises(HandError, match="only from the left"):
        northeast.evaluate("[789m<O] 456p 567s 234s 5p win 5p self_draw")


@pytest.mark.parametrize("ident", ["jinan", "wuhan"])
def test_the_two_258_cities_share_a_base_and_not_each_other(ident: str) -> None:
    files = [name.rsplit("/", 1)[-1] for name in mjr.load(ident).generated.files]
    assert files == ["simple.mjr", "simple.two_five_eight.mjr", f"{ident}.mjr"]


@pytest.mark.parametrize(("ident", "fan"), [("guangdong.jipinghu", 6), ("guangdong.jipinghu.guigang", 8)])
def test_nine_gates_is_one_shape_at_two_values(ident: str, fan: int) -> None:
    result = mjr.load(ident).evaluate("1112345678999p win 9p from L")
    assert (result.fan_ids, result.fan) == (("nine_gates",), fan)


def test_jd_has_no_nine_gates_and_no_concealed_hand_extra() -> None:
    result = mjr.load("guangdong.jipinghu.d").evaluate("1112345678999m win 5m self_draw")
    assert (result.fan_ids, result.fan) == (("full_flush", "self_drawn"), 5)
