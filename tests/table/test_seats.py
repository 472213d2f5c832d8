"""Tables of two to eight: a ruleset says how many it seats (``seats``, an
option's choice where it varies), and everything that names a player names only
those seated: a result's amounts and settlement, the hands it accepts, the table
that deals, turns and claims, the session and the log that replays it."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest
from conftest import load_on

import mjr
from mjr import cli
from mjr.errors import HandError, IllegalAction, MjrError, TableError
from mjr.notation.parse import format_hand
from mjr.simulate import simulate
from mjr.table.bots import GreedyBot
from mjr.table.log import replay
from mjr.table.referee import Table
from mjr.table.seats import Seating
from mjr.table.session import Session

BACKENDS = ("compiled", "python")
WIN = "123m 456m 789m 234p 5p win 5p"


def _seated(players: int, backends: tuple[str, ...]) -> Any:
    """A fixture: sichuan.xuezhan at a table of ``players``, on each of ``backends``."""
    @pytest.fixture(scope="module", params=backends)
    def ruleset(request: pytest.FixtureRequest) -> mjr.Ruleset:
        return load_on("sichuan.xuezhan", request.param, players=players)
    return ruleset


two, three, five, eight = (_seated(2, ("compiled",)), _seated(3, BACKENDS), _seated(5, BACKENDS),
                           _seated(8, ("compiled",)))


def test_the_ruleset_says_how_many_it_seats(three: mjr.Ruleset, two: mjr.Ruleset, sichuan: mjr.Ruleset) -> None:
    assert (three.seats, two.seats, sichuan.seats) == (3, 2, 4)
    assert [load_on("sichuan.xuezhan", "compiled", players=n).seats for n in (5, 6, 7, 8)] == [5, 6, 7, 8]


def test_amounts_and_settlement_name_only_seated_players(three: mjr.Ruleset) -> None:
    drawn = three.evaluate(f"{WIN} self_draw")
    assert drawn.amounts == (("S", 1), ("W", 1))
    assert three.settle(drawn).totals() == {"E": 2, "S": -1, "W": -1}
    # at a table of three the player before the winner sits left: for S, that is E
    fed = three.evaluate(f"{WIN} from L seat S")
    assert fed.amounts == (("W", 1), ("E", 1))  # what each would pay; the discarder does
    assert three.settle(fed).totals() == {"E": -1, "S": 1, "W": 0}
    fed = three.evaluate(f"{WIN} from R seat W")  # and for W the next player is E again
    assert three.settle(fed).totals() == {"E": -1, "S": 0, "W": 1}


def test_a_table_of_two_has_one_opponent(two: mjr.Ruleset) -> None:
    result = two.evaluate("123m 456m 789m 234m 5m win 5m self_draw")
    assert result.amounts == (("S", 4),)
    assert two.settle(result).totals() == {"E": 4, "S": -4}


@pytest.mark.parametrize(("words", "why"), [
    ("self_draw seat N", "sichuan.xuezhan seats 3 players (E S W): nobody sits at N (seat N)"),
    ("from O", "nobody sits opposite (O), so the discarder cannot be there; use R or L"),
    ("from L winners 3", "at most 2 win on one discard, not 3 (winners 3)"),
])
def test_a_hand_naming_a_seat_the_table_has_not_is_refused(three: mjr.Ruleset, words: str, why: str) -> None:
    hand = three.read_hand(f"{WIN} {words}")
    with pytest.raises(HandError, match=why.replace("(", r"\(").replace(")", r"\)")):
        three.evaluate(hand)
    with pytest.raises(HandError, match="nobody sits|at most 2 win"):
        three.check_hand(hand, winning=True)


def test_a_meld_claimed_from_nobody_is_refused(three: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match=r"nobody sits opposite \(O\), so the meld \[555p<O\] cannot be there"):
        three.evaluate("123m 456m 789m [555p<O] 5m win 5m self_draw")
    assert three.evaluate("123m 456m 789m [555p<L] 5m win 5m self_draw").is_win


def test_a_batch_refuses_what_a_single_call_refuses(three: mjr.Ruleset) -> None:
    hands = [three.read_hand(f"{WIN} {words}") for words in ("self_draw", "self_draw seat N", "from O", "from L")]
    records = np.frombuffer(b"".join(three.records.record(hand) for hand in hands), dtype=three.record_dtype())
    with pytest.raises(HandError, match=r"hand 1 .*nobody sits at N"):
        three.evaluate_batch(records, refused="raise")
    assert list(three.evaluate_batch(records).points) == [1, -2, -2, 1]


def test_a_seating_beyond_the_table_is_refused(three: mjr.Ruleset) -> None:
    with pytest.raises(TableError, match=r"Seating.dealer is seat 3, but the table seats 3 \(seats 0-2\)"):
        Table(three, seating=Seating(dealer=3))
    with pytest.raises(TableError, match="previous_winner is seat 3"):
        Session(three, seating=Seating(previous_winner=3))
    table = Table(three, seed=1)
    assert len(table.players) == 3 and table.seats == 3
    assert [player.held for player in table.players] == [13, 13, 13]
    with pytest.raises(IllegalAction, match="seat must be 0-2"):
        table.hand_of(3, None, "self_draw")


@pytest.mark.parametrize("players", [2, 3, 5, 6, 7, 8])
def test_simulations_seat_the_ruleset_s_players(players: int) -> None:
    """Deterministic, zero-sum, every tile accounted for, and hands are won."""
    runs = [simulate("sichuan.xuezhan", 120, seed=7, options={"players": players}, workers=1) for _ in range(2)]
    report = runs[0]
    assert report.to_json(timings=False) == runs[1].to_json(timings=False)
    assert not report.tally.zero_sum_failures and not report.tally.tile_count_failures
    assert report.tally.wins > 0


def test_a_session_of_three_replays(three: mjr.Ruleset) -> None:
    log = io.StringIO()
    session = Session(three, seed=5, log=log)
    ledger = session.play([GreedyBot(seat) for seat in range(3)], 4)
    assert len(ledger) == 3 and sum(ledger) == 0
    dealers = {table.seating.dealer for table in session.hands}
    assert dealers <= {0, 1, 2}
    report = replay(log.getvalue().splitlines())
    assert report.hands == 4 and list(report.ledger) == ledger


def test_mjr_play_takes_one_kind_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["play", "-r", "sichuan.xuezhan", "-o", "players=3", "--seats", "greedy,greedy,greedy,greedy"])
    assert status == 2
    assert "--seats takes 3 of" in capsys.readouterr().err
    status = cli.main(["play", "-r", "sichuan.xuezhan", "-o", "players=3", "--seats", "greedy,random,greedy"])
    assert status == 0
    assert "ledger: seat 0" in capsys.readouterr().out


def test_a_table_seats_at_most_eight(tmp_path) -> None:  # noqa: ANN001 - pytest's path
    path = tmp_path / "nine.mjr"
    path.write_text('ruleset t.nine "Nine" {\n    tiles suits(m p s)\n    seats 9\n'
                    '    fan chicken "Chicken" 0 : standard\n}\n', encoding="utf-8")
    with pytest.raises(MjrError, match=r"nine.mjr:3:5: seats 9: a table seats 2 to 8 players "
                                       r"\(its seats are E S W N 5 6 7 8, in play order\)"):
        mjr.load(path)


@pytest.mark.parametrize("word", ["seat_wind", "seat_flowers"])
def test_a_table_of_more_than_four_has_no_seat_wind(tmp_path, word: str) -> None:  # noqa: ANN001 - pytest's path
    path = tmp_path / "five.mjr"
    condition = "any tiles are seat_wind" if word == "seat_wind" else "seat_flowers > 0"
    path.write_text('ruleset t.five "Five" {\n    tiles suits(m p s) winds flowers\n    seats 5\n'
                    f'    fan own "Own" 1 : {condition}\n}}\n', encoding="utf-8")
    with pytest.raises(MjrError, match=f"'{word}': a table of 5 \\(seats 5\\) has seats past the fourth, "
                                       "which have no wind"):
        mjr.load(path)


def test_an_example_expecting_an_empty_seat_to_pay_fails(tmp_path) -> None:  # noqa: ANN001 - pytest's path
    from mjr.authoring.examples import run_examples

    path = tmp_path / "three.mjr"
    path.write_text('ruleset t.three "Three" {\n    tiles suits(m p s)\n    seats 3\n'
                    '    fan chicken "Chicken" 1 : standard\n'
                    '    pay self_drawn "Self-drawn" when self_draw : each opponent pays points\n'
                    '    example "N pays" {\n        hand "123m 456m 789m 234p 5p win 5p self_draw"\n'
                    '        expect payments E +3 S -1 W -1 N -1\n    }\n}\n', encoding="utf-8")
    (outcome,) = run_examples(load_on(path, "python"))
    assert outcome.failures == (f"{path}:8: expected payments name N, but the table seats 3 (E S W)",)


def test_a_seat_the_table_has_not_is_an_illegal_action(three: mjr.Ruleset) -> None:
    from mjr.table.actions import Action

    table = Table(three, seed=1)
    for act in (lambda: table.act(Action(3, "draw")), lambda: table.act("draw", 3)):
        with pytest.raises(IllegalAction, match="seat must be 0-2, not 3"):
            act()
    with pytest.raises(IllegalAction, match="source must be 0-2, not 3"):
        table.context(0, "discard", 3)
    with pytest.raises(IllegalAction, match="source 0 is the winner's own seat"):
        table.hand_of(0, None, "discard", 0)


CLAIMS_BY_PLACE = """ruleset t.by_place "Chows from the left, players leaving" {
    tiles suits(m p s) winds dragons
    seats 3
    claims chow(left) pung kong
    fan chicken "Chicken" 1 : standard
    pay self_drawn "Self-drawn" when self_draw : each opponent pays points
    pay discarded "Discard" when discard or robbing_kong : discarder pays points
    discard_win all
    hand_ends wins 2
}
"""


def test_a_claim_by_place_counts_where_the_discarder_sits(tmp_path) -> None:  # noqa: ANN001 - pytest's path
    """Once a player has won and left, a chow is still claimed only from the player
    sitting on the left, as the meld's source says (the hand check agrees)."""
    path = tmp_path / "by_place.mjr"
    path.write_text(CLAIMS_BY_PLACE, encoding="utf-8")
    report = simulate(path, 150, seed=7, workers=1)
    assert not report.tally.zero_sum_failures and report.tally.wins > 0


def test_a_table_refuses_a_ruleset_with_no_payment_clause(tmp_path) -> None:  # noqa: ANN001 - pytest's path
    path = tmp_path / "unpaid.mjr"
    path.write_text('ruleset t.unpaid "Unpaid" {\n    tiles suits(m p s)\n    seats 5\n'
                    '    fan chicken "Chicken" 1 : standard\n}\n', encoding="utf-8")
    with pytest.raises(MjrError, match=r"t.unpaid has no 'pay' clause"):
        simulate(path, 10, workers=1)


def test_a_session_takes_one_bot_per_seat(three: mjr.Ruleset) -> None:
    with pytest.raises(MjrError, match="4 bots for a table of 3: give one bot per seat"):
        Session(three).play([GreedyBot(seat) for seat in range(4)], 1)


def test_mjr_diff_shows_the_seats_and_the_kinds_left_out(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["diff", "japan.riichi", "japan.riichi", "-b", "players=3"]) in (0, 1)
    out = capsys.readouterr().out
    assert "without(2m 3m 4m 5m 6m 7m 8m)" in out
    assert any(line.split()[:3] == ["seats", "4", "3"] for line in out.splitlines())


def test_stakes_name_only_seated_players(three: mjr.Ruleset) -> None:
    from mjr.ruleset.result import Stakes

    result = three.evaluate(f"{WIN} self_draw")
    assert three.settle(result, Stakes(won=frozenset({"S"}))).totals() == {"E": 1, "S": 0, "W": -1}
    for stranger in ("N", "X", "SW", "", 1):  # (a seat is named, not a part of the names, nor numbered from 0)
        with pytest.raises(MjrError, match=f"Stakes.won names {stranger!r}, which is no seat of a table of 3"):
            three.settle(result, Stakes(won=frozenset({stranger})))  # type: ignore[arg-type]


# -- five to eight: seats past the winds, and players no letter names -----------------

FIVE = "123m 456m 789m 5p win 5p"


def test_seats_past_the_fourth_are_named_by_number(five: mjr.Ruleset) -> None:
    drawn = five.evaluate(f"{FIVE} self_draw seat 5")
    assert drawn.amounts == (("E", 1), ("S", 1), ("W", 1), ("N", 1))
    assert five.settle(drawn).totals() == {"E": -1, "S": -1, "W": -1, "N": -1, "5": 4}
    # at a table of five: R the next seat, L four on, and 2 and 3 on by number
    for source, payer in (("R", "W"), ("2", "N"), ("3", "5"), ("L", "E")):
        fed = five.evaluate(f"{FIVE} from {source} seat S")
        assert five.settle(fed).totals()[payer] == -1, source
        assert fed.hand is not None and five.read_hand(format_hand(fed.hand)) == fed.hand
    assert five.evaluate(f"{FIVE} from R seat 5 dealer 5").amounts[0] == ("E", 1)


def test_a_settlement_of_eight_names_every_seat(eight: mjr.Ruleset) -> None:
    result = eight.evaluate("[222p<3] 3m win 3m self_draw seat 8")
    assert [seat for seat, _ in result.amounts] == list("ESWN567")
    totals = eight.settle(result).totals()
    assert totals == {"E": -2, "S": -2, "W": -2, "N": -2, "5": -2, "6": -2, "7": -2, "8": 14}
    # a meld's source at eight: R, 2, 3, O (four on), 5, 6, L
    liable = eight.evaluate("[222p<6] 3m win 3m from 5 seat 6")
    assert eight.settle(liable).totals()["W"] == -2


@pytest.mark.parametrize(("hand", "why"), [
    ("123m 456m 789m 234p 5p win 5p from 2", "the player 2 steps on is O there: write O for the discarder"),
    ("123m 456m 789m 234p 5p win 5p seat 5", r"nobody sits at 5 \(seat 5\)"),
    ("123m 456m [555s<3] 234p 5p win 5p", r"the player 3 steps on is L there: write L for the meld \[555s<3\]"),
])
def test_a_step_by_number_where_the_table_has_a_letter_is_refused(sichuan: mjr.Ruleset, hand: str,
                                                                 why: str) -> None:
    with pytest.raises(HandError, match=why):
        sichuan.evaluate(hand)


def test_a_hand_of_five_refuses_a_seat_or_step_past_the_table(five: mjr.Ruleset) -> None:
    for words, why in (("seat 6", r"sichuan.xuezhan seats 5 players \(E S W N 5\): nobody sits at 6"),
                       ("from 4", r"the player 4 steps on is L there: write L for the discarder"),
                       ("from 6", r"nobody sits 6 steps on, so the discarder cannot be there; use R, 2, 3 or L"),
                       ("from O", r"nobody sits opposite \(O\)"),
                       ("from R winners 5", "at most 4 win on one discard, not 5")):
        with pytest.raises(HandError, match=why):
            five.evaluate(f"{FIVE} {words}")


def test_a_batch_of_five_reads_the_sources_a_record_codes(five: mjr.Ruleset) -> None:
    """Every source of a table of five in the context and in a meld, through a
    record and back: a batch scores each as a single call does, and a code past
    the table (or a meld byte with both halves of a code beyond SOURCES) is refused."""
    texts = [f"[222m<{source}] 123m 456m 5p win 5p from {source}" for source in ("R", "2", "3", "L")]
    texts += [f"{FIVE} self_draw seat {seat} dealer 5" for seat in "ESWN5"]
    hands = [five.read_hand(text) for text in texts]
    blob = b"".join(five.records.record(hand) for hand in hands)
    size = five.records.size
    assert [five.records.hand(blob[i * size:(i + 1) * size]) for i in range(len(hands))] == hands
    records = np.frombuffer(blob, dtype=five.record_dtype()).copy()
    scores = five.evaluate_batch(records)
    assert list(scores.points) == [five.evaluate(hand).points for hand in hands]
    assert list(records["melds"][:4, 0, 0]) == [2, 2 | 4, 2 | 4, 2]  # a pung; codes 4 and 5 put a 4 there
    assert list(records["melds"][:4, 0, 2] >> 2) == [1, 0, 1, 3]  # R, (4 =) 2, (5 =) 3, L
    bad = records[:2].copy()
    bad["melds"][0, 0, 0] = 2 | 8 | 4  # code 12 | 1: past the sources
    bad["source"][1] = 9
    assert list(five.evaluate_batch(bad).status) == [16, 16]


def test_a_session_of_six_replays() -> None:
    six = load_on("sichuan.xuezhan", "compiled", players=6)
    log = io.StringIO()
    session = Session(six, seed=5, log=log)
    ledger = session.play([GreedyBot(seat) for seat in range(6)], 4)
    assert len(ledger) == 6 and sum(ledger) == 0
    assert [player.held for player in Table(six, seed=1).players] == [7] * 6
    report = replay(log.getvalue().splitlines())
    assert report.hands == 4 and list(report.ledger) == ledger


def test_mjr_play_seats_seven(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["play", "-r", "sichuan.xuezhan", "-o", "players=7", "--seats", ",".join(["greedy"] * 7)])
    assert status == 0
    out = capsys.readouterr().out
    assert "ledger: seat 0" in out and "seat 6" in out


def test_an_example_naming_a_seat_past_eight_is_a_syntax_error(tmp_path) -> None:  # noqa: ANN001 - pytest's path
    path = tmp_path / "nine.mjr"
    path.write_text('ruleset t.nine "Nine" {\n    tiles suits(m p s)\n    fan chicken "Chicken" 1 : standard\n'
                    '    pay self_drawn "Self-drawn" when self_draw : each opponent pays points\n'
                    '    example "9 pays" {\n        hand "123m 456m 789m 234p 5p win 5p self_draw"\n'
                    '        expect payments E +3 9 -1\n    }\n}\n', encoding="utf-8")
    with pytest.raises(MjrError, match=r"nine.mjr:7:30: unexpected '9'; expected a seat 5-8, a tile"):
        mjr.load(path)
