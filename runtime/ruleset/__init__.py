"""A loaded ruleset: what it answers about a hand (:mod:`.loaded`), the generated
module it runs, its hand records and batches, its rules of play, and the
loader that finds, builds and loads one (:mod:`.loader`)."""

from __future__ import annotations

from ..errors import HandError
from .loaded import FanInfo, Ruleset
from .loader import bundled_ids, load

__all__ = ["bundled_ids", "FanInfo", "HandError", "load", "Ruleset"]
