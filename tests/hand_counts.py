"""How many hands a long differential run compares: an environment variable, read
with the place of a mistake named (``MJR_MCR_HANDS``, ``MJR_RIICHI_HANDS``)."""

from __future__ import annotations

import os
from collections.abc import Mapping

import mjr

#: What CI compares when the variable is not set.
DEFAULT_HANDS = 10_000


def hands_wanted(variable: str, environ: Mapping[str, str] = os.environ) -> int:
    """How many hands to compare: ``$variable``, else :data:`DEFAULT_HANDS`."""
    text = environ.get(variable)
    if text is None:
        return DEFAULT_HANDS
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        value = 0
    if value < 1 or not text.strip().replace("_", "").isdigit():
        raise mjr.MjrError(f"environment variable {variable}={text!r}: expected a whole number of hands, "
                           "1 or more (such as 10000 or 1_000_000)")
    return value
