"""pytest plugin: every example hand of every ``.mjr`` file is a test item.

Installed with mjr (entry point ``pytest11``), so a repository of rulesets gets
the same items as mjr's own: ``rulesets/x.mjr::example title[compiled]`` (the
title as :func:`example_names` makes it selectable on pytest's command line).  Which
files are collected: a ``.mjr`` file named on the command line, always (as pytest
collects a test file given explicitly whatever its patterns say); otherwise those
matching the ini option ``mjr_files`` (glob patterns relative to the rootdir where
``*`` stays within a folder and ``**/`` spans any number of them, default
``rulesets/**/*.mjr``).  Which backends: ``mjr_backends`` (default ``compiled
python``; a compiled item is skipped where no C compiler exists).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from ..authoring.examples import other_options, run_example
from ..errors import MjrError, PurePythonWarning
from ..ruleset.loaded import Ruleset
from ..ruleset.loader import load


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


_NOT_IN_A_NAME = [
    (re.compile(r":{2,}"), ":"),  # "::" separates the parts of a node id
    (re.compile(r"\["), "("), (re.compile(r"\]"), ")"),  # "[" starts the backend's label
    (re.compile(r"\s+"), " "),  # a tab or a line break in a title
]


def example_names(titles: Sequence[str]) -> list[str]:
    """The pytest name of each example of a file (before its ``[backend]`` label), such
    that ``pytest "FILE::NAME[LABEL]"`` selects it and ``pytest "FILE::NAME"`` selects
    it on every backend: its title with every run of colons made one colon, square
    brackets made round ones and white space made one space; a name that another
    example of the file already has gets " (2)", " (3)", ... after it, in file order."""
    names: list[str] = []
    taken: set[str] = set()
    for title in titles:
        name = title.strip()
        for pattern, replacement in _NOT_IN_A_NAME:
            name = pattern.sub(replacement, name)
        name = name or "(untitled)"
        unique, number = name, 1
        while unique in taken:
            number += 1
            unique = f"{name} ({number})"
        taken.add(unique)
        names.append(unique)
    return names


class MjrExampleFailure(Exception):
    """An example hand did not give what its ``expect`` lines say."""


class MjrFile(pytest.File):
    """A ``.mjr`` file: its examples under each backend and each combination of
    options they are played under.

    A combination other than the file's defaults is listed from its interpreted
    build (generated, not compiled) and compiled when its first example runs: with
    the tests spread over processes (pytest-xdist), each combination is then
    compiled once, by the process that runs its examples (they are one
    ``xdist_group``), rather than by every process while it collects."""

    def collect(self) -> Iterator[pytest.Item]:
        self._built: dict[tuple[str, str], Ruleset] = {}
        grouped = self.config.pluginmanager.hasplugin("xdist")
        for backend in self.config.getini("mjr_backends"):
            ruleset, why = self._load(backend)
            if ruleset is None:
                yield MjrExampleItem.from_parent(self, name=f"[{backend}]", ruleset=None, index=-1, skip=why)
                continue
            for options in [None, *other_options(ruleset)]:
                listed = ruleset if options is None else self._build("python", options)
                later = options is not None and backend != "python"  # compiled when its first example runs
                build = partial(self._build, backend, options) if options is not None and later else None
                label = f"{backend} {listed.chosen_text()}".rstrip()  # the options where not the defaults
                titles = [example.title for example in listed.generated.examples]
                for index, name in enumerate(example_names(titles)):
                    item = MjrExampleItem.from_parent(self, name=f"{name}[{label}]", ruleset=listed,
                                                      index=index, skip="", build=build)
                    if grouped:
                        item.add_marker(pytest.mark.xdist_group(f"{self.path.name}[{label}]"))
                    yield item

    def _build(self, backend: str, options: dict[str, object]) -> Ruleset:
        """The ruleset under other options than its defaults, built on first need."""
        key = (backend, repr(sorted(options.items())))
        if key not in self._built:
            try:
                self._built[key] = load(self.path, backend=backend, **options)
            except MjrError as error:
                if backend != "python":
                    raise  # when its example runs: a failure of that example
                raise self.CollectError(str(error)) from None
        return self._built[key]

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
    def __init__(self, *, ruleset: Ruleset | None, index: int, skip: str,
                 build: Callable[[], Ruleset] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        #: ``ruleset`` lists the example; ``build``, when given, makes the build it runs on
        self.ruleset, self.index, self.skip, self.build = ruleset, index, skip, build

    def runtest(self) -> None:
        if self.ruleset is None:
            pytest.skip(self.skip)
        try:
            ruleset = self.build() if self.build is not None else self.ruleset
        except MjrError as error:
            raise MjrExampleFailure(str(error)) from None
        outcome = run_example(ruleset, self.index)
        if not outcome.passed:
            raise MjrExampleFailure("\n".join(outcome.failures))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, MjrExampleFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = self.ruleset.generated.examples[self.index].line if self.ruleset is not None else 1
        return self.path, line - 1, f"example: {self.name}"
