"""Type-check expressions and lower them to IR.

An :class:`ExpressionChecker` knows the ruleset's defines and fans and the scope an
expression is used in; it reports problems into a shared list and returns IR (a
``Const(0)`` placeholder where the expression was wrong, so checking goes on and
every problem is reported at once).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from mjr.abi import ASIDE, DEFAULT_SEATS, WIND_SEATS
from mjr.dsl import ast
from mjr.dsl.quoting import chain, quoted
from mjr.errors import Span, did_you_mean
from mjr.tiles.kinds import parse_tile

from ..front.defines import analyse, children, names_in, written_out
from ..model import ir
from ..model.vocabulary import (
    ALL_WORDS,
    AMOUNT_NAMES,
    COLLECTIONS,
    PAYER_WORDS,
    PLACE_OF_WORD,
    SCORE_NAMES,
    SEAT_WIND_WORDS,
    TILE_WORDS,
    TUPLE_WORDS,
    WAIT_COUNT_WORDS,
    WINNING_TILE_WORDS,
    scope_of_word,
    words_for,
)
from .functions import FUNCTIONS, arity_problem
from .tile_set import place_problem
from .truth import constant_comparison, constant_member

Report = Callable[[Span, str], None]

#: Deepest expression, defines written out: the generated code nests as deep, and
#: Python refuses about 200 nested parentheses.
MAX_DEPTH = 90
#: Largest define, the defines it uses written out: a define is evaluated wherever it
#: is used, so this bounds what one use costs (a define using another twice doubles).
MAX_SIZE = 10_000
#: The most groups ``count(N sets where ...)`` combines.
MAX_ARITY = 4
#: Where an expression stands decides which names it may use.
FAN_CONDITION, RULE, SCORE, AMOUNT = "fan condition", "rule", "score", "amount"
#: A named value's expression, and a payment clause's condition: both are worked out
#: after the fan total, so they may read the named values.
VALUE, PAYMENT = "value", "payment condition"
#: The places that may read named values (and the places that may say ``scored``).
VALUE_PLACES = frozenset({SCORE, AMOUNT, VALUE, PAYMENT})
SCORED_PLACES = frozenset({RULE, PAYMENT, VALUE})
#: A declared shape's condition: over the tiles alone (there is no decomposition).
SHAPE = "shape"
#: Hand words that speak of a decomposition or of the winning tile's place in it:
#: a shape's condition decides whether there is one, so it cannot use them.
DECOMPOSITION_WORDS = frozenset({"standard", "seven_pairs", "thirteen_orphans", "substituted", *WAIT_COUNT_WORDS,
                                 "no_other_fans",
                                 *(w for w in WINNING_TILE_WORDS if w.startswith("wait_"))})


#: The most conditions nested variables (``any n in (1 to 9) : ...``) write out together.
BINDER_TERMS_MOST = 1024
#: A held amount (``at_end ... (EXPR) of payer``): a number worked out on one
#: player's tiles and melds at the end of a hand, won or not.  Like a shape's
#: condition it has no decomposition; nor has it a win: the words of a win refused.
HOLDING = "held amount"
HELD_REFUSED = frozenset({*DECOMPOSITION_WORDS, *WINNING_TILE_WORDS, "self_draw", "discard", "robbing_kong",
                          "after_kong", "last_tile", "first_turn", "winners", "discarder_dealer", "discarder_left",
                          "discarder_opposite", "discarder_right"})
#: The places with no decomposition: they see the tiles and the declared melds.
NO_DECOMPOSITION = frozenset({SHAPE, HOLDING})

#: How messages name each place an expression can stand.
PLACE_TEXT = {FAN_CONDITION: "a fan's condition or value", RULE: "a requirement or a floor",
              SCORE: "the score formula", AMOUNT: "a payment amount", SHAPE: "a shape's condition",
              VALUE: "a named value", PAYMENT: "a payment condition",
              HOLDING: "a held amount ((EXPR) of payer or of payee)"}
#: What each word of the score formula and the payment amounts is.
_FORMULA_WORDS = {"fan": "the hand's fan total", "base": "the ruleset's base", "mult": "the product of the multipliers",
                  "points": "the hand's points"}
#: Keywords a misspelt word may have been meant as.
KEYWORDS = ("and", "or", "not", "if", "else", "of", "are", "is", "contain", "contains", "where", "count",
            "all", "any", "no", "scored", "each", "excludes", "pays", "when")


@dataclass
class Names:
    """What the ruleset defines: defines by name, fans by id (with their index),
    what a ``drop`` removed (with where), and the facts of play by id."""

    defines: dict[str, ast.Define] = field(default_factory=dict)
    fans: dict[str, int] = field(default_factory=dict)
    dropped: dict[str, Span] = field(default_factory=dict)
    facts: dict[str, ir.Fact] = field(default_factory=dict)
    shapes: dict[str, int] = field(default_factory=dict)
    #: the ``each`` fans, whose id is also a number (the count) where one is expected
    counted: frozenset[str] = frozenset()
    #: the named values by id (their index), and the lookup tables by id
    values: dict[str, int] = field(default_factory=dict)
    tables: dict[str, ir.Table] = field(default_factory=dict)
    #: the kinds counted from indicators (``derive``), by id
    derived: dict[str, ir.Derived] = field(default_factory=dict)


class ExpressionChecker:
    def __init__(self, names: Names, report: Report, unusable: frozenset[str] = frozenset(),
                 warn: Report | None = None, seats: int = DEFAULT_SEATS):
        self.names = names
        #: the players the table seats: a word naming a place where nobody sits is refused
        self.seats = seats
        self.report = report
        #: where a condition proven never or always true is told (it is no error)
        self.warn = warn
        #: defines already refused where they are written (too deep): a use adds nothing
        self.unusable = unusable
        self._expanding: list[str] = []
        #: each define checked once per scope and place, shared by all its uses
        self._defines: dict[tuple[str, str, str], _CheckedDefine] = {}
        self._tile_facts: dict[str, tuple[bool, bool]] = {}
        self._depths: dict[int, int] = {}
        self._suggestions: dict[tuple[str, ...], str] = {}
        #: fan indices each checked expression refers to (for ordering and cycles)
        self.fan_refs: set[int] = set()
        self._counted = frozenset(names.fans[ident] for ident in names.counted)
        #: the divisor of every ``a / b``, with where it is written: its range is known
        #: only once the whole ruleset is (see :func:`mjr.compiler.check.ranges.check_divisors`)
        self.divisors: list[tuple[ir.Node, Span]] = []
        #: likewise the step of every ``round_up``/``round_down`` (1 or more), and
        #: every lookup with its arguments' places (never below a table's first key)
        self.steps: list[tuple[ir.Node, Span]] = []
        self.lookups: list[tuple[ir.Lookup, tuple[Span, ...]]] = []
        #: every ``sum(...)``: its loop counts unchecked, so it must be proven to fit
        self.sums: list[tuple[ir.Node, Span]] = []
        #: while a named value is checked, its index: it may read only those before it
        self.value_index = -1
        #: the conditions the variables being written out make together (any n in (...))
        self._binder_terms = 1
        #: the facts a table sets for a win only, refused in a held amount (see play.win_facts)
        self.win_facts: dict[str, str] = {}
        self._bound: list[str] = []  # the variables whose conditions are being written out, outermost first

    def check(self, node: ast.Expr, expected: str, place: str, scope: str = ir.HAND) -> ir.Node:
        """Check ``node`` in ``scope``, expecting type ``expected`` (bool or int)."""
        self.place = place
        self.fan_refs = set()
        result = self._visit(node, scope)
        if _depth(result, self._depths) > MAX_DEPTH:
            self.report(node.span, f"expression nested too deeply once its defines are written out "
                                   f"(more than {MAX_DEPTH} levels)")
        return self._expect(node, result, expected)

    def _expect(self, node: ast.Expr, result: ir.Node, expected: str) -> ir.Node:
        if expected == ir.INT:
            result = self._as_number(result)
        if result.type != expected and result.type != "error":
            what = "a condition (true or false)" if expected == ir.BOOL else "a number"
            self.report(node.span, f"expected {what} here, found a {_type_word(result.type)}")
        return result

    def _as_number(self, result: ir.Node) -> ir.Node:
        """An ``each`` fan's id where a number is expected: its count (0 when the fan
        does not apply); elsewhere the id is the flag "the fan applies"."""
        if isinstance(result, ir.FanRef) and result.type == ir.BOOL and result.index in self._counted:
            return ir.FanRef(ir.INT, result.index, result.scored)
        return result

    def _error(self, span: Span, message: str, type_: str = "error") -> ir.Node:
        self.report(span, message)
        return ir.Const(type_, 0)

    def _visit(self, node: ast.Expr, scope: str) -> ir.Node:
        if scope == ir.TUPLE and not any(n.name in TUPLE_WORDS for n in names_in(node)):
            return self._member(node)
        if scope == ir.GROUP and self._is_tile_expression(node):
            inner = self._visit(node, ir.TILE)
            if inner.type == "error":
                return inner
            return ir.GroupTiles(inner.type, "all" if inner.type == ir.BOOL else "first", inner)
        method = getattr(self, "_visit_" + type(node).__name__)
        return method(node, scope)  # type: ignore[no-any-return]

    def _member(self, node: ast.Expr) -> ir.Node:
        """Inside a combination, a part without its words is said of the members: a
        condition holds of every member; a number must be one of the hand."""
        found: list[tuple[Span, str]] = []
        report, self.report = self.report, lambda span, message: found.append((span, message))
        try:
            inner = self._visit(node, ir.GROUP)
        finally:
            self.report = report
        if inner.type == ir.BOOL:
            for span, message in found:
                self.report(span, message)
            return ir.Members(ir.BOOL, inner)
        if inner.type == "error" and found:
            for span, message in found:
                self.report(span, message)
            return inner
        found.clear()
        report, self.report = self.report, lambda span, message: found.append((span, message))
        try:
            number = self._visit(node, ir.HAND)
        finally:
            self.report = report
        if found:
            return self._error(node.span, "a number of each member cannot stand alone in a combination: compare "
                                          "it in parentheses, as in '(rank == 1)', to say it of every member")
        return number

    def _visit_TileIs(self, node: ast.TileIs, scope: str) -> ir.Node:
        try:
            kind = parse_tile(node.tile)
        except ValueError:
            return self._error(node.span, f"{node.tile!r} is not a tile")
        if scope not in (ir.TILE, ir.KIND):
            return self._error(node.span, f"a tile kind ({node.tile}) is a quality of a tile: use it inside tiles, "
                                          f"kinds or a group, as in 'any tiles are {node.tile}'")
        return ir.TileIs(ir.BOOL, kind)

    def _visit_Number(self, node: ast.Number, scope: str) -> ir.Node:
        return ir.Const(ir.INT, node.value)

    def _visit_OptionValue(self, node: ast.OptionValue, scope: str) -> ir.Node:
        """A table option's chosen value (or what options alone decided)."""
        return ir.Const(ir.BOOL if isinstance(node.value, bool) else ir.INT, int(node.value))

    def _visit_Name(self, node: ast.Name, scope: str) -> ir.Node:
        name = node.name
        if self.place in (SCORE, AMOUNT, VALUE):
            table = AMOUNT_NAMES if self.place == AMOUNT else SCORE_NAMES
            if name in table:
                return ir.Word(ir.INT, "formula", name)
        if name in self.names.values:
            return self._value(node)
        if name in self.names.derived:
            if scope not in (ir.TILE, ir.KIND):
                return self._error(node.span, f"{quoted(name)} is a number of a tile (how many indicators point at "
                                              f"its kind): use it inside tiles or kinds, as in "
                                              f"'sum(tiles of {name})'")
            derived = self.names.derived[name]
            return ir.DerivedRef(ir.INT, derived.index, name, derived.most)
        if name == "no_other_fans" and self.place != FAN_CONDITION:
            return self._error(node.span, "'no_other_fans' can be used only in a fan's condition")
        if name in PLACE_OF_WORD:
            problem = place_problem(PLACE_OF_WORD[name], self.seats)
            if problem is not None:
                return self._error(node.span, f"{quoted(name)}: {problem}")
        if name in SEAT_WIND_WORDS and self.seats > WIND_SEATS:
            return self._error(node.span, f"{quoted(name)}: a table of {self.seats} (seats {self.seats}) has seats "
                                          f"past the fourth, which have no wind: a ruleset seating more than "
                                          f"{WIND_SEATS} cannot use it")
        if name in PAYER_WORDS:
            if self.place != AMOUNT:
                return self._error(node.span, f"{name!r} is a word of the payer: it can be used only in a "
                                              "payment amount (after 'pays')")
            return ir.Word(PAYER_WORDS[name].type, "payer", name)
        if name in self.names.facts:
            if self.place == HOLDING and name in self.win_facts:
                return self._error(node.span, f"fact {quoted(name)} cannot be used in a held amount: a table sets "
                                              f"it for a win only ({self.win_facts[name]})")
            return self._fact(node, self.names.facts[name])
        words = words_for(scope)
        if self.place == SHAPE and (name in DECOMPOSITION_WORDS or name in self.names.fans
                                    or name in self.names.shapes):
            what = "a fan" if name in self.names.fans else "a shape" if name in self.names.shapes else "a word"
            return self._error(node.span, f"{quoted(name)} cannot be used in a shape's condition: it is {what} of "
                                          f"the decomposition, and a shape decides whether there is one")
        if self.place == HOLDING and (name in HELD_REFUSED or name in self.names.fans or name in self.names.shapes):
            what = "a fan" if name in self.names.fans else "a shape" if name in self.names.shapes else "a word"
            return self._error(node.span, f"{quoted(name)} cannot be used in a held amount: it is {what} of a win, "
                                          f"and a held amount counts one player's tiles and melds at the end of a "
                                          f"hand, whether the player won or not")
        if scope == ir.GROUP and name in TILE_WORDS and TILE_WORDS[name].type == ir.INT:
            # a tile number in a group is the group's lowest tile's (a chow's lowest rank)
            return ir.GroupTiles(ir.INT, "first", ir.Word(ir.INT, ir.TILE, name))
        if name in words:
            return ir.Word(words[name].type, scope if name not in _hand_words() else ir.HAND, name)
        if name in self.names.defines:
            return self._expand(node, self.names.defines[name], scope)
        if name in self.names.shapes:
            return ir.ShapeRef(ir.BOOL, self.names.shapes[name])
        if name in self.names.fans:
            if self.place in (SCORE, AMOUNT):
                return self._error(node.span, f"a fan ({quoted(name)}) cannot be used in the {self.place} formula")
            self.fan_refs.add(self.names.fans[name])
            return ir.FanRef(ir.BOOL, self.names.fans[name], False)
        return self._unknown(node, scope)

    def _value(self, node: ast.Name) -> ir.Node:
        index = self.names.values[node.name]
        if self.place not in VALUE_PLACES:
            return self._error(node.span, f"value {quoted(node.name)} is worked out after the fan total: it can be "
                                          f"used in the score, payments and later values, not in "
                                          f"{PLACE_TEXT[self.place]}")
        if self.place == VALUE and index >= self.value_index >= 0:
            what = "this value itself" if index == self.value_index else "written after this one"
            return self._error(node.span, f"value {quoted(node.name)} is {what}: a value may use only the values "
                                          f"written before it")
        return ir.ValueRef(ir.INT, index, node.name)

    def _fact(self, node: ast.Name, fact: ir.Fact) -> ir.Node:
        if fact.kind == "tiles":
            return self._error(node.span, f"fact {quoted(fact.id)} holds tiles: count them, as in "
                                          f"'count({fact.id})' or 'any {fact.id} are honor'")
        type_ = ir.BOOL if fact.kind == "flag" else ir.INT
        return ir.FactRef(type_, fact.slot, fact.id, fact.low, fact.high)

    def _unknown(self, node: ast.Name, scope: str) -> ir.Node:
        name = node.name
        if name in self.names.dropped:
            drop = self.names.dropped[name]
            return self._error(node.span, f"unknown name {quoted(name)}: removed by the 'drop' at {drop}")
        if name in TUPLE_WORDS:
            return self._error(node.span, f"{name!r} describes a combination of groups: it can be used only "
                                          f"directly inside count(N sets where ...)")
        if name in AMOUNT_NAMES:  # a word of the formulas, outside them
            where = "payment amounts" if name not in SCORE_NAMES else \
                "the score formula, payment amounts and named values"
            return self._error(node.span, f"{name!r} is {_FORMULA_WORDS[name]}: it can be used in {where}, not in "
                                          f"{PLACE_TEXT[self.place]}")
        home = scope_of_word(name)
        if home is not None:
            where = {ir.GROUP: "a set or pair (inside sets, groups, pairs or melds)",
                     ir.KIND: "a tile kind (inside kinds)", ir.TILE: "a tile"}[home]
            return self._error(node.span, f"{name!r} is a property of {where}; it cannot be used here")
        key = (name, scope, self.place, *self._bound)
        if key not in self._suggestions:  # the same typo a thousand times is looked up once
            candidates = [*words_for(scope), *self.names.defines, *self.names.fans, *self.names.shapes,
                          *self.names.facts, *KEYWORDS, *self._bound]
            if self.place in (SCORE, VALUE):
                candidates += list(SCORE_NAMES)
            if self.place == AMOUNT:
                candidates += [*AMOUNT_NAMES, *PAYER_WORDS]
            if self.place in VALUE_PLACES:
                candidates += list(self.names.values)
            self._suggestions[key] = did_you_mean(name, candidates)
        return self._error(node.span, f"unknown name {quoted(name)}{self._suggestions[key]}")

    def _expand(self, node: ast.Name, define: ast.Define, scope: str) -> ir.Node:
        """A define's body, checked where it is used.  Unknown names and cycles in a
        body are reported once, at the define (:func:`check_defines`); what is wrong
        only at this use (a set word at hand level, say) is reported here.  The body
        is checked once per scope and place and the result shared by every use, so
        checking stays linear however the defines nest."""
        if define.name in self.unusable or define.name in self._expanding:
            return ir.Const("error", 0)
        key = (define.name, scope, self.place)
        checked = self._defines.get(key)
        if checked is None:
            checked = self._defines[key] = self._check_define(define, scope)
        self.fan_refs |= checked.fan_refs
        for message in checked.messages:
            self.report(node.span, f"define {quoted(define.name)} cannot be used here: {message}")
        return checked.node

    def _check_define(self, define: ast.Define, scope: str) -> _CheckedDefine:
        found: list[str] = []
        report, self.report = self.report, lambda span, message: found.append(message)
        outer_refs, self.fan_refs = self.fan_refs, set()
        self._expanding.append(define.name)
        try:
            body = self._visit(define.body, scope)
        finally:
            self._expanding.pop()
            self.report = report
            refs, self.fan_refs = self.fan_refs, outer_refs
        messages = tuple(m for m in dict.fromkeys(found) if not m.startswith("unknown name"))
        if body.type == "error":
            return _CheckedDefine(body, messages, frozenset(refs))
        node = ir.DefineRef(body.type, len(self._defines), define.name, scope, body)
        return _CheckedDefine(node, messages, frozenset(refs))

    def _visit_Scored(self, node: ast.Scored, scope: str) -> ir.Node:
        if node.fan not in self.names.fans:
            return self._error(node.span, f"unknown fan {quoted(node.fan)}{did_you_mean(node.fan, self.names.fans)}")
        if self.place not in SCORED_PLACES:
            return self._error(node.span, f"'scored' is for requirements, floors, payment conditions and named "
                                          f"values, not for {PLACE_TEXT[self.place]}")
        return ir.FanRef(ir.BOOL, self.names.fans[node.fan], True)

    def _visit_Not(self, node: ast.Not, scope: str) -> ir.Node:
        operand = self._expect(node.operand, self._visit(node.operand, scope), ir.BOOL)
        return ir.Unary(ir.BOOL, "not", operand)

    def _visit_BoolOp(self, node: ast.BoolOp, scope: str) -> ir.Node:
        operands = tuple(self._expect(o, self._visit(o, scope), ir.BOOL) for o in node.operands)
        return ir.Nary(ir.BOOL, node.op, operands)

    def _visit_Each(self, node: ast.Each, scope: str) -> ir.Node:
        """``any | all | no NAME in (VALUES) : BODY``: BODY written out for each value,
        each checked where it stands, joined by ``or`` / ``and`` (``no``: none holds).
        The variable may not hide a name of the ruleset or the vocabulary, and the
        written-out conditions of nested variables are at most BINDER_TERMS_MOST."""
        hidden = self._hidden(node.name)
        if hidden:
            return self._error(node.name_span, f"variable {quoted(node.name)} would hide {hidden}: name it "
                                               f"otherwise (x, n, suit ...)", ir.BOOL)
        if len(set(node.values)) < len(node.values):
            twice = next(value for value in node.values if node.values.count(value) > 1)
            return self._error(node.span, f"{twice} is written twice among the values of {quoted(node.name)}",
                               ir.BOOL)
        self._binder_terms *= len(node.values)
        self._bound.append(node.name)
        warn, self.warn = self.warn, None  # (a part may be constant for one value: n + 2 <= 9 at n = 7)
        try:
            if self._binder_terms > BINDER_TERMS_MOST:
                return self._error(node.span, f"the variables written out make more than {BINDER_TERMS_MOST} "
                                              f"conditions: take fewer values", ir.BOOL)
            parts = tuple(self._expect(node.body, self._visit(body, scope), ir.BOOL) for body in written_out(node))
        finally:
            self._binder_terms //= len(node.values)
            self._bound.pop()
            self.warn = warn
        joined = ir.Nary(ir.BOOL, "and" if node.quantifier == "all" else "or", parts)
        return ir.Unary(ir.BOOL, "not", joined) if node.quantifier == "no" else joined

    def _hidden(self, name: str) -> str:
        """What a variable named ``name`` would hide ("" for nothing)."""
        names = self.names
        for what, table in (("the define", names.defines), ("the fan", names.fans), ("the shape", names.shapes),
                            ("the fact", names.facts), ("the value", names.values), ("the table", names.tables),
                            ("the derived kind", names.derived)):
            if name in table:
                return f"{what} {quoted(name)}"
        if name in ALL_WORDS or name in SCORE_NAMES or name in AMOUNT_NAMES or name in PAYER_WORDS:
            return f"the word {quoted(name)}"
        return ""

    def _visit_Compare(self, node: ast.Compare, scope: str) -> ir.Node:
        left = self._expect(node.left, self._visit(node.left, scope), ir.INT)
        right = self._expect(node.right, self._visit(node.right, scope), ir.INT)
        comparison = ir.Binary(ir.BOOL, node.op, left, right)
        if self.warn is not None and left.type == right.type == ir.INT:
            self._warn_constant(node.span, constant_comparison(comparison))
        return comparison

    def _visit_Member(self, node: ast.Member, scope: str) -> ir.Node:
        operand = self._expect(node.operand, self._visit(node.operand, scope), ir.INT)
        member = ir.Member(ir.BOOL, operand, node.values)
        if self.warn is not None and operand.type == ir.INT:
            self._warn_constant(node.span, constant_member(member))
        return member

    def _warn_constant(self, span: Span, message: str | None) -> None:
        if message is not None and self.warn is not None:
            self.warn(span, message)

    def _visit_Binary(self, node: ast.Binary, scope: str) -> ir.Node:
        left = self._expect(node.left, self._visit(node.left, scope), ir.INT)
        right = self._expect(node.right, self._visit(node.right, scope), ir.INT)
        if node.op == "/":
            self.divisors.append((right, node.right.span))
        return ir.Binary(ir.INT, node.op, left, right)

    def _visit_Call(self, node: ast.Call, scope: str) -> ir.Node:
        """A function of numbers, or a lookup in a table."""
        name = node.name
        if name not in FUNCTIONS and name not in self.names.tables:
            what = " (a name, not a function)" if name in self.names.defines or name in words_for(scope) else ""
            known = [*FUNCTIONS, *self.names.tables]
            return self._error(node.name_span, f"unknown function {quoted(name)}{what}: the functions are "
                                               f"{', '.join(FUNCTIONS)}, and the ruleset's tables"
                                               f"{did_you_mean(name, known)}")
        arguments = tuple(self._expect(a, self._visit(a, scope), ir.INT) for a in node.arguments)
        problem = arity_problem(name, len(arguments), self.names.tables)
        if problem is not None:
            return self._error(node.span, problem)
        if name in self.names.tables:
            lookup = ir.Lookup(ir.INT, self.names.tables[name].index, arguments)
            self.lookups.append((lookup, tuple(a.span for a in node.arguments)))
            return lookup
        if name.startswith("round_"):
            self.steps.append((arguments[1], node.arguments[1].span))
        return ir.Call(ir.INT, name, arguments)

    def _visit_Sum(self, node: ast.Sum, scope: str) -> ir.Node:
        total = self._aggregate(ir.INT, "sum", node.collection, node.value, node.span, ir.INT)
        self.sums.append((total, node.span))
        return total

    def _visit_Negate(self, node: ast.Negate, scope: str) -> ir.Node:
        operand = self._expect(node.operand, self._visit(node.operand, scope), ir.INT)
        return ir.Unary(ir.INT, "neg", operand)

    def _visit_Conditional(self, node: ast.Conditional, scope: str) -> ir.Node:
        condition = self._expect(node.condition, self._visit(node.condition, scope), ir.BOOL)
        then = self._visit(node.then, scope)
        otherwise = self._visit(node.otherwise, scope)
        if ir.INT in (then.type, otherwise.type):
            then, otherwise = self._as_number(then), self._as_number(otherwise)
        if "error" not in (then.type, otherwise.type) and then.type != otherwise.type:
            return self._error(node.span, "both branches of 'if ... else' must be numbers, or both conditions")
        return ir.Conditional(then.type, then, condition, otherwise)

    def _visit_Contains(self, node: ast.Contains, scope: str) -> ir.Node:
        if scope != ir.GROUP:
            return self._error(node.span, "'contains' applies to a set or pair (inside sets, groups or melds)")
        inner = self._expect(node.operand, self._visit(node.operand, ir.TILE), ir.BOOL)
        return ir.GroupTiles(ir.BOOL, "any", inner)

    def _visit_Quantified(self, node: ast.Quantified, scope: str) -> ir.Node:
        return self._aggregate(ir.BOOL, node.quantifier, node.collection, node.condition, node.span)

    def _shape_collection(self, collection: str, span: Span) -> None:
        """A shape's condition and a held amount see the tiles and the declared
        melds, never groups of a decomposition (there is none)."""
        if self.place in NO_DECOMPOSITION and collection in ("sets", "pairs", "groups"):
            what = ("a shape's condition: a declared shape has" if self.place == SHAPE
                    else "a held amount: a player's tiles at the end of a hand have")
            self.report(span, f"{quoted(collection)} cannot be used in {what} no decomposition (use tiles, kinds "
                              f"or melds)")

    def _visit_Count(self, node: ast.Count, scope: str) -> ir.Node:
        if node.arity:
            return self._combinations(node)
        return self._aggregate(ir.INT, "count", node.collection, node.condition, node.span)

    def _combinations(self, node: ast.Count) -> ir.Node:
        """``count(N sets where C)``: the combinations of N groups meeting C together."""
        self._shape_collection(node.collection, node.span)
        if COLLECTIONS.get(node.collection) != ir.GROUP:
            return self._error(node.span, f"combinations are of groups: count(N sets|pairs|groups|melds where ...), "
                                          f"not of {quoted(node.collection)}")
        if not 2 <= node.arity <= MAX_ARITY:
            return self._error(node.span, f"a combination has 2 to {MAX_ARITY} groups, not {node.arity}")
        assert node.condition is not None
        element = self._expect(node.condition, self._visit(node.condition, ir.TUPLE), ir.BOOL)
        return ir.Aggregate(ir.INT, "count", node.collection, element, arity=node.arity)

    def _aggregate(self, type_: str, op: str, collection: str, condition: ast.Expr | None, span: Span,
                   element_type: str = ir.BOOL) -> ir.Node:
        """A built-in collection (elements of its scope), or a tiles fact (tiles);
        the element is a condition, or for ``sum`` a number."""
        self._shape_collection(collection, span)
        fact = self.names.facts.get(collection)
        if fact is not None and fact.kind == "tiles":
            scope, slot, size = ir.TILE, fact.slot, fact.high
        elif collection in COLLECTIONS:
            scope, slot, size = COLLECTIONS[collection], -1, 0
        elif collection == ASIDE:
            return self._error(span, "'aside' is the tiles a hand has set aside, and this ruleset sets none aside: "
                                     "name the kinds in its tiles statement, as in 'tiles suits(m p s) winds "
                                     "dragons aside(E S W N)'")
        else:
            tiles_facts = [name for name, f in self.names.facts.items() if f.kind == "tiles"]
            return self._error(span, f"unknown collection {quoted(collection)}"
                                     f"{did_you_mean(collection, [*COLLECTIONS, *tiles_facts])}")
        element = None
        if condition is not None:
            element = self._expect(condition, self._visit(condition, scope), element_type)
        return ir.Aggregate(type_, op, collection, element, slot, size)

    def _is_tile_expression(self, node: ast.Expr) -> bool:
        """Does ``node`` use tile qualities and no group property or collection?

        Inside a group such an expression means "every tile of the group".  A tile
        number such as ``rank`` is no tile quality here: in a group it is the group's
        lowest tile's, so an expression using it is checked part by part.
        """
        fits, found_tile = self._tile_facts_of(node)
        return fits and found_tile

    def _tile_facts_of(self, expr: ast.Expr) -> tuple[bool, bool]:
        """(uses nothing but tile qualities and hand words, uses a tile quality); a
        define's facts are worked out once."""
        if isinstance(expr, ast.Name):
            home = scope_of_word(expr.name)
            if home is None and expr.name in self.names.defines:
                if expr.name in self.unusable or expr.name in self._expanding:
                    return False, False
                facts = self._tile_facts.get(expr.name)
                if facts is None:
                    self._expanding.append(expr.name)
                    try:
                        facts = self._tile_facts_of(self.names.defines[expr.name].body)
                    finally:
                        self._expanding.pop()
                    self._tile_facts[expr.name] = facts
                return facts
            if home == ir.TILE and TILE_WORDS[expr.name].type == ir.INT:
                return False, False
            return home in (None, ir.TILE), home == ir.TILE
        if isinstance(expr, ast.TileIs):
            return True, True
        if isinstance(expr, (ast.Quantified, ast.Count, ast.Sum, ast.Contains)):
            return False, False
        fits, found_tile = True, False
        for child in children(expr):
            child_fits, child_tile = self._tile_facts_of(child)
            fits, found_tile = fits and child_fits, found_tile or child_tile
            if not fits:
                break
        return fits, found_tile


@dataclass(frozen=True)
class _CheckedDefine:
    """A define checked for one scope and place: its IR, what is wrong with it there,
    and the fans it refers to."""

    node: ir.Node
    messages: tuple[str, ...]
    fan_refs: frozenset[int]


def check_defines(names: Names, report: Report) -> frozenset[str]:
    """Check every define once where it is written: unknown names, defines that refer
    to themselves (each cycle once, at the reference that starts it), and defines
    nested too deeply once the defines they use are written out (at the define where
    the limit is crossed).  Returns the defines too deep to use."""
    known = {*ALL_WORDS, *names.defines, *names.fans, *names.shapes, *names.facts, *names.values, *names.tables,
             *names.derived}
    for define in names.defines.values():
        variables = sorted(_variables(define.body))  # (a misspelt variable's name is suggested too)
        for used in names_in(define.body):
            if used.name in SCORE_NAMES or used.name in AMOUNT_NAMES:
                report(used.span, f"{used.name!r} belongs to the score formula and payment amounts; "
                                  f"a define cannot use it")
            elif used.name not in known:
                suggestion = did_you_mean(used.name, [*sorted(known), *KEYWORDS, *variables])
                report(used.span, f"unknown name {quoted(used.name)}{suggestion}")
    graph = analyse(names.defines)
    for cycle, reference in graph.cycles:
        report(reference.span, f"define {quoted(cycle[0])} refers to itself ({chain(cycle)})")
    for name in graph.crossing(graph.depth, MAX_DEPTH):
        report(names.defines[name].span, f"define {quoted(name)} is nested too deeply once the defines it "
                                         f"uses are written out (more than {MAX_DEPTH} levels)")
    for name in graph.crossing(graph.size, MAX_SIZE):
        if graph.depth[name] <= MAX_DEPTH:
            report(names.defines[name].span, f"define {quoted(name)} is too large once the defines it uses "
                                             f"are written out (more than {MAX_SIZE} terms)")
    return frozenset(name for name in graph.order if graph.depth[name] > MAX_DEPTH or graph.size[name] > MAX_SIZE)


def _variables(expr: ast.Expr) -> set[str]:
    """The variables of the ``any NAME in (...)`` inside ``expr``."""
    own = {expr.name} if isinstance(expr, ast.Each) else set()
    return own.union(*(_variables(child) for child in children(expr)))


def _depth(node: ir.Node, known: dict[int, int]) -> int:
    """Nesting depth of an IR expression, defines written out (the generated code
    nests at most as deep).  A define's body is shared by its uses: measured once."""
    if isinstance(node, ir.DefineRef):
        if node.index not in known:
            known[node.index] = _depth(node.body, known)
        return known[node.index]
    return 1 + max((_depth(child, known) for child in ir.children(node)), default=0)



def _type_word(type_: str) -> str:
    return "condition" if type_ == ir.BOOL else "number"


def _hand_words() -> set[str]:
    return set(words_for(ir.HAND))
