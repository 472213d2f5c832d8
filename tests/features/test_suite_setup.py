"""The suite's own set-up (conftest.py): the bundled rulesets' combinations of
options compiled once before the tests start, and the ``-O0`` build of a file a
test writes."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import conftest
import pytest

import mjr
from mjr.authoring.examples import other_options
from mjr.options import describe
from mjr.ruleset.loader import bundled_ids


def test_every_bundled_combination_is_built_compiled_up_front(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each combination the examples and ``mjr test`` play, asked for once and
    compiled at ``-O0``, a numbered line said as each starts; a default build the
    install did not make is compiled first, with the flags a user's has."""
    real = mjr.load
    asked: list[tuple[str, str, tuple[tuple[str, object], ...], str | None]] = []

    def recording(name: str, backend: str = "auto", **options: object) -> mjr.Ruleset | None:
        asked.append((name, backend, tuple(sorted(options.items())), os.environ.get("CFLAGS")))
        return real(name, backend="python") if not options else None

    monkeypatch.delenv("CFLAGS", raising=False)
    monkeypatch.setattr(mjr, "load", recording)
    monkeypatch.setattr(conftest, "needs_compile", lambda ident, options: True)  # an empty cache, no install
    said: list[str] = []
    conftest.build_bundled_combinations(2, said.append)
    assert "CFLAGS" not in os.environ
    listed = [(ident, options) for ident in bundled_ids() for options in other_options(real(ident, backend="python"))]
    wanted = {(ident, "compiled", tuple(sorted(options.items())), "-O0") for ident, options in listed}
    built = [call for call in asked if call[2]]
    assert len(wanted) >= 30 and sorted(built) == sorted(wanted)  # each once
    # each default: compiled (no -O0), then loaded to list its combinations
    assert sorted(call[0] for call in asked if not call[2]) == sorted(bundled_ids() * 2)
    assert {call[1] for call in asked} == {"compiled"} and {call[3] for call in asked if not call[2]} == {None}
    ids = len(bundled_ids())
    assert said[:ids] == [f"mjr: [{n}/{ids}] compiling the default options of {ident} ..."
                          for n, ident in enumerate(bundled_ids(), 1)]
    combinations = said[ids:-1]
    numbers = [f"mjr: [{n}/{len(wanted)}" for n in range(1, 1 + len(wanted))]
    assert [line.split("]")[0] for line in combinations] == numbers
    assert sorted(line.split("] compiling ")[1] for line in combinations) == sorted(
        f"{ident} {describe(options.items())} ..." for ident, options in listed)
    assert re.fullmatch(rf"mjr: {len(wanted)} combinations of options of the bundled rulesets compiled in \d+ s",
                        said[-1])


def test_what_the_cache_holds_is_not_compiled_again(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str, dict[str, object]]] = []
    real = mjr.load

    def recording(name: str, backend: str = "auto", **options: object) -> mjr.Ruleset:
        asked.append((name, options))
        return real(name, backend="python")

    monkeypatch.setattr(mjr, "load", recording)
    monkeypatch.setattr(conftest, "needs_compile", lambda ident, options: False)
    said: list[str] = []
    conftest.build_bundled_combinations(2, said.append)
    assert said == [] and sorted(asked) == sorted((ident, {}) for ident in bundled_ids())  # listed only


def test_a_bundled_build_the_install_made_is_not_compiled_again() -> None:
    """The default builds come from the install, and whatever the suite compiled is
    found by the next run in the kept cache."""
    if not (Path(mjr.__file__).parent / "_generated" / "index.json").is_file():
        pytest.skip("a source checkout: the bundled rulesets were not built into the package")
    if mjr.load("guangdong.jipinghu").backend != "compiled":
        pytest.skip("installed without a C compiler: nothing is compiled")
    assert [ident for ident in bundled_ids() if conftest.needs_compile(ident, {})] == []
    combination = other_options(mjr.load("sichuan.xuezhan", backend="python"))[0]
    conftest.load_on("sichuan.xuezhan", "compiled", unoptimised=True, **combination)
    assert not conftest.needs_compile("sichuan.xuezhan", combination)


def test_the_kept_cache_is_the_environments_and_drops_other_builders(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    monkeypatch.setattr(sys, "base_prefix", str(tmp_path / "python"))
    stale = tmp_path / "venv" / "var" / "mjr-test-cache" / "0123456789abcdef"
    (stale / "ab").mkdir(parents=True)
    kept = conftest.kept_cache()
    assert kept is not None and kept.parent == stale.parent and re.fullmatch("[0-9a-f]{16}", kept.name)
    assert kept != conftest.default_cache() and not stale.exists()
    assert conftest.kept_cache() == kept  # the same builder: the same folder
    monkeypatch.setattr(sys, "base_prefix", str(tmp_path / "venv"))
    assert conftest.kept_cache() is None  # no virtual environment: a temporary cache per run


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


def test_a_compiled_module_older_than_its_source_stops_the_run(tmp_path: Path) -> None:
    """In an editable install's source folder: a build whose source changed since,
    or is gone, is named; another Python's build, which this one never imports, and
    an installed package are not."""
    import sysconfig

    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    table = tmp_path / "runtime" / "table"
    table.mkdir(parents=True)
    for name, built_first in (("seats", True), ("wild", False), ("bots", True)):
        built, source = table / f"{name}{suffix}", table / f"{name}.py"
        built.write_bytes(b"")
        source.write_text("x = 1\n")
        os.utime(built if built_first else source, (0, 0))
    (table / "bots.py").unlink()
    other = table / "deal.cpython-399-x86_64-linux-gnu.so"
    other.write_bytes(b"")
    os.utime(other, (0, 0))
    (table / "deal.py").write_text("x = 1\n")
    assert conftest.out_of_date_modules(tmp_path / "runtime") == [
        f"runtime/table/bots{suffix} (its source is gone: delete it)", "runtime/table/seats.py"]
    assert conftest.out_of_date_modules(table) == []  # not a source folder: an install is built whole
