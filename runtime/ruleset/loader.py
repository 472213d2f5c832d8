"""Find and load rulesets: bundled ids, or paths to ``.mjr`` files.

Bundled rulesets are generated and compiled when mjr is installed, into the package
``mjr._generated`` with an index of ids; loading one needs the runtime alone.  A
``.mjr`` path (or an id with no installed build, as in a source checkout) goes
through the compiler and its cache: the one doorway from the runtime into the
compiler, taken only when there is source to compile.
"""

from __future__ import annotations

import importlib
import os
import threading
import warnings
from functools import lru_cache

from ..abi import ruleset_id_problem
from ..errors import MjrError, NotCompiledError, PurePythonWarning, clip_repr, did_you_mean
from ..options import Value as OptionValue
from ..options import choose
from .loaded import Ruleset

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path
    from typing import Any

#: where the package mjr is installed, its bundled rulesets' builds in _generated/ (os.path:
#: loading a bundled ruleset needs no pathlib)
_PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
BACKENDS = ("auto", "compiled", "python")
#: bundled rulesets built under other options than their defaults, by (id, backend, combination)
_combinations: dict[tuple[str, str, tuple[tuple[str, OptionValue], ...]], Ruleset] = {}
_combinations_lock = threading.Lock()
#: the pure-Python warning is given once per process (set once it has been)
_interpreted_warning = threading.Event()
_warning_lock = threading.Lock()


@lru_cache(maxsize=1)
def _index() -> dict[str, Any]:
    import json

    try:
        with open(os.path.join(_PACKAGE, "_generated", "index.json"), encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def bundled_ids() -> list[str]:
    """Ids of the rulesets shipped with mjr."""
    ids = set(_index())
    folder = _rulesets_dir()
    if folder is not None:
        ids.update(path.stem for path in folder.glob("*.mjr"))
    return sorted(ids)


def is_installed(ident: str) -> bool:
    """Whether ``ident`` was built when mjr was installed (loading it compiles nothing)."""
    return ident in _index()


def _rulesets_dir() -> Path | None:
    try:
        import mjr.rulesets
    except ImportError:  # pragma: no cover - always installed with mjr
        return None
    from pathlib import Path

    return Path(mjr.rulesets.__file__).resolve().parent


def load(name: str | Path, backend: str = "auto", **options: object) -> Ruleset:
    """A ruleset by id (bundled, or ``ID.mjr`` in a folder of ``MJR_PATH``) or by
    path to a ``.mjr`` file, with the table ``options`` chosen (the defaults for
    the rest): ``mjr.load(ID, ghost="white", tiles=108)``.

    ``backend``: ``auto`` (compiled where possible, else interpreted with a
    warning), ``compiled`` (an error if it cannot be), or ``python`` (interpreted).
    Each combination of options is its own build, made once and kept (a bundled
    ruleset's defaults were built when mjr was installed).
    """
    if backend not in BACKENDS:
        raise MjrError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")
    text = str(name)
    if text.endswith(".mjr") or isinstance(name, os.PathLike) or "/" in text:
        from pathlib import Path

        return _load_source(Path(text), backend, options)
    entry = _index().get(text)
    if entry is not None:
        default = _load_bundled(text, entry, backend)
        return _with_options(default, backend, options) if options else default
    if too_long := ruleset_id_problem(text):
        raise MjrError(f"no ruleset can be named {clip_repr(text)}: {too_long}")
    from mjr.compiler.build import find_source, known_ids  # only ids with no installed build

    source = find_source(text)
    if source is not None:
        return _load_source(source, backend, options)
    raise MjrError(f"unknown ruleset {text!r}{did_you_mean(text, known_ids())}; 'mjr list' shows the bundled ones")


def _load_bundled(ident: str, entry: dict[str, Any], backend: str) -> Ruleset:
    module_name = f"mjr._generated.{entry['module']}"
    if backend == "python":
        from importlib.util import module_from_spec, spec_from_file_location

        path = os.path.join(_PACKAGE, "_generated", f"{entry['module']}.py")
        spec = spec_from_file_location(module_name + "_py", path)
        if spec is None or spec.loader is None:
            raise MjrError(f"the bundled ruleset {ident} is missing its source module")
        module = module_from_spec(spec)
        spec.loader.exec_module(module)
        return Ruleset(module, "python")
    module = importlib.import_module(module_name)
    compiled = not str(module.__file__).endswith(".py")
    if not compiled:
        if backend == "compiled":
            raise NotCompiledError(f"the bundled ruleset {ident} could not be compiled when mjr was installed "
                                   "(no C compiler); reinstall with one")
        _warn_interpreted(ident, "installed without a C compiler")
    return Ruleset(module, "compiled" if compiled else "python")


def _with_options(default: Ruleset, backend: str, given: dict[str, object]) -> Ruleset:
    """A bundled ruleset under other options than its defaults: the choice is
    checked against the installed table first, and a combination is built from the
    bundled source once per process (and once per cache)."""
    fixed = {name: value for name, value in default.options.items() if name not in default.choices}
    chosen = {name: value for name, value in choose(default.id, default.option_table, fixed, given).items()
              if name not in fixed}  # a fixed option is part of the build, never a choice
    if chosen == default.choices:
        return default
    key = (default.id, backend, tuple(chosen.items()))
    with _combinations_lock:
        ruleset = _combinations.get(key)
    if ruleset is None:
        from mjr.compiler.build import find_source

        source = find_source(default.id)
        if source is None:
            raise MjrError(f"the source of {default.id} is not installed: only its default options can be loaded")
        ruleset = _load_source(source, backend, chosen)
        with _combinations_lock:
            ruleset = _combinations.setdefault(key, ruleset)
    return ruleset


def _load_source(path: Path, backend: str, options: Mapping[str, object] | None = None) -> Ruleset:
    from mjr.compiler import build  # the compiler is needed only for source files

    built = build(path, backend, options)
    ruleset = Ruleset(built.module, built.backend)
    if built.fallback:
        _warn_interpreted(ruleset.id, built.fallback)
    return ruleset


def _warn_interpreted(ident: str, why: str) -> None:
    """One line, pointing at the caller of :func:`load`, and once per process: the
    first ruleset that runs interpreted says so, and why (a machine without a
    compiler would otherwise repeat it for every ruleset it loads)."""
    with _warning_lock:
        if _interpreted_warning.is_set():
            return
        _interpreted_warning.set()
    warnings.warn(f"mjr: {ident} runs interpreted (pure-Python mode): {why}", PurePythonWarning, stacklevel=4)
