"""How fast ``mjr simulate`` plays hands: per core for a few rulesets, and scaled out.

    python benchmarks/simulate.py [--hands 400] [--rounds 3] [--scaling-hands 1000]

Rows:

- hands per second on one core, per ruleset: one partition of ``--hands`` hands
  played by greedy bots in this process (``mjr.simulate.play_partition``: the
  Table, the bots, the scoring and settlement of every win, the tally);
- 2 processes against 1: ``simulate(workers=2)`` (a spawned process pool) against
  ``simulate(workers=1)`` on the same ``--scaling-hands`` hands;
- a Dask LocalCluster of 2 worker processes against one process, on the same
  hands (the cluster's start is not timed; its workers load the ruleset once,
  untimed, before the rounds).  Both give the same report, which the row checks.

Every round plays other hands (the run's seed plus the round), measurements are
interleaved round by round and each figure is the median of the rounds
(benchmarks/timing.py).  Without Dask the cluster row says why it has no figure;
without a C compiler the rulesets run interpreted and the rows say so.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Callable

from processes import dask_available
from timing import Measure, Suite, fmt_ratio, timed_parser

import mjr
from mjr.jobs.executor import cores
from mjr.simulate import run as simulate

#: The rulesets of the per-core rows: the simplest, two common ones, one with
#: flowers and many fans, one of sixteen tiles.
RULESETS = ("simple", "guangdong.jipinghu", "sichuan.xuezhan", "changsha", "mcr", "taiwan")
#: The ruleset of the scaling rows.
SCALED = "guangdong.jipinghu"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = timed_parser(__doc__, hands=400, rounds=3, hands_help="hands per round and ruleset, one core")
    parser.add_argument("--scaling-hands", type=int, default=1000,
                        help="hands per round of the scaling rows (1000; 0 leaves them out)")
    parser.add_argument("--rulesets", nargs="+", default=list(RULESETS), metavar="ID", help="per-core rows")
    args = parser.parse_args(argv)
    if args.scaling_hands < 0:
        parser.error("--scaling-hands must be 0 or more")
    return args


def seeds(first: int) -> Callable[[], int]:
    """A new seed at each call: every pass plays other hands."""
    counter = itertools.count(first)
    return lambda: next(counter)


def per_core(suite: Suite, ident: str, hands: int, first_seed: int) -> Measure:
    """One partition of ``hands`` hands of ``ident`` played here, each pass another seed."""
    rs = mjr.load(ident)
    next_seed = seeds(first_seed)

    def play() -> None:
        partition = simulate.Partition(ident, "auto", tuple(sorted(rs.choices.items())), "greedy", next_seed(), 0,
                                       hands)
        simulate.play_partition(partition)

    return suite.add(ident, play, hands, note=rs.backend)


def scaling(suite: Suite, hands: int, first_seed: int, scheduler: str | None) -> list[dict[str, object]]:
    """One process against two (or against the cluster at ``scheduler``), on the
    same hands each round; returns the list the reports go to, two a round, which
    must agree."""
    local_seed, other_seed = seeds(first_seed), seeds(first_seed)
    reports: list[dict[str, object]] = []

    def one() -> None:
        reports.append(simulate.simulate(SCALED, hands, seed=local_seed(), workers=1).to_json(timings=False))

    def other() -> None:
        report = simulate.simulate(SCALED, hands, seed=other_seed(), workers=2, scheduler=scheduler)
        reports.append(report.to_json(timings=False))

    suite.add("one", one, hands)
    suite.add("other", other, hands, note="dask" if scheduler else "processes")
    return reports


def scaling_row(suite: Suite, reports: list[dict[str, object]], what: str) -> tuple[str, str, str, str]:
    one, other = suite.measures
    same = all(reports[i] == reports[i + 1] for i in range(0, len(reports) - 1, 2))
    return (f"{SCALED}, {what} vs one process ({one.units} hands)", f"{1 / other.median:.0f} hands/s",
            f"{1 / one.median:.0f} hands/s", f"{fmt_ratio(one.median / other.median)} speed-up "
            f"({'same reports' if same else 'REPORTS DIFFER'})")


def run_scaling(args: argparse.Namespace) -> list[tuple[str, str, str, str]]:
    """The rows of 2 processes and of a 2-worker Dask cluster against one process."""
    rows = []
    processes = Suite("2 processes")
    reports = scaling(processes, args.scaling_hands, args.seed, None)
    processes.run(args.rounds, warm=False, warm_up=False)
    rows.append(scaling_row(processes, reports, "2 local processes"))
    missing = dask_available()
    if missing is not None:
        return [*rows, (f"{SCALED}, Dask LocalCluster of 2 workers", f"not measured: {missing}", "", "")]
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=50) as cluster:
        simulate.simulate(SCALED, 4, scheduler=cluster.scheduler_address)  # the workers load the ruleset
        on_dask = Suite("dask")
        reports = scaling(on_dask, args.scaling_hands, args.seed, cluster.scheduler_address)
        on_dask.run(args.rounds, warm=False, warm_up=False)
    rows.append(scaling_row(on_dask, reports, "Dask LocalCluster of 2 workers"))
    return rows


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    suite = Suite("per core")
    for number, ident in enumerate(args.rulesets):
        per_core(suite, ident, args.hands, args.seed + 1000 * number)
    suite.run(args.rounds, warm=False)
    rows = [(f"`{m.key}`, greedy bots, one core ({m.units} hands a round"
             f"{'' if m.note == 'compiled' else ', interpreted: no C compiler'})", f"{1 / m.median:.1f} hands/s",
             f"{1000 * m.median:.1f} ms a hand", "") for m in suite.measures]
    if args.scaling_hands:
        rows += run_scaling(args)
    print(f"# mjr simulate, medians of {args.rounds} rounds, {cores()} cores\n")
    print("| row | hands/s | beside | ratio |\n|---|--:|--:|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print(f"\nThis process had {100 * suite.cpu_share:.0f}% of a core while timing the per-core rows.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
