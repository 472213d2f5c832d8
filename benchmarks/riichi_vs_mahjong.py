"""Riichi scoring beside two riichi calculators, per hand, on legal riichi wins.

    python benchmarks/riichi_vs_mahjong.py [--hands 10000] [--rounds 5] [--seed 1] [--no-dora]

Times, on distinct legal wins of every yaku, wait and context (tests/riichi_hands.py,
seeded, with red fives), each side's scoring of the same hands, its arguments
built before timing: the ``mahjong`` library's ``HandCalculator.estimate_hand_value``
(136-format tiles, ``Meld`` objects, indicators, ``HandConfig``), riichienv's
``HandEvaluator.calc`` (a Rust calculator: 136-format tiles, ``Meld`` objects and
``Conditions``; called on its Rust classes, ``riichienv._riichienv``, which the
package's Python ``HandEvaluator`` wraps), and ``japan.riichi``.  Prints wall and CPU time per hand (the
process's CPU seconds, benchmarks/timing.py) and hands per second, the medians of
``--rounds`` interleaved rounds.

The table has one column per side, registered in :data:`SIDES`: a side turns the
hands into one prepared callable per row or leaves a row out (a dash).  Rows:

- one call per hand: ``estimate_hand_value``; riichienv's ``calc`` on a
  ``HandEvaluator`` built before timing; ``evaluate`` on a :class:`mjr.Hand` read
  before timing (fans, fu, points and payments);
- one call, the hand made in the call: riichienv's ``HandEvaluator(tiles,
  melds).calc(...)``; ``evaluate`` of the notation text;
- batch, per hand: ``evaluate_batch(records, workers=1)`` on the hands' records
  (fan and points per hand).  Neither library has a batch entry point: its
  one-call row, a loop of calls, is what a batch is compared with.

Before timing, riichienv and ``japan.riichi`` score every hand: the run says how
many each scores as a win and on how many han (and fu, below yakuman) agree, with
the first disagreements; it goes on whatever they are.  The last table gives
mjr's time ÷ each library's.  ``--no-dora`` makes hands without dora or ura
indicators.  Needs the ``mahjong`` package (the ``riichi`` extra: it makes the
hands); riichienv is optional (the ``bench`` extra), its column a dash without it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from timing import Measure, Suite, per_hand, ratios, timed_parser

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from riichi_hands import LibraryCall, RiichiHand, generate, library_arguments, library_available  # noqa: E402

#: The rows, in order: a key and its label.
ROWS = (("one", "one call per hand"), ("made", "one call, the hand made in the call (mjr: from notation)"),
        ("batch", "batch, per hand"))
#: A side's prepared runs, by row key (each runs every hand once).
Runs = dict[str, Callable[[], None]]
#: How many disagreements between riichienv and the ruleset are printed.
SHOWN = 5


def library_runs(hands: tuple[RiichiHand, ...]) -> Runs:
    """``HandCalculator.estimate_hand_value`` once per hand, arguments ready."""
    from mahjong.hand_calculating.hand import HandCalculator

    calls = [library_arguments(hand.call) for hand in hands]
    estimate = HandCalculator.estimate_hand_value

    def one() -> None:
        for args, kwargs in calls:
            estimate(*args, **kwargs)

    return {"one": one}


def riichienv_missing() -> str | None:
    """Why riichienv's column is empty (the package missing), or ``None``."""
    try:
        import riichienv  # noqa: F401
    except ImportError as error:
        return f"riichienv is not installed (pip install 'mahjong-rules[bench]'): {error}"
    return None


def riichienv_arguments(call: LibraryCall) -> tuple[list[int], list[Any], tuple[Any, ...]]:
    """riichienv's form of a hand: the concealed tiles (the winning tile among them)
    and the melds, which ``HandEvaluator`` takes, and the arguments of its ``calc``:
    the winning tile, the dora and ura indicators, the ``Conditions``.  The tiles
    are the 136 format of the ``mahjong`` library, red fives (copy 0) included."""
    from riichienv import _riichienv as core

    config = dict(call.config)
    kinds = {"chi": core.MeldType.Chi, "pon": core.MeldType.Pon, "shouminkan": core.MeldType.Kakan}
    melds, in_melds = [], []
    for kind, tiles, opened in call.melds:
        if kind == "kan":
            meld_type = core.MeldType.Daiminkan if opened else core.MeldType.Ankan
        else:
            meld_type = kinds[kind]
        melds.append(core.Meld(meld_type, list(tiles), opened))
        in_melds += tiles
    concealed = list(call.tiles)
    for tile in in_melds:
        concealed.remove(tile)
    winds = (core.Wind.East, core.Wind.South, core.Wind.West, core.Wind.North)
    conditions = core.Conditions(
        tsumo=config["is_tsumo"], riichi=config["is_riichi"] or config["is_daburu_riichi"],
        double_riichi=config["is_daburu_riichi"], ippatsu=config["is_ippatsu"], haitei=config["is_haitei"],
        houtei=config["is_houtei"], rinshan=config["is_rinshan"], chankan=config["is_chankan"],
        tsumo_first_turn=config["is_tenhou"] or config["is_chiihou"], player_wind=winds[config["player_wind"] - 27],
        round_wind=winds[config["round_wind"] - 27], honba=config["tsumi_number"])
    return sorted(concealed), melds, (call.win_tile, list(call.dora), list(call.ura), conditions)


def riichienv_runs(hands: tuple[RiichiHand, ...]) -> Runs:
    """riichienv's ``HandEvaluator.calc`` once per hand, on evaluators built before
    timing, and with the evaluator made in the call."""
    from riichienv import _riichienv as core

    made = [riichienv_arguments(hand.call) for hand in hands]
    built = [(core.HandEvaluator(tiles, melds), args) for tiles, melds, args in made]
    evaluator = core.HandEvaluator

    def one() -> None:
        for hand, args in built:
            hand.calc(*args)

    def made_in_call() -> None:
        for tiles, melds, args in made:
            evaluator(tiles, melds).calc(*args)

    return {"one": one, "made": made_in_call}


def ruleset_runs(hands: tuple[RiichiHand, ...]) -> Runs:
    """``japan.riichi``: ``evaluate`` once per hand (on a parsed hand, and on its
    text), and one ``evaluate_batch`` of all their records (built before timing)."""
    import mjr

    ruleset = mjr.load("japan.riichi")
    read = [ruleset.read_hand(hand.text) for hand in hands]
    texts = [hand.text for hand in hands]
    records = b"".join(ruleset.records.record(hand) or b"" for hand in read)
    evaluate = ruleset.evaluate

    def one() -> None:
        for hand in read:
            evaluate(hand)

    def on_text() -> None:
        for text in texts:
            evaluate(text)

    def batch() -> None:
        ruleset.evaluate_batch(records, workers=1)

    return {"one": one, "made": on_text, "batch": batch}


#: The columns: a name, what prepares its runs, and why it cannot run (``None``: it can).
SIDES: tuple[tuple[str, Callable[[tuple[RiichiHand, ...]], Runs], Callable[[], str | None]], ...] = (
    ("mahjong HandCalculator", library_runs, library_available),
    ("riichienv HandEvaluator", riichienv_runs, riichienv_missing),
    ("mjr japan.riichi", ruleset_runs, lambda: None),
)


def agreement(hands: tuple[RiichiHand, ...]) -> list[str]:
    """Lines saying how far riichienv and ``japan.riichi`` agree on the hands: wins,
    han, and fu below yakuman, with the first disagreements."""
    from riichienv import _riichienv as core

    import mjr

    ruleset = mjr.load("japan.riichi")
    wins = {"riichienv": 0, "japan.riichi": 0}
    han = fu = fu_compared = 0
    differences: list[str] = []
    for hand in hands:
        tiles, melds, args = riichienv_arguments(hand.call)
        theirs = core.HandEvaluator(tiles, melds).calc(*args)
        mine = ruleset.evaluate(hand.text)
        wins["riichienv"] += theirs.is_win
        wins["japan.riichi"] += mine.is_win
        if not (theirs.is_win and mine.is_win):
            differences.append(f"{hand.text}: a win for {'riichienv' if theirs.is_win else 'japan.riichi'} only"
                               if theirs.is_win or mine.is_win else f"{hand.text}: a win for neither")
            continue
        problems = []
        if theirs.han == mine.fan:
            han += 1
        else:
            problems.append(f"han {mine.fan} (riichienv {theirs.han})")
        if not (theirs.yakuman or mine.limit):
            fu_compared += 1
            if theirs.fu == mine.value("fu"):
                fu += 1
            else:
                problems.append(f"fu {mine.value('fu')} (riichienv {theirs.fu})")
        if problems:
            differences.append(f"{hand.text}: " + "; ".join(problems))
    lines = [f"Before timing, of {len(hands)} hands: riichienv scores {wins['riichienv']} as wins, japan.riichi "
             f"{wins['japan.riichi']}; han agree on {han} of the wins of both, fu on {fu} of {fu_compared} below "
             f"yakuman; {len(differences)} disagreements" + (":" if differences else ".")]
    lines += [f"- {line}" for line in differences[:SHOWN]]
    if len(differences) > SHOWN:
        lines.append(f"- and {len(differences) - SHOWN} more")
    return lines


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
    absent = {side: why for side, _, available in SIDES if (why := available()) is not None}
    checked = [] if "riichienv HandEvaluator" in absent else agreement(hands)
    suite = Suite("riichi")
    measures: dict[tuple[str, str], Measure] = {}
    for side, prepare, _ in SIDES:
        if side not in absent:
            for row, run in prepare(hands).items():
                measures[side, row] = suite.add(f"{side}: {row}", run, len(hands))
    suite.run(args.rounds)
    names = [side for side, _, _ in SIDES]
    mine, peers = names[-1], names[:-1]
    print(f"# riichi scoring, {len(hands)} distinct hands, medians of {args.rounds} rounds, wall (CPU)\n")
    for line in checked:
        print(line)
    for side, why in absent.items():
        print(f"{side}: not run, {why}")
    print("\n| row | " + " | ".join(names) + " |\n|---|" + "---|" * len(names))
    for row, label in ROWS:
        print(f"| {label} | " + " | ".join(per_hand(measures.get((side, row))) for side in names) + " |")
    print(f"\n| {mine}'s time ÷ | " + " | ".join(label for _, label in ROWS) + " |\n|---|" + "---|" * len(ROWS))
    for peer in peers:
        if (peer, "one") not in measures:
            continue
        # a row the peer lacks (no batch entry point) is compared with its loop of calls
        cells = [ratios(measures[mine, row], measures.get((peer, row), measures[peer, "one"]))
                 if (mine, row) in measures else "—" for row, _ in ROWS]
        print(f"| {peer} | " + " | ".join(cells) + " |")
    print(f"\nThis process had {100 * suite.cpu_share:.0f}% of a core while timing.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
