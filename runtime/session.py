"""A session: hands of play one after another at one table, with the deal passing
by the ruleset's ``next_dealer`` rules and a ledger of every seat's total.

Each hand's wall comes from the session's seed and the hand's number
(:func:`mjr.simulate.hand_seed`: hand *i* of a session has the wall of hand *i* of
``mjr simulate`` with the same seed), so a session replays exactly; its log is the hands' logs one after another
(:mod:`mjr.play_log`).
"""

from __future__ import annotations

from typing import IO

from .bots import Bot, play_out
from .ruleset import Ruleset
from .simulate import hand_seed
from .table import Seating, Table, checked_seating, checked_seed, checked_stake


class Session:
    """Hands played one after another under ``ruleset``; its ``seed``, ``stake`` and
    first ``seating`` are checked as a :class:`~mjr.table.Table` checks them."""

    def __init__(self, ruleset: Ruleset, *, seed: int = 0, stake: int = 1, log: IO[str] | None = None,
                 seating: Seating | None = None):
        self.ruleset = ruleset
        self.seed = checked_seed(seed)
        self.stake = checked_stake(stake)
        self.log = log
        self.seating = checked_seating(seating)
        self.ledger = [0, 0, 0, 0]
        self.hands: list[Table] = []

    def new_hand(self) -> Table:
        """The next hand, dealt; play it to the end, then :meth:`close` it."""
        return Table(self.ruleset, seed=hand_seed(self.seed, len(self.hands)), seating=self.seating,
                     stake=self.stake, log=self.log)

    def close(self, table: Table) -> None:
        """Enter a finished hand in the ledger; the next hand's seating follows from it."""
        if table.outcome is None:
            raise ValueError("the hand is not over")
        self.hands.append(table)
        for seat, amount in enumerate(table.net()):
            self.ledger[seat] += amount
        self.seating = table.outcome.next_seating

    def play(self, bots: list[Bot], hands: int) -> list[int]:
        """Play ``hands`` hands with ``bots`` in the four seats; the ledger after them."""
        for _ in range(hands):
            self.close(play_out(self.new_hand(), bots))
        return self.ledger
