"""Shared test settings: hypothesis's profile, the test runs' own build cache,
the bundled rulesets' combinations of options built before the tests start, and
what the machine can compile.

The test runs' cache is set up in ``pytest_configure``, before collection, because
collecting ``rulesets/*.mjr`` already builds them.  It is kept between runs inside
the virtual environment (:func:`kept_cache`), never the user's own cache; an
explicit ``MJR_CACHE_DIR`` wins.  The default cache location is pointed at an empty
folder that must stay empty: a test that ignores ``MJR_CACHE_DIR`` fails instead of
writing into the user's cache.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import mjr
from mjr.compiler.build.toolchain import compiler_problem
from mjr.errors import MjrError, NotCompiledError

# How fast hypothesis generates inputs depends on the machine's load, not on mjr:
# no timing health checks and no deadlines (speed is measured in benchmarks/).
settings.register_profile("mjr", suppress_health_check=[HealthCheck.too_slow], deadline=None)
settings.load_profile("mjr")

_made: list[str] = []


def _installed_interpreted() -> bool:
    """Whether mjr itself was installed without a C compiler."""
    import mjr.ruleset.kernels

    return str(mjr.ruleset.kernels.__file__).endswith(".py")


def default_cache() -> Path:
    """Where mjr's cache would be with ``MJR_CACHE_DIR`` unset."""
    return Path(os.environ["XDG_CACHE_HOME"]) / "mjr"


def kept_cache() -> Path | None:
    """The build cache test runs keep between runs: ``<venv>/var/mjr-test-cache/KEY``,
    KEY a digest of what builds depend on besides the rulesets (mjr's compiler and
    templates, Cython, the Python ABI) and of the C compiler found.  Its entries are
    keyed by content, as in any cache, so a changed ruleset is built anew; a folder
    of another KEY holds builds no run will use again and is removed.  None outside a
    virtual environment (a temporary cache serves each run then)."""
    if sys.prefix == sys.base_prefix:
        return None
    from mjr.compiler.build import builder_key
    from mjr.compiler.build.toolchain import compiler_identity

    base = Path(sys.prefix) / "var" / "mjr-test-cache"
    current = base / hashlib.sha256(f"{builder_key()}\0{compiler_identity()}".encode()).hexdigest()[:16]
    for other in base.iterdir() if base.is_dir() else []:
        if other != current:
            shutil.rmtree(other, ignore_errors=True)
    return current


def out_of_date_modules(package: Path) -> list[str]:
    """The compiled modules of mjr's source folder ``package`` (an editable install
    builds them in place) that this Python would import though their source has
    changed since, or is gone: the tests would test the old build, not the source."""
    if package.name != "runtime":  # an installed package: built and copied whole
        return []
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    stale = []
    for built in package.rglob(f"*{suffix}"):
        source = built.with_name(built.name.removesuffix(suffix) + ".py")
        if not source.is_file():
            stale.append(f"{built.relative_to(package.parent)} (its source is gone: delete it)")
        elif source.stat().st_mtime > built.stat().st_mtime:
            stale.append(str(source.relative_to(package.parent)))
    return sorted(stale)


def pytest_configure(config: pytest.Config) -> None:
    stale = out_of_date_modules(Path(mjr.__file__).parent)
    if stale:
        raise pytest.UsageError(f"out of date, the source changed since the module was compiled: {', '.join(stale)}; "
                                "build them again (pip install --no-deps -e .)")
    if not os.environ.get("MJR_CACHE_DIR"):
        kept = kept_cache()
        if kept is None:
            _made.append(tempfile.mkdtemp(prefix="mjr-test-cache-"))
        os.environ["MJR_CACHE_DIR"] = str(kept) if kept is not None else _made[-1]
    _made.append(tempfile.mkdtemp(prefix="mjr-test-default-cache-"))
    os.environ["XDG_CACHE_HOME"] = _made[-1]
    if compiler_problem() or _installed_interpreted():
        # Everything runs interpreted: the one pure-Python warning of the run is
        # expected wherever it falls.  Tests about the warning catch it themselves.
        config.addinivalue_line("filterwarnings", "ignore::mjr.errors.PurePythonWarning")


def pytest_sessionstart(session: pytest.Session) -> None:
    """On a run of the whole suite, compile every combination of options of every
    bundled ruleset before the test processes start, side by side on every core,
    a line on the terminal as each compile starts.

    Three parts of the suite need each of those builds: the examples of the
    ``rulesets/`` files (one process per combination), and the two docs samples of
    ``mjr test`` (every bundled ruleset).  Built on first need, the processes asked
    for the same build at the same moment and one waited, idle, while the other
    compiled (six minutes of a worker, one compile at a time).  Built here, each is
    compiled once with every core busy, and every test finds it in the run's cache
    (and the next run in the kept cache: nothing is compiled then).  Runs in the
    xdist controller (or the only process), never in a worker; not on a run of
    chosen files, which may need none of them."""
    config = session.config
    if hasattr(config, "workerinput") or config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return
    if compiler_problem() or _installed_interpreted():
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")

    def say(line: str) -> None:
        if reporter is not None:
            reporter.write_line(line)
            reporter.flush()  # at once, not when pytest next writes: compiles take minutes

    build_bundled_combinations(os.cpu_count() or 1, say)


def build_bundled_combinations(workers: int, say: Callable[[str], None] = print) -> None:
    """Every bundled ruleset under every other combination of options its examples
    are played under, compiled into the run's cache, ``workers`` at a time (a
    compile is a process of its own); ``say`` gets a line as each compile starts,
    and one when all are done.  What the cache holds already is not compiled
    again.  A build that fails is left for its tests to report.

    Compiled at ``-O0``, in half the time of ``-O3`` (the most of a run's compiling:
    some fifty builds).  A combination's module is its defaults' module with other
    constants and examples, and the defaults are the ``-O3`` builds made at install,
    which every test of a bundled ruleset's own options runs on: one the install did
    not make (a source checkout, or a ruleset changed since) is compiled first, at
    ``-O3`` as a user's would be."""
    from mjr.authoring.examples import other_options
    from mjr.ruleset.loader import bundled_ids

    def combinations(ident: str) -> list[tuple[str, dict[str, object]]]:
        try:
            return [(ident, options) for options in other_options(mjr.load(ident, backend="compiled"))]
        except MjrError:
            return []  # its tests fail, saying why

    began = time.monotonic()
    defaults = [(ident, {}) for ident in bundled_ids()]
    _compile(defaults, workers, say, "the default options of")
    wanted = [job for ident in bundled_ids() for job in combinations(ident)]
    with _c_flags("-O0"):
        count = _compile(wanted, workers, say)
    if count:
        say(f"mjr: {count} combinations of options of the bundled rulesets compiled in "
            f"{time.monotonic() - began:.0f} s")


def _compile(jobs: list[tuple[str, dict[str, object]]], workers: int, say: Callable[[str], None],
             what: str = "") -> int:
    """Build each (ruleset id, options) of ``jobs`` that the cache (or the install)
    lacks, ``workers`` at a time, a line to ``say`` as each starts; returns how many
    were built."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Lock

    from mjr.options import describe

    todo = [job for job in jobs if needs_compile(*job)]
    started = Lock()
    done = [0]

    def build(job: tuple[str, dict[str, object]]) -> None:
        with started:
            done[0] += 1
            say(f"mjr: [{done[0]}/{len(todo)}] compiling {what + ' ' if what else ''}"
                f"{job[0]} {describe(job[1].items())}".rstrip() + " ...")
        try:
            mjr.load(job[0], backend="compiled", **job[1])
        except MjrError:
            pass  # the examples of that combination fail, saying why

    with ThreadPoolExecutor(max_workers=max(workers, 1)) as pool:
        list(pool.map(build, todo))
    return len(todo)


def needs_compile(ident: str, options: Mapping[str, object]) -> bool:
    """Whether loading the bundled ruleset ``ident`` under ``options`` compiles it: no
    build of it is installed or in the cache."""
    from mjr.compiler.build import find_source
    from mjr.compiler.build import will_compile as compiles

    path = find_source(ident)
    return path is not None and compiles(path, options) is not None


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _made:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def _default_cache_untouched() -> Iterator[None]:
    yield
    assert not default_cache().exists(), f"this test wrote into the default cache location {default_cache()}"


@pytest.fixture
def fresh_process_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the next interpreted load warn, as the first one in a process does."""
    import threading

    import mjr.ruleset.loader

    monkeypatch.setattr(mjr.ruleset.loader, "_interpreted_warning", threading.Event())


# The bundled rulesets, loaded once for the whole run.
@pytest.fixture(scope="session")
def jipinghu() -> mjr.Ruleset:
    return mjr.load("guangdong.jipinghu")


@pytest.fixture(scope="session")
def sichuan() -> mjr.Ruleset:
    return mjr.load("sichuan.xuezhan")


@pytest.fixture(scope="session")
def tuidaohu() -> mjr.Ruleset:
    return mjr.load("guangdong.tuidaohu")


def complete_by_the_module(ruleset: mjr.Ruleset, hand: mjr.Hand) -> bool | None:
    """Whether the ruleset's module, scoring the whole hand, finds its tiles complete
    (however it was won, whatever it scores): the reference for the look-ups from
    counts (``shape_completes``, ``shape_may_wait``), which ``is_win`` and ``waits``
    use themselves.  None for a hand no game can hold."""
    from mjr.abi import STATUS_REFUSED, STATUS_SHAPE

    try:
        ruleset.check_hand(hand, winning=True)
    except MjrError:
        return None
    status = ruleset._run(hand)[0]
    return status != STATUS_SHAPE and status < STATUS_REFUSED


def completed_by_a_tile(ruleset: mjr.Ruleset, hand: mjr.Hand) -> bool:
    """Whether some kind of the tile set completes a hand one tile short, by the module's
    whole-hand reference (:func:`complete_by_the_module`)."""
    return any(complete_by_the_module(ruleset, hand.with_win(kind)) for kind in sorted(ruleset.kinds))


def load_on(name: str | Path, backend: str, *, unoptimised: bool = False, **options: object) -> mjr.Ruleset:
    """A ruleset on ``backend`` under the table ``options``; the test is skipped where
    it cannot be compiled.

    ``unoptimised``: a file a test wrote to try a construct of the language on a few
    hands is compiled at ``-O0``, in about half the time of the ``-O3`` build users get
    (the C compiler's optimisation changes how fast a module runs, not what it
    computes).  The run's cache keeps that build under the file's key: use it only
    for a text no other test loads expecting the optimised build."""
    try:
        with _c_flags("-O0") if unoptimised and backend != "python" else nullcontext():
            return mjr.load(name, backend=backend, **options)
    except NotCompiledError as error:
        pytest.skip(f"needs a working C compiler: {error}")


def unoptimised(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` with ``-O0`` last in its ``CFLAGS`` (so it wins): for a child process
    whose compile a test needs to happen, not to run fast (half the time of ``-O3``)."""
    return {**environ, "CFLAGS": _with_flags(environ.get("CFLAGS"), "-O0")}


def _with_flags(before: str | None, flags: str) -> str:
    return f"{before or ''} {flags}".strip()


@contextmanager
def _c_flags(flags: str) -> Iterator[None]:
    """``CFLAGS`` with ``flags`` last (so they win) while the block runs."""
    before = os.environ.get("CFLAGS")
    os.environ["CFLAGS"] = _with_flags(before, flags)
    try:
        yield
    finally:
        if before is None:
            del os.environ["CFLAGS"]
        else:
            os.environ["CFLAGS"] = before


@pytest.fixture(scope="module")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A build cache of the module's own (``pytestmark =
    pytest.mark.usefixtures("private_cache")``): for tests that build rulesets written
    on the fly, or count what a command compiles."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MJR_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        yield


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``mjr ARGV...`` in this process: its exit code, standard output and error,
    never a traceback."""
    from mjr import cli

    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def write_rulesets(folder: Path, texts: dict[str, str]) -> dict[str, Path]:
    """Each ruleset text of ``texts`` written to ``folder/ID.mjr`` (ID its ruleset
    id, as the loader expects): the paths, by the same keys."""
    found = {}
    for key, text in texts.items():
        found[key] = folder / f"{text.split()[1]}.mjr"
        found[key].write_text(text, encoding="utf-8")
    return found
