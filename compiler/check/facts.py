"""Facts of play: what a ruleset needs to know about a hand beyond its tiles.

A ``fact`` statement declares one (a flag, a number in a range, or a few tiles);
the hand notation and JSON carry its value, and expressions use it as a word (a
flag or number) or a collection (tiles).  Flags and numbers share one array of
slots in the generated module, tiles facts another (34 counts each).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from mjr.abi import ASIDE, NOTATION_WORDS
from mjr.dsl import ast
from mjr.dsl.quoting import quoted
from mjr.errors import Span

from ..model import ir
from ..model.vocabulary import ALL_WORDS, COLLECTIONS
from .tile_set import tile_kind

Report = Callable[[Span, str], None]

#: The largest number a number fact may reach, and the most tiles a tiles fact holds.
MAX_FACT_NUMBER = 1_000_000
MAX_FACT_TILES = 16


def check_facts(statements: Iterable[ast.Fact], report: Report) -> tuple[ir.Fact, ...]:
    """The facts as IR, each in its slot; a bad range or a reserved name is reported."""
    facts = []
    slots = {"values": 0, "tiles": 0}
    for statement in statements:
        name = statement.id
        if name in ALL_WORDS or name in COLLECTIONS or name in NOTATION_WORDS:
            report(statement.span, f"fact {quoted(name)} has the name of a built-in word; choose another name")
        low, high = statement.low, statement.high
        if statement.kind == "number" and not 0 <= low <= high <= MAX_FACT_NUMBER:
            report(statement.span, f"a number fact ranges over 0 to {MAX_FACT_NUMBER:,}, low to high: "
                                   f"not {low} to {high}")
        if statement.kind == "tiles" and not 0 <= low <= high <= MAX_FACT_TILES:
            report(statement.span, f"a tiles fact holds 0 to {MAX_FACT_TILES} tiles, fewest to most: "
                                   f"not {low} to {high}")
        table = "tiles" if statement.kind == "tiles" else "values"
        facts.append(ir.Fact(name, statement.display, statement.kind, low, high, slots[table], statement.span))
        slots[table] += 1
    return tuple(facts)


def aside_kinds(tiles: ast.Tiles, kinds: tuple[int, ...], report: Report) -> tuple[int, ...]:
    """The kinds ``tiles ... aside(...)`` sets aside, in kind order: each a kind of
    the tile set, named once; at least one kind must stay in play."""
    found: list[int] = []
    for ref in tiles.aside:
        kind = tile_kind(ref, kinds, report)
        if kind is None:
            continue
        if kind in found:
            report(ref.span, f"tile {ref.text} is set aside twice in 'aside(...)'")
            continue
        found.append(kind)
    if found and len(found) == len(kinds):
        report(tiles.aside[0].span, "'aside(...)' sets every kind of the tile set aside: a hand needs tiles in play")
        return ()
    return tuple(sorted(found))


def aside_collection(facts: tuple[ir.Fact, ...], aside: tuple[int, ...], span: Span) -> ir.Fact:
    """The collection of the tiles a hand has set aside, read as a tiles fact is
    (``count(aside where wind)``): its 34 counts follow the declared tiles facts."""
    slot = sum(1 for fact in facts if fact.kind == "tiles")
    return ir.Fact(ASIDE, "set aside", "tiles", 0, 4 * len(aside), slot, span)
