"""The suite's own set-up (conftest.py): the bundled rulesets' combinations of
options compiled once before the tests start, and the ``-O0`` build of a file a
test writes."""

from __future__ import annotations

import os
from pathlib import Path

import conftest
import pytest

import mjr
from mjr.authoring.examples import other_options
from mjr.ruleset.loader import bundled_ids


def test_every_bundled_combination_is_built_compiled_up_front(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each combination the examples and ``mjr test`` play, asked for once and
    compiled at ``-O0``; the defaults are only read (they were built at install)."""
    real = mjr.load
    asked: list[tuple[str, str, tuple[tuple[str, object], ...]]] = []
    flags: list[str | None] = []

    def recording(name: str, backend: str = "auto", **options: object) -> mjr.Ruleset | None:
        asked.append((name, backend, tuple(sorted(options.items()))))
        if options:
            flags.append(os.environ.get("CFLAGS"))
        return real(name, backend="python") if not options else None

    monkeypatch.delenv("CFLAGS", raising=False)
    monkeypatch.setattr(mjr, "load", recording)
    conftest.build_bundled_combinations(2)
    assert set(flags) == {"-O0"} and "CFLAGS" not in os.environ
    wanted = {(ident, "compiled", tuple(sorted(options.items())))
              for ident in bundled_ids() for options in other_options(real(ident, backend="python"))}
    built = [call for call in asked if call[2]]
    assert len(wanted) >= 30 and sorted(built) == sorted(wanted)  # each once
    assert sorted(call[0] for call in asked if not call[2]) == sorted(bundled_ids())
    assert {call[1] for call in asked} == {"compiled"}


def test_a_combination_that_fails_to_build_is_left_to_its_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    real = mjr.load

    def failing(name: str, backend: str = "auto", **options: object) -> mjr.Ruleset:
        if options or name == "changsha":
            raise mjr.MjrError(f"cannot build {name}")
        return real(name, backend="python")

    monkeypatch.setattr(mjr, "load", failing)
    conftest.build_bundled_combinations(2)  # no error: the examples report it


@pytest.mark.parametrize("before", [None, "-march=native"])
def test_the_unoptimised_flags_win_and_are_undone(monkeypatch: pytest.MonkeyPatch, before: str | None) -> None:
    if before is None:
        monkeypatch.delenv("CFLAGS", raising=False)
    else:
        monkeypatch.setenv("CFLAGS", before)
    with conftest._c_flags("-O0"):
        assert os.environ["CFLAGS"] == ("-O0" if before is None else f"{before} -O0")
    assert os.environ.get("CFLAGS") == before


def test_load_on_compiles_a_written_file_unoptimised(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: list[str | None] = []

    def recording(name: str | Path, backend: str = "auto", **options: object) -> None:
        seen.append(os.environ.get("CFLAGS"))

    monkeypatch.delenv("CFLAGS", raising=False)
    monkeypatch.setattr(mjr, "load", recording)
    conftest.load_on(tmp_path / "t.mjr", "compiled", unoptimised=True)
    conftest.load_on(tmp_path / "t.mjr", "compiled")
    conftest.load_on(tmp_path / "t.mjr", "python", unoptimised=True)
    assert seen == ["-O0", None, None] and "CFLAGS" not in os.environ
