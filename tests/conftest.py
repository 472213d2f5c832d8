"""Shared test settings."""

from hypothesis import HealthCheck, settings

# How fast hypothesis generates inputs depends on the machine's load, not on mjr:
# no timing health checks and no deadlines (speed is measured in benchmarks/).
settings.register_profile("mjr", suppress_health_check=[HealthCheck.too_slow], deadline=None)
settings.load_profile("mjr")
