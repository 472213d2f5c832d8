"""Hands as text and as JSON: the fast reader of common hands (:mod:`.scan`) beside
the full parser that owns every error (:mod:`.parse`), the words both share
(:mod:`.words`), the writer (:mod:`.format`) and the JSON form (:mod:`.json`, not
imported here: scoring a hand given as text needs none of it)."""

from __future__ import annotations

from ..errors import NotationError
from .format import format_hand, format_meld
from .parse import MAX_HAND_TEXT, parse_hand
from .words import KEYWORDS

__all__ = [
    "format_hand",
    "format_meld",
    "KEYWORDS",
    "MAX_HAND_TEXT",
    "NotationError",
    "parse_hand",
]
