"""Kong payments given back at the close of a hand (``kong_pay ... WORD``):
``refund_at_draw`` at a hand nobody won, ``refund_unless_ready_at_end`` by a maker
neither ready nor a winner however the hand ends, ``refund_unless_ready`` (the
wall run out only) as before; each payment at most once.  Played from arranged
walls on both backends; the words are checked where they are written."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on
from table_script import arranged_wall, play_script

import mjr
from mjr.table.actions import Action
from mjr.table.referee import Seating, Table

BACKENDS = ["compiled", "python"]

RULES = """ruleset t.kong_money "Kong money" {{
    tiles suits(m p s) winds dragons
    claims pung kong
    kong_pay an_gang "暗杠" on concealed : each opponent pays 2 {words}
    fan plain "Plain" 1 : standard
    pay discarded "D" when discard : discarder pays points
    pay self_drawn "S" when self_draw : each opponent pays points
}}
"""

#: dealt far from ready, and holding none of the maker's or the winner's tiles
OTHERS = {0: "258m 258s 369m 369s E", 3: "258m 258s 369m 369s S"}
#: seat 1 konges 1111m on its first turn; ready after it (on 1p and 4p) or not
READY, NOT_READY = "23p 567p 789p C", "15p 567p 789p C"
#: seat 2 wins by self-draw on its first draw, 9m
WINNER = "234m 567m 78m WWW FF"


def _rules(tmp_path: Path, backend: str, words: str) -> mjr.Ruleset:
    path = tmp_path / f"kong_money_{words.replace(' ', '_') or 'plain'}.mjr"
    path.write_text(RULES.format(words=words), encoding="utf-8")
    return load_on(path, backend, unoptimised=True)


def _play(rules: mjr.Ruleset, maker: str, win: bool) -> Table:
    """Seat 1 konges on its first turn and discards the replacement (N); seat 2
    wins on its first draw where ``win``, else the wall runs out with no win."""
    hands = {**OTHERS, 1: f"1111m {maker}", 2: WINNER if win else "258m 258s 369m 369s W"}
    wall = arranged_wall(rules, hands, draws=["N", "C", "9m" if win else "N"], back=["N"])
    table = Table(rules, wall=wall, seating=Seating(dealer=0))

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        for wanted in (Action(1, "kong", 0), Action(2, "win")):
            if wanted in actions:
                return wanted
        return None

    return play_script(table, policy)


def _refunds(table: Table) -> list[tuple[int, int, int]]:
    return sorted((p.payer, p.payee, p.amount) for p in table.payments if p.name.endswith("refunded"))


PAID_BACK = [(1, 0, 2), (1, 2, 2), (1, 3, 2)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("words", "maker", "win", "refunded"), [
    # at a win: only refund_unless_ready_at_end asks the maker
    ("refund_unless_ready_at_end", NOT_READY, True, PAID_BACK),
    ("refund_unless_ready_at_end", READY, True, []),
    ("refund_unless_ready", NOT_READY, True, []),
    ("refund_at_draw", NOT_READY, True, []),
    # at a hand nobody won: refund_at_draw gives it back even to a ready maker
    ("refund_at_draw", READY, False, PAID_BACK),
    ("refund_at_draw refund_unless_ready", NOT_READY, False, PAID_BACK),  # once, not twice
    ("refund_unless_ready_at_end", READY, False, []),
    ("refund_unless_ready_at_end", NOT_READY, False, PAID_BACK),
    ("", NOT_READY, False, []),
])
def test_a_kong_payment_is_given_back_as_its_words_say(tmp_path: Path, backend: str, words: str, maker: str,
                                                      win: bool, refunded: list[tuple[int, int, int]]) -> None:
    table = _play(_rules(tmp_path, backend, words), maker, win)
    assert [win.seat for win in table.wins] == ([2] if win else [])
    assert sorted((p.payer, p.payee, p.amount) for p in table.payments if p.clause == "an_gang" and
                  not p.name.endswith("refunded")) == [(0, 1, 2), (2, 1, 2), (3, 1, 2)]
    assert _refunds(table) == refunded
    assert sum(table.net()) == 0


@pytest.mark.parametrize(("words", "message"), [
    ("refund_unless_ready refund_unless_ready_at_end",
     "refund_unless_ready_at_end gives the payment back at a drawn hand too: write one of them"),
    ("refund_at_draw refund_at_draw", "refund_at_draw is written twice"),
    ("refund_at_drawn", "unknown word after the amount 'refund_at_drawn' (did you mean 'refund_at_draw'?)"),
])
def test_the_words_are_checked_where_they_are_written(tmp_path: Path, words: str, message: str) -> None:
    from mjr.compiler.build import check_file

    path = tmp_path / "kong_money.mjr"
    path.write_text(RULES.format(words=words), encoding="utf-8")
    with pytest.raises(mjr.SourceError) as error:
        check_file(path)
    assert message in str(error.value)
    assert ":4:" in str(error.value)  # the kong_pay line


def test_the_rules_of_play_read_back_the_words(tmp_path: Path) -> None:
    rules = _rules(tmp_path, "python", "refund_at_draw refund_unless_ready_at_end")
    (payment,) = rules.play.kong_payments
    assert payment.words == ("refund_unless_ready_at_end", "refund_at_draw")
