"""The event log of hands of play, written as they are played, and its replay.

A log is JSON Lines: per hand, a ``hand`` line (the ruleset and its options, the
seating, the stake, the whole wall as dealt), one line per event, and an ``end``
line (the wins, every payment with its clause, each seat's net, the next seating).
An event line is an action (``{"seat": 0, "action": "draw", "tile": "5m"}``: what was
drawn is part of the record) or a note of the table (``{"seat": 2, "replacement":
"3p"}``).  A session is its hands one after another.

:func:`replay` plays every hand again from its wall and its actions under the
ruleset, and checks every event, win and payment against the log: the way to verify
a server's logs against the rules.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from typing import IO, Any

from .errors import MjrError
from .table import IllegalAction, Seating, Table
from .wall import parse_wall_tile, wall_tile_name

FORMAT = "mjr-play-log"
VERSION = 1


class LogError(MjrError):
    """A log that cannot be replayed, or that the rules contradict; names the line."""


# -- writing ----------------------------------------------------------------------------


def hand_header(table: Table) -> dict[str, Any]:
    return {"hand": {
        "format": FORMAT, "version": VERSION,
        "ruleset": table.ruleset.id, "options": dict(table.ruleset.choices),
        "seating": asdict(table.seating), "stake": table.stake, "seed": table.seed,
        "wall": [wall_tile_name(tile) for tile in table.wall.original],
    }}


def hand_end(table: Table) -> dict[str, Any]:
    assert table.outcome is not None
    return {"end": {
        "drawn": table.outcome.drawn,
        "wins": [{"seat": win.seat, "method": win.method, "tile": wall_tile_name(win.tile), "from": win.source,
                  "points": win.result.points, "fans": [line.id for line in win.result.fans]} for win in table.wins],
        "payments": [payment.to_json() for payment in table.payments],
        "net": table.net(),
        "next_seating": asdict(table.outcome.next_seating),
    }}


def write_hand(table: Table, stream: IO[str]) -> None:
    """The whole log of a finished hand."""
    for line in hand_lines(table):
        stream.write(json.dumps(line, ensure_ascii=False) + "\n")


def hand_lines(table: Table) -> Iterator[dict[str, Any]]:
    yield hand_header(table)
    yield from table.events
    if table.over:
        yield hand_end(table)


# -- replaying --------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplayReport:
    """What a replay checked: hands, events, and each seat's total over them all."""

    hands: int
    events: int
    ledger: tuple[int, ...]


def replay(lines: Iterable[str], ruleset_name: str | None = None) -> ReplayReport:
    """Replay a log (its lines of text) and check it; raise :class:`LogError` naming
    the first line the rules contradict.  ``ruleset_name`` (an id or a path) gives the
    rules to check against; by default, the bundled ruleset the log names."""
    from .loader import load

    records = list(_records(lines))
    if not records:
        raise LogError("the log is empty")
    hands = events = 0
    ledger = [0, 0, 0, 0]
    seating: Seating | None = None
    index = 0
    while index < len(records):
        number, record = records[index]
        header = record.get("hand")
        if not isinstance(header, dict):
            raise LogError(f"line {number}: a hand of the log starts with a 'hand' line")
        table = _table(header, number, ruleset_name, load)
        if seating is not None and table.seating != seating:
            raise LogError(f"line {number}: the hand's seating {asdict(table.seating)} is not the one the last "
                           f"hand left ({asdict(seating)})")
        index = _replay_hand(table, records, index + 1)
        events += len(table.events)
        hands += 1
        for seat, amount in enumerate(table.net()):
            ledger[seat] += amount
        seating = table.outcome.next_seating if table.outcome else None
    return ReplayReport(hands, events, tuple(ledger))


def _records(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as error:
            raise LogError(f"line {number}: not JSON ({error.msg} at column {error.colno})") from None
        if not isinstance(record, dict):
            raise LogError(f"line {number}: a log line is a JSON object")
        yield number, record


def _table(header: dict[str, Any], number: int, ruleset_name: str | None, load: Any) -> Table:
    if header.get("format") != FORMAT or header.get("version") != VERSION:
        raise LogError(f"line {number}: not a {FORMAT} version {VERSION} log")
    name = header.get("ruleset")
    options = header.get("options") or {}
    if not isinstance(name, str) or not isinstance(options, dict):
        raise LogError(f"line {number}: the hand line names no ruleset")
    try:
        if ruleset_name is not None and (given := load(ruleset_name).id) != name:
            raise LogError(f"line {number}: the log is of ruleset {name!r}, not {given!r}")
        ruleset = load(ruleset_name or name, **options)
        wall = [parse_wall_tile(tile) for tile in header.get("wall", ())]
        seating = Seating(**header.get("seating", {}))
        return Table(ruleset, wall=wall, seating=seating, stake=int(header.get("stake", 1)),
                     seed=int(header.get("seed", 0)))
    except LogError:
        raise
    except (MjrError, TypeError, ValueError) as error:
        raise LogError(f"line {number}: {error}") from None


def _replay_hand(table: Table, records: list[tuple[int, dict[str, Any]]], index: int) -> int:
    """Replay one hand's events from ``records[index]``; the index after its end line."""
    produced = 0
    while index < len(records):
        number, record = records[index]
        if "end" in record:
            if produced < len(table.events):
                missing = json.dumps(table.events[produced], ensure_ascii=False)
                raise LogError(f"line {number}: the log leaves out an event the rules give: {missing}")
            _check_end(table, record["end"], number)
            return index + 1
        if "hand" in record:
            break
        if "action" in record:
            seat = record.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise LogError(f"line {number}: an event names its seat (0-3)")
            try:
                table.act(str(record["action"]), seat)
            except (IllegalAction, MjrError) as error:
                raise LogError(f"line {number}: {error}") from None
        produced = _check_events(table, records, index, produced)
        index += 1
    raise LogError(f"the log ends before the hand does (after line {records[index - 1][0]}): it is truncated")


def _check_events(table: Table, records: list[tuple[int, dict[str, Any]]], index: int, produced: int) -> int:
    """Each event the table produced must be the log's next line, as written."""
    number, record = records[index]
    expected = table.events[produced] if produced < len(table.events) else None
    if expected != record:
        said = json.dumps(record, ensure_ascii=False)
        rules = json.dumps(expected, ensure_ascii=False) if expected is not None else "nothing here"
        raise LogError(f"line {number}: the log says {said}, the rules give {rules}")
    return produced + 1


def _check_end(table: Table, end: Any, number: int) -> None:
    if not table.over:
        raise LogError(f"line {number}: the log ends the hand, but the rules have it go on "
                       f"({_waiting(table)})")
    expected = hand_end(table)["end"]
    if end != expected:
        for key in expected:
            if not isinstance(end, dict) or end.get(key) != expected[key]:
                said = json.dumps(end.get(key) if isinstance(end, dict) else end, ensure_ascii=False)
                raise LogError(f"line {number}: the log's {key} is {said}, the rules give "
                               f"{json.dumps(expected[key], ensure_ascii=False)}")


def _waiting(table: Table) -> str:
    legal = table.legal()
    return "; ".join(f"seat {seat} may {', '.join(map(str, actions))}" for seat, actions in sorted(legal.items()))


def parse_tiles(text: str) -> list[int]:
    """A wall written as tile names separated by spaces."""
    return [parse_wall_tile(word) for word in text.split()]
