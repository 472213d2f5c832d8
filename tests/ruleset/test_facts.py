"""Facts of play, the dealer's seat, per-payer amounts and who fed a meld: the
language words, the hand notation and JSON that carry them, and settlement, on
both backends."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

import mjr
from mjr import HandError, NotationError, SourceError
from mjr.errors import HandFieldError
from mjr.hand.model import Context, impossibility
from mjr.notation.json import hand_from_json, hand_to_json
from mjr.notation.parse import format_hand, parse_hand

RULES = """ruleset t.facts "Facts" {
    tiles  suits(m p s)
    claims chow pung kong
    fact streak "连庄" number 0 to 4
    fact bought "买底" flag
    fact birds  "鸟"   tiles 0 to 2
    fan base   "Base"   1 : standard
    define streak_plus: streak + 0
    fan streak_fan "Streak" (streak_plus) : streak >= 1
    fan bought_in  "Bought in" 1 : bought and discarder_dealer
    bonus bird "Bird" 1 each : count(birds where (rank - 1) % 4 == winner_from_dealer)
    score fan
    pay discarded "Discard" when discard
        : each opponent pays points * (2 if payer_discarder else 1) * (3 if payer_dealer else 1)
    pay drawn "Self-draw" when self_draw : each opponent pays points
    liable fed "Fed three" when self_draw and count(melds where from_left) >= 3 : left player pays all
}
"""
BACKENDS = ["compiled", "python"]


@pytest.fixture(scope="module", params=BACKENDS)
def rules(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> mjr.Ruleset:
    path = tmp_path_factory.mktemp("facts") / "t.facts.mjr"
    path.write_text(RULES, encoding="utf-8")
    return load_on(path, request.param, unoptimised=True)


DISCARD = "123m 456m 789m 123p 4p win 4p from L"


def test_number_flag_and_tiles_facts_are_words(rules: mjr.Ruleset) -> None:
    result = rules.evaluate(DISCARD + " dealer N streak 2 bought birds 2m4p")
    # winner E, dealer N: the winner is 1 step from the dealer, so a bird of rank 2 or 6 hits it
    assert dict((line.id, line.value) for line in result.fans) == {
        "base": 1, "streak_fan": 2, "bought_in": 1, "bird": 1}
    assert result.points == 5


def test_a_fact_left_out_takes_its_low_end(rules: mjr.Ruleset) -> None:
    assert rules.evaluate(DISCARD + " dealer N").fan_ids == ("base",)


def test_amounts_differ_by_payer_and_settlement_stays_zero_sum(rules: mjr.Ruleset) -> None:
    result = rules.evaluate(DISCARD + " dealer N streak 2 bought birds 2m4p")
    assert result.amounts == (("S", 5), ("W", 5), ("N", 30))  # N discarded (x2) and deals (x3)
    settlement = rules.settle(result)
    assert settlement.totals() == {"E": 40, "S": -5, "W": -5, "N": -30}
    assert sum(settlement.totals().values()) == 0
    assert rules.settle(result, mjr.Stakes(stake=2)).totals()["N"] == -60


def test_a_liable_player_named_by_place_pays_every_share(rules: mjr.Ruleset) -> None:
    result = rules.evaluate("4p [123m<L] [456m<L] [789m<L] 123p win 4p self_draw dealer N")
    assert result.liable == "fed"
    assert rules.settle(result).totals() == {"E": 3, "S": 0, "W": 0, "N": -3}
    # two melds from the left are not three: everyone pays their share
    ordinary = rules.evaluate("4p [123m<L] [456m<O] [789m<L] 123p win 4p self_draw dealer N")
    assert ordinary.liable is None and rules.settle(ordinary).totals()["E"] == 3


def test_rules_that_need_the_dealer_or_the_discarder_say_so(rules: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="need to know who deals: add 'dealer'"):
        rules.evaluate(DISCARD)
    with pytest.raises(HandError, match="who discarded the winning tile .*'from L'"):
        rules.evaluate("123m 456m 789m 123p 4p win 4p dealer")
    assert rules.evaluate("123m 456m 789m 123p 4p win 4p self_draw dealer").is_win  # no discarder to name


def test_an_undeclared_fact_is_refused_at_its_word(rules: mjr.Ruleset) -> None:
    with pytest.raises(NotationError, match="column 47: unknown word 'strek'; did you mean 'streak'"):
        rules.evaluate(DISCARD + " dealer N strek 2")
    with pytest.raises(HandError, match="has no fact of play 'luck'.*its facts: birds, bought, streak"):
        rules.evaluate(parse_hand(DISCARD + " dealer N luck 2"))


@pytest.mark.parametrize(("words", "message"), [
    ("streak 5", "fact 'streak': 5 is outside 0 to 4"),
    ("birds 1m2m3m", "fact 'birds': 3 tiles: 0 to 2 are expected"),
    ("birds E", "fact 'birds': tile 1z is not in the tile set"),
])
def test_a_fact_outside_its_declaration_is_refused(rules: mjr.Ruleset, words: str, message: str) -> None:
    with pytest.raises(HandError, match=message):
        rules.evaluate(f"{DISCARD} dealer N {words}")


def test_a_fact_of_the_wrong_kind_is_refused_in_the_notation(rules: mjr.Ruleset) -> None:
    with pytest.raises(NotationError, match="'streak' takes a whole number"):
        rules.evaluate(DISCARD + " dealer N streak 2m")
    with pytest.raises(NotationError, match="no suit letter"):
        rules.evaluate(DISCARD + " dealer N birds 2")


def test_the_batch_takes_its_facts_from_the_context(rules: mjr.Ruleset) -> None:
    hand = parse_hand("123m 456m 789m 123p 4p win 4p")
    points, fan = rules.evaluate_counts(bytes(hand.concealed_counts()), DISCARD + " dealer N streak 3")
    assert list(fan) == [4] and list(points) == [4]


# -- the hand's forms ------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "123456789m1234p win 4p dealer S birds 3m5p bought streak 2",
    "123456789m1234p win 4p seat S dealer W",
    "123456789m1234p win 4p dealer",
])
def test_facts_and_the_dealer_round_trip(text: str) -> None:
    hand = parse_hand(text)
    assert format_hand(hand) == text
    assert hand_from_json(hand_to_json(hand)) == hand


def test_the_dealer_at_the_winners_seat_is_the_dealer_flag() -> None:
    assert parse_hand("123m 456m 789m 123p 4p win 4p dealer E") == parse_hand("123m 456m 789m 123p 4p win 4p dealer")
    assert Context(seat=2, dealer_seat=2) == Context(seat=2, dealer=True)
    assert Context(seat=1, dealer_seat=3).dealer_wind == 3
    with pytest.raises(HandFieldError, match="dealer=True says the winner"):
        Context(seat=1, dealer=True, dealer_seat=3)


@pytest.mark.parametrize(("facts", "message"), [
    ((("streak", -1),), "a number fact is 0 to 1,000,000"),
    ((("streak", False),), "a flag that does not hold is left out"),
    ((("win", True),), "not a hand keyword"),
    ((("streak", 1), ("streak", 2)), "given twice"),
    ((("birds", ()),), "1 to 16 tiles"),
    ((("birds", (40,)),), "tile kinds are ints 0-33"),
    ((("streak", 1.5),), "expected True, an int or a tuple of tile kinds, not float"),
])
def test_context_refuses_a_bad_fact(facts: tuple[tuple[str, object], ...], message: str) -> None:
    with pytest.raises(HandFieldError, match=message):
        Context(facts=facts)  # type: ignore[arg-type]


def test_context_keeps_facts_in_one_order() -> None:
    assert Context(facts=(("b", (5, 2)), ("a", 1))).facts == (("a", 1), ("b", (2, 5)))


def test_tiles_facts_are_real_tiles() -> None:
    hand = parse_hand("1111m 456m 789m 123p 4p win 4p birds 1m")
    assert impossibility(hand) == "5 copies of 1m: there are only 4"


def test_json_facts_are_checked_with_their_path() -> None:
    data = hand_to_json(parse_hand("123m 456m 789m 123p 4p win 4p"))
    data["context"]["facts"] = {"birds": ["3m", "9x"]}
    with pytest.raises(NotationError, match=r"context\.facts\.birds\[1\]"):
        hand_from_json(data)
    data["context"]["facts"] = {"streak": 1.5}
    with pytest.raises(NotationError, match="expected true, a number or a list of tiles"):
        hand_from_json(data)


# -- the checker -------------------------------------------------------------------

CHECK = """ruleset t.bad "Bad" {{
    tiles suits(m p s)
    fact streak "s" number 0 to 4
    fact birds "b" tiles 0 to 2
    {statement}
}}
"""


@pytest.mark.parametrize(("statement", "message"), [
    ("fan f \"F\" 1 : payer_dealer", "'payer_dealer' is a word of the payer: it can be used only in a payment amount"),
    ("fan f \"F\" 1 : birds > 0", "fact 'birds' holds tiles: count them"),
    ("fan f \"F\" 1 : count(bird) > 0", r"unknown collection 'bird' \(did you mean 'birds'\?\)"),
    ("fact seat_wind \"x\" flag", "fact 'seat_wind' has the name of a built-in word"),
    ("fact dealer \"x\" flag", "fact 'dealer' has the name of a built-in word"),
    ("fact n \"x\" number 5 to 2", "a number fact ranges over 0 to 1,000,000, low to high: not 5 to 2"),
    ("fact n \"x\" tiles 0 to 40", "a tiles fact holds 0 to 16 tiles"),
    ("fact streak \"again\" flag", "duplicate fact 'streak'"),
])
def test_the_checker_refuses_misused_facts_and_payer_words(tmp_path: Path, statement: str, message: str) -> None:
    path = tmp_path / "t.bad.mjr"
    path.write_text(CHECK.format(statement=statement), encoding="utf-8")
    with pytest.raises(SourceError, match=message):
        mjr.load(path, backend="python")


REMAINDER = """ruleset t.mod "Mod" {{
    tiles suits(m p s)
    fact n "n" number 0 to 20
    fan f "F" ({value}) : standard
    score fan + 100
}}
"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("value", "n", "expected"), [
    ("n % 4", 7, 3), ("(n - 10) % 4", 7, 1), ("n % (n - 10)", 7, -2), ("n % 0", 7, 0), ("n % (0 - 4)", 6, -2),
])
def test_the_remainder_counts_as_python_on_both_backends(tmp_path: Path, backend: str, value: str, n: int,
                                                         expected: int) -> None:
    path = tmp_path / "t.mod.mjr"
    path.write_text(REMAINDER.format(value=value), encoding="utf-8")
    rules = load_on(path, backend, unoptimised=True)
    assert rules.evaluate(f"123m 456m 789m 123p 4p win 4p n {n}").points == 100 + expected


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_amounts_alone_need_no_discarder_to_score(tmp_path: Path, backend: str) -> None:
    """When only the amounts name the discarder, a discard win without 'from' is
    scored; its amounts are unknown (not worked out as if nobody discarded), and
    settling it asks for 'from'."""
    path = tmp_path / "t.amounts.mjr"
    path.write_text("""ruleset t.amounts "Amounts" {
    tiles suits(m p s) winds dragons
    fan any_win "Win" 8 : standard
    pay discarded "Discard" when discard : each opponent pays 8 + (points if payer_discarder else 0)
}
""", encoding="utf-8")
    rules = load_on(path, backend, unoptimised=True)
    result = rules.evaluate("123m 456m 789m 123p 4p win 4p")
    assert result.is_win and result.points == 8 and result.payment == "discarded"
    assert result.amounts == ()
    with pytest.raises(mjr.MjrError, match="needs to know who discarded .*'from L'"):
        rules.settle(result)
    named = rules.evaluate("123m 456m 789m 123p 4p win 4p from O")
    assert named.amounts == (("S", 8), ("W", 16), ("N", 8))
