"""Shared test settings."""

import pytest
from hypothesis import HealthCheck, settings

import mjr

# How fast hypothesis generates inputs depends on the machine's load, not on mjr:
# no timing health checks and no deadlines (speed is measured in benchmarks/).
settings.register_profile("mjr", suppress_health_check=[HealthCheck.too_slow], deadline=None)
settings.load_profile("mjr")


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
