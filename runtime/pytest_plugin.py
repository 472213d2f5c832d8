"""pytest plugin: every example hand of every ``.mjr`` file is a test item.

Installed with mjr (entry point ``pytest11``), so a repository of rulesets gets
the same items as mjr's own: ``rulesets/x.mjr::example title[compiled]``.  Which
files are collected: the ini option ``mjr_files`` (glob patterns relative to the
rootdir, default ``rulesets/*.mjr``).  Which backends: ``mjr_backends`` (default
``compiled python``; a compiled item is skipped where no C compiler exists).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .errors import MjrError, PurePythonWarning
from .examples import run_example
from .loader import load
from .ruleset import Ruleset


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("mjr_files", "glob patterns of .mjr files whose examples are tests", type="args",
                  default=["rulesets/*.mjr"])
    parser.addini("mjr_backends", "backends to run examples on: compiled, python", type="args",
                  default=["compiled", "python"])


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix != ".mjr":
        return None
    relative = file_path.relative_to(parent.config.rootpath).as_posix() if file_path.is_relative_to(
        parent.config.rootpath) else file_path.as_posix()
    if not any(fnmatch.fnmatch(relative, pattern) for pattern in parent.config.getini("mjr_files")):
        return None
    return MjrFile.from_parent(parent, path=file_path)


class MjrExampleFailure(Exception):
    """An example hand did not give what its ``expect`` lines say."""


class MjrFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        for backend in self.config.getini("mjr_backends"):
            ruleset, why = self._load(backend)
            if ruleset is None:
                yield MjrExampleItem.from_parent(self, name=f"[{backend}]", ruleset=None, index=-1, skip=why)
                continue
            for index, example in enumerate(ruleset.module.EXAMPLES):
                yield MjrExampleItem.from_parent(self, name=f"{example[0]}[{backend}]", ruleset=ruleset,
                                                 index=index, skip="")

    def _load(self, backend: str) -> tuple[Ruleset | None, str]:
        import warnings

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", PurePythonWarning)
                return load(self.path, backend=backend), ""
        except MjrError as error:
            if backend == "compiled" and "could not be compiled" in str(error):
                return None, str(error)
            raise self.CollectError(str(error)) from None


class MjrExampleItem(pytest.Item):
    def __init__(self, *, ruleset: Ruleset | None, index: int, skip: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.ruleset, self.index, self.skip = ruleset, index, skip

    def runtest(self) -> None:
        if self.ruleset is None:
            pytest.skip(self.skip)
        outcome = run_example(self.ruleset, self.index)
        if not outcome.passed:
            raise MjrExampleFailure("\n".join(outcome.failures))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, MjrExampleFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = self.ruleset.module.EXAMPLES[self.index][3] if self.ruleset is not None else 1
        return self.path, line - 1, f"example: {self.name}"
