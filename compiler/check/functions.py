"""Functions of numbers and lookup tables: what each call may be given, the
tables' own checks, and the range a call's result keeps to.

``min(a, b, ...)`` and ``max(a, b, ...)`` take two or more numbers;
``round_up(x, step)`` and ``round_down(x, step)`` round ``x`` to a multiple of a
step that is 1 or more.  A ``table`` is looked up as ``NAME(row)`` or, with
``columns``, ``NAME(row, column)``: each row (and column) holds from its key up to
the next one's, so a table has no gaps above its first key, and the checker
refuses a lookup whose argument can be below it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from mjr.dsl import ast
from mjr.dsl.quoting import quoted
from mjr.errors import Span

from ..model import ir

Report = Callable[[Span, str], None]
Interval = tuple[int, int]

INT64_MAX = 2**63 - 1


@dataclass(frozen=True)
class Function:
    """A function of numbers: how many arguments (``most`` None: any number from
    ``least``) and what it does, for messages."""

    least: int
    most: int | None
    usage: str


FUNCTIONS = {
    "min": Function(2, None, "min(A, B, ...): the least of two or more numbers"),
    "max": Function(2, None, "max(A, B, ...): the greatest of two or more numbers"),
    "round_up": Function(2, 2, "round_up(X, STEP): X rounded up to a multiple of STEP (1 or more)"),
    "round_down": Function(2, 2, "round_down(X, STEP): X rounded down to a multiple of STEP (1 or more)"),
}


def arity_problem(name: str, given: int, tables: dict[str, ir.Table]) -> str | None:
    """Why ``name`` cannot take ``given`` arguments (None: it can)."""
    if name in tables:
        wanted = 2 if tables[name].columns else 1
        if given == wanted:
            return None
        how = "a row and a column" if wanted == 2 else "one row"
        return f"table {quoted(name)} is looked up with {how}: {name}({'ROW, COLUMN' if wanted == 2 else 'ROW'})"
    function = FUNCTIONS[name]
    if given >= function.least and (function.most is None or given <= function.most):
        return None
    return f"{name} takes {_count(function)}: {function.usage}"


def _count(function: Function) -> str:
    if function.most is None:
        return f"{function.least} or more numbers"
    return f"{function.least} numbers" if function.least == function.most else \
        f"{function.least} to {function.most} numbers"


def lower_table(index: int, table: ast.Table, report: Report) -> ir.Table:
    """``table`` checked: keys and columns ascending, each row as long as the
    columns (or of one value), every number within 64 bits."""
    _ascending([(column, table.columns_span or table.span) for column in table.columns], "columns", report)
    _ascending([(key, span) for key, _, span in table.rows], "row keys", report)
    for column in table.columns:
        if abs(column) > INT64_MAX:
            report(table.columns_span or table.span, f"{column} is past the 64-bit integers mjr counts in "
                                                     f"(at most {INT64_MAX:.3g})")
    width = len(table.columns) or 1
    for key, values, span in table.rows:
        if len(values) != width:
            what = f"{width} values, one per column" if table.columns else "one value (a table with several " \
                   "values a row needs a 'columns' line)"
            has = f"{len(values)} value{'s' if len(values) != 1 else ''}"
            report(span, f"row {key} of table {quoted(table.id)} has {has}; it needs {what}")
        for number in (key, *values):
            if abs(number) > INT64_MAX:
                report(span, f"{number} is past the 64-bit integers mjr counts in (at most {INT64_MAX:.3g})")
    return ir.Table(index, table.id, table.display, table.columns, tuple(key for key, _, _ in table.rows),
                    tuple(values for _, values, _ in table.rows), table.span)


def _ascending(keys: list[tuple[int, Span]], what: str, report: Report) -> None:
    for (before, _), (key, span) in zip(keys, keys[1:], strict=False):
        if key <= before:
            report(span, f"the {what} of a table go up: {key} comes after {before}")


def reachable(keys: tuple[int, ...], interval: Interval) -> range:
    """The indices of the rows (or columns) a number within ``interval`` can fall
    in; its low end is at least the first key (see :func:`below_first_key`)."""
    low, high = interval
    first = max(i for i, key in enumerate(keys) if key <= max(low, keys[0]))
    last = max(i for i, key in enumerate(keys) if key <= max(high, keys[0]))
    return range(first, last + 1)


def lookup_range(table: ir.Table, arguments: list[Interval]) -> Interval:
    """The least and greatest value a lookup with these argument ranges can give."""
    rows = reachable(table.keys, arguments[0])
    columns = reachable(table.columns, arguments[1]) if table.columns else range(1)
    values = [table.rows[row][column] for row in rows for column in columns]
    return min(values), max(values)


def below_first_key(table: ir.Table, arguments: Iterable[Interval]) -> list[tuple[int, str]]:
    """For each argument that can be below its first key: its place (0 the row, 1
    the column) and why."""
    found = []
    for place, ((low, high), keys) in enumerate(zip(arguments, (table.keys, table.columns), strict=False)):
        if keys and low < keys[0]:
            what = "row" if place == 0 else "column"
            shown = f"is {low}" if low == high else f"can be {low} (it is {low} to {high})"
            found.append((place, f"table {quoted(table.id)} starts at {what} {keys[0]}, but this {shown}: add a "
                                 f"{what} for it, or raise the number with max(...)"))
    return found


def round_range(name: str, value: Interval, step: Interval) -> Interval:
    """``round_up``/``round_down`` of ``value`` to a step within ``step`` (1 or more):
    exact for one step (rounding keeps order), else within a step of ``value``."""
    if step[0] == step[1]:
        return _rounded(name, value[0], step[0]), _rounded(name, value[1], step[0])
    most = max(step[1], 1) - 1
    return (value[0], value[1] + most) if name == "round_up" else (value[0] - most, value[1])


def _rounded(name: str, value: int, step: int) -> int:
    step = max(step, 1)
    return -(-value // step) * step if name == "round_up" else value // step * step


def call_range(name: str, arguments: list[Interval]) -> Interval:
    if name == "min":
        return min(low for low, _ in arguments), min(high for _, high in arguments)
    if name == "max":
        return max(low for low, _ in arguments), max(high for _, high in arguments)
    return round_range(name, arguments[0], arguments[1])


def table_code(table: ir.Table) -> list[tuple[int, str]]:
    """The generated lookup of ``table`` as (row key, value code) from the last row
    to the first: a table of two dimensions picks the column by ``c``."""
    rows = []
    for key, values in zip(table.keys, table.rows, strict=True):
        code = str(values[0])
        for column, value in zip(table.columns[1:], values[1:], strict=False):
            code = f"{value} if c >= {column} else {code}"
        rows.append((key, f"({code})"))
    return rows[::-1]
