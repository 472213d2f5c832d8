"""Numbers past 64 bits: refused by the checker where they cannot be right, reported
for the hand where the score truly overflows, and the same on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

import mjr
from mjr import HandError, SourceError
from mjr.compiler.check.ranges import WORD_BOUNDS
from mjr.compiler.model import ir
from mjr.compiler.model.vocabulary import GROUP_WORDS, HAND_WORDS, KIND_WORDS, PAYER_WORDS, TILE_WORDS, TUPLE_WORDS
from mjr.ruleset.loaded import OVERFLOWED

BIG = """ruleset big.{name} "Big" {{
    tiles    suits(m p s) winds dragons
    score    {score}
    limits   highest
    fan chicken "Chicken" 0 : standard
    limit flush "Flush" {limit} : suits == 1
    limit honours "Honours" {honours} : suits == 0
}}
"""
FLUSH, CHICKEN = "111m 234m 567m 789m 5m win 5m", "123m 456m 789m 111p 5m win 5m"
HONOURS = "111z 222z 333z 555z 6z win 6z"


def ruleset(tmp_path: Path, backend: str, score: str, limit: int, honours: int = 0) -> mjr.Ruleset:
    path = tmp_path / "big.edge.mjr"
    path.write_text(BIG.format(name="edge", score=score, limit=limit, honours=honours), encoding="utf-8")
    return load_on(path, backend)


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_a_score_past_64_bits_is_an_error_naming_the_hand(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, backend, "4 * mult * 2 ^ fan", 88)
    with pytest.raises(HandError, match="pass the 64-bit integers .*needs a cap"):
        rs.evaluate(FLUSH)
    assert rs.evaluate(CHICKEN).points == 4  # the same formula, a small fan: fine
    batch = bytes(mjr.parse_hand(CHICKEN).concealed_counts()) + bytes(mjr.parse_hand(FLUSH).concealed_counts())
    with pytest.raises(HandError, match="^hand 1 of the batch: the points of this hand pass"):
        rs.evaluate_counts(batch)
    points, fan = rs.evaluate_counts(batch, refused="mark")
    assert list(points) == [4, OVERFLOWED] and list(fan) == [0, OVERFLOWED]


@pytest.mark.parametrize("backend", ["compiled", "python"])
@pytest.mark.parametrize(("score", "limits", "points"), [
    ("2 ^ fan - 1 + 2 ^ fan", (62, 63), (2**63 - 1, None)),  # the largest value there is, then one more
    ("(0 - 3) ^ fan", (39, 40), (-(3**39), None)),
    ("0 - 2 * 2 ^ fan", (61, 62), (-(2**62), None)),  # -2^63 is outside: the range is symmetric
])
def test_both_backends_agree_at_the_edge(tmp_path: Path, backend: str, score: str, limits: tuple[int, int],
                                         points: tuple[int | None, int | None]) -> None:
    rs = ruleset(tmp_path, backend, score, *limits)
    for hand, expected in zip((FLUSH, HONOURS), points, strict=True):
        if expected is None:
            with pytest.raises(HandError, match="pass the 64-bit integers"):
                rs.evaluate(hand)
        else:
            assert rs.evaluate(hand).points == expected


@pytest.mark.parametrize(("line", "message"), [
    ('fan huge "Huge" 99999999999999999999 : standard', "fan 'huge' can reach 1e\\+20, past the 64-bit"),
    ('fan huge "Huge" 4611686018427387904 each : count(tiles where honor)', "fan 'huge' can reach"),
    ('multiplier double "M" 4294967296 : standard\n    multiplier triple "N" 4294967296 : standard',
     "the product of the multipliers can reach"),
])
def test_values_that_cannot_fit_are_refused_at_their_place(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "huge.mjr"
    path.write_text(f'ruleset huge "Huge" {{\n    tiles suits(m p s) winds dragons\n    score base * fan * mult\n'
                    f'    {line}\n}}\n', encoding="utf-8")
    with pytest.raises(SourceError, match=message) as caught:
        mjr.load(path)
    assert "huge.mjr:" in str(caught.value)


def test_every_number_word_has_bounds() -> None:
    words = {**HAND_WORDS, **TILE_WORDS, **KIND_WORDS, **GROUP_WORDS, **PAYER_WORDS, **TUPLE_WORDS}
    assert {name for name, info in words.items() if info.type == ir.INT} == set(WORD_BOUNDS)


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_a_define_in_a_checked_formula_is_checked_too(tmp_path: Path, backend: str) -> None:
    path = tmp_path / "define.score.mjr"
    path.write_text('ruleset define.score "Define" {\n    tiles suits(m p s) winds dragons\n'
                    '    define steep: 2 ^ (5 * count(tiles where suited))\n'
                    '    score base * steep * fan\n    fan plain "Plain" 1 : standard\n}\n', encoding="utf-8")
    rs = load_on(path, backend)
    assert rs.evaluate("123m 456m 789m 111z 5m win 5m").points == 2**55
    with pytest.raises(HandError, match="pass the 64-bit integers"):
        rs.evaluate(FLUSH)


@pytest.mark.parametrize("line", [
    'require big "Big" : 3 ^ (2 * count(tiles)) > 1',
    'floor big "Big" 1 : 3 ^ (2 * count(tiles)) > 1',
    'pay big "Big" when 3 ^ (2 * count(tiles)) > 1 : discarder pays points',
])
def test_rule_conditions_that_cannot_fit_are_refused(tmp_path: Path, line: str) -> None:
    path = tmp_path / "rule.mjr"
    path.write_text(f'ruleset rule "Rule" {{\n    tiles suits(m p s)\n    fan plain "Plain" 1 : standard\n'
                    f'    {line}\n}}\n', encoding="utf-8")
    with pytest.raises(SourceError, match="rule.mjr:4:5: the condition of 'big' can reach"):
        mjr.load(path)
