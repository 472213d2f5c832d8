"""What a statement is known by: the kind and id (or keyword) under which a later
statement replaces it, and a duplicate in one file is reported."""

from __future__ import annotations

from mjr.dsl import ast

from .play import statement_key as play_key


def statement_key(statement: ast.Statement) -> tuple[str, str] | None:
    """The kind and id (or keyword) of ``statement``; None for one with neither."""
    if isinstance(statement, ast.Fan):
        return ("fan", statement.id)
    if isinstance(statement, ast.Define):
        return ("define", statement.name)
    if isinstance(statement, ast.Require):
        return ("requirement", statement.id)
    if isinstance(statement, ast.Floor):
        return ("floor", statement.id)
    if isinstance(statement, ast.Shape):
        return ("shape", statement.id)
    if isinstance(statement, ast.Pay):
        return ("payment clause", statement.id)
    if isinstance(statement, ast.Fact):
        return ("fact", statement.id)
    if isinstance(statement, ast.Value):
        return ("value", statement.id)
    if isinstance(statement, ast.Table):
        return ("table", statement.id)
    if isinstance(statement, ast.Derive):
        return ("derived kind", statement.id)
    if isinstance(statement, ast.Example):
        return ("example", statement.title)
    if isinstance(statement, ast.Setting):
        return ("setting", statement.keyword)
    if isinstance(statement, ast.AccountOnce):
        return ("setting", "account_once")
    if isinstance(statement, ast.Prefer):
        return ("setting", "prefer")
    if isinstance(statement, ast.Options):
        return ("setting", statement.keyword)
    if isinstance(statement, ast.Tiles):
        return ("setting", "tiles")
    if isinstance(statement, ast.Deal):
        return ("setting", "deal")
    if isinstance(statement, ast.Seats):
        return ("setting", "seats")
    return play_key(statement)


def replaced_key(statement: ast.Statement) -> object:
    """What a statement of a chosen ``when`` branch replaces outside it: the same
    kind and id, the same setting, or (for a wildcard line, a ``next_dealer`` rule)
    all of that kind."""
    if isinstance(statement, ast.WildcardNone | ast.WildcardFixed | ast.WildcardIndicator):
        return ("wildcard", "")
    if isinstance(statement, ast.NextDealer):
        return ("next_dealer", "")
    key = statement_key(statement)
    return key if key is not None and key[0] != "example" else None
