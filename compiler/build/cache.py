"""The build cache: where entries live, how one is written and trusted, and what a
user sees of it (``mjr cache info``, ``mjr cache clear``).

An entry is a folder ``<cache>/<key[:2]>/<key>`` holding the generated module, its
compiled extension when there is one, and ``entry.json``, which names them with
their sha256.  An entry is built whole in a private folder beside it and renamed
into place, so a reader sees a complete entry or none; one whose index is missing,
unreadable, of another key or whose files do not match their checksums is treated
as absent and built again.  While one process (or thread) builds an entry, another
that wants the same one waits for it (:func:`building`) rather than compiling it too.

The cache is private to its user, since a module loaded from it runs as whoever
loads it.  The folder is made with mode 0700; before anything in it is read or
written, the folder must belong to the current user and be writable by nobody
else.  ``MJR_CACHE_DIR`` naming a folder that is not private is refused
(:class:`~mjr.errors.CacheError`); the default location found so is not used (a
warning, then the temporary folder below).  Inside, every shard, entry folder and
file read must likewise be this user's and writable by nobody else, and be a real
folder or regular file, never a link: anything else where an entry belongs is
foreign, removed, and built again.

The cache is otherwise an optimisation, never a reason to fail: when its folder
cannot be used (``MJR_CACHE_DIR`` names a file, a folder that cannot be made, a
read-only place), mjr warns once per process (:class:`~mjr.errors.CacheWarning`)
and builds in a temporary folder (private, as :func:`tempfile.mkdtemp` makes it)
that lasts as long as the process.
"""

from __future__ import annotations

import atexit
import errno
import hashlib
import json
import os
import shutil
import stat
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

from mjr.errors import CacheError, CacheWarning, MjrError, os_reason

if sys.platform != "win32":
    import fcntl

VARIABLE = "MJR_CACHE_DIR"
META = "entry.json"
LOCK_PREFIX = ".lock-"  # <cache>/<key[:2]>/.lock-<key>: held while that entry is built
#: the layout of ``entry.json``; an entry of another format is rebuilt
FORMAT = 2
_lock = threading.Lock()
_fallback: list[Path] = []  # this process's temporary cache, once made
#: whether files have owners to check (POSIX); elsewhere only their kind is checked
_OWNERS = hasattr(os, "getuid")
#: the mode of every folder mjr makes in the cache
PRIVATE = 0o700


def cache_dir() -> Path:
    """``$MJR_CACHE_DIR`` (an empty value counts as unset), else
    ``$XDG_CACHE_HOME/mjr``, else ``~/.cache/mjr``; with no home folder to be
    found, ``<temporary folder>/mjr-<uid>``, a folder of this user's own."""
    configured = os.environ.get(VARIABLE, "")
    if configured:
        return Path(configured)
    try:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    except RuntimeError:  # no home folder: one of this user's in the shared temporary folder
        return Path(tempfile.gettempdir()) / (f"mjr-{os.getuid()}" if _OWNERS else "mjr")
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


# --------------------------------------------------------------------------- trust


#: what :func:`_trust_problem` says of a thing that is not even of the kind asked for
_LINK, _NOT_FOLDER, _NOT_FILE = "is a symbolic link", "is not a folder", "is not a regular file"
_MISSING = "is missing"


def _trust_problem(status: os.stat_result, kind: str) -> str:
    """What keeps a part of the cache with ``status`` (from ``os.lstat``) from being
    trusted as a ``kind`` ("folder" or "file"), as a message says it after the
    part's name; "" when nothing does."""
    mode = status.st_mode
    if stat.S_ISLNK(mode):
        return _LINK
    if not (stat.S_ISDIR(mode) if kind == "folder" else stat.S_ISREG(mode)):
        return _NOT_FOLDER if kind == "folder" else _NOT_FILE
    if _OWNERS and status.st_uid != os.getuid():
        return f"belongs to another user (uid {status.st_uid})"
    open_to = [who for who, bit in (("its group", stat.S_IWGRP), ("others", stat.S_IWOTH)) if mode & bit]
    if _OWNERS and open_to:
        return f"can be written by {' and '.join(open_to)} (mode {stat.S_IMODE(mode):o})"
    return ""


def _part_problem(path: Path, kind: str) -> str:
    """:func:`_trust_problem` of ``path`` itself (a link is not followed)."""
    try:
        return _trust_problem(os.lstat(path), kind)
    except FileNotFoundError:
        return _MISSING
    except OSError as error:
        return f"cannot be examined ({os_reason(error)})"


#: what each kind of thing mjr keeps in a shard must be: anything else there is foreign
_KIND_OF = {"entry": "folder", "build": "folder", "lock": "file"}


def _is_foreign(path: Path, kind: str) -> bool:
    """Whether ``path`` is a link, or not the folder or file its ``kind`` must be."""
    return _part_problem(path, _KIND_OF[kind]) in (_LINK, _NOT_FOLDER, _NOT_FILE)


def _read_part(path: Path) -> bytes:
    """The bytes of a file of an entry; OSError unless it is a regular file of this
    user's that nobody else can write (opened without following a link)."""
    problem = _part_problem(path, "file")
    if problem:
        raise OSError(f"{path} {problem}")
    with open(os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)), "rb") as stream:
        return stream.read()


def remove(path: Path) -> None:
    """Remove ``path`` without following a link: a link or a file is unlinked, a
    folder removed with what it holds (links inside it are unlinked, never
    followed).  Nothing happens where nothing can be removed."""
    try:
        _delete(path, strict=False)
    except OSError:
        pass


def _delete(path: Path, strict: bool = True) -> None:
    """Remove ``path``, a folder with what it holds, never following a link (not
    ``strict``: as much of a folder as can be)."""
    if stat.S_ISDIR(os.lstat(path).st_mode):
        shutil.rmtree(path, ignore_errors=not strict)
    else:
        path.unlink()


def _refusal(root: Path, problem: str) -> str:
    return (f"the build cache {describe_location()} {problem}: a module found there could be anyone's; "
            f"use a folder that is yours and writable by you alone (chmod 700 {root})")


def _root(create: bool) -> Path | None:
    """The cache folder, checked private; made (mode 0700) when ``create`` and
    missing.  None when it does not exist or is not a folder (and not
    ``create``), or is the default location and not private (warned, once; the
    temporary cache serves).  CacheError when ``MJR_CACHE_DIR`` names a folder that
    is not private; OSError when ``create`` and it cannot be made or is no folder."""
    root = cache_dir()
    try:
        status = root.stat()  # the folder may be reached through a link (~/.cache often is)
    except FileNotFoundError:
        if not create:
            return None
        root.mkdir(mode=PRIVATE, parents=True, exist_ok=True)
        status = root.stat()
    except OSError:
        if create:
            raise
        return None
    if not stat.S_ISDIR(status.st_mode):
        if create:
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(root))
        return None
    problem = _trust_problem(status, "folder")
    if not problem:
        return root
    if os.environ.get(VARIABLE):
        raise CacheError(_refusal(root, problem))
    _fallback_root(f"it {problem}", "; set MJR_CACHE_DIR to a folder of your own")
    return None


def _shard(root: Path, key: str) -> Path:
    """``<root>/<key[:2]>``, made private when missing; anything foreign in its
    place (a link, a file, another user's folder) is removed first: the root is
    this user's alone, so nothing of anyone else's is lost."""
    shard = root / key[:2]
    problem = _part_problem(shard, "folder")
    if problem and problem != _MISSING:
        remove(shard)
    shard.mkdir(mode=PRIVATE, exist_ok=True)
    problem = _part_problem(shard, "folder")
    if problem:
        raise OSError(f"{shard} {problem}")
    return shard


def _sha256(path: Path) -> str:
    return hashlib.sha256(_read_part(path)).hexdigest()


def read_entry(folder: Path, key: str | None = None) -> Entry | None:
    """The entry in ``folder`` if it is complete, of ``key`` (when given), every
    part of it trusted (its shard, its folder and each file: this user's, writable
    by nobody else, no links) and every file matches its checksum; None otherwise."""
    if _part_problem(folder.parent, "folder") or _part_problem(folder, "folder"):
        return None
    try:
        meta = json.loads(_read_part(folder / META).decode("utf-8"))
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
    root = _root(create=False)
    return [*([root] if root is not None else []), *_fallback]


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
    warning, when the cache folder cannot be written (or is the default location
    and not private)."""
    root = _write_root()
    if root is not None:
        try:
            return _store_in(root, key, write)
        except OSError as error:
            _fallback_root(os_reason(error))
    fallback = _fallback[0]
    try:
        return _store_in(fallback, key, write)
    except OSError as error:
        raise MjrError(f"cannot write a build anywhere: {describe_location()} and {fallback} ({error})") from None


def _write_root() -> Path | None:
    """The cache folder to write in, made when missing; None when the temporary
    cache must serve instead (it is made then, with the one warning)."""
    try:
        return _root(create=True)
    except OSError as error:
        _fallback_root(os_reason(error))
        return None


def _store_in(root: Path, key: str, write: Callable[[Path], dict[str, Any]]) -> Entry:
    parent = _shard(root, key)
    with tempfile.TemporaryDirectory(dir=parent, prefix=".build-") as work:
        folder = Path(work) / "entry"
        folder.mkdir(mode=PRIVATE)
        meta = {**write(folder), "format": FORMAT, "key": key, "built": time.time()}
        names = [meta["source"], *([meta["compiled"]] if meta.get("compiled") else [])]
        for name in names:  # a umask of 002 leaves files writable by the group: never trusted then
            os.chmod(folder / name, stat.S_IMODE(os.lstat(folder / name).st_mode) & ~0o022)
        meta["sha256"] = {name: _sha256(folder / name) for name in names}
        (folder / META).write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")
        os.chmod(folder / META, 0o600)
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
        remove(target)  # a broken entry, or anything foreign in its place (a link, a file)
        try:
            folder.rename(target)
        except OSError:
            if not os.path.lexists(target):
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
    try:
        path = _shard(_write_root() or _fallback[0], key) / f"{LOCK_PREFIX}{key}"
        if _is_foreign(path, "lock"):  # a link (or a folder) in the lock's place
            remove(path)
        lock = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        return open(lock, "ab")  # closed by building()
    except OSError:
        return None


def discard(entry: Entry) -> None:
    """Remove an entry that turned out not to load."""
    remove(entry.folder)


def _fallback_root(why: str, hint: str = f"; set {VARIABLE} to a writable folder") -> Path:
    """This process's temporary cache, made (with the one warning) on first need."""
    with _lock:
        if not _fallback:
            _fallback.append(Path(tempfile.mkdtemp(prefix="mjr-cache-")))
            atexit.register(shutil.rmtree, _fallback[0], True)
            warnings.warn(f"mjr: cannot use the build cache {describe_location()} ({why})"
                          f"{'' if os.environ.get(VARIABLE) else hint}; "
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


_HEX = set("0123456789abcdef")


def _is_key(name: str, shard: str) -> bool:
    return len(name) == 64 and set(name) <= _HEX and name[:2] == shard


def _shards(root: Path) -> list[Path]:
    """The shards under ``root`` (``<2 hex>``), and links in their place (never followed)."""
    return [p for p in sorted(root.glob("??")) if set(p.name) <= _HEX and (p.is_symlink() or p.is_dir())]


def _kept(shard: Path) -> list[tuple[Path, str]]:
    """What mjr keeps in ``shard``, each with its kind: ``entry`` (``<64 hex>``),
    ``build`` (an unfinished one, ``.build-*``) or ``lock`` (``.lock-<64 hex>``);
    nothing else that may share the folder."""
    found = []
    for item in sorted(shard.iterdir()):
        if _is_key(item.name, shard.name):
            found.append((item, "entry"))
        elif item.name.startswith(".build-"):
            found.append((item, "build"))
        elif item.name.startswith(LOCK_PREFIX) and _is_key(item.name.removeprefix(LOCK_PREFIX), shard.name):
            found.append((item, "lock"))
    return found


def _size(path: Path) -> int:
    """The bytes of the regular files at or under ``path``; links are not followed."""
    if not stat.S_ISDIR(os.lstat(path).st_mode):
        return _file_size(path)
    return sum(_file_size(Path(folder, name)) for folder, _, files in os.walk(path) for name in files)


def _file_size(path: Path) -> int:
    status = os.lstat(path)
    return status.st_size if stat.S_ISREG(status.st_mode) else 0


def _usable_root() -> Path:
    """The cache folder for ``mjr cache``: a MjrError when it is no folder, a
    CacheError when it is not private (its entries are not shown, nor removed)."""
    root = cache_dir()
    try:
        status = root.stat()
    except FileNotFoundError:
        return root  # nothing there yet: no entries
    except OSError as error:  # a name too long, a folder that cannot be searched
        raise MjrError(f"cannot use the build cache {describe_location()} ({os_reason(error)})") from None
    if not stat.S_ISDIR(status.st_mode):
        raise MjrError(f"{describe_location()} is not a folder")
    if problem := _trust_problem(status, "folder"):
        raise CacheError(_refusal(root, problem))
    return root


def info() -> dict[str, Any]:
    """Where the cache is and what it holds: per entry the ruleset id, the file it
    was last built from, the backend it offers (``broken`` for one that would be
    built again, ``foreign`` for a link or a file in an entry's place), its size
    and age (seconds)."""
    root = _usable_root()
    now = time.time()
    entries = []
    for shard in _shards(root) if root.is_dir() else []:
        for folder, kind in [] if shard.is_symlink() else _kept(shard):
            if kind != "entry":
                continue
            entry = read_entry(folder, folder.name)
            meta = entry.meta if entry is not None else {}
            foreign = _is_foreign(folder, kind)
            try:
                size = 0 if foreign else _size(folder)
                built = os.lstat(folder if foreign else folder / META).st_mtime
            except OSError:
                size, built = 0, now
            backend = "foreign" if foreign else "broken"
            if entry is not None:
                backend = "compiled" if meta.get("compiled") else "python"
            row = {"key": folder.name, "ruleset": meta.get("ruleset"), "file": meta.get("file"),
                   "backend": backend, "bytes": size, "age_seconds": round(max(now - built, 0.0))}
            if meta.get("error"):
                row["compile_error"] = meta["error"]
            entries.append(row)
    return {"cache": str(root), "entries": entries, "bytes": sum(e["bytes"] for e in entries)}


def clear() -> dict[str, Any]:
    """Remove every entry, unfinished build and build lock from the cache, and
    anything foreign in the place of one (a link, removed and never followed; a
    file where a folder belongs); other files in the folder are left alone.
    Returns the folder, the entries removed, the foreign things removed and the
    bytes freed."""
    root = _usable_root()
    removed = foreign = freed = 0
    for shard in _shards(root) if root.is_dir() else []:
        kept = [(shard, "link")] if shard.is_symlink() else _kept(shard)
        for item, kind in kept:
            alien = kind == "link" or _is_foreign(item, kind)
            try:
                size = 0 if alien else _size(item)
                _delete(item)
            except FileNotFoundError:
                continue  # gone meanwhile (another process's build finished)
            except OSError as error:
                raise MjrError(f"cannot clear {item} ({os_reason(error)})") from None
            removed += kind == "entry" and not alien
            foreign += alien
            freed += size
        try:
            shard.rmdir()  # only when it is left empty (and a real folder: a link is gone by now)
        except OSError:
            pass
    return {"cache": str(root), "removed": removed, "foreign": foreign, "bytes": freed}
