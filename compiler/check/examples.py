"""Check a ruleset's examples: every ``expect`` line's names resolved, its seats
valid, each example with its hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from mjr.abi import SEAT_NAMES, TABLE
from mjr.dsl import ast
from mjr.dsl.quoting import quoted
from mjr.errors import Span, did_you_mean

from ..model import ir

Report = Callable[[Span, str], None]


def check_example(example: ast.Example, fans: tuple[ir.Fan, ...], payments: tuple[ir.PayClause, ...],
                  values: tuple[ir.NamedValue, ...], report: Report) -> ir.Example:
    checks = tuple(
        ir.ExampleCheck(e.kind, _expectation(e, fans, payments, values, report), e.span)
        for e in example.expectations
    )
    if example.hand is None or example.hand_span is None:
        report(example.span, f"example {quoted(example.title)} has no hand")
        return ir.Example(example.title, "", example.span, checks, example.span)
    return ir.Example(example.title, example.hand, example.hand_span, checks, example.span)


def _expectation(expectation: ast.Expectation, fans: tuple[ir.Fan, ...], payments: tuple[ir.PayClause, ...],
                 values: tuple[ir.NamedValue, ...], report: Report) -> object:
    """The checked value of one ``expect`` line, its names resolved."""
    value = expectation.value
    if expectation.kind == "value":
        name, number, span = cast("tuple[str, int, Span]", value)
        ids = [v.id for v in values]
        if name not in ids:
            known = f"the ruleset's values are {', '.join(ids)}" if ids else "the ruleset has no 'value' statement"
            report(span, f"unknown name {quoted(name)} after 'expect': expect not win, fans, fan, points, "
                         f"payments, clause, or a named value ({known}){did_you_mean(name, ids)}")
        return name, number
    if expectation.kind == "fans":
        ids = sorted(f.id for f in fans)
        named = cast("tuple[tuple[str, Span], ...]", value)
        for ident, span in named:
            if ident not in ids:
                report(span, f"unknown name {quoted(ident)} in 'expect fans'{did_you_mean(ident, ids)}")
        return tuple(ident for ident, _ in named)
    if expectation.kind == "clause":
        clause, span = cast("tuple[str, Span]", value)
        clauses = sorted(p.id for p in payments)
        if clause not in clauses:
            report(span, f"unknown name {quoted(clause)} in 'expect clause'{did_you_mean(clause, clauses)}")
        return clause
    if expectation.kind == "payments":
        lines = cast("tuple[tuple[str, int, Span], ...]", value)
        for seat, _, span in lines:
            if seat not in (*SEAT_NAMES, TABLE):
                report(span, f"{seat!r} is not a seat: use {', '.join(SEAT_NAMES)} (or {TABLE}, for its deposits)")
        return tuple((seat, amount) for seat, amount, _ in lines)
    return value
