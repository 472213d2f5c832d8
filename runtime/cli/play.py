"""``mjr play`` (hands of play in plain text, any seat a person or a bot) and
``mjr replay`` (check a log of hands against the rules)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import IO

from ..errors import LogError, LogWriteError, MjrError, os_reason
from ..hand.model import Hand
from ..notation.parse import format_hand
from ..ruleset.loaded import Ruleset
from ..table.actions import Action
from ..table.bots import BOTS, Bot
from ..table.log import replay
from ..table.referee import Table
from ..table.session import Session
from ..table.wall import wall_tile_name
from ..tiles.flowers import format_flowers
from ..tiles.jokers import JOKER_LETTER
from ..tiles.kinds import WIND_LETTERS

SEAT_KINDS = ("you", *BOTS)


def add_play_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--seed", type=int, default=0, help="the session's seed (its walls follow from it)")
    sub.add_argument("--hands", type=int, default=1, help="how many hands to play (default 1)")
    sub.add_argument("--seats", default="you,greedy,greedy,greedy", metavar="KIND,KIND,KIND,KIND",
                     help=f"who plays each seat, 0-3: {', '.join(SEAT_KINDS)} (default: you in seat 0)")
    sub.add_argument("--log", metavar="FILE", help="write the event log of the hands to FILE (JSON lines)")


def add_replay_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("log", metavar="LOG", help="a log written by 'mjr play --log' or mjr.Table(log=...)")
    sub.add_argument("-r", "--ruleset", metavar="ID|FILE",
                     help="check against these rules, whose id must be the log's (default: the bundled ruleset "
                     "the log names; a log never names a file)")


def seat_kinds(text: str) -> list[str]:
    kinds = [word.strip() for word in text.split(",")]
    if len(kinds) != 4 or any(kind not in SEAT_KINDS for kind in kinds):
        raise MjrError(f"--seats takes four of {', '.join(SEAT_KINDS)} separated by commas, not {text!r}")
    return kinds


def run_play(ruleset: Ruleset, args: argparse.Namespace, out: IO[str] | None = None,
             read: Callable[[], str] | None = None) -> int:
    """Play ``args.hands`` hands; a person's actions are read a line at a time
    (standard input, unless ``read`` is given)."""
    out = out or sys.stdout
    read = read or sys.stdin.readline
    kinds = seat_kinds(args.seats)
    if args.hands < 1:
        raise MjrError(f"--hands must be 1 or more, not {args.hands}")
    Session(ruleset, seed=args.seed)  # what it refuses is refused before the log is opened (emptying an old one)
    log = _open_log(args.log)
    number = 0
    try:
        session = Session(ruleset, seed=args.seed, log=log)
        bots: list[Bot] = [_person(out, read) if kind == "you" else BOTS[kind](args.seed * 4 + seat)
                           for seat, kind in enumerate(kinds)]
        for number in range(args.hands):
            table = session.new_hand()
            print(f"== hand {number + 1}: {ruleset.id}, dealer seat {table.seating.dealer}", file=out)
            _play(table, bots, out)
            session.close(table)
            _show_end(table, out)
        session.finish()
        print("ledger: " + "  ".join(f"seat {seat} {amount:+d}" for seat, amount in enumerate(session.ledger)),
              file=out)
    except LogWriteError as error:
        _close_anyway(log)
        return _log_failed(args.log, error.__cause__, f"play stopped in hand {number + 1}")
    except BaseException:
        _close_anyway(log)
        raise
    if log is not None:
        try:
            log.close()  # writes what is still buffered
        except OSError as error:
            return _log_failed(args.log, error, "its last lines were lost")
    return 0


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


def _play(table: Table, bots: list[Bot], out: IO[str]) -> None:
    shown = 0
    while not table.over:
        seat, actions = min(table.legal().items())
        table.act(bots[seat](table, seat, actions))
        for event in table.events[shown:]:
            print(_event_line(event), file=out)
        shown = len(table.events)


def _event_line(event: dict[str, object]) -> str:
    seat = event["seat"]
    if "replacement" in event:
        return f"  seat {seat} draws {event['replacement']} from the back"
    text = f"  seat {seat}: {event['action']}"
    if event.get("false"):
        text += " (a false win: the rules refuse it)"
    if "flowers" in event:
        text += f" (flowers {' '.join(map(str, event['flowers']))})"  # type: ignore[call-overload]
    return text


def _person(out: IO[str], read: Callable[[], str]) -> Bot:
    """A seat played from the keyboard (or a script on standard input)."""

    def choose(table: Table, seat: int, actions: list[Action]) -> Action:
        player = table.players[seat]
        if len(actions) == 1:
            return actions[0]
        hand = format_hand(Hand(player.tiles(), tuple(player.melds), jokers=player.jokers))
        flowers = f"  flowers {format_flowers(tuple(player.flowers))}" if player.flowers else ""
        drawn = f"  drew {wall_tile_name(table.drawn)}" if table.drawn is not None else ""
        offer = (f"  seat {table.offer[0]} offers {wall_tile_name(table.offer[1])}"
                 if table.offer is not None and table.phase != "discard" else "")
        print(f"seat {seat} ({WIND_LETTERS[(seat - table.seating.dealer) % 4]}): {hand}{flowers}{drawn}{offer}",
              file=out)
        print("  may: " + " | ".join(map(str, actions)), file=out)
        while True:
            print("> ", end="", file=out, flush=True)
            line = read()
            if not line:
                raise MjrError("the input ended before the hand did")
            text = line.strip()
            if (len(text) == 2 and not text.startswith(("wi", "pa"))) or text == JOKER_LETTER:
                text = f"discard {text}"  # a tile alone discards it
            try:
                action = Action.parse(seat, text)
            except MjrError as error:
                print(f"  {error}", file=out)
                continue
            if action in actions or (action.kind == "win" and table.may_declare_win(seat)):
                return action  # a win the rules refuse, under false_win: the table takes it as one
            print(f"  not now: choose one of: {', '.join(map(str, actions))}", file=out)

    return choose


def _show_end(table: Table, out: IO[str]) -> None:
    assert table.outcome is not None
    for win in table.wins:
        fans = " ".join(f"{line.id}({line.value})" for line in win.result.fans)
        source = "" if win.source is None else f" from seat {win.source}"
        print(f"seat {win.seat} wins by {win.method.replace('_', ' ')} on {wall_tile_name(win.tile)}{source}: "
              f"{win.result.points} points [{fans}]", file=out)
    if table.outcome.drawn:
        print("the wall is drawn out: nobody won", file=out)
    for payment in table.payments:
        print(f"  seat {payment.payer} pays seat {payment.payee} {payment.amount}  ({payment.clause} "
              f"{payment.name})", file=out)
    print("net: " + "  ".join(f"seat {seat} {amount:+d}" for seat, amount in enumerate(table.net())), file=out)


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
    ledger = "  ".join(f"seat {seat} {amount:+d}" for seat, amount in enumerate(report.ledger))
    print(f"{args.log}: {report.hands} hand{'s' if report.hands != 1 else ''}, {report.events} events: every "
          f"action and payment agrees with the rules", file=out)
    print(f"ledger: {ledger}", file=out)
    return 0
