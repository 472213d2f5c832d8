"""Checking for the statements that extend the winning shapes and the wildcards:
declared shapes (``shape ID "name" : COND``) and ``wildcard stand_in P``.

Kept apart from :mod:`mjr.compiler.check.checker`, which calls in here once the names
and the wildcards are known.
"""

from __future__ import annotations

from collections.abc import Callable

from mjr.dsl import ast
from mjr.dsl.quoting import quoted
from mjr.errors import Span

from ..model import ir
from ..model.vocabulary import ALL_WORDS
from .expressions import SHAPE, ExpressionChecker

Report = Callable[[Span, str], None]
#: The checker's wording of a statement: (span, value, condition) -> Wording.
WordingOf = Callable[[Span, str, ast.Expr], ir.Wording]
#: The checker's reading of a tile reference: the kind, or None (reported).
TileOf = Callable[[ast.TileRef, tuple[int, ...]], "int | None"]
#: The built-in shapes: a declared shape may not take their ids.
BUILT_IN_SHAPES = ("standard", "seven_pairs", "thirteen_orphans")


def lower_shapes(shapes: dict[str, ast.Shape], checker: ExpressionChecker, taken: dict[str, str],
                 report: Report, wording: WordingOf) -> tuple[ir.DeclaredShape, ...]:
    """Each declared shape with its checked condition.  ``taken`` maps the names
    a shape id may not reuse (fans, defines) to what they are."""
    lowered = []
    for index, shape in enumerate(shapes.values()):
        if shape.id in ALL_WORDS or shape.id in BUILT_IN_SHAPES:
            report(shape.span, f"shape {shape.id!r} has the name of a built-in word; choose another name")
        elif shape.id in taken:
            report(shape.span, f"shape {quoted(shape.id)} has the name of a {taken[shape.id]}; choose another name")
        condition = checker.check(shape.condition, ir.BOOL, SHAPE)
        lowered.append(ir.DeclaredShape(index, shape.id, shape.display, condition, shape.span,
                                        wording(shape.span, "", shape.condition)))
    return tuple(lowered)


def stand_in(statement: ast.WildcardStandIn | None, wildcards: ir.Wildcards, kinds: tuple[int, ...],
             tile: TileOf, report: Report) -> int:
    """The kind of ``wildcard stand_in P`` (-1 without one): P must be in the tile
    set, the ruleset must have wildcards, and P may not be wild on every hand."""
    if statement is None:
        return -1
    kind = tile(statement.tile, kinds)
    if not wildcards.fixed and not wildcards.derived:
        report(statement.span, "'wildcard stand_in' plays a tile as the wildcard kind, and this ruleset has no "
                               "wildcard ('wildcard fixed' or 'wildcard indicator')")
        return -1
    if kind is not None and kind in wildcards.fixed:
        report(statement.tile.span, f"tile {statement.tile.text} is a fixed wildcard, so it never stands in for one")
        return -1
    return -1 if kind is None else kind
