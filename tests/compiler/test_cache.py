"""The build cache as a place: a folder that cannot be used is not an error (one
warning, then a temporary folder), an empty MJR_CACHE_DIR is unset, ``mjr cache
info`` and ``mjr cache clear`` show and empty it, and the test run itself never
writes into the default cache location."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import pytest

import mjr
from mjr import cli
from mjr.compiler.build import cache
from mjr.compiler.build import pipeline as build_module
from mjr.errors import CacheError, CacheWarning

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
    assert messages == [] and again.generated.file == ruleset.generated.file


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


def test_cache_commands_name_a_folder_that_cannot_be_looked_at(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A name the system refuses (too long) is one line naming it, not a traceback."""
    monkeypatch.setenv("MJR_CACHE_DIR", str(tmp_path / ("x" * 300)))
    for action in ("info", "clear"):
        assert cli.main(["cache", action]) == 2
        err = capsys.readouterr().err
        assert err.startswith("mjr: error: cannot use the build cache MJR_CACHE_DIR=") and "(File name too long)" in err


# --------------------------------------------------------------------------- the test run's own cache


def test_the_run_uses_a_private_cache() -> None:
    assert os.environ.get("MJR_CACHE_DIR")
    home_cache = Path.home() / ".cache" / "mjr"
    assert cache.cache_dir() != home_cache
    assert Path(os.environ["XDG_CACHE_HOME"]) != Path.home() / ".cache"


def test_a_test_that_writes_to_the_default_cache_fails(tmp_path: Path, ruleset_file: Path) -> None:
    """The check in conftest.py catches a test that forgets MJR_CACHE_DIR."""
    shutil.copy(Path(__file__).parents[1] / "conftest.py", tmp_path / "conftest.py")
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


# --------------------------------------------------------------------------- a cache of one's own


PLANTED = "MJR_PLANTED_MODULE_RAN"


def forget_modules() -> None:
    """Forget the modules built in this process, as another process would not have them."""
    for name in [n for n in sys.modules if n.startswith("_mjr_cache_place_")]:
        del sys.modules[name]


def plant(root: Path) -> Path:
    """Make the one entry under ``root`` run code when it is loaded, its checksum made
    to match (as whoever could write there would), and return the entry's folder."""
    (source,) = root.rglob("_mjr_cache_place_*.py")
    source.write_text(source.read_text(encoding="utf-8") + f"\nimport os\nos.environ[{PLANTED!r}] = '1'\n",
                      encoding="utf-8")
    meta_path = source.parent / "entry.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["sha256"][source.name] = hashlib.sha256(source.read_bytes()).hexdigest()
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    forget_modules()
    return source.parent


@pytest.fixture
def no_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A process with no home folder and no cache variable; returns its temporary folder."""
    def homeless() -> Path:
        raise RuntimeError("Could not determine home directory.")

    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.delenv("MJR_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setattr(Path, "home", staticmethod(homeless))
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.delenv(PLANTED, raising=False)
    return temp


def test_with_no_home_folder_the_cache_is_the_users_own(no_home: Path, ruleset_file: Path) -> None:
    root = no_home / f"mjr-{os.getuid()}"
    assert cache.cache_dir() == root
    assert mjr.load(ruleset_file, backend="python").evaluate(HAND).fan == 4
    assert stat.S_IMODE(root.stat().st_mode) == 0o700
    assert len(list(root.glob("*/*/entry.json"))) == 1


def test_an_entry_planted_in_an_open_default_cache_is_not_run(no_home: Path, ruleset_file: Path) -> None:
    """The default location open to others (as a folder another user made first
    would be): a warning, and the build is made afresh in a private folder."""
    mjr.load(ruleset_file, backend="python")
    root = cache.cache_dir()
    plant(root)
    root.chmod(0o777)
    ruleset, messages = load_warning(ruleset_file)
    assert PLANTED not in os.environ
    assert ruleset.evaluate(HAND).fan == 4
    assert not ruleset.generated.file.startswith(str(root))
    assert messages == [f"mjr: cannot use the build cache at {root} (it can be written by its group and others "
                        "(mode 777)); set MJR_CACHE_DIR to a folder of your own; "
                        "building in a temporary folder for this process"]


def test_a_cache_of_another_user_is_refused(tmp_path: Path, ruleset_file: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "cache"
    monkeypatch.setenv("MJR_CACHE_DIR", str(root))
    monkeypatch.delenv(PLANTED, raising=False)
    mjr.load(ruleset_file, backend="python")
    plant(root)
    me = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: me + 1)  # the same files, seen by another user
    message = (f"the build cache MJR_CACHE_DIR={root} belongs to another user (uid {me}): a module found there "
               f"could be anyone's; use a folder that is yours and writable by you alone (chmod 700 {root})")
    with pytest.raises(CacheError) as info:
        mjr.load(ruleset_file, backend="python")
    assert str(info.value) == message
    assert PLANTED not in os.environ
    for words in (["score", "--backend", "python", "-r", str(ruleset_file), HAND], ["cache", "clear"]):
        assert cli.main(words) == 2
        assert capsys.readouterr().err == f"mjr: error: {message}\n"
    assert len(list(root.glob("*/*/entry.json"))) == 1  # nothing of another user's is removed


@pytest.mark.parametrize(("mode", "who"), [(0o777, "its group and others"), (0o770, "its group"),
                                           (0o703, "others")])
def test_a_cache_folder_open_to_others_is_refused(tmp_path: Path, ruleset_file: Path,
                                                  monkeypatch: pytest.MonkeyPatch, mode: int, who: str) -> None:
    root = tmp_path / "cache"
    monkeypatch.setenv("MJR_CACHE_DIR", str(root))
    monkeypatch.delenv(PLANTED, raising=False)
    mjr.load(ruleset_file, backend="python")
    plant(root)
    root.chmod(mode)
    with pytest.raises(CacheError, match=rf"^the build cache MJR_CACHE_DIR=.* can be written by {who} "
                                         rf"\(mode {mode:o}\): a module found there could be anyone's"):
        mjr.load(ruleset_file, backend="python")
    assert PLANTED not in os.environ


def test_an_entry_open_to_others_is_built_again(tmp_path: Path, ruleset_file: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "cache"
    monkeypatch.setenv("MJR_CACHE_DIR", str(root))
    monkeypatch.delenv(PLANTED, raising=False)
    mjr.load(ruleset_file, backend="python")
    folder = plant(root)
    (source,) = folder.glob("*.py")
    source.chmod(0o666)
    ruleset, messages = load_warning(ruleset_file)
    assert PLANTED not in os.environ and messages == []
    assert ruleset.evaluate(HAND).fan == 4
    (source,) = folder.glob("*.py")
    assert stat.S_IMODE(source.stat().st_mode) & 0o022 == 0 and "MJR_PLANTED" not in source.read_text("utf-8")


def test_an_entry_of_another_user_is_built_again(tmp_path: Path, ruleset_file: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The entry folder (marked here) is shown as another user's by the owner
    check's ``lstat``: never loaded, replaced by one of this user's."""
    root = tmp_path / "cache"
    monkeypatch.setenv("MJR_CACHE_DIR", str(root))
    monkeypatch.delenv(PLANTED, raising=False)
    mjr.load(ruleset_file, backend="python")
    folder = plant(root)
    (folder / "planted").write_text("", encoding="utf-8")
    real_lstat = os.lstat

    def planted() -> bool:
        try:
            return bool(real_lstat(folder / "planted"))
        except FileNotFoundError:
            return False

    def lstat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        status = real_lstat(path, *args, **kwargs)  # type: ignore[arg-type]
        if str(path).startswith(str(folder)) and planted():
            fields = list(status)
            fields[4] = os.getuid() + 1  # st_uid
            return os.stat_result(fields)
        return status

    monkeypatch.setattr(os, "lstat", lstat)
    ruleset, messages = load_warning(ruleset_file)
    assert PLANTED not in os.environ and messages == []
    assert ruleset.evaluate(HAND).fan == 4
    assert not (folder / "planted").exists() and len(list(root.glob("*/*/entry.json"))) == 1


# --------------------------------------------------------------------------- links and other foreign things




def count_builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    builds: list[str] = []
    real_write = build_module._write_build

    def counted(folder: Path, *args: object) -> object:
        builds.append(folder.name)
        return real_write(folder, *args)

    monkeypatch.setattr(build_module, "_write_build", counted)
    return builds


@pytest.mark.parametrize("target", ["nowhere", "outside"])
def test_a_link_in_an_entrys_place_is_replaced_once(tmp_path: Path, ruleset_file: Path,
                                                    monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    """A dangling link, or one to a copy of the entry outside the cache: neither is
    followed; the link gives way to a real entry, built once, and the place it
    pointed at is left as it was."""
    root = tmp_path / "cache"
    monkeypatch.setenv("MJR_CACHE_DIR", str(root))
    mjr.load(ruleset_file, backend="python")
    (folder,) = (p.parent for p in root.glob("*/*/entry.json"))
    outside = tmp_path / "outside"
    shutil.move(folder, outside)
    folder.symlink_to(tmp_path / target)
    forget_modules()
    builds = count_builds(monkeypatch)
    for _ in range(3):
        ruleset, messages = load_warning(ruleset_file)
        assert messages == [] and ruleset.evaluate(HAND).fan == 4
        assert ruleset.generated.file.startswith(str(folder))
        forget_modules()
    assert len(builds) == 1
    assert not folder.is_symlink() and folder.is_dir()
    assert (outside / "entry.json").is_file()


def test_a_link_in_a_locks_place_is_not_followed(tmp_path: Path, ruleset_file: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening the build lock through a dangling link would create the file it
    points at, anywhere this user may write."""
    root = tmp_path / "cache"
    monkeypatch.setenv("MJR_CACHE_DIR", str(root))
    mjr.load(ruleset_file, backend="python")
    (folder,) = (p.parent for p in root.glob("*/*/entry.json"))
    shutil.rmtree(folder)
    lock = folder.with_name(f".lock-{folder.name}")
    lock.unlink()
    lock.symlink_to(tmp_path / "made-through-the-link")
    forget_modules()
    ruleset, messages = load_warning(ruleset_file)
    assert messages == [] and ruleset.evaluate(HAND).fan == 4
    assert not (tmp_path / "made-through-the-link").exists()
    assert not lock.is_symlink() and lock.is_file()


def test_cache_clear_removes_links_without_following_them(tmp_path: Path, ruleset_file: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "cache"
    monkeypatch.setenv("MJR_CACHE_DIR", str(root))
    mjr.load(ruleset_file, backend="python")
    (folder,) = (p.parent for p in root.glob("*/*/entry.json"))
    shard = folder.parent
    other = "ab" if shard.name != "ab" else "cd"  # a shard name of no entry's
    outside = tmp_path / "outside"
    (outside / other / (other + "0" * 62)).mkdir(parents=True)
    (outside / other / (other + "0" * 62) / "entry.json").write_text("keep", encoding="utf-8")
    (outside / "mine.txt").write_text("keep", encoding="utf-8")
    (shard / (shard.name + "1" * 62)).symlink_to(outside)  # a link to a folder, in an entry's place
    (shard / (shard.name + "2" * 62)).symlink_to(tmp_path / "nowhere")  # a dangling one
    (shard / (shard.name + "3" * 62)).write_text("", encoding="utf-8")  # a file where a folder belongs
    (shard / f".lock-{shard.name}{'4' * 62}").symlink_to(outside / "mine.txt")
    (root / other).symlink_to(outside / other)  # a link in a shard's place
    (root / "notes").symlink_to(outside)  # not a place of the cache's: left alone
    code, doc = run_json(capsys, "cache", "clear", "--json")
    assert code == 0 and doc["removed"] == 1 and doc["foreign"] == 5 and doc["bytes"] > 1000
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == ["notes"]
    assert sorted(p.relative_to(outside).as_posix() for p in outside.rglob("*")) == sorted([
        "mine.txt", other, f"{other}/{other}{'0' * 62}", f"{other}/{other}{'0' * 62}/entry.json"])
    (root / "cd").mkdir()
    (root / "cd" / ("cd" + "0" * 62)).symlink_to(outside)
    assert cli.main(["cache", "clear"]) == 0
    assert capsys.readouterr().out == (f"{root}: removed 0 entries and 1 foreign (a link or a file in an "
                                       "entry's place) (0 B)\n")


def test_cache_info_shows_a_link_as_foreign(tmp_path: Path, ruleset_file: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "cache"
    monkeypatch.setenv("MJR_CACHE_DIR", str(root))
    mjr.load(ruleset_file, backend="python")
    (folder,) = (p.parent for p in root.glob("*/*/entry.json"))
    shutil.rmtree(folder)
    folder.symlink_to(tmp_path)
    code, doc = run_json(capsys, "cache", "info", "--json")
    (entry,) = doc["entries"]  # type: ignore[misc]
    assert code == 0 and entry["backend"] == "foreign" and entry["bytes"] == 0


# --------------------------------------------------------------------------- a build killed half way


def test_a_build_killed_half_way_leaves_nothing_that_is_loaded(tmp_path: Path, ruleset_file: Path,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A process killed (SIGKILL) while it writes an entry, holding the build lock:
    the next load builds the entry whole, and ``mjr cache clear`` removes what the
    killed build left."""
    root = tmp_path / "cache"
    monkeypatch.setenv("MJR_CACHE_DIR", str(root))
    script = ("import importlib, os, signal, sys, mjr\n"
              "build = importlib.import_module('mjr.compiler.build.pipeline')\n"
              "real = build._write_build\n"
              "def killed(folder, *args):\n"
              "    real(folder, *args)\n"
              "    (folder / 'half').write_text('')\n"
              "    os.kill(os.getpid(), signal.SIGKILL)\n"
              "build._write_build = killed\n"
              "mjr.load(sys.argv[1], backend='python')\n")
    done = subprocess.run([sys.executable, "-c", script, str(ruleset_file)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == -9, done.stderr
    assert list(root.glob("*/.build-*/entry/half")) and not list(root.glob("*/*/entry.json"))
    ruleset, messages = load_warning(ruleset_file)
    assert messages == [] and ruleset.evaluate(HAND).fan == 4
    assert len(list(root.glob("*/*/entry.json"))) == 1
    code, doc = run_json(capsys, "cache", "clear", "--json")
    assert code == 0 and doc["removed"] == 1 and not list(root.rglob("*"))
