"""Score a file of hands: JSONL or Parquet in, one result row per hand out, in order.

The file is read in partitions of consecutive hands; :func:`score_partition` turns
one partition into its rows and is the only place that evaluates.  Reading, writing
and scheduling (:mod:`mjr.jobs.executor`) stay apart from it, so the same job runs in a
thread pool or on a Dask cluster with the same rows, and the scoring of a partition
can change (to a columnar batch call) without touching the rest.

A hand that cannot be scored -- a line that is not JSON, a malformed hand, an
impossible one, one outside the ruleset -- is refused in its row, with a message
naming its line (JSONL) or row (Parquet), and the run goes on.  Rows, formats and
exit status are described in the docs of ``mjr score --batch``.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import stat
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import IO, Any, Protocol

from ..abi import STATUS_WIN
from ..errors import HandError, MjrError, NotationError, Problem, Span, UnfinishedRunError, first_line, missing_extra
from ..hand.model import Hand, impossibility
from ..notation.json import hand_from_json
from ..ruleset.loaded import Ruleset
from .executor import Progress, load_on_worker, map_partitions
from .job import Job

#: The column of a Parquet file that holds the hands: hand JSON or notation text.
HAND_COLUMN = "hand"
PARQUET_SUFFIXES = (".parquet", ".pq")
JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")
#: The longest line of a JSONL file (without its line ending), or text of a Parquet
#: cell, read as a hand: 64 KiB, where the largest hand JSON is a few kilobytes.  A
#: longer one is refused by its place, and no more than this of it is ever held.
MAX_LINE_BYTES = 64 * 1024

#: The classes a refusal is counted in, in the order the summary lists them.
NOT_JSON, BAD_HAND, IMPOSSIBLE, BY_RULESET = "not JSON", "bad hand", "impossible hand", "refused by the ruleset"
REFUSAL_CLASSES = (NOT_JSON, BAD_HAND, IMPOSSIBLE, BY_RULESET)

Row = dict[str, Any]
#: The fields of a result row, in order (the Parquet columns).
ROW_FIELDS = ("index", "is_win", "points", "fan", "fans", "reason", "refused", "refusal")


@dataclass(frozen=True)
class LongLine:
    """A line or cell past :data:`MAX_LINE_BYTES`, kept as its length only."""

    length: int


@dataclass(frozen=True)
class Partition:
    """Consecutive hands of one file: the text of each (bytes for a JSONL line, text
    or None for a Parquet cell, a :class:`LongLine` for one too long to read), and
    where the first one is, for messages."""

    source: str  # the file as the user named it
    first: int  # index of the first hand in the file, from 0
    texts: Sequence[bytes | str | LongLine | None]
    parquet: bool = False

    def place(self, offset: int) -> str:
        """``hands.jsonl:12`` (the line) or ``hands.parquet: row 12``, from 1."""
        number = self.first + offset + 1
        return f"{self.source}: row {number}" if self.parquet else f"{self.source}:{number}"


class _Refused(Exception):
    """A hand that is refused: its class and the message for its row."""

    def __init__(self, refusal: str, message: str) -> None:
        super().__init__(message)
        self.refusal, self.message = refusal, message


# --------------------------------------------------------------------------- scoring


def score_partition(ruleset: Ruleset, partition: Partition) -> list[Row]:
    """The result row of every hand of ``partition``, in order; never raises for a
    bad hand, which is refused in its row instead.  The hands read are scored as
    one batch of records; a hand that does not win, or is refused, is evaluated
    alone for the words of its reason."""
    rows: list[Row | None] = [None] * len(partition.texts)
    read: list[tuple[int, Hand]] = []
    records = []
    for offset, text in enumerate(partition.texts):
        try:
            hand = _read_hand(text, partition, offset, ruleset)
        except _Refused as refused:
            rows[offset] = refused_row(partition.first + offset, refused.refusal, refused.message)
            continue
        record = ruleset.records.record(hand) if hand.win_tile is not None else None
        if record is None:  # no record: evaluate says why
            rows[offset] = _row(partition, offset, ruleset, hand)
        else:
            read.append((offset, hand))
            records.append(record)
    scores = ruleset.evaluate_batch(b"".join(records), workers=1, fans=True)
    for number, (offset, hand) in enumerate(read):
        if scores.status[number] == STATUS_WIN:
            rows[offset] = {"index": partition.first + offset, "is_win": True, "points": scores.points[number],
                            "fan": scores.fan[number], "fans": list(scores.fan_ids(number)), "reason": None,
                            "refused": None, "refusal": None}
        else:
            rows[offset] = _row(partition, offset, ruleset, hand)
    return [row for row in rows if row is not None]


def _row(partition: Partition, offset: int, ruleset: Ruleset, hand: Hand) -> Row:
    try:
        return _result_row(partition.first + offset, ruleset, hand, partition.place(offset))
    except _Refused as refused:
        return refused_row(partition.first + offset, refused.refusal, refused.message)


def score_partition_named(name: str, backend: str, options: tuple[tuple[str, object], ...],
                          partition: Partition) -> list[Row]:
    """:func:`score_partition` with the ruleset loaded here by id or path and its
    table options: what a cluster worker runs, so that only names and text travel,
    never a compiled module."""
    return score_partition(load_on_worker(name, backend, options), partition)


def _result_row(index: int, ruleset: Ruleset, hand: Hand, where: str) -> Row:
    try:
        result = ruleset.evaluate(hand)
    except HandError as error:
        raise _Refused(_refusal_class(ruleset, hand), f"{where}: {error}") from None
    if not result.is_win:
        return {"index": index, "is_win": False, "points": -1, "fan": -1, "fans": [], "reason": result.reason,
                "refused": None, "refusal": None}
    return {"index": index, "is_win": True, "points": result.points, "fan": result.fan,
            "fans": list(result.fan_ids), "reason": None, "refused": None, "refusal": None}


def refused_row(index: int, refusal: str, message: str) -> Row:
    return {"index": index, "is_win": False, "points": None, "fan": None, "fans": None, "reason": None,
            "refused": message, "refusal": refusal}


def _refusal_class(ruleset: Ruleset, hand: Hand) -> str:
    """Why ``evaluate`` refused a hand that was read well: it has no winning tile, no
    table could deal it, or this ruleset does not play it (tiles, size, facts, claims)."""
    if hand.win_tile is None:
        return BAD_HAND
    impossible = impossibility(hand, ruleset.indicator_in_play, ruleset.generated.robbed_pung) is not None
    return IMPOSSIBLE if impossible else BY_RULESET


def _read_hand(text: bytes | str | LongLine | None, partition: Partition, offset: int, ruleset: Ruleset) -> Hand:
    """The hand in a line (a JSON object, or a JSON string of notation) or a Parquet
    cell (hand JSON, or notation); refused with its place otherwise."""
    where = partition.place(offset)
    if text is None:
        raise _Refused(BAD_HAND, f"{where}: no hand (an empty cell)")
    if isinstance(text, LongLine):
        raise _Refused(NOT_JSON, f"{where}: a {'cell' if partition.parquet else 'line'} of {text.length} bytes, "
                                 f"not read: a hand takes at most {MAX_LINE_BYTES} bytes")
    value = _json_value(text, partition, offset) if isinstance(text, bytes) or text.lstrip()[:1] == "{" else text
    try:
        if isinstance(value, dict):
            return hand_from_json(value)
        if isinstance(value, str):
            return ruleset.read_hand(value)
    except NotationError as error:
        shown = f"{error.text}: {error.reason}" if isinstance(value, dict) else str(error)
        raise _Refused(BAD_HAND, f"{where}: {shown}") from None
    raise _Refused(BAD_HAND, f"{where}: expected a hand JSON object or a string of hand notation, "
                             f"not {'null' if value is None else type(value).__name__}")


def _json_value(text: bytes | str, partition: Partition, offset: int) -> Any:
    """A JSON value, or a refusal with the line, the column and a caret."""
    where = partition.place(offset)
    try:
        line = text.decode("utf-8") if isinstance(text, bytes) else text
    except UnicodeDecodeError as error:
        raise _Refused(NOT_JSON, f"{where}: not UTF-8 text (byte {error.start + 1})") from None
    if not line.strip():
        raise _Refused(NOT_JSON, f"{where}: an empty {'cell' if partition.parquet else 'line'}; expected a hand")
    try:
        return json.loads(line)
    except json.JSONDecodeError as error:
        message, column = f"not JSON: {error.msg}", error.colno
    except RecursionError:
        message, column = "not JSON: nested too deeply", 1
    except ValueError:  # an integer past Python's digits limit (sys.get_int_max_str_digits)
        digits = max(re.finditer(r"\d+", line), key=lambda match: len(match.group()), default=None)
        message = (f"not JSON: a number of {len(digits.group()) if digits else 'too many'} digits "
                   f"(at most {sys.get_int_max_str_digits()} are read)")
        column = digits.start() + 1 if digits else 1
    if partition.parquet:
        raise _Refused(NOT_JSON, f"{where}: {NotationError(line, column - 1, message)}")
    number = partition.first + offset + 1
    raise _Refused(NOT_JSON, Problem(Span(partition.source, number, column), message, line).render())


# --------------------------------------------------------------------------- reading


def is_parquet(path: Path) -> bool:
    """A Parquet file by its name, or by the magic bytes it starts with."""
    if path.suffix.lower() in PARQUET_SUFFIXES:
        return True
    try:
        with path.open("rb") as file:
            return file.read(4) == b"PAR1"
    except OSError:
        return False


def read_partitions(path: Path, source: str, size: int) -> Iterator[Partition]:
    """The hands of a JSONL or Parquet file, ``size`` at a time, read as they are
    needed; a part of the file that cannot be read stops the run
    (:class:`~mjr.errors.UnfinishedRunError`)."""
    if is_parquet(path):
        yield from _parquet_partitions(path, source, size)
        return
    try:
        file = path.open("rb")
    except OSError as error:
        raise MjrError(f"cannot read {source}: {error.strerror or error}") from None
    first, texts = 0, []
    with file:
        try:
            for line in _lines(file):
                texts.append(line)
                if len(texts) == size:
                    yield Partition(source, first, texts)
                    first, texts = first + size, []
        except OSError as error:
            raise UnfinishedRunError(f"cannot read {source} past line {first + len(texts)}: "
                                     f"{error.strerror or error}") from None
    if texts:
        yield Partition(source, first, texts)


def _lines(file: IO[bytes]) -> Iterator[bytes | LongLine]:
    """The lines of a binary file without their line endings (``\\n`` or ``\\r\\n``);
    a line past :data:`MAX_LINE_BYTES` is skipped in pieces of that size, and only
    its length kept."""
    while line := file.readline(MAX_LINE_BYTES + 2):  # room for the line ending
        if line.endswith(b"\n") or len(line) < MAX_LINE_BYTES + 2:  # a whole line, or the last one
            line = line.removesuffix(b"\n").removesuffix(b"\r")
            yield line if len(line) <= MAX_LINE_BYTES else LongLine(len(line))
            continue
        length = len(line)
        while rest := file.readline(MAX_LINE_BYTES):
            if rest.endswith(b"\n"):
                length += len(rest.removesuffix(b"\n").removesuffix(b"\r"))
                break
            length += len(rest)
        yield LongLine(length)


def _pyarrow(why: str) -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise missing_extra(f"{why} needs pyarrow, which is not installed", "parquet") from None
    return pyarrow


def _parquet_file(path: Path, source: str) -> Any:
    pa = _pyarrow("reading Parquet")
    try:
        file = pa.parquet.ParquetFile(path)
    except (OSError, pa.ArrowException) as error:
        raise MjrError(f"cannot read {source} as Parquet: {error}") from None
    schema = file.schema_arrow
    if HAND_COLUMN not in schema.names:
        raise MjrError(f"{source}: no column {HAND_COLUMN!r}; a Parquet file of hands has a text column "
                       f"{HAND_COLUMN!r} of hand JSON or notation (this one has: {', '.join(schema.names)})")
    kind = schema.field(HAND_COLUMN).type
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
        raise MjrError(f"{source}: column {HAND_COLUMN!r} must hold text (hand JSON or notation), not {kind}")
    return file


def _parquet_partitions(path: Path, source: str, size: int) -> Iterator[Partition]:
    """The cells of the hand column, row group by row group, ``size`` at a time; a row
    group that cannot be read stops the run, naming it."""
    file = _parquet_file(path, source)
    pa = _pyarrow("reading Parquet")
    texts: list[str | LongLine | None] = []
    first, start = 0, 0  # start: the first row of the row group
    for group in range(file.num_row_groups):
        rows = file.metadata.row_group(group).num_rows
        try:
            for batch in file.iter_batches(batch_size=size, row_groups=[group], columns=[HAND_COLUMN]):
                texts.extend(_cell(text) for text in batch.column(0).to_pylist())
                while len(texts) >= size:
                    yield Partition(source, first, texts[:size], parquet=True)
                    first, texts = first + size, texts[size:]
        except (OSError, pa.ArrowException) as error:
            raise UnfinishedRunError(f"cannot read {source}: row group {group + 1} of {file.num_row_groups} "
                                     f"(rows {start + 1}-{start + rows}) is damaged: {first_line(error)}") from None
        start += rows
    if texts:
        yield Partition(source, first, texts, parquet=True)


def _cell(text: str | None) -> str | LongLine | None:
    """A Parquet cell, or its length when it is too long to read as a hand."""
    if text is not None and len(text) > MAX_LINE_BYTES // 4 and len(text.encode("utf-8", "replace")) > MAX_LINE_BYTES:
        return LongLine(len(text.encode("utf-8", "replace")))
    return text


def count_hands(path: Path) -> int | None:
    """How many hands the file holds (for a progress bar), or None if it cannot say."""
    try:
        if is_parquet(path):
            return int(_parquet_file(path, str(path)).metadata.num_rows)
        lines, last = 0, b"\n"
        with path.open("rb") as file:
            while chunk := file.read(1 << 20):
                lines += chunk.count(b"\n")
                last = chunk[-1:]
        return lines + (last != b"\n")
    except (OSError, MjrError):
        return None


# --------------------------------------------------------------------------- writing


class RowWriter(Protocol):
    def write(self, rows: list[Row]) -> None: ...

    def close(self) -> None: ...


class JsonlWriter:
    """Rows as JSON lines, to a text stream (flushed, not closed, at the end)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, rows: list[Row]) -> None:
        self.stream.write("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))

    def close(self) -> None:
        self.stream.flush()


class ParquetWriter:
    """Rows as a Parquet file with one column per row field, to a binary stream; a
    refused hand has null points, fan and fans."""

    def __init__(self, stream: IO[bytes]) -> None:
        pa = self.pa = _pyarrow("writing Parquet")
        self.schema = pa.schema([("index", pa.int64()), ("is_win", pa.bool_()), ("points", pa.int64()),
                                 ("fan", pa.int64()), ("fans", pa.list_(pa.string())), ("reason", pa.string()),
                                 ("refused", pa.string()), ("refusal", pa.string())])
        self.writer = pa.parquet.ParquetWriter(stream, self.schema)

    def write(self, rows: list[Row]) -> None:
        self.writer.write_table(self.pa.Table.from_pylist(rows, schema=self.schema))

    def close(self) -> None:
        self.writer.close()  # the footer; the stream stays open


class Output:
    """Where the rows of a run go, so that a run that stops never leaves a file that
    looks complete.

    Rows for a file are written to a temporary file in the file's folder, which
    :meth:`finish` puts in its place with :func:`os.replace` (the file itself when
    the name is a link to it), with the mode of the file it replaces, and
    :meth:`discard` removes: a run that stops leaves
    the old file as it was, or none.  A device or a pipe (``/dev/stdout``, a FIFO)
    is written as the rows come, as there is nothing to replace; so is stdout
    without ``--out``.  ``--out`` naming the input file by any path (a link, a
    hard link, a bind mount: the same device and inode) is refused before anything
    is opened for writing.
    """

    def __init__(self, out: Path | None, source: Path, parquet: bool) -> None:
        self.name = "stdout" if out is None else str(out)
        self.temp: Path | None = None
        self.target: Path | None = None
        if out is None:
            self.stream: IO[Any] = sys.stdout
            if _same_file(_fd_stat(sys.stdout), source):
                raise MjrError(f"stdout is the input file {source}; write the results to another file (--out)")
            return
        if _same_file(_stat(out), source):
            raise MjrError(f"--out {out} is the input file; write the results to another file")
        info = _stat(out)
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise MjrError(f"cannot write {out}: it is a folder")
        try:
            if info is not None and not stat.S_ISREG(info.st_mode):  # a device or a pipe: written in place
                handle = os.open(out, os.O_WRONLY)
            else:
                self.target = Path(os.path.realpath(out))
                self.temp, handle = _temp_beside(self.target)
                if info is not None:  # the file it replaces keeps its mode: a private one stays private
                    os.fchmod(handle, stat.S_IMODE(info.st_mode))
        except OSError as error:
            raise MjrError(f"cannot write {out}: {error.strerror or error}") from None
        self.stream = os.fdopen(handle, "wb") if parquet else os.fdopen(handle, "w", encoding="utf-8")

    def finish(self) -> None:
        """The rows are all written: flush them, and put the file in its place."""
        if self.stream is sys.stdout:
            self.stream.flush()
            return
        if self.temp is not None:
            self.stream.flush()
            os.fsync(self.stream.fileno())  # on the disk before it takes the name
        self.stream.close()
        if self.temp is not None and self.target is not None:
            os.replace(self.temp, self.target)
            self.temp = None

    def left(self) -> str:
        """What a run that stops now leaves of its rows, in words."""
        if self.temp is not None:
            return f"{self.name} was not written"
        return f"the rows so far went to {self.name}"

    def discard(self) -> None:
        """The run stopped: close the stream and remove the temporary file."""
        if self.stream is not sys.stdout:
            try:
                self.stream.close()
            except OSError:
                pass  # the unwritten rows of a full disk: they go with the file
        if self.temp is not None:
            self.temp.unlink(missing_ok=True)
            self.temp = None


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _fd_stat(stream: Any) -> os.stat_result | None:
    try:
        return os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is an OSError
        return None


def _same_file(info: os.stat_result | None, source: Path) -> bool:
    """Whether ``info`` is of ``source`` itself (by device and inode), however named."""
    other = _stat(source)
    return info is not None and other is not None and (info.st_dev, info.st_ino) == (other.st_dev, other.st_ino)


def _temp_beside(target: Path) -> tuple[Path, int]:
    """A new temporary file in ``target``'s folder, named after it, open for writing
    (made with the mode a new file gets, 0o666 less the umask)."""
    while True:
        temp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            return temp, os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue


def _discard(writer: RowWriter | None, output: Output) -> None:
    """Drop what a run that stopped wrote: the writer closed (so it does not try
    again when collected), the temporary file removed."""
    if writer is not None:
        try:
            writer.close()
        except Exception:  # the run has already failed; what the writer held goes with the file
            pass
    output.discard()


@contextmanager
def _writing(output: Output) -> Iterator[None]:
    """An output that cannot be written (a full disk, a closed pipe) stops the run."""
    try:
        yield
    except BrokenPipeError:  # the reader went away (`mjr score --batch ... | head`): no error
        raise
    except OSError as error:
        raise UnfinishedRunError(f"cannot write {output.name}: {error.strerror or first_line(error)}") from None


def open_writer(output: Output, parquet: bool) -> RowWriter:
    """The writer of the rows' format on ``output``."""
    return ParquetWriter(output.stream) if parquet else JsonlWriter(output.stream)


def writes_parquet(out: Path | None, source: Path) -> bool:
    """JSONL on stdout without ``out``; else the format of ``out``'s extension, or of
    the input file when the extension names none."""
    if out is None:
        return False
    suffix = out.suffix.lower()
    return suffix in PARQUET_SUFFIXES or (suffix not in JSONL_SUFFIXES and is_parquet(source))


# --------------------------------------------------------------------------- the job


@dataclass
class Summary:
    """What a run did: hands scored, won, refused, and the refusals by class."""

    hands: int = 0
    won: int = 0
    refusals: Counter[str] = field(default_factory=Counter)

    @property
    def refused(self) -> int:
        return sum(self.refusals.values())

    def add(self, rows: list[Row]) -> None:
        self.hands += len(rows)
        self.won += sum(1 for row in rows if row["is_win"])
        self.refusals.update(row["refusal"] for row in rows if row["refusal"] is not None)

    def line(self) -> str:
        """``1000 hands: 750 won, 240 did not win, 10 refused (6 not JSON, 4 bad hand)``."""
        lost = self.hands - self.won - self.refused
        text = f"{self.hands} hands: {self.won} won, {lost} did not win, {self.refused} refused"
        if self.refused:
            text += " (" + ", ".join(f"{n} {why}" for why, n in self.by_class()) + ")"
        return text

    def by_class(self) -> list[tuple[str, int]]:
        return [(why, self.refusals[why]) for why in REFUSAL_CLASSES if self.refusals[why]]

    def to_json(self) -> dict[str, Any]:
        return {"hands": self.hands, "won": self.won, "not_won": self.hands - self.won - self.refused,
                "refused": self.refused, "refusals": dict(self.by_class())}




def score_file(job: Job) -> Summary:
    """Score every hand of the job's file, write the rows, and count what happened.

    A run that cannot be made (the file cannot be read, ``--out`` is the input)
    raises :class:`MjrError` before anything is written; one that stops before its
    end (a worker lost, a part of the file that cannot be read, a full disk) raises
    :class:`~mjr.errors.UnfinishedRunError` and leaves no output file (or the old
    one as it was)."""
    path = Path(job.source)
    if not path.is_file():
        raise MjrError(f"cannot read {job.source}: " + ("not a file" if path.exists() else "no such file"))
    if job.scheduler is None:
        task = partial(score_partition, job.ruleset)
    else:
        task = partial(score_partition_named, job.name, job.backend, tuple(job.ruleset.choices.items()))
    if is_parquet(path):
        _parquet_file(path, job.source)  # a file that cannot be read fails before --out is made
    parquet = writes_parquet(job.out, path)
    if parquet:
        _pyarrow("writing Parquet")
    summary = Summary()
    bar = Progress(count_hands(path) if job.progress and sys.stderr.isatty() else None)
    bar.enabled = bar.enabled and job.progress
    output = Output(job.out, path, parquet)
    results = map_partitions(task, read_partitions(path, job.source, job.partition_size),
                             workers=job.workers, scheduler=job.scheduler)
    writer: RowWriter | None = None
    try:
        with _writing(output):
            writer = open_writer(output, parquet)
        for rows in results:
            with _writing(output):
                writer.write(rows)
            summary.add(rows)
            bar.advance(len(rows))
        with _writing(output):
            writer.close()
            output.finish()
    except UnfinishedRunError as error:
        left = output.left()
        _discard(writer, output)
        raise UnfinishedRunError(f"{error}; the run stopped after {summary.hands} hands, and {left}") from None
    except BaseException:
        _discard(writer, output)
        raise
    finally:
        results.close()
        bar.close()
    return summary
