"""The fast reader of hand notation (mjr.notation.scan) against the full parser.

``parse_hand`` reads common hands with one pass over table lookups and leaves
anything else to the full parser; these tests check that the two give equal hands
for valid text and the same error (type, message, column) for text mutated from it,
with and without the flowers and red fives a ruleset may lack.
"""

from __future__ import annotations

import pickle
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import contexts, hands_in, kinds

from mjr.abi import SEATS
from mjr.hand.model import Context, Hand, impossibility
from mjr.notation import parse as notation
from mjr.notation.parse import _parse_hand_full, format_hand, parse_hand
from mjr.notation.scan import read_common
from mjr.tiles.red import RED_KINDS

DECLARED = {"streak": "number", "birds": "tiles", "lucky": "flag", "bonus": "number"}
FACT_VALUES = {"streak": st.integers(0, 1_000_000), "birds": st.lists(kinds, min_size=1, max_size=16).map(
    lambda ts: tuple(sorted(ts))), "lucky": st.just(True), "bonus": st.integers(0, 99)}


@st.composite
def fuller_contexts(draw: st.DrawFn) -> Context:
    """Contexts with a dealer's seat and declared facts of play, beside the rest."""
    context = draw(contexts)
    names = draw(st.lists(st.sampled_from(sorted(DECLARED)), unique=True, max_size=4))
    facts = tuple((name, draw(FACT_VALUES[name])) for name in names)
    dealer_seat = None if context.dealer else draw(st.none() | st.integers(0, SEATS - 1))
    return replace(context, facts=facts, dealer_seat=dealer_seat)


@st.composite
def marked_hands(draw: st.DrawFn) -> Hand:
    """Hands with flowers and red fives (some of the fives they hold, at most three
    of a suit) beside the rest."""
    hand = draw(hands_in(fuller_contexts()))
    flowers = tuple(draw(st.lists(st.integers(1, 8), unique=True, max_size=8)))
    counts = hand.all_counts()
    red = tuple(kind for kind in RED_KINDS for _ in range(draw(st.integers(0, min(3, counts[kind])))))
    return replace(hand, flowers=flowers, red=red)


hands = hands_in(fuller_contexts()) | marked_hands()
#: What a ruleset may lack: flowers, red fives (parse_hand's keywords).
TILE_SETS = [{}, {"flowers": False}, {"red": False}, {"flowers": False, "red": False}]


def outcome(read: Any, text: str, facts: dict[str, str] | None, **tile_set: bool) -> tuple[Any, ...]:
    """What a reader makes of ``text``: the hand, or the error's type, column and message."""
    try:
        return ("hand", read(text, facts, **tile_set))
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
    for tile_set in TILE_SETS[1:]:  # a ruleset lacking what the hand holds: the full parser's error
        lacks = (hand.flowers and not tile_set.get("flowers", True)) or (hand.red and not tile_set.get("red", True))
        assert read_common(text, DECLARED, **tile_set) == (None if lacks else hand)
        assert outcome(parse_hand, text, DECLARED, **tile_set) == outcome(_parse_hand_full, text, DECLARED, **tile_set)


@given(hands)
def test_the_counts_kept_while_reading_are_the_hands(hand: Hand) -> None:
    """The fast reader hands its tile counts to the Hand (concealed_counts): they
    are the counts the hand's own fields give."""
    fast = read_common(format_hand(hand), DECLARED)
    assert fast is not None
    assert "_concealed_counts" in vars(fast)
    assert fast.concealed_counts() == Hand(fast.tiles, fast.melds, fast.win_tile, fast.context).concealed_counts()


@pytest.mark.parametrize("text", [
    "1m" * 255 + " win 1m", "1m" * 254 + " win 1m", "1m" * 256, "E" * 300, "123m aside " + "1m" * 256,
    "123m dealer birds " + "1m" * 256, "1m" * 254 + " 1m win 1m",
])
def test_a_count_past_a_byte_reads_alike(text: str) -> None:
    """A kind held more than 255 times (no table deals it, and a count is a byte) is
    left to the full parser, which reads it as any hand; Hand.concealed_counts then
    says why it has no counts."""
    for facts in (None, DECLARED):
        assert outcome(parse_hand, text, facts) == outcome(_parse_hand_full, text, facts)
    read = outcome(parse_hand, text, DECLARED)
    if read[0] == "error":  # (too many set aside, too many tiles of a fact)
        return
    hand = read[1]
    if max(hand.tiles.count(kind) for kind in set(hand.tiles)) + (hand.win_tile is not None) > 255:
        with pytest.raises(ValueError, match="do not fit a byte"):
            hand.concealed_counts()
    else:
        assert hand.concealed_counts() == _parse_hand_full(text, DECLARED).concealed_counts()


@given(hands, st.sampled_from([" ", "  ", "\t", "\u3000", "\n"]))
def test_any_whitespace_separates_words_alike(hand: Hand, space: str) -> None:
    text = space + format_hand(hand).replace(" ", space) + space
    assert read_common(text, DECLARED) == _parse_hand_full(text, DECLARED)


# --------------------------------------------------------------------------- mutated text

VOCABULARY = [
    "win", "self_draw", "discard", "robbing_kong", "after_kong", "last_tile", "first_turn", "dealer", "seat",
    "round", "from", "indicator", "winners", "void", "E", "S", "W", "N", "L", "O", "R", "1", "2", "3", "4", "0",
    "5", "6", "7", "8", "9", "[555p<2]", "[555p<6]", "[555p<7]", "[555p<1]",
    "m", "p", "s", "5m", "9z", "C", "123m", "EEE", "[555p]", "[345p<L]", "(5555p)", "[5555p<O+]", "[55p]",
    "streak", "birds", "lucky", "bonus", "streek", "selfdraw", "3m5p", "12", "1000001", "9999999", "\u0663",
    "Seat", "facts", "x", "15f", "1f", "8f", "9f", "0f", "11f", "f", "0m", "0p", "0s", "0z", "000m", "[055p]",
    "[406s]", "(0000m)", "[15f]", "123m15f", "E15f", "J", "5J5m",
]
CHARACTERS = "1234567890mpszESWNPFCJ[]()<+LOR_ abdefiklnortuvw\t\u3000\u0663"


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
@given(mutated_texts(), st.sampled_from([None, DECLARED, {}, {"streak": "flag", "Lucky": "flag"}]),
       st.sampled_from(TILE_SETS))
def test_mutated_text_reads_alike(text: str, facts: dict[str, str] | None, tile_set: dict[str, bool]) -> None:
    assert outcome(parse_hand, text, facts, **tile_set) == outcome(_parse_hand_full, text, facts, **tile_set)


@given(st.lists(st.sampled_from(VOCABULARY), max_size=8).map(" ".join), st.sampled_from(TILE_SETS))
def test_random_words_read_alike(text: str, tile_set: dict[str, bool]) -> None:
    for facts in (None, DECLARED):
        assert outcome(parse_hand, text, facts, **tile_set) == outcome(_parse_hand_full, text, facts, **tile_set)


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


# --------------------------------------------------------------------------- flowers and red fives

#: Hands with flowers or red fives the fast reader reads, and what it reads of them.
MARKED = [
    ("123m456p789s11z 123f win 1z", (1, 2, 3), ()),
    ("123m15f 456p 789s 11z win 1z self_draw", (1, 5), ()),
    ("15f123m 8f 456p789s11z win 1z", (1, 5, 8), ()),
    ("8765f 4321f 123m", (1, 2, 3, 4, 5, 6, 7, 8), ()),
    ("E15f 123m", (1, 5), ()),
    ("234m406p678s 22z55s win 2z", (), (13,)),
    ("234m 456p [067s] 2233z win 3z", (), (22,)),
    ("234m 456p 678s 2233z win 0p self_draw", (), (13,)),
    ("00m 0m [055p] (0005s) win 0p", (), (4, 4, 4, 13, 13, 22, 22, 22)),
    ("406m 1f [406p<L] win 0s", (1,), (4, 13, 22)),
    ("0m123p 5f win 0m seat S birds 3m", (5,), (4, 4)),
]


@pytest.mark.parametrize(("text", "flowers", "red"), MARKED)
def test_flowers_and_red_fives_never_reach_the_full_parser(
    text: str, flowers: tuple[int, ...], red: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _parse_hand_full(text, DECLARED)
    assert (expected.flowers, expected.red) == (flowers, red)

    def refuse(*_: object) -> Hand:
        raise AssertionError("the full parser was asked")

    monkeypatch.setattr(notation, "_parse_hand_full", refuse)
    assert parse_hand(text, DECLARED) == expected


@pytest.mark.parametrize(("text", "tile_set", "column", "reason"), [
    ("123m 15f win 1z", {"flowers": False}, 5, "'1f' is a flower, and this ruleset's tile set has none"),
    ("123m15f win 1z", {"flowers": False, "red": False}, 4, "'1f' is a flower"),
    ("123m 0p win 1z", {"red": False}, 5, "0 writes a red five, and this ruleset's tile set has none"),
    ("123m [055p] win 1z", {"red": False}, 6, "0 writes a red five"),
    ("123m win 0p", {"red": False}, 9, "0 writes a red five"),
    ("123m 11f", {}, 6, "flower 1f is given twice"),
    ("1f 123m 1f", {}, 8, "flower 1f is given twice"),
    ("123m15f 5f", {}, 8, "flower 5f is given twice"),
    ("000m 0m", {}, 5, "a fourth red five of a suit"),
    ("00m [005m]", {}, 6, "a fourth red five of a suit"),
    ("000m win 0m", {}, 9, "a fourth red five of a suit"),
    ("123m 0z", {}, 5, "0 writes a red five, 0m 0p or 0s: there is no red honour"),
    ("123m 9f", {}, 5, "there is no 9f"),
    ("123m 0f", {}, 5, "there is no 0f"),
    ("123mf", {}, 4, "'f' has no numbers before it"),
    ("123m [15f]", {}, 8, "a flower (1f-8f) stands only among the concealed tiles"),
    ("123m win 1f", {}, 10, "a flower (1f-8f) stands only among the concealed tiles"),
    ("123m win 0z", {}, 9, "0 writes a red five, 0m 0p or 0s: there is no red honour"),
    ("123m indicator 0m", {}, 15, "0 writes a red five (0m 0p 0s), one of the hand's own tiles"),
    ("123m win 1z birds 0m", {}, 18, "0 writes a red five (0m 0p 0s), one of the hand's own tiles"),
    ("123m aside 1f", {}, 12, "a flower (1f-8f) stands only among the concealed tiles"),
    ("123m win 1z 15f", {}, 12, "tiles and melds must come before 'win'"),
])
def test_what_the_fast_reader_refuses_is_the_full_parsers_error(
    text: str, tile_set: dict[str, bool], column: int, reason: str
) -> None:
    assert read_common(text, DECLARED, **tile_set) is None
    with pytest.raises(notation.NotationError) as info:
        parse_hand(text, DECLARED, **tile_set)
    assert (info.value.column, info.value.reason[:len(reason)]) == (column, reason)
    assert outcome(parse_hand, text, DECLARED, **tile_set) == outcome(_parse_hand_full, text, DECLARED, **tile_set)


@pytest.mark.parametrize("text", ["123m J win 1z", "123m 5J5m", "[5J5m] 123m", "123m win J", "0mJ 15f"])
def test_jokers_stay_with_the_full_parser(text: str) -> None:
    assert read_common(text, DECLARED) is None
    assert outcome(parse_hand, text, DECLARED) == outcome(_parse_hand_full, text, DECLARED)


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
