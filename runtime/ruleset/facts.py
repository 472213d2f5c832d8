"""The facts of play a ruleset declares, as the runtime checks them.

A generated module lists its facts in ``FACTS`` as ``(id, display name, kind, low,
high, slot)``: flags and numbers share one array of slots, tiles facts another (34
counts each), in a hand's record (:mod:`mjr.ruleset.records`).  A hand gives facts in its
context (:attr:`mjr.Context.facts`); a fact it leaves out takes its low end (a flag
false, no tiles).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import did_you_mean
from ..hand.model import Context
from ..tiles.kinds import tile_name


@dataclass(frozen=True)
class Fact:
    """One declared fact of play."""

    id: str
    name: str
    kind: str  # flag | number | tiles
    low: int
    high: int
    slot: int


class Facts:
    """A ruleset's declared facts: what its hands may give."""

    def __init__(self, rows: Iterable[tuple[str, str, str, int, int, int]]):
        self.by_id = {row[0]: Fact(*row) for row in rows}
        self.kinds = {fact.id: fact.kind for fact in self.by_id.values()}

    def problem(self, context: Context, ruleset: str, kinds: frozenset[int]) -> str | None:
        """Why the facts ``context`` gives do not suit this ruleset, or ``None``."""
        given = {name for name, _ in context.facts}
        for fact in self.by_id.values():
            if fact.kind == "tiles" and fact.low > 0 and fact.id not in given:
                return f"{ruleset} needs fact {fact.id!r}: {fact.low} to {fact.high} tiles, as in '{fact.id} 3m'"
        for name, value in context.facts:
            declared = self.by_id.get(name)
            if declared is None:
                listed = ", ".join(sorted(self.by_id)) or "none"
                return (f"{ruleset} has no fact of play {name!r}{did_you_mean(name, self.by_id)} "
                        f"(its facts: {listed})")
            problem = _value_problem(declared, value, kinds)
            if problem is not None:
                return f"fact {name!r}: {problem}"
        return None


def _value_problem(fact: Fact, value: object, kinds: frozenset[int]) -> str | None:
    if fact.kind == "flag":
        return None if value is True else "a flag is given by its name alone"
    if fact.kind == "number":
        if type(value) is not int:
            return f"a number from {fact.low} to {fact.high} is expected"
        return None if fact.low <= value <= fact.high else f"{value} is outside {fact.low} to {fact.high}"
    if type(value) is not tuple:
        return f"tiles are expected ({fact.low} to {fact.high} of them)"
    if not fact.low <= len(value) <= fact.high:
        return f"{len(value)} tiles: {fact.low} to {fact.high} are expected"
    foreign = [kind for kind in value if kind not in kinds]
    return f"tile {tile_name(foreign[0])} is not in the tile set" if foreign else None
