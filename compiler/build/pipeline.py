"""Build a ``.mjr`` file into an importable module, through a content-keyed cache.

``_parse -> _check -> _generate -> _compile``, each a small step, as a template
engine does it.  The cache key is the sha256 of every source text in the
``extends`` chain, mjr's version, the templates and the compiler's sources,
Cython's version and the Python ABI: the content, never the place, so the same file
built from any folder is one entry.  The generated module names its files by base
name alone, and a loaded module is shown with the names of the place it was loaded
from (:mod:`mjr.compiler.build.relocate`).  How entries are stored and trusted is
:mod:`mjr.compiler.build.cache`; the C toolchain is :mod:`mjr.compiler.build.toolchain`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import sysconfig
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import Cython

from mjr._version import __version__
from mjr.abi import ruleset_id_problem
from mjr.dsl import ast
from mjr.dsl.parser import parse
from mjr.dsl.quoting import quoted
from mjr.errors import MjrError, NotCompiledError, OptionError, Problem, SourceError, problem_at
from mjr.options import describe

from ..check.checker import check
from ..emit.codegen import ModuleSource, generate, module_name, template_hash
from ..front.places import in_order
from ..model import ir
from . import cache
from .cache import cache_dir
from .relocate import portable, relocated
from .toolchain import compile_module, compiler_identity

__all__ = ["Built", "build", "build_key", "builder_key", "cache_dir", "check_file", "generate_file", "will_compile"]
#: what a module from the cache must define to be taken as a whole build
_REQUIRED = ("RULESET_ID", "BUILD_KEY", "FILES", "FANS", "EXAMPLES")


@dataclass(frozen=True)
class Built:
    module: ModuleType
    backend: str  # compiled | python
    path: Path
    #: why a build asked for as ``auto`` runs interpreted ("" when it does not)
    fallback: str = ""


def search_path(near: Path | None = None) -> list[Path]:
    """Where ``extends`` and ids look for ``<id>.mjr``: beside the file, the folders
    in MJR_PATH, then the bundled rulesets."""
    paths = [near] if near is not None else []
    paths += [Path(p) for p in os.environ.get("MJR_PATH", "").split(os.pathsep) if p]
    paths.append(bundled_dir())
    return paths


def bundled_dir() -> Path:
    import mjr.rulesets

    return Path(mjr.rulesets.__file__).resolve().parent


def known_ids(near: Path | None = None) -> list[str]:
    """Every ruleset id on the search path (for "did you mean")."""
    return sorted({path.stem for folder in search_path(near) for path in folder.glob("*.mjr")})


def find_source(ident: str, near: Path | None = None) -> Path | None:
    """``<ident>.mjr`` in the first folder of the search path that has it; None
    when none has, or ``ident`` is too long to name a file (the checker and the
    loader say so)."""
    if ruleset_id_problem(ident):
        return None
    for folder in search_path(near):
        candidate = folder / f"{ident}.mjr"
        try:
            if candidate.is_file():
                return candidate
        except OSError:  # a folder of MJR_PATH whose path is too long, or that cannot be searched
            continue
    return None


#: The largest ``.mjr`` file read: far above any ruleset (the largest bundled one is
#: about 12 kB), low enough that a stray device or a huge file fails at once.
MAX_SOURCE_BYTES = 1 << 20


def read_file(path: Path) -> str:
    """The text of ``path``: UTF-8, a leading byte order mark dropped, lines ending in '\\n'.

    At most MAX_SOURCE_BYTES + 1 bytes are read, so a device such as /dev/zero or a
    pipe that never ends is refused as too large instead of filling the memory."""
    data = _read_limited(path, MAX_SOURCE_BYTES)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        at = error.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)  # counted after the mark
        raise MjrError(f"{path}: not UTF-8 text ({error.reason} at byte {at})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _read_limited(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, or a clear MjrError: missing, a folder, unreadable, or
    larger than ``limit`` bytes (then only ``limit + 1`` bytes were read)."""
    try:
        with path.open("rb") as stream:
            data = stream.read(limit + 1)
    except FileNotFoundError:
        raise MjrError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise MjrError(f"{path}: is a folder, not a .mjr file") from None
    except OSError as error:
        raise MjrError(f"{path}: cannot read ({error.strerror or error})") from None
    if len(data) > limit:
        raise MjrError(f"{path}: larger than {limit / (1 << 20):g} MB, the limit for a .mjr file")
    return data


def display_name(path: Path) -> str:
    """How messages name a file: relative to the working folder where it lies below
    it, bundled rulesets as ``rulesets/NAME.mjr``, else as given."""
    try:
        resolved = path.resolve()
        if resolved.is_relative_to(Path.cwd().resolve()):
            return resolved.relative_to(Path.cwd().resolve()).as_posix()
        if resolved.parent == bundled_dir():
            return f"rulesets/{path.name}"
    except OSError:
        pass
    return str(path)


def parse_file(path: Path, ident: str | None = None) -> ast.Ruleset:
    """The ruleset in ``path``; with ``ident``, it must carry that id (``extends``
    finds ``<id>.mjr`` by its name)."""
    text = read_file(path)
    ruleset = parse(text, display_name(path))
    if ident is not None and ruleset.id != ident:
        message = f"this file is named for ruleset {quoted(ident)} but holds {quoted(ruleset.id)}"
        raise SourceError([problem_at(text, ruleset.span, message)])
    return ruleset


def check_file(path: Path, options: Mapping[str, object] | None = None) -> ir.Ruleset:
    """Parse and check ``path`` under the table ``options`` (the defaults for the
    rest); raises SourceError listing every problem, OptionError for a choice the
    ruleset does not allow."""
    return _checker(path)(options)


def _checker(path: Path) -> Callable[[Mapping[str, object] | None], ir.Ruleset]:
    """Checks ``path`` under given options: the file and those it extends are parsed
    once, however many combinations are checked (their syntax trees are immutable)."""
    root = parse_file(path)
    parsed: dict[str, ast.Ruleset | None] = {}

    def resolve(ident: str) -> ast.Ruleset | None:
        if ident not in parsed:
            source = find_source(ident, path.parent)
            parsed[ident] = parse_file(source, ident) if source is not None else None
        return parsed[ident]

    return lambda options: check(root, resolve, lambda: known_ids(path.parent), options)


def check_options(path: Path) -> ir.Ruleset:
    """Check ``path`` under its default options, then under each value of each
    option with the others at their defaults, and under every combination its
    examples choose: every branch of its ``when`` blocks that one option decides is
    checked.  Returns the default build's IR; raises SourceError with every problem
    found, each once (a combination the ruleset refuses is skipped)."""
    check_under = _checker(path)
    default = check_under(None)
    problems: dict[Problem, None] = {}
    for combination in _combinations_to_check(default):
        try:
            check_under(combination)
        except SourceError as error:
            problems.update(dict.fromkeys(error.problems))
        except OptionError:
            continue  # refused on purpose
    if problems:
        raise SourceError(in_order(list(problems)))
    return default


def _combinations_to_check(ruleset: ir.Ruleset) -> list[dict[str, object]]:
    table = {option.name for option in ruleset.options}
    defaults: dict[str, object] = {option.name: option.default for option in ruleset.options}
    found = [{**defaults, **{name: value for name, value in combination if name in table}}
             for combination in ruleset.example_options]
    for option in ruleset.options:
        values = option.values if option.kind != "number" else sorted({*option.values, option.default})
        found += [{**defaults, option.name: value} for value in values]
    unique = {describe(combination.items()): combination for combination in found if combination != defaults}
    return list(unique.values())


def _builder_parts() -> tuple[str, ...]:
    """What turns a ruleset's text into a module: mjr's version, the templates and
    the compiler's sources, Cython's version and the Python ABI."""
    cython_version = str(getattr(Cython, "__version__", ""))
    abi = sysconfig.get_config_var("SOABI") or sys.version
    return __version__, template_hash(), cython_version, abi


def builder_key() -> str:
    """The sha256 of what every build key shares besides the rulesets' texts and
    options (:func:`_builder_parts`): when it changes, no earlier build is used
    again, so a cache kept for one purpose (the test runs' own) may be dropped
    whole."""
    return hashlib.sha256(b"\0".join(part.encode() for part in _builder_parts())).hexdigest()


def build_key(ruleset: ir.Ruleset) -> str:
    """The cache key: the text of every file in the ``extends`` chain, in order, and
    what turns text into a module, and the options chosen.  File names and folders
    are not part of it."""
    digest = hashlib.sha256()
    for part in (*_builder_parts(), str(len(ruleset.texts))):
        digest.update(part.encode() + b"\0")
    for text in ruleset.texts:
        digest.update(hashlib.sha256(text.encode()).digest())
    if ruleset.chosen:
        digest.update(b"options\0" + describe(ruleset.chosen).encode())
    return digest.hexdigest()


def generate_file(path: Path, options: Mapping[str, object] | None = None) -> ModuleSource:
    """The generated module source for ``path`` under ``options``, its files named as
    messages name them."""
    ruleset = check_file(path, options)
    return generate(ruleset, build_key(ruleset))


def build(path: Path, backend: str = "auto", options: Mapping[str, object] | None = None) -> Built:
    """Compile ``path`` under the table ``options`` (or take that build from the
    cache) and import it.  Each combination of options is its own build.

    ``backend``: ``compiled`` (NotCompiledError if it cannot be compiled),
    ``python`` (the interpreted module), or ``auto`` (compiled, else interpreted:
    ``fallback`` says why, for the caller to warn).  An entry that does not load is
    built again, once.
    """
    ruleset = check_file(path, options)
    key = build_key(ruleset)
    name = module_name(ruleset, key)
    wants_compiled = backend != "python"
    installed = _installed(name) if wants_compiled else None
    if installed is not None:
        return _shown_from(installed, ruleset)
    for attempt in range(2):
        entry = _entry_for(ruleset, key, path, wants_compiled)
        try:
            built = _import(entry, name, key, backend, fresh=attempt > 0)
        except _UnloadableEntry as error:
            if attempt:
                raise MjrError(f"cannot load the build of {path} ({error})") from None
            cache.discard(entry)
            continue
        return _shown_from(built, ruleset)
    raise AssertionError("unreachable")


def _entry_for(ruleset: ir.Ruleset, key: str, path: Path, wants_compiled: bool) -> cache.Entry:
    """The cache's entry of ``key``, built when it is missing or lacks a compile it
    should have.  One process builds it at a time: another waits, then takes it."""

    def ready() -> cache.Entry | None:
        entry = cache.lookup(key)
        return entry if entry is not None and not (wants_compiled and _should_compile(entry)) else None

    found = ready()
    if found is not None:
        return found
    with cache.building(key):
        return ready() or cache.store(key, lambda folder: _write_build(folder, ruleset, key, path, wants_compiled))


def will_compile(path: Path, options: Mapping[str, object] | None = None) -> str | None:
    """The ruleset id in ``path`` when :func:`build` would compile it (no compiled
    build in the cache or installed, nor a failure to compile with this compiler),
    else None.  For progress notes."""
    try:
        ruleset = check_file(path, options)
    except MjrError:
        return None  # building reports it
    key = build_key(ruleset)
    if _find_installed(module_name(ruleset, key)) is not None:
        return None
    entry = cache.lookup(key)
    return ruleset.id if entry is None or _should_compile(entry) else None


def _should_compile(entry: cache.Entry) -> bool:
    """Whether an entry without an extension deserves a compile: never tried, or
    tried with another compiler than the one found now."""
    meta = entry.meta
    return not meta.get("compiled") and (not meta.get("tried") or meta.get("compiler") != compiler_identity())


def _write_build(folder: Path, ruleset: ir.Ruleset, key: str, path: Path, compile_it: bool) -> dict[str, Any]:
    """Fill a new entry's folder: the generated module, and its extension when
    asked and possible.  Returns the entry's metadata."""
    source = generate(portable(ruleset), key)
    py = folder / f"{source.module_name}.py"
    py.write_text(source.text, encoding="utf-8")
    meta: dict[str, Any] = {"ruleset": ruleset.id, "file": str(path.resolve()), "source": py.name,
                            "compiled": None, "tried": compile_it}
    if compile_it:
        compiled, error = compile_module(py)
        meta["compiled"] = compiled.name if compiled else None
        if compiled is None:
            meta["error"] = error
            meta["compiler"] = compiler_identity()
        for leftover in folder.iterdir():  # Cython's C file and build folder
            if leftover.name not in (py.name, meta["compiled"]):
                cache.remove(leftover)
    return meta


def _find_installed(name: str) -> str | None:
    """The file of a compiled module ``mjr._generated.<name>`` installed with mjr."""
    try:
        spec = importlib.util.find_spec(f"mjr._generated.{name}")
    except ImportError:
        return None
    if spec is None or spec.origin is None or spec.origin.endswith(".py"):
        return None
    return spec.origin


def _installed(name: str) -> Built | None:
    """The same build installed with mjr (bundled rulesets are compiled at install
    time; the module name carries the content key, so a match is the same build)."""
    origin = _find_installed(name)
    if origin is None:
        return None
    return Built(importlib.import_module(f"mjr._generated.{name}"), "compiled", Path(origin))


def _shown_from(built: Built, ruleset: ir.Ruleset) -> Built:
    """``built`` with the file names of this load (see :mod:`mjr.compiler.build.relocate`)."""
    module = relocated(built.module, ruleset.files)
    return built if module is built.module else Built(module, built.backend, built.path, built.fallback)


class _UnloadableEntry(Exception):
    """A cache entry whose module does not import, or is not the build it claims."""


def _import(entry: cache.Entry, name: str, key: str, backend: str, fresh: bool) -> Built:
    compiled = entry.compiled
    if backend != "python" and compiled is not None:
        try:
            where = cache.fresh_copy(compiled) if fresh else compiled
        except OSError as error:
            raise _UnloadableEntry(str(error)) from None
        return Built(_load_checked(name, where, key), "compiled", compiled)
    why = str(entry.meta.get("error") or "it was not compiled")
    if backend == "compiled":
        raise NotCompiledError(f"{entry.meta.get('ruleset', name)} could not be compiled: {why}")
    fallback = f"it could not be compiled: {why}" if backend == "auto" else ""
    return Built(_load_checked(name + "_py", entry.source, key), "python", entry.source, fallback)


def _load_checked(name: str, path: Path, key: str) -> ModuleType:
    """Import ``path`` and make sure it is the whole build of ``key``."""
    try:
        module = import_path(name, path)
    except Exception as error:  # anything a broken module file raises while it loads
        raise _UnloadableEntry(f"{type(error).__name__}: {error}") from None
    missing = [attr for attr in _REQUIRED if not hasattr(module, attr)]
    if missing or module.BUILD_KEY != key:
        if sys.modules.get(name) is module:
            del sys.modules[name]
        raise _UnloadableEntry(f"{path.name} is not the build it should be ({', '.join(missing) or 'BUILD_KEY'})")
    return module


def import_path(name: str, path: Path) -> ModuleType:
    """Import the module file ``path`` under ``name``."""
    if name in sys.modules and getattr(sys.modules[name], "__file__", None) == str(path):
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[name] = module
    return module
