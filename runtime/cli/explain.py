"""``mjr explain``: one item of a ruleset, or its whole table, as text or JSON."""

from __future__ import annotations

from typing import Any

from ..authoring import describe, explain
from ..authoring.play_text import PlayLine, play_lines
from ..options import show
from ..ruleset.loaded import Ruleset
from .output import dump, say, table


def item_json(item: explain.Item) -> dict[str, Any]:
    where = explain.place(item.file, item.line)
    return {"kind": item.kind, "section": item.section, "id": item.id, "name": item.name, "value": item.value,
            "condition": item.condition, "excludes": list(item.excludes), "place": where.shown,
            "file": item.file, "line": item.line, "path": where.path, "source": item.statement}


def item_lines(item: explain.Item, found: list[tuple[str, explain.Place]]) -> list[str]:
    rows: list[list[object]] = [[item.section, f"{item.id} {item.name}"]]
    if item.section in ("fan", "clause"):
        rows.append(["kind", item.kind])
    if item.value:
        rows.append([{"clause": "pays", "table": "size"}.get(item.section, "value"), item.value])
    rows.append(["defined", explain.place(item.file, item.line).shown])
    lines = table(rows)
    lines += [f"    {line}" for line in item.statement.split("\n")]
    if item.section == "fan":
        lines.append(f"excludes  {' '.join(item.excludes) or '(nothing)'}")
    if item.section == "table":
        return lines
    lines.append("examples" + ("" if found else "  (no example hand of this ruleset shows it)"))
    return lines + table([[title, where.shown] for title, where in found], indent="  ")


def rule_lines(rule: PlayLine) -> list[str]:
    """A rule of play found by id or name: what it is, and its statement."""
    return [*table([[rule.keyword, f"{rule.id} {rule.name}"]]), *(f"    {line}" for line in rule.statements)]


def explain_ruleset(ruleset: Ruleset, as_json: bool) -> int:
    """The whole table of ``ruleset``: settings, then every scored item by section,
    then the rules of play."""
    generated = ruleset.generated
    files = [explain.place(file) for file in generated.files]
    every = explain.items(ruleset)
    if as_json:
        dump({"ruleset": ruleset.id, "title": ruleset.title, "native_title": ruleset.native_title,
               "files": [{"file": w.shown, "path": w.path} for w in files], "base": generated.base,
               "cap": generated.cap, "limits": generated.limits, "minimum": generated.minimum,
               "minimum_without": list(generated.minimum_without),
               "options": [option.as_json() for option in ruleset.option_table], "chosen": ruleset.options,
               "items": [item_json(item) for item in every],
               "play": [rule.as_json() for rule in play_lines(ruleset.play)]})
        return 0
    say(*table([["ruleset", f"{ruleset.id}  {ruleset.title}  {ruleset.native_title}"],
                  ["defined", " ".join(w.shown for w in files)], ["base", generated.base],
                  ["cap", f"{generated.cap} fan" if generated.cap is not None else "none"],
                  ["limits", generated.limits],
                  ["minimum", describe.minimum(ruleset)]]))
    if ruleset.option_table:
        rows = [[o.name, o.display, o.allowed(), show(ruleset.options[o.name]), show(o.default), o.section]
                for o in ruleset.option_table]
        say("", "options (-o NAME=VALUE)",
             *table([["option", "name", "values", "chosen", "default", "section"], *rows], indent="  "))
    sections = [("fans", "fan", ["id", "name", "kind", "value", "excludes"]),
                ("requirements", "requirement", ["id", "name", "condition"]),
                ("floors", "floor", ["id", "name", "value", "condition"]),
                ("payment clauses", "clause", ["id", "name", "kind", "pays", "condition"]),
                ("named values", "value", ["id", "name", "value"]),
                ("tables", "table", ["id", "name", "size"])]
    for title, section, header in sections:
        found = [_item_row(item, header) for item in every if item.section == section]
        if found or section not in ("value", "table"):  # few rulesets have these: shown only where there are
            say("", title, *(table([header, *found], indent="  ") if found else ["  (none)"]))
    say("", "rules of play", *(f"  {line}" for rule in play_lines(ruleset.play) for line in rule.statements))
    return 0


def _item_row(item: explain.Item, header: list[str]) -> list[object]:
    cells = {"id": item.id, "name": item.name, "kind": item.kind, "value": item.value, "pays": item.value,
             "size": item.value,
             "excludes": " ".join(item.excludes), "condition": item.condition}
    return [cells[column] for column in header]
