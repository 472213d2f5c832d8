"""``mjr play`` (hands of play in plain text, any seat a person or a bot) and
``mjr replay`` (check a log of hands against the rules).

Here are the session's loop and the prompt's reading of what a person types;
every line the game shows is written by :mod:`mjr.cli.play_screen`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import IO

from ..errors import IllegalAction, LogError, LogWriteError, MjrError, PlayStopped, os_reason
from ..ruleset.loaded import Ruleset
from ..table.actions import KINDS, Action
from ..table.bots import BOTS, Bot
from ..table.log import replay
from ..table.referee import Table
from ..table.session import Session
from . import play_screen as screen
from .output import counted

SEAT_KINDS = ("you", *BOTS)


def add_play_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--seed", type=int, default=0, help="the session's seed (its walls follow from it)")
    sub.add_argument("--hands", type=int, default=1, help="how many hands to play (default 1)")
    sub.add_argument("--seats", metavar="KIND,KIND,...",
                     help=f"who plays each seat of the table, in order from seat 0: {', '.join(SEAT_KINDS)}, "
                          "one per seat (default: you in seat 0, greedy bots in the others)")
    sub.add_argument("--log", metavar="FILE", help="write the event log of the hands to FILE (JSON lines)")


def add_replay_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("log", metavar="LOG", help="a log written by 'mjr play --log' or mjr.Table(log=...)")
    sub.add_argument("-r", "--ruleset", metavar="ID|FILE",
                     help="check against these rules, whose id must be the log's (default: the bundled ruleset "
                     "the log names; a log never names a file)")


def seat_kinds(text: str | None, seats: int) -> list[str]:
    """Who plays each of the table's ``seats`` (``--seats``; None: you, then greedy bots)."""
    if text is None:
        return ["you", *["greedy"] * (seats - 1)]
    kinds = [word.strip() for word in text.split(",")]
    if len(kinds) != seats or any(kind not in SEAT_KINDS for kind in kinds):
        raise MjrError(f"--seats takes {seats} of {', '.join(SEAT_KINDS)} separated by commas (the table seats "
                       f"{seats}), not {text!r}")
    return kinds


def run_play(ruleset: Ruleset, args: argparse.Namespace, out: IO[str] | None = None,
             read: Callable[[], str] | None = None) -> int:
    """Play ``args.hands`` hands; a person's actions are read a line at a time
    (standard input, unless ``read`` is given).  The end of the input, ``quit`` or
    Ctrl-C at any time ends the game with a line saying so (status 0, or 130 for
    Ctrl-C), the hands played standing."""
    out = out or sys.stdout
    read = read or _input_line
    if getattr(args, "json", False):
        raise MjrError("mjr play is played in plain text and takes no --json: --log FILE writes the hands as "
                       "JSON lines")
    kinds = seat_kinds(args.seats, ruleset.seats)
    if args.hands < 1:
        raise MjrError(f"--hands must be 1 or more, not {args.hands}")
    Session(ruleset, seed=args.seed)  # what it refuses is refused before the log is opened (emptying an old one)
    log = _open_log(args.log)
    session = Session(ruleset, seed=args.seed, log=log)
    people = frozenset(seat for seat, kind in enumerate(kinds) if kind == "you")
    number = 0
    try:
        bots: list[Bot] = [_person(out, read, people) if kind == "you" else BOTS[kind](args.seed * 4 + seat)
                           for seat, kind in enumerate(kinds)]
        for number in range(args.hands):
            table = session.new_hand()
            _show(out, screen.hand_header(number + 1, args.hands, ruleset.id, table, people))
            _play(table, bots, out, screen.Narrator(people or range(ruleset.seats)))  # bots alone: every seat shown
            session.close(table)
            _show(out, *screen.end_lines(table, people))
        session.finish()
        _show(out, screen.ledger_line(session.ledger))
    except LogWriteError as error:
        _close_anyway(log)
        return _log_failed(args.log, error.__cause__, f"play stopped in hand {number + 1}")
    except (PlayStopped, KeyboardInterrupt) as stop:
        _close_anyway(log)
        why = "interrupted" if isinstance(stop, KeyboardInterrupt) else str(stop)
        _show(out, "", *screen.stopped_lines(why, number + 1, args.hands, len(session.hands), session.ledger,
                                             args.log))
        return 130 if isinstance(stop, KeyboardInterrupt) else 0
    except BaseException:
        _close_anyway(log)
        raise
    if log is not None:
        try:
            log.close()  # writes what is still buffered
        except OSError as error:
            return _log_failed(args.log, error, "its last lines were lost")
    return 0


def _input_line() -> str:
    """A line of standard input, bytes it cannot decode replaced (a word with them
    is then only an unknown word); empty at its end."""
    buffer: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        return sys.stdin.readline()
    return buffer.readline().decode(sys.stdin.encoding or "utf-8", errors="replace")


def _show(out: IO[str], *lines: str) -> None:
    for line in lines:
        print(line, file=out)


def _open_log(path: str | None) -> IO[str] | None:
    if path is None:
        return None
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as error:
        raise MjrError(f"cannot write the log {path}: {error.strerror}") from None


def _log_failed(path: str, error: BaseException | None, what: str) -> int:
    """Say in one line that the log could not be written, and ``what`` came of it: the
    log is cut short there (its replay refuses it)."""
    print(f"mjr: play: cannot write the log {path}: {os_reason(error)}; {what}, and the log is cut short there "
          "(incomplete: 'mjr replay' refuses it)", file=sys.stderr)
    return 1


def _close_anyway(log: IO[str] | None) -> None:
    """Close ``log`` after a failure, whatever its last buffered bytes do (the file is
    closed even when writing them fails)."""
    if log is not None:
        try:
            log.close()
        except OSError:
            pass


def _play(table: Table, bots: list[Bot], out: IO[str], narrator: screen.Narrator) -> None:
    shown = 0
    while not table.over:
        seat, actions = min(table.legal().items())
        table.act(bots[seat](table, seat, actions))
        _show(out, *(narrator.line(event) for event in table.events[shown:]))
        shown = len(table.events)


def _person(out: IO[str], read: Callable[[], str], people: frozenset[int]) -> Bot:
    """A seat played from the keyboard (or a script on standard input): shown the
    table and what it may do, and asked until it types one of them."""

    hinted = False

    def choose(table: Table, seat: int, actions: list[Action]) -> Action:
        nonlocal hinted
        if len(actions) == 1:
            return actions[0]
        _show(out, *screen.turn_lines(table, seat, actions, people))
        if not hinted:
            _show(out, screen.first_hint(actions))
            hinted = True
        while True:
            print(screen.prompt(), end="", file=out, flush=True)
            line = read()
            if not line:
                raise PlayStopped("end of input")
            try:
                command = _command(seat, line, actions)
            except IllegalAction as error:
                _show(out, screen.refused(str(error)))
                continue
            if command == screen.QUIT:
                raise PlayStopped("you quit")
            if command == screen.HELP:
                _show(out, *screen.help_lines())
            elif not isinstance(command, Action):
                _show(out, screen.refused(screen.empty_line()))
            elif command in actions or (command.kind == "win" and table.may_declare_win(seat)):
                return command  # a win the rules refuse, under false_win: the table takes it as one
            else:
                _show(out, screen.refused(screen.not_now(table, seat, command, actions)))

    return choose


def _command(seat: int, line: str, actions: list[Action]) -> Action | str:
    """What a line typed at the prompt says: an action of ``seat``, ``help``, ``quit``,
    or ``""`` for nothing; what it cannot be read as is an :class:`IllegalAction` saying
    why.  Words are read in either case (``Discard e`` is ``discard E``), a tile alone
    discards it, and a kind alone is the one action of that kind in ``actions`` where
    there is one (``chow`` for the one chow open, ``kong`` for the one kong)."""
    words = line.split()
    if not words:
        return ""
    first = words[0].lower()
    if first in (screen.HELP, screen.QUIT):
        return first
    tiles = [_tile_word(word) for word in words[1:]]
    if first not in KINDS:
        if not _looks_like_tile(words[0]):
            raise IllegalAction(screen.unknown_command(words[0]))
        if tiles:
            raise IllegalAction(screen.one_tile(line.strip()))
        first, tiles = "discard", [_tile_word(words[0])]
    of_kind = [action for action in actions if action.kind == first]
    if not of_kind and first != "win":  # a win not open may still be declared, as a false one
        raise IllegalAction(screen.cannot(first, actions))
    if not tiles and len(of_kind) == 1:
        return of_kind[0]
    if not tiles and of_kind and of_kind[0].tile is not None:
        raise IllegalAction(screen.say_which(of_kind))
    return Action.parse(seat, " ".join([first, *tiles]))


def _tile_word(word: str) -> str:
    """A tile typed in either case as the notation writes it: ``e`` is ``E``, ``5M`` is ``5m``."""
    return word.upper() if len(word) == 1 else word.lower()


def _looks_like_tile(word: str) -> bool:
    """Whether a word alone is meant as a tile: a letter, or a word that starts with a rank."""
    return (len(word) == 1 and word.isalpha()) or word[:1].isdigit()


def run_replay(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    out = out or sys.stdout
    try:
        with open(args.log, "rb") as stream:  # read a line at a time, each checked as UTF-8
            report = replay(stream, args.ruleset, backend=args.backend)
    except OSError as error:
        raise MjrError(f"cannot read the log {args.log}: {error.strerror}") from None
    except LogError as error:
        print(f"mjr: replay: {args.log}: {error}", file=sys.stderr)
        return 1
    if getattr(args, "json", False):
        print(json.dumps({"log": args.log, "hands": report.hands, "events": report.events,
                          "ledger": list(report.ledger)}, indent=2), file=out)
        return 0
    print(f"{args.log}: {counted(report.hands, 'hand')}, {counted(report.events, 'event')}: every "
          f"action and payment agrees with the rules", file=out)
    print(screen.ledger_line(report.ledger), file=out)
    return 0
