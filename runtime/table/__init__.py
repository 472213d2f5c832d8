"""A table of play: the referee (:mod:`.referee`) deals from the wall, offers each
seat its legal actions and settles the hand; sessions of hands, bots, and the
event log that records and replays a hand."""

from __future__ import annotations

from ..errors import IllegalAction, LogError
from .actions import Action
from .bots import Bot, GreedyBot, RandomBot, play_out
from .log import ReplayReport, replay
from .referee import MAX_STAKE, Seating, Table, tiles_of, unplayable
from .session import Session
from .state import Phase

__all__ = [
    "Action",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "IllegalAction",
    "LogError",
    "MAX_STAKE",
    "Phase",
    "play_out",
    "replay",
    "ReplayReport",
    "Seating",
    "Session",
    "Table",
    "tiles_of",
    "unplayable",
]
