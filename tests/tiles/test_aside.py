"""Tiles set aside when drawn (``tiles ... aside(E S W N C)``): the notation and
JSON, the Hand, records and batches, the words ``aside`` and ``aside_fours`` on
both backends, and a table that sets them aside as it deals and draws."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

import mjr
from mjr.errors import HandError, HandFieldError, NotationError, RecordError
from mjr.hand.model import Hand
from mjr.notation.json import hand_from_json, hand_to_json
from mjr.notation.parse import format_hand, parse_hand
from mjr.tiles.kinds import parse_tile

BACKENDS = ["compiled", "python"]
E, S, C = parse_tile("E"), parse_tile("S"), parse_tile("C")

RULES = """ruleset t.aside "Aside" {
    tiles suits(m p s) winds dragons flowers aside(E S W N C)
    deal 16
    claims chow(left) pung kong
    fact birds "鸟" tiles 0 to 1
    fan plain "Plain" 1 : standard
    fan hua "花" 1 each : flowers + count(aside) + 2 * (flower_series + aside_fours)
    fan winds "风" 1 each : count(aside where wind)
    fan east "东" 1 : any aside are E
    pay every "each" when self_draw or discard or robbing_kong : each opponent pays points
}
"""
WIN = "123m 456m 789m 123p 456p 9s win 9s self_draw"


@pytest.fixture(scope="module")
def rules_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("aside") / "t.aside.mjr"
    path.write_text(RULES, encoding="utf-8")
    return path


@pytest.mark.parametrize(("text", "aside", "canonical"), [
    ("11m aside EEC", (E, E, C), "11m aside 117z"),
    ("11m aside 7z1z win 1m", (E, C), "11m win 1m aside 17z"),
    ("11m", (), "11m"),
])
def test_tiles_set_aside_read_and_write(text: str, aside: tuple[int, ...], canonical: str) -> None:
    hand = parse_hand(text)
    assert hand.aside == aside
    assert format_hand(hand) == canonical
    assert parse_hand(canonical) == hand
    assert hand_from_json(hand_to_json(hand)) == hand


@pytest.mark.parametrize(("text", "column", "reason"), [
    ("11m aside EEEEE", 14, "a fifth 1z set aside: there are only 4"),
    ("11m aside", 9, "'aside' needs a value after it, as in 'aside 1z7z'"),
    ("11m aside self_draw", 10, "'aside' takes tiles, as in 'aside 1z7z'"),
    ("11m aside E aside S", 12, "'aside' is repeated"),
])
def test_misplaced_tiles_set_aside_are_refused_at_their_character(text: str, column: int, reason: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    assert info.value.column == column
    assert reason in info.value.reason


@pytest.mark.parametrize(("text", "at", "reason"), [
    (f"{WIN} aside EP", "P", "'5z' is not a tile set aside: this ruleset sets aside only 1z 2z 3z 4z 7z"),
    ("123m 456m 789m 123p 45p E 9s win 9s", "E", "'1z' is set aside when drawn in this ruleset"),
    ("123m 456m 789m 123p [EEE] 9s win 9s", "[", "'1z' is set aside when drawn in this ruleset"),
    ("123m 456m 789m 123p 456p 9s win C", "C", "'7z' is set aside when drawn in this ruleset"),
])
def test_a_ruleset_refuses_tiles_it_does_not_set_aside_at_their_character(
        rules_path: Path, text: str, at: str, reason: str) -> None:
    rules = mjr.load(rules_path, backend="python")
    with pytest.raises(NotationError) as info:
        rules.evaluate(text)
    assert info.value.column == text.rindex(at)
    assert reason in info.value.reason


def test_a_ruleset_setting_nothing_aside_refuses_them() -> None:
    simple = mjr.load("simple", backend="python")
    with pytest.raises(NotationError, match="this ruleset sets no tiles aside"):
        simple.evaluate("123m 456p 555s 789s 9s win 9s aside E")
    with pytest.raises(HandError, match="simple sets no tiles aside"):
        simple.evaluate(Hand(parse_hand("123m 456p 555s 789s 9s").tiles, win_tile=26, aside=(E,)))


def test_a_hand_object_names_a_bad_aside_and_a_held_kind(rules_path: Path) -> None:
    rules = mjr.load(rules_path, backend="python")
    held = parse_hand("123m 456m 789m 123p 456p 9s win 9s")
    with pytest.raises(HandError, match="tile 1z is set aside when drawn in t.aside, never held"):
        rules.evaluate(Hand(held.tiles[:-1] + (E,), win_tile=E))
    with pytest.raises(HandError, match="t.aside sets aside only 1z 2z 3z 4z 7z, not 5z"):
        rules.evaluate(Hand(held.tiles, win_tile=held.win_tile, aside=(parse_tile("P"),)))


@pytest.mark.parametrize(("aside", "field", "reason"), [
    ((34,), "aside[0]", "a tile kind is 0-33"),
    ((E,) * 5, "aside[0]", "5 copies of 1z set aside: there are only 4"),
    ([E], "aside", "expected a tuple"),
])
def test_a_hand_holds_at_most_four_of_a_kind_aside(aside: object, field: str, reason: str) -> None:
    with pytest.raises(HandFieldError) as info:
        Hand((0, 1, 2), aside=aside)  # type: ignore[arg-type]
    assert info.value.field == field and reason in str(info.value)


def test_json_names_a_bad_aside() -> None:
    with pytest.raises(NotationError) as info:
        hand_from_json({"tiles": ["1m"], "aside": ["1z"] * 5})
    assert info.value.text == "aside" and "only 4" in info.value.reason
    with pytest.raises(NotationError) as info:
        hand_from_json({"tiles": ["1m"], "aside": ["9z"]})
    assert info.value.text == "aside[0]"


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_words_count_the_tiles_set_aside(rules_path: Path, backend: str) -> None:
    rules = load_on(rules_path, backend, unoptimised=True)
    fans = {f.id: f.value for f in rules.evaluate("123m 456m 789m 123p 456p 9s 15f win 9s self_draw aside EEEEC").fans}
    assert fans == {"plain": 1, "hua": 2 + 5 + 2, "winds": 4, "east": 1}
    assert {f.id: f.value for f in rules.evaluate(f"{WIN} aside SC").fans} == {"plain": 1, "hua": 2, "winds": 1}
    assert [f.id for f in rules.evaluate(WIN).fans] == ["plain"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_records_carry_the_tiles_set_aside(rules_path: Path, backend: str) -> None:
    rules = load_on(rules_path, backend, unoptimised=True)
    hand = parse_hand(f"{WIN} aside EEEEC birds 5m")
    record = rules.records.record(hand)
    assert record is not None and rules.records.hand(record) == hand
    assert list(rules.evaluate_batch([hand, WIN]).fan) == [1 + 7 + 1 + 4, 1]
    forged = bytearray(record)
    forged[rules.records.aside_at + parse_tile("P")] = 1  # a kind the ruleset does not set aside
    assert rules.evaluate_batch(bytes(forged)).reason(0) != ""
    forged[rules.records.aside_at + parse_tile("P")] = 5
    with pytest.raises(RecordError, match="aside 5 copies"):
        rules.records.hand(bytes(forged))


def test_the_record_dtype_has_the_tiles_set_aside(rules_path: Path) -> None:
    numpy = pytest.importorskip("numpy")
    rules = mjr.load(rules_path, backend="python")
    records = numpy.zeros(1, dtype=rules.record_dtype())
    records[0] = numpy.frombuffer(rules.records.record(parse_hand(f"{WIN} aside EC")) or b"", dtype=records.dtype)
    assert list(numpy.nonzero(records["aside"][0])[0]) == [E, C]
    assert records["fact_tiles"].shape == (1, 1, 34)


def test_a_table_sets_the_kinds_aside_as_it_draws(rules_path: Path) -> None:
    from mjr.simulate.run import tiles_add_up
    from mjr.table.bots import GreedyBot, play_out
    from mjr.table.referee import Table

    rules = mjr.load(rules_path, backend="python")
    for seed in range(4):
        table = play_out(Table(rules, seed=seed), [GreedyBot(s) for s in range(4)])
        assert tiles_add_up(table)
        kept = [kind for player in table.players for kind in player.aside]
        assert kept and set(kept) <= rules.aside_kinds
        assert all(player.counts[kind] == 0 for player in table.players for kind in rules.aside_kinds)
        for win in table.wins:
            assert set(win.result.hand.aside) <= rules.aside_kinds


def test_fuzhou_is_played() -> None:
    from mjr.simulate.run import simulate

    report = simulate("fuzhou", hands=12, seed=3, backend="python", workers=1)
    tally = report.tally
    assert tally.hands == 12 and not tally.zero_sum_failures and not tally.tile_count_failures
