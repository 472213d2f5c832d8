"""Keep every number a ruleset computes inside 64 bits, on both backends.

Compiled, the generated module counts in C ``long long``; interpreted, in Python's
unbounded ints.  Where a value could leave the 64-bit range the two would differ,
so mjr keeps values within +-(2^63 - 1) in two ways:

* The checker proves it by interval arithmetic for every constant, fan value, the
  fan total and the product of the multipliers, and refuses a ruleset where it
  cannot (such a ruleset has absurd numbers), at the statement responsible.
* The score formula and the payment amounts (``2 ^ fan`` with no cap, say) may
  truly leave the range for some hands.  Where the proof fails for one of them,
  its code is generated with checked arithmetic, and a hand whose value would
  overflow is an error naming the hand -- never a wrapped or a different number.

The bounds are generous (a hand is taken to hold at most 40 tiles in 10 groups, and
every fan to be awarded at once).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from mjr.errors import Span

from ..model import ir
from ..model.vocabulary import COLLECTIONS
from .functions import below_first_key, call_range, lookup_range

Report = Callable[[Span, str], None]
Interval = tuple[int, int]

INT64_MAX = 2**63 - 1
#: The range values keep to: symmetric, so negating never overflows.
INT64_MIN = -INT64_MAX
#: Generous bounds on a hand: tiles (kongs count four) and groups.
MAX_TILES, MAX_GROUPS = 40, 10
#: The most elements of each collection.
_COLLECTION_SIZE = {"tiles": MAX_TILES, "kinds": 34, "sets": MAX_GROUPS, "groups": MAX_GROUPS,
                    "pairs": MAX_GROUPS, "melds": MAX_GROUPS}
#: The values of the number words (the rest are flags, 0 or 1).
WORD_BOUNDS: dict[str, Interval] = {
    "suits": (0, 3), "winners": (1, 3), "wildcards": (0, MAX_TILES), "substituted": (0, MAX_TILES),
    "rank": (0, 9), "copies": (0, MAX_TILES), "winner_from_dealer": (0, 3), "payer_from_dealer": (0, 3),
    "waits": (0, 34), "formal_waits": (0, 34), "wilds": (0, 3), "substitutes": (0, 3),
    "flowers": (0, 8), "seat_flowers": (0, 2), "flower_series": (0, 2), "step": (-1, 8), "red_fives": (0, 9),
    "aside_fours": (0, 34),
}
BOOL: Interval = (0, 1)


class Overflow(Exception):
    """A value that may leave the 64-bit range; ``bound`` is how far it reaches."""

    def __init__(self, bound: int):
        super().__init__(bound)
        self.bound = bound


def _fits(interval: Interval) -> Interval:
    low, high = interval
    if low < INT64_MIN:
        raise Overflow(low)
    if high > INT64_MAX:
        raise Overflow(high)
    return interval


def _hull(*intervals: Interval) -> Interval:
    return min(i[0] for i in intervals), max(i[1] for i in intervals)


def _times(a: Interval, b: Interval) -> Interval:
    products = [x * y for x in a for y in b]
    return _fits((min(products), max(products)))


def _power(base: Interval, exponent: Interval) -> Interval:
    """``_ipow``: a negative exponent gives 0."""
    low_e, high_e = exponent
    results = [0] if low_e < 0 else []
    low_e = max(low_e, 0)
    if high_e >= 0:
        bases = {base[0], base[1], *(v for v in (-1, 0, 1) if base[0] <= v <= base[1])}
        if max(abs(v) for v in bases) >= 2 and high_e > 64:
            raise Overflow(2**high_e if high_e < 4096 else INT64_MAX + 1)
        exponents = {e for e in (low_e, low_e + 1, high_e - 1, high_e) if low_e <= e <= high_e}
        results += [b**e for b in bases for e in exponents]
    return _fits((min(results), max(results)))


def _remainder(value: Interval, divisor: Interval) -> Interval:
    """``a % b`` as Python and the generated code count it: the sign of ``b``, 0
    when ``b`` is 0 (see ``_mod``)."""
    reach = max(abs(divisor[0]), abs(divisor[1]))
    low = -(reach - 1) if divisor[0] < 0 else 0
    high = reach - 1 if divisor[1] > 0 else 0
    if value[0] >= 0 and divisor[0] >= 0:
        high = min(high, value[1])
    return low, max(high, 0)


def _quotient(value: Interval, divisor: Interval) -> Interval:
    """``a / b`` rounded down (``_div``).  For a divisor of one sign the quotient is
    monotone in each operand, so the corners bound it; a 0 in the divisor (refused
    by :func:`check_divisors`) is left out."""
    parts = [(low, high) for low, high in ((divisor[0], min(divisor[1], -1)), (max(divisor[0], 1), divisor[1]))
             if low <= high]
    quotients = [x // y for low, high in parts for x in value for y in (low, high)]
    return _fits((min(quotients), max(quotients))) if quotients else (0, 0)


class Ranges:
    """Intervals of IR expressions; ``totals`` gives the formula names theirs."""

    def __init__(self, totals: dict[str, Interval], fans: dict[int, ir.Node] | None = None,
                 tables: tuple[ir.Table, ...] = (), values: dict[int, Interval] | None = None):
        self.totals = totals
        #: each fan's condition, for an ``each`` fan's count used as a number
        self.fans = fans if fans is not None else {}
        self.tables = tables
        #: the named values worked out so far
        self.values = values if values is not None else {}
        self._defines: dict[int, Interval] = {}

    def of(self, node: ir.Node) -> Interval:
        if isinstance(node, ir.DefineRef):  # a body shared by its uses: worked out once
            if node.index not in self._defines:
                self._defines[node.index] = self.of(node.body)
            return self._defines[node.index]
        if node.type == ir.BOOL:
            self._check_parts(node)
            return BOOL
        return _fits(getattr(self, "visit_" + type(node).__name__)(node))

    def _check_parts(self, node: ir.Node) -> None:
        """A flag can still hold arithmetic (``fan + 1 > 3``): check what it compares."""
        for value in vars(node).values():
            for child in value if isinstance(value, tuple) else (value,):
                if isinstance(child, ir.Node):
                    self.of(child)

    def visit_Const(self, node: ir.Const) -> Interval:
        return node.value, node.value

    def visit_FactRef(self, node: ir.FactRef) -> Interval:
        return node.low, node.high

    def visit_Word(self, node: ir.Word) -> Interval:
        if node.scope == "formula":
            return self.totals[node.name]
        return WORD_BOUNDS[node.name]

    def visit_FanRef(self, node: ir.FanRef) -> Interval:
        """An ``each`` fan's count: its condition's value, or 0 when that is not above 0."""
        low, high = self.of(self.fans[node.index])
        return max(low, 0), max(high, 0)

    def visit_Unary(self, node: ir.Unary) -> Interval:
        low, high = self.of(node.operand)
        return -high, -low

    def visit_Binary(self, node: ir.Binary) -> Interval:
        left, right = self.of(node.left), self.of(node.right)
        if node.op == "+":
            return left[0] + right[0], left[1] + right[1]
        if node.op == "-":
            return left[0] - right[1], left[1] - right[0]
        if node.op == "*":
            return _times(left, right)
        if node.op == "%":
            return _remainder(left, right)
        if node.op == "/":
            return _quotient(left, right)
        return _power(left, right)

    def visit_Conditional(self, node: ir.Conditional) -> Interval:
        self.of(node.condition)
        return _hull(self.of(node.then), self.of(node.otherwise))

    def visit_GroupTiles(self, node: ir.GroupTiles) -> Interval:
        return self.of(node.operand)

    def visit_Aggregate(self, node: ir.Aggregate) -> Interval:
        element = self.of(node.element) if node.element is not None else BOOL
        size = node.size if node.fact >= 0 else _COLLECTION_SIZE[node.collection]
        if node.op == "sum":  # up to ``size`` elements (a tile's kind counts each copy)
            return min(0, size * element[0]), max(0, size * element[1])
        return 0, math.comb(size, node.arity) if node.arity else size

    def visit_Call(self, node: ir.Call) -> Interval:
        return call_range(node.name, [self.of(argument) for argument in node.arguments])

    def visit_Lookup(self, node: ir.Lookup) -> Interval:
        return lookup_range(self.tables[node.table], [self.of(argument) for argument in node.arguments])

    def visit_DerivedRef(self, node: ir.DerivedRef) -> Interval:
        return 0, node.most

    def visit_ValueRef(self, node: ir.ValueRef) -> Interval:
        return self.values.get(node.index, (INT64_MIN, INT64_MAX))


assert set(_COLLECTION_SIZE) == set(COLLECTIONS)


@dataclass
class _Total:
    """A sum built entry by entry, each entry either awarded or not."""

    low: int = 0
    high: int = 0

    def add(self, value: Interval) -> None:
        self.low, self.high = _fits((self.low + min(value[0], 0), self.high + max(value[1], 0)))


def check_ranges(ruleset: ir.Ruleset, report: Report, score_span: Span) -> None:
    """Report every constant, fan value and total of ``ruleset`` that may not fit
    in 64 bits (the score formula and amounts may: see :func:`unproven`)."""
    for name, value, span in (("base", ruleset.base, score_span), ("cap", ruleset.cap, score_span),
                              ("minimum", ruleset.minimum, score_span),
                              *((f"floor {f.id!r}", f.value, f.span) for f in ruleset.floors)):
        try:
            _fits((value or 0, value or 0))
        except Overflow as overflow:
            report(span, _message(f"the {name}", overflow))
    try:
        _formula_totals(ruleset, report)
    except Overflow as overflow:
        report(score_span, _message("the fan total or the product of the multipliers", overflow))
    conditions = ruleset.requirements + ruleset.floors + ruleset.payments  # the rules' plain arithmetic
    ranges = worked_out(ruleset).ranges
    for rule in conditions:
        try:
            ranges.of(rule.condition)
        except Overflow as overflow:
            report(rule.span, _message(f"the condition of {rule.id!r}", overflow))
    for held in ruleset.holdings:  # no checked arithmetic: a table pays them as it closes a hand
        try:
            ranges.of(held.body)
        except Overflow as overflow:
            report(held.span, _message(f"the held amount of {held.id!r}", overflow))


@dataclass(frozen=True)
class WorkedOut:
    """The ranges of the totals, the named values and the points, in the order a
    hand works them out; what could not be proven to fit in 64 bits is unbounded
    (and its code checked: see :func:`unproven`)."""

    ranges: Ranges
    score_proven: bool
    unproven_values: frozenset[int]


def worked_out(ruleset: ir.Ruleset) -> WorkedOut:
    try:
        totals = _formula_totals(ruleset, lambda span, message: None)
    except Overflow:
        totals = dict.fromkeys(("base", "fan", "mult"), (INT64_MIN, INT64_MAX))
    values: dict[int, Interval] = {}
    ranges = Ranges(totals, _conditions(ruleset), ruleset.tables, values)
    unproven_values = set()
    for value in ruleset.values:  # in file order: each may read those before it
        try:
            values[value.index] = ranges.of(value.body)
        except Overflow:
            values[value.index] = (INT64_MIN, INT64_MAX)
            unproven_values.add(value.index)
    try:
        points, score_proven = ranges.of(ruleset.score), True
    except Overflow:
        points, score_proven = (INT64_MIN, INT64_MAX), False
    ranges.totals = {**totals, "points": points}
    return WorkedOut(ranges, score_proven, frozenset(unproven_values))


def check_numbers(ruleset: ir.Ruleset, checker: _Numbers | None, report: Report) -> None:
    """Report each divisor (``a / b``) that can be 0, each rounding step that can be
    below 1, each lookup whose row or column can be below its table's first key,
    and each ``sum`` that may pass 64 bits, where it is written: none has an
    answer, so each is refused before any hand.  (Totals past 64 bits are refused
    by :func:`check_ranges`.)"""
    if checker is None or not (checker.divisors or checker.steps or checker.lookups or checker.sums):
        return
    ranges = worked_out(ruleset).ranges
    for divisor, span in checker.divisors:
        low, high = _range(ranges, divisor)
        if low <= 0 <= high:
            shown = "is 0" if low == high else f"can be 0 (it is {low} to {high})"
            report(span, f"division by 0: the divisor {shown}; divide by a number that cannot be 0")
    for step, span in checker.steps:
        low, high = _range(ranges, step)
        if low < 1:
            shown = f"is {low}" if low == high else f"can be {low} (it is {low} to {high})"
            report(span, f"a rounding step is 1 or more, but this {shown}")
    for total, span in checker.sums:
        try:
            ranges.of(total)
        except Overflow as overflow:
            report(span, _message("this sum", overflow))
    for lookup, spans in checker.lookups:
        table = ruleset.tables[lookup.table]
        for place, message in below_first_key(table, [_range(ranges, a) for a in lookup.arguments]):
            report(spans[place], message)


def _range(ranges: Ranges, node: ir.Node) -> Interval:
    try:
        return ranges.of(node)
    except Overflow:
        return INT64_MIN, INT64_MAX


class _Numbers(Protocol):
    """What :func:`check_numbers` reads of the expression checker."""

    divisors: list[tuple[ir.Node, Span]]
    steps: list[tuple[ir.Node, Span]]
    lookups: list[tuple[ir.Lookup, tuple[Span, ...]]]
    sums: list[tuple[ir.Node, Span]]


def unproven(ruleset: ir.Ruleset) -> tuple[bool, frozenset[int], frozenset[int]]:
    """Whether the score formula, which payment clauses' amounts and which named
    values may leave 64 bits for some hand: their code needs checked arithmetic."""
    found = worked_out(ruleset)
    clauses = set()
    for clause in ruleset.payments:
        try:
            if clause.amount is not None:
                found.ranges.of(clause.amount)
        except Overflow:
            clauses.add(clause.index)
    return not found.score_proven, frozenset(clauses), found.unproven_values


def _conditions(ruleset: ir.Ruleset) -> dict[int, ir.Node]:
    return {fan.index: fan.condition for fan in ruleset.fans}


def _formula_totals(ruleset: ir.Ruleset, report: Report) -> dict[str, Interval]:
    """The intervals of ``base``, ``fan`` and ``mult``; a fan whose value may not
    fit is reported (and counts as 0)."""
    ranges = Ranges({}, _conditions(ruleset), ruleset.tables)
    values: dict[int, Interval] = {}
    for fan in ruleset.fans:
        try:
            value = ranges.of(fan.value)
            if fan.condition.type == ir.INT:  # ``each``: the value times a count
                value = _times(value, ranges.of(fan.condition))
            else:
                ranges.of(fan.condition)
            values[fan.index] = value
        except Overflow as overflow:
            report(fan.span, _message(f"fan {fan.id!r}", overflow))
            values[fan.index] = (0, 0)
    fan_total, mult = _totals(ruleset, values)
    return {"base": (ruleset.base, ruleset.base), "fan": fan_total, "mult": mult}


def _totals(ruleset: ir.Ruleset, values: dict[int, Interval]) -> tuple[Interval, Interval]:
    """The fan total and the multiplier product, as ``_consider`` forms them."""
    plain, limits = _Total(), _Total()
    highest_limit: Interval = (0, 0)
    mult: Interval = (1, 1)
    for fan in ruleset.fans:
        value = values[fan.index]
        if fan.kind in ("fan", "bonus"):
            plain.add(value)
        elif fan.kind == "multiplier":
            mult = _hull(mult, _times(mult, value))
        else:
            limits.add(value)
            highest_limit = _hull(highest_limit, value)
    low, high = plain.low, plain.high
    if ruleset.cap is not None:
        low, high = min(low, ruleset.cap), min(high, ruleset.cap)
    floors = [(f.value, f.value) for f in ruleset.floors]
    limit = (limits.low, limits.high) if ruleset.limits == "sum" else highest_limit
    return _hull((low, high), limit, *floors), mult


def _message(what: str, overflow: Overflow) -> str:
    bound = overflow.bound
    reach = f"{float(bound):.3g}" if abs(bound).bit_length() < 1000 else f"past 2^{abs(bound).bit_length() - 1}"
    return (f"{what} can reach {reach}, past the 64-bit integers mjr counts in (at most {INT64_MAX:.3g}): "
            "lower the values, cap the fan, or take a smaller base")
