"""The ``mcr`` ruleset beside PyMahjongGB, on the same MCR hands.

    python benchmarks/mcr_vs_pymahjonggb.py [--hands 20000] [--rounds 5]

Both score the same rules here, so the ratios compare like with like (the main
speed table, benchmarks/run.py, puts PyMahjongGB beside other regions).  Rows:

- batch, per hand: ``evaluate_batch(records, workers=1)`` on packed records, beside
  the library called in a Python loop (it has no batch entry point);
- one call: ``evaluate(hand)`` on a parsed ``Hand`` and ``evaluate(text)`` on
  notation, beside one ``MahjongFanCalculator(*args)`` with its arguments ready;
- kernel against kernel: the batch per hand beside the library's call less its
  boundary, the part of the call that turns Python arguments into its C++ hand
  (see :func:`add_boundary` for how that is measured);
- the ruleset's cold compile (a new process, an empty build cache) and its load
  (``mjr.load`` of the built module in a new process).

The hands are distinct legal wins of every shape (tests/mcr_hands.py, seeded),
prepared before timing; measurements are interleaved round by round and each
figure is the median of the rounds (benchmarks/timing.py), of the wall clock and,
in brackets, of this process's CPU time.  Needs PyMahjongGB.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from processes import cold_compile
from timing import Measure, Suite, fmt_ratio, fmt_time, positive, ratios, timed_parser, wall_and_cpu

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from mcr_hands import McrHand, generate, library_available  # noqa: E402 - from the tests folder, on the path above

import mjr  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = timed_parser(__doc__, hands=20_000)
    parser.add_argument("--compile-rounds", type=positive, default=3, help="cold compiles (default 3)")
    parser.add_argument("--load-rounds", type=positive, default=5, help="loads in a new process (default 5)")
    parser.add_argument("--ruleset", default="mcr", help="an id or a .mjr path (default mcr)")
    return parser.parse_args(argv)


def source_of(ruleset: str) -> Path:
    """The ``.mjr`` file of an id (the repository's rulesets/) or a path."""
    path = Path(ruleset) if ruleset.endswith(".mjr") or "/" in ruleset else REPO / "rulesets" / f"{ruleset}.mjr"
    if not path.is_file():
        raise SystemExit(f"no source {path} to compile")
    return path


def add_calls(suite: Suite, rs: mjr.Ruleset, hands: tuple[McrHand, ...]) -> None:
    """The batch, one call of each side, on the same distinct hands."""
    from MahjongGB import MahjongFanCalculator

    records = b"".join(rs.records.record(h.hand) or b"" for h in hands)
    if len(records) != len(hands) * rs.records.size:
        raise SystemExit(f"{rs.id} refuses some of the hands: run benchmarks/mcr_differential.py to see which")
    parsed = [h.hand for h in hands]
    texts = [h.text for h in hands]
    argument_lists = [h.args for h in hands]
    evaluate = rs.evaluate

    def batch() -> None:
        rs.evaluate_batch(records, workers=1)

    def library() -> None:
        for args in argument_lists:
            MahjongFanCalculator(*args)

    def on_hand() -> None:
        for hand in parsed:
            evaluate(hand)

    def on_text() -> None:
        for text in texts:
            evaluate(text)

    for key, run in (("batch", batch), ("library", library), ("hand", on_hand), ("text", on_text)):
        suite.add(key, run, len(hands))
    add_boundary(suite, argument_lists)


#: A tile code the library does not know: it rejects it once the packs and the hand are read.
NO_TILE = "X0"


def add_boundary(suite: Suite, argument_lists: list[tuple[object, ...]]) -> None:
    """Three calls of the library that are refused, to measure its boundary: what a
    call costs before its C++ scoring starts.  On the same hands:

    - ``read``: the winning tile replaced by an unknown code.  The library converts
      its ten arguments, reads every pack and tile of the tuples, then finds no such
      winning tile and throws (a C++ exception turned into a ``TypeError``);
    - ``thrown``: the packs not a tuple.  The ten arguments are converted, nothing is
      read, and the same C++ exception is thrown: ``read - thrown`` is the reading
      of the tuples;
    - ``converted``: the last argument (the prevalent wind) a string.  Python's
      argument conversion refuses it, after the other nine, before any C++ code:
      the call and the conversion of its arguments, plus a Python ``TypeError``.

    The boundary is ``(read - thrown) + converted``, the kernel ``library - boundary``:
    the scoring and the building of its answer.  It is an estimate, slightly low:
    the ``TypeError`` of ``converted`` is counted in the boundary.
    """
    from MahjongGB import MahjongFanCalculator

    def refused(calls: list[tuple[object, ...]]) -> Callable[[], None]:
        def run() -> None:
            for args in calls:
                try:
                    MahjongFanCalculator(*args)
                except TypeError:
                    pass
                else:
                    raise AssertionError(f"PyMahjongGB took {args}")
        return run

    variants = {
        "read": [(*args[:2], NO_TILE, *args[3:]) for args in argument_lists],
        "thrown": [(None, *args[1:]) for args in argument_lists],
        "converted": [(*args[:-1], "E") for args in argument_lists],
    }
    for key, calls in variants.items():
        refused(calls)()  # each is refused before timing, or the estimate means nothing
        suite.add(key, refused(calls), len(calls))


def kernel(m: dict[str, Measure], clock: str) -> float:
    """The library's call less its boundary, in seconds (see :func:`add_boundary`)."""
    def of(key: str) -> float:
        value = m[key].median if clock == "wall" else m[key].cpu_median
        assert value is not None, key
        return value

    return of("library") - (of("read") - of("thrown")) - of("converted")


def load_seconds(ruleset: str) -> float:
    """Seconds of ``mjr.load`` of a built ruleset, timed inside a new process."""
    code = "import sys, time, mjr; t = time.perf_counter(); mjr.load(sys.argv[1]); print(time.perf_counter() - t)"
    done = subprocess.run([sys.executable, "-c", code, ruleset], capture_output=True, text=True, check=True,
                          env=dict(os.environ))
    return float(done.stdout.strip().splitlines()[-1])


def rows(m: dict[str, Measure], compile_rounds: int, not_compiled: str = "") -> list[tuple[str, str, str, str]]:
    """The table's rows; ``not_compiled`` says why the cold compile has no figure
    (no C compiler: the ruleset then runs interpreted)."""
    def ratio(mine: str, peer: str) -> str:
        return f"{ratios(m[mine], m[peer])} PyMahjongGB's time"

    if not_compiled:
        compiled = f"not measured: {not_compiled}"
    else:
        walls = sorted(m["compile"].aside)
        compiled = f"{m['compile'].median:.1f} s CPU, {walls[len(walls) // 2]:.1f} s wall"

    units = m["batch"].units
    wall, cpu = kernel(m, "wall"), kernel(m, "cpu")
    batch_cpu = m["batch"].cpu_median
    assert batch_cpu is not None
    boundary = m["library"].median - wall
    return [
        (f"batch, per hand ({units} distinct hands, one core)", wall_and_cpu(m["batch"], "/hand"),
         f"loop of calls {wall_and_cpu(m['library'], '/hand')}", ratio("batch", "library")),
        ("one call, parsed `Hand`", wall_and_cpu(m["hand"]), wall_and_cpu(m["library"]), ratio("hand", "library")),
        ("one call, notation text", wall_and_cpu(m["text"]), wall_and_cpu(m["library"]), ratio("text", "library")),
        (f"kernel against kernel: batch per hand, PyMahjongGB's call less its boundary ({fmt_time(boundary)}: "
         "argument conversion and tuple reading, measured by refused calls)", wall_and_cpu(m["batch"], "/hand"),
         f"kernel {fmt_time(wall)}/hand (CPU {fmt_time(cpu)})",
         f"{fmt_ratio(m['batch'].median / wall)} (CPU {fmt_ratio(batch_cpu / cpu)}) PyMahjongGB's kernel time"
         if wall > 0 and cpu > 0 else "no ratio: the boundary measured longer than the call (a busy machine?)"),
        (f"cold compile of the ruleset ({compile_rounds} runs)", compiled, "", ""),
        (f"load of the built ruleset, new process ({len(m['load'].samples)} runs)", fmt_time(m["load"].median),
         "", ""),
    ]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    missing = library_available()
    if missing is not None:
        print(missing, file=sys.stderr)
        return 2
    rs = mjr.load(args.ruleset)
    print(f"generating {args.hands} hands", file=sys.stderr, flush=True)
    hands = generate(args.hands, args.seed)
    suite = Suite("mcr")
    add_calls(suite, rs, hands)
    suite.run(args.rounds)
    compiles, loads = Suite("cold compile"), Suite("load")
    compile_measure = compiles.add("compile", lambda: cold_compile(compile_measure.aside, source_of(args.ruleset)),
                                   1, reports_own_time=True)
    not_compiled = ""
    try:
        compiles.run(args.compile_rounds, warm=False, warm_up=False)
    except RuntimeError as error:  # no C compiler on this machine
        not_compiled = str(error).splitlines()[0]
    loads.add("load", lambda: load_seconds(args.ruleset), 1, reports_own_time=True)
    loads.run(args.load_rounds, warm=False)
    measures = {m.key: m for m in (*suite.measures, *compiles.measures, *loads.measures)}
    print(f"# {rs.id} beside PyMahjongGB, medians of {args.rounds} rounds, wall (CPU)\n")
    print("| row | mjr | PyMahjongGB | ratio |\n|---|---|---|---|")
    for row in rows(measures, args.compile_rounds, not_compiled):
        print("| " + " | ".join(row) + " |")
    print(f"\nThis process had {100 * suite.cpu_share:.0f}% of a core while timing the calls.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
