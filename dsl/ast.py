"""The typed syntax tree of a ``.mjr`` file: frozen dataclasses, each with its span.

The transformer in :mod:`mjr.dsl.parser` builds these from Lark's parse tree; the
checker in :mod:`mjr.compiler.check.checker` resolves names and types and lowers them to IR.
Nothing here knows any region: a fan is an id, a name, a value and a condition.
"""

from __future__ import annotations

from dataclasses import dataclass

from mjr.errors import Span

# -- expressions ---------------------------------------------------------------


@dataclass(frozen=True)
class Expr:
    span: Span


@dataclass(frozen=True)
class Number(Expr):
    value: int


@dataclass(frozen=True)
class Name(Expr):
    """A word: a context flag, a numeric property, an element quality, a define or a fan id."""

    name: str


@dataclass(frozen=True)
class OptionValue(Expr):
    """A table option's chosen value, put in place of its name before checking
    (a flag or a comparison of options is a condition; a number is a number)."""

    name: str
    value: int | bool


@dataclass(frozen=True)
class Scored(Expr):
    """``scored ID``: the fan was awarded after exclusions (not just its condition)."""

    fan: str


@dataclass(frozen=True)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True)
class BoolOp(Expr):
    op: str  # "and" | "or"
    operands: tuple[Expr, ...]


@dataclass(frozen=True)
class Compare(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Member(Expr):
    """``rank in (2, 5, 8)``."""

    operand: Expr
    values: tuple[int, ...]


@dataclass(frozen=True)
class Binary(Expr):
    op: str  # + - * / % ^
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Negate(Expr):
    operand: Expr


@dataclass(frozen=True)
class Conditional(Expr):
    """``A if C else B``."""

    then: Expr
    condition: Expr
    otherwise: Expr


@dataclass(frozen=True)
class Contains(Expr):
    """Inside a group: some tile of the group has the quality."""

    operand: Expr


@dataclass(frozen=True)
class Quantified(Expr):
    """``all sets are chow``, ``any groups contain terminal``, ``no tiles are honor``."""

    quantifier: str  # all | any | no
    collection: str  # sets | groups | tiles | kinds | melds | pairs
    condition: Expr


@dataclass(frozen=True)
class Each(Expr):
    """``any | all | no NAME in (VALUES) : EXPR``: the condition ``EXPR`` for each value of
    the variable ``NAME`` -- a number, a word (``m``) or a tile (``1s``) -- written out
    and joined by ``or`` (``any``) or ``and`` (``all``), or none holding (``no``)."""

    quantifier: str
    name: str
    name_span: Span
    values: tuple[int | str, ...]
    body: Expr


@dataclass(frozen=True)
class Count(Expr):
    """``count(sets where C)``; with ``arity`` N, ``count(N sets where C)`` counts the
    combinations of N elements that together meet C."""

    collection: str
    condition: Expr | None
    arity: int = 0


@dataclass(frozen=True)
class Sum(Expr):
    """``sum(sets of VALUE)``: VALUE worked out for each element, added up."""

    collection: str
    value: Expr


@dataclass(frozen=True)
class Call(Expr):
    """``NAME(A, B, ...)``: a function of numbers (``min``, ``max``, ``round_up``,
    ``round_down``) or a lookup in a ``table``; ``name_span`` is the name's place."""

    name: str
    arguments: tuple[Expr, ...]
    name_span: Span


@dataclass(frozen=True)
class TileIs(Expr):
    """A tile kind written in a condition (``F``, ``6z``): the tile is of that kind."""

    tile: str


# -- statements ------------------------------------------------------------------


@dataclass(frozen=True)
class Statement:
    span: Span


@dataclass(frozen=True)
class Source(Statement):
    text: str


@dataclass(frozen=True)
class Tiles(Statement):
    suits: tuple[str, ...]
    winds: bool
    dragons: bool
    #: the eight flowers, set aside beside the hand (mjr.tiles.flowers)
    flowers: bool = False
    #: a red copy of each suit's 5, written 0m 0p 0s (mjr.tiles.red)
    red_fives: bool = False
    #: dedicated joker tiles, always wild, of no kind (mjr.tiles.jokers): how many, and
    #: each ``jokers N`` part with its count's span (a count is checked, and given once)
    jokers: int = 0
    joker_parts: tuple[tuple[int, Span], ...] = ()
    #: ``aside(E S W N)``: kinds of the tile set set aside when drawn and replaced,
    #: as flowers are (mjr.tiles.aside)
    aside: tuple[TileRef, ...] = ()
    #: ``without(2m 3m)``: kinds the named suits and honours leave out of the tile set
    without: tuple[TileRef, ...] = ()


@dataclass(frozen=True)
class Deal(Statement):
    size: int


@dataclass(frozen=True)
class Seats(Statement):
    """``seats 3``: how many players the table seats."""

    count: int


@dataclass(frozen=True)
class Option:
    span: Span
    name: str
    arguments: tuple[str, ...]


@dataclass(frozen=True)
class Options(Statement):
    """``claims``, ``win`` and ``shapes``: a keyword and its options."""

    keyword: str
    options: tuple[Option, ...]


@dataclass(frozen=True)
class TileRef:
    span: Span
    text: str


@dataclass(frozen=True)
class WildcardNone(Statement):
    pass


@dataclass(frozen=True)
class WildcardFixed(Statement):
    tile: TileRef


@dataclass(frozen=True)
class WildcardIndicator(Statement):
    offset: int
    honor_cycles: tuple[tuple[TileRef, ...], ...]
    skip: tuple[TileRef, ...]


@dataclass(frozen=True)
class WildcardStandIn(Statement):
    """``wildcard stand_in P``: P plays as the wildcard kind when it is not wild itself."""

    tile: TileRef


@dataclass(frozen=True)
class Derive(Statement):
    """``derive ID "name" from FACT ±N [honors (...)] [skip (...)]``: for each tile
    kind, how many of the tiles fact FACT's indicators point at it, stepping as a
    derived wildcard does (``order`` holds the steps; it is no wildcard)."""

    id: str
    display: str
    fact: str
    fact_span: Span
    order: WildcardIndicator


@dataclass(frozen=True)
class WildcardUse(Statement):
    """``wildcard may_not discard claim``."""

    forbidden: tuple[Option, ...]


@dataclass(frozen=True)
class Setting(Statement):
    """``score``, ``cap``, ``limits``, ``minimum``, ``base``, ``indicator``: one value each."""

    keyword: str
    value: Expr | int | Option
    #: ``minimum N without FAN...``: the fans whose values do not count toward it
    without: tuple[tuple[str, Span], ...] = ()


@dataclass(frozen=True)
class Fact(Statement):
    """``fact ID "name" flag | number LOW to HIGH | tiles LOW to HIGH [from SOURCE [N]]``:
    a fact of play the hand gives (a flag, a number, or a few tiles), with its range,
    and how a table of play fills it."""

    id: str
    display: str
    kind: str  # flag | number | tiles
    low: int
    high: int
    #: ``from SOURCE [N]``: how a table of play fills it, and N (a number or an option's name)
    source: Option | None = None
    count: Expr | None = None


@dataclass(frozen=True)
class Define(Statement):
    name: str
    body: Expr


@dataclass(frozen=True)
class Value(Statement):
    """``value ID "name" : EXPR``: a named number worked out after the fan total,
    part of the result."""

    id: str
    display: str
    body: Expr


@dataclass(frozen=True)
class Table(Statement):
    """``table ID "name" { [columns C ...] KEY: VALUE ... }``: each row holds from its
    key up to the next row's key; ``columns`` (empty for one dimension) likewise
    across a row."""

    id: str
    display: str
    columns: tuple[int, ...]
    rows: tuple[tuple[int, tuple[int, ...], Span], ...]
    #: where the ``columns`` line is (None: a table of one dimension)
    columns_span: Span | None = None


@dataclass(frozen=True)
class TableColumns:
    """A table's ``columns`` line, while parsing."""

    span: Span
    values: tuple[int, ...]


@dataclass(frozen=True)
class TableRow:
    """A table's row, while parsing."""

    span: Span
    key: int
    values: tuple[int, ...]


@dataclass(frozen=True)
class Fan(Statement):
    """``fan|limit|bonus|multiplier ID "name" VALUE [each] : COND [excludes ...]``."""

    kind: str
    id: str
    display: str
    value: Expr
    each: bool
    condition: Expr
    excludes: tuple[tuple[str, Span], ...]


@dataclass(frozen=True)
class Require(Statement):
    id: str
    display: str
    condition: Expr


@dataclass(frozen=True)
class Shape(Statement):
    """``shape ID "name" : COND``: a winning shape declared by the ruleset."""

    id: str
    display: str
    condition: Expr


@dataclass(frozen=True)
class Floor(Statement):
    id: str
    display: str
    value: int
    condition: Expr


@dataclass(frozen=True)
class Payer:
    span: Span
    kind: str  # discarder | each | last_meld | claimed_meld | left | opposite | right | table
    index: int = 0


@dataclass(frozen=True)
class Pay(Statement):
    """``pay`` (an ordinary payment) or ``liable`` (one player pays all)."""

    liable: bool
    id: str
    display: str
    condition: Expr
    payer: Payer
    amount: Expr | None


@dataclass(frozen=True)
class AccountOnce(Statement):
    """``account_once FAN...``: the instances of these counted fans are kept so that no
    kept one joins sets that kept ones already connect (套算一次)."""

    fans: tuple[tuple[str, Span], ...]


@dataclass(frozen=True)
class Prefer(Statement):
    """``prefer FAN...``: between readings of equal points and fan, the one awarding
    the earliest listed fan is kept."""

    fans: tuple[tuple[str, Span], ...]


@dataclass(frozen=True)
class Drop(Statement):
    """``drop [KIND] ID...``: KIND (``fan``, ``floor``, ``pay`` ...) says what is
    dropped; without it, each id must name statements of one kind only."""

    ids: tuple[tuple[str, Span], ...]
    kind: str | None = None


# -- rules of a hand of play ----------------------------------------------------
# Their words are ``Option``s (a word and where it is written): the compiler checks
# them against mjr.ruleset.rules_of_play and names the allowed ones.


@dataclass(frozen=True)
class PlaySetting(Statement):
    """``discard_win WORD``, ``missed_win WORD``, ``hand_ends WORD [N]``, ``dead_wall N
    [plus M per kong]``, ``last_draw WORD``, ``void_suit WORD``, ``indicator_flip WORD``."""

    keyword: str
    word: Option | None
    number: tuple[int, Span] | None
    per_kong: tuple[int, Span] | None = None
    also: Option | None = None  # a second word (``missed_win any_tile own_discards``)


@dataclass(frozen=True)
class KongPay(Statement):
    """``kong_pay ID "name" on KIND : PAYER pays N [WORD ...]``: the words say when
    the payment is given back at the hand's close."""

    id: str
    display: str
    kind: Option
    payer: Payer
    amount: tuple[int, Span]
    refunds: tuple[Option, ...] = ()


@dataclass(frozen=True)
class OpenKong(Statement):
    """``open_kong FACT [when_ready] [locks]``."""

    fact: Option
    words: tuple[Option, ...]
    keyword = "open_kong"


@dataclass(frozen=True)
class Declare(Statement):
    """``declare ID "name" : WORD [N] [(FACT)] ...``: a declaration a player may make
    with a discard, its words each with its number or the fact it names."""

    id: str
    display: str
    words: tuple[Option, ...]
    keyword = "declare"


@dataclass(frozen=True)
class RobConcealed(Statement):
    """``rob_concealed SHAPE...``: a concealed kong may be robbed by a win of these shapes."""

    shapes: tuple[Option, ...]
    keyword = "rob_concealed"


@dataclass(frozen=True)
class Abort(Statement):
    """``abort ID "name" : WORD [N]``: an abortive draw (途中流局) and what brings it."""

    id: str
    display: str
    word: Option
    keyword = "abort"


@dataclass(frozen=True)
class Reveal(Statement):
    """``reveal N [per_kong] [after M]``: tiles turned face up at the back of the wall."""

    count: tuple[int, Span]
    words: tuple[Option, ...]
    keyword = "reveal"


@dataclass(frozen=True)
class FalseWin(Statement):
    """``false_win ID "name" : pays each opponent N [dead_hand]``."""

    id: str
    display: str
    payer: Payer
    amount: tuple[int, Span]
    word: Option | None
    keyword = "false_win"


@dataclass(frozen=True)
class NextDealer(Statement):
    """``next_dealer [when WORD or WORD ...] : TARGET``."""

    conditions: tuple[Option, ...]
    target: Option


@dataclass(frozen=True)
class DrawTest:
    """One test of a draw check's side: ``ready``, ``not won``, ``suits < 3``."""

    span: Span
    word: str  # ready | won | suits, or what was written in their place
    negated: bool = False
    compare: str = ""
    value: int = 0
    tile: str = ""  # a test of the hand's history names a tile: ``first_discard 1s``


@dataclass(frozen=True)
class AtDraw(Statement):
    """``at_draw ID "name" : each player where TESTS pays each player where TESTS AMOUNT``,
    or ``at_end ...`` (at the end of every hand, won or drawn) or ``at_win ...`` (at
    the end of a hand someone won).  An empty side's tests (``each player``) take
    every player."""

    id: str
    display: str
    payer: tuple[DrawTest, ...]
    payee: tuple[DrawTest, ...]
    #: a number's digits (its argument ``shared`` where written), or ``best``; for a
    #: held amount, ``payer`` or ``payee`` (whose tiles ``held`` counts)
    amount: Option
    keyword: str = "at_draw"  # at_draw | at_end | at_win
    #: ``(EXPR) of payer|payee``: a number worked out on that player's tiles
    held: Expr | None = None


@dataclass(frozen=True)
class Expectation:
    span: Span
    kind: str  # not_win | fans | fan | points | payments | clause
    value: object


#: An option's value as written: a word, or a number.
OptionWord = str | int


@dataclass(frozen=True)
class OptionDecl(Statement):
    """``option NAME "display" KIND [default VALUE] [section "..."]``.

    ``kind`` is ``choice`` (``values`` are its words or numbers), ``flag``
    (``values`` are off and on) or ``number`` (``values`` are the low and high end)."""

    name: str
    display: str
    kind: str
    values: tuple[OptionWord, ...]
    default: tuple[OptionWord, Span] | None
    section: str


@dataclass(frozen=True)
class When(Statement):
    """``when COND { ... } else { ... }``: statements that hold for some options."""

    condition: Expr
    body: tuple[Statement, ...]
    otherwise: tuple[Statement, ...]


@dataclass(frozen=True)
class Refuse(Statement):
    """``refuse "why" when COND``: option combinations the ruleset does not play."""

    message: str
    condition: Expr


@dataclass(frozen=True)
class Fix(Statement):
    """``fix NAME = VALUE``: a variant settles an inherited option; it leaves the table."""

    name: str
    value: OptionWord
    value_span: Span


@dataclass(frozen=True)
class Example(Statement):
    title: str
    hand: str | None
    hand_span: Span | None
    expectations: tuple[Expectation, ...]
    #: the options the example is played under: (name, value, where)
    options: tuple[tuple[str, OptionWord, Span], ...] = ()


@dataclass(frozen=True)
class Ruleset:
    span: Span
    id: str
    title: str
    native_title: str
    extends: tuple[str, Span] | None
    statements: tuple[Statement, ...]
    file: str
    text: str
