"""A loaded ruleset's settings in the words of the ``.mjr`` language, from the
generated module's tables alone: what ``mjr diff`` compares and the region index
tabulates.

The generated module keeps the settings as data (tile kinds, a 34-entry wildcard
table), not as the statements that made them, so each setting is spelled back
from its data here.  Two rulesets whose settings act alike are spelled alike,
whatever the statements that produced them.
"""

from __future__ import annotations

from ..ruleset.loaded import Ruleset
from ..tiles.kinds import FIRST_HONOR, N_KINDS, SUIT_LETTERS, tile_text

FIRST_DRAGON = 31


def minimum(ruleset: Ruleset) -> str:
    """``8 fan``, with the fans left out of it (``8 fan without extras``), or ``none``."""
    generated = ruleset.generated
    if generated.minimum is None:
        return "none"
    without = generated.minimum_without
    return f"{generated.minimum} fan" + (f" without {' '.join(without)}" if without else "")


def fan_list(fans: tuple[str, ...]) -> str:
    """The fans a statement lists (``account_once``, ``prefer``), or ``none``."""
    return " ".join(fans) or "none"


def tile_count(ruleset: Ruleset) -> int:
    """How many tiles the set has, flowers aside: four of each kind in play or set
    aside as drawn."""
    return 4 * len(ruleset.kinds | ruleset.aside_kinds)


def tile_set(ruleset: Ruleset) -> str:
    """The ``tiles`` statement: ``suits(m p s) winds dragons``, ``aside(E S)``
    where it sets kinds aside, and ``without(2m 3m)`` where it leaves kinds out of
    the suits, winds or dragons it names."""
    kinds = ruleset.kinds | ruleset.aside_kinds
    every_suit = [(letter, range(9 * index, 9 * index + 9)) for index, letter in enumerate(SUIT_LETTERS)]
    every_honour = [("winds", range(FIRST_HONOR, FIRST_DRAGON)), ("dragons", range(FIRST_DRAGON, N_KINDS))]
    suits = [(letter, group) for letter, group in every_suit if any(kind in kinds for kind in group)]
    honours = [(word, group) for word, group in every_honour if any(kind in kinds for kind in group)]
    parts = [f"suits({' '.join(letter for letter, _ in suits)})"] if suits else []
    parts += [word for word, _ in honours]
    if ruleset.aside_kinds:
        parts.append(f"aside({' '.join(tile_text(k) for k in sorted(ruleset.aside_kinds))})")
    left_out = [kind for _, group in (*suits, *honours) for kind in group if kind not in kinds]
    if left_out:
        parts.append(f"without({' '.join(tile_text(k) for k in left_out)})")
    return " ".join(parts)


def claims(ruleset: Ruleset) -> str:
    """The ``claims`` statement's options: ``chow(left) pung kong``."""
    return " ".join(f"{claim}({' '.join(limits)})" if limits else claim for claim, limits in ruleset.claims.items())


def shapes(ruleset: Ruleset) -> str:
    """The built-in winning shapes (``standard seven_pairs(fours)``), then each
    declared shape by id and display name."""
    standard, seven_pairs, orphans, knitted = ruleset.generated.shapes
    names = [("standard(knitted)" if knitted else "standard")] if standard else []
    if seven_pairs:
        names.append("seven_pairs(fours)" if seven_pairs == 2 else "seven_pairs")
    if orphans:
        names.append("thirteen_orphans")
    names += [f"{ident} {name}" for ident, name in ruleset.generated.declared_shapes]
    return " ".join(names)


def wildcard_kind(ruleset: Ruleset) -> str:
    """What kind of wildcard the ruleset has: ``none``, ``fixed P``, ``indicator +1``
    (with ``, stand-in P`` when a tile plays as the wildcard's kind)."""
    generated = ruleset.generated
    kinds = []
    if generated.wild_fixed:
        kinds.append("fixed " + " ".join(tile_text(kind) for kind in generated.wild_fixed))
    if generated.wild_derived:
        kinds.append(f"indicator {_suit_step(ruleset)}")
    if generated.wild_stand_in >= 0:
        kinds.append(f"stand-in {tile_text(generated.wild_stand_in)}")
    return ", ".join(kinds) or "none"


def wildcard_statements(ruleset: Ruleset) -> dict[str, str]:
    """The wildcard statements by what they set, each as the language would write
    what follows: ``{"wildcard": "indicator + 1 honors(E S W N C F P)",
    "indicator": "out_of_play", "wildcard may_not": "discard claim"}``."""
    generated = ruleset.generated
    kinds = [f"fixed {tile_text(kind)}" for kind in generated.wild_fixed]
    if generated.wild_derived:
        kinds.append(" ".join(["indicator", _suit_step(ruleset), *_honour_order(ruleset)]))
    found = {"wildcard": ", ".join(kinds) or "none"}
    if generated.wild_derived:
        found["indicator"] = "in_play" if generated.indicator_in_play else "out_of_play"
    if generated.wild_stand_in >= 0:
        found["wildcard stand_in"] = tile_text(generated.wild_stand_in)
    if generated.wild_forbidden:
        found["wildcard may_not"] = " ".join(generated.wild_forbidden)
    return found


def wildcard_lines(ruleset: Ruleset) -> list[str]:
    """The wildcard statements, one a line, as the language would write them."""
    lines = []
    for key, value in wildcard_statements(ruleset).items():
        values = value.split(", ") if key == "wildcard" else [value]
        lines += [f"{key} {each}" for each in values]
    return lines


def _suit_step(ruleset: Ruleset) -> str:
    """How far along its suit the wildcard is from the indicator: ``+ 1``; a table
    that is no one step is spelled tile by tile (``1m>3m 2m>1m ...``)."""
    derived = ruleset.generated.wild_derived
    suited = [kind for kind in sorted(ruleset.kinds) if kind < FIRST_HONOR]
    steps = {(derived[kind] - kind) % 9 for kind in suited if derived[kind] // 9 == kind // 9}
    if len(steps) == 1 and all(derived[kind] // 9 == kind // 9 for kind in suited):
        step = steps.pop()
        return f"+ {step}" if step <= 4 else f"- {9 - step}"
    return " ".join(f"{tile_text(kind)}>{tile_text(derived[kind])}" for kind in suited)


def _honour_order(ruleset: Ruleset) -> list[str]:
    """The honours' order as cycles, ``honors(E S W N) (P F C)``; nothing when each
    honour is its own wildcard; tile by tile when the table is no set of cycles."""
    derived = ruleset.generated.wild_derived
    honours = [kind for kind in range(FIRST_HONOR, N_KINDS) if kind in ruleset.kinds]
    if all(derived[kind] == kind for kind in honours):
        return []
    if sorted(derived[kind] for kind in honours) != honours:
        return [" ".join(f"{tile_text(kind)}>{tile_text(derived[kind])}" for kind in honours)]
    cycles, seen = [], set()
    for start in honours:
        cycle, kind = [], start
        while kind not in seen:
            seen.add(kind)
            cycle.append(tile_text(kind))
            kind = derived[kind]
        if cycle:
            cycles.append(f"({' '.join(cycle)})")
    return ["honors" + " ".join(cycles)]


def facts(ruleset: Ruleset) -> str:
    """The facts of play the ruleset declares: ``ID NAME number LOW to HIGH``, ``ID NAME flag``."""
    return ", ".join(f"{fact.id} {fact.name} {fact.kind}"
                     + ("" if fact.kind == "flag" else f" {fact.low} to {fact.high}")
                     for fact in ruleset.facts.by_id.values())


def option_names(ruleset: Ruleset) -> tuple[str, ...]:
    """The names of the ruleset's table options (none for a ruleset without)."""
    return tuple(str(getattr(option, "name", option)) for option in getattr(ruleset, "option_table", ()))


__all__ = ["tile_text", "tile_count", "tile_set", "claims", "shapes", "wildcard_kind", "wildcard_statements",
           "wildcard_lines", "facts",
           "option_names"]
