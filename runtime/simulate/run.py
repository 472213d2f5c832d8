"""Play many hands of a ruleset with bots and count what happens: how often each fan
and each payment clause comes up, the points of the wins, draws and dealer wins.

Every hand is independent and reproducible: hand ``i`` of a run with seed ``s`` is
shuffled and played by bots seeded from a hash of ``(s, i)``, with the dealer at
seat ``i % n`` of the ``n`` seats of the ruleset's table.  The hands are cut into partitions of :data:`PARTITION_SIZE`
whatever the number of workers, each partition is played by one task that loads
the ruleset by name, and the partitions' tallies add up in any order: a run on one
core, on every core (processes) or on a Dask cluster gives the same report.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path

from ..errors import MjrError
from ..jobs.executor import cores, load_on_worker, map_partitions
from ..ruleset import loader
from ..ruleset.loaded import Ruleset
from ..table.bots import BOTS, play_out
from ..table.referee import Table, unplayable
from ..table.seats import Seating
from ..table.session import hand_seed
from ..table.state import ON_TABLE
from .report import SimulationReport

#: Hands per partition, one partition per task: small enough to spread a few
#: thousand hands over the cores, large enough that a task outweighs its overhead.
PARTITION_SIZE = 250

#: At most this many failing hands are named in a report (all of them are counted).
NAMED_FAILURES = 20


@dataclass
class Tally:
    """What a set of hands came to; two tallies :meth:`merge` in any order."""

    hands: int = 0
    draws: int = 0
    aborts: Counter[str] = field(default_factory=Counter)  # abort id -> hands it ended
    wins: int = 0
    dealer_wins: int = 0  # hands the dealer won (at least once)
    wins_by_method: Counter[str] = field(default_factory=Counter)
    wins_per_hand: Counter[int] = field(default_factory=Counter)
    points: Counter[int] = field(default_factory=Counter)  # a win's points -> wins
    fan_wins: Counter[str] = field(default_factory=Counter)  # fan id -> wins it is in
    fan_value: Counter[str] = field(default_factory=Counter)  # fan id -> its value summed over those wins
    clause_hands: Counter[str] = field(default_factory=Counter)  # clause -> hands it paid in
    clause_amount: Counter[str] = field(default_factory=Counter)  # clause -> its amounts summed
    names: dict[str, str] = field(default_factory=dict)  # fan id or clause -> display name
    zero_sum_failures: list[int] = field(default_factory=list)  # hand indices
    tile_count_failures: list[int] = field(default_factory=list)  # hand indices
    play_seconds: float = 0.0

    def merge(self, other: Tally) -> Tally:
        """This tally and ``other`` together (a new tally; failures in hand order)."""
        merged = Tally()
        for item in fields(Tally):
            mine, theirs = getattr(self, item.name), getattr(other, item.name)
            if isinstance(mine, list):
                value: object = sorted(mine + theirs)
            elif isinstance(mine, dict) and not isinstance(mine, Counter):
                value = {**mine, **theirs}
            else:
                value = mine + theirs
            setattr(merged, item.name, value)
        return merged

    def add_hand(self, index: int, table: Table) -> None:
        """Count one finished hand, the ``index``-th of the run."""
        self.hands += 1
        assert table.outcome is not None
        self.draws += table.outcome.drawn
        if table.outcome.aborted:
            self.aborts[table.outcome.aborted] += 1
            self.names[table.outcome.aborted] = next(rule.name for rule in table.rules.aborts
                                                     if rule.id == table.outcome.aborted)
        self.wins_per_hand[len(table.wins)] += 1
        self.dealer_wins += any(win.seat == table.seating.dealer for win in table.wins)
        for win in table.wins:
            self.wins += 1
            self.wins_by_method[win.method] += 1
            self.points[win.result.points] += 1
            for fan in win.result.fans:
                self.fan_wins[fan.id] += 1
                self.fan_value[fan.id] += fan.value
                self.names[fan.id] = fan.name
        for clause in {payment.clause for payment in table.payments}:
            self.clause_hands[clause] += 1
        for payment in table.payments:
            self.clause_amount[payment.clause] += payment.amount
            self.names.setdefault(payment.clause, payment.name)
        if not payments_balance(table):
            self.zero_sum_failures.append(index)
        if not tiles_add_up(table):
            self.tile_count_failures.append(index)


def payments_balance(table: Table) -> bool:
    """Whether the hand's payments are zero-sum: every line a transfer of a
    non-negative amount between two different parties (the seats, and the table's
    deposits: :data:`~mjr.table.state.ON_TABLE`), the table never paying out more
    than it holds, and the seats' net results and what the table gained summing to
    zero.  (Transfers always sum to zero; a line paying oneself, paying a negative
    amount or naming no party is how an unbalanced settlement shows.)"""
    parties = (*range(len(table.players)), ON_TABLE)
    lines_ok = all(p.payer in parties and p.payee in parties and p.payer != p.payee and p.amount >= 0
                   for p in table.payments)
    gained = table.deposits - table.seating.deposits
    return lines_ok and table.deposits >= 0 and sum(table.net()) + gained == 0


def tiles_add_up(table: Table) -> bool:
    """Whether every seat ends the hand with its dealt number of tiles (kongs count 3),
    but a player who called an abortive draw on its turn, with the tile it drew."""
    deal = table.ruleset.deal
    called = table.turn if table.events and table.events[-1].get("action") == "abort" else None
    return all(player.held + 3 * len(player.melds) == deal + (seat == called)
               for seat, player in enumerate(table.players))


@dataclass(frozen=True)
class Partition:
    """Hands ``start`` to ``start + count - 1`` of a run: all a task needs to play them."""

    ruleset: str  # a bundled id or an absolute path: the task loads it by name
    backend: str
    options: tuple[tuple[str, object], ...]
    bot: str
    seed: int
    start: int
    count: int


def play_hand(ruleset: Ruleset, bot: str, seed: int, index: int) -> Table:
    """Hand ``index`` of a run with ``seed``, played to the end by a ``bot`` in each seat."""
    own = hand_seed(seed, index)
    table = Table(ruleset, seed=own, seating=Seating(dealer=index % ruleset.seats))
    return play_out(table, [BOTS[bot](hand_seed(own, seat)) for seat in range(ruleset.seats)])


def play_partition(partition: Partition) -> Tally:
    """The tally of one partition's hands (the task run by a worker)."""
    ruleset = load_on_worker(partition.ruleset, partition.backend, partition.options)
    tally = Tally()
    start = time.perf_counter()
    for index in range(partition.start, partition.start + partition.count):
        tally.add_hand(index, play_hand(ruleset, partition.bot, partition.seed, index))
    tally.play_seconds = time.perf_counter() - start
    return tally




def simulate(ruleset: str | Path, hands: int, *, seed: int = 0, options: dict[str, object] | None = None,
             workers: int | None = None, scheduler: str | None = None, bot: str = "greedy",
             progress: Callable[[int], None] | None = None, backend: str = "auto") -> SimulationReport:
    """Play ``hands`` hands of ``ruleset`` (a bundled id or a ``.mjr`` path) with bots.

    Locally the partitions run in ``workers`` processes (default: one per core; 1
    plays them in this process); with ``scheduler`` (a Dask address) on the cluster.
    ``progress(count)`` is called as each partition's ``count`` hands are done.  The
    report is the same for the same ruleset, options, seed and bot, wherever it ran.
    """
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise MjrError(f"the number of hands must be a whole number of 1 or more, not {hands!r}")
    if bot not in BOTS:
        raise MjrError(f"unknown bot {bot!r}: choose one of {', '.join(sorted(BOTS))}")
    name = _by_name(ruleset)
    loaded = loader.load(name, backend, **(options or {}))  # a bad name or option is refused here, once
    why = unplayable(loaded)
    if why is not None:
        raise MjrError(why)
    chosen = tuple(sorted(loaded.choices.items()))
    parts = [Partition(name, backend, chosen, bot, seed, start, min(PARTITION_SIZE, hands - start))
             for start in range(0, hands, PARTITION_SIZE)]
    count = min(cores() if workers is None else workers, len(parts))
    start = time.perf_counter()
    total = Tally()
    for tally in _run(parts, count, scheduler):
        total = total.merge(tally)
        if progress is not None:
            progress(tally.hands)
    where = scheduler if scheduler is not None else f"{count} process" + ("es" if count > 1 else "")
    return SimulationReport(loaded.id, dict(chosen), seed, bot, total, time.perf_counter() - start, where,
                            PARTITION_SIZE, NAMED_FAILURES, {fan.id: fan.name for fan in loaded.fans})


def _by_name(ruleset: str | Path) -> str:
    """A bundled id as it is; a path made absolute, as a worker elsewhere loads it."""
    text = str(ruleset)
    if isinstance(ruleset, Path) or text.endswith(".mjr") or "/" in text:
        return str(Path(text).resolve())
    return text


def _run(parts: list[Partition], workers: int, scheduler: str | None) -> Iterator[Tally]:
    if scheduler is not None:
        return map_partitions(play_partition, parts, scheduler=scheduler)
    if workers < 1:
        raise MjrError(f"workers must be 1 or more, not {workers}")
    return map_partitions(play_partition, parts, workers=workers, processes=True)


__all__ = ["PARTITION_SIZE", "Partition", "Tally", "hand_seed", "play_hand",
           "play_partition", "simulate"]
