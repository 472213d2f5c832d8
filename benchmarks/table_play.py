"""How fast a table of play plays hands, random and greedy, beside riichienv's environment.

Random legal actions chosen from Python, and greedy bots, per ruleset; riichienv's
environment plays riichi the same way in the same run.

    python benchmarks/table_play.py [--hands 200] [--rounds 3] [--seed 1] [--rulesets ID ...]

Rows, each on one core:

- random play, per ruleset: ``Table(rs, seed=s)``, then the first player asked
  takes a random one of its legal actions (``table.act(rng.choice(actions))``)
  until the hand is over: hands/s, and steps (actions) per second;
- riichienv 0.4.11 (Rust), riichi: ``RiichiEnv`` for one hand (``YON_IKKYOKU``),
  random legal actions from Python until it is done (a step of riichienv takes
  the actions of every player asked at once, so its steps are fewer);
- greedy bots, per ruleset: a partition of ``mjr simulate`` (the table, the bots,
  the scoring and settlement of every win, the tally).

Every round plays other hands (the seed moves on each pass): no hand twice.
riichienv is optional (the ``bench`` extra): without it its row says so.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Callable

from simulate import per_core
from timing import Measure, Suite, fmt_ratio, timed_parser

import mjr
from mjr.table import Table

#: The rulesets of the random-play rows: the issue's three, and riichi beside riichienv.
RULESETS = ("guangdong.jipinghu", "mcr", "sichuan.xuezhan", "japan.riichi")
#: The rulesets of the greedy rows.
GREEDY = ("guangdong.jipinghu", "mcr")


def random_play(ident: str, hands: int, seeds: Callable[[], int], steps: list[int]) -> Callable[[], None]:
    """A pass of ``hands`` hands of ``ident`` played with random legal actions, each
    pass on new seeds, counting its actions into ``steps``."""
    ruleset = mjr.load(ident)

    def play() -> None:
        for _ in range(hands):
            seed = seeds()
            table, rng = Table(ruleset, seed=seed), random.Random(seed)
            while not table.over:
                legal = table.legal()
                table.act(rng.choice(legal[min(legal)]))
                steps[0] += 1
            steps[1] += 1

    return play


def riichienv_play(hands: int, seeds: Callable[[], int], steps: list[int]) -> Callable[[], None] | str:
    """riichienv's pass of ``hands`` hands, or why there is none."""
    try:
        from riichienv import GameType, RiichiEnv
    except ImportError as error:
        return f"riichienv is not installed (pip install 'mahjong-rules[bench]'): {error}"
    one_hand = int(GameType.YON_IKKYOKU)

    def play() -> None:
        for _ in range(hands):
            seed = seeds()
            env, rng = RiichiEnv(game_mode=one_hand, seed=seed, skip_mjai_logging=True), random.Random(seed)
            observations = env.reset()
            while not env.done():
                observations = env.step({player: rng.choice(seen.legal_actions())
                                         for player, seen in observations.items()})
                steps[0] += 1
            steps[1] += 1

    return play


def main(argv: list[str] | None = None) -> int:
    parser = timed_parser(__doc__, hands=200, rounds=3, hands_help="hands per pass and row")
    parser.add_argument("--rulesets", nargs="+", default=list(RULESETS), metavar="ID", help="random-play rows")
    parser.add_argument("--greedy", nargs="*", default=list(GREEDY), metavar="ID", help="greedy-bot rows")
    args = parser.parse_args(argv)
    seeds = itertools.count(args.seed * 1_000_000)
    next_seed: Callable[[], int] = lambda: next(seeds)  # noqa: E731 - every pass of every row: new hands
    suite = Suite("table play")
    counted: dict[str, list[int]] = {}
    for ident in args.rulesets:
        counted[ident] = [0, 0]
        suite.add(ident, random_play(ident, args.hands, next_seed, counted[ident]), args.hands)
    peer = riichienv_play(args.hands, next_seed, counted.setdefault("riichienv", [0, 0]))
    if not isinstance(peer, str):
        suite.add("riichienv", peer, args.hands)
    greedy = [per_core(suite, ident, args.hands, args.seed + 1000 * number)
              for number, ident in enumerate(args.greedy)]
    suite.run(args.rounds, warm=False)
    by_key: dict[str, Measure] = {m.key: m for m in suite.measures if not any(m is g for g in greedy)}
    riichi = by_key.get("riichienv")
    print(f"# A table of play, one core, medians of {args.rounds} rounds of {args.hands} hands (CPU time)\n")
    print("| row | hands/s | steps/s | steps a hand | beside riichienv |\n|---|--:|--:|--:|--:|")
    for key, measure in by_key.items():
        cpu = measure.cpu_median or measure.median
        steps, played = counted[key]
        per_hand = steps / played
        name = "riichienv 0.4.11 (Rust), riichi, `RiichiEnv`" if key == "riichienv" else f"mjr `{key}`"
        beside = "" if riichi is None or measure is riichi else fmt_ratio((1 / cpu) / (1 / (riichi.cpu_median or 1)))
        print(f"| {name}, random legal actions from Python | {1 / cpu:,.0f} | {per_hand / cpu:,.0f} | "
              f"{per_hand:.0f} | {beside} |")
    if isinstance(peer, str):
        print(f"| riichienv | — | — | — | {peer} |")
    for measure in greedy:
        cpu = measure.cpu_median or measure.median
        print(f"| mjr `{measure.key}`, greedy bots (`mjr simulate`, one partition) | {1 / cpu:,.1f} | | | |")
    print(f"\nhands/s beside riichienv: mjr's hands/s ÷ riichienv's.  This process had "
          f"{100 * suite.cpu_share:.0f}% of a core.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
