"""File names in generated modules, independent of where a build was made.

A generated module records the file of every fan and example, for messages such as
``my.region.mjr:12``.  Builds are keyed on content, so one cache entry serves the
same text loaded from any folder: the module is generated with each file named by
its base name alone (:func:`portable`), and a loaded module is shown with the names
of the place it was loaded from this time (:func:`relocated`), without rebuilding.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from pathlib import PurePath
from types import ModuleType
from typing import Any

from mjr.errors import Span

from ..model import ir


def portable(ruleset: ir.Ruleset) -> ir.Ruleset:
    """``ruleset`` with every file named by its base name (made unique by position
    should two files of the chain share one)."""
    names: dict[str, str] = {}
    for index, file in enumerate(ruleset.files):
        base = PurePath(file).name
        names[file] = base if base not in names.values() else f"{index}-{base}"
    renamed: ir.Ruleset = _renamed(ruleset, names)
    return replace(renamed, files=tuple(names[file] for file in ruleset.files))


def _renamed(value: Any, names: dict[str, str]) -> Any:
    """``value`` with the file of every :class:`Span` in it renamed.  Expressions
    carry no places and are left as they are (they may nest deeply)."""
    if isinstance(value, Span):
        return replace(value, file=names.get(value.file, value.file))
    if isinstance(value, ir.Node):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _renamed(getattr(value, f.name), names) for f in fields(value) if f.init}
        return replace(value, **changes)
    if isinstance(value, tuple):
        return tuple(_renamed(item, names) for item in value)
    return value


class RelocatedModule(ModuleType):
    """A generated module seen from another place: its tables of file names
    (``FILES``, and the file column of ``FANS``, ``EXAMPLES`` and any other table)
    are rewritten; everything else is the module's own."""

    def __init__(self, module: ModuleType, tables: dict[str, Any]):
        super().__init__(module.__name__, module.__doc__)
        for attribute in ("__file__", "__spec__", "__loader__", "__package__"):
            setattr(self, attribute, getattr(module, attribute, None))
        self.__dict__["_mjr_module"] = module
        self.__dict__.update(tables)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_mjr_module"], name)


def relocated(module: ModuleType, files: tuple[str, ...]) -> ModuleType:
    """``module`` with the file names it was generated with replaced, position by
    position, by ``files``; ``module`` itself when they are the same."""
    embedded = tuple(getattr(module, "FILES", ()))
    if embedded == files or len(embedded) != len(files) or len(set(embedded)) != len(embedded):
        return module
    names = dict(zip(embedded, files, strict=True))
    tables = {}
    for attribute, value in vars(module).items():
        if attribute.isupper() and isinstance(value, tuple):
            moved = _moved(value, names)
            if moved != value:
                tables[attribute] = moved
    return RelocatedModule(module, tables)


def _moved(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, tuple):
        return tuple(_moved(item, names) for item in value)
    return value
