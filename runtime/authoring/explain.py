"""What a ruleset scores, item by item, as its ``.mjr`` text says it: the data behind
``mjr explain``.

A scored item is a fan (of kind fan, limit, bonus or multiplier), a requirement, a
floor or a payment clause (``pay`` or ``liable``).  The generated module carries each
one as written (its ``ITEMS`` table), so explaining needs the runtime alone.  Items are
found by id or by display name; one word may name several items (a bonus and the
payment clause it triggers often share an id).  A rule of play that has an id (a
``kong_pay``, an ``at_draw``, a set of ``horses``) is found the same way, as
:mod:`mjr.authoring.play_text` spells it.
"""

from __future__ import annotations

import shlex
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..errors import MjrError, closest
from ..ruleset.loaded import Ruleset
from ..ruleset.result import Result
from .examples import examples
from .play_text import PlayLine, play_lines

FAN_KINDS = ("fan", "limit", "bonus", "multiplier")
#: the section each item kind is listed under
SECTIONS = {**dict.fromkeys(FAN_KINDS, "fan"), "requirement": "requirement", "floor": "floor",
            "pay": "clause", "liable": "clause", "value": "value", "table": "table"}


@dataclass(frozen=True)
class Item:
    """One scored item.  ``value`` is a fan's or floor's value as written, or a
    clause's payer and amount ("discarder pays points"); ``condition`` is its
    condition as written; ``statement`` the whole statement, indented as written."""

    kind: str  # fan | limit | bonus | multiplier | requirement | floor | pay | liable | value | table
    id: str
    name: str
    value: str
    condition: str
    excludes: tuple[str, ...]
    file: str
    line: int
    statement: str

    @property
    def section(self) -> str:
        """``fan``, ``requirement``, ``floor``, ``clause``, ``value`` or ``table``."""
        return SECTIONS[self.kind]


@dataclass(frozen=True)
class Place:
    """Where a line of a ``.mjr`` file is: ``shown`` for people (``x.mjr:25``) and the
    file's real ``path`` where it exists (None otherwise)."""

    shown: str
    path: str | None


def items(ruleset: Ruleset) -> tuple[Item, ...]:
    """Every scored item of ``ruleset``: the fans in file order, then the requirements,
    floors, payment clauses, named values and tables."""
    return tuple(Item(*row) for row in ruleset.generated.items)


def rules(ruleset: Ruleset) -> tuple[PlayLine, ...]:
    """The rules of play that have an id and a name to be found by."""
    return tuple(line for line in play_lines(ruleset.play) if line.id and line.name)


def find_rules(ruleset: Ruleset, query: str) -> list[PlayLine]:
    """The rules of play (of :func:`rules`) whose id or display name is ``query``."""
    return [line for line in rules(ruleset) if _key(query) in (_key(line.id), _key(line.name))]


def find(ruleset: Ruleset, query: str, listing: str = "") -> list[Item]:
    """The items whose id or display name is ``query``; an error with suggestions
    (across ids and names) when neither an item nor a rule of play (see
    :func:`find_rules`) is, ending with ``listing``: the command that lists them
    all, as the caller's user would type it (default: ``mjr explain -r ID``)."""
    key = _key(query)
    found = [item for item in items(ruleset) if key in (_key(item.id), _key(item.name))]
    if found or find_rules(ruleset, query):
        return found
    raise MjrError(f"{ruleset.id} has no fan, requirement, floor, payment clause or rule of play {query!r}"
                   f"{_suggestion(query, [*items(ruleset), *rules(ruleset)])}; "
                   f"to list them all: {listing or shlex.join(['mjr', 'explain', '-r', ruleset.id])}")


def _key(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().casefold()


def _suggestion(query: str, candidates: Iterable[Item | PlayLine]) -> str:
    """`` (did you mean 'x'?)`` for the closest ids and names.  Display names are short
    (two to four CJK characters, where one wrong character is half the name), so the
    bar for them is lower than for ids."""
    by_text: dict[str, Item | PlayLine] = {}
    for item in candidates:
        by_text.setdefault(_key(item.id), item)
        by_text.setdefault(_key(item.name), item)
    wide = any(unicodedata.east_asian_width(c) in "WF" for c in query)
    close = closest(_key(query), by_text, n=3, cutoff=0.5 if wide else 0.6, lower=False)
    if not close:
        return ""
    shown = []
    for text in close:
        item = by_text[text]
        entry = f"{item.id!r} ({item.name})" if text == _key(item.name) else repr(item.id)
        if entry not in shown:
            shown.append(entry)
    return f" (did you mean {' or '.join(shown)}?)"


def place(file: str, line: int | None = None) -> Place:
    """Where ``file`` (as recorded when the ruleset was built) is now.  A file that
    exists as recorded is shown so; a bundled ruleset's file (recorded as
    ``rulesets/NAME.mjr``) is shown by its name and found in the installed package
    ``mjr.rulesets``; anything else is shown as recorded, with no path."""
    suffix = f":{line}" if line is not None else ""
    recorded = Path(file)
    if recorded.is_file():
        return Place(file + suffix, str(recorded.resolve()))
    if PurePosixPath(file).parent.as_posix() == "rulesets":
        import mjr.rulesets

        installed = Path(mjr.rulesets.__file__).resolve().parent / recorded.name
        if installed.is_file():
            return Place(recorded.name + suffix, str(installed))
    return Place(file + suffix, None)


def applies(item: Item, result: Result) -> bool:
    """Whether ``item`` takes part in ``result``: the fan is awarded, the floor taken,
    the clause pays, the requirement is the one the hand fails, or (a named value)
    the hand wins; a table is looked up by the formulas, never shown alone."""
    if item.section == "fan":
        return item.id in result.fan_ids
    if item.section == "floor":
        return result.floor == item.id
    if item.section == "clause":
        return item.id in (result.payment, result.liable)
    if item.section in ("value", "table"):
        return item.section == "value" and result.is_win
    return not result.is_win and f"requirement {item.id} " in result.reason + " "


def examples_applying(ruleset: Ruleset, chosen: list[Item]) -> list[list[tuple[str, Place]]]:
    """For each of ``chosen``, the examples of the ruleset it takes part in, as
    (title, place).  Each example is evaluated once; one that cannot be (a bad hand)
    counts for none."""
    found: list[list[tuple[str, Place]]] = [[] for _ in chosen]
    hands = [example.hand for example in ruleset.generated.examples]
    for (title, file, line), text in zip(examples(ruleset), hands, strict=True):
        try:
            result = ruleset.evaluate(text)
        except MjrError:
            continue
        for index, item in enumerate(chosen):
            if applies(item, result):
                found[index].append((title, place(file, line)))
    return found


__all__ = ["Item", "Place", "items", "rules", "find", "find_rules", "place", "applies", "examples_applying"]
