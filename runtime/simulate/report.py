"""A simulation's report: its settings and tally, as JSON data, and the rows its
text and plot are made of.

One module builds the rows (fans by frequency, clauses, the points histogram) so
that ``mjr simulate``, its ``--json`` and its ``--plot`` all show the same figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .run import Tally


@dataclass(frozen=True)
class SimulationReport:
    """The result of :func:`~mjr.simulate.simulate`: the run's settings and its :class:`Tally`."""

    ruleset: str
    options: dict[str, object]
    seed: int
    bot: str
    tally: Tally
    seconds: float  # wall time of the run
    workers: str  # where it ran: "1 process", "2 processes", or the scheduler's address
    partition_size: int  # hands per partition (one task each)
    named_failures: int  # at most this many failing hands are named (all of them are counted)
    fan_names: dict[str, str] = field(default_factory=dict)  # every fan of the ruleset, for the table

    def rate(self, count: int, of: int | None = None) -> float:
        """``count`` as a share of the hands (or of ``of``); 0 when there are none."""
        total = self.tally.hands if of is None else of
        return count / total if total else 0.0

    def to_json(self, timings: bool = True) -> dict[str, Any]:
        """The report as JSON data; ``timings=False`` leaves out what varies run to run."""
        return report_json(self, timings)


def fan_rows(report: SimulationReport) -> list[dict[str, Any]]:
    """Each fan that came up: id, name, wins it is in, its share of the wins and its
    mean value in them; the most frequent first (then by id, so ties are stable)."""
    tally = report.tally
    rows = [{"id": ident, "name": tally.names.get(ident, report.fan_names.get(ident, ident)), "wins": wins,
             "share": round(report.rate(wins, tally.wins), 6),
             "mean_value": round(tally.fan_value[ident] / wins, 6)}
            for ident, wins in tally.fan_wins.items()]
    return sorted(rows, key=lambda row: (-row["wins"], row["id"]))


def clause_rows(report: SimulationReport) -> list[dict[str, Any]]:
    """Each payment clause that paid: the hands it paid in, their share, its total amount."""
    tally = report.tally
    rows = [{"clause": clause, "name": tally.names.get(clause, clause), "hands": hands,
             "share": round(report.rate(hands), 6), "amount": tally.clause_amount[clause]}
            for clause, hands in tally.clause_hands.items()]
    return sorted(rows, key=lambda row: (-row["hands"], row["clause"]))


def points_rows(report: SimulationReport) -> list[tuple[int, int]]:
    """(points, wins) for every points value a win scored, lowest first."""
    return sorted(report.tally.points.items())


def check_json(failures: list[int], hands: int, limit: int) -> dict[str, Any]:
    """A check over every hand: ok, how many failed, and the first failing hands' indices."""
    return {"ok": not failures, "hands": hands, "failures": len(failures), "first_failures": failures[:limit]}


def report_json(report: SimulationReport, timings: bool) -> dict[str, Any]:
    """Every figure of the report; with ``timings``, the seconds and hands per second too."""
    tally = report.tally
    doc: dict[str, Any] = {
        "ruleset": report.ruleset, "options": report.options, "seed": report.seed, "bot": report.bot,
        "hands": tally.hands, "partition_size": report.partition_size,
        "draws": tally.draws, "draw_rate": round(report.rate(tally.draws), 6),
        "aborts": dict(sorted(tally.aborts.items())),
        "wins": tally.wins, "dealer_wins": tally.dealer_wins,
        "dealer_win_rate": round(report.rate(tally.dealer_wins), 6),
        "wins_by_method": dict(sorted(tally.wins_by_method.items())),
        "wins_per_hand": {str(count): hands for count, hands in sorted(tally.wins_per_hand.items())},
        "points": {str(points): wins for points, wins in points_rows(report)},
        "fans": fan_rows(report), "clauses": clause_rows(report),
        "zero_sum": check_json(tally.zero_sum_failures, tally.hands, report.named_failures),
        "tile_count": check_json(tally.tile_count_failures, tally.hands, report.named_failures),
    }
    if timings:
        doc["seconds"] = round(report.seconds, 3)
        doc["play_seconds"] = round(tally.play_seconds, 3)
        doc["hands_per_second"] = round(tally.hands / report.seconds, 1) if report.seconds else None
        doc["workers"] = report.workers
    return doc


#: At most this many rows of the points histogram give each value its own row.
POINTS_ROWS = 12


def points_bins(report: SimulationReport, most: int = POINTS_ROWS) -> list[tuple[str, int]]:
    """(label, wins) rows of the points histogram: one per points value when there
    are at most ``most`` values, else bins doubling in width (1, 2-3, 4-7, ...), as
    points run from the many small wins to the few limit hands."""
    values = points_rows(report)
    if len(values) <= most:
        return [(str(points), wins) for points, wins in values]
    bins: dict[int, int] = {}
    for points, wins in values:
        low = 0 if points < 1 else 1 << (points.bit_length() - 1)
        bins[low] = bins.get(low, 0) + wins
    return [("<=0" if low == 0 else str(low) if low == 1 else f"{low}-{2 * low - 1}", wins)
            for low, wins in sorted(bins.items())]
