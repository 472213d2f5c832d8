"""The checked intermediate representation that templates receive.

Every name is resolved, every expression typed, every tile a kind number.  The
templates never see parse trees, AST nodes or dicts: only these dataclasses, and
expression code rendered from them by :mod:`mjr.compiler.emit.codegen`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from mjr.errors import Problem, Span
from mjr.options import OptionInfo, Value

BOOL, INT = "bool", "int"
#: Scopes an expression can be evaluated in.
HAND, TILE, KIND, GROUP = "hand", "tile", "kind", "group"
#: inside ``count(N sets where ...)``: a combination of groups
TUPLE = "tuple"


@dataclass(frozen=True)
class Node:
    type: str


@dataclass(frozen=True)
class Const(Node):
    value: int


@dataclass(frozen=True)
class Word(Node):
    """A vocabulary word resolved for a scope (see :mod:`mjr.compiler.model.vocabulary`)."""

    scope: str
    name: str


@dataclass(frozen=True)
class FactRef(Node):
    """A number or flag fact of play, by its slot among them, with its range."""

    slot: int
    name: str
    low: int
    high: int


@dataclass(frozen=True)
class FanRef(Node):
    """A fan's condition (``scored=False``) or its award after exclusions."""

    index: int
    scored: bool


@dataclass(frozen=True)
class ShapeRef(Node):
    """A declared shape's id: true when the hand won by that shape."""

    index: int


@dataclass(frozen=True)
class Unary(Node):
    op: str  # not | neg
    operand: Node


@dataclass(frozen=True)
class Nary(Node):
    op: str  # and | or
    operands: tuple[Node, ...]


@dataclass(frozen=True)
class Binary(Node):
    op: str  # + - * / % ^ == != < <= > >=
    left: Node
    right: Node


@dataclass(frozen=True)
class Member(Node):
    operand: Node
    values: tuple[int, ...]


@dataclass(frozen=True)
class Conditional(Node):
    then: Node
    condition: Node
    otherwise: Node


@dataclass(frozen=True)
class GroupTiles(Node):
    """A tile expression applied to a group: ``all`` its tiles, ``any`` tile, or the
    ``first`` (lowest) tile for numbers such as ``rank``."""

    mode: str
    operand: Node


@dataclass(frozen=True)
class Aggregate(Node):
    """``all``/``any``/``no``/``count`` over a collection; ``element`` is in the
    collection's scope (``None`` for a plain count).  A tiles fact is a collection
    too: ``fact`` is its slot among the tiles facts (-1 for the built-in ones) and
    ``size`` the most tiles it holds."""

    op: str
    collection: str
    element: Node | None
    fact: int = -1
    size: int = 0
    #: ``count(N sets where ...)``: N, the combination's size (0: single elements);
    #: the element is then in the ``tuple`` scope
    arity: int = 0


@dataclass(frozen=True)
class Members(Node):
    """Inside a combination of groups: every member meets ``operand`` (a group condition)."""

    operand: Node


@dataclass(frozen=True)
class Call(Node):
    """``min``, ``max`` (two or more numbers), ``round_up`` or ``round_down`` (a
    number and its step): see :data:`mjr.compiler.check.functions.FUNCTIONS`."""

    name: str
    arguments: tuple[Node, ...]


@dataclass(frozen=True)
class Lookup(Node):
    """A lookup in the table ``table`` (its index): a row, and a column for a table
    of two dimensions."""

    table: int
    arguments: tuple[Node, ...]


@dataclass(frozen=True)
class ValueRef(Node):
    """A named value (``value ID ...``), by its index: worked out after the fan total."""

    index: int
    name: str


@dataclass(frozen=True)
class DerivedRef(Node):
    """``derive ID ...`` read for a tile or kind: how many indicators point at its
    kind (0 to ``most``, the most indicators the fact holds)."""

    index: int
    name: str
    most: int


@dataclass(frozen=True)
class TileIs(Node):
    """A tile (or a kind) of one kind, written ``F`` or ``6z``."""

    kind: int


@dataclass(frozen=True)
class Wording:
    """A scored statement as written, for explanation (``mjr explain``): the whole
    statement, its value (a fan's or floor's value; a clause's payer and amount) and
    its condition, each with its white space collapsed."""

    statement: str = ""
    value: str = ""
    condition: str = ""


@dataclass(frozen=True)
class DefineRef(Node):
    """A define's body, checked for one scope and place.  Every use of the define
    there shares this node, so the IR is a graph: code generation writes the body
    once (see :mod:`mjr.compiler.emit.codegen`), and ``body`` takes no part in equality
    or ``repr``, which would otherwise walk it once per use."""

    index: int
    name: str
    scope: str
    body: Node = field(compare=False, repr=False)


@dataclass(frozen=True)
class Fan:
    index: int
    id: str
    display: str
    kind: str  # fan | limit | bonus | multiplier
    value: Node
    condition: Node
    excludes: tuple[int, ...]
    span: Span
    source_line: str
    wording: Wording = Wording()


@dataclass(frozen=True)
class Table:
    """A checked ``table``: ``keys`` ascending, a row of ``values`` per key (one value
    each, or one per column of ``columns``).  A lookup takes the last row whose key
    is at most the row asked for, and so across the columns."""

    index: int
    id: str
    display: str
    columns: tuple[int, ...]
    keys: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]
    span: Span
    #: the statement as written, for explanation
    statement: str = ""

    @property
    def shape(self) -> str:
        """``9 rows`` or ``13 rows x 11 columns``, for explanation."""
        rows = f"{len(self.keys)} row{'s' if len(self.keys) != 1 else ''}"
        return f"{rows} x {len(self.columns)} columns" if self.columns else rows

    @property
    def contents(self) -> str:
        """The rows on one line (``columns 20 25; 1: 100 200; ...``), for comparison."""
        rows = [f"{key}: {' '.join(map(str, values))}" for key, values in zip(self.keys, self.rows, strict=True)]
        columns = [f"columns {' '.join(map(str, self.columns))}"] if self.columns else []
        return "; ".join(columns + rows)


@dataclass(frozen=True)
class Derived:
    """``derive ID "name" from FACT ...``: ``successor`` is the kind each indicator
    kind points at; the tiles fact in ``fact`` (its slot) holds the indicators."""

    index: int
    id: str
    display: str
    fact: int
    most: int
    successor: tuple[int, ...]
    span: Span


@dataclass(frozen=True)
class NamedValue:
    """``value ID "name" : EXPR``: worked out in file order after the fan total, read
    by the score, the payments and later values, and part of the result."""

    index: int
    id: str
    display: str
    body: Node
    span: Span
    wording: Wording = Wording()


@dataclass(frozen=True)
class Requirement:
    id: str
    display: str
    condition: Node
    span: Span
    wording: Wording = Wording()


@dataclass(frozen=True)
class FloorRule:
    index: int
    id: str
    display: str
    value: int
    condition: Node
    span: Span
    wording: Wording = Wording()


@dataclass(frozen=True)
class DeclaredShape:
    """``shape ID "name" : COND``: a hand whose tiles meet COND wins by this shape
    (number ``3 + index`` in the kernels, after the built-in ones)."""

    index: int
    id: str
    display: str
    condition: Node
    span: Span
    wording: Wording = Wording()


@dataclass(frozen=True)
class PayClause:
    index: int
    id: str
    display: str
    liable: bool
    condition: Node
    payer: str  # discarder | each | last_meld | claimed_meld
    payer_index: int
    amount: Node | None
    span: Span
    wording: Wording = Wording()


@dataclass(frozen=True)
class Holding:
    """A held amount, ``(EXPR) of payer|payee`` of a draw check or end payment ``id``:
    ``body`` worked out on one player's tiles (checked to fit 64 bits where written)."""

    id: str
    body: Node
    span: Span


@dataclass(frozen=True)
class Fact:
    """A fact of play the hand gives: a flag or a number (``slot`` among those) or
    a few tiles (``slot`` among the tiles facts), within ``low``..``high`` (for
    tiles: how many)."""

    id: str
    display: str
    kind: str  # flag | number | tiles
    low: int
    high: int
    slot: int
    span: Span


@dataclass(frozen=True)
class Wildcards:
    """Fixed wildcard kinds, and/or a kind derived from the indicator: ``derived`` is
    a 34-entry table, the wildcard kind for each indicator kind (empty: none).
    ``indicator_in_play``: the flipped indicator goes back, taking up no copy."""

    fixed: tuple[int, ...] = ()
    derived: tuple[int, ...] = ()
    forbidden: tuple[str, ...] = ()
    #: the kind that plays as the (first) wildcard kind when it is not wild itself; -1: none
    stand_in: int = -1
    indicator_in_play: bool = False


@dataclass(frozen=True)
class ExampleCheck:
    kind: str  # not_win | fans | fan | points | payments | clause
    value: object
    span: Span


@dataclass(frozen=True)
class Example:
    title: str
    hand: str
    hand_span: Span
    checks: tuple[ExampleCheck, ...]
    span: Span


#: A ``kong_pay`` row: (id, name, kind, payer, amount, refund_unless_ready, refund_at_draw,
#: refund_unless_ready_at_end).
KongPayRow = tuple[str, str, str, str, int, bool, bool, bool]
#: An ``open_kong`` row: (the flag fact it sets, when_ready, locks).
OpenKongRow = tuple[str, bool, bool]
#: A ``false_win`` row: (id, name, amount each opponent is paid, dead_hand).
FalseWinRow = tuple[str, str, int, bool]
#: A ``declare`` row: (id, name, stake, closed, the fewest tiles left to draw, locks, the fact
#: set instead on a first turn or "", the fact set until the next turn or "", missed_win_bars).
DeclareRow = tuple[str, str, int, bool, int, bool, str, str, bool]
#: An ``abort`` row: (id, name, word, its number; 0 for a word that takes none).
AbortRow = tuple[str, str, str, int]
#: A ``reveal`` row: (tiles revealed at the deal, one more per kong, the tiles kept before them).
RevealRow = tuple[int, bool, int]
#: A ``next_dealer`` row: (condition words, target).
DealerRow = tuple[tuple[str, ...], str, int]  # words, target, the number of `streak N` (0: none)
#: A fact a table of play fills: (fact id, source, count; 0 where the source takes none).
FactSourceRow = tuple[str, str, int]
#: One side of a draw check: (ready, won, (comparison, suits), discards_terminal), None where not tested,
#: and the tests of the hand's history as (word, kind, wanted).
PlayerTestRow = tuple[bool | None, bool | None, tuple[str, int] | None, bool | None, tuple[tuple[str, int, bool], ...]]
#: An ``at_draw``, ``at_end`` or ``at_win`` row: (id, name, payer's test, payee's test, amount; -1 for
#: ``best`` or a held amount; shared, dealer_double, the keyword, the held amount's holder ("payer",
#: "payee" or ""), and its index among the ruleset's ``holdings`` (-1: none) and text as written).
DrawCheckRow = tuple[str, str, PlayerTestRow, PlayerTestRow, int, bool, bool, str, str, int, str]


@dataclass(frozen=True)
class Play:
    """The rules of a hand of play the file states, as the rows of the generated
    ``PLAY`` (read by ``mjr.ruleset.rules_of_play.PlayRules``); None where the file is silent,
    which leaves the runtime's default."""

    discard_win: str | None = None
    missed_win: str | None = None
    own_discards: bool | None = None
    hand_ends: str | None = None
    ends_after: int | None = None
    dead_wall: int | None = None
    dead_per_kong: int | None = None
    last_draw: str | None = None
    void_suit: str | None = None
    indicator_flip: str | None = None
    open_kong: OpenKongRow | None = None
    false_win: FalseWinRow | None = None
    reveal: RevealRow | None = None
    declarations: tuple[DeclareRow, ...] = ()
    aborts: tuple[AbortRow, ...] = ()
    rob_concealed: tuple[str, ...] | None = None
    kong_payments: tuple[KongPayRow, ...] = ()
    next_dealer: tuple[DealerRow, ...] = ()
    draw_checks: tuple[DrawCheckRow, ...] = ()
    fact_sources: tuple[FactSourceRow, ...] = ()


@dataclass(frozen=True)
class Ruleset:
    id: str
    title: str
    native_title: str
    sources: tuple[str, ...]
    files: tuple[str, ...]
    kinds: tuple[int, ...]  # tile kinds in play
    deal: int
    claims: tuple[tuple[str, tuple[str, ...]], ...]
    win_methods: tuple[str, ...]
    seven_pairs: int  # 0 not allowed, 1 distinct pairs, 2 a four counts as two pairs
    thirteen_orphans: bool
    standard: bool
    wildcards: Wildcards
    fans: tuple[Fan, ...]
    fan_order: tuple[int, ...]  # condition evaluation order (dependencies first)
    requirements: tuple[Requirement, ...]
    floors: tuple[FloorRule, ...]
    payments: tuple[PayClause, ...]
    score: Node
    cap: int | None
    limits: str  # highest | sum
    minimum: int | None
    base: int
    examples: tuple[Example, ...]
    facts: tuple[Fact, ...] = ()
    #: the text of each file in ``files``, for the build-cache key
    texts: tuple[str, ...] = field(default=(), compare=False)
    shapes: tuple[DeclaredShape, ...] = ()
    #: whether the tile set has the eight flowers (a hand holds some, set aside)
    flowers: bool = False
    #: whether the tile set has a red copy of each suit's 5 (0m 0p 0s)
    red_fives: bool = False
    #: the kinds set aside when drawn (``tiles ... aside(E S)``), four copies each, no
    #: part of ``kinds``: a hand keeps them beside its tiles, as flowers (mjr.tiles.aside)
    aside: tuple[int, ...] = ()
    #: the fans whose values do not count toward ``minimum``
    minimum_without: tuple[int, ...] = ()
    #: ``account_once``: the counted fans whose combinations are kept as a forest, in priority order
    account_once: tuple[int, ...] = ()
    #: ``prefer``: between readings of equal points and fan, the earliest of these fans awarded wins,
    #: then the higher of each of these named values in turn
    prefer: tuple[int, ...] = ()
    prefer_values: tuple[int, ...] = ()
    #: whether a standard hand may hold one knitted straight in place of three sets
    knitted: bool = False
    #: what the checker found doubtful but not wrong (a condition never true), for ``mjr check``
    warnings: tuple[Problem, ...] = field(default=(), compare=False)
    #: the table options a game may choose, and the values this build was made with (fixed ones too)
    options: tuple[OptionInfo, ...] = ()
    chosen: tuple[tuple[str, Value], ...] = ()
    #: every combination the ruleset's examples are played under (this build runs its own)
    example_options: tuple[tuple[tuple[str, Value], ...], ...] = ()
    #: the rules of a hand of play (``discard_win``, ``kong_pay``, ``at_draw`` ...)
    play: Play = Play()
    #: the lookup tables, and the named values (worked out after the fan total)
    tables: tuple[Table, ...] = ()
    values: tuple[NamedValue, ...] = ()
    #: the kinds counted from indicators (``derive``)
    derived: tuple[Derived, ...] = ()
    #: the dedicated joker tiles of the tile set (``tiles ... jokers N``): always wild, of no kind
    jokers: int = 0
    #: how many players the table seats (``seats``): the first winds in play order
    seats: int = 4
    #: the held amounts of the draw checks and end payments (``(EXPR) of payer``), in
    #: order: numbers worked out on one player's tiles and melds, with no win
    holdings: tuple[Holding, ...] = ()
    #: each define as written (its comments left out), in file order: ``mjr diff`` compares them
    defines: tuple[tuple[str, str], ...] = ()

    @property
    def sets(self) -> int:
        return (self.deal - 1) // 3


def expressions(ruleset: Ruleset) -> list[Node]:
    """Every expression of ``ruleset``: the score, the fans' conditions and values,
    the requirements', floors', shapes' and clauses' conditions, the amounts and the
    held amounts."""
    roots: list[Node] = [ruleset.score]
    roots += [node for fan in ruleset.fans for node in (fan.condition, fan.value)]
    roots += [rule.condition for rule in ruleset.requirements]
    roots += [floor.condition for floor in ruleset.floors] + [shape.condition for shape in ruleset.shapes]
    roots += [node for pay in ruleset.payments for node in (pay.condition, pay.amount) if node is not None]
    roots += [value.body for value in ruleset.values]
    roots += [held.body for held in ruleset.holdings]
    return roots


def children(node: Node) -> Iterator[Node]:
    """The nodes directly under ``node`` (a define's body under its reference)."""
    for value in vars(node).values():
        for child in value if isinstance(value, tuple) else (value,):
            if isinstance(child, Node):
                yield child


def nodes(roots: Iterable[Node]) -> Iterator[Node]:
    """Every node under ``roots``, defines written out, each shared node once."""
    stack = list(roots)
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        stack.extend(children(node))


def word_names(roots: Iterable[Node]) -> set[str]:
    """The names of every vocabulary word in ``roots``, defines written out."""
    return {node.name for node in nodes(roots) if isinstance(node, Word)}
