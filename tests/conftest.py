"""Shared test settings: hypothesis's profile, a build cache private to the run,
and what the machine can compile.

The private cache is set up in ``pytest_configure``, before collection, because
collecting ``rulesets/*.mjr`` already builds them.  The default cache location is
pointed at an empty folder that must stay empty: a test that ignores
``MJR_CACHE_DIR`` fails instead of writing into the user's cache.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import mjr
from mjr.compiler.toolchain import compiler_problem
from mjr.errors import NotCompiledError

# How fast hypothesis generates inputs depends on the machine's load, not on mjr:
# no timing health checks and no deadlines (speed is measured in benchmarks/).
settings.register_profile("mjr", suppress_health_check=[HealthCheck.too_slow], deadline=None)
settings.load_profile("mjr")

_made: list[str] = []


def _installed_interpreted() -> bool:
    """Whether mjr itself was installed without a C compiler."""
    import mjr.tables

    return str(mjr.tables.__file__).endswith(".py")


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

    import mjr.loader

    monkeypatch.setattr(mjr.loader, "_interpreted_warning", threading.Event())


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


def load_on(name: str | Path, backend: str) -> mjr.Ruleset:
    """A ruleset on ``backend``; the test is skipped where it cannot be compiled."""
    try:
        return mjr.load(name, backend=backend)
    except NotCompiledError as error:
        pytest.skip(f"needs a working C compiler: {error}")
