"""Flower tiles: the notation (good and bad), the JSON, the hand records and
batches, and the flower words on both backends."""

from __future__ import annotations

import pytest
from conftest import load_on

import mjr
from mjr import abi
from mjr.errors import HandError, HandFieldError, NotationError
from mjr.notation.json import hand_from_json, hand_to_json
from mjr.notation.parse import format_hand, parse_hand

BACKENDS = ("compiled", "python")
#: A 17-tile hand of five sets and a pair, won on a discard, with no 台.
PLAIN = "123m 456m 789m 11s 22p [567s<L]"


@pytest.mark.parametrize(("text", "flowers", "canonical"), [
    ("123m 15f win 1m", (1, 5), "123m 15f win 1m"),
    ("123m51f win 1m", (1, 5), "123m 15f win 1m"),
    ("8f 123m 1f win 1m", (1, 8), "123m 18f win 1m"),
    ("123m 87654321f win 1m", tuple(range(1, 9)), "123m 12345678f win 1m"),
])
def test_flowers_read_and_write(text: str, flowers: tuple[int, ...], canonical: str) -> None:
    hand = parse_hand(text)
    assert hand.flowers == flowers
    assert hand.tiles == (0, 1, 2)
    assert format_hand(hand) == canonical
    assert parse_hand(format_hand(hand)) == hand
    assert hand_from_json(hand_to_json(hand)) == hand


@pytest.mark.parametrize(("text", "column", "reason"), [
    ("123m 15f 5f win 1m", 9, "flower 5f is given twice"),
    ("123m 12345678f 1f win 1m", 15, "a ninth flower: there are only 8"),
    ("123m 9f win 1m", 5, "there is no 9f"),
    ("123m f win 1m", 5, "unknown word"),
    ("123m 12f3 win 1m", 9, "no suit letter"),
    ("123m [1f2f3f] win 1m", 7, "stands only among the concealed tiles"),
    ("123m win 5f", 10, "stands only among the concealed tiles"),
    ("123m win 1m 5f", 12, "tiles and melds must come before 'win'"),
])
def test_bad_flowers_are_refused_at_their_character(text: str, column: int, reason: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_hand(text)
    assert caught.value.column == column, str(caught.value)
    assert reason in caught.value.reason


def test_a_flower_under_a_flowerless_ruleset_is_refused_at_its_character() -> None:
    text = "123m 456m 789m 234p 5p 5f win 5p"
    with pytest.raises(NotationError) as caught:
        parse_hand(text, flowers=False)
    assert caught.value.column == text.index("5f")
    assert "this ruleset's tile set has none" in caught.value.reason
    ruleset = mjr.load("guangdong.jipinghu")
    with pytest.raises(NotationError, match="column 24"):
        ruleset.evaluate(text)
    with pytest.raises(HandError, match="flower 5f is not in guangdong.jipinghu's tile set"):
        ruleset.evaluate(parse_hand(text))
    assert ruleset.records.record(parse_hand(text)) is None


def test_hand_flowers_are_checked_and_sorted() -> None:
    assert mjr.Hand((0, 1, 2), flowers=(5, 1)).flowers == (1, 5)
    for bad, field in (((1, 1), "flowers[1]"), ((0,), "flowers[0]"), ((9,), "flowers[0]"), ([1], "flowers")):
        with pytest.raises(HandFieldError) as caught:
            mjr.Hand((0, 1, 2), flowers=bad)  # type: ignore[arg-type]
        assert caught.value.field == field


@pytest.mark.parametrize(("value", "path"), [
    (["1f", "1f"], "flowers[1]"), (["9f"], "flowers[0]"), ([1], "flowers[0]"), ("1f", "flowers"),
])
def test_bad_json_flowers_name_their_path(value: object, path: str) -> None:
    data = {**hand_to_json(parse_hand("123m win 1m")), "flowers": value}
    with pytest.raises(NotationError) as caught:
        hand_from_json(data)
    assert caught.value.text == path


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("flowers", "seat", "fans", "fan"), [
    ("", "E", (), 0),
    ("125f", "E", ("seat_flower",), 2),
    ("5678f", "S", ("seat_flower", "flower_kong"), 3),
    ("12345678f", "E", ("seat_flower", "flower_kong"), 6),
    ("34f", "E", (), 0),
])
def test_the_flower_words_score_on_both_backends(backend: str, flowers: str, seat: str,
                                                 fans: tuple[str, ...], fan: int) -> None:
    ruleset = load_on("taiwan", backend)
    result = ruleset.evaluate(f"{PLAIN} {flowers} win 2p from O seat {seat} dealer W")
    assert sorted(result.fan_ids) == sorted(fans)
    assert result.fan == fan
    assert result.points == 30 + 10 * fan


@pytest.mark.parametrize("backend", BACKENDS)
def test_records_and_batches_carry_the_flowers(backend: str) -> None:
    numpy = pytest.importorskip("numpy")
    ruleset = load_on("taiwan", backend)
    hands = [parse_hand(f"{PLAIN} {flowers} win 2p from O dealer W") for flowers in ("", "15f", "12345678f")]
    records = [ruleset.records.record(hand) for hand in hands]
    assert all(record is not None for record in records)
    assert [ruleset.records.hand(record) for record in records] == hands  # type: ignore[arg-type]
    array = numpy.frombuffer(b"".join(records), dtype=ruleset.record_dtype())  # type: ignore[arg-type]
    assert list(array["flowers"]) == [0, 0b10001, 0xFF]
    scores = ruleset.evaluate_batch(array)
    assert list(scores.points) == [ruleset.evaluate(hand).points for hand in hands] == [30, 50, 90]


def test_a_flowerless_ruleset_keeps_its_record_layout() -> None:
    ruleset = mjr.load("guangdong.jipinghu")
    assert not ruleset.has_flowers
    assert "flowers" not in ruleset.record_dtype().names
    assert abi.record_layout(4, 0, 0) == (56, 56, 56)
    assert abi.record_layout(4, 0, 0, flowers=True) == (64, 64, 64)
