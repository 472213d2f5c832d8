"""IR -> Cython pure-Python source, through jinja2 templates.

Expressions are rendered to code here, one ``visit_<Node>`` per IR node, the way a
template compiler renders its nodes; aggregates (``all sets are chow``,
``count(tiles where honor)``) are hoisted into helper functions.  User text reaches
the output only as escaped literals (:func:`literal`) and comments
(:func:`comment`); names come from validated ids, never from the user directly.
"""

from __future__ import annotations

import ast
import hashlib
import marshal
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from pathlib import Path

import jinja2

from mjr import abi
from mjr._version import __version__
from mjr.abi import (
    GROUP_ADDED,
    GROUP_CLAIMED,
    GROUP_CONCEALED,
    GROUP_DECLARED,
    GROUP_FROM_RIGHT,
    GROUP_LATEST,
    GROUP_SUBST_SHIFT,
    GROUP_WILD_SHIFT,
    GROUP_WINNING,
    JOKER,
    MAX_FACT_NUMBER,
    MAX_FACT_TILES,
    MAX_JOKERS,
    MELD_JOKER_SHIFT,
    RED_COPIES,
)
from mjr.tiles.kinds import FIRST_HONOR, N_KINDS, TERMINALS_AND_HONORS, rank_of

from ..check.functions import table_code
from ..check.ranges import unproven
from ..model import ir
from ..model.vocabulary import (
    AMOUNT_NAMES,
    GROUP_WORDS,
    HAND_WORDS,
    KIND_WORDS,
    NEEDS_DEALER,
    NEEDS_SOURCE,
    PAYER_WORDS,
    SCORE_NAMES,
    TILE_WORDS,
    WAIT_COUNT_WORDS,
    WINNING_TILE_WORDS,
)
from .fusion import (
    ALL_KINDS,
    GROUP_COLLECTIONS,
    GROUP_MEMBERSHIP,
    TILE_COLLECTIONS,
    FusedFact,
    fused_table,
    kind_mask,
)
from .identities import IdentityClasses, identity_classes
from .spelling import spelled
from .tuples import AccountOnce, CombinationHelper, member_names, most_instances, split_members, word_code

TEMPLATES = Path(__file__).parent / "templates"
MAX_GROUPS = 10
#: Tile aggregates kept between decompositions, one bit each of the state's ``tvalid``.
MAX_TILE_FACTS = 63
#: The last bit of ``tvalid``: the conditions that read the hand alone are decided
#: (see :func:`hand_level`).
HAND_CONDITIONS_BIT = 63

#: What a condition may read and still be the same for every decomposition of a
#: hand while its tiles stay: the tile aggregates (kept under ``tvalid``), the
#: kinds held, the context, the values facts and the waits (counted once a hand).
#: Anything else -- a group, the wait or shape of a reading, another fan's condition, a helper
#: -- makes it a condition of the decomposition.
_HAND_FIELDS = frozenset({"ctx", "fv", "seat", "round_", "source", "flowers", "red", "red_byte", "indicator",
                          "dealer_seat", "void", "winners", "joker_held", "held"})
_HAND_CALL = re.compile(r"_tile_fact\d+\(s\)|_waits\(s, [01]\)|\b_popcount\(")
_READS = re.compile(r"\bs\.(\w+)|\b(_\w+)\(")

def _kinds_where(test: Callable[[int], bool]) -> int:
    """The kinds (bit ``k``: kind ``k``) ``test`` holds for."""
    return sum(1 << k for k in range(N_KINDS) if test(k))


#: Kinds as bits for the waits' test of what a built-in shape may use
#: (``_built_in_may_use``): the suits' kinds, those but the 1s, the 1s and 2s, the 9s,
#: the 8s and 9s, and the terminals and honours.
KIND_BITS = {
    "suits": _kinds_where(lambda k: k < FIRST_HONOR),
    "not_rank_1": _kinds_where(lambda k: k < FIRST_HONOR and rank_of(k) != 1),
    "not_rank_1_2": _kinds_where(lambda k: k < FIRST_HONOR and rank_of(k) > 2),
    "not_rank_9": _kinds_where(lambda k: k < FIRST_HONOR and rank_of(k) != 9),
    "not_rank_8_9": _kinds_where(lambda k: k < FIRST_HONOR and rank_of(k) < 8),
    "terminals_honors": _kinds_where(lambda k: k in TERMINALS_AND_HONORS),
}

#: What every generated module is written against, the same for each ruleset:
#: mjr's version and the constants of the ABI the runtime reads (the templates' globals).
SHARED: dict[str, object] = {
    "version": __version__,
    "hand_bit": HAND_CONDITIONS_BIT,
    "max_groups": MAX_GROUPS,
    "group_flags": {"concealed": GROUP_CONCEALED, "claimed": GROUP_CLAIMED,
                    "added": GROUP_ADDED, "declared": GROUP_DECLARED, "wild_shift": GROUP_WILD_SHIFT,
                    "subst_shift": GROUP_SUBST_SHIFT, "winning": GROUP_WINNING, "latest": GROUP_LATEST,
                    "from_right": GROUP_FROM_RIGHT},
    "abi": abi,
    "record_methods": abi.RECORD_METHODS,
    "max_fact_number": MAX_FACT_NUMBER,
    "max_fact_tiles": MAX_FACT_TILES,
    "red_copies": RED_COPIES,
    "joker": JOKER,
    "max_jokers": MAX_JOKERS,
    "meld_joker_shift": MELD_JOKER_SHIFT,
    "kind_bits": KIND_BITS,
}


def literal(value: object) -> str:
    """A Python literal for a str/int/tuple value: the only way user text enters code."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, str):
        return repr(str(value))
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    raise TypeError(f"no literal for {type(value).__name__}")


def described(text: str) -> str:
    """The module's description written as ``NAME = literal`` assignments (each
    under its ``#:`` comment), as one statement that sets them all at import from a
    marshalled constant.  Compiled, a constant is one C string, where the
    same tuples written out take thousands of lines of C to build (a fifth of the
    build of a large ruleset); interpreted, loading it is faster than parsing them.
    Marshal format 2 keeps no back-references, so the same values give the same
    bytes.  The comments stay, naming what the constant holds."""
    values: dict[str, object] = {}
    for node in ast.parse(text).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            raise TypeError("a description holds only NAME = literal assignments")
        values[node.targets[0].id] = ast.literal_eval(node.value)
    notes = [line for line in text.splitlines() if line.startswith("#:")]
    data = marshal.dumps(values, 2)
    lines = [f"# {', '.join(values)}, set from the marshalled constant:", *notes]
    return "\n".join(lines) + f"\nglobals().update(_marshal.loads({data!r}))\n"


def kinds_literal(mask: int) -> str:
    """Bits of kinds as a C number: past 31 bits a literal must be cast, or Cython
    would make it a Python integer."""
    return f"{mask:#x}" if mask < 1 << 31 else f"cython.cast(cython.longlong, {mask:#x})"


def hand_level(code: str) -> bool:
    """Whether a condition's code reads only what stays the same for every
    decomposition of a hand (``_HAND_FIELDS``, the tile aggregates, the waits), so
    that it is decided once a hand instead of once a reading.  A closed list: a
    word not on it keeps the condition with the reading."""
    rest = _HAND_CALL.sub("", code)
    return all(not call and field in _HAND_FIELDS for field, call in _READS.findall(rest))


def comment(value: object) -> str:
    """Text safe inside a ``#`` comment: escaped, so it can never end the line."""
    return repr(str(value))[1:-1]


@dataclass(frozen=True)
class Helper:
    """A hoisted aggregate: a function looping over a collection."""

    name: str
    op: str
    collection: str
    element: str | None
    fact: int = -1  # a tiles fact's slot, for a loop over its tiles

    @property
    def count_term(self) -> str:
        """What one element adds to a count: a tile kind counts its copies."""
        if self.fact >= 0:
            return f"s.ft[{34 * self.fact} + k]"
        return "s.tc[k]" if self.collection == "tiles" else "1"


@dataclass(frozen=True)
class DefineHelper:
    """A define written once as a function of its element (none at hand level; the
    kind for a tile or kind; the group's kind, first tile and flags for a group)."""

    name: str
    define: str  # the define's name, for a comment
    params: tuple[str, ...]
    returns: str  # bint | longlong
    code: str


#: A define whose body renders to at most this many characters is written in place
#: at each use; a longer one becomes a function, so the module grows linearly with
#: the text however defines nest.
INLINE_LIMIT = 160
#: The parameters of a define's function, by the scope it is used in.
DEFINE_PARAMS = {ir.HAND: (), ir.TILE: ("k",), ir.KIND: ("k",), ir.GROUP: ("gk", "gt", "gf")}

#: The checked form of each arithmetic operator.
_CHECKED = {"+": "_checked_add", "-": "_checked_sub", "*": "_checked_mul", "^": "_checked_pow"}


class ExpressionWriter:
    """Renders IR expressions; collects the aggregate and define helpers they need.

    The IR shares a define's body among its uses (a graph, not a tree): each body
    and each aggregate is rendered once and remembered by its node."""

    def __init__(self) -> None:
        self.helpers: list[Helper] = []
        self.define_helpers: list[DefineHelper] = []
        self.combinations: list[CombinationHelper] = []
        #: the combination counts whose instances ``account_once`` keeps (by IR node id)
        self.recorded: set[int] = set()
        self._by_key: dict[tuple[str, str, str | None], str] = {}
        #: whether arithmetic is written checked (see mjr.compiler.check.ranges)
        self.checked = False
        self._aggregates: dict[tuple[int, bool], tuple[ir.Aggregate, str]] = {}
        self._defines: dict[tuple[int, bool, bool], tuple[str, bool]] = {}
        #: whether aggregates are read from the fused passes (see mjr.compiler.emit.fusion):
        #: on for everything scored per decomposition, off for the declared shapes'
        #: conditions, which run before there is one
        self.fuse = False
        self.group_facts: list[FusedFact] = []
        self.tile_facts: list[FusedFact] = []
        self._fused: dict[tuple[str, str, str, str | None, int], str] = {}
        #: whether a condition reads the kinds held as bits (see _kind_bits)
        self.held = False
        #: whether a group may be a knitted straight (``shapes standard(knitted)``):
        #: "every tile" and "contains" then reach its nine tiles
        self.knitted = False

    def write(self, node: ir.Node, element: tuple[str, ...] = ()) -> str:
        return getattr(self, "visit_" + type(node).__name__)(node, element)  # type: ignore[no-any-return]

    def write_checked(self, node: ir.Node, checked: bool) -> str:
        """``node`` with checked arithmetic if ``checked``: an overflow sets the
        evaluation's flag instead of wrapping."""
        self.checked = checked
        try:
            return self.write(node)
        finally:
            self.checked = False

    def visit_Const(self, node: ir.Const, element: tuple[str, ...]) -> str:
        return str(int(node.value))

    def visit_Word(self, node: ir.Word, element: tuple[str, ...]) -> str:
        name = node.name
        if name == "suits" and self.fuse:  # kept with the tile facts
            return self._fused_ref("tagg", "suits", "suits", None, -1, "") or HAND_WORDS[name].code
        if node.scope == "formula":
            return SCORE_NAMES.get(name) or AMOUNT_NAMES[name]
        if node.scope == ir.HAND:
            return HAND_WORDS[name].code
        if node.scope == "payer":
            return PAYER_WORDS[name].code
        if node.scope == ir.TUPLE:
            return word_code(name, element)
        if node.scope in (ir.TILE, ir.KIND) and name in TILE_WORDS:
            return TILE_WORDS[name].code.format(k=element[0])
        if node.scope == ir.KIND:
            return KIND_WORDS[name].code.format(k=element[0])
        gk, gt, gf = element
        return GROUP_WORDS[name].code.format(gk=gk, gt=gt, gf=gf)

    def visit_TileIs(self, node: ir.TileIs, element: tuple[str, ...]) -> str:
        return f"({element[0]} == {int(node.kind)})"

    def visit_Members(self, node: ir.Members, element: tuple[str, ...]) -> str:
        members = [element[i : i + 3] for i in range(0, len(element), 3)]
        return "(" + " and ".join(self.write(node.operand, m) for m in members) + ")"

    def visit_FactRef(self, node: ir.FactRef, element: tuple[str, ...]) -> str:
        value = f"s.fv[{int(node.slot)}]"
        return f"({value} != 0)" if node.type == ir.BOOL else value

    def visit_ShapeRef(self, node: ir.ShapeRef, element: tuple[str, ...]) -> str:
        return f"(s.shape == {3 + int(node.index)})"

    def visit_FanRef(self, node: ir.FanRef, element: tuple[str, ...]) -> str:
        index = int(node.index)
        if node.type == ir.INT:  # an ``each`` fan's count
            return f"(s.num[{index}] if s.award[{index}] != 0 else 0)" if node.scored else f"s.num[{index}]"
        table = "s.award" if node.scored else "s.cond"
        return f"({table}[{index}] != 0)"

    def visit_Unary(self, node: ir.Unary, element: tuple[str, ...]) -> str:
        operand = self.write(node.operand, element)
        if node.op == "not":
            return f"(not {operand})"
        return f"_checked_sub(s, 0, {operand})" if self.checked else f"(-{operand})"

    def visit_Nary(self, node: ir.Nary, element: tuple[str, ...]) -> str:
        joiner = " and " if node.op == "and" else " or "
        return "(" + joiner.join(self.write(o, element) for o in node.operands) + ")"

    def visit_Binary(self, node: ir.Binary, element: tuple[str, ...]) -> str:
        left, right = self.write(node.left, element), self.write(node.right, element)
        if self.checked and node.op in _CHECKED:
            return f"{_CHECKED[node.op]}(s, {left}, {right})"
        if node.op == "^":
            return f"_ipow({left}, {right})"
        if node.op == "%":
            return f"_mod({left}, {right})"
        if node.op == "/":  # never overflows: values keep to +-(2^63 - 1)
            return f"_div({left}, {right})"
        assert node.op in ("+", "-", "*", "==", "!=", "<", "<=", ">", ">=")
        return f"({left} {node.op} {right})"

    def visit_Call(self, node: ir.Call, element: tuple[str, ...]) -> str:
        arguments = [self.write(argument, element) for argument in node.arguments]
        if node.name in ("min", "max"):
            code = arguments[0]
            for argument in arguments[1:]:
                code = f"_{node.name}({code}, {argument})"
            return code
        value, step = arguments
        divided = f"_div_up({value}, {step})" if node.name == "round_up" else f"_div({value}, {step})"
        return f"_checked_mul(s, {divided}, {step})" if self.checked else f"({divided} * {step})"

    def visit_Lookup(self, node: ir.Lookup, element: tuple[str, ...]) -> str:
        arguments = ", ".join(self.write(argument, element) for argument in node.arguments)
        return f"_table{int(node.table)}({arguments})"

    def visit_DerivedRef(self, node: ir.DerivedRef, element: tuple[str, ...]) -> str:
        return f"s.dk[{34 * int(node.index)} + {element[0]}]"

    def visit_ValueRef(self, node: ir.ValueRef, element: tuple[str, ...]) -> str:
        return f"s.named[{int(node.index)}]"

    def visit_Member(self, node: ir.Member, element: tuple[str, ...]) -> str:
        operand = self.write(node.operand, element)
        return "(" + " or ".join(f"{operand} == {int(v)}" for v in node.values) + ")"

    def visit_Conditional(self, node: ir.Conditional, element: tuple[str, ...]) -> str:
        then, condition = self.write(node.then, element), self.write(node.condition, element)
        return f"({then} if {condition} else {self.write(node.otherwise, element)})"

    def visit_GroupTiles(self, node: ir.GroupTiles, element: tuple[str, ...]) -> str:
        gk, gt, gf = element
        first = self.write(node.operand, (gt,))
        if node.mode == "first":
            return first
        second = self.write(node.operand, (f"({gt} + 1)",))
        third = self.write(node.operand, (f"({gt} + 2)",))
        joiner = " and " if node.mode == "all" else " or "
        knitted = ""
        if self.knitted:  # the other eight tiles of a knitted straight
            rest = joiner.join(self.write(node.operand, (f"_knit_tile({gt}, {gf}, {place})",)) for place in range(1, 9))
            knitted = f" and ({gk} != {abi.GROUP_KNITTED} or ({rest}))" if node.mode == "all" else \
                f" or ({gk} == {abi.GROUP_KNITTED} and ({rest}))"
        if node.mode == "all":
            return f"({first} and ({gk} != 1 or ({second} and {third})){knitted})"
        return f"({first} or ({gk} == 1 and ({second} or {third})){knitted})"

    def visit_DefineRef(self, node: ir.DefineRef, element: tuple[str, ...]) -> str:
        params = DEFINE_PARAMS[node.scope]
        key = (node.index, self.checked, self.fuse)  # a checked formula checks its defines' arithmetic too
        if key not in self._defines:
            code = self.write(node.body, params)
            inline = len(code) <= INLINE_LIMIT
            if not inline:
                name = f"_def{len(self.define_helpers)}"
                returns = "bint" if node.type == ir.BOOL else "longlong"
                self.define_helpers.append(DefineHelper(name, node.name, params, returns, code))
                code = name
            self._defines[key] = (code, inline)
        code, inline = self._defines[key]
        if not inline:
            return f"{code}({', '.join(('s', *element))})"
        return code if element == params else self.write(node.body, element)

    def visit_Aggregate(self, node: ir.Aggregate, element: tuple[str, ...]) -> str:
        """The call of the helper for ``node`` (its element has names of its own, so
        the code is the same wherever the node stands)."""
        key = (id(node), self.fuse)
        if key not in self._aggregates:
            self._aggregates[key] = (node, self._aggregate(node))
        return self._aggregates[key][1]

    def combination(self, node: ir.Aggregate) -> CombinationHelper:
        """The helper counting (and, under ``account_once``, recording) the
        combinations of ``node``; one per distinct condition."""
        assert node.element is not None
        names = member_names(node.arity)
        members, rest = split_members(node.element)
        code = "True" if rest is None else self.write(rest, names)
        test = " and ".join(f"({self.write(m, names[:3])})" for m in members)
        record = id(node) in self.recorded
        for i, helper in enumerate(self.combinations):
            if (helper.collection, helper.arity, helper.element, helper.member_test) == (
                    node.collection, node.arity, code, test):
                if record and not helper.record:
                    self.combinations[i] = helper = replace(helper, record=True)
                return helper
        helper = CombinationHelper(f"_comb{len(self.combinations)}", node.collection, node.arity, code, record, test)
        self.combinations.append(helper)
        return helper

    def combination_of(self, fan: ir.Fan) -> CombinationHelper:
        """The combination count a fan under ``account_once`` is."""
        assert isinstance(fan.condition, ir.Aggregate)
        return self.combination(fan.condition)

    def _aggregate(self, node: ir.Aggregate) -> str:
        if node.arity:
            return f"{self.combination(node).name}(s)"
        code = None
        tiles = node.collection in TILE_COLLECTIONS or node.fact >= 0
        if node.element is not None:
            code = self.write(node.element, ("k",) if tiles else ("gk", "gt", "gf"))
        table = fused_table(node) if self.fuse else None
        if node.op == "sum" and table == "gagg":  # a sum over groups stays a function of its own
            table = None
        if table is not None:
            term = "1"
            if node.op in ("count", "sum") and node.fact >= 0:
                term = f"s.ft[{34 * node.fact} + k]"
            elif node.op in ("count", "sum") and node.collection == "tiles":
                term = "s.tc[k]"
            mask = kind_mask(code) if table == "tagg" and node.op != "sum" else None  # (a sum adds numbers)
            if mask is not None:
                bits = self._kind_bits(node, mask, term)
                if bits is not None:
                    return bits
                code = f"(({kinds_literal(mask)} >> k) & 1)"  # the loop tests a bit
            ref = self._fused_ref(table, node.op, node.collection, code, node.fact, term)
            if ref is not None:
                return f"({ref} != 0)" if node.type == ir.BOOL else ref
        key = (node.op, node.collection, code)
        if key not in self._by_key:
            name = f"_agg{len(self.helpers)}"
            self._by_key[key] = name
            self.helpers.append(Helper(name, node.op, node.collection, code, node.fact))
        call = f"{self._by_key[key]}(s)"
        return f"({call} != 0)" if node.type == ir.BOOL else call

    def _kind_bits(self, node: ir.Aggregate, mask: int, term: str) -> str | None:
        """A tile aggregate whose condition is a property of the kind alone, as a test
        of the bits of the kinds held against ``mask`` (the kinds it holds for): no
        loop, no kept value.  None for a count of copies, a sum, or past the bits of
        ``tvalid``, which keep their loop."""
        if node.op not in ("count", "all", "any", "no") or (node.op == "count" and term != "1"):
            return None
        if node.fact < 0:
            held: str | None = "s.held"
            self.held = True
        else:
            held = self._fused_ref("tagg", "held", "kinds", None, node.fact, "")
        if held is None:
            return None
        if node.op == "count":
            return f"_popcount({held} & {kinds_literal(mask)})"
        outside = kinds_literal(ALL_KINDS & ~mask)
        test = {"all": f"({held} & {outside}) == 0", "any": f"({held} & {kinds_literal(mask)}) != 0",
                "no": f"({held} & {kinds_literal(mask)}) == 0"}[node.op]
        return f"({test})" if node.type == ir.BOOL else f"(1 if {test} else 0)"

    def _fused_ref(self, table: str, op: str, collection: str, code: str | None, fact: int, term: str) -> str | None:
        """Where the fused pass leaves this aggregate (one slot per distinct one), or
        how its kept value is read; None when it is left to a function of its own."""
        key = (table, op, collection, code, fact)
        if key not in self._fused:
            facts = self.group_facts if table == "gagg" else self.tile_facts
            if table == "tagg" and len(facts) >= MAX_TILE_FACTS:  # past the bits of ``tvalid``
                return None
            facts.append(FusedFact(len(facts), op, collection, code, fact, term))
            slot = len(facts) - 1
            self._fused[key] = f"s.gagg[{slot}]" if table == "gagg" else f"_tile_fact{slot}(s)"
        return self._fused[key]


@dataclass(frozen=True)
class FanCode:
    fan: ir.Fan
    condition: str
    value: str
    excludes: tuple[str, ...]


@dataclass(frozen=True)
class RuleCode:
    index: int
    condition: str
    span: object


@dataclass(frozen=True)
class ShapeCode(RuleCode):
    """A declared shape's code, with what the tiles alone tell of it (see
    :func:`needs_no_melds` and :func:`reads_held_tiles`): the runtime's look-up
    from counts answers for it without a hand where these say it can."""

    no_melds: bool
    held_tiles: bool


#: The words a declared shape may read and still be decided from the tiles held:
#: properties of a kind, its copies, and (on the hand) the suits held.
_HELD_TILE_WORDS = frozenset({"honor", "wind", "dragon", "suited", "terminal", "simple", "m", "p", "s", "rank",
                              "copies", "konged"})
_HELD_HAND_WORDS = frozenset({"suits"})
#: The nodes that read nothing of their own: they hold what their children read.
_PLAIN_NODES = (ir.Const, ir.TileIs, ir.Unary, ir.Nary, ir.Binary, ir.Member, ir.Conditional, ir.Call, ir.Lookup)


def reads_held_tiles(node: ir.Node, seen: dict[int, bool] | None = None) -> bool:
    """Whether a declared shape's condition reads only the tiles held and the
    declared melds: decided on a hand with no declared meld from its 34 counts
    alone, since its only groups are then none.  Aggregates over the melds are not
    looked into (with no meld they never run); a closed list of words, anything
    else (a fact, the context, a wildcard, the seat) says no."""
    seen = {} if seen is None else seen
    if id(node) in seen:
        return seen[id(node)]
    if isinstance(node, ir.Aggregate):
        answer = not node.arity and node.fact < 0 and (
            node.collection == "melds" or (node.collection in ("tiles", "kinds") and (
                node.element is None or reads_held_tiles(node.element, seen))))
    elif isinstance(node, ir.Word):
        answer = node.name in (_HELD_HAND_WORDS if node.scope == ir.HAND else _HELD_TILE_WORDS)
    elif isinstance(node, ir.DefineRef):
        answer = reads_held_tiles(node.body, seen)
    elif isinstance(node, _PLAIN_NODES):
        answer = all(reads_held_tiles(child, seen) for child in ir.children(node))
    else:
        answer = False
    seen[id(node)] = answer
    return answer


def needs_no_melds(node: ir.Node) -> bool:
    """Whether a declared shape's condition is false for every hand with a
    declared meld: it is ``count(melds) == 0`` (``< 1``, ``<= 0``), or an ``and``
    with such a part, defines written out."""
    if isinstance(node, ir.DefineRef):
        return needs_no_melds(node.body)
    if isinstance(node, ir.Nary):
        return node.op == "and" and any(needs_no_melds(operand) for operand in node.operands)
    if not isinstance(node, ir.Binary):
        return False
    mirrored = {"==": "==", ">": "<", ">=": "<="}  # (0 == count(melds), 1 > count(melds), 0 >= count(melds))
    for op, melds, bound in ((node.op, node.left, node.right), (mirrored.get(node.op), node.right, node.left)):
        if isinstance(melds, ir.Aggregate) and (melds.op, melds.collection, melds.element, melds.arity) == (
                "count", "melds", None, 0) and isinstance(bound, ir.Const) and (op, bound.value) in (
                ("==", 0), ("<", 1), ("<=", 0)):
            return True
    return False


@dataclass(frozen=True)
class PayCode:
    """A payment clause's code; ``per_payer`` when its amount depends on who pays
    (it is then worked out once for each player who may pay)."""

    clause: ir.PayClause
    condition: str
    amount: str
    per_payer: bool = False


@dataclass(frozen=True)
class ModuleSource:
    module_name: str
    text: str


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["literal"] = literal
    env.filters["comment"] = comment
    env.filters["described"] = described
    env.globals.update(SHARED)
    return env


@lru_cache(maxsize=1)
def template_hash() -> str:
    """What generates the code: the templates, and the compiler and language
    sources (so a changed checker never reuses a stale build, version or not)."""
    digest = hashlib.sha256()
    compiler = Path(__file__).parents[1]  # every room of the compiler, this one's templates among them
    language = compiler.parent / "dsl"
    files = [*TEMPLATES.glob("*.j2"), *compiler.rglob("*.py"), *language.glob("*.py"), *language.glob("*.lark")]
    for name, path in sorted((path.relative_to(compiler.parent).as_posix(), path) for path in files):
        digest.update(name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


@dataclass(frozen=True)
class WordsUsed:
    """Which costly words the ruleset uses, decided at compile time so a ruleset
    without them is generated without their work: the winning tile's place
    (``winning``, ``wait_*``), the count of waits, per-group substitutes."""

    winning_tile: bool
    waits: bool
    substitutes: bool
    #: whether the rules need to know who deals, and who discarded the winning tile
    needs_dealer: bool = False
    needs_source: bool = False
    #: whether the payment amounts need the discarder (a hand without one, when
    #: nothing else needs it, is scored with its amounts left unknown)
    amounts_need_source: bool = False
    #: whether a condition tests the kinds held as bits (``s.held``, kept while scoring)
    held: bool = False


def words_used(ruleset: ir.Ruleset) -> WordsUsed:
    names = ir.word_names(ir.expressions(ruleset))
    amounts = [p.amount for p in ruleset.payments if p.amount is not None]
    scored = ir.word_names([node for node in ir.expressions(ruleset) if not any(node is a for a in amounts)])
    return WordsUsed(bool(names & (WINNING_TILE_WORDS - WAIT_COUNT_WORDS)), bool(names & WAIT_COUNT_WORDS),
                     "substitutes" in names,
                     bool(names & NEEDS_DEALER), bool(scored & NEEDS_SOURCE), bool(names & NEEDS_SOURCE))


def module_name(ruleset: ir.Ruleset, key: str) -> str:
    return "_mjr_" + ruleset.id.replace(".", "_") + "_" + key[:12]


@dataclass(frozen=True)
class RecordLayout:
    """Where a ruleset's hand record holds its facts, and its size (mjr.abi.record_layout)."""

    facts_at: int
    tiles_at: int
    size: int
    flowers_at: int = -1  # the flowers' byte (-1: the ruleset has none)
    red_at: int = -1  # the red fives' byte (-1: the ruleset has none)
    jokers_at: int = -1  # the concealed jokers' byte (-1: the tile set has no jokers)


def _record_layout(ruleset: ir.Ruleset) -> RecordLayout:
    values = sum(1 for fact in ruleset.facts if fact.kind != "tiles")
    tiles = len(ruleset.facts) - values + (1 if ruleset.aside else 0)  # the tiles set aside follow the facts'
    layout = abi.record_layout(ruleset.sets, values, tiles, ruleset.flowers, ruleset.red_fives, ruleset.jokers > 0)
    return RecordLayout(*layout, abi.record_flowers(ruleset.sets) if ruleset.flowers else -1,
                        abi.record_red(ruleset.sets, ruleset.flowers) if ruleset.red_fives else -1,
                        abi.record_jokers(ruleset.sets, ruleset.flowers, ruleset.red_fives) if ruleset.jokers else -1)


def _account_once(ruleset: ir.Ruleset, writer: ExpressionWriter) -> list[AccountOnce]:
    """The fans under ``account_once``, with their value per instance (the checker
    made sure each is a constant ``N each`` over one combination count)."""
    kept = []
    for i in ruleset.account_once:
        fan = ruleset.fans[i]
        assert isinstance(fan.value, ir.Const)
        kept.append(AccountOnce(i, int(fan.value.value), writer.combination_of(fan).name))
    return kept


@dataclass(frozen=True)
class ModuleContext:
    """What ``ruleset.py.j2`` renders one ruleset's module from: the checked
    ruleset and the code written for it, each field a variable of the templates.
    Built in one place, :func:`module_context`; what every module shares (mjr's
    version, the ABI the runtime reads) is :data:`SHARED`, the templates' globals."""

    rs: ir.Ruleset
    #: the module's name, which :func:`generate` returns with its text
    module_name: str
    key: str
    fans: list[FanCode]
    values_facts: list[ir.Fact]
    tiles_facts: list[ir.Fact]
    #: the fans in scoring order, without those asking ``no_other_fans``, which are ``alone``
    fan_order: list[FanCode]
    #: the fans whose (boolean) condition is decided once a hand (see hand_level)
    hand_fans: set[int]
    alone: list[FanCode]
    account_once: list[AccountOnce]
    most_instances: int
    combinations: list[CombinationHelper]
    fan_ids: Callable[[Iterable[int]], tuple[str, ...]]
    #: per fan, the fans that exclude it
    excluded_by: dict[int, list[int]]
    requirements: list[RuleCode]
    floors: list[RuleCode]
    payments: list[PayCode]
    score: str
    worse: str
    prefer_values: tuple[str, ...]
    score_text: str
    values: list[str]
    value_names: tuple[tuple[str, str], ...]
    tables: list[tuple[ir.Table, list[tuple[int, str]]]]
    #: counting waits, the shared kernel's tables decide the standard shape (every kind in play)
    need_tables: bool
    #: without wildcards, the standard shape's decompositions come from the shared kernel's tables
    decomposition_tables: bool
    shapes: list[ShapeCode]
    holdings: list[str]  # the held amounts' code, in order (see held_values in records.py.j2)
    uses: WordsUsed
    identities: IdentityClasses
    helpers: list[Helper]
    group_facts: list[FusedFact]
    group_collections: list[tuple[str, str]]
    tile_facts: list[FusedFact]
    define_helpers: list[DefineHelper]
    layout: RecordLayout
    claims: dict[str, tuple[str, ...]]
    claim_from: dict[str, int]
    #: by a record's source letter (0 none, then R O L), its steps on at this table (-1: none)
    source_steps: list[int]
    #: the fewest real copies of a robbed tile in the robbed player's pung (mjr.abi.robbed_pung)
    robbed_copies: int

    def variables(self) -> dict[str, object]:
        """The fields by name, as the templates read them."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def module_context(ruleset: ir.Ruleset, key: str) -> ModuleContext:
    """Everything the templates need of ``ruleset``; ``key`` is its build-cache key.

    One function, though long: the expression writer collects the helpers, the
    combinations and the fused aggregates as it writes each condition, so the
    code is written in this order and read from the writer last."""
    writer = ExpressionWriter()
    writer.fuse = True
    writer.recorded = {id(ruleset.fans[i].condition) for i in ruleset.account_once}
    writer.knitted = ruleset.knitted
    fans = [
        FanCode(f, writer.write(f.condition), writer.write(f.value), tuple(ruleset.fans[i].id for i in f.excludes))
        for f in ruleset.fans
    ]
    requirements = [RuleCode(i, writer.write(r.condition), r.span) for i, r in enumerate(ruleset.requirements)]
    floors = [RuleCode(f.index, writer.write(f.condition), f.span) for f in ruleset.floors]
    score_checked, amounts_checked, values_checked = unproven(ruleset)
    values = [writer.write_checked(value.body, value.index in values_checked) for value in ruleset.values]
    payments = [
        PayCode(p, writer.write(p.condition),
                writer.write_checked(p.amount, p.index in amounts_checked) if p.amount is not None else "0",
                p.amount is not None and bool(ir.word_names([p.amount]) & set(PAYER_WORDS)))
        for p in ruleset.payments
    ]
    score = writer.write_checked(ruleset.score, score_checked)
    writer.fuse = False  # a declared shape is decided before there is a decomposition
    shapes = [ShapeCode(shape.index, writer.write(shape.condition), shape.span, needs_no_melds(shape.condition),
                        reads_held_tiles(shape.condition)) for shape in ruleset.shapes]
    holdings = [writer.write(held.body) for held in ruleset.holdings]  # (proven to fit: check_ranges)
    excluded_by: dict[int, list[int]] = {f.index: [] for f in ruleset.fans}
    for fan in ruleset.fans:
        for target in fan.excludes:
            excluded_by[target].append(fan.index)
    account_once = _account_once(ruleset, writer)
    alone = {f.index for f in ruleset.fans if "no_other_fans" in ir.word_names([f.condition])}
    uses = replace(words_used(ruleset), held=writer.held)
    return ModuleContext(
        rs=ruleset,
        module_name=module_name(ruleset, key),
        key=key,
        fans=fans,
        values_facts=[f for f in ruleset.facts if f.kind != "tiles"],
        tiles_facts=[f for f in ruleset.facts if f.kind == "tiles"],
        fan_order=[fans[i] for i in ruleset.fan_order if i not in alone],
        hand_fans={i for i in ruleset.fan_order if i not in alone and ruleset.fans[i].condition.type != "int"
                   and hand_level(fans[i].condition)},
        alone=[fans[i] for i in ruleset.fan_order if i in alone],
        account_once=account_once,
        most_instances=most_instances([writer.combination_of(ruleset.fans[i]) for i in ruleset.account_once],
                                      ruleset.sets, MAX_GROUPS),
        combinations=writer.combinations,
        fan_ids=lambda indices: tuple(ruleset.fans[i].id for i in indices),
        excluded_by=excluded_by,
        requirements=requirements,
        floors=floors,
        payments=payments,
        score=score,
        worse=_worse(ruleset),
        prefer_values=tuple(ruleset.values[i].id for i in ruleset.prefer_values),
        score_text=spelled(ruleset.score, ruleset),
        values=values,
        value_names=tuple((value.id, value.display) for value in ruleset.values),
        tables=[(table, table_code(table)) for table in ruleset.tables],
        need_tables=uses.waits and ruleset.standard and len(ruleset.kinds) == 34,
        decomposition_tables=ruleset.standard,
        shapes=shapes,
        holdings=holdings,
        uses=uses,
        identities=identity_classes(ruleset, uses.winning_tile),
        helpers=writer.helpers,
        group_facts=writer.group_facts,
        group_collections=[(c, GROUP_MEMBERSHIP[c]) for c in GROUP_COLLECTIONS
                           if any(f.collection == c for f in writer.group_facts)],
        tile_facts=writer.tile_facts,
        define_helpers=writer.define_helpers,
        layout=_record_layout(ruleset),
        claims=dict(ruleset.claims),
        claim_from=_claim_from(ruleset.claims),
        robbed_copies=abi.robbed_pung(bool(ruleset.wildcards.fixed or ruleset.wildcards.derived or ruleset.jokers),
                                      ruleset.wildcards.forbidden),
        source_steps=[0, *(abi.seat_steps(ruleset.seats).get(source, -1) for source in abi.SOURCES)],
    )


def generate(ruleset: ir.Ruleset, key: str) -> ModuleSource:
    """The generated module for ``ruleset``; ``key`` is its build-cache key."""
    context = module_context(ruleset, key)
    text = _environment().get_template("ruleset.py.j2").render(context.variables())
    return ModuleSource(context.module_name, text)


def _worse(ruleset: ir.Ruleset) -> str:
    """The test that the reading being scored is no better than the best so far:
    fewer points, or as many and no limit where the best is one, or as much and less
    fan, ... (``prefer``'s fans, then its values, higher first), and at last no fewer
    wildcards substituted.  Of a limit hand and a counted total that reach the same
    points, the limit is kept."""
    keys = [("points_", "s.best_points"), ("has_limit", "s.best_limit"), ("fan_", "s.best_fan")]
    if ruleset.prefer:
        keys.append(("prefer_", "s.best_prefer"))
    keys += [(f"s.named[{i}]", f"s.best_named[{i}]") for i in ruleset.prefer_values]
    test = "s.subst >= s.best_subst"
    for mine, best in reversed(keys):
        test = f"({mine} < {best} or ({mine} == {best} and {test}))"
    return test


def _claim_from(claims: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, int]:
    """Per claim, a bit for each source code (mjr.abi.SOURCE_CODES) it may come from; 0 for any."""
    return {claim: sum(1 << abi.SOURCE_CODES[abi.PLACE_SOURCES[word]] for word in words if word in abi.PLACE_SOURCES)
            for claim, words in claims}
