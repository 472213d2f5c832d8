"""Build step that declarative configuration cannot express.

At install time every bundled ``rulesets/*.mjr`` is checked and generated into a
Cython pure-Python module of the package ``mjr._generated`` (with an index of ids),
and those modules and the core kernel ``mjr.tables`` are compiled.  Compilation is
optional: without a C compiler the same modules install as Python and run
interpreted.  The rest of the configuration lives in pyproject.toml.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent
GENERATED = ROOT / "build" / "mjr_generated"
SOURCE_PACKAGES = {"mjr": "runtime", "mjr.dsl": "dsl", "mjr.compiler": "compiler", "mjr.rulesets": "rulesets"}


def _import_source_tree() -> None:
    """Make ``import mjr...`` find the source folders, as the installed layout maps them."""
    for name, folder in SOURCE_PACKAGES.items():
        path = ROOT / folder
        spec = importlib.util.spec_from_file_location(
            name, path / "__init__.py", submodule_search_locations=[str(path)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, module)
        spec.loader.exec_module(module)


def _generate_bundled() -> list[str]:
    """Generate one module per bundled ruleset; returns their module names."""
    _import_source_tree()
    from mjr.compiler.build import build_key, check_file
    from mjr.compiler.codegen import generate

    shutil.rmtree(GENERATED, ignore_errors=True)
    for stale in ROOT.glob("build/lib*/mjr/_generated"):  # an earlier build's modules
        shutil.rmtree(stale, ignore_errors=True)
    GENERATED.mkdir(parents=True)
    (GENERATED / "__init__.py").write_text('"""Rulesets generated from rulesets/*.mjr at install time."""\n')
    index = {}
    for path in sorted((ROOT / "rulesets").glob("*.mjr")):
        ruleset = check_file(path)
        source = generate(ruleset, build_key(ruleset))
        (GENERATED / f"{source.module_name}.py").write_text(source.text, encoding="utf-8")
        index[ruleset.id] = {"module": source.module_name, "title": ruleset.title, "native": ruleset.native_title}
    (GENERATED / "index.json").write_text(json.dumps(index, indent=1, ensure_ascii=False), encoding="utf-8")
    return [entry["module"] for entry in index.values()]


def _extensions(modules: list[str]) -> list[Extension]:
    extensions = [Extension("mjr.tables", [str(Path("runtime") / "tables.py")], optional=True)]
    for name in modules:
        path = GENERATED.relative_to(ROOT) / f"{name}.py"
        extensions.append(Extension(f"mjr._generated.{name}", [str(path)], optional=True))
    try:
        from Cython.Build import cythonize
    except ImportError:  # no Cython: everything stays pure Python
        return []
    built = cythonize(extensions, language_level=3, quiet=True, build_dir="build/cython")
    for extension in built:
        extension.optional = True  # without a C compiler the modules install as Python
    return built  # type: ignore[no-any-return]


modules = _generate_bundled()
setup(
    package_dir={
        "mjr": "runtime",
        "mjr.dsl": "dsl",
        "mjr.compiler": "compiler",
        "mjr.rulesets": "rulesets",
        "mjr._generated": str(GENERATED.relative_to(ROOT)),
    },
    packages=["mjr", "mjr.dsl", "mjr.compiler", "mjr.rulesets", "mjr._generated"],
    package_data={
        "mjr": ["py.typed"],
        "mjr.dsl": ["*.lark"],
        "mjr.compiler": ["templates/*.j2"],
        "mjr.rulesets": ["*.mjr"],
        "mjr._generated": ["index.json"],
    },
    exclude_package_data={"": ["*.c"]},
    ext_modules=_extensions(modules),
)
