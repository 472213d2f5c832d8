"""``python -m fuzz --target T --inputs N``: run a fuzz campaign against mjr.

Prints each distinct failure once (shrunk), saves new ones as fixtures under
tests/fuzz_cases/, and a line of counts per target.  Exits 1 when it found a
failure that no open fixture records.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import warnings
from pathlib import Path

from .engines import BYTE_TARGETS, ENGINES, RUNNERS, Campaign
from .targets import TARGETS


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=[*TARGETS, "all"], default="all")
    parser.add_argument("--inputs", type=int, default=10_000, help="inputs per target")
    parser.add_argument("--engine", choices=ENGINES, default="hypothesis")
    parser.add_argument("--seed", type=int, default=None, help="for a repeatable run")
    parser.add_argument("--seconds", type=float, default=None, help="per target: stop after this long, whatever "
                        "--inputs says (not with atheris)")
    parser.add_argument("--memory-mb", type=int, default=4096, help="address space allowed (a MemoryError fails)")
    parser.add_argument("--no-save", action="store_true", help="report failures without writing fixtures")
    parser.add_argument("--stats", default=None, help="write the counts as JSON to this file")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    warnings.simplefilter("ignore")  # the pure-Python warning, hypothesis's notes: not findings
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (args.memory_mb * 2**20, hard))
    names = list(TARGETS) if args.target == "all" else [args.target]
    if args.engine != "hypothesis":
        names = [name for name in names if name in BYTE_TARGETS]
    campaign = Campaign(save=not args.no_save, log=lambda line: print(line, flush=True),
                        stats=Path(args.stats) if args.stats else None)
    for name in names:
        start = time.monotonic()
        campaign.deadline = start + args.seconds if args.seconds else float("inf")
        RUNNERS[args.engine](TARGETS[name], args.inputs, campaign, args.seed)
        print(f"{name}: {campaign.tried.get(name, 0)} inputs in {time.monotonic() - start:.0f} s", flush=True)
        campaign.progress(name)
    found = len(campaign.found)
    print(f"{sum(campaign.tried.values())} inputs; {found} distinct failures, {len(campaign.new)} new", flush=True)
    return 1 if campaign.new else 0


if __name__ == "__main__":
    sys.exit(main())
