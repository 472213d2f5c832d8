"""mjr inside other tools: the pytest plugin that runs every ruleset's example
hands, the Pygments lexer for ``.mjr`` files, and the PyMahjongGB bridge."""

from __future__ import annotations
