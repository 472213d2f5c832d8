"""Interleaved timing: every measurement is registered first, then all run round by round.

In each round every measurement runs once (after an untimed pass of its own when
``warm``), timed with ``time.perf_counter`` (wall) and ``time.process_time`` (this
process's CPU, every thread's) and the garbage collector off, as ``timeit`` does.
Interleaving spreads each measurement's samples over the whole run, so a burst of
load from elsewhere on the machine spoils one sample of many measurements rather
than every sample of one.  Reported: the median of the rounds, of each clock.  On
a busy machine the wall figure grows with the time the process waits for a core;
the CPU figure much less, so the ratios of CPU figures are the steadier ones.
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
    samples: list[float] = field(default_factory=list)  # wall seconds per unit, one per round
    note: str = ""
    #: CPU seconds per unit of this process, one per round (none where the pass reports its own time)
    cpu: list[float] = field(default_factory=list)
    #: a second figure of each pass, where it has one (the wall seconds of a CPU-timed pass)
    aside: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def cpu_median(self) -> float | None:
        """The median CPU seconds per unit, or ``None`` for a pass that reports its own time."""
        return statistics.median(self.cpu) if self.cpu else None

    @property
    def spread(self) -> tuple[float, float]:
        return min(self.samples), max(self.samples)

    def sample(self) -> float:
        """One pass, in wall seconds per unit (its CPU seconds per unit go to :attr:`cpu`)."""
        if self.reports_own_time:
            seconds = self.run()
            assert isinstance(seconds, float), self.key
            return seconds / self.units
        cpu, start = time.process_time(), time.perf_counter()
        self.run()
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        self.cpu.append(cpu / self.units)
        return wall / self.units


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
    """Two significant figures below 0.1 (``0.0042×``), two decimals below 10, else whole."""
    if ratio < 0.1:
        return f"{ratio:.2g}×"
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


def wall_and_cpu(measure: Measure, unit: str = "") -> str:
    """A table cell: the median wall time and, where the pass has one, the median CPU time."""
    cpu = measure.cpu_median
    return fmt_time(measure.median) + unit + ("" if cpu is None else f" (CPU {fmt_time(cpu)})")


def ratios(mine: Measure, other: Measure) -> str:
    """mjr's time ÷ the other's, of the wall medians and of the CPU medians."""
    text = fmt_ratio(mine.median / other.median)
    if mine.cpu_median is not None and other.cpu_median is not None:
        text += f" (CPU {fmt_ratio(mine.cpu_median / other.cpu_median)})"
    return text


def per_hand(measure: Measure | None) -> str:
    """A table cell: wall time (CPU time) per hand and hands per second of wall time,
    or a dash where a side has no figure."""
    if measure is None:
        return "—"
    return f"{wall_and_cpu(measure, '/hand')}, {1 / measure.median:,.0f} hands/s"
