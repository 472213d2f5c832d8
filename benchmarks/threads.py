"""Threads sharing one ruleset: ``evaluate`` on many threads against the same calls on one.

    python benchmarks/threads.py [--hands 12000] [--rounds 7] [--seed 1] [--threads 2,4,8]

For each ruleset (``guangdong.jipinghu`` and ``mcr`` by default, ``--ruleset`` to
choose) a round takes distinct hands of its own (half winning, half not, seeded:
no hand is met in two rounds), scores them once on this thread, then the same
calls split among N threads of one loaded ruleset, for each N of ``--threads``.
A round gives the ratio of the threaded throughput to the serial one; the table
shows the median of those ratios (1.00: the threads together score as fast as
one thread), for hands given as notation and as parsed :class:`mjr.Hand`
objects.  Serial and threaded passes of a round follow each other, so a burst of
load from elsewhere spoils both or neither.

The search runs without the GIL, but reading the notation, checking the hand and
building the Result hold it: the ratio can pass 1 only by the search's share of
a call, on as many cores as are free.  ``evaluate_batch(workers=N)`` is the fast
path for many hands.  The last column is the search's share of a call: the
module's own time on the hand's record over the whole call's, both timed on one
thread.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import hands as H
from timing import positive, timed_parser

import mjr

RULESETS = ("guangdong.jipinghu", "mcr")


def thread_counts(text: str) -> tuple[int, ...]:
    """An argparse type: thread counts separated by commas, each 1 or more."""
    return tuple(positive(part) for part in text.split(","))


def parse_args(argv: list[str] | None) -> Any:
    parser = timed_parser(__doc__, 12_000, rounds=7, hands_help="distinct hands per round")
    parser.add_argument("--threads", type=thread_counts, default=(2, 4, 8),
                        help="thread counts, separated by commas (default 2,4,8)")
    parser.add_argument("--ruleset", action="append", help="a ruleset id (repeat for more; default "
                        + " and ".join(RULESETS) + ")")
    return parser.parse_args(argv)


def round_hands(rng: random.Random, n: int) -> list[str]:
    """``n`` distinct hands as notation, half winning and half not, shuffled."""
    made = (H.distinct(rng, n - n // 2, H.standard_winning, H.ALL_KINDS)
            + H.distinct(rng, n // 2, H.non_winning, H.ALL_KINDS))
    rng.shuffle(made)
    return [H.to_mjr(hand, "self_draw") for hand in made]


def serial(evaluate: Callable[[Any], object], items: Sequence[Any]) -> float:
    start = time.perf_counter()
    for item in items:
        evaluate(item)
    return time.perf_counter() - start


def threaded(evaluate: Callable[[Any], object], items: Sequence[Any], n: int) -> float:
    """The seconds for ``n`` threads to score ``items`` between them (every n-th each)."""
    def work(part: Sequence[Any]) -> None:
        for item in part:
            evaluate(item)

    threads = [threading.Thread(target=work, args=(items[i::n],)) for i in range(n)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start


def search_share(rs: mjr.Ruleset, texts: Sequence[str]) -> float:
    """The module's time on the hands' records over the time of ``evaluate(text)``."""
    hands = [rs.read_hand(text) for text in texts]
    records = [rs.records.record(hand) for hand in hands]
    kernel = rs.generated.evaluate_record
    whole = min(serial(rs.evaluate, texts) for _ in range(3))
    part = min(serial(kernel, records) for _ in range(3))
    return part / whole


def measure(rs: mjr.Ruleset, args: Any) -> list[str]:
    """The table's rows of one ruleset."""
    rng = random.Random(f"{args.seed}:{rs.id}")
    ratios: dict[tuple[str, int], list[float]] = {}
    serial_us: dict[str, list[float]] = {"text": [], "hand": []}
    for _ in range(args.rounds):
        texts = round_hands(rng, args.hands)
        for form, items in (("text", texts), ("hand", [rs.read_hand(text) for text in texts])):
            alone = serial(rs.evaluate, items)
            serial_us[form].append(alone / len(items) * 1e6)
            for n in args.threads:
                ratios.setdefault((form, n), []).append(alone / threaded(rs.evaluate, items, n))
    share = search_share(rs, round_hands(rng, min(args.hands, 3000)))
    rows = []
    for form in ("text", "hand"):
        cells = [f"{statistics.median(ratios[form, n]):.2f}×" for n in args.threads]
        rows.append(f"| {rs.id} | {form} | {statistics.median(serial_us[form]):.1f} µs | " + " | ".join(cells)
                    + (f" | {share:.0%} |" if form == "text" else " | |"))
    return rows


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    print(f"{args.hands} distinct hands a round, {args.rounds} rounds; median of each round's threaded ÷ serial "
          "throughput\n")
    print("| ruleset | hands as | one thread | " + " | ".join(f"{n} threads" for n in args.threads)
          + " | search's share of a call |")
    print("|---|---|---|" + "---|" * len(args.threads) + "---|")
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        for ident in args.ruleset or RULESETS:
            for row in measure(mjr.load(ident), args):
                print(row, flush=True)
    finally:
        if gc_was_on:
            gc.enable()
    return 0


if __name__ == "__main__":
    sys.exit(main())
