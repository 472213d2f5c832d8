"""Simulation: many hands of play between bots, in partitions (:mod:`.run`), and
the report of what they paid (:mod:`.report`)."""

from __future__ import annotations

from .report import SimulationReport
from .run import PARTITION_SIZE, Partition, Tally, hand_seed, play_hand, play_partition, simulate

__all__ = [
    "hand_seed",
    "Partition",
    "PARTITION_SIZE",
    "play_hand",
    "play_partition",
    "simulate",
    "SimulationReport",
    "Tally",
]
