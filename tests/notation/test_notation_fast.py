"""The fast reader of hand notation (mjr.notation.scan) against the full parser.

``parse_hand`` reads common hands with one pass over table lookups and leaves
anything else to the full parser; these tests check that the two give equal hands
for valid text and the same error (type, message, column) for text mutated from it.
"""

from __future__ import annotations

import pickle
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import contexts, hands_in, kinds

from mjr.hand.model import Context, Hand, impossibility
from mjr.notation import parse as notation
from mjr.notation.parse import _parse_hand_full, format_hand, parse_hand
from mjr.notation.scan import read_common

DECLARED = {"streak": "number", "birds": "tiles", "lucky": "flag", "bonus": "number"}
FACT_VALUES = {"streak": st.integers(0, 1_000_000), "birds": st.lists(kinds, min_size=1, max_size=16).map(
    lambda ts: tuple(sorted(ts))), "lucky": st.just(True), "bonus": st.integers(0, 99)}


@st.composite
def fuller_contexts(draw: st.DrawFn) -> Context:
    """Contexts with a dealer's seat and declared facts of play, beside the rest."""
    context = draw(contexts)
    names = draw(st.lists(st.sampled_from(sorted(DECLARED)), unique=True, max_size=4))
    facts = tuple((name, draw(FACT_VALUES[name])) for name in names)
    dealer_seat = None if context.dealer else draw(st.none() | st.integers(0, 3))
    return replace(context, facts=facts, dealer_seat=dealer_seat)


hands = hands_in(fuller_contexts())


def outcome(read: Any, text: str, facts: dict[str, str] | None) -> tuple[Any, ...]:
    """What a reader makes of ``text``: the hand, or the error's type, column and message."""
    try:
        return ("hand", read(text, facts))
    except Exception as error:  # noqa: BLE001 - any difference between the readers counts
        return ("error", type(error), getattr(error, "column", None), str(error))


# --------------------------------------------------------------------------- valid text


@given(hands)
def test_fast_reader_builds_the_full_parsers_hand(hand: Hand) -> None:
    text = format_hand(hand)
    fast = read_common(text, DECLARED)
    assert fast is not None  # every canonical hand has a common shape
    assert fast == _parse_hand_full(text, DECLARED) == hand
    assert read_common(text, None) in (None, hand)  # undeclared facts: by their look
    assert parse_hand(text) == _parse_hand_full(text)


@given(hands, st.sampled_from([" ", "  ", "\t", "\u3000", "\n"]))
def test_any_whitespace_separates_words_alike(hand: Hand, space: str) -> None:
    text = space + format_hand(hand).replace(" ", space) + space
    assert read_common(text, DECLARED) == _parse_hand_full(text, DECLARED)


# --------------------------------------------------------------------------- mutated text

VOCABULARY = [
    "win", "self_draw", "discard", "robbing_kong", "after_kong", "last_tile", "first_turn", "dealer", "seat",
    "round", "from", "indicator", "winners", "void", "E", "S", "W", "N", "L", "O", "R", "1", "2", "3", "4", "0",
    "m", "p", "s", "5m", "9z", "C", "123m", "EEE", "[555p]", "[345p<L]", "(5555p)", "[5555p<O+]", "[55p]",
    "streak", "birds", "lucky", "bonus", "streek", "selfdraw", "3m5p", "12", "1000001", "9999999", "\u0663",
    "Seat", "facts", "x",
]
CHARACTERS = "1234567890mpszESWNPFC[]()<+LOR_ abdefiklnortuvw\t\u3000\u0663"


@st.composite
def mutated_texts(draw: st.DrawFn) -> str:
    """Valid text with a few characters or words inserted, deleted or replaced."""
    text = format_hand(draw(hands))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "delete", "replace", "word", "drop word"]))
        if how == "insert":
            text = text[:at] + draw(st.sampled_from(CHARACTERS)) + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + 1:]
        elif how == "replace":
            text = text[:at] + draw(st.sampled_from(CHARACTERS)) + text[at + 1:]
        elif how == "word":
            words = text.split(" ")
            words.insert(draw(st.integers(0, len(words))), draw(st.sampled_from(VOCABULARY)))
            text = " ".join(words)
        else:
            words = text.split(" ")
            del words[draw(st.integers(0, len(words) - 1))]
            text = " ".join(words)
    return text


@settings(max_examples=600)
@given(mutated_texts(), st.sampled_from([None, DECLARED, {}, {"streak": "flag", "Lucky": "flag"}]))
def test_mutated_text_reads_alike(text: str, facts: dict[str, str] | None) -> None:
    assert outcome(parse_hand, text, facts) == outcome(_parse_hand_full, text, facts)


@given(st.lists(st.sampled_from(VOCABULARY), max_size=8).map(" ".join))
def test_random_words_read_alike(text: str) -> None:
    for facts in (None, DECLARED):
        assert outcome(parse_hand, text, facts) == outcome(_parse_hand_full, text, facts)


@pytest.mark.parametrize("text", [
    "123m dealer S dealer", "123m dealer dealer S", "123m dealer S seat S", "123m seat S dealer S",
    "123m self_draw from L", "123m from L self_draw", "123m self_draw winners 1", "123m robbing_kong after_kong",
    "[123m] first_turn", "(1111m) first_turn", "123m dealer lucky lucky", "123m dealer streak 1000001",
    "123m dealer streak 1000000", "123m dealer birds " + "1m" * 17, "123m dealer birds " + "1m" * 16,
    "win 5m", "win", "123m win 5m win 6m", "123m self_draw discard", "123m win 5m streak \u0663",
])
def test_edge_cases_read_alike(text: str) -> None:
    for facts in (None, DECLARED):
        assert outcome(parse_hand, text, facts) == outcome(_parse_hand_full, text, facts)


# --------------------------------------------------------------------------- the fast path is taken

TYPICAL = [
    ("123m 456m 789m 123p 44p win 4p self_draw", None),
    ("11122233344455m win 5m", None),
    ("123m456p [789s] EEE 55p win 5p seat S discard from L", None),
    ("234m 567m 345p 678s 2s win 2s dealer W round S indicator 3m winners 2 void p after_kong last_tile", None),
    ("(5555p) [5555s<L+] 123m 4m win 4m", None),
    ("(5555p) 123m 456p 789s 4m win 4m first_turn dealer E", None),
    ("123m 456m 789s 55p [777z] win 5p self_draw dealer streak 3 birds 3m5p lucky", DECLARED),
    ("123m 456m 789s 55p [777z] win 5p self_draw streak 3 lucky", None),
]


@pytest.mark.parametrize(("text", "facts"), TYPICAL)
def test_typical_hands_never_reach_the_full_parser(
    text: str, facts: dict[str, str] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _parse_hand_full(text, facts)

    def refuse(*_: object) -> Hand:
        raise AssertionError("the full parser was asked")

    monkeypatch.setattr(notation, "_parse_hand_full", refuse)
    assert parse_hand(text, facts) == expected


def test_a_mistake_still_reaches_the_full_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(notation.NotationError) as info:
        parse_hand("123m 456m win 4q")
    assert info.value.column == 15
    assert "'q' is not part of a tile" in info.value.reason


# --------------------------------------------------------------------------- counts


def test_concealed_counts_are_made_once_as_bytes() -> None:
    hand = parse_hand("123m 55p EE win E")
    counts = hand.concealed_counts()
    assert counts == bytes([1, 1, 1] + [0] * 10 + [2] + [0] * 13 + [3] + [0] * 6)
    assert hand.concealed_counts() is counts
    assert hand.all_counts() == list(counts)
    assert hand == Hand(hand.tiles, hand.melds, hand.win_tile, hand.context)  # the cache is no field
    assert pickle.loads(pickle.dumps(hand)) == hand


def test_counts_of_an_impossible_hand() -> None:
    hand = Hand((0,) * 300)
    assert impossibility(hand) == "300 copies of 1m: there are only 4"
    assert hand.all_counts()[0] == 300
    with pytest.raises(ValueError, match="300 concealed copies"):
        hand.concealed_counts()
