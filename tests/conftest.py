"""Shared test settings: hypothesis's profile, a build cache private to the run,
the bundled rulesets' combinations of options built before the tests start, and
what the machine can compile.

The private cache is set up in ``pytest_configure``, before collection, because
collecting ``rulesets/*.mjr`` already builds them.  The default cache location is
pointed at an empty folder that must stay empty: a test that ignores
``MJR_CACHE_DIR`` fails instead of writing into the user's cache.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
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


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get("MJR_CACHE_DIR"):
        _made.append(tempfile.mkdtemp(prefix="mjr-test-cache-"))
        os.environ["MJR_CACHE_DIR"] = _made[-1]
    _made.append(tempfile.mkdtemp(prefix="mjr-test-default-cache-"))
    os.environ["XDG_CACHE_HOME"] = _made[-1]
    if compiler_problem() or _installed_interpreted():
        # Everything runs interpreted: the one pure-Python warning of the run is
        # expected wherever it falls.  Tests about the warning catch it themselves.
        config.addinivalue_line("filterwarnings", "ignore::mjr.errors.PurePythonWarning")


def pytest_sessionstart(session: pytest.Session) -> None:
    """On a run of the whole suite, compile every combination of options of every
    bundled ruleset before the test processes start, side by side on every core.

    Three parts of the suite need each of those builds: the examples of the
    ``rulesets/`` files (one process per combination), and the two docs samples of
    ``mjr test`` (every bundled ruleset).  Built on first need, the processes asked
    for the same build at the same moment and one waited, idle, while the other
    compiled (six minutes of a worker, one compile at a time).  Built here, each is
    compiled once with every core busy, and every test finds it in the run's cache.
    Runs in the xdist controller (or the only process), never in a worker; not on a
    run of chosen files, which may need none of them."""
    config = session.config
    if hasattr(config, "workerinput") or config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return
    if compiler_problem() or _installed_interpreted():
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line("compiling the combinations of options of the bundled rulesets ...")
    build_bundled_combinations(os.cpu_count() or 1)


def build_bundled_combinations(workers: int) -> None:
    """Every bundled ruleset under every other combination of options its examples
    are played under, compiled into the run's cache, ``workers`` at a time (a
    compile is a process of its own).  A build that fails is left for its tests
    to report.

    Compiled at ``-O0``, in half the time of ``-O3`` (the most of a run's compiling:
    some fifty builds).  A combination's module is its defaults' module with other
    constants and examples, and the defaults are the ``-O3`` builds made at install,
    which every test of a bundled ruleset's own options runs on."""
    from concurrent.futures import ThreadPoolExecutor

    from mjr.authoring.examples import other_options
    from mjr.ruleset.loader import bundled_ids

    def combinations(ident: str) -> list[tuple[str, dict[str, object]]]:
        try:
            return [(ident, options) for options in other_options(mjr.load(ident, backend="compiled"))]
        except MjrError:
            return []  # its tests fail, saying why

    def build(job: tuple[str, dict[str, object]]) -> None:
        try:
            mjr.load(job[0], backend="compiled", **job[1])
        except MjrError:
            pass  # the examples of that combination fail, saying why

    wanted = [job for ident in bundled_ids() for job in combinations(ident)]
    with _c_flags("-O0"), ThreadPoolExecutor(max_workers=max(workers, 1)) as pool:
        list(pool.map(build, wanted))


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
