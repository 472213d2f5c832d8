"""What the packaging promises without building a wheel: one version, read from
``mjr._version`` by setuptools, the CLI and the build keys alike; the license file
named in pyproject.toml and present; the files the source distribution builds from."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import mjr
from mjr._version import __version__

tomllib = pytest.importorskip("tomllib", reason="tomllib: the standard library from Python 3.11")

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_is_written_once_and_read_by_setuptools() -> None:
    project = PROJECT["project"]
    assert "version" not in project
    assert "version" in project["dynamic"]
    assert PROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "mjr._version.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+(?:(?:a|b|rc)\d+)?(?:\.dev\d+)?", __version__)


def test_the_installed_distribution_carries_the_version_of_the_package() -> None:
    assert mjr.__version__ == __version__ == metadata.version(PROJECT["project"]["name"])


def test_the_command_line_says_the_same_version() -> None:
    done = subprocess.run([sys.executable, "-m", "mjr", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"mjr {__version__}"


def test_the_license_file_is_named_and_says_mit() -> None:
    project = PROJECT["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the mjr authors" in text
    assert metadata.metadata(project["name"])["License-Expression"] == "MIT"


def test_the_classifiers_name_the_pytest_plugin_and_the_python_versions() -> None:
    project = PROJECT["project"]
    classifiers = project["classifiers"]
    assert "Framework :: Pytest" in classifiers
    assert "pytest11" in project["entry-points"]  # the plugin the classifier announces
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    oldest = project["requires-python"].removeprefix(">=")
    versions = [c.rpartition(" :: ")[2] for c in classifiers
                if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert versions and versions[0] == oldest, (versions, oldest)


def test_the_source_distribution_takes_the_top_level_documents() -> None:
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").split()
    for name in ("LICENSE", "README.md", "CHANGELOG.md"):
        assert name in manifest and (ROOT / name).is_file(), name
    assert PROJECT["project"]["readme"] == "README.md"
