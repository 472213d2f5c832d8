"""A session: hands of play one after another at one table, with the deal passing
by the ruleset's ``next_dealer`` rules and a ledger of every seat's total.

Each hand's wall comes from the session's seed and the hand's number
(:func:`hand_seed`: hand *i* of a session has the wall of hand *i* of ``mjr
simulate`` with the same seed), so a session replays exactly.  Its log
(:mod:`mjr.table.record`; :mod:`mjr.table.log` replays it) is its hands' logs one
after another, each numbered, and a closing line once the session is finished: a
log cut between two hands is told from a whole one.
"""

from __future__ import annotations

import hashlib
from typing import IO

from ..errors import MjrError
from ..ruleset.loaded import Ruleset
from .bots import Bot, play_out
from .record import session_end, write_line
from .referee import Table, checked_log, checked_ruleset, checked_seating, checked_seed, checked_stake
from .seats import Seating


def hand_seed(seed: int, index: int) -> int:
    """The seed of hand ``index`` of a session, or of a run of ``mjr simulate``, with
    ``seed``: a hash, so that runs with nearby seeds share no hands (``seed + index``
    would make run 1's hand 0 run 0's hand 1)."""
    digest = hashlib.blake2b(f"mjr-simulate:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class Session:
    """Hands played one after another under ``ruleset``: deal each with
    :meth:`new_hand`, :meth:`close` it once played, and :meth:`finish` the session
    (or let :meth:`play` do all three).  Its ``ruleset``, ``seed``, ``stake``, first
    ``seating`` and ``log`` are checked when it is made, as a
    :class:`~mjr.table.Table` checks them."""

    def __init__(self, ruleset: Ruleset, *, seed: int = 0, stake: int = 1, log: IO[str] | None = None,
                 seating: Seating | None = None):
        self.ruleset = checked_ruleset(ruleset)
        self.seed = checked_seed(seed)
        self.stake = checked_stake(stake)
        self.log = checked_log(log)
        self.seating = checked_seating(seating, self.ruleset.seats)
        self.ledger = [0] * self.ruleset.seats
        self.hands: list[Table] = []
        self.finished = False
        self._dealt: Table | None = None  # the hand dealt and not yet closed

    def new_hand(self) -> Table:
        """The next hand, dealt; play it to the end, then :meth:`close` it."""
        if self.finished:
            raise MjrError("the session is finished: it deals no more hands")
        if self._dealt is not None:
            raise MjrError("the hand dealt last is not closed yet: close it before dealing the next")
        table = Table(self.ruleset, seed=hand_seed(self.seed, len(self.hands)), seating=self.seating,
                      stake=self.stake, log=self.log, session_hand=len(self.hands))
        self._dealt = table
        return table

    def close(self, table: Table) -> None:
        """Enter a finished hand in the ledger; the next hand's seating follows from it."""
        if table is not self._dealt:
            raise MjrError("the session closes only the hand it dealt last")
        if table.outcome is None:
            raise MjrError("the hand is not over")
        self.hands.append(table)
        self._dealt = None
        for seat, amount in enumerate(table.net()):
            self.ledger[seat] += amount
        self.seating = table.outcome.next_seating

    def finish(self) -> None:
        """End the session: its log gets its closing line (hands and ledger), and no
        hand is dealt after it.  A session not finished leaves a log that replays as cut."""
        if self._dealt is not None:
            raise MjrError("the hand dealt last is not closed: a session finishes between hands")
        if not self.finished and self.log is not None:
            write_line(self.log, session_end(len(self.hands), self.ledger))
        self.finished = True

    def play(self, bots: list[Bot], hands: int) -> list[int]:
        """Play ``hands`` hands with ``bots`` in the seats (one each) and finish the
        session; the ledger after them."""
        if len(bots) != self.ruleset.seats:
            raise MjrError(f"{len(bots)} bots for a table of {self.ruleset.seats}: give one bot per seat")
        for _ in range(hands):
            self.close(play_out(self.new_hand(), bots))
        self.finish()
        return self.ledger


__all__ = ["Session", "hand_seed"]
