"""Deposits on the table (``table pays``): what the winner takes besides the payment.

Riichi sticks are the model: 1,000 points each, put down by players who declared
riichi in earlier turns and taken by the next winner.  No player of the hand pays
them, so settlement writes them as a line from ``table``, and the lines still sum
to zero with the table's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

import mjr
from mjr.authoring.examples import run_examples
from mjr.compiler.build import check_file
from mjr.errors import SourceError

RULESET = """\
ruleset t.deposits "Deposits" {
    tiles    suits(m p s) winds dragons
    deal     13
    claims   chow(left) pung kong
    win      self_draw discard
    shapes   standard
    wildcard none
    fact sticks "供託" number 0 to 10
    fact kitty "Kitty" number 0 to 10
    fan plain "Plain" 1 : standard
    pay tsumo "自摸" when self_draw : each opponent pays 100
    pay ron "栄和" when discard : discarder pays 300
    pay deposits "供託" when sticks > 0 : table pays 1000 * sticks
    pay kitty_taken "Kitty" when kitty > 0 and self_draw : table pays kitty * (points + 1)
    example "a ron with two sticks on the table" {
        hand "123m456p789s123s5p win 5p from L seat E round E sticks 2"
        expect payments E +2300 N -300 table -2000
    }
    example "no deposits" {
        hand "123m456p789s123s5p win 5p self_draw seat E round E"
        expect payments E +300 S -100 W -100 N -100
    }
    # the kitty: 3 x (points 1 + 1) = 6, beside the stick's 1000
    example "both clauses take their share" {
        hand "123m456p789s123s5p win 5p self_draw seat S round E sticks 1 kitty 3"
        expect payments S +1306 W -100 N -100 E -100 table -1006
    }
}
"""
RON = "123m456p789s123s5p win 5p from L seat E round E sticks 2"


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("deposits") / "t.mjr"
    path.write_text(RULESET, encoding="utf-8")
    return path


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_the_winner_takes_the_deposits_besides_the_payment(source: Path, backend: str) -> None:
    rs = load_on(source, backend, unoptimised=True)
    result = rs.evaluate(RON)
    assert result.payment == "ron"
    assert result.from_table == (("deposits", 2000),)
    lines = [(line.payer, line.payee, line.amount, line.clause) for line in rs.settle(result).lines]
    assert lines == [("N", "E", 300, "ron"), ("table", "E", 2000, "deposits")]
    assert rs.settle(result).totals() == {"E": 2300, "S": 0, "W": 0, "N": -300, "table": -2000}
    doubled = rs.settle(result, mjr.Stakes(stake=2)).totals()
    assert doubled["E"] == 4600 and sum(doubled.values()) == 0
    assert result.to_json()["from_table"] == {"deposits": 2000}


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_without_deposits_no_line_is_written(source: Path, backend: str) -> None:
    rs = load_on(source, backend, unoptimised=True)
    result = rs.evaluate("123m456p789s123s5p win 5p self_draw seat E round E")
    assert result.from_table == ()
    assert "table" not in rs.settle(result).totals()


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_every_table_clause_whose_condition_holds_applies(source: Path, backend: str) -> None:
    rs = load_on(source, backend, unoptimised=True)
    assert [outcome.failures for outcome in run_examples(rs)] == [(), (), ()]
    batch = rs.evaluate_batch([rs.read_hand(RON)], workers=1)
    assert list(batch.points) == [rs.evaluate(RON).points]


def test_a_table_of_play_keeps_no_deposits_nobody_puts_down(source: Path) -> None:
    """Without a declaration (``declare ... stake N``) nothing goes onto the table: the
    facts stay unstated, no ``table pays`` clause fires, and the hand is zero-sum."""
    from mjr.table import GreedyBot, play_out

    rs = load_on(source, "python")
    table = play_out(mjr.table.Table(rs, seed=1), [GreedyBot(seat) for seat in range(4)])
    assert table.deposits == 0 and sum(table.net()) == 0
    assert all(payment.clause not in ("deposits", "kitty_taken") for payment in table.payments)


@pytest.mark.parametrize(("clause", "message"), [
    ('liable all_of_it "All" when discard : table pays all', "the table's deposits are taken with"),
    ('pay dealt "Dealt" when sticks > 0 : table pays 1000 * (2 if payer_dealer else 1)',
     "'payer_dealer' is a word of a paying player"),
])
def test_a_table_clause_is_no_players(tmp_path: Path, clause: str, message: str) -> None:
    path = tmp_path / "t.mjr"
    path.write_text(RULESET.replace("    example ", f"    {clause}\n    example ", 1), encoding="utf-8")
    with pytest.raises(SourceError, match=message):
        check_file(path)


@pytest.mark.parametrize(("payee", "message"), [
    ("5m", "'5m' is not a seat: use E, S, W, N, 5, 6, 7, 8 \\(or table, for its deposits\\)"),
    ("pot", "t.mjr:17:40: unexpected 'pot'; expected a seat 5-8, a tile"),
])
def test_an_example_names_seats_or_the_table(tmp_path: Path, payee: str, message: str) -> None:
    path = tmp_path / "t.mjr"
    path.write_text(RULESET.replace("table -2000", f"{payee} -2000"), encoding="utf-8")
    with pytest.raises(SourceError, match=message):
        check_file(path)
