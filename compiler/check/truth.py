"""Conditions the checker can prove never or always true, for warnings.

A comparison whose sides cannot meet (``rank == 10``: a rank is 0 to 9), or always
meet (``suits <= 3``), is almost always a mistake: the rule it belongs to never
applies, or applies to every hand.  The proof is the interval arithmetic of
:mod:`mjr.compiler.check.ranges`, so it errs only towards silence: a warning is given
only where no hand can make the condition go the other way.
"""

from __future__ import annotations

from ..model import ir
from .ranges import Interval, Overflow, Ranges

#: How many values a ``in (...)`` list is checked against one by one.
_MOST_VALUES = 64


def _bounds(node: ir.Node) -> Interval | None:
    """The values ``node`` can take, or None where that is not known here (a word of
    the score formula, a lookup, a word without bounds, a value past 64 bits)."""
    try:
        return Ranges({}).of(node)
    except (KeyError, IndexError, AttributeError, Overflow):
        return None


def _always(op: str, left: Interval, right: Interval) -> bool | None:
    """True when ``left OP right`` holds for all values, False when for none."""
    (a, b), (c, d) = left, right
    holds = {"<": b < c, "<=": b <= c, ">": a > d, ">=": a >= d, "==": a == b == c == d,
             "!=": b < c or d < a}
    fails = {"<": a >= d, "<=": a > d, ">": b <= c, ">=": b < c, "==": b < c or d < a,
             "!=": a == b == c == d}
    if holds.get(op):
        return True
    if fails.get(op):
        return False
    return None


def _shown(interval: Interval) -> str:
    low, high = interval
    return str(low) if low == high else f"{low} to {high}"


def constant_comparison(node: ir.Binary) -> str | None:
    """Why the comparison ``node`` is never or always true, or None."""
    left, right = _bounds(node.left), _bounds(node.right)
    if left is None or right is None:
        return None
    always = _always(node.op, left, right)
    if always is None:
        return None
    return (f"this comparison is {'always' if always else 'never'} true: its left side is "
            f"{_shown(left)} and its right side {_shown(right)}")


def constant_member(node: ir.Member) -> str | None:
    """Why ``X in (...)`` is never or always true, or None."""
    bounds = _bounds(node.operand)
    if bounds is None:
        return None
    low, high = bounds
    inside = [v for v in node.values if low <= v <= high]
    if not inside:
        return f"this condition is never true: the value is {_shown(bounds)}, and none of the listed values"
    if high - low < _MOST_VALUES and set(range(low, high + 1)) <= set(node.values):
        return f"this condition is always true: the value is {_shown(bounds)}, and every one is listed"
    return None
