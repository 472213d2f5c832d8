"""The score formula a generated module carries as text (``SCORE_TEXT``), spelled
back from the checked expression with only the parentheses precedence needs."""

from __future__ import annotations

from pathlib import Path

import pytest

import mjr
from mjr.compiler.build import check_file
from mjr.compiler.emit.spelling import spelled
from mjr.compiler.model import ir

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
EMPTY = check_file(RULESETS / "guangdong.jipinghu.mjr")


def word(name: str) -> ir.Word:
    return ir.Word(ir.INT, "formula", name)


def const(value: int) -> ir.Const:
    return ir.Const(ir.INT, value)


def binary(op: str, left: ir.Node, right: ir.Node) -> ir.Binary:
    return ir.Binary(ir.INT, op, left, right)


@pytest.mark.parametrize(("ident", "formula"), [
    ("guangdong.jipinghu", "base * 2 ^ fan"),
    ("sichuan.xuezhan", "base * 2 ^ (fan - 1)"),
    ("wenzhou", "base * (streak + 1) * mult"),
    ("changsha", "base * fan * mult"),
])
def test_the_generated_module_carries_the_score_formula(ident: str, formula: str) -> None:
    assert mjr.load(ident, backend="python").generated.score_text == formula


@pytest.mark.parametrize(("node", "text"), [
    (binary("-", word("a"), binary("-", word("b"), word("c"))), "a - (b - c)"),
    (binary("-", binary("-", word("a"), word("b")), word("c")), "a - b - c"),
    (binary("^", binary("^", const(2), const(3)), word("fan")), "(2 ^ 3) ^ fan"),
    (binary("^", const(2), binary("^", const(3), word("fan"))), "2 ^ 3 ^ fan"),
    (binary("*", const(-1), word("fan")), "-1 * fan"),
    (ir.Unary(ir.INT, "neg", binary("+", word("a"), const(1))), "-(a + 1)"),
    (ir.Conditional(ir.INT, const(8), binary(">", word("fan"), const(2)), word("fan")), "8 if fan > 2 else fan"),
    (ir.Nary(ir.BOOL, "and", (ir.Nary(ir.BOOL, "or", (word("a"), word("b"))), ir.Unary(ir.BOOL, "not", word("c")))),
     "(a or b) and not c"),
    (ir.Member(ir.BOOL, binary("+", word("a"), const(1)), (2, 5, 8)), "a + 1 in (2, 5, 8)"),
])
def test_parentheses_only_where_precedence_needs_them(node: ir.Node, text: str) -> None:
    assert spelled(node, EMPTY) == text
