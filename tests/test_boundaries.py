"""The house's boundaries: the runtime runs a built ruleset without lark, jinja2 or
the compiler, and no region knowledge lives in the engine."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mjr
from mjr.compiler.model.vocabulary import ALL_WORDS

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ("dsl", "compiler", "runtime")


def test_a_bundled_ruleset_runs_with_the_runtime_alone() -> None:
    pytest.importorskip("mjr._generated", reason="bundled rulesets are built at install time")
    script = (
        "import sys, mjr\n"
        "r = mjr.load('guangdong.jipinghu').evaluate('234m 567m 345p 678s 2s win 2s self_draw')\n"
        "assert r.points == 4, r\n"
        "print(sorted(m for m in ('lark', 'jinja2', 'mjr.compiler', 'mjr.dsl') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def _region_words() -> set[str]:
    """Region names, fan names and fan ids of the bundled rulesets.  An id part that is
    a word of the language (the ruleset ``simple``) names the word where the engine
    says it, not the region."""
    words = set()
    for ident in mjr.bundled_ids():
        ruleset = mjr.load(ident, backend="python")
        parts = ident.split(".")
        if len(ruleset.module.FILES) > 1:  # a variant's last part names the variation (cap5, thirteen)
            parts = parts[:-1]
        words.update(part for part in parts if len(part) > 4 and part not in ALL_WORDS)
        words.update(fan.name for fan in ruleset.fans)  # display names: 鸡胡, 混一色, ...
        words.update(fan.id for fan in ruleset.fans if "_" in fan.id)  # half_flush, all_pungs, ...
    return words


def test_no_region_knowledge_in_the_engine() -> None:
    if not all((ROOT / folder).is_dir() for folder in ENGINE):
        pytest.skip("needs the source tree")
    pattern = re.compile("|".join(rf"(?<![\w]){re.escape(w)}(?![\w])" for w in sorted(_region_words())))
    found = []
    for folder in ENGINE:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".lark", ".j2") and path.is_file():
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if pattern.search(line):
                        found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "region knowledge in the engine:\n" + "\n".join(found)


#: The compiler's rooms in stage order: each imports only the rooms before it.
STAGES = ("model", "front", "check", "emit", "build")


def _imports(path: Path, package: str) -> list[str]:
    """Every module ``path`` imports, at any depth (a function-level import counts),
    except under ``if TYPE_CHECKING:``; relative imports resolved in ``package``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and ast.unparse(block.test).endswith("TYPE_CHECKING") for node in ast.walk(block)}
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]) if node.level else ""
            module = ".".join(part for part in (base, node.module) if part)
            found += [f"{module}.{alias.name}" for alias in node.names]  # a name or a submodule
    return found


def test_each_compiler_stage_imports_only_the_stages_before_it() -> None:
    compiler = ROOT / "compiler"
    if not compiler.is_dir():
        pytest.skip("needs the source tree")
    assert sorted(p.name for p in compiler.glob("*.py")) == ["__init__.py"], "every module lives in a room"
    wrong = []
    for room in STAGES:
        modules = sorted((compiler / room).glob("*.py"))
        assert 1 < len(modules) <= 16, f"compiler/{room} holds {len(modules) - 1} modules"
        siblings = {path.stem for path in modules}
        for path in modules:
            for target in _imports(path, f"mjr.compiler.{room}"):
                parts = target.split(".")
                if parts[:2] != ["mjr", "compiler"]:
                    continue
                where = parts[2] if len(parts) > 2 else ""
                if where not in STAGES or STAGES.index(where) > STAGES.index(room):
                    wrong.append(f"compiler/{room}/{path.name} imports {target}")
                elif where == room and (len(parts) < 4 or parts[3] not in siblings):  # never through __init__
                    wrong.append(f"compiler/{room}/{path.name} imports {target} through its room's __init__")
    assert not wrong, "\n".join(wrong)
