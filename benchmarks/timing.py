"""Interleaved timing: every measurement is registered first, then all run round by round.

In each round every measurement runs once (after an untimed pass of its own when
``warm``), timed with ``time.perf_counter`` and the garbage collector off, as
``timeit`` does.  Interleaving spreads each measurement's samples over the whole
run, so a burst of load from elsewhere on the machine spoils one sample of many
measurements rather than every sample of one.  Reported: the median of the rounds.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Measure:
    """One measurement: ``run`` handles ``units`` hands (or calls) per pass.  With
    ``reports_own_time`` the pass returns the seconds to record (CPU seconds of a
    subprocess, say) instead of being timed from outside."""

    key: str
    units: int
    run: Callable[[], object] = field(repr=False)
    reports_own_time: bool = False
    samples: list[float] = field(default_factory=list)  # seconds per unit, one per round
    note: str = ""
    #: a second figure of each pass, where it has one (the wall seconds of a CPU-timed pass)
    aside: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def spread(self) -> tuple[float, float]:
        return min(self.samples), max(self.samples)

    def sample(self) -> float:
        """One pass, in seconds per unit."""
        if self.reports_own_time:
            seconds = self.run()
            assert isinstance(seconds, float), self.key
            return seconds / self.units
        start = time.perf_counter()
        self.run()
        return (time.perf_counter() - start) / self.units


class Suite:
    """Measurements registered with :meth:`add`, then run together by :meth:`run`."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.measures: list[Measure] = []
        #: this process's CPU seconds ÷ wall seconds over the rounds: near 1 when it had a
        #: core to itself (most passes use one thread), well below when the machine is busy
        self.cpu_share = 0.0

    def add(self, key: str, run: Callable[[], object], units: int, *, reports_own_time: bool = False,
            note: str = "") -> Measure:
        measure = Measure(key, units, run, reports_own_time, note=note)
        self.measures.append(measure)
        return measure

    def run(self, rounds: int, *, warm: bool = True, warm_up: bool = True) -> None:
        """``rounds`` interleaved samples of every measurement.  ``warm_up`` runs each
        once first (tables built, code paths taken); ``warm`` precedes every timed
        pass by an untimed pass of the same measurement."""
        if warm_up:
            for measure in self.measures:
                measure.run()
        gc_was_on = gc.isenabled()
        gc.disable()
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            for number in range(rounds):
                print(f"{self.name}: round {number + 1}/{rounds}", file=sys.stderr, flush=True)
                for measure in self.measures:
                    if warm:
                        measure.run()
                    measure.samples.append(measure.sample())
                gc.collect()
        finally:
            if gc_was_on:
                gc.enable()
        self.cpu_share = (time.process_time() - cpu) / (time.perf_counter() - wall)


def fmt_time(seconds: float) -> str:
    """A duration in its natural unit, three significant figures or so."""
    for unit, scale in (("ns", 1e-9), ("µs", 1e-6), ("ms", 1e-3)):
        if seconds < 1000 * scale:
            value = seconds / scale
            return f"{value:.0f} {unit}" if value >= 100 or unit == "ns" else f"{value:.2f} {unit}"
    return f"{seconds:.2f} s"


def fmt_ratio(ratio: float) -> str:
    return f"{ratio:.2f}×" if ratio < 10 else f"{ratio:.0f}×"


def positive(text: str) -> int:
    """An argparse type: a whole number, 1 or more (``10_000`` allowed)."""
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number, 1 or more, not {text!r}")
    return value


def timed_parser(doc: str, hands: int, rounds: int = 5, hands_help: str = "distinct hands per pass",
                 ) -> argparse.ArgumentParser:
    """The options every timed comparison takes, described by the first paragraph
    of ``doc``: ``--hands`` (default ``hands``), ``--rounds`` (default ``rounds``)
    and ``--seed`` (default 1)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--hands", type=positive, default=hands, help=f"{hands_help} (default {hands})")
    parser.add_argument("--rounds", type=positive, default=rounds, help=f"timed rounds (default {rounds})")
    parser.add_argument("--seed", type=int, default=1, help="the generator's seed (default 1)")
    return parser


def per_hand(measure: Measure | None) -> str:
    """A table cell: time and hands per second, or a dash where a side has no figure."""
    if measure is None:
        return "—"
    return f"{fmt_time(measure.median)}/hand, {1 / measure.median:,.0f} hands/s"
