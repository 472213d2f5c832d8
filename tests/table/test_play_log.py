"""Event logs read strictly: a log names a ruleset id (never a file), is parsed
without duplicate keys, odd numbers or bytes that are not UTF-8, is compared type
for type, frames a session so a cut between hands shows, and is read a line at a
time, stopping at the first wrong one."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import mjr
from mjr import cli
from mjr.compiler.build import bundled_dir
from mjr.errors import LogError
from mjr.table.bots import GreedyBot, play_out
from mjr.table.log import MAX_LINE, replay
from mjr.table.referee import Table
from mjr.table.session import Session


def _bots() -> list[GreedyBot]:
    return [GreedyBot(seat) for seat in range(4)]


@pytest.fixture(scope="module")
def hand_log(jipinghu: mjr.Ruleset) -> list[str]:
    """The log of one hand (seed 11: a win, so the end line has payments)."""
    log = io.StringIO()
    play_out(Table(jipinghu, seed=11, log=log), _bots())
    lines = log.getvalue().splitlines()
    assert json.loads(lines[-1])["end"]["payments"]
    return lines


@pytest.fixture(scope="module")
def session_log(jipinghu: mjr.Ruleset) -> tuple[list[str], list[int]]:
    log = io.StringIO()
    session = Session(jipinghu, seed=9, log=log)
    session.play(_bots(), hands=3)
    return log.getvalue().splitlines(), session.ledger


def _with_header(lines: list[str], **changes: object) -> list[str]:
    record = json.loads(lines[0])
    record["hand"].update(changes)
    return [json.dumps(record), *lines[1:]]


def _refused(lines: object, match: str, ruleset_name: str | None = None) -> str:
    with pytest.raises(LogError, match=match) as caught:
        replay(lines, ruleset_name)  # type: ignore[arg-type]
    return str(caught.value)


# -- the ruleset a log names ------------------------------------------------------------


def test_a_logs_ruleset_is_an_id_and_never_opened_as_a_file(hand_log: list[str], tmp_path: Path) -> None:
    secret = tmp_path / "secret.mjr"
    secret.write_text("TOP SECRET: the first line of a private file\n", encoding="utf-8")
    rules = tmp_path / "house.mjr"
    rules.write_text((bundled_dir() / "guangdong.jipinghu.mjr").read_text(encoding="utf-8"), encoding="utf-8")
    for path in (secret, rules):
        message = _refused(_with_header(hand_log, ruleset=str(path)), "line 1: .* not a bundled id")
        assert "SECRET" not in message and "-r FILE" in message


def test_a_file_given_to_replay_must_hold_the_logs_ruleset(hand_log: list[str], tmp_path: Path) -> None:
    text = (bundled_dir() / "guangdong.jipinghu.mjr").read_text(encoding="utf-8")
    same = tmp_path / "same.mjr"
    same.write_text(text, encoding="utf-8")
    assert replay(hand_log, str(same)).hands == 1
    other = tmp_path / "other.mjr"
    other.write_text(text.replace("ruleset guangdong.jipinghu ", "ruleset house.rules ", 1), encoding="utf-8")
    _refused(hand_log, "line 1: the log is of ruleset 'guangdong.jipinghu', not 'house.rules'", str(other))


def test_mjr_replay_of_a_log_naming_a_file_shows_nothing_of_it(capsys, monkeypatch, hand_log: list[str],
                                                                tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("password=hunter2\n", encoding="utf-8")
    log = tmp_path / "game.log"
    log.write_text("\n".join(_with_header(hand_log, ruleset=str(secret))) + "\n", encoding="utf-8")
    code = cli.main(["replay", str(log)])
    out, err = capsys.readouterr()
    assert code == 1 and "hunter2" not in out + err and "line 1: " in err


# -- strict parsing, compared type for type ---------------------------------------------


def test_a_payment_that_says_true_for_seat_1_is_refused(hand_log: list[str]) -> None:
    end = json.loads(hand_log[-1])
    payment, seat = next((p, key) for p in end["end"]["payments"] for key in ("payer", "payee") if p[key] in (0, 1))
    payment[seat] = bool(payment[seat])
    _refused([*hand_log[:-1], json.dumps(end)], f"line {len(hand_log)}: the log's payments is ")


def test_a_number_written_as_a_float_is_not_the_integer(hand_log: list[str]) -> None:
    record = json.loads(hand_log[-1])
    record["end"]["payments"][0]["amount"] = float(record["end"]["payments"][0]["amount"])
    _refused([*hand_log[:-1], json.dumps(record)], "the log's payments is ")


def test_a_duplicate_key_is_refused_wherever_it_is(hand_log: list[str]) -> None:
    """The first copy of a key would be forged, the second true: a reader that keeps
    the last sees nothing wrong."""
    forged = hand_log[-1].replace('{"end": {', '{"end": {"payments": [], ', 1)
    _refused([*hand_log[:-1], forged], f"line {len(hand_log)}: the key 'payments' appears twice")
    event = hand_log[1].replace('{"seat": 0', '{"seat": 3, "seat": 0', 1)
    _refused([hand_log[0], event, *hand_log[2:]], "line 2: the key 'seat' appears twice")


def test_keys_a_hand_or_end_line_does_not_have_are_refused(hand_log: list[str]) -> None:
    end = json.loads(hand_log[-1])
    _refused([*hand_log[:-1], json.dumps({**end, "bonus": 5})],
             f"line {len(hand_log)}: the 'end' line holds only its 'end', not also 'bonus'")
    end["end"]["bonus"] = {"payer": 1, "payee": 0, "amount": 100}
    _refused([*hand_log[:-1], json.dumps(end)], "the 'end' line has no key 'bonus'")
    _refused(_with_header(hand_log, comment="x"), "line 1: the hand line of version 2 has no key 'comment'")


# -- framing: a session carries its length ----------------------------------------------


def test_a_session_log_replays_to_its_ledger_and_closes(session_log: tuple[list[str], list[int]]) -> None:
    lines, ledger = session_log
    report = replay(lines)
    assert (report.hands, list(report.ledger)) == (3, ledger)
    assert json.loads(lines[-1]) == {"session": {"hands": 3, "ledger": ledger}}


def test_a_session_log_cut_between_hands_is_refused(session_log: tuple[list[str], list[int]]) -> None:
    lines, _ = session_log
    ends = [index for index, line in enumerate(lines) if line.startswith('{"end"')]
    for end in ends:  # cut after each hand's end line: the closing line is missing
        _refused(lines[:end + 1], "no closing 'session' line .*: it is truncated")
    _refused(lines[:-1], "truncated")


def test_a_session_log_missing_its_first_or_a_middle_hand_is_refused(
        session_log: tuple[list[str], list[int]]) -> None:
    lines, _ = session_log
    starts = [index for index, line in enumerate(lines) if line.startswith('{"hand"')]
    _refused(lines[starts[1]:], "line 1: the session's hand 0 is numbered 1: a hand of the session is missing")
    _refused(lines[:starts[1]] + lines[starts[2]:], f"line {starts[1] + 1}: the session's hand 1 is numbered 2")
    _refused(lines[:starts[2]] + lines[starts[1]:], f"line {starts[2] + 1}: the session's hand 2 is numbered 1: "
             "a hand of the session is missing or repeated")


def test_a_sessions_hands_are_played_under_one_ruleset_and_stake(
        session_log: tuple[list[str], list[int]]) -> None:
    lines, _ = session_log
    start = next(index for index, line in enumerate(lines) if index and line.startswith('{"hand"'))
    header = json.loads(lines[start])
    header["hand"]["stake"] = 2
    _refused([*lines[:start], json.dumps(header), *lines[start + 1:]],
             f"line {start + 1}: the hand is played under .*, the session's first hand under ")


def test_a_session_whose_closing_line_differs_is_refused(session_log: tuple[list[str], list[int]]) -> None:
    lines, ledger = session_log
    forged = json.dumps({"session": {"hands": 3, "ledger": [ledger[1], ledger[0], *ledger[2:]]}})
    if ledger[0] != ledger[1]:
        _refused([*lines[:-1], forged], f"line {len(lines)}: the log's ledger is ")
    _refused([*lines[:-1], json.dumps({"session": {"hands": 4, "ledger": ledger}})], "the log's hands is 4")
    _refused([*lines, lines[1]], f"line {len(lines) + 1}: the log goes on after its session's closing line")


def test_a_log_of_one_hand_holds_one_hand(hand_log: list[str]) -> None:
    """A hand's own log (a table's) has no closing line: its end line ends it, and
    nothing may follow; a version 1 log of one hand still replays."""
    _refused([*hand_log, *hand_log], f"line {len(hand_log) + 1}: the log goes on after its hand's end line")
    assert replay(_with_header(hand_log, version=1)).hands == 1
    _refused(_with_header(hand_log, version=1, session_hand=0), "line 1: the hand line of version 1 has no key")


def test_a_finished_session_deals_no_more_and_mjr_play_closes_its_log(capsys, monkeypatch, jipinghu: mjr.Ruleset,
                                                                      tmp_path: Path) -> None:
    session = Session(jipinghu, seed=1)
    table = session.new_hand()
    with pytest.raises(mjr.MjrError, match="close it before dealing the next"):
        session.new_hand()
    with pytest.raises(mjr.MjrError, match="a session finishes between hands"):
        session.finish()
    session.close(play_out(table, _bots()))
    session.finish()
    with pytest.raises(mjr.MjrError, match="the session is finished"):
        session.new_hand()
    log = tmp_path / "game.log"
    assert cli.main(["play", "-r", "guangdong.jipinghu", "--seats", "greedy,greedy,greedy,greedy", "--hands", "2",
                     "--log", str(log)]) == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[-1])["session"]["hands"] == 2
    log.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["replay", str(log)]) == 1
    assert "it is truncated" in capsys.readouterr().err


# -- numbers, text and sizes ------------------------------------------------------------


def test_a_huge_integer_or_a_number_json_does_not_have_is_refused_with_its_line(hand_log: list[str]) -> None:
    header = hand_log[0].replace('"stake": 1', '"stake": 1' + "0" * 5000, 1)
    _refused([header, *hand_log[1:]], "line 1: a number of 5001 characters")
    event = hand_log[1].replace('"seat": 0', '"seat": ' + "1" * 5000, 1)
    _refused([hand_log[0], event, *hand_log[2:]], "line 2: a number of 5000 characters")
    for constant in ("Infinity", "-Infinity", "NaN"):
        line = hand_log[0].replace('"stake": 1', f'"stake": {constant}', 1)
        _refused([line, *hand_log[1:]], f"line 1: {constant} is not a number a log holds")
    _refused([hand_log[0].replace('"seed": 11', '"seed": 1e400', 1), *hand_log[1:]], "line 1: the number 1e400")
    _refused([*hand_log[:3], "[" * 100_000], "line 4: nested too deep")


@pytest.mark.parametrize(("field", "value", "problem"), [
    ("stake", True, "the stake is a whole number, 1 or more, not true"),
    ("stake", 2.5, "the stake is a whole number, 1 or more, not 2.5"),
    ("stake", 0, "the stake is a whole number, 1 or more, not 0"),
    ("seed", "11", 'the seed is a whole number, not "11"'),
    ("seating", {"dealer": 8, "round": 0, "streak": 0, "previous_winner": None}, "the seating's dealer is 8"),
    ("seating", {"dealer": 7, "round": 0, "streak": 0, "previous_winner": None},
     r"Seating.dealer is seat 7, but the table seats 4 \(seats 0-3\)"),
    ("seating", {"dealer": 0}, "the seating is an object of dealer, round, streak, previous_winner"),
    ("wall", "1m 2m", "the wall is a list of tile names"),
    ("options", ["x"], 'the hand\'s options are an object, not \\["x"\\]'),
    ("options", {"name": 1}, "guangdong.jipinghu has no option 'name' \\(its options: "),
    ("options", {"backend": "compiled"}, "guangdong.jipinghu has no option 'backend'"),
])
def test_the_hand_lines_fields_are_checked_before_a_table_is_built(hand_log: list[str], field: str,
                                                                   value: object, problem: str) -> None:
    _refused(_with_header(hand_log, **{field: value}), f"line 1: {problem}")


def test_a_log_that_is_not_utf8_is_refused_naming_the_line(capsys, hand_log: list[str], tmp_path: Path) -> None:
    data = "\n".join(hand_log).encode("utf-8").split(b"\n")
    data[2] = data[2].replace(b'"seat"', b'"s\xe9at"', 1)
    log = tmp_path / "game.log"
    log.write_bytes(b"\n".join(data) + b"\n")
    assert cli.main(["replay", str(log)]) == 1
    assert "line 3: not UTF-8 (byte 0xe9 at column 4)" in capsys.readouterr().err
    with open(log, encoding="utf-8") as text:  # a stream decoded by its reader: the place is as near as it knows
        _refused(text, "the log is not UTF-8 text")


def test_a_mistake_on_line_2_stops_the_replay_there(hand_log: list[str]) -> None:
    taken: list[int] = []

    def lines() -> Iterator[str]:
        for number, line in enumerate([hand_log[0], hand_log[1].replace('"seat": 0', '"seat": 2'),
                                       *hand_log[2:]], 1):
            taken.append(number)
            yield line
        raise AssertionError("the replay read the whole log")

    _refused(lines(), "line 2: seat 2 may not act now")
    assert taken == [1, 2]


class _Zeros(io.RawIOBase):
    """An endless stream of zero bytes (as /dev/zero) that fails past 4 MiB read."""

    def __init__(self) -> None:
        self.read_so_far = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        self.read_so_far += len(buffer)
        if self.read_so_far > 4 * MAX_LINE:
            raise AssertionError("the replay went on reading an endless line")
        buffer[:] = bytes(len(buffer))
        return len(buffer)


def test_an_endless_line_is_refused_without_reading_it_all(capsys, hand_log: list[str], tmp_path: Path) -> None:
    _refused(io.BufferedReader(_Zeros()), f"line 1: longer than {MAX_LINE} bytes")
    log = tmp_path / "long.log"
    log.write_text("\n".join([*hand_log[:1], "x" * (MAX_LINE + 1), *hand_log[1:]]) + "\n", encoding="utf-8")
    assert cli.main(["replay", str(log)]) == 1
    assert f"line 2: longer than {MAX_LINE} bytes" in capsys.readouterr().err
    _refused([hand_log[0], " " * (MAX_LINE + 1)], f"line 2: longer than {MAX_LINE} characters")


def test_a_whole_log_in_one_text_or_bytes_object_replays(session_log: tuple[list[str], list[int]]) -> None:
    """Not a character (or a byte) a line: ``open(log).read()`` replays as the file does."""
    lines, ledger = session_log
    whole = "\n".join(lines) + "\n"
    for log in (whole, whole.encode("utf-8")):
        assert list(replay(log).ledger) == ledger


@pytest.mark.parametrize(("log", "match"), [
    (None, "a log is its lines .* not NoneType"),
    (7, "a log is its lines .* not int"),
    ([{"hand": {}}], "line 1: a line of a log is text or bytes, not dict"),
    ([1, 2], "line 1: a line of a log is text or bytes, not int"),
])
def test_what_is_no_log_is_refused_as_one(log: object, match: str) -> None:
    _refused(log, match)


@pytest.mark.parametrize("value", ["on", "true", "yes"])
def test_an_option_written_otherwise_than_a_table_writes_it_is_refused(hand_log: list[str], value: str) -> None:
    """Type for type, as the stake and seed are: the rules take "on" for a flag that is on, a log does not
    (a table writes true)."""
    assert json.loads(hand_log[0])["hand"]["options"] == {"multiple_winners": True}
    _refused(_with_header(hand_log, options={"multiple_winners": value}),
             f'line 1: the option multiple_winners is "{value}", not true as a table writes it')
