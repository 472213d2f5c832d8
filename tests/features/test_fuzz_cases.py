"""Every failure the fuzz harness found stays found: each fixture in fuzz_cases/ is
replayed.  A fixture is ``open`` while the bug is (a strict xfail: when it passes,
mark it ``fixed``) and ``fixed`` afterwards (a plain test)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from fuzz.cases import CASES_DIR, Failure, load_cases, run_one
from fuzz.engines import RUNNERS, Campaign
from fuzz.targets import TARGETS

CASES = load_cases(CASES_DIR)


def _params() -> list[Any]:
    params = []
    for path, record in CASES:
        marks = []
        if record["status"] == "open":
            failure = Failure(**record["failure"])
            marks.append(pytest.mark.xfail(strict=True, reason=f"open: {failure.signature}"))
        params.append(pytest.param(record, id=path.stem, marks=marks))
    return params


def test_fixtures_are_well_formed() -> None:
    assert CASES, "no fixtures: the harness's own test below would not notice a broken replay"
    for path, record in CASES:
        assert set(record) == {"target", "input", "failure", "status"}, path.name
        assert record["target"] in TARGETS and record["status"] in ("open", "fixed"), path.name


@pytest.mark.parametrize("record", _params())
def test_fuzz_case_no_longer_fails(record: dict[str, Any]) -> None:
    failure = run_one(TARGETS[record["target"]], record["input"])
    assert failure is None, failure.signature if failure else ""


def test_the_harness_finds_a_planted_failure(tmp_path: Path) -> None:
    """A target that breaks on some inputs: the campaign finds it, shrinks it and saves it."""
    def planted(text: str) -> None:
        if "win" in text:
            raise IndexError("planted")

    target = replace(TARGETS["notation"], run=planted)
    campaign = Campaign(folder=tmp_path, log=lambda line: None)
    RUNNERS["hypothesis"](target, 200, campaign, seed=1)
    assert campaign.tried["notation"] == 200
    ((failure, small),) = campaign.found.values()
    assert failure.kind == "exception" and failure.detail == "IndexError: planted"
    assert small == "win"
    (saved,) = load_cases(tmp_path)
    assert saved[1]["input"] == "win" and saved[1]["status"] == "open"


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_each_target_runs_a_short_campaign(name: str, tmp_path: Path) -> None:
    campaign = Campaign(folder=CASES_DIR, save=False, log=lambda line: None)
    RUNNERS["hypothesis"](TARGETS[name], 5 if name == "mjr" else 40, campaign, seed=0)
    assert campaign.tried[name] == (5 if name == "mjr" else 40)
    assert not campaign.new, campaign.new
