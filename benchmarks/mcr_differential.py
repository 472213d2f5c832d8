"""The MCR differential comparison on many hands: ``mcr`` against PyMahjongGB.

    python benchmarks/mcr_differential.py --hands 1000000

Generates legal MCR wins (tests/mcr_hands.py, seeded), scores them with the
ruleset in batches and compares with the library's answers exactly as the
differential test does (tests/mcr_compare.py), then prints the agreement on the
total and on the fan list, the difference classes with their counts and first
hands, and the time each side took.  Hands are made and compared a chunk at a
time, so a million of them need little memory.  Needs PyMahjongGB.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

from timing import positive

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from mcr_compare import Report, compare  # noqa: E402 - from the tests folder, put on the path above
from mcr_hands import hands, library_available  # noqa: E402

import mjr  # noqa: E402


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=positive, default=1_000_000, help="hands to compare (default 1000000)")
    parser.add_argument("--seed", type=int, default=0, help="the generator's seed (default 0)")
    parser.add_argument("--chunk", type=positive, default=50_000, help="hands per batch (default 50000)")
    parser.add_argument("--ruleset", default="mcr", help="the ruleset: an id or a .mjr path (default mcr)")
    parser.add_argument("--workers", type=positive, default=None, help="threads of the batch (default: every core)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    missing = library_available()
    if missing is not None:
        print(missing, file=sys.stderr)
        return 2
    try:
        ruleset = mjr.load(args.ruleset)
    except mjr.MjrError as error:
        print(f"cannot load {args.ruleset}: {error}", file=sys.stderr)
        return 2
    report, stream, generating = Report(), hands(args.seed), 0.0
    started = time.perf_counter()
    while report.hands < args.hands:
        start = time.perf_counter()
        chunk = list(itertools.islice(stream, min(args.chunk, args.hands - report.hands)))
        generating += time.perf_counter() - start
        compare(ruleset, chunk, report, workers=args.workers)
        print(f"{report.hands:,} hands, {100 * report.total_agreement:.3f}% agree", file=sys.stderr, flush=True)
    wall = time.perf_counter() - started
    print(report.summary())
    print(f"hands made and scored by PyMahjongGB: {generating:.1f} s ({generating / report.hands * 1e6:.1f} µs a hand, "
          "rejected candidates included); whole run "
          f"{wall:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
