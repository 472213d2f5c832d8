"""The replay of the event log of hands of play (:mod:`mjr.table.record` writes it,
and describes its lines).

:func:`replay` plays every hand again from its wall and its actions under the
ruleset, and checks every event, win and payment against the log: the way to verify
a server's logs against the rules.  It reads a line at a time and stops at the
first line that is wrong, so a log costs no more memory than its longest hand.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, fields
from typing import IO, Any, TypeGuard

from ..abi import SEATS
from ..errors import LogError, MjrError, clip, clip_repr
from ..ruleset.loaded import Ruleset
from ..ruleset.loader import bundled_ids, load
from .record import FORMAT, hand_end, hand_header, session_end, write_line
from .referee import Table
from .seats import Seating
from .wall import parse_wall_tile

#: The versions replay reads (:data:`mjr.table.record.VERSION` the one written).
VERSIONS = (1, 2)
#: The longest line a log may hold, in bytes (characters, for lines given as text):
#: far above any real line (a wall of 144 tiles is under 1 kB), and a line past it is
#: refused without reading the rest of it.
MAX_LINE = 1 << 20
#: The most characters a number of a log may be written with (a hand's seed has 20
#: digits): a longer one is refused before it is converted.
MAX_DIGITS = 40

HEADER_KEYS = ("format", "version", "ruleset", "options", "seating", "stake", "seed", "wall")
SEATING_KEYS = tuple(field.name for field in fields(Seating))




# -- the log of one hand -------------------------------------------------------------


def write_hand(table: Table, stream: IO[str]) -> None:
    """The whole log of a finished hand, alone in its log."""
    for line in hand_lines(table):
        write_line(stream, line)


def hand_lines(table: Table) -> Iterator[dict[str, Any]]:
    """The lines of ``table``'s log so far, alone in its log: its end once it is over."""
    yield hand_header(table.state)
    yield from table.events
    if table.over:
        yield hand_end(table.state)


# -- reading ----------------------------------------------------------------------------


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    record: dict[str, Any] = {}
    for key, value in pairs:
        if key in record:
            raise LogError(f"the key {clip_repr(key)} appears twice in one object")
        record[key] = value
    return record


def _digits(text: str) -> str:
    if len(text) > MAX_DIGITS:
        raise LogError(f"a number of {len(text)} characters (a log's numbers have at most {MAX_DIGITS})")
    return text


def _integer(text: str) -> int:
    return int(_digits(text))


def _fraction(text: str) -> float:
    value = float(_digits(text))
    if not math.isfinite(value):
        raise LogError(f"the number {text} is out of range")
    return value


def _constant(name: str) -> None:
    raise LogError(f"{name} is not a number a log holds")


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_int=_integer, parse_float=_fraction,
                            parse_constant=_constant)


def _texts(source: Iterable[str | bytes]) -> Iterator[str | bytes]:
    """The lines of ``source``; a stream is read a line at a time, never more than
    one byte past :data:`MAX_LINE` of a line.  A whole log in one text or bytes
    object is read as a stream of it (split at ``\\n`` only, as a file is)."""
    if isinstance(source, str):
        source = io.StringIO(source)
    elif isinstance(source, (bytes, bytearray, memoryview)):
        source = io.BytesIO(source)
    readline = getattr(source, "readline", None)
    if readline is None:
        if not isinstance(source, Iterable):
            raise LogError(f"a log is its lines (text or bytes), a stream, or the whole log as text or bytes; "
                           f"not {type(source).__name__}")
        yield from source
        return
    while line := readline(MAX_LINE + 1):
        yield line


def _records(source: Iterable[str | bytes]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each line of the log that is not blank, as (its number, its object), read
    strictly: UTF-8, no line past :data:`MAX_LINE`, no key twice in an object, no
    number past :data:`MAX_DIGITS` digits, no NaN or Infinity."""
    number = 0
    lines = iter(_texts(source))
    while True:
        try:
            raw = next(lines, None)
        except UnicodeDecodeError:
            raise LogError(f"after line {number}: the log is not UTF-8 text") from None
        if raw is None:
            return
        number += 1
        text = _decoded(raw, number)
        if not text.strip():
            continue
        try:
            record = _DECODER.decode(text)
        except json.JSONDecodeError as error:
            raise LogError(f"line {number}: not JSON ({error.msg} at column {error.colno})") from None
        except LogError as error:
            raise LogError(f"line {number}: {error}") from None
        except RecursionError:
            raise LogError(f"line {number}: nested too deep for a log line") from None
        if not isinstance(record, dict):
            raise LogError(f"line {number}: a log line is a JSON object")
        yield number, record


def _decoded(raw: str | bytes, number: int) -> str:
    if not isinstance(raw, (str, bytes)):
        raise LogError(f"line {number}: a line of a log is text or bytes, not {type(raw).__name__}")
    ended = raw.endswith(b"\n") if isinstance(raw, bytes) else raw.endswith("\n")
    if len(raw) > MAX_LINE + ended:
        raise LogError(f"line {number}: longer than {MAX_LINE} {'bytes' if isinstance(raw, bytes) else 'characters'}:"
                       " not a line of a log")
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LogError(f"line {number}: not UTF-8 (byte {raw[error.start]:#04x} at column "
                       f"{len(raw[:error.start].decode('utf-8')) + 1})") from None


def _shown(value: object) -> str:
    """A value of the log or of the rules, as JSON, short enough for a message."""
    return clip(json.dumps(value, ensure_ascii=False, sort_keys=True), 160)


def _same(said: object, rules: object) -> bool:
    """Whether the log says what the rules give, type for type (``true`` is not ``1``)."""
    return json.dumps(said, sort_keys=True) == json.dumps(rules, sort_keys=True)


# -- replaying --------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplayReport:
    """What a replay checked: hands, events, and each seat's total over them all."""

    hands: int
    events: int
    ledger: tuple[int, ...]


def replay(lines: Iterable[str | bytes], ruleset_name: str | None = None, *, backend: str = "auto") -> ReplayReport:
    """Replay a log (its lines, as text or bytes, a stream, or the whole log as one
    text or bytes object) and check it; raise
    :class:`LogError` naming the first line that is wrong, as soon as it is read.

    A log names a ruleset id, which must be bundled; ``ruleset_name`` (an id, or a
    path to a ``.mjr`` file) gives other rules to check against, whose id must be the
    log's.  A path is never taken from the log.  ``backend`` is :func:`mjr.load`'s."""
    state = _Replay(ruleset_name, backend)
    for number, record in _records(lines):
        state.line(number, record)
    return state.finish()


class _Replay:
    """A replay under way: the hand being played again, and what the hands before it
    came to."""

    def __init__(self, ruleset_name: str | None, backend: str = "auto"):
        self.ruleset_name, self.backend = ruleset_name, backend
        self.rulesets: dict[str, Ruleset] = {}  # by the log's id and options
        self.table: Table | None = None  # the hand being replayed
        self.produced = 0  # its events the log has shown so far
        self.hands = self.events = 0
        self.ledger = [0, 0, 0, 0]
        self.seating: Seating | None = None  # the one the last hand left
        self.session: bool | None = None  # whether the log is a session's, once its first hand says
        self.closed = False
        self.terms: dict[str, Any] | None = None  # the ruleset, options and stake of the session's first hand
        self.last = 0  # the number of the last line read

    def line(self, number: int, record: dict[str, Any]) -> None:
        if self.closed:
            raise LogError(f"line {number}: the log goes on after its session's closing line")
        if self.session is False and self.table is None:
            raise LogError(f"line {number}: the log goes on after its hand's end line (the hands of a session "
                           "carry session_hand)")
        self.last = number
        for key in ("hand", "end", "session"):
            if key in record:
                if len(record) > 1:
                    extra = next(other for other in record if other != key)
                    raise LogError(f"line {number}: the {key!r} line holds only its {key!r}, not also "
                                   f"{clip_repr(extra)}")
                getattr(self, f"_{key}")(record[key], number)
                return
        self._event(record, number)

    def finish(self) -> ReplayReport:
        if self.last == 0:
            raise LogError("the log is empty")
        if self.table is not None:
            raise LogError(f"the log ends before the hand does (after line {self.last}): it is truncated")
        if self.session and not self.closed:
            raise LogError(f"the log ends before its session does (no closing 'session' line after line "
                           f"{self.last}): it is truncated")
        return ReplayReport(self.hands, self.events, tuple(self.ledger))

    # -- the lines

    def _hand(self, header: Any, number: int) -> None:
        if self.table is not None:
            raise LogError(f"line {number}: a hand starts before the last one ends (with its 'end' line)")
        if not isinstance(header, dict):
            raise LogError(f"line {number}: the 'hand' line holds an object, not {_shown(header)}")
        _check_header(header, number)
        if self.session and "session_hand" not in header:
            raise LogError(f"line {number}: a hand without session_hand in a session's log")
        if "session_hand" in header and not _same(header["session_hand"], self.hands):
            raise LogError(f"line {number}: the session's hand {self.hands} is numbered "
                           f"{_shown(header['session_hand'])}: a hand of the session is missing or repeated")
        self.session = "session_hand" in header
        table = self._table(header, number)
        terms = {"ruleset": header["ruleset"], "options": header["options"], "stake": header["stake"]}
        if self.terms is not None and not _same(terms, self.terms):
            raise LogError(f"line {number}: the hand is played under {_shown(terms)}, the session's first hand "
                           f"under {_shown(self.terms)}")
        self.terms = terms
        if self.seating is not None and table.seating != self.seating:
            raise LogError(f"line {number}: the hand's seating {asdict(table.seating)} is not the one the last "
                           f"hand left ({asdict(self.seating)})")
        self.table, self.produced = table, 0

    def _event(self, record: dict[str, Any], number: int) -> None:
        table = self.table
        if table is None:
            raise LogError(f"line {number}: an event outside a hand (a hand starts with a 'hand' line)")
        if "action" in record:
            seat, action = record.get("seat"), record["action"]
            seats = table.state.seats
            if not _is_int(seat) or not 0 <= seat < seats:
                raise LogError(f"line {number}: an event names its seat (0-{seats - 1})")
            if not isinstance(action, str):
                raise LogError(f"line {number}: an event's action is text, not {_shown(action)}")
            try:
                table.act(action, seat)
            except MjrError as error:
                raise LogError(f"line {number}: {error}") from None
        expected = table.events[self.produced] if self.produced < len(table.events) else None
        if expected is None or not _same(record, expected):
            rules = _shown(expected) if expected is not None else "nothing here"
            raise LogError(f"line {number}: the log says {_shown(record)}, the rules give {rules}")
        self.produced += 1

    def _end(self, end: Any, number: int) -> None:
        table = self.table
        if table is None:
            raise LogError(f"line {number}: an 'end' line outside a hand")
        if self.produced < len(table.events):
            raise LogError(f"line {number}: the log leaves out an event the rules give: "
                           f"{_shown(table.events[self.produced])}")
        if not table.over:
            raise LogError(f"line {number}: the log ends the hand, but the rules have it go on ({_waiting(table)})")
        _compare(end, hand_end(table.state)["end"], "end", number)
        self.events += len(table.events)
        if self.hands == 0:  # the first hand says how many the table seats
            self.ledger = [0] * table.state.seats
        self.hands += 1
        for seat, amount in enumerate(table.net()):
            self.ledger[seat] += amount
        assert table.outcome is not None
        self.seating, self.table = table.outcome.next_seating, None

    def _session(self, closing: Any, number: int) -> None:
        if self.table is not None:
            raise LogError(f"line {number}: the session closes in the middle of a hand")
        _compare(closing, session_end(self.hands, self.ledger)["session"], "session", number)
        self.session = self.closed = True

    # -- the hand line

    def _table(self, header: dict[str, Any], number: int) -> Table:
        """The hand's table, dealt from the log's wall; every field of the hand line is
        checked first, and a path to a rules file is never taken from it."""
        ruleset = self._ruleset(header["ruleset"], header["options"], number)
        stake, seed, wall = header["stake"], header["seed"], header["wall"]
        if not _is_int(stake) or stake < 1:
            raise LogError(f"line {number}: the stake is a whole number, 1 or more, not {_shown(stake)}")
        if not _is_int(seed):
            raise LogError(f"line {number}: the seed is a whole number, not {_shown(seed)}")
        if not isinstance(wall, list) or not all(isinstance(tile, str) for tile in wall):
            raise LogError(f"line {number}: the wall is a list of tile names")
        try:
            tiles = [parse_wall_tile(tile) for tile in wall]
            return Table(ruleset, wall=tiles, seating=_seating(header["seating"], number), stake=stake, seed=seed)
        except LogError:
            raise
        except MjrError as error:
            raise LogError(f"line {number}: {error}") from None

    def _ruleset(self, name: Any, options: Any, number: int) -> Ruleset:
        """The rules a hand line names: a bundled id (with its options), or the rules
        the replay was given, whose id must be the log's."""
        if not isinstance(name, str):
            raise LogError(f"line {number}: the hand line names no ruleset")
        if not isinstance(options, dict):
            raise LogError(f"line {number}: the hand's options are an object, not {_shown(options)}")
        if self.ruleset_name is None and name not in bundled_ids():
            raise LogError(f"line {number}: the log is of ruleset {clip_repr(name)}, which is not a bundled id "
                           "('mjr list' shows them): check it against its file with -r FILE")
        key = json.dumps([name, options], sort_keys=True)
        if key not in self.rulesets:
            try:
                rules = load(self.ruleset_name or name, self.backend)
                if rules.id != name:
                    raise LogError(f"line {number}: the log is of ruleset {clip_repr(name)}, not {rules.id!r}")
                names = [option.name for option in rules.option_table]
                unknown = [option for option in options if option not in names]
                if unknown:  # checked here: a name such as 'backend' is also a parameter of load
                    raise LogError(f"line {number}: {rules.id} has no option {clip_repr(unknown[0])} (its options: "
                                   f"{', '.join(names) or 'none'})")
                chosen = load(self.ruleset_name or name, self.backend, **options) if options else rules
                for option, value in options.items():  # as a table writes it: 4 not 4.0 or "4", false not "off"
                    if not _same(value, chosen.choices[option]):
                        raise LogError(f"line {number}: the option {option} is {_shown(value)}, not "
                                       f"{_shown(chosen.choices[option])} as a table writes it")
                self.rulesets[key] = chosen
            except LogError:
                raise
            except MjrError as error:
                raise LogError(f"line {number}: {error}") from None
        return self.rulesets[key]


def _check_header(header: dict[str, Any], number: int) -> None:
    """The hand line is of a version replay reads, with every key it has and no other."""
    version = header.get("version")
    if header.get("format") != FORMAT or not _is_int(version) or version not in VERSIONS:
        raise LogError(f"line {number}: not a {FORMAT} log of version {' or '.join(map(str, VERSIONS))}")
    missing = [key for key in HEADER_KEYS if key not in header]
    if missing:
        raise LogError(f"line {number}: the hand line has no {missing[0]!r}")
    keys = HEADER_KEYS + (("session_hand",) if version >= 2 else ())
    extra = [key for key in header if key not in keys]
    if extra:
        raise LogError(f"line {number}: the hand line of version {version} has no key {clip_repr(extra[0])}")


def _is_int(value: object) -> TypeGuard[int]:
    """An int that is not a bool (``true`` would pass for 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


#: The seating's keys a log may leave out (logs written before them): each is 0 then.
SEATING_LATER = ("repeats", "deposits")


def _seating(seating: Any, number: int) -> Seating:
    if not isinstance(seating, dict) or not set(SEATING_KEYS) - set(SEATING_LATER) <= set(seating) <= \
            set(SEATING_KEYS):
        raise LogError(f"line {number}: the seating is an object of {', '.join(SEATING_KEYS)}")
    for key, value in seating.items():
        counted = key in ("streak", *SEATING_LATER)
        most = 3 if key == "round" else SEATS - 1  # a round wind; a seat
        allowed = (_is_int(value) and 0 <= value <= most) if not counted else (_is_int(value) and value >= 0)
        if not allowed and not (key == "previous_winner" and value is None):
            raise LogError(f"line {number}: the seating's {key} is {_shown(value)}")
    return Seating(**seating)


def _compare(said: Any, rules: dict[str, Any], what: str, number: int) -> None:
    """The log's ``what`` line says what the rules give, key by key."""
    if not isinstance(said, dict):
        raise LogError(f"line {number}: the {what!r} line holds an object, not {_shown(said)}")
    for key, value in rules.items():
        if key not in said or not _same(said[key], value):
            shown = _shown(said[key]) if key in said else "missing"
            raise LogError(f"line {number}: the log's {key} is {shown}, the rules give {_shown(value)}")
    extra = [key for key in said if key not in rules]
    if extra:
        raise LogError(f"line {number}: the {what!r} line has no key {clip_repr(extra[0])}")


def _waiting(table: Table) -> str:
    legal = table.legal()
    return "; ".join(f"seat {seat} may {', '.join(map(str, actions))}" for seat, actions in sorted(legal.items()))


def parse_tiles(text: str) -> list[int]:
    """A wall written as tile names separated by spaces."""
    return [parse_wall_tile(word) for word in text.split()]
