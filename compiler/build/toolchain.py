"""The C toolchain that turns a generated module into an extension.

Whether a module compiles depends on the machine as much as on the source: a
missing compiler, a ``CC`` that fails or absent Python headers are fixed without
touching any ``.mjr`` file.  So a failed compile is remembered together with
:func:`compiler_identity` (the compiler and linker commands, the files they resolve
to, and the Python headers) and tried again as soon as that identity changes.
Before running Cython at all, :func:`compiler_problem` compiles a one-line C file,
so a machine without a compiler learns it in milliseconds, not seconds.

The same flags serve a ruleset compiled at run time and the modules built at
install (setup.py): :data:`COMPILE_FLAGS`, and Cython's utility code taken from the
installed module :data:`SHARED_UTILITY` rather than repeated in every module.  Which
of the runtime's own modules the install compiles is here too
(:data:`COMPILED_RUNTIME`, :data:`COMPILED_PLAIN`).
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

#: how much of a compiler's complaint a message quotes
_QUOTE = 300

#: C flags put before the user's ``CFLAGS`` (which still win): full optimisation,
#: which the search's loops need (-O2 and -O1 run non-winning hands 2-3x slower),
#: but no debugging information, a quarter of the compile time
COMPILE_FLAGS = ("-O3", "-g0")

#: the module, built at install, with the utility code Cython would otherwise put in
#: every generated module (memoryviews, function objects): 40% less C to compile
SHARED_UTILITY = "mjr._generated._cyutility"
#: beside it, the version of the Cython that wrote it: only the same may link to it
SHARED_UTILITY_VERSION = "cyutility_cython.txt"

#: The runtime's modules written in Cython's pure-Python mode, compiled at install
#: (setup.py): the core kernel (win checks from tables), the writer of hand records
#: and the fast reader of hand notation.
COMPILED_RUNTIME = ("ruleset.kernels", "ruleset.records", "notation.scan")
#: The runtime's modules written as plain Python and compiled at install all the same,
#: their annotations read as Python's (no C types): the table of play and its bots,
#: whose every step runs through them.
COMPILED_PLAIN = tuple(f"table.{name}" for name in ("actions", "bots", "close", "deal", "hands", "referee",
                                                     "seats", "state", "wall", "wild"))

#: the compile of one module, run in a child process: ``python -c SCRIPT MODULE.py [SHARED]``
_COMPILE_SCRIPT = """
import sys, tempfile
from Cython.Build import cythonize
from setuptools import setup
options = {"shared_utility_qualified_name": sys.argv[2]} if len(sys.argv) > 2 else {}
with tempfile.TemporaryDirectory(prefix="mjr-build-") as temp:
    setup(script_args=["-q", "build_ext", "--inplace", "--build-temp", temp],
          ext_modules=cythonize([sys.argv[1]], language_level=3, quiet=True, **options))
"""


def _command(variable: str) -> str:
    """The command setuptools would run for ``CC`` or ``LDSHARED``: the environment's,
    else the one Python was built with."""
    return os.environ.get(variable) or str(sysconfig.get_config_var(variable) or "")


def _include_dirs() -> list[str]:
    paths = sysconfig.get_paths()
    return list(dict.fromkeys(p for p in (paths.get("include"), paths.get("platinclude")) if p))


def _file_stamp(path: str | None) -> str:
    """``path`` with its size and modification time, or ``-`` where there is none."""
    if not path:
        return "-"
    try:
        status = os.stat(path)
    except OSError:
        return f"{path}:missing"
    return f"{path}:{status.st_size}:{status.st_mtime_ns}"


def _program(command: str) -> str | None:
    """The file the first word of ``command`` runs, found on PATH."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return shutil.which(words[0]) if words else None


def compiler_identity() -> str:
    """What a compile depends on besides the source: ``CC`` and ``LDSHARED`` as
    given, the programs they resolve to (size and time), and ``Python.h``."""
    parts = []
    for variable in ("CC", "LDSHARED"):
        command = _command(variable)
        parts.append(f"{variable}={command} -> {_file_stamp(_program(command))}")
    headers = [_file_stamp(str(Path(folder) / "Python.h")) for folder in _include_dirs()]
    parts.append("Python.h " + " ".join(headers))
    return "\n".join(parts)


def compiler_problem() -> str:
    """Why no C extension can be built here, or "" when a test compile works.

    The answer is kept per :func:`compiler_identity`, so a compiler installed or
    ``CC`` changed while the process runs is seen at once."""
    return _probe(compiler_identity())


@lru_cache(maxsize=8)
def _probe(identity: str) -> str:
    command = _command("CC")
    if not command:  # a platform without a configured C compiler (MSVC): let the build tell
        return ""
    try:
        words = shlex.split(command)
    except ValueError as error:
        return f"CC={command!r} cannot be read as a command ({error})"
    with tempfile.TemporaryDirectory(prefix="mjr-probe-") as work:
        probe = Path(work) / "probe.c"
        probe.write_text("#include <Python.h>\nint mjr_probe(void) { return 0; }\n", encoding="utf-8")
        includes = [f"-I{folder}" for folder in _include_dirs()]
        try:
            done = subprocess.run([*words, *includes, "-c", str(probe), "-o", str(probe.with_suffix(".o"))],
                                  cwd=work, capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as error:
            return f"no working C compiler (CC={command!r}: {error})"
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        why = lines[-1][:_QUOTE] if lines else f"exit status {done.returncode}"
        return f"no working C compiler (CC={command!r}: {why})"
    return ""


def compile_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` with :data:`COMPILE_FLAGS` put before its ``CFLAGS``."""
    return {**environ, "CFLAGS": " ".join([*COMPILE_FLAGS, environ.get("CFLAGS", "")]).strip()}


def shared_utility() -> str | None:
    """:data:`SHARED_UTILITY` where it was compiled at install by the Cython that is
    here now, else None (a module then carries its own utility code)."""
    import Cython

    cython_version = str(getattr(Cython, "__version__", ""))

    spec = importlib.util.find_spec(SHARED_UTILITY)
    if spec is None or spec.origin is None or not spec.origin.endswith(sysconfig.get_config_var("EXT_SUFFIX") or ".so"):
        return None
    try:
        written_by = (Path(spec.origin).parent / SHARED_UTILITY_VERSION).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return SHARED_UTILITY if written_by == cython_version else None


def compile_module(py: Path) -> tuple[Path | None, str]:
    """Cythonize and build ``py`` in its folder; the extension's path, or None and why."""
    problem = compiler_problem()
    if problem:
        return None, problem
    shared = shared_utility()
    command = [sys.executable, "-c", _COMPILE_SCRIPT, py.name, *([shared] if shared else [])]
    try:
        done = subprocess.run(command, cwd=py.parent, capture_output=True, text=True, timeout=900,
                              env=compile_environment(os.environ))
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, str(error)[:_QUOTE]
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    built = py.with_name(py.stem + suffix)
    if done.returncode != 0 or not built.is_file():
        lines = (done.stderr or done.stdout).strip().splitlines()
        return None, lines[-1][:_QUOTE] if lines else f"exit status {done.returncode}"
    return built, ""
