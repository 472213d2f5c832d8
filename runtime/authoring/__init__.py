"""What a rule author asks of a ruleset: its description, the explanation of a
fan or rule, the differences between two rulesets, its example hands."""

from __future__ import annotations
