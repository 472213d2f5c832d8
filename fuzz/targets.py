"""The fuzz targets: each takes one input (plain JSON data, so a failure can be
saved as a fixture and replayed) and drives one entry point of mjr with it.

A target returns quietly when every answer kept the contract of
:mod:`fuzz.checks`; it raises :class:`~fuzz.checks.Broken` when an answer broke it,
and lets any other exception out: the engine classifies both.
"""

from __future__ import annotations

import io
import json
import tempfile
import zlib
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import mjr
from mjr import Context, Hand, Meld, MjrError
from mjr.compiler.build import build_key, check_file
from mjr.compiler.emit.codegen import generate
from mjr.errors import LogError
from mjr.jobs import score_file as batchfile
from mjr.table.log import ReplayReport, replay
from mjr.tiles.kinds import N_KINDS

from .checks import Broken, answer, compare_row, exercise_everywhere, expect
from .table_target import run_table


@dataclass(frozen=True)
class Target:
    name: str
    run: Callable[[Any], None]
    #: seconds one input may take before it counts as a hang
    budget: float
    what: str


# --------------------------------------------------------------------------- .mjr text


@cache
def _scratch() -> Path:
    """A folder of this process for the file the checker reads."""
    return Path(tempfile.mkdtemp(prefix="mjr-fuzz-"))


#: Generating a module takes twice as long as checking: only one text in this many
#: that passes the check is generated (chosen by its checksum, so a replay agrees).
GENERATE_ONE_IN = 8


def run_mjr(text: str) -> None:
    """Check ``text`` as ``mjr check`` does (read, parse, check, ``extends`` against the
    bundled rulesets); generate the module of some that pass, and make sure it is Python."""
    path = _scratch() / "fuzz.mjr"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    ruleset = answer(check_file, path)
    if isinstance(ruleset, MjrError) or zlib.crc32(path.read_bytes()) % GENERATE_ONE_IN:
        return
    source = answer(generate, ruleset, build_key(ruleset))
    if not isinstance(source, MjrError):
        compile(source.text, "generated.py", "exec")


# --------------------------------------------------------------------------- hands


def run_notation(text: str) -> None:
    """Read ``text`` as a hand; what reads writes back as itself, and every ruleset
    answers it."""
    hand = answer(mjr.parse_hand, text)
    if isinstance(hand, MjrError):
        return
    expect(mjr.parse_hand(mjr.format_hand(hand)) == hand, "format_hand does not read back as the hand")
    exercise_everywhere(hand)


def run_json(document: Any) -> None:
    """Read ``document`` as a JSON hand; what reads writes back as itself, and every
    ruleset answers it."""
    hand = answer(mjr.hand_from_json, document)
    if isinstance(hand, MjrError):
        return
    expect(mjr.hand_from_json(mjr.hand_to_json(hand)) == hand, "hand_to_json does not read back as the hand")
    exercise_everywhere(hand)


def build_hand(spec: dict[str, Any]) -> Hand | MjrError:
    """A hand through the constructors, with whatever values ``spec`` holds (lists
    become the tuples the fields are declared as)."""
    melds: list[Meld] = []
    for fields in spec.get("melds", []):
        meld = answer(Meld, *fields) if isinstance(fields, list) else answer(Meld, fields)
        if isinstance(meld, MjrError):
            return meld
        melds.append(meld)
    context = answer(Context, **spec.get("context", {}))
    if isinstance(context, MjrError):
        return context
    tiles = spec.get("tiles", [])
    return answer(Hand, tuple(tiles) if isinstance(tiles, list) else tiles, tuple(melds), spec.get("win"), context)


def run_hand(spec: dict[str, Any]) -> None:
    """Build a hand directly; the constructors refuse it with an MjrError or every
    ruleset answers it."""
    hand = build_hand(spec)
    if not isinstance(hand, MjrError):
        exercise_everywhere(hand)


# --------------------------------------------------------------------------- batches

#: Rows of a batch compared one by one with ``evaluate``.
_ROWS_COMPARED = 8


def make_buffer(spec: dict[str, Any]) -> Any:
    """The object a batch spec describes: a byte buffer of some layout, or not a buffer."""
    data, kind = spec.get("data", []), spec.get("kind", "bytes")
    listed = data if isinstance(data, list) else []
    raw = bytes(value % 256 for value in listed if isinstance(value, int))
    match kind:
        case "bytes":
            return raw
        case "bytearray":
            return bytearray(raw)
        case "list":
            return list(data)
        case "tuple":
            return tuple(data)
        case "matrix":
            columns = spec.get("columns", N_KINDS)
            rows = len(raw) // columns if isinstance(columns, int) and columns > 0 and not len(raw) % columns else 0
            return memoryview(raw).cast("B", (rows, columns)) if rows else memoryview(raw)
        case "strided":
            return memoryview(raw)[::2]
        case "array":
            typecode = spec.get("typecode", "B")
            return array(typecode, [value % 128 for value in listed if isinstance(value, int)])
        case _:
            return data  # an int, a str, None ...: not a buffer


def run_batch(spec: dict[str, Any]) -> None:
    """Score a batch; the rows it scores agree with ``evaluate`` on each row (up to
    a few), and a batch it refuses names the hand or the buffer's problem."""
    ruleset = mjr.load(spec["ruleset"])
    buffer = make_buffer(spec)
    context, refused = spec.get("context"), spec.get("refused", "mark")
    rows = _rows(buffer)
    scored = answer(ruleset.evaluate_counts, buffer, context, refused=refused, win_tiles=_last_tiles(rows))
    if isinstance(scored, MjrError):
        return
    expect(refused in ("raise", "mark"), f"evaluate_counts accepts refused={refused!r}")
    points, fan = scored
    expect(len(points) == len(fan) == len(rows) // N_KINDS, "evaluate_counts answers a different number of hands")
    context_hand = mjr.parse_hand(context) if isinstance(context, str) else context
    for index in range(min(len(points), _ROWS_COMPARED)):
        row = rows[index * N_KINDS:(index + 1) * N_KINDS]
        tiles = [kind for kind in range(N_KINDS) for _ in range(row[kind])]
        if not tiles or len(tiles) > 4 * N_KINDS:
            expect(points[index] == -2, f"hand {index} of {len(tiles)} tiles scored {points[index]}")
            continue
        hand_context = context_hand.context if isinstance(context_hand, Hand) else Context()
        single = answer(ruleset.evaluate, Hand(tuple(tiles[:-1]), (), tiles[-1], hand_context))
        compare_row(points[index], fan[index], single, f"hand {index}")
        expect(refused == "mark" or points[index] not in (-2, -3), f"refused='raise' returned mark {points[index]}")


def _rows(buffer: Any) -> bytes:
    """The batch's bytes, when it has any (an answer compared row by row needs them)."""
    try:
        return bytes(memoryview(buffer).cast("B")) if not isinstance(buffer, (list, tuple)) else bytes(buffer)
    except (TypeError, ValueError):
        return b""


def _last_tiles(rows: bytes) -> bytes | None:
    """Each row's highest kind as its winning tile (0 for an empty row), as the
    rows are compared with ``evaluate``; ``None`` when the rows are not whole."""
    if not rows or len(rows) % N_KINDS:
        return None
    return bytes(max((k for k in range(N_KINDS) if rows[at + k]), default=0) for at in range(0, len(rows), N_KINDS))


# --------------------------------------------------------------------------- batch files


#: The longest line a spec makes: past the batch reader's bound, not much more.
LONGEST_LINE = 1 << 20


def batch_file_bytes(spec: dict[str, Any]) -> bytes:
    """The bytes of a JSONL batch file a spec describes: its lines (a string, its
    non-UTF-8 bytes kept by ``surrogateescape``, or ``[string, times]`` for a long
    one) joined by newlines, with a last newline or not."""
    lines = []
    for line in spec.get("lines", []):
        text, times = (line[0], line[1]) if isinstance(line, list) else (line, 1)
        piece = str(text).encode("utf-8", "surrogateescape")
        lines.append(piece * max(0, min(int(times), LONGEST_LINE // max(len(piece), 1))))
    data = b"\n".join(lines)
    return data + b"\n" if spec.get("end", True) and lines else data


def run_batchfile(spec: dict[str, Any]) -> None:
    """Score a generated JSONL batch file as ``mjr score --batch`` does, in this
    process: one row per line, in order; each refused row names its line (an
    over-long line as not read); the summary counts the rows."""
    data = batch_file_bytes(spec)
    path, out = _scratch() / "batch.jsonl", _scratch() / "rows.jsonl"
    path.write_bytes(data)
    ruleset = mjr.load(spec["ruleset"])
    job = batchfile.Job(str(path), out, ruleset, spec["ruleset"], workers=1,
                        partition_size=spec.get("partition_size", 3), progress=False)
    summary = answer(batchfile.score_file, job)
    if isinstance(summary, MjrError):  # the file is readable and the job valid: nothing may stop it
        raise Broken(f"score_file stopped: {summary}")
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").split("\n")[:-1]]  # not splitlines: U+0085
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()  # the last line's newline ends it, no line after it
    expect(len(rows) == len(lines), f"{len(rows)} rows for {len(lines)} lines")
    for number, (row, line) in enumerate(zip(rows, lines, strict=False), 1):
        expect(row["index"] == number - 1, f"row {number - 1} has index {row['index']}")
        if row["refusal"] is None:
            scored = isinstance(row["points"], int) and row["is_win"] is (row["points"] != -1)
            expect(scored, f"row {number - 1} is neither a win nor -1: {row}")
            continue
        expect(row["refusal"] in batchfile.REFUSAL_CLASSES, f"row {number - 1}: refusal {row['refusal']!r}")
        expect(str(row["refused"]).startswith(f"{path}:{number}:"), f"row {number - 1} does not name line {number}")
        if len(line.removesuffix(b"\r")) > batchfile.MAX_LINE_BYTES:
            expect("not read" in row["refused"], f"line {number} of {len(line)} bytes was read")
    refusals = {why: sum(1 for row in rows if row["refusal"] == why) for why in batchfile.REFUSAL_CLASSES}
    expect((summary.hands, summary.won, summary.refused) == (len(rows), sum(row["is_win"] for row in rows),
                                                             sum(refusals.values())), f"summary {summary.line()}")
    expect(dict(summary.by_class()) == {why: n for why, n in refusals.items() if n}, f"summary {summary.line()}")
# --------------------------------------------------------------------------- event logs


def run_log(lines: list[str]) -> None:
    """Replay ``lines`` as a log file (its text as UTF-8, a lone surrogate becoming
    a byte that is not): a report whose ledger sums to zero, or a LogError."""
    text = "\n".join(line if isinstance(line, str) else repr(line) for line in lines) + "\n"
    report = answer(replay, io.BytesIO(text.encode("utf-8", "surrogatepass")))
    expect(isinstance(report, (ReplayReport, LogError)), f"replay ended with {type(report).__name__}, not a LogError")
    if isinstance(report, ReplayReport):
        expect(sum(report.ledger) == 0, f"replay certified a ledger that does not sum to zero: {report.ledger}")


TARGETS = {
    target.name: target
    for target in (
        Target("mjr", run_mjr, 10.0, ".mjr text: read, parse, check, generate"),
        Target("notation", run_notation, 2.0, "hand text: parse_hand, then every ruleset"),
        Target("json", run_json, 2.0, "JSON hands: hand_from_json, then every ruleset"),
        Target("hand", run_hand, 2.0, "Hand, Meld and Context built directly, then every ruleset"),
        Target("batch", run_batch, 2.0, "evaluate_counts: buffers of any type, shape and content"),
        Target("batchfile", run_batchfile, 2.0, "score --batch: JSONL files of good, bad and hostile lines"),
        Target("log", run_log, 5.0, "event logs: real ones mutated, replayed"),
        Target("table", run_table, 10.0, "Table: legal actions and arbitrary act() calls, then the log replayed"),
    )
}
