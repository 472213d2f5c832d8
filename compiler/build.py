"""Build a ``.mjr`` file into an importable module, through a content-keyed cache.

``_parse -> _check -> _generate -> _compile``, each a small step, as a template
engine does it.  The cache key is the sha256 of every source text in the
``extends`` chain, mjr's version, the templates, Cython's version and the Python
ABI, so an edit to any of them is a new entry; entries are written to a temporary
folder and moved in with ``os.replace``, so two processes building the same file
at once both end with a valid module, and an entry that fails to import is rebuilt.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import Cython

from mjr import __version__
from mjr.dsl import ast
from mjr.dsl.parser import parse
from mjr.dsl.quoting import quoted
from mjr.errors import MjrError, SourceError, problem_at

from . import ir
from .checker import check
from .codegen import ModuleSource, generate, module_name, template_hash

_META = "entry.json"


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
    for folder in search_path(near):
        candidate = folder / f"{ident}.mjr"
        if candidate.is_file():
            return candidate
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


def check_file(path: Path) -> ir.Ruleset:
    """Parse and check ``path``; raises SourceError listing every problem."""
    root = parse_file(path)

    def resolve(ident: str) -> ast.Ruleset | None:
        source = find_source(ident, path.parent)
        return parse_file(source, ident) if source is not None else None

    return check(root, resolve, lambda: known_ids(path.parent))


def build_key(ruleset: ir.Ruleset) -> str:
    digest = hashlib.sha256()
    cython_version = str(getattr(Cython, "__version__", ""))
    abi = sysconfig.get_config_var("SOABI") or sys.version
    for part in (__version__, template_hash(), cython_version, abi):
        digest.update(part.encode() + b"\0")
    for file, text in zip(ruleset.files, ruleset.texts, strict=True):
        digest.update(file.encode() + b"\0")
        digest.update(text.encode() + b"\0")
    return digest.hexdigest()


def cache_dir() -> Path:
    if "MJR_CACHE_DIR" in os.environ:
        return Path(os.environ["MJR_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mjr"


def generate_file(path: Path) -> ModuleSource:
    ruleset = check_file(path)
    return generate(ruleset, build_key(ruleset))


def build(path: Path, backend: str = "auto") -> Built:
    """Compile ``path`` (or take it from the cache) and import it.

    ``backend``: ``compiled`` (fail if it cannot be compiled), ``python`` (the
    interpreted module), or ``auto`` (compiled, else interpreted: ``fallback``
    says why, for the caller to warn).
    """
    ruleset = check_file(path)
    key = build_key(ruleset)
    entry = cache_dir() / key[:2] / key
    source = generate(ruleset, key)
    wants_compiled = backend != "python"
    installed = _installed(source.module_name) if wants_compiled else None
    if installed is not None:
        return installed
    for attempt in range(2):
        meta = _read_meta(entry)
        if meta is None or (wants_compiled and not meta.get("tried")):
            _write_entry(entry, source, compile_it=wants_compiled)
            meta = _read_meta(entry)
            if meta is None:
                raise MjrError(f"could not write the build cache at {entry}")
        try:
            return _import(entry, source.module_name, backend, meta)
        except (ImportError, SyntaxError) as error:  # a corrupt entry: build it again
            if attempt:
                raise MjrError(f"cannot import the build of {path} ({error})") from None
            shutil.rmtree(entry, ignore_errors=True)
    raise AssertionError("unreachable")


def will_compile(path: Path) -> str | None:
    """The ruleset id in ``path`` when :func:`build` would compile it (no compiled
    build in the cache or installed), else None.  For progress notes."""
    try:
        ruleset = check_file(path)
    except MjrError:
        return None  # building reports it
    key = build_key(ruleset)
    meta = _read_meta(cache_dir() / key[:2] / key)
    if (meta is not None and meta.get("tried")) or _find_installed(module_name(ruleset, key)) is not None:
        return None
    return ruleset.id


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


def _import(entry: Path, name: str, backend: str, meta: dict[str, object]) -> Built:
    compiled = entry / str(meta.get("compiled") or "")
    if backend != "python" and meta.get("compiled") and compiled.is_file():
        return Built(import_path(name, compiled), "compiled", compiled)
    if backend == "compiled":
        raise MjrError(f"{name} could not be compiled: {meta.get('error', 'no C compiler')}")
    source = entry / f"{name}.py"
    fallback = "it could not be compiled" if backend == "auto" else ""
    return Built(import_path(name + "_py", source), "python", source, fallback)


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


def _read_meta(entry: Path) -> dict[str, object] | None:
    try:
        meta = json.loads((entry / _META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or not (entry / str(meta.get("source", ""))).is_file():
        return None
    return meta


def _write_entry(entry: Path, source: ModuleSource, compile_it: bool) -> None:
    """Generate (and compile) in a private folder, then move each file into place;
    the metadata file goes last, so a reader never sees half an entry."""
    entry.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=entry.parent, prefix=".build-") as work:
        folder = Path(work)
        py = folder / f"{source.module_name}.py"
        py.write_text(source.text, encoding="utf-8")
        meta: dict[str, object] = {"source": py.name, "compiled": None, "tried": compile_it}
        if compile_it:
            compiled, error = compile_module(py)
            meta["compiled"] = compiled.name if compiled else None
            if error:
                meta["error"] = error
            if compiled:
                os.replace(compiled, entry / compiled.name)
        os.replace(py, entry / py.name)
        (folder / _META).write_text(json.dumps(meta), encoding="utf-8")
        os.replace(folder / _META, entry / _META)


def compile_module(py: Path) -> tuple[Path | None, str]:
    """Cythonize and build ``py`` in its folder; the extension's path, or None and why."""
    command = [sys.executable, "-c", "from Cython.Build.Cythonize import main; main()", "-i", "-3", "-q", py.name]
    try:
        done = subprocess.run(command, cwd=py.parent, capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, str(error)
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    built = py.with_name(py.stem + suffix)
    if done.returncode != 0 or not built.is_file():
        lines = (done.stderr or done.stdout).strip().splitlines()
        return None, lines[-1] if lines else f"exit status {done.returncode}"
    return built, ""
