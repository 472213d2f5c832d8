"""``wildcard may_not`` and ``indicator in_play | out_of_play`` on small rulesets:
what each forbids or allows, and that nothing else changes."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest

import mjr
from mjr import HandError

RULESET = """
ruleset t.wild_rules "Wildcard rules" {{
    tiles    suits(m p s) winds dragons
    claims   chow(any) pung kong
    wildcard indicator + 1
    {rules}
    fan chicken "Chicken" 1 : standard
}}
"""


def ruleset(tmp_path: Path, rules: str) -> mjr.Ruleset:
    path = tmp_path / "t.wild_rules.mjr"
    path.write_text(RULESET.format(rules=rules), encoding="utf-8")
    return mjr.load(path, backend="python")


@pytest.fixture
def chow_and_claim(tmp_path: Path) -> mjr.Ruleset:
    return ruleset(tmp_path, "wildcard may_not chow claim")


def test_may_not_chow_names_the_chow(chow_and_claim: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match=r"^\[567m<L\] holds the wildcard 6m: .* in a chow \(wildcard may_not chow\)$"):
        chow_and_claim.evaluate("123p 456p 789s 5s [567m<L] win 5s indicator 5m")


def test_may_not_claim_names_the_claimed_meld(chow_and_claim: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match=r"^\[6666m<O\] holds the wildcard 6m: .* in a claimed meld"):
        chow_and_claim.evaluate("123p 456p 789s 5s [6666m<O] win 5s indicator 5m")


def test_what_is_not_forbidden_still_wins(chow_and_claim: mjr.Ruleset) -> None:
    assert chow_and_claim.evaluate("123p 456p 789s 5s (6666m) win 5s self_draw indicator 5m").is_win
    assert chow_and_claim.evaluate("123p 456p 789s 5s [567m<L] win 5s indicator 7m").is_win
    assert chow_and_claim.evaluate("123p 456p 789s 678m 5s win 6m from L indicator 5m").is_win


@pytest.mark.parametrize(("rules", "refused"), [
    ("wildcard may_not kong", "(6666m)"), ("wildcard may_not pung", None), ("wildcard may_not claim", None)])
def test_may_not_kong_takes_in_a_concealed_kong(tmp_path: Path, rules: str, refused: str | None) -> None:
    rs = ruleset(tmp_path, rules)
    hand = "123p 456p 789s 5s (6666m) win 5s self_draw indicator 5m"
    if refused is None:
        assert rs.evaluate(hand).is_win
    else:
        with pytest.raises(HandError, match=rf"^\{refused[:-1]}\) holds the wildcard 6m: .* in a concealed kong"):
            rs.evaluate(hand)


def test_may_not_discard_refuses_a_win_on_a_discarded_wildcard(tmp_path: Path) -> None:
    rs = ruleset(tmp_path, "wildcard may_not discard")
    with pytest.raises(HandError, match="^the winning tile 6m is a wildcard, so it cannot be a discard"):
        rs.evaluate("123p 456p 789s 678m 5s win 6m from L indicator 5m")
    with pytest.raises(HandError, match="cannot be robbed from a kong"):
        rs.evaluate("123p 456p 789s 57m 55s win 6m robbing_kong from L indicator 5m")
    assert rs.evaluate("123p 456p 789s 678m 5s win 6m self_draw indicator 5m").is_win
    assert rs.evaluate("123p 456p 789s 5s [666m<L] win 5s indicator 5m").is_win  # claims are not forbidden


# --------------------------------------------------------------------------- indicator in play


FOUR_OF_THE_INDICATOR = "1111m 23m 456p 789s 5s win 5s self_draw indicator 1m"


@pytest.mark.parametrize("rules", ["", "indicator out_of_play"])
def test_the_indicator_is_out_of_play_by_default(tmp_path: Path, rules: str) -> None:
    rs = ruleset(tmp_path, rules)
    with pytest.raises(HandError, match=r"5 copies of 1m \(with the indicator\)"):
        rs.evaluate(FOUR_OF_THE_INDICATOR)
    assert "1m" not in [w.tile for w in rs.waits("111m 23m 456p 789s 55s self_draw indicator 1m")]
    counts = bytes(mjr.parse_hand(FOUR_OF_THE_INDICATOR).concealed_counts())
    points, _ = rs.evaluate_counts(counts, "5s self_draw indicator 1m", refused="mark")
    assert points == array("q", [-2])


def test_indicator_in_play_takes_up_no_copy(tmp_path: Path) -> None:
    rs = ruleset(tmp_path, "indicator in_play")
    assert rs.evaluate(FOUR_OF_THE_INDICATOR).is_win
    assert "1m" in [w.tile for w in rs.waits("111m 23m 456p 789s 55s self_draw indicator 1m")]
    counts = bytes(mjr.parse_hand(FOUR_OF_THE_INDICATOR).concealed_counts())
    points, _ = rs.evaluate_counts(counts, "5s self_draw indicator 1m")
    assert points[0] > 0
    with pytest.raises(HandError, match="5 copies of 1m: there are only 4$"):
        rs.evaluate("1111m 234p 567p 789s win 1m self_draw indicator 1m")


def test_a_variant_without_an_indicator_drops_the_reading(tmp_path: Path) -> None:
    ruleset(tmp_path, "indicator in_play")
    variant = tmp_path / "t.no_indicator.mjr"
    variant.write_text('ruleset t.no_indicator "No indicator" extends t.wild_rules {\n    wildcard fixed C\n}\n',
                       encoding="utf-8")
    assert not mjr.load(variant, backend="python").indicator_in_play
