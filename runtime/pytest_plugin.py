"""pytest plugin: every example hand of every ``.mjr`` file is a test item.

Installed with mjr (entry point ``pytest11``), so a repository of rulesets gets
the same items as mjr's own: ``rulesets/x.mjr::example title[compiled]``.  Which
files are collected: a ``.mjr`` file named on the command line, always (as pytest
collects a test file given explicitly whatever its patterns say); otherwise those
matching the ini option ``mjr_files`` (glob patterns relative to the rootdir where
``*`` stays within a folder and ``**/`` spans any number of them, default
``rulesets/**/*.mjr``).  Which backends: ``mjr_backends`` (default ``compiled
python``; a compiled item is skipped where no C compiler exists).
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from .errors import MjrError, PurePythonWarning
from .examples import combinations, run_example
from .loader import load
from .ruleset import Ruleset


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("mjr_files", "glob patterns of .mjr files whose examples are tests", type="args",
                  default=["rulesets/**/*.mjr"])
    parser.addini("mjr_backends", "backends to run examples on: compiled, python", type="args",
                  default=["compiled", "python"])


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix != ".mjr":
        return None
    if not parent.session.isinitpath(file_path):
        root = parent.config.rootpath
        relative = file_path.relative_to(root).as_posix() if file_path.is_relative_to(root) else file_path.as_posix()
        if not any(glob_matches(relative, pattern) for pattern in parent.config.getini("mjr_files")):
            return None
    return MjrFile.from_parent(parent, path=file_path)


def glob_matches(path: str, pattern: str) -> bool:
    """Whether a '/'-separated ``path`` matches a glob ``pattern`` whose ``*``, ``?`` and
    ``[...]`` stay within one folder and whose ``**`` folder stands for any number of
    folders (none included): ``rulesets/**/*.mjr`` matches ``rulesets/a.mjr`` and
    ``rulesets/x/y/a.mjr``."""
    return _segments_match(path.split("/"), pattern.split("/"))


def _segments_match(parts: list[str], patterns: list[str]) -> bool:
    if not patterns:
        return not parts
    if patterns[0] == "**":
        return any(_segments_match(parts[skip:], patterns[1:]) for skip in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatch(parts[0], patterns[0]) and _segments_match(parts[1:], patterns[1:])


class MjrExampleFailure(Exception):
    """An example hand did not give what its ``expect`` lines say."""


class MjrFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        for backend in self.config.getini("mjr_backends"):
            ruleset, why = self._load(backend)
            if ruleset is None:
                yield MjrExampleItem.from_parent(self, name=f"[{backend}]", ruleset=None, index=-1, skip=why)
                continue
            workers = (os.cpu_count() or 1) if backend == "compiled" else 1  # compiles run side by side
            for each in combinations(ruleset, partial(self._load_under, backend), workers):
                label = f"{backend} {each.chosen_text()}".rstrip()  # the options where not the defaults
                for index, example in enumerate(each.module.EXAMPLES):
                    yield MjrExampleItem.from_parent(self, name=f"{example[0]}[{label}]", ruleset=each,
                                                     index=index, skip="")

    def _load_under(self, backend: str, options: dict[str, object]) -> Ruleset:
        """The ruleset under other options than its defaults, for their examples."""
        try:
            return load(self.path, backend=backend, **options)
        except MjrError as error:
            raise self.CollectError(str(error)) from None

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
