"""Checked expressions spelled back as ``.mjr`` text, for people.

The generated module carries the score formula as text (``SCORE_TEXT``) so that
``mjr diff`` can show it without the compiler.  The text is spelled from the
checked IR rather than cut from the file: it is the formula in force after a
variant's settings and a table option's choices, with only the parentheses the
precedence needs.
"""

from __future__ import annotations

from ..model import ir

#: how tightly each operator binds: a lower operand in a higher place is parenthesised
_BINARY = {"+": 5, "-": 5, "*": 6, "/": 6, "%": 6, "^": 7}
_COMPARE = 4
_CONDITIONAL, _OR, _AND, _NOT, _NEG, _ATOM = 0, 1, 2, 3, 8, 9


def spelled(node: ir.Node, ruleset: ir.Ruleset) -> str:
    """``node`` as ``.mjr`` text: ``base * 2 ^ (fan - 1)``."""
    return _Speller(ruleset).text(node)[0]


class _Speller:
    def __init__(self, ruleset: ir.Ruleset):
        self.ruleset = ruleset

    def text(self, node: ir.Node) -> tuple[str, int]:
        """The text of ``node`` and how tightly it binds."""
        return getattr(self, "visit_" + type(node).__name__, self.visit_other)(node)

    def wrapped(self, node: ir.Node, level: int) -> str:
        shown, binds = self.text(node)
        return f"({shown})" if binds < level else shown

    def visit_Const(self, node: ir.Const) -> tuple[str, int]:
        return str(node.value), _ATOM if node.value >= 0 else _NEG

    def visit_Word(self, node: ir.Word) -> tuple[str, int]:
        return node.name, _ATOM

    def visit_FactRef(self, node: ir.FactRef) -> tuple[str, int]:
        return node.name, _ATOM

    def visit_DefineRef(self, node: ir.DefineRef) -> tuple[str, int]:
        return node.name, _ATOM

    def visit_FanRef(self, node: ir.FanRef) -> tuple[str, int]:
        ident = self.ruleset.fans[node.index].id
        return (f"scored {ident}", _ATOM) if node.scored else (ident, _ATOM)

    def visit_ShapeRef(self, node: ir.ShapeRef) -> tuple[str, int]:
        return self.ruleset.shapes[node.index].id, _ATOM

    def visit_Unary(self, node: ir.Unary) -> tuple[str, int]:
        if node.op == "not":
            return f"not {self.wrapped(node.operand, _NOT)}", _NOT
        return f"-{self.wrapped(node.operand, _NEG)}", _NEG

    def visit_Nary(self, node: ir.Nary) -> tuple[str, int]:
        level = _AND if node.op == "and" else _OR
        return f" {node.op} ".join(self.wrapped(operand, level) for operand in node.operands), level

    def visit_Binary(self, node: ir.Binary) -> tuple[str, int]:
        level = _BINARY.get(node.op, _COMPARE)
        right_assoc = node.op == "^"
        left = self.wrapped(node.left, level + 1 if right_assoc or level == _COMPARE else level)
        right = self.wrapped(node.right, level if right_assoc else level + 1)
        return f"{left} {node.op} {right}", level

    def visit_Member(self, node: ir.Member) -> tuple[str, int]:
        values = ", ".join(str(value) for value in node.values)
        return f"{self.wrapped(node.operand, _COMPARE + 1)} in ({values})", _COMPARE

    def visit_Conditional(self, node: ir.Conditional) -> tuple[str, int]:
        then = self.wrapped(node.then, _OR)
        condition = self.wrapped(node.condition, _OR)
        return f"{then} if {condition} else {self.wrapped(node.otherwise, _CONDITIONAL)}", _CONDITIONAL

    def visit_Call(self, node: ir.Call) -> tuple[str, int]:
        return f"{node.name}({', '.join(self.text(a)[0] for a in node.arguments)})", _ATOM

    def visit_Lookup(self, node: ir.Lookup) -> tuple[str, int]:
        name = self.ruleset.tables[node.table].id
        return f"{name}({', '.join(self.text(a)[0] for a in node.arguments)})", _ATOM

    def visit_ValueRef(self, node: ir.ValueRef) -> tuple[str, int]:
        return node.name, _ATOM

    def visit_DerivedRef(self, node: ir.DerivedRef) -> tuple[str, int]:
        return node.name, _ATOM

    def visit_Aggregate(self, node: ir.Aggregate) -> tuple[str, int]:
        element = "" if node.element is None else self.text(node.element)[0]
        collection = f"{node.arity} {node.collection}" if node.arity else node.collection
        if node.op == "sum":
            return f"sum({collection} of {element})", _ATOM
        if node.op == "count":
            return (f"count({collection} where {element})" if element else f"count({collection})"), _ATOM
        return f"{node.op} {node.collection} are ({element})", _ATOM

    def visit_other(self, node: ir.Node) -> tuple[str, int]:
        """A node of a tile's or group's scope (never in a score formula): its
        operand, or its type."""
        operand = getattr(node, "operand", None)
        return self.text(operand) if isinstance(operand, ir.Node) else (f"<{node.type}>", _ATOM)


__all__ = ["spelled"]
