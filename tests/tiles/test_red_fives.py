"""Red fives (``0m 0p 0s``): the notation and JSON, the Hand, records and batches,
the ruleset's tile set and the ``red_fives`` word on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

import mjr
from mjr.abi import STATUS_MALFORMED, record_red
from mjr.errors import HandError, HandFieldError, NotationError, RecordError
from mjr.hand.model import Hand
from mjr.notation.json import hand_from_json, hand_to_json
from mjr.notation.parse import format_hand, parse_hand

BACKENDS = ["compiled", "python"]

RULES = """ruleset t.red "Red fives" {
    tiles suits(m p s) winds dragons red_fives
    claims chow pung kong
    fan plain "Plain" 1 : standard
    bonus aka "赤" 1 each : red_fives
}
"""


@pytest.fixture(scope="module")
def rules_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("red") / "t.red.mjr"
    path.write_text(RULES, encoding="utf-8")
    return path


@pytest.mark.parametrize(("text", "red", "canonical"), [
    ("340m 46p [0s55s<L] 789s 99s win 0p", (4, 13, 22), "340m46p78999s [055s<L] win 0p"),
    ("345m 46p [555s<L] 789s 99s win 5p", (), "345m46p78999s [555s<L] win 5p"),
    ("3450m 6p 789s 99s (5555p) win 6p", (4,), "3405m6p78999s (5555p) win 6p"),
    ("345m 46p 0789s 99s [505p<O] win 6p", (13, 22), "345m46p078999s [055p<O] win 6p"),
])
def test_red_fives_read_and_write(text: str, red: tuple[int, ...], canonical: str) -> None:
    hand = parse_hand(text)
    assert hand.red == red
    assert format_hand(hand) == canonical
    assert parse_hand(canonical) == hand
    assert hand_from_json(hand_to_json(hand)) == hand


@pytest.mark.parametrize(("text", "column", "reason"), [
    ("120z", 2, "0 writes a red five, 0m 0p or 0s: there is no red honour"),
    ("123m indicator 0m", 15, "an indicator or a fact writes its kind, 5m"),
    ("123m win 5m dora 0m", 17, "an indicator or a fact writes its kind, 5m"),
    ("0000m 123p 4p win 4p", 3, "a fourth red five of a suit: at most three"),
    ("120f 123m", 2, "there is no 0f"),
])
def test_misplaced_red_fives_are_refused_at_their_character(text: str, column: int, reason: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    assert info.value.column == column
    assert reason in info.value.reason


def test_a_ruleset_without_red_fives_refuses_them() -> None:
    simple = mjr.load("simple", backend="python")
    with pytest.raises(NotationError, match="this ruleset's tile set has none"):
        simple.evaluate("340m 456p 555s 789s 9s win 9s")
    with pytest.raises(HandError, match="a red 5m is not in simple's tile set, which has no red fives"):
        simple.evaluate(Hand(parse_hand("345m 456p 555s 789s 9s").tiles, win_tile=26, red=(4,)))


@pytest.mark.parametrize(("red", "field", "reason"), [
    ((3,), "red[0]", "a red five is a 5m, 5p or 5s"),
    ((13,), "red[0]", "1 red 5p, and the hand holds no 5p"),
    ([4], "red", "expected a tuple"),
    (None, "red", "expected a tuple"),
])
def test_a_hand_holds_only_red_fives_of_its_own_fives(red: object, field: str, reason: str) -> None:
    with pytest.raises(HandFieldError) as info:
        Hand((0, 1, 2, 3, 4, 5), win_tile=5, red=red)  # type: ignore[arg-type]
    assert info.value.field == field and reason in str(info.value)


def test_json_names_a_bad_red_five() -> None:
    with pytest.raises(NotationError) as info:
        hand_from_json({"tiles": ["1m"], "win": "1m", "red": ["5m"]})
    assert info.value.text == "red[0]" and "1 red 5m, and the hand holds no 5m" in info.value.reason


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_red_fives_word_counts_them(rules_path: Path, backend: str) -> None:
    rules = load_on(rules_path, backend, unoptimised=True)
    assert {f.id: f.value for f in rules.evaluate("340m 46p [0s55s<L] 789s 99s win 0p").fans} == {"plain": 1, "aka": 3}
    assert [f.id for f in rules.evaluate("345m 46p [555s<L] 789s 99s win 5p").fans] == ["plain"]
    with pytest.raises(HandError, match="t.red has 1 red 5s; this hand holds 2"):
        rules.evaluate("340m 46p [0s55s<L] 0789s 9s win 9s")


@pytest.mark.parametrize("backend", BACKENDS)
def test_records_carry_the_red_fives(rules_path: Path, backend: str) -> None:
    rules = load_on(rules_path, backend, unoptimised=True)
    hand = parse_hand("340m 46p [0s55s<L] 789s 99s win 0p")
    record = rules.records.record(hand)
    assert record is not None and rules.records.hand(record) == hand
    batch = rules.evaluate_batch([hand, "345m 46p [555s<L] 789s 99s win 5p"])
    assert list(batch.fan) == [4, 1]
    forged = bytearray(rules.records.record(parse_hand("123m 46p [555s<L] 789s 99s win 5p")) or b"")
    forged[record_red(rules.records.max_melds, False)] = 1  # a red 5m, and no 5m held
    assert rules.evaluate_batch(bytes(forged)).reason(0) != ""
    forged[record_red(rules.records.max_melds, False)] = 128  # bits beyond two a suit: no hand reads so
    assert rules.generated.evaluate_record(bytes(forged))[0] == STATUS_MALFORMED
    with pytest.raises(RecordError, match="red fives 128 has bits beyond two a suit"):
        rules.records.hand(bytes(forged))


def test_a_wall_holds_one_red_copy_of_each_suits_five(rules_path: Path) -> None:
    from mjr.table.wall import RED_BASE, Wall, kind_of, wall_tile_name

    rules = mjr.load(rules_path, backend="python")
    wall = Wall.shuffled(rules.kinds, rules.has_flowers, 1, 0, red=rules.red_kinds).original
    red = sorted(tile for tile in wall if tile >= RED_BASE)
    assert [wall_tile_name(tile) for tile in red] == ["0m", "0p", "0s"]
    assert [kind_of(tile) for tile in red] == [4, 13, 22] and len(wall) == 136
