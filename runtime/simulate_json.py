"""A simulation report as JSON data, and the rows its text and plot are made of.

One module builds the rows (fans by frequency, clauses, the points histogram) so
that ``mjr simulate``, its ``--json`` and its ``--plot`` all show the same figures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .simulate import SimulationReport


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
    from .simulate import NAMED_FAILURES, PARTITION_SIZE

    tally = report.tally
    doc: dict[str, Any] = {
        "ruleset": report.ruleset, "options": report.options, "seed": report.seed, "bot": report.bot,
        "hands": tally.hands, "partition_size": PARTITION_SIZE,
        "draws": tally.draws, "draw_rate": round(report.rate(tally.draws), 6),
        "wins": tally.wins, "dealer_wins": tally.dealer_wins,
        "dealer_win_rate": round(report.rate(tally.dealer_wins), 6),
        "wins_by_method": dict(sorted(tally.wins_by_method.items())),
        "wins_per_hand": {str(count): hands for count, hands in sorted(tally.wins_per_hand.items())},
        "points": {str(points): wins for points, wins in points_rows(report)},
        "fans": fan_rows(report), "clauses": clause_rows(report),
        "zero_sum": check_json(tally.zero_sum_failures, tally.hands, NAMED_FAILURES),
        "tile_count": check_json(tally.tile_count_failures, tally.hands, NAMED_FAILURES),
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
