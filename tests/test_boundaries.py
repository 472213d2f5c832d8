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
from mjr.compiler import STAGES
from mjr.compiler.model.vocabulary import ALL_WORDS

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ("dsl", "compiler", "runtime")
#: a run of letters, digits and underscores: a whole word of a line
WORD_RUN = re.compile(r"\w+")


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
        if len(ruleset.generated.files) > 1:  # a variant's last part names the variation (cap5, thirteen)
            parts = parts[:-1]
        words.update(part for part in parts if len(part) > 4 and part not in ALL_WORDS)
        words.update(fan.name for fan in ruleset.fans)  # display names: 鸡胡, 混一色, ...
        words.update(fan.id for fan in ruleset.fans if "_" in fan.id)  # half_flush, all_pungs, ...
    return words


def test_no_region_knowledge_in_the_engine() -> None:
    if not all((ROOT / folder).is_dir() for folder in ENGINE):
        pytest.skip("needs the source tree")
    # A word of letters, digits and underscores alone stands between two characters
    # that are none of those exactly where it is one whole run of them in the line: a
    # look-up of each run in a set, not one pattern of every word tried at every place
    # of every line (a minute and a half).  Any other word is still found by a pattern.
    words = _region_words()
    whole = {word for word in words if WORD_RUN.fullmatch(word)}
    others = sorted(words - whole)
    pattern = re.compile("|".join(rf"(?<![\w]){re.escape(w)}(?![\w])" for w in others)) if others else None
    found = []
    for folder in ENGINE:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".lark", ".j2") and path.is_file():
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if not whole.isdisjoint(WORD_RUN.findall(line)) or (pattern and pattern.search(line)):
                        found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "region knowledge in the engine:\n" + "\n".join(found)


# -- the house: rooms, and the direction imports take between them --------------------

#: Each room of the runtime (a subpackage of mjr; "base" is the four modules at the top
#: of the package) and the rooms it may import from; compiler/ and dsl/ are rooms too.
#: docs/development.rst, "The house", draws the same map.
BASE = ("base",)
ROOMS: dict[str, tuple[str, ...]] = {
    "base": (),
    "tiles": BASE,
    "hand": (*BASE, "tiles"),
    "notation": (*BASE, "tiles", "hand"),
    "ruleset": (*BASE, "tiles", "hand", "notation"),
    "table": (*BASE, "tiles", "hand", "notation", "ruleset"),
    "jobs": (*BASE, "tiles", "hand", "notation", "ruleset"),
    "authoring": (*BASE, "tiles", "hand", "notation", "ruleset"),
    "simulate": (*BASE, "tiles", "hand", "notation", "ruleset", "table", "jobs"),
    "plugins": (*BASE, "tiles", "hand", "notation", "ruleset", "authoring"),
    "cli": (*BASE, "tiles", "hand", "notation", "ruleset", "table", "jobs", "authoring", "simulate", "plugins"),
    "dsl": BASE,
}
# The compiler's rooms, its stages: each imports only the stages before it (and the
# base modules, tiles and the language); the package itself is the face of them all.
for _stage, _name in enumerate(STAGES):
    ROOMS[f"compiler.{_name}"] = (*BASE, "tiles", "dsl", *(f"compiler.{before}" for before in STAGES[:_stage]))
ROOMS["compiler"] = (*BASE, "tiles", "dsl", *(f"compiler.{stage}" for stage in STAGES))
ROOMS["cli"] += ("compiler", *(f"compiler.{stage}" for stage in STAGES))  # mjr check, build and cache
#: The one import out of the runtime into the compiler: a ruleset loaded from source.
DOORWAY = ("mjr.ruleset.loader", "mjr.compiler.build")
PACKAGE_FOLDERS = {"runtime": "mjr", "compiler": "mjr.compiler", "dsl": "mjr.dsl"}


def _modules() -> dict[str, Path]:
    """Every module of the source tree by its dotted name."""
    found = {}
    for folder, package in PACKAGE_FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            name = ".".join((package, *parts)).removesuffix(".__init__")
            found[name] = path
    return found


def _room(module: str) -> str:
    parts = module.split(".")
    if parts[1:2] == ["dsl"]:
        return "dsl"
    if parts[1:2] == ["compiler"]:
        return ".".join(parts[1:3])
    if len(parts) > 2 or (len(parts) == 2 and parts[1] not in ("errors", "abi", "options", "_version", "_moved")):
        return "cli" if parts[1:] == ["__main__"] else parts[1]
    return "base"


def _type_only(tree: ast.Module) -> set[ast.AST]:
    """The imports under ``if TYPE_CHECKING:``, which run only for a type checker."""
    return {node for branch in ast.walk(tree) if isinstance(branch, ast.If)
            and isinstance(branch.test, ast.Name) and branch.test.id == "TYPE_CHECKING"
            for statement in branch.body for node in ast.walk(statement)}


def _imports(modules: dict[str, Path]) -> list[tuple[str, str, int]]:
    """(importer, imported module, line) for every import the code runs: at the top of
    a module or deferred into a function alike."""
    edges = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        skip = _type_only(tree)
        for node in ast.walk(tree):
            if node in skip:
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([node.module] if node.module else [])])
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            else:
                continue
            edges += [(name, target, node.lineno) for target in targets if target.split(".")[0] == "mjr"
                      and target in modules]
    return edges


def _source_tree() -> dict[str, Path]:
    if not all((ROOT / folder).is_dir() for folder in ENGINE):
        pytest.skip("needs the source tree")
    return _modules()


def test_every_import_points_down_the_map_of_rooms() -> None:
    modules = _source_tree()
    upward = [f"{modules[source].relative_to(ROOT)}:{line}: {_room(source)} imports {target} ({_room(target)})"
              for source, target, line in _imports(modules)
              if _room(target) != _room(source) and _room(target) not in ROOMS[_room(source)]
              and (source, target) != DOORWAY]
    assert not upward, "imports against the map of rooms:\n" + "\n".join(upward)


def test_a_module_imports_its_siblings_never_its_rooms_init() -> None:
    modules = _source_tree()
    through = [f"{modules[source].relative_to(ROOT)}:{line}: imports {target}"
               for source, target, line in _imports(modules)
               if modules[source].name not in ("__init__.py", "__main__.py") and target == source.rpartition(".")[0]
               and modules[target].name == "__init__.py"]
    assert not through, "imports through a room's __init__ (import the sibling module):\n" + "\n".join(through)


def test_the_rooms_are_the_subpackages() -> None:
    runtime = _source_tree() and ROOT / "runtime"
    assert sorted(p.name for p in runtime.iterdir() if (p / "__init__.py").is_file()) == sorted(mjr.ROOMS)
    assert set(ROOMS) == {"base", "dsl", *mjr.ROOMS, "compiler", *(f"compiler.{stage}" for stage in STAGES)}


def test_every_compiler_module_is_in_a_stage() -> None:
    compiler = _source_tree() and ROOT / "compiler"
    assert sorted(p.name for p in compiler.glob("*.py")) == ["__init__.py"]
    assert sorted(p.name for p in compiler.iterdir() if (p / "__init__.py").is_file()) == sorted(STAGES)


def test_no_circle_of_modules() -> None:
    modules = _source_tree()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for source, target, _ in _imports(modules):
        if target != source:
            graph[source].add(target)
    circles = [sorted(part) for part in _strongly_connected(graph) if len(part) > 1]
    assert not circles, "modules that import each other, directly or around a circle: " + repr(circles)


def test_no_room_holds_more_than_fifteen_modules() -> None:
    modules = _source_tree()
    sizes: dict[Path, int] = {}
    for path in modules.values():
        sizes[path.parent] = sizes.get(path.parent, 0) + (path.name != "__init__.py")
    crowded = {str(folder.relative_to(ROOT)): size for folder, size in sizes.items() if size > 15}
    assert not crowded, crowded


#: The one module that reads the names of a ruleset's generated module.
GENERATED_READER = ROOT / "runtime" / "ruleset" / "module.py"


def test_only_one_module_reads_the_generated_module() -> None:
    """The runtime reads a generated module's constants and entry points through
    ``Ruleset.generated`` (mjr.ruleset.module); ``X.module.NAME`` anywhere else is a
    second reader of the compiler's names."""
    _source_tree()
    found = []
    for path in sorted((ROOT / "runtime").rglob("*.py")):
        if path == GENERATED_READER:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            inner = node.value if isinstance(node, ast.Attribute) else None
            if isinstance(inner, ast.Attribute) and inner.attr == "module":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: .module.{node.attr}")
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
                  and node.args and isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "module"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: getattr(.module, ...)")
    assert not found, "reads of a generated module outside mjr.ruleset.module:\n" + "\n".join(found)


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components, without recursion."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.add(member)
                    if member == node:
                        break
                found.append(part)
    return found
