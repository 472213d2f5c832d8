"""Batches of hand records: reading them in place, scoring them on every core.

:meth:`mjr.Ruleset.evaluate_batch` takes hands with their melds and contexts as
records (:mod:`mjr.ruleset.records`): a NumPy structured array of the ruleset's
``record_dtype()``, any buffer of records, an Arrow table of the same columns, or
hands to pack.  The compiled loop checks and scores each hand without the GIL, so
a batch is split across threads, each with its own share of the output arrays.
"""

from __future__ import annotations

import math
import os
from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from ..abi import STATUS_IMPOSSIBLE, STATUS_MALFORMED, STATUS_NAMES, STATUS_OUTSIDE_RULES, STATUS_REFUSED
from ..errors import BatchError, MjrError
from ..hand.model import impossibility
from .counts import zeros

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import Any

    from .loaded import Ruleset

#: Hands per thread below which a batch is not worth splitting.
MIN_SHARE = 2048
#: What the batch arrays hold for a hand it refused, or whose points overflow.
REFUSED, OVERFLOWED = -2, -3
#: A hand of a list that could not be packed: its status and why.
Unpacked = tuple[int, str]


@dataclass(frozen=True)
class BatchScores:
    """What a batch scored, hand by hand: ``points`` and ``fan`` (-1 not a win, -2
    refused, -3 its points passed 64 bits), ``status`` (:data:`mjr.abi.STATUS_NAMES`:
    below 16 scored, from 16 on refused), and with ``fans=True`` the awarded fans,
    ``fan_words`` 64-bit words per hand (fan ``i`` of :attr:`mjr.Ruleset.fans` is bit
    ``i % 64`` of word ``i // 64``)."""

    points: array[int]
    fan: array[int]
    status: bytearray
    fans: array[int] | None = None
    fan_words: int = 0
    #: the index of the first hand refused (or whose points passed 64 bits), or -1
    first_refused: int = -1
    ruleset: Ruleset = field(repr=False, compare=False, kw_only=True)
    #: the records scored, as flat bytes
    records: memoryview = field(repr=False, compare=False, kw_only=True)
    #: why each hand of a list that could not be packed into a record was refused, by index
    unpacked: dict[int, str] = field(default_factory=dict, repr=False, compare=False, kw_only=True)

    def __len__(self) -> int:
        return len(self.points)

    def counts(self) -> dict[str, int]:
        """How many hands had each status, by name (``win``, ``shape``, ``malformed``...)."""
        return {STATUS_NAMES[status]: n for status, n in sorted(Counter(self.status).items())}

    def fan_indices(self, hand: int) -> tuple[int, ...]:
        """The indices (in :attr:`mjr.Ruleset.fans`) of the fans hand ``hand`` was awarded."""
        if self.fans is None:
            raise MjrError("the batch was scored without fans=True: no fans were kept")
        words = self.fans[hand * self.fan_words:(hand + 1) * self.fan_words]
        return tuple(64 * w + bit for w, word in enumerate(words) for bit in range(64) if word >> bit & 1)

    def fan_ids(self, hand: int) -> tuple[str, ...]:
        """The ids of the fans hand ``hand`` was awarded (needs ``fans=True``)."""
        return tuple(self.ruleset.fans[i].id for i in self.fan_indices(hand))

    def reason(self, hand: int) -> str:
        """Why hand ``hand`` was refused, in :meth:`mjr.Ruleset.check_hand`'s words
        ("" when it was scored)."""
        from ..errors import HandError, RecordError

        if self.status[hand] < STATUS_REFUSED:
            return ""
        if hand in self.unpacked:
            return self.unpacked[hand]
        size = self.ruleset.records.size
        try:
            self.ruleset.evaluate(self.ruleset.records.hand(bytes(self.records[hand * size:(hand + 1) * size])))
        except (RecordError, HandError) as error:
            return str(error)
        raise AssertionError(f"batch hand {hand} refused by the kernel but not by evaluate")  # pragma: no cover


def run_batch(ruleset: Ruleset, records: memoryview, n: int, *, fan_words: int, workers: int | None,
              unpacked: dict[int, Unpacked] | None = None) -> BatchScores:
    """Score the ``n`` hand records of ``records`` with the ruleset's compiled loop,
    on ``workers`` threads (``None``: every core, for a batch big enough to share).
    Each thread scores a contiguous share into its own slice of the outputs, so the
    answer is the same whatever the number of threads.  The hands of ``unpacked``
    (a stand-in record each) are marked refused, with their status and reason."""
    points, fan = zeros("q", n), zeros("q", n)
    status = bytearray(n)
    fans = zeros("Q", n * fan_words)
    threads = _threads(workers, n)
    size = ruleset.records.size

    def share(bounds: tuple[int, int]) -> int:
        return ruleset.generated.evaluate_records(
            records, size, records, size, b"", True, bounds[0], bounds[1], n, points, fan, status, fans, fan_words)

    if threads == 1:
        first = share((0, n))
    else:
        from concurrent.futures import ThreadPoolExecutor

        step = -(-n // threads)
        with ThreadPoolExecutor(threads) as pool:
            firsts = [index for index in pool.map(share, [(start, min(n, start + step))
                                                          for start in range(0, n, step)]) if index >= 0]
        first = min(firsts, default=-1)
    reasons: dict[int, str] = {}
    if unpacked:
        for index, (code, why) in unpacked.items():
            points[index] = fan[index] = REFUSED
            status[index] = code
            fans[index * fan_words:(index + 1) * fan_words] = zeros("Q", fan_words)
            reasons[index] = why
        first = min(first if first >= 0 else n, min(unpacked))
    return BatchScores(points, fan, status, fans if fan_words else None, fan_words, first, ruleset=ruleset,
                       records=records, unpacked=reasons)


@cache
def _cores() -> int:
    """The machine's cores, asked once (``os.cpu_count`` costs more than a small batch)."""
    return os.cpu_count() or 1


def _threads(workers: int | None, n: int) -> int:
    if workers is None:
        return max(1, min(_cores(), n // MIN_SHARE))
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise MjrError(f"workers must be a whole number of threads, 1 or more, not {workers!r}")
    return max(1, min(workers, n))


def record_view(ruleset: Ruleset, hands: Any,
                unpacked: dict[int, Unpacked] | None = None) -> tuple[memoryview, int]:
    """A batch as a flat read-only byte view of whole records, and how many:
    read in place from a buffer (a NumPy structured array is viewed as bytes),
    copied from an Arrow table, packed from hands.  A hand of a list that cannot be
    packed raises :class:`BatchError` naming its index; given ``unpacked``, it gets
    a stand-in record instead, and its status and reason go there by its index."""
    size = ruleset.records.size
    if type(hands) is bytes and len(hands) % size == 0:  # the usual batch: already flat, read-only records
        return memoryview(hands), len(hands) // size
    if _is_arrow(hands):
        hands = _from_arrow(ruleset, hands)
    elif isinstance(hands, (list, tuple)) or _is_iterator(hands):
        return _pack(ruleset, hands, unpacked)
    dtype = getattr(hands, "dtype", None)
    if dtype is not None and getattr(dtype, "names", None):
        if dtype.itemsize != size:
            raise BatchError(f"the records are {dtype.itemsize} bytes each; {ruleset.id}'s are {size} "
                             f"(use ruleset.record_dtype())")
        hands = hands.reshape(-1).view("u1") if hands.flags.c_contiguous else hands
    try:
        view = memoryview(hands)
    except TypeError:
        raise BatchError(f"a batch must be hands (a list of Hand or hand strings), a buffer of {ruleset.id} "
                         f"records, or an Arrow table; not {type(hands).__name__}") from None
    if not view.c_contiguous:
        raise BatchError("the records must be C-contiguous (one after another); make a contiguous copy")
    if view.itemsize != 1 or view.format not in ("B", "b", "c"):
        raise BatchError(f"the records must be bytes ({ruleset.id}'s record_dtype(), or a byte buffer); "
                         f"this one holds items of format {view.format!r}")
    flat = view.cast("B") if view.ndim != 1 or view.format != "B" else view
    if len(flat) % size:
        raise BatchError(f"a batch holds whole records of {size} bytes; got {len(flat)} bytes")
    return flat.toreadonly(), len(flat) // size


def _is_iterator(value: Any) -> bool:
    return isinstance(value, Iterable) and not hasattr(value, "__buffer__") and not isinstance(
        value, (bytes, bytearray, memoryview, array)) and iter(value) is value


def _pack(ruleset: Ruleset, hands: Iterable[Any], unpacked: dict[int, Unpacked] | None) -> tuple[memoryview, int]:
    """Hands (``Hand`` or hand strings) as records; one that cannot be a record is
    refused here, naming its index, or kept in ``unpacked`` with a stand-in record."""
    out = bytearray()
    n = 0
    for n, hand in enumerate(hands, 1):
        try:
            record = _record(ruleset, hand)
        except _Unpackable as error:
            if unpacked is None:
                raise BatchError(f"hand {n - 1} of the batch: {error.reason}") from None
            unpacked[n - 1] = (error.status, error.reason)
            record = bytes(ruleset.records.size)  # scored, then marked refused
        out += record
    return memoryview(bytes(out)), n


class _Unpackable(Exception):
    """A hand of a list that cannot be a record: its status and the reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


def _record(ruleset: Ruleset, hand: Any) -> bytes:
    """The record of one hand of a list, or :class:`_Unpackable` with why not: not
    read (``malformed``), or refused as :meth:`mjr.Ruleset.check_hand` refuses it."""
    try:
        parsed = ruleset._hand(hand)
    except MjrError as error:
        raise _Unpackable(STATUS_MALFORMED, str(error)) from None
    if parsed.win_tile is None:
        raise _Unpackable(STATUS_MALFORMED, "a hand to evaluate needs its winning tile: add 'win T'")
    record = ruleset.records.record(parsed)
    if record is not None:
        return record
    try:
        ruleset.check_hand(parsed, winning=True)
    except MjrError as error:  # its HandError
        impossible = impossibility(parsed, ruleset.indicator_in_play, ruleset.generated.robbed_pung) is not None
        raise _Unpackable(STATUS_IMPOSSIBLE if impossible else STATUS_OUTSIDE_RULES, str(error)) from None
    raise AssertionError("a hand check_hand accepts has a record")  # pragma: no cover


def _is_arrow(value: Any) -> bool:
    return type(value).__module__.startswith("pyarrow") and hasattr(value, "column_names")


def _from_arrow(ruleset: Ruleset, table: Any) -> Any:
    """An Arrow table whose columns are the fields of ``record_dtype()`` (a list
    column for ``counts``, ``melds`` and the facts) as a NumPy record array."""
    import numpy

    out = numpy.zeros(table.num_rows, dtype=ruleset.record_dtype())
    names = set(table.column_names)
    missing = [name for name in ("counts", "win") if name not in names]
    if missing:
        raise BatchError(f"the Arrow table has no column {missing[0]!r} (its columns: {', '.join(sorted(names))})")
    for name in out.dtype.names:
        if name not in names:
            if name in ("dealer", "indicator", "void"):
                out[name] = 255
            elif name == "winners":
                out[name] = 1
            continue
        column = table.column(name).combine_chunks()
        shape = out.dtype[name].shape
        values = numpy.asarray(column.flatten().flatten() if len(shape) == 2 else
                               column.flatten() if shape else column)
        _check_arrow_values(name, values, out.dtype[name].base, max(1, math.prod(shape)))
        try:
            out[name] = values.reshape((table.num_rows, *shape))
        except ValueError:
            raise BatchError(f"the Arrow column {name!r} holds {values.size} values; "
                             f"{table.num_rows} rows need {table.num_rows} x {shape or 1}") from None
    return out


def _check_arrow_values(name: str, values: Any, target: Any, per_row: int) -> None:
    """Refuse an Arrow column's values that its record field cannot hold as they
    are (a number past the field's range, a fraction, a null), naming the row,
    rather than let NumPy wrap or truncate them into another hand."""
    import numpy

    if not values.size:
        return
    if values.dtype.kind not in "iub":
        raise BatchError(f"the Arrow column {name!r} holds {values.dtype} values (nulls, fractions or text); "
                         f"it takes whole numbers")
    limits = numpy.iinfo(target)
    outside = (values < limits.min) | (values > limits.max)
    if outside.any():
        at = int(numpy.argmax(outside))
        raise BatchError(f"the Arrow column {name!r} holds {values[at]} in row {at // per_row}: "
                         f"a {target} field holds {limits.min}-{limits.max}")


__all__ = ["BatchScores", "run_batch", "record_view"]
