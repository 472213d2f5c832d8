"""Integer division ``a / b``: it rounds down (towards minus infinity, negatives
too) on both backends, binds as ``*`` and ``%`` do, and a divisor that may be 0 is
refused where it is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

from mjr.compiler.build import check_file
from mjr.errors import SourceError

BACKENDS = ["compiled", "python"]
#: Each fan's value is one division over the fact n (0 to 20): with n - 10 the
#: dividend runs from -10 to 10, over positive and negative divisors.
QUOTIENTS = {
    "pos_by_pos": ("n / 4", lambda n: n // 4),
    "neg_by_pos": ("(n - 10) / 3", lambda n: (n - 10) // 3),
    "neg_by_neg": ("(n - 10) / (0 - 3)", lambda n: (n - 10) // -3),
    "by_a_range": ("(n - 10) / (n + 1)", lambda n: (n - 10) // (n + 1)),
    "by_neg_range": ("(10 - n) / (0 - n - 1)", lambda n: (10 - n) // (-n - 1)),
    "by_a_word": ("(n - 10) / winners", lambda n: n - 10),
    "precedence": ("n - 7 / 2 * 3", lambda n: n - 7 // 2 * 3),
    "left_to_right": ("(n + 40) / 2 / 3 % 5", lambda n: (n + 40) // 2 // 3 % 5),
}
RULES = 'ruleset t.div "Division" {\n    tiles suits(m p s)\n    fact n "n" number 0 to 20\n' + "".join(
    f'    fan {name} "{name}" ({text}) : standard\n' for name, (text, _) in QUOTIENTS.items()) + "}\n"


@pytest.mark.parametrize("backend", BACKENDS)
def test_division_rounds_down_on_both_backends(tmp_path: Path, backend: str) -> None:
    path = tmp_path / "t.div.mjr"
    path.write_text(RULES, encoding="utf-8")
    rules = load_on(path, backend)
    for n in range(21):
        result = rules.evaluate(f"123m 456m 789m 123p 4p win 4p n {n}")
        got = {line.id: line.value for line in result.fans}
        assert got == {name: quotient(n) for name, (_, quotient) in QUOTIENTS.items()}, n


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_divided_score_and_amount_checked_for_overflow(tmp_path: Path, backend: str) -> None:
    """``2 ^ n`` may pass 64 bits: the score is written with checked arithmetic."""
    path = tmp_path / "t.half.mjr"
    path.write_text("""ruleset t.half "Half" {
    tiles suits(m p s)
    fact n "n" number 0 to 100
    fan one "One" 5 : standard
    score (0 - 2 ^ n) / 3
    pay drawn "Drawn" when self_draw : each opponent pays (0 - points) / (fan + 1)
}
""", encoding="utf-8")
    rules = load_on(path, backend)
    result = rules.evaluate("123m 456m 789m 123p 4p win 4p self_draw n 5")
    assert result.points == -11
    assert dict(result.amounts) == {"S": 1, "W": 1, "N": 1}


@pytest.mark.parametrize(("value", "shown"), [
    ("n / 0", "the divisor is 0"),
    ("n / n", "the divisor can be 0 (it is 0 to 20)"),
    ("n / (n - 4)", "the divisor can be 0 (it is -4 to 16)"),
    ("n / count(melds)", "the divisor can be 0 (it is 0 to 10)"),
    ("n / payer_from_dealer", "the divisor can be 0 (it is 0 to 3)"),
])
def test_a_divisor_that_can_be_0_is_refused_where_it_is_written(tmp_path: Path, value: str, shown: str) -> None:
    path = tmp_path / "t.zero.mjr"
    place = "pay drawn \"Drawn\" when self_draw : each opponent pays" if "payer" in value else 'fan f "F"'
    condition = "" if "payer" in value else " : standard"
    path.write_text('ruleset t.zero "Zero" {\n    tiles suits(m p s)\n    fact n "n" number 0 to 20\n'
                    f"    {place} ({value}){condition}\n}}\n", encoding="utf-8")
    with pytest.raises(SourceError) as info:
        check_file(path)
    message = str(info.value)
    assert "t.zero.mjr:4:" in message and shown in message and "division by 0" in message
