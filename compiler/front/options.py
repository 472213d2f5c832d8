"""Table options in a ruleset's source: the declared table, and a combination's
statements.

Options are settled before anything else is checked: ``when`` blocks keep the
statements of the chosen branch, and an option's name in an expression becomes its
chosen value (:class:`ast.OptionValue`), so the checker, the IR and the generated
module see one plain ruleset, and each combination is its own build.  A ``when``
condition and a ``refuse`` condition may name options and numbers only: they are
worked out here, for the combination asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from mjr.dsl import ast
from mjr.dsl.quoting import quoted
from mjr.errors import OptionError, Span, did_you_mean
from mjr.options import OptionInfo, Value, describe, show

from ..model.vocabulary import ALL_WORDS

Report = Callable[[Span, str], None]
#: Statements that belong to the option table and are settled here, never lowered.
_TABLE_STATEMENTS = (ast.OptionDecl, ast.Fix, ast.Refuse)


@dataclass
class Table:
    """The options of a ruleset after its ``extends`` chain."""

    options: dict[str, OptionInfo] = field(default_factory=dict)
    fixed: dict[str, Value] = field(default_factory=dict)
    refusals: list[ast.Refuse] = field(default_factory=list)

    @property
    def choosable(self) -> tuple[OptionInfo, ...]:
        """The options a table may choose: the declared ones a variant has not fixed."""
        return tuple(option for name, option in self.options.items() if name not in self.fixed)

    def defaults(self) -> dict[str, Value]:
        return {**{name: option.default for name, option in self.options.items()}, **self.fixed}


def table(lineage: list[ast.Ruleset], report: Report) -> Table:
    """The option table of ``lineage`` (the top of the ``extends`` chain first): a
    file's ``option`` replaces its parent's of the same name, ``fix`` settles one."""
    result = Table()
    for node in lineage:
        declared: dict[str, Span] = {}
        for statement in node.statements:
            if isinstance(statement, ast.OptionDecl):
                if statement.name in declared:
                    report(statement.span, f"duplicate option {quoted(statement.name)} "
                                           f"(first at line {declared[statement.name].line})")
                    continue
                declared[statement.name] = statement.span
                result.options[statement.name] = _info(statement, report)
                result.fixed.pop(statement.name, None)
            elif isinstance(statement, ast.Fix):
                _fix(statement, result, report)
            elif isinstance(statement, ast.Refuse):
                result.refusals.append(statement)
            elif isinstance(statement, ast.When):
                _no_table_statements(statement, report)
    return result


def _info(decl: ast.OptionDecl, report: Report) -> OptionInfo:
    """The checked option of ``decl`` (its default is its first value, off, or its low end)."""
    if decl.name in ALL_WORDS:
        report(decl.span, f"option {decl.name!r} has the name of a built-in word; choose another name")
    values: tuple[Value, ...] = decl.values
    if decl.kind == "flag":
        values = (False, True)
    elif decl.kind == "number" and decl.values[0] > decl.values[1]:  # type: ignore[operator]
        report(decl.span, f"option {decl.name!r} runs from {decl.values[0]} to {decl.values[1]}: "
                          f"the low end comes first")
    elif decl.kind == "choice":
        _check_choice(decl, report)
    default = values[0]
    info = OptionInfo(decl.name, decl.display, decl.kind, values, default, decl.section)
    if decl.default is not None:
        written, span = decl.default
        try:
            default = info.read(written)
        except OptionError as error:
            report(span, f"the default: {error}")
    return replace(info, default=default)


def _check_choice(decl: ast.OptionDecl, report: Report) -> None:
    seen: set[ast.OptionWord] = set()
    for value in decl.values:
        if value in seen:
            report(decl.span, f"option {decl.name!r} lists {value} twice")
        seen.add(value)
    if len({type(value) for value in decl.values}) > 1:
        report(decl.span, f"option {decl.name!r} mixes words and numbers: a choice is of one or the other")


def _fix(statement: ast.Fix, result: Table, report: Report) -> None:
    option = result.options.get(statement.name)
    if option is None:
        report(statement.span, f"unknown option {quoted(statement.name)} to fix"
                               f"{did_you_mean(statement.name, list(result.options))}")
        return
    try:
        result.fixed[statement.name] = option.read(statement.value)
    except OptionError as error:
        report(statement.value_span, str(error))


def _no_table_statements(block: ast.When, report: Report) -> None:
    """Options, fixes and refusals stand at the top of a file, never inside ``when``."""
    for statement in (*block.body, *block.otherwise):
        if isinstance(statement, _TABLE_STATEMENTS):
            word = {ast.OptionDecl: "an 'option'", ast.Fix: "a 'fix'", ast.Refuse: "a 'refuse'"}[type(statement)]
            report(statement.span, f"{word} cannot stand inside 'when': the option table is the same for "
                                   f"every choice (write it at the top of the ruleset)")
        elif isinstance(statement, ast.Example):
            report(statement.span, "an example cannot stand inside 'when': give it the options it is played "
                                   "under (options NAME = VALUE)")
        elif isinstance(statement, ast.When):
            _no_table_statements(statement, report)


# -- a combination -------------------------------------------------------------


def refusal(ruleset: str, options: Table, chosen: Mapping[str, Value], report: Report) -> str | None:
    """Why the ruleset refuses ``chosen`` (None when it plays it), naming the options
    its ``refuse`` names with the values each allows."""
    settle = Settle(chosen, options, report, lambda statement: None)
    for statement in options.refusals:
        if settle.condition(statement.condition, "refuse"):
            names = _option_names(statement.condition, options)
            allowed = "; ".join(f"{name} takes {options.options[name].allowed()}" for name in names
                                if name in options.options and name not in options.fixed)
            which = describe((name, chosen[name]) for name in names if name in chosen)
            return f"{ruleset} refuses {which}: {statement.message}" + (f" ({allowed})" if allowed else "")
    return None


def _option_names(expr: ast.Expr, options: Table) -> list[str]:
    names: list[str] = []
    stack: list[Any] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and node.name in options.options and node.name not in names:
            names.append(node.name)
        elif isinstance(node, ast.Expr):
            stack.extend(reversed([getattr(node, f.name) for f in fields(node)]))
        elif isinstance(node, tuple):
            stack.extend(reversed(node))
    return names


class Settle:
    """One combination's statements: ``when`` blocks chosen, options' names replaced.

    A statement of a chosen branch replaces the one of the same kind and id (or
    keyword) written outside it in the same file, so a file states its usual rule
    and, in a ``when`` block, the rule some options put in its place; a branch's
    wildcard lines replace the file's as a whole."""

    def __init__(self, chosen: Mapping[str, Value], options: Table, report: Report,
                 key: Callable[[ast.Statement], object]):
        self.chosen = chosen
        self.options = options.options
        self.report = report
        self.key = key

    def statements(self, statements: tuple[ast.Statement, ...]) -> tuple[ast.Statement, ...]:
        """``statements`` as this combination has them."""
        plain: list[ast.Statement] = []
        chosen: list[ast.Statement] = []
        self._flatten(statements, plain, chosen, in_branch=False)
        replaced = {self.key(statement) for statement in chosen} - {None}
        return (*(s for s in plain if self.key(s) not in replaced), *chosen)

    def _flatten(self, statements: tuple[ast.Statement, ...], plain: list[ast.Statement],
                 chosen: list[ast.Statement], in_branch: bool) -> None:
        for statement in statements:
            if isinstance(statement, ast.When):
                branch = statement.body if self.condition(statement.condition, "when") else statement.otherwise
                self._flatten(branch, plain, chosen, in_branch=True)
            elif not isinstance(statement, _TABLE_STATEMENTS):
                (chosen if in_branch else plain).append(self._settled(statement))

    def condition(self, expr: ast.Expr, keyword: str) -> bool:
        """A ``when`` or ``refuse`` condition worked out (false, once reported, when it
        names more than options and numbers)."""
        value = self.expression(expr)
        if isinstance(value, ast.OptionValue) and isinstance(value.value, bool):
            return value.value
        if isinstance(value, ast.OptionValue | ast.Number):
            self.report(expr.span, f"a {quoted(keyword)} condition is true or false, not a number")
        else:
            self.report(expr.span, f"a {quoted(keyword)} condition may name options and numbers only "
                                   f"(the options are: {', '.join(self.options) or 'none'})")
        return False

    def _settled(self, statement: ast.Statement) -> ast.Statement:
        changes = {f.name: self._field(getattr(statement, f.name)) for f in fields(statement)}
        return replace(statement, **changes)

    def _field(self, value: Any) -> Any:
        if isinstance(value, ast.Expr):
            return self.expression(value)
        if isinstance(value, tuple):
            return tuple(self._field(item) for item in value)
        return value

    def expression(self, expr: ast.Expr) -> ast.Expr:
        """``expr`` with this combination's values in place of the options' names,
        and what options alone decide worked out."""
        if isinstance(expr, ast.Name) and expr.name in self.options:
            return self._value(expr)
        if isinstance(expr, ast.Each) and expr.name in self.options:
            self.report(expr.name_span, f"variable {quoted(expr.name)} would hide the option {quoted(expr.name)}: "
                                        f"name it otherwise (x, n, suit ...)")
            return ast.OptionValue(expr.span, "", False)
        if isinstance(expr, ast.Compare) and expr.op in ("==", "!="):
            word = self._word_comparison(expr)
            if word is not None:
                return word
        changes = {f.name: self._field(getattr(expr, f.name)) for f in fields(expr) if f.name != "span"}
        return _folded(replace(expr, **changes))

    def _value(self, name: ast.Name) -> ast.Expr:
        option = self.options[name.name]
        value = self.chosen[name.name]
        if option.kind == "choice" and isinstance(value, str):
            example = f"{name.name} == {option.values[0]}"
            self.report(name.span, f"option {name.name!r} is a choice of words: compare it with one ({example})")
            return ast.OptionValue(name.span, name.name, False)
        return ast.OptionValue(name.span, name.name, value if not isinstance(value, str) else False)

    def _word_comparison(self, expr: ast.Compare) -> ast.Expr | None:
        """``ghost == flip``: a choice of words compared with one of its words."""
        for option_side, word_side in ((expr.left, expr.right), (expr.right, expr.left)):
            if not (isinstance(option_side, ast.Name) and option_side.name in self.options):
                continue
            option = self.options[option_side.name]
            if option.kind != "choice" or not isinstance(option.values[0], str):
                return None
            if not isinstance(word_side, ast.Name) or word_side.name not in option.values:
                written = word_side.name if isinstance(word_side, ast.Name) else "this"
                words = [str(v) for v in option.values]
                self.report(word_side.span, f"{quoted(written)} is not a value of option {option.name!r}: it "
                                            f"takes {option.allowed()}{did_you_mean(written, words)}")
                return ast.OptionValue(expr.span, option.name, False)
            equal = self.chosen[option.name] == word_side.name
            return ast.OptionValue(expr.span, option.name, equal == (expr.op == "=="))
        return None


_CONSTANT = (ast.OptionValue, ast.Number)


def _folded(expr: ast.Expr) -> ast.Expr:
    """``expr`` worked out when options and numbers alone decide it, else ``expr``."""
    value = _evaluate(expr)
    if value is None or isinstance(expr, _CONSTANT):
        return expr
    return ast.OptionValue(expr.span, "", value)


def _evaluate(expr: ast.Expr) -> int | bool | None:
    if isinstance(expr, ast.Number):
        return expr.value
    if isinstance(expr, ast.OptionValue):
        return expr.value if not isinstance(expr.value, str) else None
    if isinstance(expr, ast.Not):
        inner = _evaluate(expr.operand)
        return (not inner) if isinstance(inner, bool) else None
    if isinstance(expr, ast.BoolOp):
        values = [_evaluate(operand) for operand in expr.operands]
        if not all(isinstance(value, bool) for value in values):
            return None
        return all(values) if expr.op == "and" else any(values)
    if isinstance(expr, ast.Compare | ast.Binary):
        left, right = _evaluate(expr.left), _evaluate(expr.right)
        if not _numbers(left, right):
            return None
        return _COMPARE[expr.op](left, right) if isinstance(expr, ast.Compare) else _ARITHMETIC[expr.op](left, right)
    if isinstance(expr, ast.Member):
        operand = _evaluate(expr.operand)
        return operand in expr.values if _numbers(operand) else None
    if isinstance(expr, ast.Negate):
        operand = _evaluate(expr.operand)
        return -operand if _numbers(operand) else None  # type: ignore[operator]
    if isinstance(expr, ast.Conditional):
        condition = _evaluate(expr.condition)
        if not isinstance(condition, bool):
            return None
        return _evaluate(expr.then if condition else expr.otherwise)
    return None


def _numbers(*values: object) -> bool:
    return all(isinstance(value, int) and not isinstance(value, bool) for value in values)


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
_ARITHMETIC: dict[str, Callable[[Any, Any], int | None]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a // b if b else None,
    "%": lambda a, b: a % b if b else None, "^": lambda a, b: a ** b if 0 <= b <= 64 else None}


# -- examples ------------------------------------------------------------------


def example_combination(example: ast.Example, options: Table, report: Report) -> dict[str, Value]:
    """The whole combination ``example`` is played under: its ``options`` over the
    defaults (a wrong one is reported where it is written)."""
    chosen = options.defaults()
    for name, written, span in example.options:
        if name in options.fixed:
            report(span, f"option {name!r} is fixed to {show(options.fixed[name])} by this ruleset")
        elif name not in options.options:
            report(span, f"unknown option {quoted(name)}{did_you_mean(name, list(options.options))}")
        else:
            try:
                chosen[name] = options.options[name].read(written)
            except OptionError as error:
                report(span, str(error))
    return chosen
