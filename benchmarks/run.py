"""Benchmarks for mjr's win check and scoring, with two peers side by side.

Run from the repository root, in an environment where mjr (and optionally the
peers ``PyMahjongGB`` and ``mahjong``) are installed::

    python benchmarks/run.py                 # Markdown tables on stdout
    python benchmarks/run.py --json out.json # also write the numbers as JSON
    python benchmarks/run.py --repeats 3     # quicker, noisier

Every measurement is a loop over a fixed, seeded set of prepared hands.  All
measurements are registered first, then run together: one warm-up pass each,
then ``--repeats`` rounds (default 7) in which every measurement runs one
untimed pass (caches warm) and one pass timed with ``time.perf_counter``, the
garbage collector off (as ``timeit`` does); ``--cold`` drops the untimed pass.
Interleaving spreads each row's samples over the whole run, so a burst of load
from elsewhere on the machine spoils one sample of many rows rather than every
sample of one row.  The tables report, per hand, the median over the rounds and
the min-max spread.  See README.md in this folder for what each row measures.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hands as H  # noqa: E402

import mjr  # noqa: E402
from mjr import tables  # noqa: E402

# Design targets (per hand) and the design's reference points.
TARGET_WIN_SINGLE = 300e-9
TARGET_WIN_BATCH = 100e-9
TARGET_JIPINGHU_BATCH = 1 / 500_000
REFERENCE = {
    "table win check, one Python call": "~150-200 ns",
    "PyMahjongGB MahjongFanCalculator, one call": "~5-6 µs",
    "pure-Python riichi (mahjong) estimate_hand_value": "~60-120 µs",
}


@dataclass
class Row:
    group: str  # "win", "score", "wild", "peer", "floor", "breakdown"
    region: str
    name: str
    hands: int  # hands per timed pass (0: unavailable)
    median: float = 0.0  # seconds per hand
    low: float = 0.0
    high: float = 0.0
    target: str = ""
    verdict: str = ""
    versus: str = ""
    note: str = ""


# ---------------------------------------------------------------- timing


class Suite:
    """Measurements registered first, then run interleaved (see the module doc)."""

    def __init__(self) -> None:
        self.rows: list[Row] = []
        self.jobs: list[tuple[Row, Callable[[], object], float | None]] = []

    def add(self, group: str, region: str, name: str, run: Callable[[], object], hands: int,
            target: str = "", limit: float | None = None, note: str = "") -> Row:
        """Register ``run``, which handles ``hands`` hands per call.  With ``limit``
        (seconds per hand) the row says whether ``target`` is met."""
        row = Row(group, region, name, hands, target=target, note=note)
        self.rows.append(row)
        self.jobs.append((row, run, limit))
        return row

    def unavailable(self, group: str, region: str, why: object) -> None:
        self.rows.append(Row(group, region, f"unavailable: {why}", 0))

    def run(self, repeats: int, cold: bool = False) -> None:
        """Time every job ``repeats`` times, interleaved.  Each timed pass follows
        an untimed one of the same job (steady state: its data and the lookup
        tables in cache), unless ``cold``: then it follows the other jobs' passes."""
        samples: list[list[float]] = [[] for _ in self.jobs]
        for _, run, _ in self.jobs:
            run()  # warm-up: tables built, code paths taken once
        gc_was_on = gc.isenabled()
        gc.disable()
        try:
            for r in range(repeats):
                print(f"round {r + 1}/{repeats}", file=sys.stderr)
                for (row, run, _), times in zip(self.jobs, samples, strict=True):
                    if not cold:
                        run()
                    t0 = time.perf_counter()
                    run()
                    times.append((time.perf_counter() - t0) / row.hands)
        finally:
            if gc_was_on:
                gc.enable()
        for (row, _, limit), times in zip(self.jobs, samples, strict=True):
            row.median, row.low, row.high = statistics.median(times), min(times), max(times)
            if limit is not None:
                row.verdict = "✓" if row.median <= limit else "✗"


def fmt_time(seconds: float) -> str:
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} µs"
    return f"{seconds * 1e3:.2f} ms"


def fmt_rate(seconds: float) -> str:
    rate = 1 / seconds
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M"
    if rate >= 1e3:
        return f"{rate / 1e3:.1f} k"
    return f"{rate:.0f}"


def cycle(hands: list, n: int) -> list:
    """``n`` hands: ``hands`` repeated as often as needed."""
    return (hands * (n // max(len(hands), 1) + 1))[:n]


# ---------------------------------------------------------------- regions

#: The regions measured by default: every random complete hand wins in them (the
#: newer regions need a 2-5-8 pair or the dealer's seat, which the generators do
#: not supply; measuring them is part of the speed work).
DEFAULT_REGIONS = ("guangdong.jipinghu", "guangdong.tuidaohu", "sichuan.xuezhan")


@dataclass
class Region:
    id: str
    rs: mjr.Ruleset
    kinds: tuple[int, ...]
    seven_pairs: int
    orphans: bool
    winning: list[H.BenchHand]
    non_winning: list[H.BenchHand]
    pairs: list[H.BenchHand]


def region_hands(rs: mjr.Ruleset, rng: random.Random, n: int) -> Region:
    """Winning hands (4 sets + pair; seven pairs where the region has them) and
    non-winning hands, from the region's tile set.  A region that requires a
    missing suit (Sichuan's 缺一门) gets winning hands of two suits."""
    _, seven_pairs, orphans = rs.module.SHAPES
    kinds = tuple(sorted(rs.kinds))
    two_suits = "lacks_a_suit" in {ident for ident, _ in rs.module.REQUIREMENTS}
    winning, pairs = [], []
    for _ in range(n):
        pool = H.suit_kinds("".join(rng.sample("mps", 2))) if two_suits else kinds
        winning.append(H.standard_winning(rng, pool))
        if seven_pairs:
            pairs.append(H.seven_pairs_winning(rng, pool, four_share=0.2 if seven_pairs == 2 else 0.0))
    non_winning = H.generate(rng, n, H.non_winning, kinds)
    return Region(rs.id, rs, kinds, int(seven_pairs), bool(orphans), winning, non_winning, pairs)


def context_hand(indicator: int | None = None) -> mjr.Hand:
    """The shared context of a batch: a self-drawn win (every bundled region
    scores one), with the indicator where wildcards are measured."""
    return mjr.Hand((), win_tile=0, context=mjr.Context(win_by="self_draw", indicator=indicator))


def parsed(rs: mjr.Ruleset, hands: list[H.BenchHand], indicator: int | None = None) -> list[mjr.Hand]:
    out = [mjr.parse_hand(H.to_mjr(h, "self_draw", indicator)) for h in hands]
    for hand in out:
        rs.check_hand(hand, winning=True)
    return out


# ---------------------------------------------------------------- mjr


def bench_region(suite: Suite, reg: Region, n_batch: int, check: bool) -> None:
    rs, rid = reg.rs, reg.id
    iw = tables.is_win
    sp, orph = reg.seven_pairs, reg.orphans
    win_bytes = [H.to_counts(h) for h in reg.winning]
    non_bytes = [H.to_counts(h) for h in reg.non_winning]
    n = len(win_bytes)

    if check:
        assert all(iw(b, 0, False, sp, orph) for b in win_bytes), rid
        assert not any(iw(b, 0, False, sp, orph) for b in non_bytes), rid

    # (1) win check, one Python call per hand on prepared 34-byte objects.
    def win_single(items=win_bytes):
        for b in items:
            iw(b, 0, False, sp, orph)

    def non_single(items=non_bytes):
        for b in items:
            iw(b, 0, False, sp, orph)

    for label, run in (("winning", win_single), ("non-winning", non_single)):
        suite.add("win", rid, f"win check, single call, {label} (`tables.is_win(bytes)`)", run, n,
                  "≤ 300 ns", TARGET_WIN_SINGLE)

    # (2) win check, batch: one N*34 buffer (half winning, half not) through
    # tables.is_win_many, one call for the whole batch.
    mixed = reg.winning[: n_batch // 2] + reg.non_winning[: n_batch // 2]
    random.Random(7).shuffle(mixed)
    mixed = cycle(mixed, n_batch)
    buf = H.pack_counts(mixed)
    iw_many = tables.is_win_many

    def win_batch():
        iw_many(buf, 0, False, sp, orph)

    suite.add("win", rid, "win check, batch (`tables.is_win_many`, one N×34 buffer)", win_batch,
              len(mixed), "≤ 100 ns", TARGET_WIN_BATCH)

    # The Ruleset method on parsed hands, for scale (wildcards, melds, shapes).
    win_hands = parsed(rs, reg.winning)
    is_win = rs.is_win

    def api_is_win(items=win_hands):
        for h in items:
            is_win(h)

    suite.add("win", rid, "win check via `rs.is_win(Hand)`, winning", api_is_win, n)

    # (3) full scoring, one call per pre-parsed Hand.
    evaluate = rs.evaluate
    if check:
        results = [evaluate(h) for h in win_hands]
        wins = sum(r.is_win for r in results)
        assert wins == n, (rid, wins, n, next(r.reason for r in results if not r.is_win))

    def score_single(items=win_hands):
        for h in items:
            evaluate(h)

    suite.add("score", rid, "full scoring, single call (`rs.evaluate(Hand)`), 4 sets + pair", score_single, n)

    # (4) full scoring, batch.
    ctx = context_hand()
    ec = rs.evaluate_counts
    batches = {"4 sets + pair": reg.winning, "non-winning": reg.non_winning}
    if reg.pairs:
        batches["seven pairs"] = reg.pairs
    for label, hands in batches.items():
        hands = cycle(hands, n_batch)
        counts = H.pack_counts(hands)
        if check:
            points, _ = ec(counts, ctx)
            wins = sum(p >= 0 for p in points)
            expected = 0 if label == "non-winning" else len(hands)
            assert wins == expected, (rid, label, wins, expected)
        jipinghu = rid == "guangdong.jipinghu" and label == "4 sets + pair"
        suite.add("score", rid, f"full scoring, batch (`evaluate_counts`), {label}",
                  lambda counts=counts: ec(counts, ctx), len(hands),
                  "≥ 500k hands/s" if jipinghu else "", TARGET_JIPINGHU_BATCH if jipinghu else None)

    # The batch entry called once per hand: its fixed cost per call.
    singles = [H.to_counts(h) for h in reg.winning]

    def batch_of_one(items=singles):
        for b in items:
            ec(b, ctx)

    suite.add("score", rid, "full scoring, `evaluate_counts` called per hand (batches of 1)", batch_of_one, n)

    # Single-call scoring of seven pairs (where the region has them).
    if reg.pairs:
        pair_hands = parsed(rs, reg.pairs)

        def score_pairs(items=pair_hands):
            for h in items:
                evaluate(h)

        suite.add("score", rid, "full scoring, single call, seven pairs", score_pairs, len(pair_hands))


def bench_wildcards(suite: Suite, rs: mjr.Ruleset, rng: random.Random, n: int, n_batch: int,
                    check: bool) -> None:
    """(5) Tuidaohu with an indicator and 1-4 wildcard tiles."""
    rid = rs.id
    kinds = tuple(sorted(rs.kinds))
    indicator = rng.choice(kinds)
    wild = H.wildcard_of(indicator)
    flags = rs.wildcard_kinds(context_hand(indicator))
    assert [k for k in range(34) if flags[k]] == [wild], "hands.wildcard_of disagrees with the ruleset"
    _, seven_pairs, orphans = rs.module.SHAPES
    iw = tables.is_win
    note = f"indicator {H.tile_name(indicator)}, wildcard {H.tile_name(wild)}"
    max_wild = 3 if wild == indicator else 4

    by_count = {k: H.generate(rng, n // max_wild, H.wildcard_winning, kinds, indicator, k)
                for k in range(1, max_wild + 1)}
    mixed = [h for k in sorted(by_count) for h in by_count[k]]
    random.Random(11).shuffle(mixed)

    stripped = [H.strip_wildcards(h, wild) for h in mixed]
    if check:
        assert all(iw(b, j, False, seven_pairs, orphans) for b, j in stripped)

    def win_single(items=stripped):
        for b, j in items:
            iw(b, j, False, seven_pairs, orphans)

    suite.add("wild", rid, "win check, single call, 1-4 wildcards as jokers", win_single, len(stripped),
              "≤ 300 ns", TARGET_WIN_SINGLE, note)

    hands = parsed(rs, mixed, indicator)
    evaluate = rs.evaluate
    if check:
        assert all(evaluate(h).is_win for h in hands)

    def score_single(items=hands):
        for h in items:
            evaluate(h)

    suite.add("wild", rid, "full scoring, single call, 1-4 wildcards", score_single, len(hands), note=note)

    ctx = context_hand(indicator)
    ec = rs.evaluate_counts
    for k, group in sorted(by_count.items()):
        group = cycle(group, n_batch)
        counts = H.pack_counts(group)
        if check:
            points, _ = ec(counts, ctx)
            assert all(p >= 0 for p in points), (rid, k)
        suite.add("wild", rid, f"full scoring, batch (`evaluate_counts`), {k} wildcard{'s' * (k > 1)}",
                  lambda counts=counts: ec(counts, ctx), len(group), note=note)


def breakdown(suite: Suite, rs: mjr.Ruleset, title: str, hands: list[mjr.Hand]) -> list[Row] | None:
    """Where one ``rs.evaluate`` call spends its time: its stages timed separately
    on the same hands.  Uses the Ruleset's internals; None if they changed shape."""
    try:
        module = rs.module

        def encode(h: mjr.Hand) -> tuple:
            c = h.context
            return (bytearray(h.concealed_counts()), rs.wildcard_kinds(h), rs._melds(h.melds),
                    -1 if h.win_tile is None else h.win_tile, rs._context_bits(h), c.seat, c.round,
                    -1 if c.void is None else c.void, c.winners)

        encoded = [encode(h) for h in hands]
        details = [module.evaluate_raw(*e)[1] for e in encoded]
        result, check, evaluate, raw = rs._result, rs.check_hand, rs.evaluate, module.evaluate_raw
        result(hands[0], details[0])

        def total():
            for h in hands:
                evaluate(h)

        def checking():
            for h in hands:
                check(h, True)

        def encoding():
            for h in hands:
                encode(h)

        def kernel():
            for e in encoded:
                raw(*e)

        def building():
            for h, d in zip(hands, details, strict=True):
                result(h, d)

        stages = [("`rs.evaluate(Hand)`, total", total),
                  ("`check_hand` (impossibility, tile set, claims)", checking),
                  ("encode (counts, wildcard flags, melds, context bits)", encoding),
                  ("`module.evaluate_raw` (compiled search + fans + detail tuples)", kernel),
                  ("`_result` (FanLine / Group / Result dataclasses, tile names)", building)]
        rows = [suite.add("breakdown", title, label, run, len(hands)) for label, run in stages]
        return rows
    except Exception as exc:  # noqa: BLE001
        print(f"(breakdown unavailable: {type(exc).__name__}: {exc})", file=sys.stderr)
        return None


# ---------------------------------------------------------------- peers


def load_peers() -> dict[str, object]:
    """The peer entry points that import; a missing peer is reported, not fatal."""
    peers: dict[str, object] = {}
    try:
        from MahjongGB import MahjongFanCalculator

        peers["gb"] = MahjongFanCalculator
    except Exception as exc:  # noqa: BLE001 - any failure means "unavailable"
        peers["gb_error"] = f"{type(exc).__name__}: {exc}"
    try:
        from mahjong.agari import Agari
        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig

        peers["riichi"] = (HandCalculator, HandConfig)
        peers["agari"] = Agari
    except Exception as exc:  # noqa: BLE001
        peers["riichi_error"] = f"{type(exc).__name__}: {exc}"
    return peers


def package_version(name: str) -> str:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:  # noqa: BLE001
        return "unavailable"


def _gb(suite: Suite, calc, winning: list[H.BenchHand], n: int) -> Row:
    prepared = [H.to_gb(h) for h in winning[:n]]
    ok = []
    for tiles, win in prepared:
        try:
            calc((), tiles, win, 0, True, False, False, False, 0, 0)
            ok.append((tiles, win))
        except Exception:  # noqa: BLE001 - such a hand is left out and counted
            pass
    if not ok:
        raise RuntimeError("MahjongFanCalculator rejected every hand")

    def gb(items=ok):
        for tiles, win in items:
            # pack (no melds), hand (13 codes), winTile, flowerCount, isSelfDrawn,
            # is4thTile, isAboutKong, isWallLast, seatWind, prevalentWind
            calc((), tiles, win, 0, True, False, False, False, 0, 0)

    return suite.add("peer", "MCR (PyMahjongGB)", "full MCR fan calculation, `MahjongFanCalculator`", gb,
                     len(ok), note=f"{len(prepared) - len(ok)} hands rejected")


def _riichi(suite: Suite, classes, winning: list[H.BenchHand], n: int) -> Row:
    calculator, config_cls = classes
    config = config_cls(is_tsumo=True)  # menzen tsumo: every concealed winning hand has a yaku
    prepared = [H.to_riichi(h) for h in winning[:n]]
    estimate = calculator.estimate_hand_value
    errors = sum(estimate(t, w, config=config).error is not None for t, w in prepared)

    def riichi(items=prepared):
        for tiles, win in items:
            estimate(tiles, win, config=config)

    return suite.add("peer", "riichi (mahjong)", "`HandCalculator.estimate_hand_value`", riichi,
                     len(prepared), note=f"{errors} hands with an error result")


def _agari(suite: Suite, agari_cls, winning: list[H.BenchHand]) -> Row:
    is_agari = agari_cls().is_agari
    counts34 = [H.to_riichi34(h) for h in winning]
    assert all(is_agari(c) for c in counts34)

    def agari(items=counts34):
        for c in items:
            is_agari(c)

    return suite.add("peer", "riichi (mahjong)", "win check, `Agari.is_agari(counts34)`", agari,
                     len(counts34))


def bench_peers(suite: Suite, peers: dict[str, object], winning: list[H.BenchHand], n_gb: int,
                n_riichi: int) -> dict[str, Row]:
    """PyMahjongGB and the mahjong package on the same standard winning hands
    (all 34 kinds, concealed, self-drawn).  A peer that is missing or fails is
    reported as unavailable; the rest of the run goes on."""
    found: dict[str, Row] = {}
    jobs = [
        ("MCR (PyMahjongGB)", "gb", "gb_error", lambda: _gb(suite, peers["gb"], winning, n_gb)),
        ("riichi (mahjong)", "riichi", "riichi_error",
         lambda: _riichi(suite, peers["riichi"], winning, n_riichi)),
        ("riichi (mahjong)", "agari", None, lambda: _agari(suite, peers["agari"], winning)),
    ]
    for region, key, error_key, job in jobs:
        if key not in peers:
            if error_key:  # one line per missing package
                suite.unavailable("peer", region, peers.get(error_key))
            continue
        try:
            found[key] = job()
        except Exception as exc:  # noqa: BLE001 - a broken peer must not stop the run
            suite.unavailable("peer", region, f"{type(exc).__name__}: {exc}")
    return found


def bench_floor(suite: Suite, win_bytes: list[bytes]) -> None:
    """The interpreter's own cost of one loop step and one call of a C builtin."""

    def floor(items=win_bytes):
        for b in items:
            len(b)

    suite.add("floor", "—", "Python loop floor: `for b in items: len(b)`", floor, len(win_bytes))


# ---------------------------------------------------------------- output


def machine() -> dict[str, str]:
    cpu = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        cpu = platform.processor()
    compiled = not str(getattr(tables, "__file__", "")).endswith(".py")
    return {
        "cpu": cpu or "unknown",
        "cpus": str(os.cpu_count()),
        "os": f"{platform.system()} {platform.machine()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "mjr": f"{mjr.__version__} ({'compiled' if compiled else 'pure Python'} kernel)",
        "PyMahjongGB": package_version("PyMahjongGB"),
        "mahjong": package_version("mahjong"),
    }


def versus(row: Row, peer: dict[str, Row]) -> str:
    """Peer time ÷ this row's time: how many times faster mjr is (indicative only:
    the peers score other rule sets)."""
    parts = []
    if row.group in ("score", "wild") and "full scoring" in row.name:
        if "gb" in peer:
            parts.append(f"GB {peer['gb'].median / row.median:.1f}×")
        if "riichi" in peer:
            parts.append(f"riichi {peer['riichi'].median / row.median:.0f}×")
    elif row.group in ("win", "wild") and "win check" in row.name and "agari" in peer:
        parts.append(f"is_agari {peer['agari'].median / row.median:.0f}×")
    return " · ".join(parts)


def markdown(rows: list[Row], repeats: int, cold: bool) -> str:
    out = ["| Region | Measurement | Hands | Median / hand | Spread (min-max) | Hands/s | Target "
           "| Peer time ÷ mjr time |",
           "|---|---|--:|--:|--:|--:|---|---|"]
    for r in rows:
        if r.hands == 0:
            out.append(f"| {r.region} | {r.name} | – | – | – | – | | |")
            continue
        target = f"{r.target} {r.verdict}".strip()
        name = r.name + (f" ({r.note})" if r.note else "")
        out.append(f"| {r.region} | {name} | {r.hands} | {fmt_time(r.median)} | "
                   f"{fmt_time(r.low)}-{fmt_time(r.high)} | {fmt_rate(r.median)} | {target} | {r.versus} |")
    out.append("")
    state = "each straight after the other measurements' passes (cold caches)" if cold else (
        "each straight after an untimed pass of its own (warm caches)")
    out.append(f"Medians of {repeats} interleaved timed passes, {state}.  Last column: peer time ÷ "
               "mjr time, above 1 when mjr is faster (GB: PyMahjongGB `MahjongFanCalculator`; riichi: "
               "`mahjong` `estimate_hand_value`; is_agari: `mahjong` `Agari.is_agari`).  The peers score "
               "other rule sets (MCR, riichi): the ratios are indicative only.")
    return "\n".join(out)


def breakdown_markdown(title: str, stages: list[Row]) -> str:
    total = stages[0].median
    out = [f"{title}:", "", "| Stage | Median / hand | Share of total |", "|---|--:|--:|"]
    out += [f"| {r.name} | {fmt_time(r.median)} | {100 * r.median / total:.0f}% |" for r in stages]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--repeats", type=int, default=7, help="timed passes per measurement (default 7)")
    parser.add_argument("--hands", type=int, default=2000, help="hands per single-call pass (default 2000)")
    parser.add_argument("--batch", type=int, default=20000, help="hands per batch pass (default 20000)")
    parser.add_argument("--riichi-hands", type=int, default=300, help="hands per pass for the riichi peer")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--regions", nargs="*", help="region ids (default: %(default)s, whose random complete "
                        "hands all win: no pair rule or dealer to supply)", default=list(DEFAULT_REGIONS))
    parser.add_argument("--json", metavar="PATH", help="write the results as JSON to PATH ('-' for stdout)")
    parser.add_argument("--no-check", action="store_true", help="skip the checks of the hand sets")
    parser.add_argument("--cold", action="store_true",
                        help="time each pass right after the other measurements' passes (caches cold)")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    check = not args.no_check
    suite = Suite()
    peers = load_peers()
    info = machine()
    print("Machine: " + "; ".join(f"{k} {v}" for k, v in info.items()), file=sys.stderr)

    jipinghu_hands: list[H.BenchHand] | None = None
    breakdowns: dict[str, list[Row]] = {}
    for rid in args.regions:
        print(f"{rid}: preparing hands", file=sys.stderr)
        rs = mjr.load(rid)
        rng = random.Random(f"{args.seed}:{rid}")
        reg = region_hands(rs, rng, args.hands)
        bench_region(suite, reg, args.batch, check)
        if rs.has_wildcards:
            bench_wildcards(suite, rs, rng, args.hands, args.batch, check)
        if rid == "guangdong.jipinghu":
            jipinghu_hands = reg.winning
            title = f"{rid}, 4 sets + pair"
            stages = breakdown(suite, rs, title, parsed(rs, reg.winning))
            if stages:
                breakdowns[title] = stages
        if rid == "guangdong.tuidaohu":
            indicator = 26  # 9s: the wildcard is 1s
            many = H.generate(random.Random(args.seed), 500, H.wildcard_winning, tuple(sorted(rs.kinds)),
                              indicator, 4)
            title = f"{rid}, 4 wildcards (indicator 9s, wildcard 1s)"
            stages = breakdown(suite, rs, title, parsed(rs, many, indicator))
            if stages:
                breakdowns[title] = stages

    if jipinghu_hands is None:
        jipinghu_hands = H.generate(random.Random(args.seed), args.hands, H.standard_winning, H.ALL_KINDS)
    print("peers: preparing hands", file=sys.stderr)
    peer_rows = bench_peers(suite, peers, jipinghu_hands, args.hands, args.riichi_hands)
    bench_floor(suite, [H.to_counts(h) for h in jipinghu_hands])

    suite.run(args.repeats, cold=args.cold)
    rows = [r for r in suite.rows if r.group != "breakdown"]
    for row in rows:
        row.versus = versus(row, peer_rows)

    elapsed = time.perf_counter() - started
    print("## Results\n")
    print(markdown(rows, args.repeats, args.cold))
    if breakdowns:
        print("\n## Where one `rs.evaluate` call spends its time\n")
        for title, stages in breakdowns.items():
            print(breakdown_markdown(title, stages) + "\n")
    print("Reference points (design): " + "; ".join(f"{k} {v}" for k, v in REFERENCE.items()) + ".")
    print("Machine: " + "; ".join(f"{k} {v}" for k, v in info.items()) + f".  Run took {elapsed:.0f} s.")

    if args.json:
        data = {
            "machine": info,
            "repeats": args.repeats,
            "cold": args.cold,
            "seed": args.seed,
            "seconds": elapsed,
            "rows": [asdict(r) for r in rows],
            "breakdown": {title: [asdict(r) for r in stages] for title, stages in breakdowns.items()},
            "peers_unavailable": {k: v for k, v in peers.items() if k.endswith("_error")},
        }
        text = json.dumps(data, indent=1, ensure_ascii=False)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
