"""Sphinx configuration for the mjr documentation.

Build with ``sphinx-build -W -b html docs docs/_build/html`` in an environment
where mjr is installed (``pip install .``): autodoc imports the installed package,
never the source folders (the table's modules as the Python source installed beside
their compiled form).  Nothing here needs the network.
"""

from __future__ import annotations

import dataclasses
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mjr.compiler.build.toolchain import COMPILED_PLAIN  # imports no table module


class _PlainFromSource:
    """Import the runtime's modules compiled as plain Python at install
    (:data:`mjr.compiler.build.toolchain.COMPILED_PLAIN`: the table's) from their
    Python source, installed beside their compiled form: autodoc reads a module's
    source for its attributes' comments, its signatures and its ``[source]`` links,
    and a compiled module has none to give."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: object = None) -> Any:
        if name.removeprefix("mjr.") not in COMPILED_PLAIN:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.origin is None or spec.origin.endswith(".py"):
            return spec
        source = Path(spec.origin).with_name(name.rpartition(".")[2] + ".py")
        return importlib.util.spec_from_file_location(name, source) if source.is_file() else spec


sys.meta_path.insert(0, _PlainFromSource())

import mjr  # noqa: E402 - the table's modules found from their source
from mjr.plugins.highlight import MjrLexer  # noqa: E402

project = "mjr"
author = "the mjr authors"
copyright = "the mjr authors"  # noqa: A001 - Sphinx's name
release = mjr.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
]

language = "en"
nitpicky = False
exclude_patterns = ["_build", "tutorial"]
highlight_language = "none"
pygments_style = "sphinx"

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True}

html_theme = "alabaster"
html_title = f"mjr {release}"
html_theme_options = {
    "description": "Chinese regional mahjong rules as small .mjr files, compiled to fast evaluators",
    "fixed_sidebar": False,
    "show_relbars": True,
}
html_show_sourcelink = False
html_static_path = ["_static"]
html_css_files = ["mjr.css"]  # wide code blocks and tables scroll in their box, never off the page


def _drop_generated_docstring(app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """A dataclass without a docstring gets its signature as one; the signature is shown anyway."""
    if what != "class" or not isinstance(obj, type) or not dataclasses.is_dataclass(obj):
        return
    if lines and lines[0].startswith(f"{obj.__name__}("):
        lines.clear()


def setup(app: Any) -> dict[str, Any]:
    app.add_lexer("mjr", MjrLexer)  # also found through its entry point; registered here explicitly
    app.connect("autodoc-process-docstring", _drop_generated_docstring)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
