"""How deep an expression may nest: checked on Lark's tree before anything recurses
over it (the transformer and the checker recurse once per level)."""

from __future__ import annotations

from typing import Any

from lark import Token, Tree

from mjr.errors import Problem, SourceError, Span, problem_at

#: The deepest nesting of expressions accepted.  Every operator is one level (a chain
#: ``a + b + c`` nests to the left, one level per '+'), and the generated Python wraps
#: each in parentheses, which Python refuses beyond about 200, so keep this well below.
MAX_NESTING = 50

#: Parse-tree rules that are expressions (after the grammar's aliases).
_EXPRESSION_RULES = frozenset({
    "conditional", "or_expr", "and_expr", "negation", "compare", "member", "binary", "neg",
    "words", "scored", "contains", "quantified", "quantified_contain",
    "count", "count_tuples", "tile_kind", "quality", "quality_contains", "sum", "call",
})

def too_deep(text: str, span: Span, chain: bool = False) -> Problem:
    message = f"expression nested too deeply (more than {MAX_NESTING} levels of operators)"
    if chain:  # each 'else' of a chain is a level: a table says the same flat
        message += "; a long chain of 'A if C else ...' is a lookup: write a 'table' and look it up"
    return problem_at(text, span, message)


def check_nesting(tree: Tree[Token], text: str, file: str) -> None:
    """Reject an expression nested deeper than MAX_NESTING, at the first level too deep.

    Walks the tree with a stack of its own: the transformer and the checker recurse
    once per level, so this must come first."""
    stack: list[tuple[Tree[Token], int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if node.data in _EXPRESSION_RULES:
            depth += 1
            if depth > MAX_NESTING:
                raise SourceError([too_deep(text, _span(file, node.meta), node.data == "conditional")])
        stack.extend((child, depth) for child in reversed(node.children) if isinstance(child, Tree))


def _span(file: str, meta: Any) -> Span:
    return Span(file, meta.line, meta.column, meta.end_line, meta.end_column)
