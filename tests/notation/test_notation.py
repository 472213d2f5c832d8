"""Tests for mjr.notation: hand text and JSON, both ways, and the errors for bad input.

Bad-input cases live in ``notation_cases/*.txt``: the hand string on the first line,
the exact rendered error below it, so a reviewer sees the caret as a user would.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import contexts, hands_in

from mjr.errors import MjrError, NotationError
from mjr.hand.model import CHOW, KONG, PUNG, Context, Hand, Meld, impossibility
from mjr.notation.json import hand_from_json, hand_to_json
from mjr.notation.parse import _parse_hand_full, format_hand, parse_hand

CASES = Path(__file__).parents[1] / "notation_cases"

# --------------------------------------------------------------------------- strategies

hands = hands_in(contexts)


def error_of(text: str) -> NotationError:
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    return info.value


def json_error_of(data: Any) -> NotationError:
    with pytest.raises(NotationError) as info:
        hand_from_json(data)
    return info.value


# --------------------------------------------------------------------------- round trips

CANONICAL = [
    "2234m567p11z",
    "123m456p789s1122z win 3z",
    "11z [345p<L] [555s<O] (1111z) [5555m<R+] win 1z",
    "55m [5555p+] [777z] [123s] win 5m self_draw after_kong",
    "19m19p19s1234567z win 1m robbing_kong last_tile first_turn dealer"
    " seat N round S from R indicator 7z winners 3 void p",
    "1m [111z] [222z] [333z] [444z]",
    "[1111m] [2222m] [3333m] [4444m] win 5m",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_round_trips(text: str) -> None:
    assert format_hand(parse_hand(text)) == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("EE 432m", "234m11z"),
        ("PFC 7z6z5z", "556677z"),
        ("123mEE [543p<L]", "123m11z [345p<L]"),
        ("11z [EEE<O] (NNNN)", "11z [111z<O] (4444z)"),
        ("  1m\t2m   3m  win E  ", "123m win 1z"),
        ("11z discard winners 1", "11z"),
        ("11z void s winners 2 dealer robbing_kong", "11z robbing_kong dealer winners 2 void s"),
        ("11z seat E round E", "11z"),
        ("11z [555p<2] from 6 seat 8 winners 7 dealer 5", "11z [555p<2] seat 8 from 6 winners 7 dealer 5"),
    ],
)
def test_text_is_canonicalised(text: str, canonical: str) -> None:
    assert format_hand(parse_hand(text)) == canonical


def test_seats_past_the_winds_and_steps_on_by_number_are_read_everywhere() -> None:
    """``seat 5``-``8``, ``dealer 5``-``8`` and sources ``2``-``6`` (a table of five
    or more): the fast reader, the full parser and JSON agree, and a seat past 8, a
    step past 6 or a round past the winds is refused at its character."""
    text = "123m 456m [555p<3] 5s win 5s from 2 seat 6 dealer 7 winners 4"
    hand = parse_hand(text)
    assert (hand.context.seat, hand.context.dealer_seat, hand.context.source, hand.context.winners) == (5, 6, "2", 4)
    assert hand.melds[0].source == "3"
    assert _parse_hand_full(text) == hand == hand_from_json(hand_to_json(hand))
    assert hand_to_json(hand)["context"]["seat"] == "6" and hand_to_json(hand)["melds"][0]["from"] == "3"
    for bad, column in (("1m seat 9", 8), ("1m from 7", 8), ("1m round 5", 9), ("1m [555p<7]", 9),
                        ("1m winners 8", 11), ("1m dealer 9", 10)):  # (columns from 0)
        with pytest.raises(NotationError) as caught:
            parse_hand(bad)
        assert caught.value.column == column, (bad, str(caught.value))


@given(hands)
def test_text_round_trip(hand: Hand) -> None:
    assert parse_hand(format_hand(hand)) == hand


@given(hands)
def test_json_round_trip(hand: Hand) -> None:
    assert hand_from_json(hand_to_json(hand)) == hand
    assert hand_from_json(json.loads(json.dumps(hand_to_json(hand)))) == hand


def test_json_matches_schema() -> None:
    hand = parse_hand("23m [555p<O] win 2s robbing_kong round S from L indicator 5m void m")
    assert hand_to_json(hand) == {
        "tiles": ["2m", "3m"],
        "melds": [{"kind": "pung", "tile": "5p", "concealed": False, "from": "O", "added": False, "jokers": []}],
        "win": "2s",
        "flowers": [],
        "red": [],
        "jokers": 0,
        "context": {
            "win_by": "robbing_kong",
            "after_kong": False,
            "last_tile": False,
            "first_turn": False,
            "dealer": False,
            "seat": "E",
            "round": "S",
            "from": "L",
            "indicator": "5m",
            "winners": 1,
            "void": "m",
            "dealer_seat": None,
            "facts": {},
        },
        "aside": [],
    }


# --------------------------------------------------------------------------- accepted forms


def test_accepted_forms() -> None:
    assert parse_hand("EEE").tiles == (27, 27, 27)
    assert parse_hand("ESWNPFC").tiles == tuple(range(27, 34))
    assert parse_hand("123mEE").tiles == (0, 1, 2, 27, 27)
    assert parse_hand("123m456p") == parse_hand("123m 456p") == parse_hand("456p 123m")
    assert parse_hand("1234567z").tiles == tuple(range(27, 34))
    assert parse_hand("11z [543p]").melds == (Meld(CHOW, 11),)
    assert parse_hand("11z [435p<L]").melds == (Meld(CHOW, 11, source="L"),)
    assert parse_hand("11z [EEE]").melds == (Meld(PUNG, 27),)
    assert parse_hand("11z [555p<O]").melds == (Meld(PUNG, 13, source="O"),)
    assert parse_hand("11z [5555p]").melds == (Meld(KONG, 13),)
    assert parse_hand("11z [5555p<R]").melds == (Meld(KONG, 13, source="R"),)
    assert parse_hand("11z (5555p)").melds == (Meld(KONG, 13, concealed=True),)
    assert parse_hand("11z (CCCC)").melds == (Meld(KONG, 33, concealed=True),)
    assert parse_hand("11z [5555p<L+]").melds == (Meld(KONG, 13, source="L", added=True),)
    assert parse_hand("11z [5555p+]").melds == (Meld(KONG, 13, added=True),)
    assert parse_hand("[111m] [999s] 1z").melds == (Meld(PUNG, 0), Meld(PUNG, 26))
    assert parse_hand("11z win E").win_tile == 27
    assert parse_hand("11z win 7z").win_tile == 33
    assert parse_hand("11z win 5m").tiles == (27, 27)
    assert parse_hand("win 5m").win_tile == 4
    assert parse_hand("11z").win_tile is None


def test_context_words() -> None:
    assert parse_hand("11z").context == Context()
    assert parse_hand("11z discard").context == Context()
    assert parse_hand("11z self_draw").context.win_by == "self_draw"
    assert parse_hand("11z robbing_kong from R").context == Context(win_by="robbing_kong", source="R")
    assert parse_hand("11z after_kong last_tile").context == Context(after_kong=True, last_tile=True)
    assert parse_hand("11z first_turn dealer").context == Context(first_turn=True, dealer=True)
    assert parse_hand("11z seat W round N").context == Context(seat=2, round=3)
    assert parse_hand("11z indicator C").context.indicator == 33
    assert parse_hand("11z indicator 9s").context.indicator == 26
    assert parse_hand("11z winners 3").context.winners == 3
    assert parse_hand("11z void s").context.void == 2
    assert parse_hand("11z dealer win 5m seat S") == parse_hand("11z win 5m seat S dealer")
    assert parse_hand("11z self_draw after_kong winners 1").context == Context("self_draw", after_kong=True)
    assert parse_hand("11z robbing_kong from O winners 2").context == Context("robbing_kong", source="O", winners=2)
    assert parse_hand("11z first_turn from L").context == Context(first_turn=True, source="L")
    assert parse_hand("11z after_kong from R last_tile").context == Context(after_kong=True, last_tile=True, source="R")


def test_parse_does_not_judge_possibility() -> None:
    hand = parse_hand("55555m")
    assert hand.tiles == (4,) * 5
    assert impossibility(hand) is not None


def test_format_refuses_a_hand_with_no_tiles() -> None:
    """Every other Hand is valid by construction (tests/hand/test_hand.py), so it can be written."""
    with pytest.raises(ValueError, match="a hand with no tiles has no notation"):
        format_hand(Hand(()))
    with pytest.raises(ValueError, match="a hand with no tiles has no notation"):
        hand_to_json(Hand(()))


# --------------------------------------------------------------------------- errors


def case_files() -> list[Path]:
    return sorted(CASES.glob("*.txt"))


def test_there_are_enough_cases() -> None:
    assert len(case_files()) >= 15


@pytest.mark.parametrize("path", case_files(), ids=lambda p: p.stem)
def test_bad_hand_case(path: Path) -> None:
    text, _, expected = path.read_text(encoding="utf-8").partition("\n")
    err = error_of(text)
    assert str(err) == expected.removesuffix("\n")
    assert err.text == text


def test_error_fields_and_rendering() -> None:
    err = error_of("123m 45")
    assert isinstance(err, MjrError)
    assert (err.text, err.column) == ("123m 45", 7)
    assert err.reason in str(err)
    assert str(err).splitlines() == [
        f"bad hand at column 8: {err.reason}",
        "    123m 45",
        "           ^",
    ]
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.text, copy.column, copy.reason, str(copy)) == (err.text, err.column, err.reason, str(err))


def test_blank_text_points_past_the_end() -> None:
    assert error_of("   ").column == 3


def test_long_text_is_refused_before_reading() -> None:
    err = error_of("123m " * 2000)
    assert (err.column, err.reason) == (4096, "hand text longer than 4096 characters (10000)")
    assert len(str(err)) < 250
    assert parse_hand("1m" + " " * 4094).tiles == (0,)


def test_a_huge_hand_is_answered_at_once_and_briefly() -> None:
    huge = "1" * 10**7
    err = error_of(huge)
    assert err.text is huge and len(str(err)) < 250


def test_an_error_quotes_at_most_80_characters_around_the_caret() -> None:
    text = "123m " * 40 + "x " + "456p " * 40
    err = error_of(text)
    _, shown, caret = str(err).splitlines()
    assert shown == "    ..." + text[160:240] + "..."
    assert caret == " " * (4 + 3 + 40) + "^" and shown[caret.index("^")] == "x"


def test_an_error_shows_no_control_character() -> None:
    err = error_of("123m\t\x1b[2J")
    assert str(err).splitlines()[1:] == ["    123m ?[2J", "         ^"]
    assert err.reason.startswith("unknown word '?[2J'")
    assert error_of("123m4\x1b").reason.startswith("U+001B is not part of a tile")


def test_an_unknown_long_word_is_clipped() -> None:
    err = error_of("123m " + "y" * 500)
    assert err.reason.startswith("unknown word '" + "y" * 27 + "...'")
    assert len(str(err)) < 300


def test_text_that_is_not_a_string_is_a_notation_error() -> None:
    assert error_of(None).reason == "a hand is text (str), not NoneType"  # type: ignore[arg-type]
    assert error_of(b"123m").reason == "a hand is text (str), not bytes"  # type: ignore[arg-type]


@given(st.text(alphabet="0123456789mpszESWNPFCx[]()<>+LOR _win", max_size=30))
def test_only_notation_errors_escape(text: str) -> None:
    try:
        parse_hand(text)
    except NotationError as err:
        assert 0 <= err.column <= len(text)
        assert err.text == text


@given(hands, st.integers(0, 200), st.sampled_from(list("0589mpszEx[]()<+ ")))
def test_mangled_hands_fail_cleanly(hand: Hand, where: int, char: str) -> None:
    text = format_hand(hand)
    where %= len(text) + 1
    mangled = text[:where] + char + text[where:]
    try:
        parse_hand(mangled)
    except NotationError as err:
        assert 0 <= err.column <= len(mangled)


# --------------------------------------------------------------------------- JSON errors


def test_json_defaults() -> None:
    assert hand_from_json({"tiles": ["1z"]}) == parse_hand("1z")
    assert hand_from_json({"tiles": ["E", "3m", "1m"], "win": None}) == parse_hand("13m1z")
    meld = {"kind": "kong", "tile": "5p", "added": True}
    assert hand_from_json({"melds": [meld], "context": {}}) == parse_hand("[5555p+]")


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ([], "hand"),
        ({}, "hand"),
        ({"tiles": "123m"}, "tiles"),
        ({"tiles": ["1m", 5]}, "tiles[1]"),
        ({"tiles": ["1m", "0m"]}, "tiles[1]"),
        ({"tiles": ["1m"], "win": "8z"}, "win"),
        ({"tiles": ["1m"], "tyles": []}, "tyles"),
        ({"tiles": ["1m"], "melds": {}}, "melds"),
        (
            {"tiles": ["1m"], "melds": [{"kind": "pung", "tile": "5p"}, {"kind": "pung", "tile": "5x"}]},
            "melds[1].tile",
        ),
        ({"tiles": ["1m"], "melds": [{"tile": "5p"}]}, "melds[0].kind"),
        ({"tiles": ["1m"], "melds": [{"kind": "pong", "tile": "5p"}]}, "melds[0].kind"),
        ({"tiles": ["1m"], "melds": [{"kind": "chow", "tile": "8m"}]}, "melds[0].tile"),
        ({"tiles": ["1m"], "melds": [{"kind": "pung", "tile": "5p", "concealed": True}]}, "melds[0].concealed"),
        ({"tiles": ["1m"], "melds": [{"kind": "kong", "tile": "5p", "concealed": True, "from": "L"}]},
         "melds[0].from"),
        ({"tiles": ["1m"], "melds": [{"kind": "pung", "tile": "5p", "from": "X"}]}, "melds[0].from"),
        ({"tiles": ["1m"], "melds": [{"kind": "pung", "tile": "5p", "added": 1}]}, "melds[0].added"),
        ({"tiles": ["1m"], "context": []}, "context"),
        ({"tiles": ["1m"], "context": {"seat": "X"}}, "context.seat"),
        ({"tiles": ["1m"], "context": {"seat": 1}}, "context.seat"),
        ({"tiles": ["1m"], "context": {"winners": True}}, "context.winners"),
        ({"tiles": ["1m"], "context": {"winners": 2.0}}, "context.winners"),
        ({"tiles": ["1m"], "context": {"win_by": "tsumo"}}, "context.win_by"),
        ({"tiles": ["1m"], "context": {"void": "z"}}, "context.void"),
        ({"tiles": ["1m"], "context": {"indicator": 5}}, "context.indicator"),
        ({"tiles": ["1m"], "context": {"dealr": True}}, "context.dealr"),
        ({"tiles": ["1m"], "context": {"win_by": "self_draw", "from": "L"}}, "context.from"),
        ({"tiles": ["1m"], "context": {"win_by": "self_draw", "winners": 2}}, "context.winners"),
        ({"tiles": ["1m"], "context": {"win_by": "robbing_kong", "after_kong": True}}, "context.after_kong"),
        ({"tiles": ["1m"], "melds": [{"kind": "pung", "tile": "5p"}], "context": {"first_turn": True}},
         "context.first_turn"),
    ],
)
def test_bad_json(data: Any, path: str) -> None:
    err = json_error_of(data)
    assert (err.text, err.column) == (path, 0)


def test_json_contradiction_says_why() -> None:
    err = json_error_of({"tiles": ["1m"], "context": {"win_by": "self_draw", "from": "L"}})
    assert err.reason == "a self-draw has no discarder (win_by is 'self_draw')"


def test_first_turn_beside_a_concealed_kong_is_read() -> None:
    """Only a claim ends the first go-round: a concealed kong is no claim."""
    assert parse_hand("(5555p) 123m win 1m first_turn").context.first_turn
    assert hand_from_json({"melds": [{"kind": "kong", "tile": "5p", "concealed": True}],
                           "context": {"first_turn": True}}).context.first_turn


def nested(depth: int) -> Any:
    value: Any = "1m"
    for _ in range(depth):
        value = [value]
    return value


HOSTILE = [nested(100000), 10**100000, -(10**5000), "x" * 10**6, 1e308, float("nan"), {"a": nested(50000)},
           ["1m"] * 10**6, {"x" * 10**6: 1}, True, None, 2.0, "\x1b[2J"]
#: Where each hostile value goes, and which of them the field takes.
FIELDS = {
    "tiles": (), "tiles[0]": (), "melds": (), "melds[0]": (), "melds[0].kind": (), "melds[0].tile": (),
    "melds[0].concealed": (), "melds[0].from": (None,), "melds[0].added": (), "win": (None,), "context": (),
    **{f"context.{key}": () for key in ("win_by", "seat", "round", "winners")},
    **{f"context.{key}": (True,) for key in ("after_kong", "last_tile", "first_turn", "dealer")},
    **{f"context.{key}": (None,) for key in ("from", "indicator", "void")},
}


def with_value_at(path: str, value: Any) -> dict[str, Any]:
    """A valid hand with ``value`` put at ``path``."""
    meld: dict[str, Any] = {"kind": "pung", "tile": "5p"}
    hand: dict[str, Any] = {"tiles": ["1m"], "melds": [meld], "context": {}}
    head, _, key = path.partition(".")
    if not key:
        if head.endswith("[0]"):
            hand[head[:-3]] = [value]
        else:
            hand[head] = value
    elif head == "melds[0]":
        meld[key] = value
    else:
        hand["context"][key] = value
    return hand


@pytest.mark.parametrize("path", FIELDS)
def test_hostile_json_values_get_short_errors_naming_the_field(path: str) -> None:
    for value in HOSTILE:
        if any(value is ok for ok in FIELDS[path]):
            continue
        err = json_error_of(with_value_at(path, value))
        assert err.text.startswith(path), (path, err.text)
        assert len(str(err)) < 300 and "\x1b" not in str(err)


def test_json_lists_are_limited_before_reading() -> None:
    err = json_error_of({"tiles": ["1m"] * 1025})
    assert (err.text, err.reason) == ("tiles", "a list of 1025 entries; at most 1024 are read")
    assert json_error_of({"tiles": ["1m"], "melds": [{}] * 2000}).text == "melds"
    assert len(hand_from_json({"tiles": ["1m"] * 1024}).tiles) == 1024


def test_json_unknown_key_is_quoted_short() -> None:
    err = json_error_of({"tiles": ["1m"], "x" * 10**6: 1})
    assert len(str(err)) < 300
    assert json_error_of({"tiles": ["1m"], 7: 1}).text == "7"


def test_bad_json_key_suggests() -> None:
    assert "did you mean 'dealer'?" in json_error_of({"tiles": ["1m"], "context": {"dealr": True}}).reason


json_keys = st.sampled_from(
    ["tiles", "melds", "win", "context", "kind", "tile", "from", "seat", "winners", "void"]
)
json_leaves = st.none() | st.booleans() | st.integers(-2, 5) | st.sampled_from(["1m", "5p", "E", "x", "L"])
json_values = st.recursive(
    json_leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(json_keys, inner, max_size=4),
    max_leaves=12,
)


@given(json_values)
def test_only_notation_errors_escape_json(data: Any) -> None:
    try:
        hand_from_json(data)
    except NotationError as err:
        assert err.column == 0


@pytest.mark.parametrize("digit", ["²", "٣", "３"])
def test_a_fact_number_is_ascii_digits(digit: str) -> None:
    """``str.isdigit`` takes superscripts and other scripts' digits, which ``int``
    refuses or reads: a fact's number is ASCII digits, anything else is no number."""
    with pytest.raises(NotationError) as declared:
        parse_hand(f"123m win 5m streak {digit}", {"streak": "number"})
    assert declared.value.column == 19 and "takes a whole number" in str(declared.value)
    with pytest.raises(NotationError):  # undeclared: a flag, then a word that is no tile
        parse_hand(f"123m win 5m streak {digit}")


def test_a_waiting_hand_states_its_declared_facts_after_its_tiles() -> None:
    """With no ``win``, a declared fact follows the tiles directly; a misspelt one is
    still named as unknown at its place."""
    hand = parse_hand("111s 8p 234m 567m EE 9p flipped 7p streak 2",
                      {"flipped": "tiles", "streak": "number"})
    assert hand.win_tile is None and dict(hand.context.facts) == {"flipped": (15,), "streak": 2}
    with pytest.raises(NotationError) as misspelt:
        parse_hand("111s 8p 234m 567m EE 9p flippd 7p", {"flipped": "tiles"})
    assert misspelt.value.column == 24 and "did you mean 'flipped'?" in str(misspelt.value)
