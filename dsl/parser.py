"""Parse ``.mjr`` text into the AST of :mod:`mjr.dsl.ast`.

Lark (LALR, positions propagated) reads the grammar file beside this module; a
Transformer turns the parse tree into frozen dataclasses with spans.  Syntax errors
become :class:`mjr.errors.SourceError` with the place, the source line, a caret and
what was expected there.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedInput, VisitError

from mjr.errors import SourceError, Span, problem_at

from . import ast
from .nesting import check_nesting, too_deep
from .recovery import more_problems
from .syntax_errors import statement_typo, syntax_problem, typo_message

_ESCAPES = {'"': '"', "\\": "\\", "n": "\n"}
#: The most values a variable of ``any NAME in (...)`` takes from one range.
BINDER_VALUES_MOST = 64
_ESCAPE = re.compile(r'\\(["\\n])')


@lru_cache(maxsize=1)
def _lark() -> Lark:
    return Lark.open(
        "mjr.lark", rel_to=__file__, parser="lalr", propagate_positions=True, maybe_placeholders=False
    )


def misspelt_statement(line: str) -> tuple[int, int, str] | None:
    """(column, width, message) when ``line`` starts with a word that is no keyword of
    the language but close to a statement's keyword (``sahpes`` for ``shapes``)."""
    typo = statement_typo(_lark(), line)
    if typo is None:
        return None
    column, word, keyword = typo
    return column, len(word), typo_message(word, keyword)


def parse(text: str, file: str = "<string>") -> ast.Ruleset:
    """The ruleset in ``text`` (one per file); raises SourceError on a syntax error."""
    try:
        tree = _lark().parse(text)
    except UnexpectedInput as error:
        first = syntax_problem(_lark(), error, text, file)
        more = more_problems(_lark(), text, error,
                             lambda later, parsed: syntax_problem(_lark(), later, text, file, parsed))
        raise SourceError([first, *more]) from None
    except RecursionError:
        raise SourceError([too_deep(text, Span(file, 1, 1))]) from None
    check_nesting(tree, text, file)
    try:
        return _ToAst(text, file).transform(tree)  # type: ignore[no-any-return]
    except VisitError as error:
        if isinstance(error.orig_exc, SourceError):
            raise error.orig_exc from None
        if isinstance(error.orig_exc, RecursionError):
            meta = getattr(error.obj, "meta", None)
            raise SourceError([too_deep(text, _span(file, meta) if meta else Span(file, 1, 1))]) from None
        raise
    except RecursionError:
        raise SourceError([too_deep(text, Span(file, 1, 1))]) from None


def _span(file: str, meta: Any) -> Span:
    return Span(file, meta.line, meta.column, meta.end_line, meta.end_column)


def _token_span(file: str, token: Token) -> Span:
    return Span(file, token.line or 0, token.column or 0, token.end_line or 0, token.end_column or 0)


def _string(token: Token) -> str:
    """The text of a STRING token: the quotes dropped, the escapes \\" \\\\ \\n undone."""
    return _ESCAPE.sub(lambda match: _ESCAPES[match.group(1)], str(token)[1:-1])


def _indicator_order(span: Span, items: list[Any]) -> ast.WildcardIndicator:
    """``±N [honors (...)] [skip (...)]``: the steps from an indicator to its kind."""
    sign, offset = str(items[0]), int(items[1])
    cycles: tuple[tuple[ast.TileRef, ...], ...] = ()
    skip: tuple[ast.TileRef, ...] = ()
    for kind, value in items[2:]:
        if kind == "honors":
            cycles += value
        else:
            skip += value
    return ast.WildcardIndicator(span, -offset if sign == "-" else offset, cycles, skip)


@v_args(meta=True)
class _ToAst(Transformer[Token, Any]):
    """Parse tree -> AST.  One method per grammar rule; spans from Lark's meta."""

    def __init__(self, text: str, file: str):
        super().__init__()
        self.text, self.file = text, file

    def _s(self, meta: Any) -> Span:
        return _span(self.file, meta)

    def start(self, meta: Any, rulesets: list[ast.Ruleset]) -> ast.Ruleset:
        return rulesets[0]

    def ruleset(self, meta: Any, items: list[Any]) -> ast.Ruleset:
        ident, title = str(items[0]), _string(items[1])
        rest = items[2:]
        native = ""
        if rest and isinstance(rest[0], Token) and rest[0].type == "STRING":
            native = _string(rest.pop(0))
        extends = None
        if rest and isinstance(rest[0], tuple):
            extends = rest.pop(0)
        return ast.Ruleset(self._s(meta), ident, title, native, extends, tuple(rest), self.file, self.text)

    def extends(self, meta: Any, items: list[Token]) -> tuple[str, Span]:
        return str(items[0]), _token_span(self.file, items[0])

    def source(self, meta: Any, items: list[Token]) -> ast.Source:
        return ast.Source(self._s(meta), _string(items[0]))

    def tiles(self, meta: Any, parts: list[tuple[str, Any]]) -> ast.Tiles:
        suits: tuple[str, ...] = ()
        jokers: list[tuple[int, Span]] = []
        aside: tuple[ast.TileRef, ...] = ()
        without: tuple[ast.TileRef, ...] = ()
        for kind, letters in parts:
            if kind == "suits":
                suits += letters
            elif kind == "jokers":
                jokers.append(letters)
            elif kind == "aside":
                aside += letters
            elif kind == "without":
                without += letters
        kinds = {kind for kind, _ in parts}
        return ast.Tiles(self._s(meta), suits, "winds" in kinds, "dragons" in kinds, "flowers" in kinds,
                         "red_fives" in kinds, jokers[0][0] if jokers else 0, tuple(jokers), aside, without)

    def suits(self, meta: Any, letters: list[Token]) -> tuple[str, tuple[str, ...]]:
        return "suits", tuple(str(t) for t in letters)

    def winds(self, meta: Any, _: list[Any]) -> tuple[str, tuple[str, ...]]:
        return "winds", ()

    def dragons(self, meta: Any, _: list[Any]) -> tuple[str, tuple[str, ...]]:
        return "dragons", ()

    def flowers(self, meta: Any, _: list[Any]) -> tuple[str, tuple[str, ...]]:
        return "flowers", ()

    def red_fives(self, meta: Any, _: list[Any]) -> tuple[str, tuple[str, ...]]:
        return "red_fives", ()

    def jokers(self, meta: Any, items: list[Token]) -> tuple[str, tuple[int, Span]]:
        return "jokers", (int(items[0]), _token_span(self.file, items[0]))
    def aside(self, meta: Any, tiles: list[Token]) -> tuple[str, tuple[ast.TileRef, ...]]:
        return "aside", tuple(self._tile(token) for token in tiles)

    def without(self, meta: Any, tiles: list[Token]) -> tuple[str, tuple[ast.TileRef, ...]]:
        return "without", tuple(self._tile(token) for token in tiles)

    def deal(self, meta: Any, items: list[Token]) -> ast.Deal:
        return ast.Deal(self._s(meta), int(items[0]))

    def seats(self, meta: Any, items: list[Token]) -> ast.Seats:
        return ast.Seats(self._s(meta), int(items[0]))

    def option(self, meta: Any, items: list[Token]) -> ast.Option:
        return ast.Option(self._s(meta), str(items[0]), tuple(str(t) for t in items[1:]))

    def claims(self, meta: Any, options: list[ast.Option]) -> ast.Options:
        return ast.Options(self._s(meta), "claims", tuple(options))

    def win_methods(self, meta: Any, options: list[ast.Option]) -> ast.Options:
        return ast.Options(self._s(meta), "win", tuple(options))

    def shapes(self, meta: Any, options: list[ast.Option]) -> ast.Options:
        return ast.Options(self._s(meta), "shapes", tuple(options))

    def _tile(self, token: Token) -> ast.TileRef:
        return ast.TileRef(_token_span(self.file, token), str(token))

    def wildcard_none(self, meta: Any, _: list[Any]) -> ast.WildcardNone:
        return ast.WildcardNone(self._s(meta))

    def wildcard_fixed(self, meta: Any, items: list[Token]) -> ast.WildcardFixed:
        return ast.WildcardFixed(self._s(meta), self._tile(items[0]))

    def derive(self, meta: Any, items: list[Any]) -> ast.Derive:
        return ast.Derive(self._s(meta), str(items[0]), _string(items[1]), str(items[2]),
                          _token_span(self.file, items[2]), _indicator_order(self._s(meta), items[3:]))

    def wildcard_indicator(self, meta: Any, items: list[Any]) -> ast.WildcardIndicator:
        return _indicator_order(self._s(meta), items)

    def wildcard_stand_in(self, meta: Any, items: list[Token]) -> ast.WildcardStandIn:
        return ast.WildcardStandIn(self._s(meta), self._tile(items[0]))

    def honor_order(self, meta: Any, cycles: list[tuple[ast.TileRef, ...]]) -> tuple[str, Any]:
        return "honors", tuple(cycles)

    def honor_cycle(self, meta: Any, items: list[Token]) -> tuple[ast.TileRef, ...]:
        return tuple(self._tile(t) for t in items)

    def honor_skip(self, meta: Any, items: list[Token]) -> tuple[str, Any]:
        return "skip", tuple(self._tile(t) for t in items)

    def wildcard_use(self, meta: Any, items: list[Token]) -> ast.WildcardUse:
        options = tuple(ast.Option(_token_span(self.file, t), str(t), ()) for t in items)
        return ast.WildcardUse(self._s(meta), options)

    def indicator_play(self, meta: Any, items: list[Token]) -> ast.Setting:
        return self._setting(meta, "indicator", ast.Option(_token_span(self.file, items[0]), str(items[0]), ()))

    def _setting(self, meta: Any, keyword: str, value: Any) -> ast.Setting:
        return ast.Setting(self._s(meta), keyword, value)

    def score(self, meta: Any, items: list[Any]) -> ast.Setting:
        return self._setting(meta, "score", items[0])

    def cap(self, meta: Any, items: list[Token]) -> ast.Setting:
        return self._setting(meta, "cap", int(items[0]))

    def limits(self, meta: Any, items: list[Token]) -> ast.Setting:
        return self._setting(meta, "limits", ast.Option(_token_span(self.file, items[0]), str(items[0]), ()))

    def minimum(self, meta: Any, items: list[Token]) -> ast.Setting:
        without = tuple((str(t), _token_span(self.file, t)) for t in items[1:])
        return ast.Setting(self._s(meta), "minimum", int(items[0]), without)

    def base(self, meta: Any, items: list[Token]) -> ast.Setting:
        return self._setting(meta, "base", int(items[0]))

    def define(self, meta: Any, items: list[Any]) -> ast.Define:
        return ast.Define(self._s(meta), str(items[0]), items[1])

    def value_decl(self, meta: Any, items: list[Any]) -> ast.Value:
        return ast.Value(self._s(meta), str(items[0]), _string(items[1]), items[2])

    def table(self, meta: Any, items: list[Any]) -> ast.Table:
        rows = tuple(item for item in items[2:] if isinstance(item, ast.TableRow))
        columns = next((item for item in items[2:] if isinstance(item, ast.TableColumns)), None)
        return ast.Table(self._s(meta), str(items[0]), _string(items[1]), columns.values if columns else (),
                         tuple((row.key, row.values, row.span) for row in rows), columns.span if columns else None)

    def table_columns(self, meta: Any, items: list[Token]) -> ast.TableColumns:
        return ast.TableColumns(self._s(meta), tuple(int(item) for item in items))

    def table_row(self, meta: Any, items: list[Token]) -> ast.TableRow:
        key = int(str(items[0]).rstrip(":").strip())
        return ast.TableRow(self._s(meta), key, tuple(int(item) for item in items[1:]))

    def fact(self, meta: Any, items: list[Any]) -> ast.Fact:
        kind, low, high = items[2]
        source, count = items[3] if len(items) > 3 else (None, None)
        return ast.Fact(self._s(meta), str(items[0]), _string(items[1]), kind, low, high, source, count)

    def fact_source(self, meta: Any, items: list[Any]) -> tuple[ast.Option, ast.Expr | None]:
        source = ast.Option(_token_span(self.file, items[0]), str(items[0]), ())
        return source, items[1] if len(items) > 1 else None

    def fact_flag(self, meta: Any, items: list[Token]) -> tuple[str, int, int]:
        return "flag", 0, 1

    def fact_number(self, meta: Any, items: list[Token]) -> tuple[str, int, int]:
        return "number", int(items[0]), int(items[1])

    def fact_tiles(self, meta: Any, items: list[Token]) -> tuple[str, int, int]:
        return "tiles", int(items[0]), int(items[1])

    def fan_kind(self, meta: Any, items: list[Token]) -> str:
        return str(items[0])

    def quantifier(self, meta: Any, items: list[Token]) -> str:
        return str(items[0])

    def collection(self, meta: Any, items: list[Token]) -> str:
        """A built-in collection, singular or plural (``set``, ``sets``), or a tiles
        fact by its id."""
        word = str(items[0])
        return word if items[0].type == "NAME" else _plural(word)

    def fan(self, meta: Any, items: list[Any]) -> ast.Fan:
        kind, ident, display, (value, each), condition = items[:5]
        excludes = items[5] if len(items) > 5 else ()
        return ast.Fan(
            self._s(meta), str(kind), str(ident), _string(display), value, each, condition, excludes
        )

    def value_int(self, meta: Any, items: list[Token]) -> tuple[ast.Expr, bool]:
        return ast.Number(self._s(meta), int(items[0])), False

    def value_each(self, meta: Any, items: list[Token]) -> tuple[ast.Expr, bool]:
        return ast.Number(_token_span(self.file, items[0]), int(items[0])), True

    def value_expr(self, meta: Any, items: list[ast.Expr]) -> tuple[ast.Expr, bool]:
        return items[0], False

    def excludes(self, meta: Any, items: list[Token]) -> tuple[tuple[str, Span], ...]:
        return tuple((str(t), _token_span(self.file, t)) for t in items)

    def require(self, meta: Any, items: list[Any]) -> ast.Require:
        return ast.Require(self._s(meta), str(items[0]), _string(items[1]), items[2])

    def shape(self, meta: Any, items: list[Any]) -> ast.Shape:
        return ast.Shape(self._s(meta), str(items[0]), _string(items[1]), items[2])

    def floor(self, meta: Any, items: list[Any]) -> ast.Floor:
        return ast.Floor(self._s(meta), str(items[0]), _string(items[1]), int(items[2]), items[3])

    def pay(self, meta: Any, items: list[Any]) -> ast.Pay:
        ident, display, condition, payer, amount = items
        return ast.Pay(self._s(meta), False, str(ident), _string(display), condition, payer, amount)

    def liable(self, meta: Any, items: list[Any]) -> ast.Pay:
        ident, display, condition, payer = items
        return ast.Pay(self._s(meta), True, str(ident), _string(display), condition, payer, None)

    def payer_discarder(self, meta: Any, _: list[Any]) -> ast.Payer:
        return ast.Payer(self._s(meta), "discarder")

    def payer_each(self, meta: Any, _: list[Any]) -> ast.Payer:
        return ast.Payer(self._s(meta), "each")

    def payer_last_meld(self, meta: Any, _: list[Any]) -> ast.Payer:
        return ast.Payer(self._s(meta), "last_meld")

    def payer_claimed_meld(self, meta: Any, items: list[Token]) -> ast.Payer:
        return ast.Payer(self._s(meta), "claimed_meld", int(items[0]))

    def payer_place(self, meta: Any, items: list[Token]) -> ast.Payer:
        return ast.Payer(self._s(meta), str(items[0]))

    def payer_table(self, meta: Any, _: list[Any]) -> ast.Payer:
        return ast.Payer(self._s(meta), "table")

    def payee(self, meta: Any, items: list[Token]) -> Token:
        return items[0]

    def drop(self, meta: Any, items: list[Any]) -> ast.Drop:
        kind = items.pop(0) if isinstance(items[0], str) and not isinstance(items[0], Token) else None
        return ast.Drop(self._s(meta), tuple((str(t), _token_span(self.file, t)) for t in items), kind)

    def drop_kind(self, meta: Any, items: list[Token]) -> str:
        return str(items[0])

    # -- rules of a hand of play

    def _word(self, token: Token) -> ast.Option:
        return ast.Option(_token_span(self.file, token), str(token), ())

    def _number(self, token: Token) -> tuple[int, Span]:
        return int(token), _token_span(self.file, token)

    def discard_win(self, meta: Any, items: list[Token]) -> ast.PlaySetting:
        return ast.PlaySetting(self._s(meta), "discard_win", self._word(items[0]), None)

    def missed_win(self, meta: Any, items: list[Token]) -> ast.PlaySetting:
        also = self._word(items[1]) if len(items) > 1 else None
        return ast.PlaySetting(self._s(meta), "missed_win", self._word(items[0]), None, also=also)

    def hand_ends(self, meta: Any, items: list[Token]) -> ast.PlaySetting:
        number = self._number(items[1]) if len(items) > 1 else None
        return ast.PlaySetting(self._s(meta), "hand_ends", self._word(items[0]), number)

    def dead_wall(self, meta: Any, items: list[Token]) -> ast.PlaySetting:
        per_kong = self._number(items[1]) if len(items) > 1 else None
        return ast.PlaySetting(self._s(meta), "dead_wall", None, self._number(items[0]), per_kong)

    def last_draw(self, meta: Any, items: list[Token]) -> ast.PlaySetting:
        return ast.PlaySetting(self._s(meta), "last_draw", self._word(items[0]), None)

    def void_suit(self, meta: Any, items: list[Token]) -> ast.PlaySetting:
        return ast.PlaySetting(self._s(meta), "void_suit", self._word(items[0]), None)

    def indicator_flip(self, meta: Any, items: list[Token]) -> ast.PlaySetting:
        return ast.PlaySetting(self._s(meta), "indicator_flip", self._word(items[0]), None)

    def open_kong(self, meta: Any, items: list[Token]) -> ast.OpenKong:
        return ast.OpenKong(self._s(meta), self._word(items[0]), tuple(self._word(t) for t in items[1:]))

    def declare(self, meta: Any, items: list[Any]) -> ast.Declare:
        ident, display, *words = items
        return ast.Declare(self._s(meta), str(ident), _string(display), tuple(words))

    def play_word(self, meta: Any, items: list[Token]) -> ast.Option:
        """A word of ``declare`` or ``reveal``: its number and the fact it names, as written, its arguments."""
        return ast.Option(self._s(meta), str(items[0]), tuple(str(t) for t in items[1:]))

    def rob_concealed(self, meta: Any, items: list[Token]) -> ast.RobConcealed:
        return ast.RobConcealed(self._s(meta), tuple(self._word(token) for token in items))

    def abort(self, meta: Any, items: list[Any]) -> ast.Abort:
        ident, display, word = items
        return ast.Abort(self._s(meta), str(ident), _string(display), word)

    def reveal(self, meta: Any, items: list[Any]) -> ast.Reveal:
        count, *words = items
        return ast.Reveal(self._s(meta), self._number(count), tuple(words))

    def false_win(self, meta: Any, items: list[Any]) -> ast.FalseWin:
        ident, display, payer, amount = items[:4]
        word = self._word(items[4]) if len(items) > 4 else None
        return ast.FalseWin(self._s(meta), str(ident), _string(display), payer, self._number(amount), word)

    def kong_pay(self, meta: Any, items: list[Any]) -> ast.KongPay:
        ident, display, kind, payer, amount = items[:5]
        return ast.KongPay(self._s(meta), str(ident), _string(display), self._word(kind), payer,
                           self._number(amount), tuple(self._word(word) for word in items[5:]))

    def next_dealer(self, meta: Any, items: list[Any]) -> ast.NextDealer:
        return ast.NextDealer(self._s(meta), tuple(items[:-1]), self._word(items[-1]))

    def dealer_word(self, meta: Any, items: list[Token]) -> ast.Option:
        """A condition of ``next_dealer``, its number (``streak 3``) as its one argument."""
        return ast.Option(self._s(meta), str(items[0]), tuple(str(t) for t in items[1:]))

    def at_draw(self, meta: Any, items: list[Any], keyword: str = "at_draw") -> ast.AtDraw:
        ident, display, payer, payee, amount = items
        held = None
        if isinstance(amount, tuple):  # (EXPR) of payer|payee
            held, amount = amount
        return ast.AtDraw(self._s(meta), str(ident), _string(display), payer, payee, amount, keyword, held)

    def at_end(self, meta: Any, items: list[Any]) -> ast.AtDraw:
        return self.at_draw(meta, items, "at_end")

    def at_win(self, meta: Any, items: list[Any]) -> ast.AtDraw:
        return self.at_draw(meta, items, "at_win")

    def draw_side(self, meta: Any, tests: list[ast.DrawTest]) -> tuple[ast.DrawTest, ...]:
        return tuple(tests)

    def draw_flag(self, meta: Any, items: list[Token]) -> ast.DrawTest:
        return ast.DrawTest(self._s(meta), str(items[0]), tile=str(items[1]) if len(items) > 1 else "")

    def draw_not(self, meta: Any, items: list[Token]) -> ast.DrawTest:
        return ast.DrawTest(self._s(meta), str(items[0]), negated=True, tile=str(items[1]) if len(items) > 1 else "")

    def draw_suits(self, meta: Any, items: list[Token]) -> ast.DrawTest:
        return ast.DrawTest(self._s(meta), "suits", compare=str(items[0]), value=int(items[1]))

    def draw_amount(self, meta: Any, items: list[Token]) -> ast.Option:
        return ast.Option(self._s(meta), str(items[0]), tuple(str(t) for t in items[1:]))

    def held_amount(self, meta: Any, items: list[Any]) -> tuple[ast.Expr, ast.Option]:
        """``(EXPR) of payer|payee [WORD]``: the expression, and its holder as the amount."""
        expr, holder, *rest = items
        return expr, ast.Option(self._s(meta), str(holder), tuple(str(t) for t in rest))

    # -- table options

    def option_decl(self, meta: Any, items: list[Any]) -> ast.OptionDecl:
        name, display, (kind, values) = str(items[0]), _string(items[1]), items[2]
        default = next((item[1] for item in items[3:] if item[0] == "default"), None)
        section = next((item[1] for item in items[3:] if item[0] == "section"), "")
        return ast.OptionDecl(self._s(meta), name, display, kind, values, default, section)

    def option_choice(self, meta: Any, items: list[tuple[ast.OptionWord, Span]]) -> tuple[str, tuple[Any, ...]]:
        return "choice", tuple(value for value, _ in items)

    def option_flag(self, meta: Any, _: list[Any]) -> tuple[str, tuple[Any, ...]]:
        return "flag", ("off", "on")

    def option_number(self, meta: Any, items: list[Token]) -> tuple[str, tuple[Any, ...]]:
        return "number", (int(items[0]), int(items[1]))

    def option_default(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "default", items[0]

    def option_section(self, meta: Any, items: list[Token]) -> tuple[str, Any]:
        return "section", _string(items[0])

    def option_value(self, meta: Any, items: list[Token]) -> tuple[ast.OptionWord, Span]:
        token = items[0]
        value: ast.OptionWord = int(token) if token.type == "INT" else str(token)
        return value, _token_span(self.file, token)

    def when_block(self, meta: Any, items: list[Any]) -> ast.When:
        condition, *body = items
        otherwise: tuple[ast.Statement, ...] = ()
        if body and isinstance(body[-1], tuple):
            otherwise = body.pop()
        return ast.When(self._s(meta), condition, tuple(body), otherwise)

    def else_when(self, meta: Any, items: list[ast.When]) -> tuple[ast.Statement, ...]:
        return (items[0],)

    def else_statements(self, meta: Any, items: list[ast.Statement]) -> tuple[ast.Statement, ...]:
        return tuple(items)

    def refuse(self, meta: Any, items: list[Any]) -> ast.Refuse:
        return ast.Refuse(self._s(meta), _string(items[0]), items[1])

    def fix(self, meta: Any, items: list[Any]) -> ast.Fix:
        value, span = items[1]
        return ast.Fix(self._s(meta), str(items[0]), value, span)

    def example_options(self, meta: Any, items: list[Any]) -> tuple[str, tuple[Any, ...]]:
        return "options", tuple(items)

    def option_setting(self, meta: Any, items: list[Any]) -> tuple[str, ast.OptionWord, Span]:
        value, span = items[1]
        return str(items[0]), value, span

    # -- examples

    def example(self, meta: Any, items: list[Any]) -> ast.Example:
        title = _string(items[0])
        hand, hand_span, expectations = None, None, []
        options: list[tuple[str, ast.OptionWord, Span]] = []
        for item in items[1:]:
            if isinstance(item, ast.Expectation):
                expectations.append(item)
            elif item[0] == "options":
                options.extend(item[1])
            elif hand is not None:
                raise SourceError([problem_at(self.text, item[1], "an example has one hand")])
            else:
                hand, hand_span = item
        return ast.Example(self._s(meta), title, hand, hand_span, tuple(expectations), tuple(options))

    def example_hand(self, meta: Any, items: list[Token]) -> tuple[str, Span]:
        return _string(items[0]), _token_span(self.file, items[0])

    def _expect(self, meta: Any, kind: str, value: object) -> ast.Expectation:
        return ast.Expectation(self._s(meta), kind, value)

    def expect_not_win(self, meta: Any, items: list[Token]) -> ast.Expectation:
        return self._expect(meta, "not_win", _string(items[0]) if items else "")

    def expect_fans(self, meta: Any, items: list[Token]) -> ast.Expectation:
        return self._expect(meta, "fans", tuple((str(t), _token_span(self.file, t)) for t in items))

    def expect_fan(self, meta: Any, items: list[Token]) -> ast.Expectation:
        return self._expect(meta, "fan", int(items[0]))

    def expect_points(self, meta: Any, items: list[Token]) -> ast.Expectation:
        return self._expect(meta, "points", int(items[0]))

    def expect_payments(self, meta: Any, items: list[Token]) -> ast.Expectation:
        pairs = tuple(
            (str(items[i]), int(items[i + 1]), _token_span(self.file, items[i]))
            for i in range(0, len(items), 2)
        )
        return self._expect(meta, "payments", pairs)

    def expect_clause(self, meta: Any, items: list[Token]) -> ast.Expectation:
        return self._expect(meta, "clause", (str(items[0]), _token_span(self.file, items[0])))

    def expect_value(self, meta: Any, items: list[Token]) -> ast.Expectation:
        """``expect fu 40``: a named value of the result."""
        return self._expect(meta, "value", (str(items[0]), int(items[1]), _token_span(self.file, items[0])))

    # -- expressions

    def number(self, meta: Any, items: list[Token]) -> ast.Number:
        return ast.Number(self._s(meta), int(items[0]))

    def name(self, meta: Any, items: list[Token]) -> ast.Name:
        return ast.Name(self._s(meta), str(items[0]))

    def scored(self, meta: Any, items: list[Token]) -> ast.Scored:
        return ast.Scored(self._s(meta), str(items[0]))

    def negation(self, meta: Any, items: list[ast.Expr]) -> ast.Not:
        return ast.Not(self._s(meta), items[0])

    def or_expr(self, meta: Any, items: list[ast.Expr]) -> ast.BoolOp:
        return ast.BoolOp(self._s(meta), "or", tuple(items))

    def and_expr(self, meta: Any, items: list[ast.Expr]) -> ast.BoolOp:
        return ast.BoolOp(self._s(meta), "and", tuple(items))

    def compare(self, meta: Any, items: list[Any]) -> ast.Compare:
        return ast.Compare(self._s(meta), str(items[1]), items[0], items[2])

    def member(self, meta: Any, items: list[Any]) -> ast.Member:
        return ast.Member(self._s(meta), items[0], tuple(int(t) for t in items[1:]))

    def binary(self, meta: Any, items: list[Any]) -> ast.Binary:
        return ast.Binary(self._s(meta), str(items[1]), items[0], items[2])

    def neg(self, meta: Any, items: list[ast.Expr]) -> ast.Negate:
        return ast.Negate(self._s(meta), items[0])

    def conditional(self, meta: Any, items: list[ast.Expr]) -> ast.Conditional:
        return ast.Conditional(self._s(meta), items[0], items[1], items[2])

    def contains(self, meta: Any, items: list[ast.Expr]) -> ast.Contains:
        return ast.Contains(self._s(meta), items[0])

    def each(self, meta: Any, items: list[Any]) -> ast.Each:
        quantifier, name, *values, body = items
        return ast.Each(self._s(meta), str(quantifier), str(name), _token_span(self.file, name),
                        tuple(value for part in values for value in part), body)

    def binder_range(self, meta: Any, items: list[Token]) -> tuple[int, ...]:
        low, high = int(items[0]), int(items[1])
        if not low <= high < low + BINDER_VALUES_MOST:
            raise SourceError([problem_at(self.text, self._s(meta), f"{low} to {high}: a variable takes 1 to "
                                                                    f"{BINDER_VALUES_MOST} values, from the "
                                                                    f"lower to the higher")])
        return tuple(range(low, high + 1))

    def binder_number(self, meta: Any, items: list[Token]) -> tuple[int, ...]:
        return (int(items[0]),)

    def binder_word(self, meta: Any, items: list[Token]) -> tuple[str, ...]:
        return (str(items[0]),)

    def quantified(self, meta: Any, items: list[Any]) -> ast.Quantified:
        return ast.Quantified(self._s(meta), str(items[0]), items[1], items[2])

    def quantified_contain(self, meta: Any, items: list[Any]) -> ast.Quantified:
        quality = ast.Contains(items[2].span, items[2])
        return ast.Quantified(self._s(meta), str(items[0]), items[1], quality)

    def count(self, meta: Any, items: list[Any]) -> ast.Count:
        return ast.Count(self._s(meta), items[0], items[1] if len(items) > 1 else None)

    def count_tuples(self, meta: Any, items: list[Any]) -> ast.Count:
        return ast.Count(self._s(meta), items[1], items[2], int(items[0]))

    def sum(self, meta: Any, items: list[Any]) -> ast.Sum:
        return ast.Sum(self._s(meta), str(items[0]), items[1])

    def call(self, meta: Any, items: list[Any]) -> ast.Call:
        return ast.Call(self._s(meta), str(items[0]), tuple(items[1:]), _token_span(self.file, items[0]))

    def tile_kind(self, meta: Any, items: list[Token]) -> ast.TileIs:
        return ast.TileIs(_token_span(self.file, items[0]), str(items[0]))

    def account_once(self, meta: Any, items: list[Token]) -> ast.AccountOnce:
        return ast.AccountOnce(self._s(meta), tuple((str(t), _token_span(self.file, t)) for t in items))

    def prefer(self, meta: Any, items: list[Token]) -> ast.Prefer:
        return ast.Prefer(self._s(meta), tuple((str(t), _token_span(self.file, t)) for t in items))

    def words(self, meta: Any, items: list[Token]) -> ast.Expr:
        names = [ast.Name(_token_span(self.file, t), str(t)) for t in items]
        if len(names) == 1:
            return names[0]
        return ast.BoolOp(self._s(meta), "and", tuple(names))

    def quality(self, meta: Any, items: list[ast.Expr]) -> ast.Expr:
        return items[0]

    def quality_contains(self, meta: Any, items: list[ast.Expr]) -> ast.Contains:
        return ast.Contains(self._s(meta), items[0])


def _plural(word: str) -> str:
    return word if word.endswith("s") else word + "s"


__all__ = ["parse", "Tree"]
