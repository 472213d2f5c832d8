"""Check the statements that combine fans: ``account_once``, ``minimum ... without``,
``prefer``, and the fans asking ``no_other_fans``.

Each works on the lowered fans (their IR), and reports at the name as written.
"""

from __future__ import annotations

from collections.abc import Callable

from mjr.dsl import ast
from mjr.dsl.quoting import quoted
from mjr.errors import Span, did_you_mean

from ..model import ir

Report = Callable[[Span, str], None]


def _fan_index(name: str, span: Span, fans: tuple[ir.Fan, ...], report: Report, where: str) -> int | None:
    for fan in fans:
        if fan.id == name:
            return fan.index
    report(span, f"unknown fan {quoted(name)} {where}{did_you_mean(name, [f.id for f in fans])}")
    return None


def account_once(statement: ast.Statement | None, fans: tuple[ir.Fan, ...], report: Report) -> tuple[int, ...]:
    """The fans under ``account_once``, highest value per instance first, then as
    listed (the order the kept instances are chosen in on a tie).  Each is an
    ``N each`` fan (the only kind whose condition is a number), so its value per
    instance is the constant N."""
    if not isinstance(statement, ast.AccountOnce):
        return ()
    listed: list[int] = []
    for name, span in statement.fans:
        index = _fan_index(name, span, fans, report, "in 'account_once'")
        if index is None:
            continue
        fan = fans[index]
        if index in listed:
            report(span, f"fan {quoted(name)} is listed twice in 'account_once'")
        elif not isinstance(fan.condition, ir.Aggregate) or not fan.condition.arity:
            report(span, f"fan {quoted(name)} cannot be accounted once: its condition must be a count of "
                         f"combinations, as in 'fan {name} \"...\" 1 each : count(2 sets where ...)'")
        else:
            listed.append(index)

    def unit(index: int) -> int:
        value = fans[index].value
        return int(value.value) if isinstance(value, ir.Const) else 0

    return tuple(sorted(listed, key=lambda i: (-unit(i), listed.index(i))))


def minimum_without(statement: ast.Statement | None, fans: tuple[ir.Fan, ...], report: Report) -> tuple[int, ...]:
    """The fans ``minimum N without ...`` leaves out of the minimum."""
    if not isinstance(statement, ast.Setting):
        return ()
    found = (_fan_index(name, span, fans, report, "in 'minimum ... without'") for name, span in statement.without)
    return tuple(dict.fromkeys(i for i in found if i is not None))


def prefer(statement: ast.Statement | None, fans: tuple[ir.Fan, ...], values: tuple[ir.NamedValue, ...],
           report: Report) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The fans and the named values ``prefer`` lists, each in its order: how
    readings of equal points and fan are told apart (the first listed fan awarded,
    then the higher of each value)."""
    if not isinstance(statement, ast.Prefer):
        return (), ()
    by_id = {value.id: value.index for value in values}
    found: list[int] = []
    higher: list[int] = []
    for name, span in statement.fans:
        if name in by_id:
            higher.append(by_id[name])
        elif any(fan.id == name for fan in fans) or not values:
            index = _fan_index(name, span, fans, report, "in 'prefer'")
            if index is not None:
                found.append(index)
        else:
            names = [f.id for f in fans] + list(by_id)
            report(span, f"unknown fan or value {quoted(name)} in 'prefer'{did_you_mean(name, names)}")
    return tuple(dict.fromkeys(found)), tuple(dict.fromkeys(higher))


def check_alone(fans: tuple[ir.Fan, ...], report: Report) -> None:
    """A fan asking ``no_other_fans`` is decided after every other fan: no other fan
    may read it, and it may exclude none (the others are decided already)."""
    alone = {f.index for f in fans if "no_other_fans" in ir.word_names([f.condition, f.value])}
    for fan in fans:
        if fan.index in alone:
            if fan.excludes:
                report(fan.span, f"fan {quoted(fan.id)} asks 'no_other_fans', so it is decided after every other "
                                 f"fan and cannot exclude one")
            continue
        read = {node.index for node in ir.nodes([fan.condition, fan.value]) if isinstance(node, ir.FanRef)}
        for index in sorted(read & alone):
            report(fan.span, f"fan {quoted(fan.id)} reads fan {quoted(fans[index].id)}, which asks "
                             f"'no_other_fans' and is decided after every other fan")


__all__ = ["account_once", "check_alone", "minimum_without", "prefer"]
