"""The command-line options of ``mjr score --batch``: parsing and checking them, and
the :class:`mjr.jobs.job.Job` they describe (which imports none of the batch
machinery, so that ``mjr`` starts quickly).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ..jobs.job import PARTITION_SIZE, Job

if TYPE_CHECKING:
    from ..ruleset.loaded import Ruleset


def whole_number(text: str) -> int:
    """A whole number of 1 or more, for ``--workers``, ``--partition-size`` and ``--hands``."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, not {text!r}")
    return int(text)


def add_arguments(sub: argparse.ArgumentParser) -> None:
    """The ``score`` command's arguments: a hand, or ``--batch FILE`` and its options."""
    sub.add_argument("hand", nargs="*", metavar="HAND", help='e.g. "234m 567m 345p 678s 2s win 2s self_draw"')
    batch = sub.add_argument_group("a file of hands")
    batch.add_argument("--batch", metavar="FILE", help="score every hand of a JSONL or Parquet file")
    batch.add_argument("--out", metavar="FILE",
                       help="write the rows here (.jsonl or .parquet; default: JSONL on stdout)")
    batch.add_argument("--workers", type=whole_number, metavar="N", help="threads for a local run (default: all cores)")
    batch.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on a Dask distributed cluster (needs mahjong-rules[dask])")
    batch.add_argument("--partition-size", type=whole_number, metavar="N",
                       help=f"hands per partition, one partition per task (default: {PARTITION_SIZE})")
    batch.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    sub.set_defaults(check=check_arguments, parser=sub)


def check_arguments(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """A hand or ``--batch``, not both; the batch options only with ``--batch``.  A
    mistake is a usage error (``parser.error``)."""
    if args.batch is None:
        if not args.hand:
            parser.error("give a HAND, or --batch FILE")
        given = (("--out", args.out), ("--workers", args.workers), ("--scheduler", args.scheduler),
                 ("--partition-size", args.partition_size), ("--no-progress", args.no_progress))
        used = [flag for flag, value in given if value]
        if used:
            parser.error(f"{used[0]} goes with --batch FILE")
        return
    if args.hand:
        parser.error("give a HAND or --batch FILE, not both")
    if args.json and args.out is None:
        parser.error("--json with --batch needs --out FILE (without it the rows go to stdout)")
    if args.workers is not None and args.scheduler is not None:
        parser.error("--workers is for a local run; with --scheduler the cluster's workers do the work")


def job(args: argparse.Namespace, ruleset: Ruleset) -> Job:
    """The job the checked arguments describe.  A ``.mjr`` path is made absolute, as
    a cluster worker loads the ruleset itself, by that path."""
    name = args.ruleset
    if name.endswith(".mjr") or "/" in name:
        name = str(Path(name).resolve())
    return Job(args.batch, None if args.out is None else Path(args.out), ruleset, name, args.backend,
               workers=args.workers, scheduler=args.scheduler, partition_size=args.partition_size or PARTITION_SIZE,
               progress=not args.no_progress)
