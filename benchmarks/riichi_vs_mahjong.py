"""The ``mahjong`` riichi calculator's speed, per hand, on legal riichi wins.

    python benchmarks/riichi_vs_mahjong.py [--hands 10000] [--rounds 5] [--seed 1] [--no-dora]

Times ``HandCalculator.estimate_hand_value`` called once per hand, on distinct
legal wins of every yaku, wait and context (tests/riichi_hands.py, seeded), with
its arguments (136-format tiles, ``Meld`` objects, indicators, ``HandConfig``)
built before timing.  Prints hands per second and microseconds per hand, the
median of ``--rounds`` interleaved rounds (benchmarks/timing.py).

The table has one column per side, registered in :data:`SIDES`: a side turns the
hands into one prepared callable per row (``one call``, ``batch``) or leaves a
row out (a dash).  The library has no batch entry point: its one-call row, a
loop of calls, is what a batch is compared with.  ``japan.riichi`` scores the
same hands (with red fives), read into :class:`mjr.Hand` before timing: its
``evaluate`` once per hand (fans, fu, points and payments), and
``evaluate_batch`` on the hands' records (fan and points per hand).  The last
line gives the ratios.  ``--no-dora`` makes hands without dora or ura
indicators.  Needs the ``mahjong`` package (the ``riichi`` extra).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from timing import Measure, Suite, per_hand, timed_parser

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from riichi_hands import RiichiHand, generate, library_arguments, library_available  # noqa: E402 - tests/, above

#: The rows, in order: a key and its label.
ROWS = (("one", "one call per hand"), ("batch", "batch, per hand"))
#: A side's prepared runs, by row key (each runs every hand once).
Runs = dict[str, Callable[[], None]]


def library_runs(hands: tuple[RiichiHand, ...]) -> Runs:
    """``HandCalculator.estimate_hand_value`` once per hand, arguments ready."""
    from mahjong.hand_calculating.hand import HandCalculator

    calls = [library_arguments(hand.call) for hand in hands]
    estimate = HandCalculator.estimate_hand_value

    def one() -> None:
        for args, kwargs in calls:
            estimate(*args, **kwargs)

    return {"one": one}


def ruleset_runs(hands: tuple[RiichiHand, ...]) -> Runs:
    """``japan.riichi``: ``evaluate`` once per hand, and one ``evaluate_batch`` of
    all their records (built before timing)."""
    import mjr

    ruleset = mjr.load("japan.riichi")
    read = [ruleset.read_hand(hand.text) for hand in hands]
    records = b"".join(ruleset.records.record(hand) or b"" for hand in read)
    evaluate = ruleset.evaluate

    def one() -> None:
        for hand in read:
            evaluate(hand)

    def batch() -> None:
        ruleset.evaluate_batch(records, workers=1)

    return {"one": one, "batch": batch}


#: The columns: a name and what prepares its runs.
SIDES: tuple[tuple[str, Callable[[tuple[RiichiHand, ...]], Runs]], ...] = (
    ("mahjong HandCalculator", library_runs),
    ("mjr japan.riichi", ruleset_runs),
)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = timed_parser(__doc__, hands=10_000)
    parser.add_argument("--no-dora", action="store_true", help="hands without dora or ura indicators")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    missing = library_available()
    if missing is not None:
        print(missing, file=sys.stderr)
        return 2
    print(f"generating {args.hands} hands", file=sys.stderr, flush=True)
    hands = generate(args.hands, args.seed, red=True, dora=not args.no_dora)
    suite = Suite("riichi")
    measures: dict[tuple[str, str], Measure] = {}
    for side, prepare in SIDES:
        for row, run in prepare(hands).items():
            measures[side, row] = suite.add(f"{side}: {row}", run, len(hands))
    suite.run(args.rounds)
    names = [side for side, _ in SIDES]
    print(f"# riichi scoring, {len(hands)} distinct hands, medians of {args.rounds} rounds\n")
    print("| row | " + " | ".join(names) + " |\n|---|" + "---|" * len(names))
    for row, label in ROWS:
        print(f"| {label} | " + " | ".join(per_hand(measures.get((side, row))) for side in names) + " |")
    library = measures.get((names[0], "one"))
    if library is not None:
        ratios = [f"{label}: {library.median / measures[names[1], row].median:,.0f}x"
                  for row, label in ROWS if (names[1], row) in measures]
        print(f"\n{names[1]} against {names[0]} (one call per hand): " + ", ".join(ratios))
    print(f"\nThis process had {100 * suite.cpu_share:.0f}% of a core while timing.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
