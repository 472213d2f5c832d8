"""The defines of a ruleset as a graph: cycles, and each define's written-out measure.

A define may use other defines.  Written out in full they can grow exponentially (a
define using the one before it twice, 25 times over) or nest thousands deep (a
chain).  So nothing here expands a define per use: one iterative walk of the graph
(:mod:`~mjr.compiler.front.graph`) orders the defines, each after those it uses, finds
the cycles, and measures each define's depth and size with the defines it uses
written out, from the measures of those.  The checker then refuses a define too
deep or too large where the limit is crossed, and never recurses into one (see
:class:`~mjr.compiler.check.expressions.ExpressionChecker`)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from mjr.dsl import ast

from .graph import walk

#: Sizes are counted up to this, far above any limit, and no further.
SIZE_CEILING = 1 << 40


@dataclass
class DefineGraph:
    """What one walk over the defines found."""

    #: for each define, the names in its body that are defines, in text order
    uses: dict[str, list[ast.Name]] = field(default_factory=dict)
    #: the defines, each after the defines it uses (a cycle is cut somewhere)
    order: list[str] = field(default_factory=list)
    #: each cycle once: its chain of names (first == last) and the reference that starts it
    cycles: list[tuple[list[str], ast.Name]] = field(default_factory=list)
    #: each define's depth with the defines it uses written out
    depth: dict[str, int] = field(default_factory=dict)
    #: each define's size (terms) with the defines it uses written out, at most SIZE_CEILING
    size: dict[str, int] = field(default_factory=dict)

    def crossing(self, measure: dict[str, int], limit: int) -> list[str]:
        """The defines above ``limit`` by ``measure`` (``depth`` or ``size``) that use
        none above it: where the limit is crossed."""
        return [name for name in self.order
                if measure[name] > limit and all(measure[u.name] <= limit for u in self.uses[name])]


def analyse(defines: dict[str, ast.Define]) -> DefineGraph:
    """Walk the graph of ``defines`` once and measure each define after those it uses."""
    graph = DefineGraph(uses={name: [n for n in names_in(d.body) if n.name in defines]
                              for name, d in defines.items()})
    found = walk(defines, graph.uses.__getitem__, lambda name: name.name)
    graph.order, graph.cycles = found.order, found.cycles
    for name in graph.order:
        graph.depth[name] = expression_depth(defines[name].body, graph.depth)
        graph.size[name] = expression_size(defines[name].body, graph.size)
    return graph


def names_in(expr: ast.Expr) -> list[ast.Name]:
    """Every name an expression uses, in text order (its nesting is bounded by the
    parser); a variable of ``any NAME in (...)`` is no name it uses."""
    if isinstance(expr, ast.Name):
        return [expr]
    if isinstance(expr, ast.Each):
        return [name for name in names_in(expr.body) if name.name != expr.name]
    return [name for child in children(expr) for name in names_in(child)]


def expression_depth(expr: ast.Expr, define_depth: dict[str, int]) -> int:
    """How deep ``expr`` nests with its defines written out (a define not yet measured,
    one in a cycle, counts as one level)."""
    if isinstance(expr, ast.Name):
        return define_depth.get(expr.name, 1)
    return 1 + max((expression_depth(child, define_depth) for child in children(expr)), default=0)


def expression_size(expr: ast.Expr, define_size: dict[str, int]) -> int:
    """How many terms ``expr`` has with its defines written out -- what evaluating it
    costs, since a define is evaluated at each use (at most SIZE_CEILING, so a
    doubling chain stays a small number)."""
    if isinstance(expr, ast.Name):
        return define_size.get(expr.name, 1)
    total = 1 + sum(expression_size(child, define_size) for child in children(expr))
    if isinstance(expr, ast.Each):  # written out once for each value
        total *= len(expr.values)
    return min(total, SIZE_CEILING)


def children(expr: ast.Expr) -> tuple[ast.Expr, ...]:
    """The sub-expressions of ``expr``."""
    if isinstance(expr, ast.Not | ast.Negate | ast.Contains):
        return (expr.operand,)
    if isinstance(expr, ast.BoolOp):
        return expr.operands
    if isinstance(expr, ast.Compare | ast.Binary):
        return (expr.left, expr.right)
    if isinstance(expr, ast.Member):
        return (expr.operand,)
    if isinstance(expr, ast.Conditional):
        return (expr.then, expr.condition, expr.otherwise)
    if isinstance(expr, ast.Quantified | ast.Count):
        return (expr.condition,) if expr.condition is not None else ()
    if isinstance(expr, ast.Sum):
        return (expr.value,)
    if isinstance(expr, ast.Call):
        return expr.arguments
    if isinstance(expr, ast.Each):
        return (expr.body,)
    return ()


def written_out(each: ast.Each) -> tuple[ast.Expr, ...]:
    """The body of ``any NAME in (VALUES) : BODY`` once for each value, the variable
    replaced by it: a number, a word (a name) or a tile (``1s``, ``E``).  An inner
    variable of the same name hides it."""
    return tuple(_substituted(each.body, each.name, value) for value in each.values)


def _substituted(expr: ast.Expr, name: str, value: int | str) -> ast.Expr:
    if isinstance(expr, ast.Name):
        if expr.name != name:
            return expr
        if isinstance(value, int):
            return ast.Number(expr.span, value)
        return ast.Name(expr.span, value) if value[0].islower() else ast.TileIs(expr.span, value)
    if isinstance(expr, ast.Each) and expr.name == name:
        return expr
    changes: dict[str, Any] = {}
    for part in fields(expr):
        old = getattr(expr, part.name)
        if isinstance(old, ast.Expr):
            changes[part.name] = _substituted(old, name, value)
        elif isinstance(old, tuple) and old and all(isinstance(item, ast.Expr) for item in old):
            changes[part.name] = tuple(_substituted(item, name, value) for item in old)
    return replace(expr, **changes) if changes else expr
