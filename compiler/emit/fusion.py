"""Which aggregates the scoring of a decomposition computes together, in one pass.

Every fan condition used to call a function of its own per aggregate, each
looping over the groups (or the 34 kinds) again.  Here the compiler decides which
aggregates can instead be computed once per decomposition, all in one loop over
the groups before the conditions run (:class:`FusedFact` with table ``gagg``:
the generated ``_group_facts`` writes them into the evaluation's state and the
conditions read them), and which depend on the tiles alone (table ``tagg``): each
of those is worked out the first time a condition asks and kept while the tiles
stay, which for a hand without wildcards is once for all its decompositions.

An aggregate is computed ahead only when that is invisible: its element reads
nothing that the conditions themselves decide (another fan, a nested aggregate)
and nothing with a cost or a side effect when asked (``waits``).  A tile fact
further reads only what stays put while the tiles do (tile qualities, copies,
the context of the win): the shape, the wait or the substitutes change with the
decomposition.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from mjr import abi

from ..model import ir
from ..model.vocabulary import TILE_WORDS, WAIT_COUNT_WORDS

GROUP_COLLECTIONS = ("sets", "pairs", "melds", "groups")
TILE_COLLECTIONS = ("tiles", "kinds")

#: Hand words whose value is fixed for the whole evaluation of a hand, or fixed
#: while its tiles are (``suits``).
STEADY_HAND_WORDS = frozenset({
    *abi.CONTEXT_FLAGS, "winners", "wildcards", "winning_wildcard", "suits", "winner_from_dealer",
    "discarder_dealer", "discarder_left", "discarder_opposite", "discarder_right",
    "flowers", "seat_flowers", "flower_series",
})
#: Words of a tile or kind that read the tiles and the context alone (``konged``
#: reads the groups).
STEADY_TILE_WORDS = frozenset({*TILE_WORDS, "copies"})


@dataclass(frozen=True)
class Reads:
    """What an expression reads, defines written out."""

    words: frozenset[str]
    nested: bool  # an aggregate inside
    decided: bool  # a fan or a shape: decided per decomposition by the conditions


def reads(node: ir.Node) -> Reads:
    words: set[str] = set()
    nested = decided = False
    for current in ir.nodes([node]):
        if isinstance(current, ir.Word):
            words.add(current.name)
        elif isinstance(current, ir.Aggregate):
            nested = True
        elif isinstance(current, (ir.FanRef, ir.ShapeRef)):
            decided = True
    return Reads(frozenset(words), nested, decided)


def fused_table(node: ir.Aggregate) -> str | None:
    """``gagg`` for an aggregate computed in the one pass over the groups, ``tagg``
    for one kept while the tiles stay, None for one left to a function of its own."""
    found = reads(node.element) if node.element is not None else Reads(frozenset(), False, False)
    if found.nested or found.words & WAIT_COUNT_WORDS:
        return None
    if node.collection in GROUP_COLLECTIONS and node.fact < 0:
        return None if found.decided else "gagg"
    if node.collection in TILE_COLLECTIONS or node.fact >= 0:
        steady = found.words <= STEADY_HAND_WORDS | STEADY_TILE_WORDS
        return "tagg" if steady and not found.decided else None
    return None


@dataclass(frozen=True)
class FusedFact:
    """One aggregate of the fused passes: ``slot`` in its table; ``element`` its
    code (None: every element); ``term`` what one element adds to a count."""

    slot: int
    op: str
    collection: str
    element: str | None
    fact: int
    term: str

    @property
    def derived(self) -> int:
        """The ``derive`` this sums over the hand's tiles when it is just that
        (``sum(tiles of dora)``, element ``s.dk[34 d + k]``): its loop walks only the
        kinds the derive points at.  -1 for any other aggregate."""
        found = re.fullmatch(r"\(?s\.dk\[(\d+) \+ k\]\)?", self.element or "")
        if not found or self.op != "sum" or self.fact >= 0 or self.term != "s.tc[k]":
            return -1
        return int(found.group(1)) // 34

    @property
    def result(self) -> str:
        """The aggregate from ``n<slot>`` (elements that hold) and ``size`` (elements)."""
        n = f"n{self.slot}"
        if self.fact >= 0:
            size = f"f{self.fact}_size"
        else:
            size = "kinds_size" if self.collection in TILE_COLLECTIONS else f"{self.collection}_size"
        if self.op == "count":
            return n
        if self.op == "all":
            return f"1 if {n} == {size} else 0"
        if self.op == "any":
            return f"1 if {n} > 0 else 0"
        return f"1 if {n} == 0 else 0"


#: Which groups belong to each collection, as code over ``gk gt gf``.
GROUP_MEMBERSHIP = {
    "sets": f"gk != 0 and gk != {abi.GROUP_KNITTED}",
    "pairs": "gk == 0",
    "melds": f"(gf & {abi.GROUP_DECLARED}) != 0",
    "groups": "True",
}


# --------------------------------------------------------------------------- kinds as bits
#: Every kind of the 34, as bits.
ALL_KINDS = (1 << 34) - 1
#: The functions of one kind that a condition on kinds may call and still be a
#: property of the kind alone: the generated module's own definitions, the same
#: arithmetic (the template's ``_rank``).
_KIND_FUNCTIONS = {"_rank": lambda k: k % 9 + 1 if k < 27 else 0}
_KIND_NODES = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.BinOp, ast.Add,
               ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt,
               ast.GtE, ast.In, ast.NotIn, ast.IfExp, ast.Tuple, ast.Load, ast.Constant, ast.Name, ast.Call)


def kind_mask(element: str | None) -> int | None:
    """The kinds (bit ``k`` for kind ``k``) for which ``element``, the code of a
    condition on the kind ``k``, holds; None when it reads anything but ``k``
    (a count, the context, a wildcard, another function).

    A condition that depends on the kind alone is decided here, once, by running
    its code -- the same code the interpreted module runs -- for each of the 34
    kinds: the module then tests a bit (``all tiles are terminal`` is "no kind held
    outside the mask") instead of looping over the kinds.  ``None`` (no condition)
    is every kind."""
    if element is None:
        return ALL_KINDS
    try:
        tree = ast.parse(element, mode="eval")
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, _KIND_NODES):
            return None
        if isinstance(node, ast.Name) and node.id != "k" and node.id not in _KIND_FUNCTIONS:
            return None
        if isinstance(node, ast.Constant) and type(node.value) not in (int, bool):
            return None
        if isinstance(node, ast.Call) and not (
                isinstance(node.func, ast.Name) and node.func.id in _KIND_FUNCTIONS and not node.keywords
                and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id == "k"):
            return None
    code = compile(ast.fix_missing_locations(_NonNegativeDivision().visit(tree)), "<kind condition>", "eval")
    mask = 0
    for k in range(34):
        try:
            holds = eval(code, {"__builtins__": {}}, {**_KIND_FUNCTIONS, **_DIVISION, "k": k})  # noqa: S307 - k alone
        except (ArithmeticError, ValueError):  # a division the module makes in C (towards 0), or by 0
            return None
        if holds:
            mask |= 1 << k
    return mask


def _divide(a: int, b: int, remainder: bool) -> int:
    """``a // b`` or ``a % b`` where Python and C agree: both at least 0, ``b`` not 0."""
    if a < 0 or b <= 0:
        raise ValueError("a division whose result depends on the language")
    return a % b if remainder else a // b


_DIVISION = {"_floordiv": lambda a, b: _divide(a, b, False), "_mod": lambda a, b: _divide(a, b, True)}


class _NonNegativeDivision(ast.NodeTransformer):
    """``a // b`` and ``a % b`` as calls that refuse operands on which C's division
    (the compiled module's, ``cdivision``) and Python's differ."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        name = {ast.FloorDiv: "_floordiv", ast.Mod: "_mod"}.get(type(node.op))
        if name is None:
            return node
        return ast.Call(ast.Name(name, ast.Load()), [node.left, node.right], [])
