"""What a variant does to the statements it inherits: ``drop``, and a ``tiles`` line
that leaves out tiles an inherited wildcard line names.

A ``drop`` says which kind of statement it removes (``drop floor three_winners``);
a bare ``drop ID`` is refused where the id names statements of two kinds, since a
floor and a payment clause may share an id and dropping both is rarely meant.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping

from mjr.dsl import ast
from mjr.dsl.quoting import quoted
from mjr.errors import Span, did_you_mean
from mjr.tiles.kinds import N_KINDS, parse_tile

Report = Callable[[Span, str], None]

#: The word of ``drop KIND`` for each fan kind: a fan of any kind is a fan.
_FAN_WORDS = ("fan", "limit", "bonus", "multiplier")
#: How a message names a statement of each kind.
_NAMES = {"fan": "fan", "limit": "limit", "bonus": "bonus", "multiplier": "multiplier", "require": "requirement",
          "floor": "floor", "pay": "payment clause", "liable": "liable clause", "define": "define",
          "shape": "shape", "fact": "fact", "kong_pay": "kong payment", "at_draw": "draw check",
          "at_end": "end payment", "at_win": "win payment", "value": "value", "table": "table",
          "derive": "derived kind", "declare": "declaration", "abort": "abortive draw"}


def _a(name: str) -> str:
    """``name`` with its article: "a fan", "an end payment"."""
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def kind_word(statement: ast.Statement) -> str:
    """The word ``drop`` uses for ``statement``'s kind."""
    if isinstance(statement, ast.Fan):
        return statement.kind
    if isinstance(statement, ast.Pay):
        return "liable" if statement.liable else "pay"
    if isinstance(statement, ast.AtDraw):
        return statement.keyword
    return {ast.Require: "require", ast.Floor: "floor", ast.Define: "define", ast.Shape: "shape",
            ast.Fact: "fact", ast.KongPay: "kong_pay", ast.Value: "value",
            ast.Table: "table", ast.Derive: "derive", ast.Declare: "declare", ast.Abort: "abort"}[type(statement)]


def _matches(kind: str, statement: ast.Statement) -> bool:
    word = kind_word(statement)
    return word == kind or (kind in _FAN_WORDS and word in _FAN_WORDS)


def apply_drop(drop: ast.Drop, tables: tuple[MutableMapping[str, ast.Statement], ...], report: Report) -> None:
    """Remove what ``drop`` names from ``tables`` (fans, requirements, floors,
    payment clauses, defines, shapes, facts, kong payments, draw checks), or report
    why it cannot."""
    for ident, span in drop.ids:
        found = [(table, table[ident]) for table in tables if ident in table]
        if drop.kind is not None:
            _drop_kind(drop.kind, ident, span, found, tables, report)
        elif not found:
            candidates = [name for table in tables for name in table]
            report(span, f"unknown name {quoted(ident)} to drop{did_you_mean(ident, candidates)}")
        elif len({kind_word(statement) for _, statement in found}) > 1:
            kinds = [kind_word(statement) for _, statement in found]
            named = " and ".join(_a(_NAMES[k]) for k in kinds)
            forms = " or ".join(f"'drop {k} {ident}'" for k in kinds)
            report(span, f"{quoted(ident)} names {named}: say which to drop: {forms}")
        else:
            for table, _ in found:
                del table[ident]


def _drop_kind(kind: str, ident: str, span: Span, found: list[tuple[MutableMapping[str, ast.Statement],
               ast.Statement]], tables: tuple[Mapping[str, ast.Statement], ...], report: Report) -> None:
    """``drop KIND ident``: only the statement of that kind goes."""
    for table, statement in found:
        if _matches(kind, statement):
            del table[ident]
            return
    if found:
        others = [kind_word(statement) for _, statement in found]
        named = " and ".join(_a(_NAMES[k]) for k in others)
        forms = " or ".join(f"'drop {k} {ident}'" for k in others)
        report(span, f"there is no {_NAMES[kind]} {quoted(ident)} to drop: {quoted(ident)} is {named} ({forms})")
        return
    candidates = [name for table in tables for name, statement in table.items() if _matches(kind, statement)]
    report(span, f"unknown {_NAMES[kind]} {quoted(ident)} to drop{did_you_mean(ident, candidates)}")


# -- a variant's tile set under inherited wildcard lines ---------------------------


def wildcard_kinds(files: list[str], tiles: ast.Statement | None, wildcards: list[ast.Statement],
                   kinds: tuple[int, ...], report: Report) -> tuple[int, ...]:
    """The kinds the wildcard lines' tiles are checked against.  A variant whose
    ``tiles`` leaves out tiles an inherited wildcard line names is told so once, at
    its own ``tiles`` line (the parent's line is not wrong), and the wildcard lines
    are then not checked tile by tile (every kind passes)."""
    if tiles is None:
        return kinds
    order = {file: index for index, file in enumerate(files)}
    inherited = [s for s in wildcards if order.get(s.span.file, 0) < order.get(tiles.span.file, 0)]
    missing = [ref.text for s in inherited for ref in _tile_refs(s) if _kind_of(ref) not in (*kinds, None)]
    if not missing:
        return kinds
    report(tiles.span, f"this tile set leaves out {', '.join(dict.fromkeys(missing))}, which the inherited "
                       f"wildcard line at {inherited[0].span} names: restate the wildcard lines in this file "
                       f"with tiles of this set (or 'wildcard none')")
    return tuple(range(N_KINDS))


def _tile_refs(statement: ast.Statement) -> tuple[ast.TileRef, ...]:
    """The tiles a wildcard line names."""
    if isinstance(statement, ast.WildcardFixed):
        return (statement.tile,)
    if isinstance(statement, ast.WildcardIndicator):
        return (*(ref for cycle in statement.honor_cycles for ref in cycle), *statement.skip)
    return ()


def _kind_of(ref: ast.TileRef) -> int | None:
    try:
        return parse_tile(ref.text)
    except ValueError:
        return None
