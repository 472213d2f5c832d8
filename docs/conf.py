"""Sphinx configuration for the mjr documentation.

Build with ``sphinx-build -W -b html docs docs/_build/html`` in an environment
where mjr is installed (``pip install .``): autodoc imports the installed package,
never the source folders.  Nothing here needs the network.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

import mjr

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


class MjrLexer(RegexLexer):  # type: ignore[misc]  # pygments has no type stubs
    """Highlighting for the .mjr rules language (see language.rst)."""

    name = "mjr"
    aliases = ["mjr"]
    filenames = ["*.mjr"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"(\\["\\n]|[^"\\\n])*"', String),
            (
                words(
                    (
                        "ruleset", "extends", "source", "tiles", "suits", "winds", "dragons", "deal",
                        "claims", "win", "shapes", "wildcard", "score", "cap", "limits", "minimum",
                        "base", "define", "fan", "limit", "bonus", "multiplier", "require", "floor",
                        "pay", "liable", "drop", "example", "hand", "expect", "shape",
                    ),
                    prefix=r"(?<![\w.])",
                    suffix=r"\b",
                ),
                Keyword,
            ),
            (
                words(
                    (
                        "and", "or", "not", "if", "else", "of", "are", "is", "contain", "contains",
                        "where", "count", "all", "any", "no", "scored", "each", "excludes", "pays",
                        "when", "discarder", "opponent", "feeder", "last", "claimed", "meld", "fixed",
                        "indicator", "honors", "skip", "may_not", "none", "stand_in",
                    ),
                    prefix=r"(?<![\w.])",
                    suffix=r"\b",
                ),
                Operator.Word,
            ),
            (r"[+-]?[0-9]+(?![0-9]*[mpsz]\b)", Number),
            (r"[1-9][mpsz]\b", Name.Constant),
            (r"[a-z_][a-z0-9_]*(\.[a-z0-9_]+)*", Name),
            (r"==|!=|<=|>=|[<>+\-*^]", Operator),
            (r"[(){}:,]", Punctuation),
            (r".", Text),
        ]
    }


def _drop_generated_docstring(app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """A dataclass without a docstring gets its signature as one; the signature is shown anyway."""
    if what != "class" or not isinstance(obj, type) or not dataclasses.is_dataclass(obj):
        return
    if lines and lines[0].startswith(f"{obj.__name__}("):
        lines.clear()


def setup(app: Any) -> dict[str, Any]:
    app.add_lexer("mjr", MjrLexer)
    app.connect("autodoc-process-docstring", _drop_generated_docstring)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
