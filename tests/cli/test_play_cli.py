"""``mjr play`` and ``mjr replay`` from the command line: bots and a person at the
table, the log they write, its replay, and the mistakes a person or a log can make."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest

import mjr
from mjr import cli
from mjr.cli import play_screen as screen
from mjr.cli.output import counted
from mjr.errors import clip_repr
from mjr.hand.model import Meld
from mjr.table.actions import KINDS


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
    code, out, _ = run(capsys, monkeypatch, "replay", str(log), "--json")
    report = json.loads(out)
    assert code == 0 and report["hands"] == 3
    assert report["ledger"] == [int(total) for total in re.findall(r"seat \d+ ([+-]?\d+)", ledger)]
    code, out, _ = run(capsys, monkeypatch, "play", "-r", "changsha", *BOTS, "--json")
    assert code == 2 and "takes no --json" in json.loads(out)["error"]


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
    open, 4m is not held, 5m (held, in the seeded deal) is discarded, typed alone."""
    code, out, err = run(capsys, monkeypatch, "play", "-r", "guangdong.jipinghu", typed="draw\ndiscard 4m\n5m\n")
    assert "seat 0 (E, you): 25778m 288p 246s EE P  drew 2p\n  you may: discard 2m 5m 7m 8m 2p 8p 2s 4s 6s E P\n" in out
    assert ">   you cannot draw now: you may discard 2m 5m 7m 8m 2p 8p 2s 4s 6s E P\n" in out
    assert ">   you hold no 4m: you may discard 2m 5m 7m 8m 2p 8p 2s 4s 6s E P\n" in out
    assert "  seat 0 discards 5m\n" in out
    # the typed script runs out first: the game ends saying so, as a person's Ctrl-D ends it
    assert code == 0 and err == ""
    assert out.endswith("> \nend of input: the game ends in hand 1 of 1, left unfinished\n")


def test_a_person_may_declare_a_false_win_where_the_rules_price_one(capsys, monkeypatch) -> None:
    """Taiwan's 诈胡: a win the rules refuse, typed by a person asked to act, is paid
    for (30 to each opponent) and play goes on."""
    code, out, err = run(capsys, monkeypatch, "play", "-r", "taiwan", "--seats", "you,greedy,greedy,greedy",
                         typed="win\n")
    assert "  seat 0 declares a win the rules refuse: a false win, paid for\n" in out
    assert code == 0 and "end of input: the game ends in hand 1 of 1" in out


WATCH = ("--seats", "greedy,greedy,greedy,greedy")
#: A tile named the log's way, never the screen's: an honour as a ``z`` digit.
Z_NAME = re.compile(r"[0-9]z\b")


@pytest.mark.parametrize("ruleset", ["hongkong", "mcr", "fuzhou", "guangdong.tuidaohu.t2"])
def test_the_screen_writes_honours_by_letter(capsys, monkeypatch, ruleset: str) -> None:
    """Hands, discards, melds, events and wins: honours by letter (E S W N P F C),
    where the log writes 1z-7z; flowers, winds set aside and ghosts too."""
    code, out, _ = run(capsys, monkeypatch, "play", "-r", ruleset, *WATCH, "--seed", "2")
    assert code == 0
    assert not Z_NAME.findall(out), Z_NAME.findall(out)[:5]
    assert re.search(r" discards [ESWNPFC]\n", out)


def test_the_screen_shows_the_table_and_the_winning_hand(capsys, monkeypatch) -> None:
    """Each seat's discards and melds and the tiles left in the wall; at the end the
    winning hand with its fans and points, the payments and the net."""
    code, out, _ = run(capsys, monkeypatch, "play", "-r", "guangdong.jipinghu", *WATCH, "--seed", "8")
    assert code == 0
    end = out[out.index("-- the hand is over\n"):]
    assert end.splitlines()[1:7] == [
        "  36 tiles left in the wall",
        "              discards                           melds",
        "  seat 0 (E)  8m S 5p 8m P 8m 6s S 1s 4m 7s 4m   [222p<L]",
        "  seat 1 (S)  3p 8m 6p W 2m 9s 4s 8p 1m 3m N 1m  [FFF<L] [CCC<O]",
        "  seat 2 (W)  E 9p 4p 1p 8s 9s 1m 3p 5m P 6p N   [456s<L] [678p<L]",
        "  seat 3 (N)  S 2s 9p 7m 2s 9p F 1s 8s E 3s      [345p<L] [234m<L]"]
    assert end.splitlines()[7:] == [
        "seat 3 (N) wins by self draw on P: 2 points",
        "  hand  666m 567p P [345p<L] [234m<L] win P",
        "  fans  0  鸡胡  chicken",
        "        1  自摸  self_drawn (bonus)",
        "  seat 0 pays seat 3 2 points  (self_drawn 自摸)",
        "  seat 1 pays seat 3 2 points  (self_drawn 自摸)",
        "  seat 2 pays seat 3 2 points  (self_drawn 自摸)",
        "net: seat 0 -2  seat 1 -2  seat 2 -2  seat 3 +6",
        "ledger: seat 0 -2  seat 1 -2  seat 2 -2  seat 3 +6"]


def test_a_hand_nobody_wins_is_called_a_draw(capsys, monkeypatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "play", "-r", "hongkong", *WATCH, "--seed", "0")
    assert code == 0
    assert "  0 tiles left in the wall\n" in out
    assert "\nthe hand is a draw: the wall ran out and nobody won\n  no payments\n" in out


def test_counts_agree_with_their_words(capsys, monkeypatch, tmp_path: Path) -> None:
    """1 point, 2 points: no "1 points", "1 hands" or "1 tiles" anywhere."""
    assert [counted(1, "point"), counted(2, "point"), counted(0, "tile")] == ["1 point", "2 points", "0 tiles"]
    log = tmp_path / "game.log"
    code, out, _ = run(capsys, monkeypatch, "play", "-r", "guangdong.jipinghu", *WATCH, "--seed", "0",
                       "--log", str(log))
    assert code == 0 and "wins by discard on 5p from seat 0: 1 point\n" in out
    code, replayed, _ = run(capsys, monkeypatch, "replay", str(log))
    assert code == 0 and ": 1 hand, " in replayed
    assert not re.search(r"\b1 (points|tiles|hands|events)\b", out + replayed)


def test_help_lists_every_command_with_an_example(capsys, monkeypatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "play", "-r", "guangdong.jipinghu", typed="help\n")
    listed = out[out.index("  commands (one a line"):].splitlines()[1:len(screen.COMMANDS) + 1]
    examples = [line.split("  ")[2] for line in listed]
    assert examples == [example for example, _ in screen.COMMANDS]
    assert {word.split()[0] for word in examples} >= {*KINDS, "help", "quit"}
    assert code == 0


def test_a_tile_alone_discards_it_in_either_case(capsys, monkeypatch) -> None:
    """``5M`` is 5m, ``e`` is E; a kind alone takes the one action of that kind open."""
    code, out, _ = run(capsys, monkeypatch, "play", "-r", "guangdong.jipinghu", typed="5M\nchow\ne\n")
    assert "  seat 0 discards 5m\n" in out
    assert "  seat 3 discarded 6m\n  you may: chow 678m, pass\n>   seat 0 calls chow 678m on 6m\n" in out
    assert "seat 0 (E, you): 27m 288p 246s EE P  melds [678m<L]\n" in out
    assert "  seat 0 discards E\n" in out
    assert code == 0


BAD_LINES = {
    "": "type what to do (help lists the commands)",
    "foo": "unknown command 'foo': help lists the commands",
    "disacrd 5m": "unknown command 'disacrd' (did you mean 'discard'?): help lists the commands",
    "discard": "which discard? type one of: discard 2m 5m 7m 8m 2p 8p 2s 4s 6s E P",
    "discard 9z": "unknown tile '9z' (tiles are written 1m-9m, 1p-9p, 1s-9s, E S W N P F C, 1f-8f, J for a joker, "
                  "0m 0p 0s for a red five)",
    "discard 5m 7m": "'discard 5m 7m': 'discard' takes one tile",
    "5m 7m": "'5m 7m': a tile alone discards it, one tile at a time (e.g. '5m')",
    "discard 3f": "'discard 3f': a flower is set aside as it is drawn, never discarded",
    "discard C": "you hold no C: you may discard 2m 5m 7m 8m 2p 8p 2s 4s 6s E P",
    "pung": "you cannot pung now: you may discard 2m 5m 7m 8m 2p 8p 2s 4s 6s E P",
    "win": "you cannot win now: you may discard 2m 5m 7m 8m 2p 8p 2s 4s 6s E P",
    "\x1b[2J": "unknown command '\\x1b[2J': help lists the commands",
    "?": "unknown command '?': help lists the commands",
    "9" * 500: f"unknown tile {clip_repr('9' * 500)} (tiles are written 1m-9m, 1p-9p, 1s-9s, E S W N P F C, "
               "1f-8f, J for a joker, 0m 0p 0s for a red five)",
}


def test_every_bad_line_gets_one_line_saying_what_was_wrong(capsys, monkeypatch) -> None:
    """Each line the prompt cannot take: one line naming the mistake, then the
    prompt again, and the game goes on."""
    typed = "".join(line + "\n" for line in BAD_LINES) + "quit\n"
    code, out, err = run(capsys, monkeypatch, "play", "-r", "guangdong.jipinghu", "--log", os.devnull, typed=typed)
    answers = out.split("\n> ")[1:]
    assert answers[:len(BAD_LINES)] == [f"  {why}" for why in BAD_LINES.values()]
    assert answers[len(BAD_LINES)] == "\nyou quit: the game ends in hand 1 of 1, left unfinished\nthe log " \
        f"{os.devnull} stops there: unfinished, 'mjr replay' refuses it\n"
    assert code == 0 and err == ""


def test_the_screen_writes_hands_and_melds_the_notation_reads_back() -> None:
    assert screen.tiles((0, 0, 4, 27, 27, 31, 33), jokers=1) == "115m EE P C J"
    assert screen.meld(Meld("pung", 31, source="L", jokers=(31,))) == "[PPJ<L]"
    assert screen.meld(Meld("kong", 33, concealed=True)) == "(CCCC)"
    assert screen.meld(Meld("kong", 27, source="O", added=True)) == "[EEEE<O+]"
    assert screen.meld(Meld("chow", 2, source="L")) == "[345m<L]"
    hand = mjr.parse_hand("123m EE 456p [PPP<O] (CCCC) 78s win 9s")
    shown = screen.hand(hand)
    assert shown == "123m 456p 78s EE [PPP<O] (CCCC) win 9s"
    again = mjr.parse_hand(shown)
    assert (again.tiles, again.melds, again.win_tile) == (hand.tiles, hand.melds, hand.win_tile)


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
    (("-r", "guangdong.jipinghu", "--hands", "0"), "--hands must be 1 or more"),
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
