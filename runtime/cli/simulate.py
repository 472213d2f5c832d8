"""``mjr simulate``: play many hands of a ruleset with bots and report what happened.

Kept apart from :mod:`mjr.cli` so the command stays small; the simulation itself
(:mod:`mjr.simulate`) and matplotlib are imported only when the command runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import MjrError
from ..options import describe, parse_settings
from .output import dump, note, say, table
from .score import whole_number

if TYPE_CHECKING:
    from ..simulate.report import SimulationReport

#: The widest bar of the points histogram, in characters.
BAR_WIDTH = 40


def add_arguments(sub: argparse.ArgumentParser) -> None:
    """The ``simulate`` command's arguments (``-r``, ``-o``, ``--backend`` and ``--json`` are common)."""
    from ..table.bots import BOTS

    sub.add_argument("--hands", type=whole_number, required=True, metavar="N", help="how many hands to play")
    sub.add_argument("--seed", type=int, default=0, metavar="S", help="the run's seed (default 0)")
    sub.add_argument("--bot", choices=sorted(BOTS), default="greedy", help="the players (default: greedy)")
    sub.add_argument("--workers", type=whole_number, metavar="N", help="processes for a local run (default: all cores)")
    sub.add_argument("--scheduler", metavar="ADDRESS",
                     help="run on a Dask distributed cluster (needs mahjong-rules[dask])")
    sub.add_argument("--plot", metavar="FILE.png", help="draw the points and the fan frequencies (needs "
                     "mahjong-rules[plot])")
    sub.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    sub.set_defaults(check=check_arguments, parser=sub)


def check_arguments(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    if args.workers is not None and args.scheduler is not None:
        parser.error("--workers is for a local run; with --scheduler the cluster's workers do the work")


def cmd_simulate(args: argparse.Namespace) -> int:
    """Exit 0 when every hand settled zero-sum with its tiles accounted for, else 1."""
    from ..jobs.executor import Progress
    from ..simulate.run import simulate

    if args.plot is not None:
        _check_plot_path(Path(args.plot))
    bar = Progress(args.hands) if not args.no_progress and sys.stderr.isatty() else None
    try:
        report = simulate(args.ruleset, args.hands, seed=args.seed, options=dict(parse_settings(args.option or ())),
                          workers=args.workers, scheduler=args.scheduler, bot=args.bot,
                          progress=None if bar is None else bar.advance, backend=args.backend)
    finally:
        if bar is not None:
            bar.close()
    if args.plot is not None:
        from ..simulate.plot import draw

        draw(report, Path(args.plot))
    if args.json:
        dump(report.to_json())
    else:
        say(*report_lines(report))
        note(f"{report.tally.hands / report.seconds:.1f} hands/s on {report.workers} in {report.seconds:.2f}s")
    tally = report.tally
    return 1 if tally.zero_sum_failures or tally.tile_count_failures else 0


def _check_plot_path(path: Path) -> None:
    """Refuse a plot that could not be written before the hands are played, not after."""
    from ..simulate.plot import require_matplotlib

    require_matplotlib()
    if path.suffix.lower() != ".png":
        raise MjrError(f"--plot writes a PNG file: give a name ending in .png, not {str(path)!r}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise MjrError(f"cannot write the plot {str(path)!r}: the folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise MjrError(f"cannot write the plot {str(path)!r}: permission denied")


def report_lines(report: SimulationReport) -> list[str]:
    """The text report: the run, the rates, the points histogram, the fans, the
    clauses and the checks."""
    from ..simulate.report import clause_rows, fan_rows

    tally = report.tally
    chosen = describe(report.options.items())
    lines = [f"{report.ruleset}{f' ({chosen})' if chosen else ''}: {tally.hands} hands, seed {report.seed}, "
             f"{report.bot} bots", ""]
    rows: list[list[object]] = [["draws", tally.draws, _percent(report.rate(tally.draws))]]
    rows += [[f"  aborted: {ident} {tally.names.get(ident, '')}".rstrip(), hands, _percent(report.rate(hands))]
             for ident, hands in sorted(tally.aborts.items())]
    rows += [
             ["dealer won", tally.dealer_wins, _percent(report.rate(tally.dealer_wins))],
             ["wins", tally.wins, f"{tally.wins / tally.hands:.2f} a hand"]]
    rows += [[f"  {method}", wins, _percent(report.rate(wins, tally.wins))]
             for method, wins in sorted(tally.wins_by_method.items())]
    lines += table(rows, right=[1, 2])
    several = {count: hands for count, hands in tally.wins_per_hand.items() if count > 1}
    if several:
        lines.append("hands with several wins: " + ", ".join(f"{hands} with {count}" for count, hands
                                                             in sorted(several.items())))
    lines += ["", *points_lines(report), ""]
    fans = [["fan", "name", "wins", "% of wins"]] + [[row["id"], row["name"], row["wins"], _percent(row["share"])]
                                                      for row in fan_rows(report)]
    lines += table(fans, right=[2, 3]) if len(fans) > 1 else ["no fans (no wins)"]
    unseen = sorted(set(report.fan_names) - set(tally.fan_wins))
    if unseen:
        lines.append(f"never came up: {len(unseen)} of {len(report.fan_names)} fans")
    clauses = [["clause", "name", "hands", "% of hands", "amount"]] + [
        [row["clause"], row["name"], row["hands"], _percent(row["share"]), row["amount"]]
        for row in clause_rows(report)]
    lines += ["", *(table(clauses, right=[2, 3, 4]) if len(clauses) > 1 else ["no payments"]), ""]
    lines += [_check_line("zero-sum", tally.zero_sum_failures, report),
              _check_line("tile count", tally.tile_count_failures, report)]
    return lines


def points_lines(report: SimulationReport) -> list[str]:
    """The points of the wins as a text histogram, one row per points bin."""
    from ..simulate.report import points_bins

    bins = points_bins(report)
    if not bins:
        return ["points: no wins"]
    most = max(wins for _, wins in bins)
    rows = [[label, wins, _percent(report.rate(wins, report.tally.wins)),
             "#" * max(1, round(BAR_WIDTH * wins / most))] for label, wins in bins]
    return table([["points", "wins", "%", ""], *rows], right=[0, 1, 2])


def _check_line(what: str, failures: list[int], report: SimulationReport) -> str:
    hands = report.tally.hands
    if not failures:
        return f"{what}: ok ({hands} hands)"
    named = " ".join(str(index) for index in failures[:report.named_failures])
    more = " ..." if len(failures) > report.named_failures else ""
    return f"{what}: FAILED in {len(failures)} of {hands} hands (hands {named}{more})"


def _percent(share: float) -> str:
    return f"{100 * share:.1f}%"
