"""``mjr diff A B``: what differs between two rulesets, or one ruleset under two
choices of its table options.

Both sides are loaded rulesets; everything compared is what a loaded ruleset
exposes (its settings as the language spells them, see :mod:`mjr.authoring.describe`, its
scored items as written, see :mod:`mjr.authoring.explain`, and its rules of play as
:mod:`mjr.authoring.play_text` spells them), so a variant and its parent, two regions, or two
option choices are compared alike.  Only what differs is reported: settings row by
row, the defines by name, scored items by section and id (an item on one side only is shown against
``(none)``), rules of play by keyword or id (the dealer rules as one), table options
by name.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..options import describe as describe_options
from ..options import show
from ..ruleset.loaded import Ruleset
from . import describe, explain
from .play_text import play_lines

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import Any

#: the setting rows, in the order shown
SETTINGS: tuple[tuple[str, Callable[[Ruleset], str]], ...] = (
    ("tiles", lambda rs: f"{describe.tile_count(rs)}: {describe.tile_set(rs)}"),
    ("deal", lambda rs: str(rs.deal)),
    ("seats", lambda rs: str(rs.seats)),
    ("claims", describe.claims),
    ("win", lambda rs: " ".join(rs.win_methods)),
    ("shapes", describe.shapes),
    ("facts", lambda rs: describe.facts(rs) or "none"),
    ("score", lambda rs: rs.generated.score_text),
    ("base", lambda rs: str(rs.generated.base)),
    ("cap", lambda rs: "none" if rs.generated.cap is None else f"{rs.generated.cap} fan"),
    ("limits", lambda rs: str(rs.generated.limits)),
    ("minimum", describe.minimum),
    ("account_once", lambda rs: describe.fan_list(rs.generated.account_once)),
    ("prefer", lambda rs: describe.fan_list(rs.generated.prefer)),
)
#: the item sections, in the order shown, with their titles
SECTIONS = (("fan", "fans"), ("requirement", "requirements"), ("floor", "floors"), ("clause", "payment clauses"),
            ("value", "named values"), ("table", "tables"))
#: what of an item is compared
ITEM_FIELDS = ("name", "kind", "value", "condition", "excludes")
ABSENT = "(none)"


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a loaded ruleset and the options chosen for it."""

    ruleset: Ruleset
    chosen: Mapping[str, object]

    @property
    def label(self) -> str:
        """The ruleset id, with the options chosen on the command line."""
        choices = describe_options(self.chosen.items())
        return f"{self.ruleset.id} ({choices})" if choices else self.ruleset.id


@dataclass(frozen=True)
class Row:
    """One difference: a setting, an item (``section`` and id) or an option; a side's
    ``None`` means the ruleset has no such item or option."""

    section: str
    key: str
    left: dict[str, str] | None
    right: dict[str, str] | None

    def to_json(self) -> dict[str, Any]:
        return {"section": self.section, "key": self.key, "left": self.left, "right": self.right}


@dataclass(frozen=True)
class Diff:
    left: Side
    right: Side
    rows: tuple[Row, ...]

    @property
    def same(self) -> bool:
        return not self.rows

    def to_json(self) -> dict[str, Any]:
        return {"left": _side_json(self.left), "right": _side_json(self.right), "same": self.same,
                "differences": [row.to_json() for row in self.rows]}


def _side_json(side: Side) -> dict[str, Any]:
    options = {name: _json_value(value) for name, value in side.ruleset.options.items()}
    return {"ruleset": side.ruleset.id, "title": side.ruleset.title, "chosen": dict(side.chosen), "options": options}


def _json_value(value: object) -> object:
    return value if isinstance(value, bool | int | str) or value is None else str(value)


# --------------------------------------------------------------------------- comparing


def compare(left: Side, right: Side) -> Diff:
    """Every difference between the two sides: settings, items, rules of play, options."""
    rows = [*_setting_rows(left.ruleset, right.ruleset), *_define_rows(left.ruleset, right.ruleset),
            *_item_rows(left.ruleset, right.ruleset), *_play_rows(left.ruleset, right.ruleset),
            *_option_rows(left.ruleset, right.ruleset)]
    return Diff(left, right, tuple(rows))


def _settings(ruleset: Ruleset) -> dict[str, dict[str, str]]:
    """Each setting's value as the language spells it; a wildcard statement the
    ruleset has not is absent."""
    settings = {name: {"value": spell(ruleset)} for name, spell in SETTINGS}
    return {**settings, **{key: {"value": value} for key, value in describe.wildcard_statements(ruleset).items()}}


#: the order of the setting rows, each wildcard statement where the files have them
SETTING_ORDER = ("tiles", "deal", "seats", "claims", "win", "shapes", "wildcard", "indicator", "wildcard stand_in",
                 "wildcard may_not", "facts", "score", "base", "cap", "limits", "minimum")


def _setting_rows(left: Ruleset, right: Ruleset) -> Iterable[Row]:
    rows = _keyed_rows("setting", _settings(left), _settings(right))
    return sorted(rows, key=lambda row: SETTING_ORDER.index(row.key))


def _define_rows(left: Ruleset, right: Ruleset) -> Iterable[Row]:
    """The defines whose bodies differ: an item's condition names a define, so a
    change inside one shows here."""
    return _keyed_rows("define", {name: {"body": body} for name, body in left.generated.defines},
                       {name: {"body": body} for name, body in right.generated.defines})


def _item_fields(item: explain.Item) -> dict[str, str]:
    return {"name": item.name, "kind": item.kind, "value": item.value, "condition": item.condition,
            "excludes": " ".join(item.excludes) or "(nothing)"}


def _item_rows(left: Ruleset, right: Ruleset) -> Iterable[Row]:
    for section, _ in SECTIONS:
        ours = {item.id: _item_fields(item) for item in explain.items(left) if item.section == section}
        theirs = {item.id: _item_fields(item) for item in explain.items(right) if item.section == section}
        yield from _keyed_rows(section, ours, theirs)


def _keyed_rows(section: str, ours: dict[str, dict[str, str]], theirs: dict[str, dict[str, str]]) -> Iterable[Row]:
    """A row per key whose fields differ, or that one side lacks: the left side's
    keys in its order, then those of the right side only."""
    for key in [*ours, *(key for key in theirs if key not in ours)]:
        if ours.get(key) != theirs.get(key):
            yield Row(section, key, ours.get(key), theirs.get(key))


def _play_fields(ruleset: Ruleset) -> dict[str, dict[str, str]]:
    """Each rule of play by key: its display name and what its statements say after
    it (the dealer rules' statements joined by ``; ``)."""
    return {line.key: {"name": line.name, "value": "; ".join(line.words)} for line in play_lines(ruleset.play)}


def _play_rows(left: Ruleset, right: Ruleset) -> Iterable[Row]:
    return _keyed_rows("play", _play_fields(left), _play_fields(right))


def _option_fields(ruleset: Ruleset) -> dict[str, dict[str, str]]:
    """Each table option by name: how it is declared, and the value chosen."""
    return {option.name: {"name": option.display, "kind": option.kind, "values": option.allowed(),
                          "default": show(option.default), "chosen": show(ruleset.options[option.name])}
            for option in ruleset.option_table}


def _option_rows(left: Ruleset, right: Ruleset) -> Iterable[Row]:
    return _keyed_rows("option", _option_fields(left), _option_fields(right))


# --------------------------------------------------------------------------- loading


def add_arguments(sub: argparse.ArgumentParser) -> None:
    """The arguments of ``mjr diff``: the two rulesets, and the options for each."""
    sub.add_argument("left", metavar="A", help="a bundled ruleset id or a .mjr file")
    sub.add_argument("right", metavar="B", help="the ruleset to compare it with (A again, for other options)")
    for flag, dest, side in (("-a", "left_options", "A"), ("-b", "right_options", "B")):
        sub.add_argument(flag, dest=dest, action="append", default=[], metavar="NAME=VALUE",
                         help=f"a table option chosen for {side} only (repeatable; -o chooses for both)")


# --------------------------------------------------------------------------- text


def lines(diff: Diff, table: Callable[[list[list[object]]], list[str]]) -> list[str]:
    """The differences as text: a table per section, the two sides side by side."""
    if diff.same:
        return [f"no differences between {diff.left.label} and {diff.right.label}"]
    header: list[object] = ["", diff.left.label, diff.right.label]
    blocks = []
    for section, title in (("setting", "settings"), ("define", "defines"), *SECTIONS, ("play", "rules of play"),
                           ("option", "options")):
        body: list[list[object]] = [[row.key, *_cells(row)] for row in diff.rows if row.section == section]
        if body:
            blocks.append([title, *table([header, *body])])
    return [line for number, block in enumerate(blocks) for line in ([""] if number else []) + block]


def _cells(row: Row) -> tuple[str, str]:
    """The two sides of a row; for an item or an option, its differing fields
    after the ones that name it."""
    if row.left is None or row.right is None or row.section == "define":  # (a define is its body)
        return _summary(row.left, row.section), _summary(row.right, row.section)
    differing = [key for key in row.left if row.left[key] != row.right[key]]
    extra = [key for key in differing if key not in _SUMMARY[row.section == "option"]]
    return (" ".join([_summary(row.left, row.section), *(f"{key}: {row.left[key]}" for key in extra)]),
            " ".join([_summary(row.right, row.section), *(f"{key}: {row.right[key]}" for key in extra)]))


#: the fields that name an item (``NAME fan 3``) and an option (``NAME choice(a b) = a``)
_SUMMARY = (("name", "kind", "value"), ("name", "kind", "values", "chosen"))


def _summary(fields: dict[str, str] | None, section: str) -> str:
    if fields is None:
        return ABSENT
    if section == "setting":
        return fields["value"]
    if section == "define":
        return fields["body"]
    if section == "play":
        return " ".join(fields[key] for key in ("name", "value") if fields[key])
    if section == "option":
        return f"{fields['name']} ({fields['values']}) = {fields['chosen']}".lstrip()
    shown = _SUMMARY[0][::2] if section == "requirement" else _SUMMARY[0]  # its kind says nothing more
    return " ".join(fields[key] for key in shown if fields[key])


__all__ = ["Side", "Row", "Diff", "compare", "lines", "SETTINGS", "SECTIONS"]
