"""Build step that declarative configuration cannot express.

At install time every bundled ``rulesets/*.mjr`` is checked and generated into a
Cython pure-Python module of the package ``mjr._generated`` (with an index of ids),
and those modules and the runtime's own hot paths (``COMPILED_RUNTIME`` and
``COMPILED_PLAIN`` of :mod:`mjr.compiler.build.toolchain`) are compiled.
Compilation is optional: without a C compiler the same modules install as Python
and run interpreted.  The rest of the configuration lives in pyproject.toml.

The build runs once per ``pip install``, though setuptools executes this file for
the metadata too: generation only rewrites files whose text changed, and Cython and
the C compiler run in ``build_ext``, Cython's jobs and the compiler's in parallel.
Utility code Cython would repeat in every module (memoryviews, the function type)
is compiled once, into ``mjr._generated._cyutility``; the compiler's flags are
:data:`mjr.compiler.build.toolchain.COMPILE_FLAGS`, as for a ruleset compiled at run time.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

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


_import_source_tree()
from mjr import ROOMS as RUNTIME_ROOMS  # noqa: E402 - the runtime's rooms, each a subpackage
from mjr.compiler import STAGES as COMPILER_ROOMS  # noqa: E402 - and the compiler's
from mjr.compiler.build.toolchain import (  # noqa: E402
    COMPILED_PLAIN,
    COMPILED_RUNTIME,
    SHARED_UTILITY,
    SHARED_UTILITY_VERSION,
)


def _generate_bundled() -> list[str]:
    """Generate one module per bundled ruleset; returns their module names."""
    from mjr.compiler.build import build_key, check_file
    from mjr.compiler.emit.codegen import generate

    GENERATED.mkdir(parents=True, exist_ok=True)
    files = {"__init__.py": '"""Rulesets generated from rulesets/*.mjr at install time."""\n'}
    index = {}
    for path in sorted((ROOT / "rulesets").glob("*.mjr")):
        ruleset = check_file(path)
        source = generate(ruleset, build_key(ruleset))
        files[f"{source.module_name}.py"] = source.text
        index[ruleset.id] = {"module": source.module_name, "title": ruleset.title, "native": ruleset.native_title}
    files["index.json"] = json.dumps(index, indent=1, ensure_ascii=False)
    try:
        from Cython import __version__ as cython_version
    except ImportError:
        cython_version = ""
    files[SHARED_UTILITY_VERSION] = cython_version  # which Cython wrote the shared utility module
    for stale in [*GENERATED.iterdir(), *ROOT.glob("build/lib*/mjr/_generated/*")]:  # an earlier build's modules
        if stale.name not in files:
            shutil.rmtree(stale) if stale.is_dir() else stale.unlink()
    for name, text in files.items():
        _write_if_changed(GENERATED / name, text)
    return [entry["module"] for entry in index.values()]


def _remove_moved_sources() -> None:
    """Delete from an earlier build's folder each module and template whose source
    is gone (moved to another subpackage, or removed): setuptools copies sources
    into build/lib without clearing it, and the wheel would install the old
    module beside the new one."""
    folders = {name.partition(".")[2]: ROOT / folder for name, folder in SOURCE_PACKAGES.items()}  # dsl: ROOT/dsl
    for package in ROOT.glob("build/lib*/mjr"):
        for built in package.rglob("*"):
            parts = built.relative_to(package).parts
            if built.suffix not in (".py", ".j2") or parts[0] == "_generated" or not built.is_file():
                continue
            source = folders[parts[0]].joinpath(*parts[1:]) if parts[0] in folders else folders[""].joinpath(*parts)
            if not source.is_file():
                built.unlink()


def _write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` unless ``path`` holds it already: an unchanged module keeps its
    time, so Cython does not translate it again on the next run of this file."""
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _extensions(modules: list[str]) -> list[Extension]:
    """The modules to compile, as Python sources: Cython runs in :class:`BuildExt`."""
    from mjr.compiler.build.toolchain import compiler_problem

    try:
        import Cython  # noqa: F401
    except ImportError:  # no Cython: everything stays pure Python
        return []
    problem = compiler_problem()
    if problem:  # without a C compiler the modules install as Python
        print(f"mjr: installing interpreted modules only: {problem}", file=sys.stderr)
        return []
    extensions = [Extension(f"mjr.{name}", [str(Path("runtime", *name.split(".")).with_suffix(".py"))], optional=True)
                  for name in (*COMPILED_RUNTIME, *COMPILED_PLAIN)]
    for name in modules:
        path = GENERATED.relative_to(ROOT) / f"{name}.py"
        extensions.append(Extension(f"mjr._generated.{name}", [str(path)], optional=True))
    return extensions


class BuildExt(build_ext):
    """Translate and compile every module in parallel jobs (Cython then the C
    compiler, one module per job), with the flags runtime compiles use and Cython's
    utility code compiled once, into :data:`SHARED_UTILITY`."""

    def finalize_options(self) -> None:
        extensions = self.distribution.ext_modules
        self.shared = _shared_utility() if extensions else None
        if self.shared is not None and extensions is not None:
            extensions.append(self.shared)
        super().finalize_options()
        if self.parallel is None:  # as many jobs as there are cores
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        from mjr.compiler.build.toolchain import compile_environment

        os.environ.update(compile_environment(os.environ))  # before the compiler is set up
        super().run()

    def build_extension(self, ext: Extension) -> None:
        ext.optional = True  # a module that does not compile installs as Python
        if ext.sources[0].endswith(".py"):
            ext.sources = [self._cythonize(ext)]
        super().build_extension(ext)

    def _cythonize(self, ext: Extension) -> str:
        """Cython's C for ``ext``, written by a child process so jobs run at once."""
        target = Path("build") / "cython" / Path(ext.sources[0]).with_suffix(".c")
        target.parent.mkdir(parents=True, exist_ok=True)
        shared = [f"--shared={SHARED_UTILITY}"] if self.shared is not None else []
        plain = ["-X", "annotation_typing=False"] if ext.name.removeprefix("mjr.") in COMPILED_PLAIN else []
        subprocess.run([sys.executable, "-m", "cython", "-3", "--module-name", ext.name, *shared, *plain,
                        "-o", str(target), ext.sources[0]], check=True)
        return str(target)


def _shared_utility() -> Extension | None:
    """The extension holding Cython's utility code, or None where this Cython
    cannot write one (a runtime compile links to it only under the Cython version
    :func:`_generate_bundled` wrote beside it)."""
    source = Path("build") / "cython" / "_cyutility.c"
    source.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "cython", f"--generate-shared={source}"],
                          capture_output=True, text=True)
    if done.returncode != 0 or not source.is_file():
        return None
    return Extension(SHARED_UTILITY, [str(source)], optional=True)


_remove_moved_sources()
modules = _generate_bundled()
setup(
    package_dir={
        "mjr": "runtime",
        "mjr.dsl": "dsl",
        "mjr.compiler": "compiler",
        **{f"mjr.compiler.{room}": f"compiler/{room}" for room in COMPILER_ROOMS},
        "mjr.rulesets": "rulesets",
        "mjr._generated": str(GENERATED.relative_to(ROOT)),
    },
    packages=["mjr", *(f"mjr.{room}" for room in RUNTIME_ROOMS), "mjr.dsl", "mjr.compiler",
              *(f"mjr.compiler.{room}" for room in COMPILER_ROOMS), "mjr.rulesets", "mjr._generated"],
    package_data={
        "mjr": ["py.typed"],
        "mjr.dsl": ["*.lark"],
        "mjr.compiler.emit": ["templates/*.j2"],
        "mjr.rulesets": ["*.mjr"],
        "mjr._generated": ["index.json", "*.txt"],
    },
    include_package_data=False,  # package_data alone: templates/ is a folder of data, not a package
    exclude_package_data={"": ["*.c"]},
    ext_modules=_extensions(modules),
    cmdclass={"build_ext": BuildExt},
)
