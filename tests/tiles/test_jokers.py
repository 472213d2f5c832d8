"""Dedicated jokers (``tiles ... jokers N``, written ``J``): the notation and JSON,
the Hand, records and batches, the ruleset's count, ``wildcard may_not`` and the
wildcard words on both backends, and that a joker scores as a wild kind does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import load_on, write_rulesets

import mjr
from mjr.abi import JOKER, STATUS_MALFORMED, STATUS_OUTSIDE_RULES, record_jokers
from mjr.compiler.build import check_file
from mjr.compiler.check.wildcards import most_wildcards
from mjr.errors import HandError, HandFieldError, NotationError, RecordError, SourceError
from mjr.hand.model import Hand, Meld
from mjr.notation.json import hand_from_json, hand_to_json
from mjr.notation.parse import format_hand, parse_hand

BACKENDS = ["compiled", "python"]

WORDS = """    claims chow pung kong
    fan plain  "Plain"  1 : standard
    fan held   "Held"   1 each : wildcards
    fan subst  "Subst"  1 each : substituted
    fan on_wild "OnWild" 1 : winning_wildcard
    fan hard   "Hard"   1 : wildcards == 0
    fan wild_pair "WildPair" 1 : any pairs are (wilds == 2)
"""
#: the same words with four jokers, and with the kind 7z (red dragon) wild instead
JOKERS = 'ruleset t.jk "Jokers" {\n    tiles suits(m p s) winds dragons jokers 4\n' + WORDS + "}\n"
FIXED = 'ruleset t.fx "Fixed" {\n    tiles suits(m p s) winds dragons\n    wildcard fixed C\n' + WORDS + "}\n"
STRICT = ('ruleset t.st "Strict" {\n    tiles suits(m p s) winds dragons jokers 2\n'
          "    wildcard may_not discard pung claim\n" + WORDS + "}\n")


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_rulesets(tmp_path_factory.mktemp("jokers"), {"t.jk": JOKERS, "t.fx": FIXED, "t.st": STRICT})


# -- the notation and the Hand ----------------------------------------------------


@pytest.mark.parametrize(("text", "jokers", "melds", "win", "canonical"), [
    ("123m 456p 789s 11z J win 1z", 1, (), 27, "123m456p789s11zJ win 1z"),
    ("123mJ 456p 789s 1z win J", 1, (), JOKER, "123m456p789s1zJ win J"),
    ("J 123m 456p [3J5s<L] EE win E", 1, ((21,),), 27, "123m456p11zJ [3J5s<L] win 1z"),
    ("123m 456p 11z [5J5s] [J45m] win 1z", 0, ((22,), (2,)), 27, "123m456p11z [55Js] [J45m] win 1z"),
    ("123m 456p 11z (EJJE) JJ win J self_draw", 2, ((27, 27),), JOKER, "123m456p11zJJ (11JJz) win J self_draw"),
])
def test_jokers_read_and_write(text: str, jokers: int, melds: tuple[tuple[int, ...], ...], win: int,
                               canonical: str) -> None:
    hand = parse_hand(text)
    assert hand.jokers == jokers and hand.win_tile == win
    assert tuple(meld.jokers for meld in hand.melds) == melds
    assert format_hand(hand) == canonical
    assert parse_hand(canonical) == hand
    assert hand_from_json(hand_to_json(hand)) == hand


@pytest.mark.parametrize(("text", "column", "reason"), [
    ("123m indicator J", 15, "an indicator or a fact names a tile kind"),
    ("123m win 5m birds 3mJ", 20, "an indicator or a fact names a tile kind"),
    ("123m [JJJ] win 1m", 6, "a meld of jokers alone names no tile"),
    ("123m [4J5m] win 1m", 8, "neither a pung nor a chow written in rank order"),
    ("123m [J12m] win 1m", 6, "runs past the suit"),
    ("123m [89Jm] win 1m", 6, "runs past the suit"),
    ("123m [EJF] win 1m", 8, "honours make no chow"),
    ("123m [5mJ6p] win 1m", 9, "a meld is all one suit"),
    ("123m JJJJJJJJJ win 1m", 13, "joker 9: this tile set has 8"),
])
def test_misplaced_jokers_are_refused_at_their_character(text: str, column: int, reason: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    assert info.value.column == column
    assert reason in info.value.reason


def test_a_ruleset_without_jokers_refuses_them_at_the_character() -> None:
    simple = mjr.load("simple", backend="python")
    with pytest.raises(NotationError) as info:
        simple.evaluate("123m 456p 789s 234s J win 5s")
    assert info.value.column == 20 and "this ruleset's tile set has none" in info.value.reason
    with pytest.raises(HandError, match="a joker \\(J\\) is not in simple's tile set, which has no jokers"):
        simple.evaluate(Hand(parse_hand("123m 456p 789s 234s 5s").tiles, win_tile=JOKER))


@pytest.mark.parametrize(("build", "field", "reason"), [
    (lambda: Hand((0, 1, 2), win_tile=3, jokers=-1), "jokers", "an int 0 or more"),
    (lambda: Hand((0, 1, 2), win_tile=JOKER, jokers=8), "jokers", "9 jokers in the hand"),
    (lambda: Hand((0,), win_tile=35), "win_tile", "mjr.tiles.JOKER (34) for a joker"),
    (lambda: Meld("pung", 4, jokers=(5,)), "jokers[0]", "stands for one of the meld's own tiles"),
    (lambda: Meld("pung", 4, jokers=(4, 4, 4)), "jokers", "at least one real tile"),
    (lambda: Meld("chow", 0, jokers=(1, 1)), "jokers[0]", "more jokers as 2m than the meld holds 2m"),
    (lambda: Meld("chow", 0, jokers=[1]), "jokers", "expected a tuple"),
])
def test_a_hand_and_a_meld_check_their_jokers(build: object, field: str, reason: str) -> None:
    with pytest.raises(HandFieldError) as info:
        build()  # type: ignore[operator]
    assert info.value.field == field and reason in str(info.value)


def test_json_names_bad_jokers() -> None:
    with pytest.raises(NotationError) as info:
        hand_from_json({"tiles": ["1m"], "win": "1m", "jokers": 9})
    assert info.value.text == "jokers"
    with pytest.raises(NotationError) as info:
        hand_from_json({"tiles": ["1m"], "win": "1m", "melds": [{"kind": "pung", "tile": "5m", "jokers": ["6m"]}]})
    assert info.value.text == "melds[0].jokers[0]"


# -- scoring on both backends -------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_jokers_are_wildcards_to_the_words(paths: dict[str, Path], backend: str) -> None:
    rules = load_on(paths["t.jk"], backend, unoptimised=True)
    assert rules.jokers == 4

    def fans(text: str) -> dict[str, int]:
        return {f.id: f.value for f in rules.evaluate(text).fans}

    assert fans("123m 456m 789m 123p 4p win 4p") == {"plain": 1, "hard": 1}
    assert fans("123m 456m 789m 12p 4p J win 4p") == {"plain": 1, "held": 1, "subst": 1}
    assert fans("123m 456m 789m 123p 4p win J self_draw") == {"plain": 1, "held": 1, "subst": 1, "on_wild": 1}
    assert fans("123m 456m 789m 123p J win J self_draw") == {"plain": 1, "held": 2, "subst": 2, "on_wild": 1,
                                                             "wild_pair": 1}
    # a joker in a declared meld plays as the tile it stands for, as a wildcard in a meld
    # does, and stays in sight: it is held and substituted, and the hand is no jokerless one
    assert fans("123m 456m 789m [1J3p] 4p win 4p") == {"plain": 1, "held": 1, "subst": 1}
    with pytest.raises(HandError, match="t.jk has 4 jokers; this hand holds 5"):
        rules.evaluate(Hand(parse_hand("123m 456m 44p").tiles, (Meld("pung", 9, jokers=(9, 9)),), JOKER,
                            jokers=2))
    assert not rules.evaluate("123m 456m 789m 12p 5p J win 5s").is_win


@pytest.mark.parametrize("backend", BACKENDS)
def test_may_not_applies_to_jokers(paths: dict[str, Path], backend: str) -> None:
    rules = load_on(paths["t.st"], backend, unoptimised=True)
    with pytest.raises(HandError, match="\\[55Jp\\] holds a joker: in t.st a wildcard may not be used in a pung"):
        rules.evaluate("123m 456m 789m [55Jp] 4p win 4p")
    with pytest.raises(HandError, match="\\[1J3p<L\\] holds a joker: in t.st wildcards may not be used in a "
                                         "claimed meld"):
        rules.evaluate("123m 456m 789m [1J3p<L] 4p win 4p")
    with pytest.raises(HandError, match="the winning tile J is a joker, so it cannot be a discard"):
        rules.evaluate("123m 456m 789m 123p 4p win J")
    assert rules.evaluate("123m 456m 789m 123p 4p win J self_draw").is_win
    with pytest.raises(HandError, match="\\[1J3p\\] holds a joker: in t.st wildcards may not be used in a claimed"):
        rules.evaluate("123m 456m 789m [1J3p] 4p win 4p")  # exposed, whoever it came from
    assert rules.evaluate("123m 456m 789m (11J1p) 4p win 4p").is_win  # a concealed kong is no claim, nor a pung
    waits = [w.tile for w in rules.waits("123m 456m 789m 123p J")]
    assert len(waits) == 34  # a lone joker waits on every kind


@pytest.mark.parametrize("backend", BACKENDS)
def test_records_carry_the_jokers(paths: dict[str, Path], backend: str) -> None:
    rules = load_on(paths["t.jk"], backend, unoptimised=True)
    hands = [parse_hand(text) for text in ("123m 456m 789m [1J3p] J win J self_draw", "123m 456m 789m 123p 4p win 4p",
                                           "123m 456m 789m 12p 4p J win 4p")]
    for hand in hands:
        record = rules.records.record(hand)
        assert record is not None and rules.records.hand(record) == hand
    batch = rules.evaluate_batch(hands)
    assert list(batch.fan) == [rules.evaluate(hand).fan for hand in hands]
    assert "jokers" in rules.record_dtype().names
    forged = bytearray(rules.records.record(hands[1]) or b"")
    at = record_jokers(rules.records.max_melds, False, False)
    forged[at] = 9  # more jokers than any tile set has
    assert rules.generated.evaluate_record(bytes(forged))[0] == STATUS_MALFORMED
    with pytest.raises(RecordError, match="jokers 9"):
        rules.records.hand(bytes(forged))
    forged[at] = 0
    forged[34] = JOKER  # a joker winning tile, and no joker held
    assert rules.generated.evaluate_record(bytes(forged))[0] == STATUS_MALFORMED
    forged[at] = 5  # five jokers in a tile set of four (and the size is off too)
    assert rules.generated.evaluate_record(bytes(forged))[0] >= STATUS_MALFORMED
    meld = bytearray(rules.records.record(parse_hand("123m 456m 789m [123p] 4p win 4p")) or b"")
    meld[44 + 2] = 7 << 4  # a chow of three jokers: no real tile
    assert rules.generated.evaluate_record(bytes(meld))[0] == STATUS_MALFORMED
    meld[44 + 2] = 2 << 4  # the joker as 2p
    assert rules.records.hand(bytes(meld)).melds[0].jokers == (10,)
    assert rules.generated.evaluate_record(bytes(meld))[0] < STATUS_OUTSIDE_RULES


# -- a joker scores as a wild kind does ----------------------------------------------

#: hands with the red dragon (7z, C) as their wildcards; each is asked with the C
#: written as a joker instead.  No C stands as its own kind, so the two agree.
ALIKE = [
    "123m 456m 789m 12p 4p C win 4p",
    "123m 456m 789m 12p 4p C win C self_draw",
    "123m 456m 789m 123p C win C self_draw",
    "123m 456m 789m 123p 4p win C self_draw",
    "123m 456m 78m 12p 4p CC win 4p",
    "11m 22m 33m 44p 55p 66s C win 7s",
    "123m 456m 789m 12p CC win 5s",
    "123m 456m 789m 44p CC win 9s",
    "123m 456m 789m 12p 5p C win 5s",
    "123m 456p 1s C 99m [789s<L] win 1s",
    "EEE 456p 1s C 99m [789s<L] win 1s",
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("text", ALIKE)
def test_a_joker_scores_as_a_wild_kind(paths: dict[str, Path], backend: str, text: str) -> None:
    fixed = load_on(paths["t.fx"], backend, unoptimised=True)
    jokers = load_on(paths["t.jk"], backend, unoptimised=True)
    as_kind = fixed.evaluate(text)
    as_joker = jokers.evaluate(text.replace("C", "J"))
    assert as_kind.is_win == as_joker.is_win
    if as_kind.is_win:
        assert {f.id: f.value for f in as_kind.fans} == {f.id: f.value for f in as_joker.fans}
        assert as_kind.points == as_joker.points
        assert [(g.kind, g.tiles, g.winning) for g in as_kind.groups] == [
            (g.kind, g.tiles, g.winning) for g in as_joker.groups]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_joker_winning_tile_is_scored_from_its_record(paths: dict[str, Path], backend: str) -> None:
    """A hand with a joker winning tile goes through its record: the concealed
    counts hold kinds only (a joker winning tile counted in the jokers' byte)."""
    rules = load_on(paths["t.jk"], backend, unoptimised=True)
    hand = Hand(parse_hand("123m 456m 789m 123p 9s").tiles, win_tile=JOKER)
    assert sum(hand.concealed_counts()) == 13
    assert rules.evaluate(hand).is_win


@pytest.mark.parametrize(("line", "message"), [
    ("tiles suits(m p s) jokers 0", "3:31: a tile set has 1 to 8 jokers, not 0"),
    ("tiles suits(m p s) jokers 9", "3:31: a tile set has 1 to 8 jokers, not 9"),
    ("tiles suits(m p s) jokers 2 jokers 3", "3:40: 'jokers' is given twice in 'tiles'"),
])
def test_a_bad_jokers_count_is_refused_at_its_place(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "t.bad.mjr"
    path.write_text(f'ruleset t.bad "Bad" {{\n    # jokers\n    {line}\n}}\n', encoding="utf-8")
    with pytest.raises(SourceError, match=message):
        mjr.load(path, backend="python")


@pytest.mark.parametrize(("lines", "message"), [
    # eight jokers and the four tiles of a fixed wildcard: twelve, refused at the jokers
    (("tiles suits(m p s) winds dragons jokers 8", "wildcard fixed C"),
     "3:45: a hand may hold at most 8 wildcards, and one of this ruleset can hold 12 (8 jokers and 4 tiles of "
     "wild kinds): the search for a hand's groups grows about fivefold with each wildcard past 8; at most 4 "
     "jokers here"),
    # two fixed kinds and the indicator's: twelve, refused at the last wildcard line
    (("tiles suits(m p s) winds dragons", "wildcard fixed C", "wildcard fixed F", "wildcard indicator + 1"),
     "6:5: a hand may hold at most 8 wildcards, and one of this ruleset can hold 12 (12 tiles of wild kinds)"),
    # the indicator out of play takes up a copy of the kind it makes wild (indicator + 0)
    (("tiles suits(m p s) winds dragons jokers 2", "wildcard fixed C", "wildcard indicator + 0"),
     "3:45: a hand may hold at most 8 wildcards, and one of this ruleset can hold 9 (2 jokers and 7 tiles of "
     "wild kinds): the search for a hand's groups grows about fivefold with each wildcard past 8; at most 1 "
     "joker here"),
    (("tiles suits(m p s) winds dragons jokers 1", "wildcard fixed C", "wildcard fixed F"),
     "3:45: a hand may hold at most 8 wildcards, and one of this ruleset can hold 9 (1 joker and 8 tiles of "
     "wild kinds): the search for a hand's groups grows about fivefold with each wildcard past 8; no jokers "
     "beside these wild kinds"),
])
def test_a_ruleset_whose_hand_could_hold_more_than_eight_wildcards_is_refused(
        tmp_path: Path, lines: tuple[str, ...], message: str) -> None:
    path = tmp_path / "t.many.mjr"
    body = "".join(f"    {line}\n" for line in lines)
    path.write_text(f'ruleset t.many "Many" {{\n    # wildcards\n{body}}}\n', encoding="utf-8")
    with pytest.raises(SourceError, match=re.escape(message)):
        check_file(path)


@pytest.mark.parametrize("lines", [
    ("tiles suits(m p s) winds dragons jokers 8",),
    ("tiles suits(m p s) winds dragons jokers 4", "wildcard fixed C"),
    ("tiles suits(m p s) winds dragons", "wildcard fixed C", "wildcard indicator + 1"),
    ("tiles suits(m p s) winds dragons jokers 1", "wildcard fixed C", "wildcard indicator + 0"),
])
def test_eight_wildcards_a_hand_are_allowed(tmp_path: Path, lines: tuple[str, ...]) -> None:
    path = tmp_path / "t.eight.mjr"
    body = "".join(f"    {line}\n" for line in lines)
    path.write_text(f'ruleset t.eight "Eight" {{\n{body}    fan plain "Plain" 1 : standard\n}}\n',
                    encoding="utf-8")
    rules = check_file(path)
    assert most_wildcards(rules.wildcards, rules.jokers, rules.kinds) == 8


def test_a_batch_of_counts_has_no_jokers_in_its_context(paths: dict[str, Path]) -> None:
    rules = mjr.load(paths["t.jk"], backend="python")
    counts = parse_hand("123m 456m 789m 123p 4p win 4p").concealed_counts()
    with pytest.raises(HandError, match="jokers are tiles of each hand, not of the shared context"):
        rules.evaluate_counts(counts, "J self_draw")
    points, fan = rules.evaluate_counts(counts, "1m self_draw", win_tiles=bytes([12]))
    assert list(fan) == [rules.evaluate("123m 456m 789m 123p 4p win 4p self_draw").fan]
