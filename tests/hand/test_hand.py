"""Hands built directly are valid by construction: every bad field of a Hand, Meld or
Context is refused when it is built, with an error naming the field and the value,
so nothing downstream (the kernels, the writer, ``Result.to_json``) meets it."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import pytest

import mjr
from mjr.errors import HandFieldError
from mjr.hand.model import RULED_OUT, Context, Hand, Meld

TILES = (0, 1, 2, 12, 13, 14, 24, 25, 26, 22)


def refused(build: Callable[[], object]) -> HandFieldError:
    with pytest.raises(HandFieldError) as info:
        build()
    return info.value


@pytest.mark.parametrize(
    ("build", "field", "message"),
    [
        # melds
        (lambda: Meld("chow", 8), "tile", "bad Meld.tile 8: no chow starts at 9m: a chow starts at rank 1-7 of a suit"),
        (lambda: Meld("chow", 27), "tile", "no chow starts at 1z"),
        (lambda: Meld("x", 3), "kind", "bad Meld.kind 'x': expected 'chow', 'pung' or 'kong'"),
        (lambda: Meld("pung", 99), "tile", "bad Meld.tile 99: tile kinds are ints 0-33"),
        (lambda: Meld("pung", -1), "tile", "bad Meld.tile -1"),
        (lambda: Meld("pung", True), "tile", "bad Meld.tile True: tile kinds are ints 0-33 (see mjr.tiles), not bool"),
        (lambda: Meld("pung", 3.0), "tile", "bad Meld.tile 3.0: tile kinds are ints 0-33 (see mjr.tiles), not float"),  # type: ignore[arg-type]
        (lambda: Meld("pung", "5m"), "tile", "bad Meld.tile '5m'"),  # type: ignore[arg-type]
        (lambda: Meld("pung", 3, source="Q"), "source",
         "bad Meld.source 'Q': expected 'L', 'O', 'R', a step on '2'-'6' (at a table of five or more) or None"),
        (lambda: Meld("pung", 3, concealed=True), "concealed", "only a kong can be concealed, not a pung"),
        (lambda: Meld("kong", 3, concealed=True, source="L"), "source", "a concealed kong has no source"),
        (lambda: Meld("kong", 3, concealed=True, added=True), "added", "only an exposed kong can be added"),
        (lambda: Meld("pung", 3, added=True), "added", "only an exposed kong can be added"),
        (lambda: Meld("kong", 3, concealed=1), "concealed", "bad Meld.concealed 1: expected True or False, not int"),
        # contexts
        (lambda: Context(seat=99), "seat", "bad Context.seat 99: seats are 0-7 (E S W N 5 6 7 8: the winds, then "
                                           "seats with no wind)"),
        (lambda: Context(seat=True), "seat", "bad Context.seat True: seats are 0-7 (E S W N 5 6 7 8: the winds, "
                                             "then seats with no wind), not bool"),
        (lambda: Context(round=-1), "round", "bad Context.round -1"),
        (lambda: Context(winners=0), "winners", "bad Context.winners 0: expected 1-7"),
        (lambda: Context(source="Q"), "source", "bad Context.source 'Q'"),
        (lambda: Context(win_by="tsumo"), "win_by", "bad Context.win_by 'tsumo'"),
        (lambda: Context(indicator=34), "indicator", "bad Context.indicator 34"),
        (lambda: Context(void=3), "void", "bad Context.void 3: void suits are 0-2 (m p s), or None"),
        (lambda: Context(dealer="yes"), "dealer", "bad Context.dealer 'yes': expected True or False, not str"),
        (lambda: Context(winners=2.0), "winners", "bad Context.winners 2.0: expected 1-7, not float"),
        (lambda: Context(indicator=True), "indicator", "bad Context.indicator True"),
        (lambda: Context(last_tile=None), "last_tile", "bad Context.last_tile None"),
        (lambda: Context(win_by="self_draw", source="L"), "source",
         "bad Context.source 'L': a self-draw has no discarder (win_by is 'self_draw')"),
        (lambda: Context(win_by="self_draw", winners=3), "winners", "only one player wins a self-draw"),
        (lambda: Context(win_by="robbing_kong", after_kong=True), "after_kong",
         "the tile of a robbed kong is not drawn after a kong"),
        # hands
        (lambda: Hand((0, 99)), "tiles[1]", "bad Hand.tiles[1] 99: tile kinds are ints 0-33"),
        (lambda: Hand((0, False)), "tiles[1]", "bad Hand.tiles[1] False"),
        (lambda: Hand([0, 1]), "tiles", "bad Hand.tiles a list of 2 items: expected a tuple of tile kinds"),
        (lambda: Hand((0,), [Meld("pung", 3)]), "melds", "expected a tuple of Meld"),
        (lambda: Hand((0,), (("pung", 3),)), "melds[0]", "expected a Meld"),
        (lambda: Hand((0,), win_tile=35), "win_tile",
         "bad Hand.win_tile 35: tile kinds are ints 0-33 (see mjr.tiles), or None; mjr.tiles.JOKER (34) for a joker"),
        (lambda: Hand((0,), win_tile="5m"), "win_tile", "or None, not str"),
        (lambda: Hand((0,), context={}), "context", "expected a Context"),
    ],
)
def test_bad_field_is_refused(build: Callable[[], object], field: str, message: str) -> None:
    error = refused(build)
    assert error.field == field
    assert message in str(error)
    assert isinstance(error, mjr.MjrError) and isinstance(error, ValueError)


def test_valid_values_are_accepted() -> None:
    assert Meld("chow", 6).tiles == (6, 7, 8)
    assert Meld("kong", 33, concealed=True).tiles == (33,) * 4
    assert Meld("kong", 3, source="L", added=True).added
    assert Context(win_by="self_draw", winners=1, after_kong=True).self_draw
    assert Context(win_by="robbing_kong", source="R", winners=2).winners == 2
    assert Context(win_by="discard", after_kong=True, source="L", winners=3).after_kong
    assert Hand(TILES, (Meld("pung", 4),), 22, Context(seat=3, round=3, indicator=33, void=2)).size == 14


def test_every_ruled_out_combination_is_refused() -> None:
    """The constructor's quick test must not let through what RULED_OUT names."""
    other = {"source": "L", "winners": 2, "after_kong": True}
    for method, entries in RULED_OUT.items():
        for name, _ in entries:
            assert refused(lambda: Context(win_by=method, **{name: other[name]})).field == name  # noqa: B023
        assert Context(win_by=method) == Context(method)
    assert Context(source="L", winners=3, after_kong=True).winners == 3


def test_first_turn_refuses_an_exposed_meld() -> None:
    """first_turn is before any claim (地和/人和 are void after a chow or pung)."""
    for meld in (Meld("pung", 13, source="L"), Meld("chow", 0), Meld("kong", 3, added=True)):
        error = refused(lambda: Hand(TILES[:10], (meld,), 22, Context(first_turn=True)))  # noqa: B023
        assert (error.owner, error.field, error.value) == ("Hand", "melds[0]", meld)
        assert "before any claim" in error.reason
    assert Hand(TILES[:10], (Meld("kong", 3, concealed=True),), 22, Context(first_turn=True)).context.first_turn


def test_the_issue_chow_is_refused_before_it_can_win() -> None:
    """A chow at 9m 1p 2p built directly used to win as all_chows and then break
    Result.to_json; now it cannot be built."""
    error = refused(lambda: Hand((0, 1, 2, 3, 4, 5, 6, 7, 8, 22), (Meld("chow", 8),), 22))
    assert (error.owner, error.field, error.value) == ("Meld", "tile", 8)


def test_errors_quote_little_of_a_huge_value() -> None:
    assert len(str(refused(lambda: Context(seat=10**100000)))) < 120
    assert len(str(refused(lambda: Meld("x" * 10**6, 3)))) < 120
    assert len(str(refused(lambda: Hand((0,), context=[[0] * 10**6])))) < 120
    assert "\x1b" not in str(refused(lambda: Meld("\x1b[31m", 3)))


def test_error_pickles() -> None:
    error = refused(lambda: Context(seat=9))
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.owner, copy.field, copy.value, copy.reason, str(copy)) == (
        error.owner, error.field, error.value, error.reason, str(error))


def test_replace_and_with_win_are_checked() -> None:
    from dataclasses import replace

    hand = Hand(TILES[:9] + (22,), (Meld("pung", 4),))
    assert refused(lambda: hand.with_win(35)).field == "win_tile"
    assert refused(lambda: replace(hand.context, win_by="self_draw", source="O")).field == "source"


@pytest.fixture(scope="module")
def jipinghu() -> mjr.Ruleset:
    return mjr.load("guangdong.jipinghu")


def test_indicator_is_refused_without_a_wildcard(jipinghu: mjr.Ruleset) -> None:
    with pytest.raises(mjr.HandError) as info:
        jipinghu.evaluate("234m 567m 345p 678s 2s win 2s indicator 5m")
    assert str(info.value) == "guangdong.jipinghu has no wildcard from an indicator: drop 'indicator 5m'"
    with pytest.raises(mjr.HandError, match="no wildcard from an indicator"):
        jipinghu.waits("234m 567m 345p 678s 2s indicator 5m")


def test_indicator_is_accepted_with_a_wildcard() -> None:
    tuidaohu = mjr.load("guangdong.tuidaohu")
    assert tuidaohu.evaluate("234m 567m 345p 67p 2s 1s win 2s self_draw indicator 9s").is_win


def test_concealed_counts_past_a_byte_say_how_many():
    """Counts go to the kernel as bytes: 256 copies of a kind (no table deals them)
    raise ValueError naming the count, with the winning tile counted."""
    assert Hand((0,) * 254, win_tile=0).concealed_counts()[0] == 255
    with pytest.raises(ValueError, match="256 concealed copies of a kind"):
        Hand((0,) * 255, win_tile=0).concealed_counts()
    with pytest.raises(ValueError, match="300 concealed copies"):
        Hand((3,) * 300).concealed_counts()
