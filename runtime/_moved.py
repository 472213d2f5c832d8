"""Module paths of mjr 0.1 that moved when the runtime became rooms (see the
changelog): ``import mjr.bots`` still works for this minor release, as the module
at its new path (``mjr.table.bots``), with a :class:`DeprecationWarning` naming
it.  Delete this module, and its one line in ``mjr/__init__.py``, in 0.3.
"""

from __future__ import annotations

import sys
from importlib.machinery import ModuleSpec
from types import ModuleType

#: an old submodule of mjr -> where it is now
MOVED = {
    "actions": "table.actions",
    "aside": "tiles.aside",
    "batch": "ruleset.counts",
    "batch_options": "cli.score",
    "batches": "ruleset.batches",
    "batchfile": "jobs.score_file",
    "bots": "table.bots",
    "describe": "authoring.describe",
    "diff": "authoring.diff",
    "examples": "authoring.examples",
    "executor": "jobs.executor",
    "explain": "authoring.explain",
    "explain_output": "cli.explain",
    "facts": "ruleset.facts",
    "flowers": "tiles.flowers",
    "hand_end": "table.close",
    "hand_fields": "hand.fields",
    "hand_json": "notation.json",
    "jokers": "tiles.jokers",
    "lexer": "plugins.highlight",
    "loader": "ruleset.loader",
    "notation_errors": "errors",
    "notation_format": "notation.format",
    "notation_jokers": "notation.jokers",
    "notation_scan": "notation.scan",
    "notation_tiles": "notation.tiles",
    "output": "cli.output",
    "play_cli": "cli.play",
    "play_log": "table.log",
    "play_rules": "ruleset.rules_of_play",
    "play_text": "authoring.play_text",
    "pymahjonggb": "plugins.pymahjonggb",
    "pytest_plugin": "plugins.pytest_plugin",
    "records": "ruleset.records",
    "red": "tiles.red",
    "result": "ruleset.result",
    "ruleset_checks": "ruleset.checks",
    "seats": "table.seats",
    "session": "table.session",
    "settle": "ruleset.settle",
    "simulate_cli": "cli.simulate",
    "simulate_json": "simulate.report",
    "simulate_plot": "simulate.plot",
    "table_deal": "table.deal",
    "tables": "ruleset.kernels",
    "wall": "table.wall",
    "wild_play": "table.wild",
}


class _MovedFinder:
    """Finds an old path of :data:`MOVED` (and nothing else) for the import system."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        old = name.removeprefix("mjr.")
        if old == name or old not in MOVED:
            return None
        # a loader by its two methods: importlib.abc.Loader would import typing at every start
        return ModuleSpec(name, _MovedLoader(f"mjr.{MOVED[old]}"))  # type: ignore[arg-type]


class _MovedLoader:
    """Makes the old path a module that hands every attribute on to the new one."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: ModuleSpec) -> None:
        return None  # the default: a plain module, filled in below

    def exec_module(self, module: ModuleType) -> None:
        import importlib
        import warnings

        warnings.warn(f"{module.__name__} is now {self.new}; the old path goes in mjr 0.3",
                      DeprecationWarning, stacklevel=2)
        target = importlib.import_module(self.new)
        module.__getattr__ = lambda name: getattr(target, name)  # type: ignore[method-assign]
        module.__dir__ = lambda: dir(target)  # type: ignore[method-assign]
        module.__doc__ = target.__doc__


def install() -> None:
    if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(_MovedFinder())
