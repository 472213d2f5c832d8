"""``mjr play`` and ``mjr replay`` from the command line: bots and a person at the
table, the log they write, its replay, and the mistakes a person or a log can make."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from mjr import cli


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str,
        typed: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


BOTS = ("--seats", "greedy,greedy,random,greedy")


def test_bots_play_a_session_whose_log_replays(capsys, monkeypatch, tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    code, out, _ = run(capsys, monkeypatch, "play", "-r", "changsha", *BOTS, "--hands", "3", "--seed", "4",
                       "--log", str(log))
    assert code == 0 and out.count("== hand ") == 3
    ledger = out.splitlines()[-1]
    assert ledger.startswith("ledger: seat 0 ")
    code, out, _ = run(capsys, monkeypatch, "replay", str(log))
    assert code == 0 and "3 hands" in out and out.splitlines()[-1] == ledger


def test_a_changed_log_is_refused_naming_its_line(capsys, monkeypatch, tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    run(capsys, monkeypatch, "play", "-r", "guangdong.jipinghu", *BOTS, "--log", str(log))
    lines = log.read_text(encoding="utf-8").splitlines()
    index, event = next((i, json.loads(line)) for i, line in enumerate(lines) if '"discard ' in line)
    event["seat"] = (event["seat"] + 1) % 4
    lines[index] = json.dumps(event)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run(capsys, monkeypatch, "replay", str(log))
    assert code == 1 and err.startswith(f"mjr: replay: {log}: line {index + 1}: seat ")


def test_a_person_is_shown_the_choices_and_told_a_wrong_one(capsys, monkeypatch) -> None:
    """The dealer draws by itself (its one choice), then is asked: a draw is not
    open, 9z is no tile, 5m (held, in the seeded deal) is discarded."""
    code, out, err = run(capsys, monkeypatch, "play", "-r", "guangdong.jipinghu", typed="draw\nkong 9z\ndiscard 5m\n")
    assert "  may: discard 2m | discard 5m | " in out
    assert ">   not now: choose one of: discard 2m, discard 5m, " in out
    assert ">   unknown tile '9z' (tiles are written 1m-9m" in out
    assert "  seat 0: discard 5m\n" in out
    assert code == 2 and "the input ended before the hand did" in err  # the typed script runs out first


def test_a_person_may_declare_a_false_win_where_the_rules_price_one(capsys, monkeypatch) -> None:
    """Taiwan's 诈胡: a win the rules refuse, typed by a person asked to act, is paid
    for (30 to each opponent) and play goes on."""
    code, out, err = run(capsys, monkeypatch, "play", "-r", "taiwan", "--seats", "you,greedy,greedy,greedy",
                         typed="win\n")
    assert "  seat 0: win (a false win: the rules refuse it)" in out
    assert code == 2 and "the input ended before the hand did" in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a device that is always full)")
def test_a_log_that_cannot_be_written_stops_play_saying_so_in_one_line(capsys, monkeypatch) -> None:
    """/dev/full refuses every write with ENOSPC, as a full disk does: one line names
    the log and says it is cut short, and the exit status is 1 (no traceback)."""
    code, _, err = run(capsys, monkeypatch, "play", "-r", "guangdong.jipinghu", *BOTS, "--hands", "2",
                       "--log", "/dev/full")
    assert code == 1
    assert err.splitlines() == [line for line in err.splitlines() if "warning" in line] + [
        "mjr: play: cannot write the log /dev/full: No space left on device; play stopped in hand 1, and the log "
        "is cut short there (incomplete: 'mjr replay' refuses it)"]


@pytest.mark.parametrize(("words", "reason"), [
    (("-r", "guangdong.jipinghu", "--seed", str(2**64)), "seed must be"),
    (("-r", "japan.riichi"), "japan.riichi has red fives"),
])
def test_a_refused_play_leaves_an_old_log_as_it_was(capsys, monkeypatch, tmp_path: Path, words: tuple[str, ...],
                                                    reason: str) -> None:
    """What the session refuses is refused before the log is opened, so an old log of
    that name is not emptied by a command that plays nothing."""
    log = tmp_path / "game.log"
    log.write_text("an old log\n", encoding="utf-8")
    code, _, err = run(capsys, monkeypatch, "play", *words, *BOTS, "--log", str(log))
    assert code == 2 and reason in err
    assert log.read_text(encoding="utf-8") == "an old log\n"


def test_a_log_cut_short_holds_whole_lines_of_the_hand_so_far(tmp_path: Path) -> None:
    """A table whose log fails mid-hand raises LogWriteError once, keeps the action,
    and writes no more: the log is the hand's beginning, each line once, and replay
    calls it truncated."""
    import mjr
    from mjr.errors import LogError, LogWriteError
    from mjr.table.bots import GreedyBot
    from mjr.table.log import replay
    from mjr.table.referee import Table

    class FillsUp(io.StringIO):
        """A stream that refuses writes after ``room`` characters, as a disk that fills up."""

        room = 1500  # the hand line (its wall) and a few events

        def write(self, text: str) -> int:
            if self.tell() + len(text) > self.room:
                raise OSError(28, "No space left on device")
            return super().write(text)

    log = FillsUp()
    table = Table(mjr.load("guangdong.jipinghu"), seed=2, log=log)
    bots = [GreedyBot(seat) for seat in range(4)]
    failures = 0
    while not table.over:
        seat, actions = min(table.legal().items())
        try:
            table.act(bots[seat](table, seat, actions))
        except LogWriteError as error:
            failures += 1
            assert "No space left on device" in str(error) and isinstance(error.__cause__, OSError)
    assert failures == 1
    lines = log.getvalue().splitlines()
    assert 1 < len(lines) < len(table.events) + 2
    assert [json.loads(line) for line in lines[1:]] == table.events[:len(lines) - 1]
    with pytest.raises(LogError, match="truncated"):
        replay(lines)


def test_replay_loads_the_logs_ruleset_on_the_backend_asked_and_says_its_warnings_as_mjr_does(
        capsys, monkeypatch, tmp_path: Path) -> None:
    import warnings

    from mjr.table import log as play_log

    log = tmp_path / "game.log"
    run(capsys, monkeypatch, "play", "-r", "guangdong.jipinghu", *BOTS, "--log", str(log))
    asked = []
    real_load = play_log.load

    def load(name, backend="auto", **options):
        asked.append(backend)
        warnings.warn("mjr: a warning of the load", UserWarning, stacklevel=2)
        return real_load(name, backend, **options)

    monkeypatch.setattr(play_log, "load", load)
    code, out, err = run(capsys, monkeypatch, "replay", "--backend", "python", str(log))
    assert code == 0 and "every action and payment agrees" in out
    assert asked and set(asked) == {"python"}
    assert err.splitlines() == ["mjr: warning: a warning of the load"] * len(asked)
