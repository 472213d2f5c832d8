"""What importing mjr costs: the modules it brings in, seen from a fresh interpreter.

``import mjr`` loads nothing but the package (its names come on first use), and
scoring with a bundled ruleset that was built at install needs the runtime alone:
not the compiler, nor the parser and template libraries it uses, nor the standard
modules only an error message or a source file needs.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import mjr
from mjr._moved import MOVED
from mjr.ruleset.loader import is_installed

#: 123m 456p 789s 123s 55z as 34 tile counts
WINNING_COUNTS = [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 2, 0, 0]
HEAVY = ("lark", "jinja2", "mjr.compiler", "mjr.dsl", "Cython", "argparse", "difflib", "typing", "pathlib")


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter has imported after running ``code``."""
    script = f"import sys\n{code}\nimport json\nprint(json.dumps(sorted(sys.modules)))"
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env,
                          cwd=os.path.dirname(sys.executable))  # not the checkout: mjr is the installed package
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def heavy_among(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY))


def test_import_mjr_loads_only_the_package() -> None:
    modules = modules_after("import mjr")
    # the package, its version and the finder of the module paths that moved (mjr._moved)
    assert sorted(m for m in modules if m.startswith("mjr")) == ["mjr", "mjr._moved", "mjr._version"]
    assert heavy_among(modules) == []


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_module_path_that_moved_still_imports_with_a_warning(old: str) -> None:
    new = importlib.import_module(f"mjr.{MOVED[old]}")
    sys.modules.pop(f"mjr.{old}", None)
    with pytest.warns(DeprecationWarning, match=rf"mjr\.{old} is now mjr\.{MOVED[old]}; the old path goes in mjr 0\.3"):
        module = importlib.import_module(f"mjr.{old}")
    public = [name for name in dir(new) if not name.startswith("_")]
    assert public and all(getattr(module, name) is getattr(new, name) for name in public)
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018


def test_only_the_paths_that_moved_are_found_by_their_old_names() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("mjr.no_such_module")
    assert not set(MOVED) & {path.stem for path in Path(mjr.__file__).parent.glob("*.py")}


@pytest.mark.parametrize("code", [
    "import mjr; mjr.load('guangdong.jipinghu').evaluate('123m 456p 789s 123s 5z win 5z')",
    f"import mjr; mjr.load('guangdong.jipinghu').evaluate_counts({bytes(WINNING_COUNTS)!r})",
])
def test_scoring_with_an_installed_ruleset_needs_the_runtime_alone(code: str) -> None:
    if not is_installed("guangdong.jipinghu"):
        pytest.skip("guangdong.jipinghu has no build from the install (a source checkout)")
    if mjr.load("guangdong.jipinghu").backend != "compiled":
        pytest.skip("installed without a C compiler: an interpreted module imports Cython's pure-Python shadow")
    assert heavy_among(modules_after(code)) == []


def test_every_bundled_ruleset_built_at_install_is_found() -> None:
    """The loader finds the builds the install made, wherever its own module sits in
    the package: loading a bundled ruleset must not compile it again."""
    if not (Path(mjr.__file__).parent / "_generated" / "index.json").is_file():
        pytest.skip("a source checkout: the bundled rulesets were not built into the package")
    assert [ident for ident in mjr.bundled_ids() if not is_installed(ident)] == []


def test_every_public_name_resolves_from_its_module() -> None:
    for name in mjr.__all__:
        value = getattr(mjr, name)
        assert value is not None
        if name != "__version__":
            assert value.__module__.startswith("mjr."), name
    assert set(mjr.__all__) <= set(dir(mjr))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Rulesett'"):
        mjr.Rulesett  # noqa: B018
