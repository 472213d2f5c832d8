"""The build cache as a place: a folder that cannot be used is not an error (one
warning, then a temporary folder), an empty MJR_CACHE_DIR is unset, ``mjr cache
info`` and ``mjr cache clear`` show and empty it, and the test run itself never
writes into the default cache location."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import mjr
from mjr import cli
from mjr.compiler import cache
from mjr.errors import CacheWarning

HAND = "123m 456m 789m 234m 5m win 5m"
RULESET = """ruleset cache.place "Cache place" {
    tiles suits(m p s)
    fan plain "Plain" 1 : standard
    fan flush "Flush" 3 : suits == 1
}
"""


@pytest.fixture
def ruleset_file(tmp_path: Path) -> Path:
    path = tmp_path / "cache.place.mjr"
    path.write_text(RULESET, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def first_trouble(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts as a process that has not met cache trouble yet."""
    monkeypatch.setattr(cache, "_fallback", [])


def load_warning(path: Path) -> tuple[mjr.Ruleset, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ruleset = mjr.load(path, backend="python")
    return ruleset, [str(w.message) for w in caught if issubclass(w.category, CacheWarning)]


@pytest.mark.parametrize("where", ["a_file", "a_file/below", "missing/../a_file/x"])
def test_an_unusable_cache_folder_falls_back_with_one_warning(tmp_path: Path, ruleset_file: Path,
                                                              monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    (tmp_path / "a_file").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("MJR_CACHE_DIR", str(tmp_path / where))
    ruleset, messages = load_warning(ruleset_file)
    assert ruleset.evaluate(HAND).fan == 4
    assert len(messages) == 1 and "\n" not in messages[0]
    assert messages[0].startswith(f"mjr: cannot use the build cache MJR_CACHE_DIR={tmp_path / where} (")
    assert messages[0].endswith("building in a temporary folder for this process")
    again, messages = load_warning(ruleset_file)  # the temporary build is reused, silently
    assert messages == [] and again.module.__file__ == ruleset.module.__file__


def test_a_read_only_cache_falls_back_and_is_still_read(tmp_path: Path, ruleset_file: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "read-only"
    monkeypatch.setenv("MJR_CACHE_DIR", str(root))
    mjr.load(ruleset_file, backend="python")  # an entry made while it could be written
    real_mkdir = os.mkdir

    def read_only_mkdir(path: object, *args: object, **kwargs: object) -> None:
        if str(path).startswith(str(root)):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        real_mkdir(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "mkdir", read_only_mkdir)
    for name in [n for n in sys.modules if n.startswith("_mjr_cache_place_")]:
        del sys.modules[name]
    _, messages = load_warning(ruleset_file)
    assert messages == []  # the entry there is read: nothing to write
    other = ruleset_file.with_name("other.mjr")
    other.write_text(RULESET.replace("cache.place", "other").replace(" 3 ", " 5 "), encoding="utf-8")
    ruleset, messages = load_warning(other)
    assert ruleset.evaluate(HAND).fan == 6
    assert len(messages) == 1 and "(Read-only file system)" in messages[0]


def test_the_default_location_names_the_variable_to_set(tmp_path: Path, ruleset_file: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a_file").write_text("", encoding="utf-8")
    monkeypatch.delenv("MJR_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a_file"))
    _, messages = load_warning(ruleset_file)
    assert messages == [f"mjr: cannot use the build cache at {tmp_path / 'a_file' / 'mjr'} (Not a directory); "
                        "set MJR_CACHE_DIR to a writable folder; building in a temporary folder for this process"]


def test_an_empty_variable_counts_as_unset(tmp_path: Path, ruleset_file: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("MJR_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "mjr"
    mjr.load(ruleset_file, backend="python")
    assert list(work.iterdir()) == []
    assert len(list((tmp_path / "xdg" / "mjr").glob("*/*/entry.json"))) == 1


def test_the_cli_warns_and_goes_on(tmp_path: Path, ruleset_file: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a_file").write_text("", encoding="utf-8")
    monkeypatch.setenv("MJR_CACHE_DIR", str(tmp_path / "a_file"))
    assert cli.main(["score", "--backend", "python", "-r", str(ruleset_file), HAND]) == 0
    err = capsys.readouterr().err
    assert err == (f"mjr: warning: cannot use the build cache MJR_CACHE_DIR={tmp_path / 'a_file'} "
                   "(Not a directory); building in a temporary folder for this process\n")


# --------------------------------------------------------------------------- mjr cache


def run_json(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, dict[str, object]]:
    code = cli.main(list(words))
    return code, json.loads(capsys.readouterr().out)


def test_cache_info_lists_each_entry(tmp_path: Path, ruleset_file: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "cache"
    monkeypatch.setenv("MJR_CACHE_DIR", str(root))
    code, doc = run_json(capsys, "cache", "info", "--json")
    assert (code, doc) == (0, {"cache": str(root), "entries": [], "bytes": 0})
    mjr.load(ruleset_file, backend="python")
    code, doc = run_json(capsys, "cache", "--json")
    (entry,) = doc["entries"]  # type: ignore[misc]
    assert entry["ruleset"] == "cache.place" and entry["backend"] == "python"
    assert entry["file"] == str(ruleset_file.resolve())
    assert entry["bytes"] > 1000 and 0 <= entry["age_seconds"] < 600
    assert doc["bytes"] == entry["bytes"]
    assert cli.main(["cache", "info"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{root}: 1 entries, ") and lines[0].endswith(" kB")
    assert lines[1].split() == ["ruleset", "backend", "size", "age", "file"]
    assert lines[2].split()[:2] == ["cache.place", "python"] and lines[2].endswith(str(ruleset_file.resolve()))


def test_cache_clear_removes_entries_and_nothing_else(tmp_path: Path, ruleset_file: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "cache"
    monkeypatch.setenv("MJR_CACHE_DIR", str(root))
    mjr.load(ruleset_file, backend="python")
    (root / "notes.txt").write_text("mine", encoding="utf-8")
    (root / "ab").mkdir()
    (root / "ab" / "keep.txt").write_text("mine too", encoding="utf-8")
    code, doc = run_json(capsys, "cache", "clear", "--json")
    assert code == 0 and doc["removed"] == 1 and doc["bytes"] > 1000
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == ["ab", "ab/keep.txt", "notes.txt"]
    assert cli.main(["cache", "clear"]) == 0
    assert capsys.readouterr().out == f"{root}: removed 0 entries (0 B)\n"
    assert mjr.load(ruleset_file, backend="python").evaluate(HAND).fan == 4  # builds again


def test_cache_commands_name_an_unusable_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a_file").write_text("", encoding="utf-8")
    monkeypatch.setenv("MJR_CACHE_DIR", str(tmp_path / "a_file"))
    for action in ("info", "clear"):
        assert cli.main(["cache", action]) == 2
        assert capsys.readouterr().err == f"mjr: error: MJR_CACHE_DIR={tmp_path / 'a_file'} is not a folder\n"


# --------------------------------------------------------------------------- the test run's own cache


def test_the_run_uses_a_private_cache() -> None:
    assert os.environ.get("MJR_CACHE_DIR")
    home_cache = Path.home() / ".cache" / "mjr"
    assert cache.cache_dir() != home_cache
    assert Path(os.environ["XDG_CACHE_HOME"]) != Path.home() / ".cache"


def test_a_test_that_writes_to_the_default_cache_fails(tmp_path: Path, ruleset_file: Path) -> None:
    """The check in conftest.py catches a test that forgets MJR_CACHE_DIR."""
    shutil.copy(Path(__file__).with_name("conftest.py"), tmp_path / "conftest.py")
    (tmp_path / "test_careless.py").write_text(
        "import mjr\n\n"
        "def test_careless(monkeypatch):\n"
        "    monkeypatch.delenv('MJR_CACHE_DIR')\n"
        f"    mjr.load({str(ruleset_file)!r}, backend='python')\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("MJR_CACHE_DIR", "XDG_CACHE_HOME")}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout
    assert "1 passed, 1 error" in done.stdout
    assert "this test wrote into the default cache location" in done.stdout
