"""The build cache: where entries live, how one is written and trusted, and what a
user sees of it (``mjr cache info``, ``mjr cache clear``).

An entry is a folder ``<cache>/<key[:2]>/<key>`` holding the generated module, its
compiled extension when there is one, and ``entry.json``, which names them with
their sha256.  An entry is built whole in a private folder beside it and renamed
into place, so a reader sees a complete entry or none; one whose index is missing,
unreadable, of another key or whose files do not match their checksums is treated
as absent and built again.  While one process (or thread) builds an entry, another
that wants the same one waits for it (:func:`building`) rather than compiling it too.

The cache is an optimisation, never a reason to fail: when its folder cannot be
used (``MJR_CACHE_DIR`` names a file, a folder that cannot be made, a read-only
place), mjr warns once per process (:class:`~mjr.errors.CacheWarning`) and builds
in a temporary folder that lasts as long as the process.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from mjr.errors import CacheWarning, MjrError

if sys.platform != "win32":
    import fcntl

VARIABLE = "MJR_CACHE_DIR"
META = "entry.json"
LOCK_PREFIX = ".lock-"  # <cache>/<key[:2]>/.lock-<key>: held while that entry is built
#: the layout of ``entry.json``; an entry of another format is rebuilt
FORMAT = 2
_lock = threading.Lock()
_fallback: list[Path] = []  # this process's temporary cache, once made


def cache_dir() -> Path:
    """``$MJR_CACHE_DIR`` (an empty value counts as unset), else
    ``$XDG_CACHE_HOME/mjr``, else ``~/.cache/mjr``."""
    configured = os.environ.get(VARIABLE, "")
    if configured:
        return Path(configured)
    try:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    except RuntimeError:  # no home folder to be found: a shared temporary one
        base = tempfile.gettempdir()
    return Path(base) / "mjr"


def describe_location() -> str:
    """How messages name the cache folder: by the variable when it is set."""
    return f"{VARIABLE}={cache_dir()}" if os.environ.get(VARIABLE) else f"at {cache_dir()}"


@dataclass(frozen=True)
class Entry:
    """A complete, checked cache entry."""

    folder: Path
    meta: dict[str, Any]

    @property
    def source(self) -> Path:
        return self.folder / str(self.meta["source"])

    @property
    def compiled(self) -> Path | None:
        name = self.meta.get("compiled")
        return self.folder / name if isinstance(name, str) else None


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_entry(folder: Path, key: str | None = None) -> Entry | None:
    """The entry in ``folder`` if it is complete, of ``key`` (when given) and every
    file matches its checksum; None otherwise."""
    try:
        meta = json.loads((folder / META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        return None
    if key is not None and meta.get("key") != key:
        return None
    sums = meta.get("sha256")
    names = [meta.get("source"), *([meta["compiled"]] if meta.get("compiled") is not None else [])]
    if not isinstance(sums, dict) or set(sums) != set(names) or not all(_plain_name(n) for n in names):
        return None
    try:
        if any(_sha256(folder / name) != digest for name, digest in sums.items()):
            return None
    except OSError:
        return None
    return Entry(folder, meta)


def _plain_name(name: object) -> bool:
    return isinstance(name, str) and bool(name) and Path(name).name == name and name not in (".", "..")


def _roots() -> list[Path]:
    return [cache_dir(), *_fallback]


def lookup(key: str) -> Entry | None:
    """The entry of ``key`` in the cache, or in this process's temporary cache."""
    for root in _roots():
        entry = read_entry(root / key[:2] / key, key)
        if entry is not None:
            return entry
    return None


def store(key: str, write: Callable[[Path], dict[str, Any]]) -> Entry:
    """Build an entry with ``write`` (which fills a fresh folder and returns the
    entry's metadata: ``source``, ``compiled`` file names and the rest) and put it
    in place of any entry of ``key``.  Falls back to the temporary cache, with a
    warning, when the cache folder cannot be written."""
    try:
        return _store_in(cache_dir(), key, write)
    except OSError as error:
        fallback = _fallback_root(error)
    try:
        return _store_in(fallback, key, write)
    except OSError as error:
        raise MjrError(f"cannot write a build anywhere: {describe_location()} and {fallback} ({error})") from None


def _store_in(root: Path, key: str, write: Callable[[Path], dict[str, Any]]) -> Entry:
    parent = root / key[:2]
    parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=parent, prefix=".build-") as work:
        folder = Path(work) / "entry"
        folder.mkdir()
        meta = {**write(folder), "format": FORMAT, "key": key, "built": time.time()}
        names = [meta["source"], *([meta["compiled"]] if meta.get("compiled") else [])]
        meta["sha256"] = {name: _sha256(folder / name) for name in names}
        (folder / META).write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")
        return _move_in(folder, parent / key, key)


def _move_in(folder: Path, target: Path, key: str) -> Entry:
    """Rename the finished ``folder`` to ``target``.  An entry already there stays
    when it is as good as ours (another process built the same at the same time);
    one that is broken, or lacks the extension we just compiled, is replaced."""
    ours = json.loads((folder / META).read_text(encoding="utf-8"))
    for _ in range(3):
        existing = read_entry(target, key)
        if existing is not None and _as_good(existing.meta, ours):
            return existing
        shutil.rmtree(target, ignore_errors=True)
        try:
            folder.rename(target)
        except OSError:
            if not target.exists():
                raise
            continue  # another process got there in between: look at its entry
        entry = read_entry(target, key)
        if entry is not None:
            return entry
    raise OSError(f"{target} keeps changing under another process")


def _as_good(theirs: dict[str, Any], ours: dict[str, Any]) -> bool:
    if theirs.get("compiled"):
        return True
    return not ours.get("compiled") and [theirs.get(k) for k in ("tried", "compiler")] == [
        ours.get(k) for k in ("tried", "compiler")]


@contextmanager
def building(key: str) -> Iterator[None]:
    """Hold the build of ``key`` while the block runs: another process or thread that
    asks for it waits, then finds the finished entry instead of compiling the same
    module again (test workers, or a cluster's workers, that load one ruleset at
    once).  Where no lock can be had (Windows, a cache folder that cannot be
    written) the block just runs: the rename in :func:`store` keeps entries whole
    either way, only the work may be done twice."""
    handle = _lock_file(key)
    if handle is None:
        yield
        return
    with handle:
        if sys.platform != "win32":
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)  # released when the file is closed
        yield


def _lock_file(key: str) -> IO[bytes] | None:
    if sys.platform == "win32":
        return None
    parent = cache_dir() / key[:2]
    try:
        parent.mkdir(parents=True, exist_ok=True)
        return open(parent / f"{LOCK_PREFIX}{key}", "ab")  # closed by building()
    except OSError:
        return None


def discard(entry: Entry) -> None:
    """Remove an entry that turned out not to load."""
    shutil.rmtree(entry.folder, ignore_errors=True)


def _fallback_root(error: OSError) -> Path:
    """This process's temporary cache, made (with the one warning) on first need."""
    with _lock:
        if not _fallback:
            why = error.strerror or str(error)
            _fallback.append(Path(tempfile.mkdtemp(prefix="mjr-cache-")))
            atexit.register(shutil.rmtree, _fallback[0], True)
            hint = "" if os.environ.get(VARIABLE) else f"; set {VARIABLE} to a writable folder"
            warnings.warn(f"mjr: cannot use the build cache {describe_location()} ({why}){hint}; "
                          "building in a temporary folder for this process", CacheWarning, stacklevel=2)
        return _fallback[0]


def fresh_copy(path: Path) -> Path:
    """A copy of the extension ``path`` under a path this process has never loaded:
    a process cannot load a second file from a path it loaded one from before."""
    root = _fallback[0] if _fallback else Path(tempfile.gettempdir())
    folder = Path(tempfile.mkdtemp(prefix="mjr-reload-", dir=root))
    if not _fallback:
        atexit.register(shutil.rmtree, folder, True)
    copy = folder / path.name
    shutil.copy2(path, copy)
    return copy


# --------------------------------------------------------------------------- what a user sees


def _entry_folders(root: Path) -> list[Path]:
    """The entry folders under ``root`` (``<2 hex>/<64 hex>``), and nothing else
    that may share the folder."""
    found = []
    for shard in sorted(root.glob("??")):
        if shard.is_dir() and set(shard.name) <= _HEX:
            found += [p for p in sorted(shard.iterdir()) if p.is_dir() and _is_key(p.name, shard.name)]
    return found


def _lock_files(root: Path) -> list[Path]:
    """The build locks under ``root`` (``<2 hex>/.lock-<64 hex>``)."""
    return [p for p in sorted(root.glob(f"??/{LOCK_PREFIX}*"))
            if _is_key(p.name.removeprefix(LOCK_PREFIX), p.parent.name)]


_HEX = set("0123456789abcdef")


def _is_key(name: str, shard: str) -> bool:
    return len(name) == 64 and set(name) <= _HEX and name[:2] == shard


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _usable_root() -> Path:
    root = cache_dir()
    if root.exists() and not root.is_dir():
        raise MjrError(f"{describe_location()} is not a folder")
    return root


def info() -> dict[str, Any]:
    """Where the cache is and what it holds: per entry the ruleset id, the file it
    was last built from, the backend it offers, its size and age (seconds)."""
    root = _usable_root()
    now = time.time()
    entries = []
    for folder in _entry_folders(root) if root.is_dir() else []:
        entry = read_entry(folder, folder.name)
        meta = entry.meta if entry is not None else {}
        try:
            size, built = _size(folder), (folder / META).stat().st_mtime
        except OSError:
            size, built = 0, now
        row = {"key": folder.name, "ruleset": meta.get("ruleset"), "file": meta.get("file"),
               "backend": ("compiled" if meta.get("compiled") else "python") if entry else "broken",
               "bytes": size, "age_seconds": round(max(now - built, 0.0))}
        if meta.get("error"):
            row["compile_error"] = meta["error"]
        entries.append(row)
    return {"cache": str(root), "entries": entries, "bytes": sum(e["bytes"] for e in entries)}


def clear() -> dict[str, Any]:
    """Remove every entry (and unfinished build, and build lock) from the cache; other files in the
    folder are left alone.  Returns the folder, the count removed and bytes freed."""
    root = _usable_root()
    removed = freed = 0
    folders = _entry_folders(root) if root.is_dir() else []
    for folder in folders + sorted(root.glob("??/.build-*")):
        try:
            size = _size(folder)
            shutil.rmtree(folder)
        except OSError as error:
            raise MjrError(f"cannot clear {folder} ({error.strerror or error})") from None
        removed += folder in folders
        freed += size
    for lock in _lock_files(root) if root.is_dir() else []:
        try:
            lock.unlink(missing_ok=True)
        except OSError as error:
            raise MjrError(f"cannot clear {lock} ({error.strerror or error})") from None
    for shard in root.glob("??") if root.is_dir() else []:
        try:
            shard.rmdir()  # only when it is left empty
        except OSError:
            pass
    return {"cache": str(root), "removed": removed, "bytes": freed}
