"""The speed of mjr, every row of the speed issue's table in one run, peers side by side.

Run from the repository root, in an environment where mjr, NumPy and (optionally)
the peers ``PyMahjongGB`` and ``mahjong`` and Dask distributed are installed::

    python benchmarks/run.py                      # the table on stdout (a few minutes)
    python benchmarks/run.py --quick              # a smoke run, about a minute
    python benchmarks/run.py --install            # also time `pip install .` (a minute or two)
    python benchmarks/run.py --json out.json      # also write the figures as JSON
    python benchmarks/run.py --readme README.md   # also rewrite the README's speed section

Every pass walks distinct hands (100k by default): no hand twice, so the CPU
cannot learn their branches.  The in-process measurements run in interleaved
rounds (see timing.py); the Dask, compile and import rows in their own rounds, in
new processes.  See README.md in this folder for what each row measures.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import batch_calls  # noqa: E402
import hands as H  # noqa: E402
import processes  # noqa: E402
import report  # noqa: E402
import single_calls  # noqa: E402
from timing import Measure, Suite  # noqa: E402

import mjr  # noqa: E402
from mjr.notation.json import hand_to_json  # noqa: E402

#: (default, --quick) of each size option.
SIZES = {"hands": (100_000, 5_000), "riichi_hands": (10_000, 300), "dask_hands": (100_000, 5_000),
         "rounds": (5, 2), "dask_rounds": (3, 1), "compile_rounds": (3, 1), "import_rounds": (15, 5)}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smoke run: fewer hands and rounds (about a minute)")
    for name, (default, quick) in SIZES.items():
        parser.add_argument("--" + name.replace("_", "-"), type=int, metavar="N",
                            help=f"default {default}, {quick} with --quick")
    parser.add_argument("--install", action="store_true", help="also time `pip install .` into a new venv")
    parser.add_argument("--cold", action="store_true", help="no untimed pass before each timed one")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--json", metavar="PATH", help="write the figures as JSON to PATH ('-' for stdout)")
    parser.add_argument("--readme", metavar="PATH", help="rewrite the speed section of this README")
    parser.add_argument("--no-check", action="store_true", help="skip checking that the hand sets score as meant")
    args = parser.parse_args(argv)
    for name, (default, quick) in SIZES.items():
        if getattr(args, name) is None:
            setattr(args, name, quick if args.quick else default)
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be 1 or more")
    if args.readme:  # before a run of minutes, not after it
        problem = report.readme_problem(Path(args.readme))
        if problem:
            parser.error(problem)
    return args


def in_process(args: argparse.Namespace, peers: single_calls.Peers) -> tuple[Suite, list[H.BenchHand]]:
    """The single-call and batch measurements, registered together and run interleaved."""
    check = not args.no_check
    rs = mjr.load(single_calls.REGION)
    rng = random.Random(f"{args.seed}:{rs.id}")
    say(f"{rs.id}: {args.hands} distinct winning and non-winning hands")
    winning = H.distinct(rng, args.hands, H.standard_winning, H.ALL_KINDS)
    non_winning = H.distinct(rng, args.hands, H.non_winning, H.ALL_KINDS)
    suite = Suite("in process")
    single_calls.add_single_calls(suite, rs, winning, args.riichi_hands, peers, check)
    batch_calls.add_regular(suite, rs, winning, non_winning, check)
    wild = mjr.load(batch_calls.WILD_REGION)
    say(f"{wild.id}: {args.hands} distinct hands for each number of wildcards")
    batch_calls.add_wildcards(suite, wild, random.Random(f"{args.seed}:{wild.id}"), args.hands, check)
    suite.run(args.rounds, warm=not args.cold)
    return suite, winning


def hand_lines(hands: list[H.BenchHand], n: int) -> list[str]:
    """``n`` distinct hand JSON lines: the hands given, self-drawn and by discard alternately."""
    lines = []
    for i, hand in enumerate(hands[:n]):
        context = "self_draw" if i % 2 else "discard from L"
        lines.append(json.dumps(hand_to_json(mjr.parse_hand(H.to_mjr(hand, context)))))
    return lines


def out_of_process(args: argparse.Namespace, winning: list[H.BenchHand],
                   skipped: dict[str, str]) -> list[Measure]:
    """The Dask, compile, import and install measurements, each in new processes."""
    measures: list[Measure] = []
    with tempfile.TemporaryDirectory(prefix="mjr-bench-") as scratch:
        why = processes.dask_available()
        if why is None:
            rng = random.Random(f"{args.seed}:dask")
            pool = winning + H.distinct(rng, max(0, args.dask_hands - len(winning)), H.standard_winning, H.ALL_KINDS)
            lines = sorted(set(hand_lines(pool, args.dask_hands)))
            say(f"dask: {len(lines)} distinct hands in a JSONL file")
            measures += processes.run_dask(single_calls.REGION, lines, args.dask_rounds, Path(scratch)).measures
        else:
            skipped["dask"] = why
        compiled = Suite("cold compile")
        processes.add_compile(compiled)
        try:
            compiled.run(args.compile_rounds, warm=False, warm_up=False)
            measures += compiled.measures
        except RuntimeError as error:
            skipped["compile"] = f"failed: {error}"
            say(skipped["compile"])
        imports = Suite("import")
        processes.add_imports(imports, scratch)
        imports.run(args.import_rounds, warm=False)
        measures += imports.measures
    if args.install:
        say("pip install: a new venv and a fresh copy of the sources")
        try:
            wall, cpu = processes.measure_install()
            measures.append(Measure("install", 1, lambda: None, samples=[wall], note=f"{cpu:.0f} s CPU, one run"))
        except (RuntimeError, subprocess.CalledProcessError) as error:
            skipped["install"] = f"failed: {error}"
            say(skipped["install"])
    return measures


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    info = report.machine()
    print(f"# mjr speed, {info['date']}\n")
    print(f"Machine: {info['cpu']}, {info['cores']} cores (load average {info['load average']}); {info['os']}; "
          f"{info['python']}; mjr {info['mjr']}; PyMahjongGB {info['PyMahjongGB']}; mahjong {info['mahjong']}.\n",
          flush=True)
    peers = single_calls.load_peers()
    skipped: dict[str, str] = {}
    suite, winning = in_process(args, peers)
    measures = {m.key: m for m in suite.measures}
    measures.update({m.key: m for m in out_of_process(args, winning, skipped)})
    rows = report.table_rows(measures, peers.missing, skipped)
    print(report.markdown(rows))
    print()
    print(report.footnote(args.rounds, suite.cpu_share))
    print(f"\nRun took {time.perf_counter() - started:.0f} s.")
    if args.json:
        settings = {k: getattr(args, k) for k in (*SIZES, "install", "cold", "seed")}
        settings["cpu_share"] = suite.cpu_share
        text = json.dumps(report.to_json(rows, measures, info, settings, peers.missing, skipped), indent=1,
                          ensure_ascii=False)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n", encoding="utf-8")
    if args.readme:
        report.rewrite_readme(Path(args.readme), rows, info, args.rounds, suite.cpu_share)
    return 0


if __name__ == "__main__":
    sys.exit(main())
