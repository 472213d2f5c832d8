"""What a table works out from its ruleset's rules of play: the facts of play it
fills, the payments on kongs, and the close of a hand (the checks of a drawn hand,
the refunds of kong payments, the next dealer)."""

from __future__ import annotations

import operator
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..hand.model import FactValue
from ..ruleset.result import Result
from ..ruleset.rules_of_play import PlayerTest
from ..tiles.kinds import FIRST_HONOR, N_KINDS, parse_tile

if TYPE_CHECKING:
    from .referee import Seating, Table

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


@dataclass(frozen=True)
class Payment:
    """One payment of a hand of play, by seat (0-3), with the clause behind it."""

    payer: int
    payee: int
    amount: int
    clause: str
    name: str

    def to_json(self) -> dict[str, object]:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount, "clause": self.clause,
                "name": self.name}


@dataclass(frozen=True)
class WinRecord:
    """One win of the hand: who, how, on what, from whom, its result and its payments."""

    seat: int
    method: str
    tile: int
    source: int | None
    result: Result
    lines: tuple[Payment, ...]
    winners: int = 1


@dataclass(frozen=True)
class HandOutcome:
    """How a hand ended: drawn or not, the payments of its close, and the next hand's seating."""

    drawn: bool
    closing: tuple[Payment, ...]
    next_seating: Seating
    ready: tuple[bool, ...] = field(default=(False,) * 4)


# -- facts of play -------------------------------------------------------------------


def table_facts(table: Table, seat: int, tile: int | None) -> tuple[tuple[str, FactValue], ...]:
    """The facts of play the ruleset has the table fill, for a win by ``seat`` on ``tile``."""
    facts: list[tuple[str, FactValue]] = []
    declared = table.ruleset.facts.by_id
    for ident, source, count in table.rules.fact_sources:
        fact = declared.get(ident)
        if fact is None:
            continue
        if source == "wall_after_win":
            tiles = _tiles_after_win(table, count)
            if tiles:
                facts.append((ident, tiles))
        elif source == "dealer_streak":
            facts.append((ident, min(table.seating.streak, fact.high)))
        elif source == "previous_winner":
            previous = table.seating.previous_winner
            facts.append((ident, ((table.seating.dealer if previous is None else previous) - seat) % 4))
        elif source == "last_copy" and tile is not None and tile < N_KINDS and _in_sight(table, tile) == 3:
            facts.append((ident, True))
        elif source == "fed_before" and _fed_before(table, seat, count):
            facts.append((ident, True))
    return tuple(facts)


def _fed_before(table: Table, seat: int, nth: int) -> bool:
    """包先不包后: whether the player who fed ``seat``'s ``nth`` claimed meld had fed
    another player's ``nth`` claimed meld earlier in the hand."""
    for index, (claimer, feeder, ordinal) in enumerate(table.feeds):
        if claimer == seat and ordinal == nth:
            return any(other != seat and earlier == feeder and number == nth
                       for other, earlier, number in table.feeds[:index])
    return False


def _tiles_after_win(table: Table, count: int) -> tuple[int, ...]:
    """The next ``count`` tiles of the wall (flowers and jokers, which name no kind,
    passed over; the unplayed tail included); fewer, or none, as the wall runs out.  (A region whose rules use the
    winning tile when none is left says so in its file, with ``winning_tile``.)"""
    wall = table.wall
    return tuple(sorted([t for t in wall.tiles[wall.head:wall.tail] if t < N_KINDS][:count]))


def _in_sight(table: Table, tile: int) -> int:
    """Copies of ``tile`` in sight: discards and open melds, the tile on offer left out."""
    seen = 0
    for player in table.players:
        seen += player.discards.count(tile)
        seen += sum(meld.tiles.count(tile) - meld.jokers.count(tile) for meld in player.melds if not meld.concealed)
    if table.offer is not None and table.phase == "claim" and table.offer[1] == tile:
        seen -= 1
    return seen


# -- kong payments -------------------------------------------------------------------


def kong_payment(table: Table, seat: int, kind: str, discarder: int | None) -> list[Payment]:
    """The payments the ruleset's ``kong_pay`` clauses make on a kong that stands."""
    lines = []
    for clause in table.rules.kong_payments:
        if clause.kind != kind:
            continue
        if clause.payer == "discarder":
            payers = [] if discarder is None else [discarder]
        else:
            payers = [other for other in range(4) if other != seat and not table.players[other].out]
        lines += [Payment(payer, seat, clause.amount * table.stake, clause.id, clause.name) for payer in payers]
    return lines


# -- the close of a hand -------------------------------------------------------------


def close_hand(table: Table, drawn: bool) -> HandOutcome:
    """The payments that close the hand, and who deals the next one."""
    ready = tuple(is_ready(table, seat) for seat in range(4)) if drawn else (False,) * 4
    closing: list[Payment] = []
    if drawn:
        closing += _refunds(table, ready)
        for check in table.rules.draw_checks:
            for payer in range(4):
                if not _passes(table, payer, check.payer, ready):
                    continue
                for payee in range(4):
                    if payee != payer and _passes(table, payee, check.payee, ready):
                        amount = check.amount if check.amount >= 0 else best_value(table, payee, payer)
                        if amount:
                            closing.append(Payment(payer, payee, amount * table.stake, check.id, check.name))
    return HandOutcome(drawn and not table.wins, tuple(closing), next_seating(table, ready), ready)


def is_ready(table: Table, seat: int) -> bool:
    """Whether ``seat``'s hand waits on a winning tile (a player who has won is not asked)."""
    player = table.players[seat]
    if player.held % 3 != 1:
        return False
    if "self_draw" in table.ruleset.win_methods:
        return bool(table.ruleset.waits(table.hand_of(seat, None, "self_draw")))
    return bool(table.ruleset.waits(table.hand_of(seat, None, "discard", (seat + 1) % 4)))


def best_value(table: Table, seat: int, payer: int) -> int:
    """The most points ``seat``'s waits would score on a discard by ``payer`` (查大叫)."""
    best = 0
    for wait in table.ruleset.waits(table.hand_of(seat, None, "discard", payer)):
        kind = parse_tile(wait.tile)
        result = table.ruleset.evaluate(table.hand_of(seat, kind, "discard", payer))
        if result.is_win:
            best = max(best, result.points)
    return best


def _refunds(table: Table, ready: tuple[bool, ...]) -> list[Payment]:
    """Kong payments given back because their maker is not ready when the hand is drawn."""
    refundable = {clause.id for clause in table.rules.kong_payments if clause.refund_unless_ready}
    lines = []
    for line in table.payments:
        if line.clause in refundable and not ready[line.payee] and not table.players[line.payee].wins:
            lines.append(Payment(line.payee, line.payer, line.amount, line.clause, f"{line.name} refunded"))
    return lines


def _passes(table: Table, seat: int, test: PlayerTest, ready: tuple[bool, ...]) -> bool:
    player = table.players[seat]
    if test.won is not None and bool(player.wins) != test.won:
        return False
    if test.ready is not None and ready[seat] != test.ready:
        return False
    if test.suits is not None:
        op, value = test.suits
        if not _COMPARE[op](_suits_held(table, seat), value):
            return False
    return True


def _suits_held(table: Table, seat: int) -> int:
    player = table.players[seat]
    suits = {kind // 9 for kind, count in enumerate(player.counts) if count and kind < FIRST_HONOR}
    suits |= {meld.tile // 9 for meld in player.melds if meld.tile < FIRST_HONOR}
    return len(suits)


def next_seating(table: Table, ready: tuple[bool, ...]) -> Seating:
    """The seating of the next hand, by the first ``next_dealer`` rule that holds;
    ``ready`` says whose hands were ready when the hand was drawn."""
    from .referee import Seating

    seating, wins = table.seating, table.wins
    first = wins[0] if wins else None
    several = first is not None and first.winners > 1
    words = {
        "drawn": not wins,
        "dealer_won": any(w.seat == seating.dealer for w in wins),
        "dealer_ready": not wins and ready[seating.dealer],
        "several_winners": several,
        "self_draw": first is not None and first.method == "self_draw",
        "discard": first is not None and first.method != "self_draw",
        "konged": any(meld.kind == "kong" for player in table.players for meld in player.melds),
    }
    dealer = seating.dealer
    for rule in table.rules.next_dealer:
        words["streak"] = rule.streak > 0 and seating.streak >= rule.streak
        if not rule.conditions or any(words[word] for word in rule.conditions):
            dealer = _target(rule.target, table, first)
            break
    streak = seating.streak + 1 if dealer == seating.dealer else 0
    round_ = (seating.round + 1) % 4 if dealer == 0 and seating.dealer != 0 else seating.round
    return Seating(dealer, round_, streak, first.seat if first is not None else seating.previous_winner)


def _target(target: str, table: Table, first: WinRecord | None) -> int:
    dealer = table.seating.dealer
    if target == "next":
        return (dealer + 1) % 4
    if target == "previous":
        return (dealer + 3) % 4
    if target == "random":
        return random.Random(f"{table.seed}:dealer").randrange(4)
    if target == "last_drawer":
        return dealer if table.last_drawer is None else table.last_drawer
    if first is None:
        return dealer
    if target == "winner":
        return first.seat
    if target == "discarder":
        return first.source if first.source is not None else first.seat
    return dealer
