"""Wildcard lines lowered to IR: fixed wildcards, the wildcard derived from a
flipped indicator (an offset along each suit and the honour order, passing over
skipped kinds), and what a wildcard may not do."""

from __future__ import annotations

from collections.abc import Callable

from mjr.abi import MAX_JOKERS
from mjr.dsl import ast
from mjr.dsl.quoting import quoted
from mjr.errors import Span, did_you_mean
from mjr.tiles.kinds import COPIES, N_KINDS

from ..model import ir
from .tile_set import tile_kind

Report = Callable[[Span, str], None]
WILDCARD_USES = ("discard", "claim", "chow", "pung", "kong")
DEFAULT_SUCCESSOR_CYCLES = ((27, 28, 29, 30, 31, 32, 33),)
MAX_OFFSET = 8
#: The most wildcards (jokers and tiles of wild kinds) one hand of a ruleset may
#: hold.  Groups made of wildcards alone are tried for every identity a rule can
#: tell apart, so the search for a hand's groups grows about fivefold with each
#: wildcard past eight; at eight the slowest hand still scores in milliseconds
#: (the language reference, "How many wildcards").
MAX_WILDCARDS = 8


def check_jokers(tiles: ast.Tiles, report: Report) -> int:
    """The dedicated jokers of a ``tiles`` statement (``jokers N``): 1 to
    :data:`mjr.tiles.MAX_JOKERS`, given once; 0 where it names none."""
    for _count, span in tiles.joker_parts[1:]:
        report(span, "'jokers' is given twice in 'tiles': say how many once")
    if not tiles.joker_parts:
        return 0
    count, span = tiles.joker_parts[0]
    if not 1 <= count <= MAX_JOKERS:
        report(span, f"a tile set has 1 to {MAX_JOKERS} jokers, not {count} (leave 'jokers' out for none)")
        return 0
    return count


def most_wildcards(wildcards: ir.Wildcards, jokers: int, kinds: tuple[int, ...]) -> int:
    """The most wildcards one hand can hold: the jokers, and every copy of each kind
    wild at once (the fixed ones and the one an indicator of the tile set makes),
    less the copy a flipped indicator out of play takes up."""
    indicators: tuple[int, ...] = kinds if wildcards.derived else (-1,)
    most = 0
    for indicator in indicators:
        wild = {k for k in wildcards.fixed if k in kinds}
        if indicator >= 0:
            wild.add(wildcards.derived[indicator])
        copies = COPIES * len(wild) - (indicator in wild and not wildcards.indicator_in_play)
        most = max(most, copies)
    return jokers + most


def _jokers(n: int) -> str:
    return f"{n} joker{'' if n == 1 else 's'}"


def check_wildcard_count(wildcards: ir.Wildcards, jokers: int, kinds: tuple[int, ...], span: Span | None,
                         report: Report) -> None:
    """Refuse, at ``span`` (the ``jokers N``, else the last wildcard line), a ruleset
    whose hand could hold more than :data:`MAX_WILDCARDS` wildcards."""
    held = most_wildcards(wildcards, jokers, kinds)
    if held <= MAX_WILDCARDS or span is None:
        return
    wild = held - jokers
    parts = [_jokers(jokers)] if jokers else []
    parts += [f"{wild} tiles of wild kinds"] if wild else []
    room = MAX_WILDCARDS - wild
    fewer = "" if not jokers else f"; at most {_jokers(room)} here" if room > 0 else (
        "; no jokers beside these wild kinds")
    report(span, f"a hand may hold at most {MAX_WILDCARDS} wildcards, and one of this ruleset can hold {held} "
                 f"({' and '.join(parts)}): the search for a hand's groups grows about fivefold with each "
                 f"wildcard past {MAX_WILDCARDS}{fewer}")


def lower_wildcards(statements: list[ast.Statement], kinds: tuple[int, ...], report: Report,
                    jokers: int | bool = False) -> ir.Wildcards:
    """The wildcard lines of a ruleset (and its ``may_not``), checked against its
    tiles; ``may_not`` restricts the tile set's dedicated ``jokers`` too."""
    fixed: list[int] = []
    derived: tuple[int, ...] = ()
    forbidden: list[str] = []
    for statement in statements:
        if isinstance(statement, ast.WildcardFixed):
            kind = tile_kind(statement.tile, kinds, report)
            if kind is not None:
                fixed.append(kind)
        elif isinstance(statement, ast.WildcardIndicator):
            derived = successors(statement, kinds, report)
        elif isinstance(statement, ast.WildcardUse):
            for option in statement.forbidden:
                if option.name not in WILDCARD_USES:
                    report(option.span, f"unknown use {quoted(option.name)} for 'may_not'"
                                             f"{did_you_mean(option.name, WILDCARD_USES)}; the uses are "
                                             f"{', '.join(WILDCARD_USES)}")
                else:
                    forbidden.append(option.name)
            if not jokers and not any(isinstance(s, ast.WildcardFixed | ast.WildcardIndicator) for s in statements):
                report(statement.span, "'wildcard may_not' restricts wildcards, and this ruleset has none "
                                            "(no 'wildcard fixed' or 'wildcard indicator', no 'jokers' in 'tiles')")
    return ir.Wildcards(tuple(fixed), derived, tuple(forbidden))


def successors(statement: ast.WildcardIndicator, kinds: tuple[int, ...], report: Report) -> tuple[int, ...]:
    """The wildcard for each indicator: ``offset`` steps along its cycle (suits
    wrap 9 -> 1; honours follow the listed cycles), passing over skipped kinds and
    kinds not in play (``without(2m ...)``: indicator 1m points at 9m)."""
    if abs(statement.offset) > MAX_OFFSET:
        report(statement.span, f"an indicator offset is -{MAX_OFFSET} to +{MAX_OFFSET}, "
                                    f"not {statement.offset:+d}")
        return ()
    cycles: list[tuple[int, ...]] = [tuple(range(s * 9, s * 9 + 9)) for s in range(3)]
    honors: tuple[tuple[int, ...], ...] = DEFAULT_SUCCESSOR_CYCLES
    if statement.honor_cycles:
        honors = tuple(
            tuple(k for k in (tile_kind(t, kinds, report) for t in cycle) if k is not None)
            for cycle in statement.honor_cycles
        )
        listed = [k for cycle in honors for k in cycle]
        if len(set(listed)) != len(listed):
            report(statement.span, "a tile appears twice in the honour order")
    cycles += [cycle for cycle in honors if cycle]
    skip = {k for k in (tile_kind(t, kinds, report) for t in statement.skip) if k is not None}
    skip |= {k for cycle in cycles for k in cycle if k not in kinds}
    table = list(range(N_KINDS))
    for cycle in cycles:
        kept = [k for k in cycle if k not in skip]
        if not kept:
            continue
        for position, kind in enumerate(cycle):
            table[kind] = _step(cycle, position, statement.offset, skip)
    return tuple(table)


def _step(cycle: tuple[int, ...], position: int, offset: int, skip: set[int]) -> int:
    """The kind ``offset`` kept places from ``cycle[position]`` (backwards when negative)."""
    direction = 1 if offset >= 0 else -1
    for _ in range(abs(offset)):
        for _ in range(len(cycle)):
            position = (position + direction) % len(cycle)
            if cycle[position] not in skip:
                break
    return cycle[position]


def lower_derived(statements: list[ast.Derive], facts: dict[str, ir.Fact], kinds: tuple[int, ...],
                  report: Report) -> tuple[ir.Derived, ...]:
    """Each ``derive``: its indicators a tiles fact, its steps those of a derived
    wildcard (``successors``)."""
    found: list[ir.Derived] = []
    for statement in statements:
        fact = facts.get(statement.fact)
        if fact is None or fact.kind != "tiles":
            tiles = [name for name, f in facts.items() if f.kind == "tiles"]
            what = "is not a tiles fact" if fact is not None else "is not a fact of the ruleset"
            report(statement.fact_span, f"{quoted(statement.fact)} {what}: 'derive' counts the indicators of a "
                                        f"tiles fact (fact {statement.fact} \"...\" tiles 1 to 5)"
                                        f"{did_you_mean(statement.fact, tiles)}")
            continue
        table = successors(statement.order, kinds, report)
        if table:
            found.append(ir.Derived(len(found), statement.id, statement.display, fact.slot, fact.high, table,
                                    statement.span))
    return tuple(found)
