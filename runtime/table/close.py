"""The close of a hand of play, worked out from its state and its ruleset's rules
of play: the payments on kongs, the checks of a drawn hand and the refunds of kong
payments, and who deals the next hand; and what a hand's readiness decides in play
(the discards that may declare, a win barred by the player's own discards).

:class:`Payment`, :class:`WinRecord` and :class:`HandOutcome` (the records of what a
hand paid, won and came to) are kept in :mod:`mjr.table.state` and named here too.
"""

from __future__ import annotations

import operator
import random
from dataclasses import replace

from ..errors import HandError
from ..hand.model import Hand
from ..ruleset.rules_of_play import DrawCheck, PlayerTest
from ..tiles.kinds import FIRST_HONOR, TERMINALS_AND_HONORS, parse_tile
from .hands import may_win, seat_hand
from .seats import Seating
from .state import HandOutcome, Payment, TableState, WinRecord

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


# -- kong payments -------------------------------------------------------------------


def kong_payment(state: TableState, seat: int, kind: str, discarder: int | None) -> list[Payment]:
    """The payments the ruleset's ``kong_pay`` clauses make on a kong that stands."""
    lines = []
    for clause in state.rules.kong_payments:
        if clause.kind != kind:
            continue
        if clause.payer == "discarder":
            payers = [] if discarder is None else [discarder]
        else:
            payers = [other for other in range(state.seats) if other != seat and not state.players[other].out]
        lines += [Payment(payer, seat, clause.amount * state.stake, clause.id, clause.name) for payer in payers]
    return lines


# -- the close of a hand -------------------------------------------------------------


def close_hand(state: TableState, drawn: bool, aborted: str = "") -> HandOutcome:
    """The payments that close the hand, and who deals the next one; an aborted hand
    (``aborted``, the ``abort`` that ended it) makes none and checks nothing."""
    exhausted = drawn and not aborted
    ready = tuple(is_ready(state, seat) for seat in range(state.seats)) if exhausted else (False,) * state.seats
    closing: list[Payment] = [] if aborted else _refunds(state, exhausted, ready)
    runs = {"at_draw": exhausted, "at_end": not aborted, "at_win": bool(state.wins) and not aborted}
    checks = [check for check in state.rules.draw_checks if runs[check.keyword]]
    if checks:
        closing += _checks(state, checks, _readiness(state, checks, ready if exhausted else None), drawn)
    return HandOutcome(drawn and not state.wins, tuple(closing), next_seating(state, ready, bool(aborted)), ready,
                       aborted)


def _readiness(state: TableState, checks: list[DrawCheck], ready: tuple[bool, ...] | None) -> tuple[bool, ...]:
    """Each seat's readiness as the checks test it: ``ready`` where the wall ran out,
    else asked only where a check tests it; a player who has won is not ready (it has
    won)."""
    if ready is None:
        if not any(test.ready is not None for check in checks for test in (check.payer, check.payee)):
            return (False,) * state.seats
        ready = tuple(is_ready(state, seat) for seat in range(state.seats))
    return tuple(ready[seat] and not state.players[seat].wins for seat in range(state.seats))


def _checks(state: TableState, checks: list[DrawCheck], ready: tuple[bool, ...], drawn: bool) -> list[Payment]:
    """The payments of the draw checks and end payments ``checks``, in order."""
    lines = []
    held: dict[int, tuple[int, ...]] = {}  # each seat's held amounts, worked out once
    for check in checks:
        payers = [seat for seat in range(state.seats) if _passes(state, seat, check.payer, ready)]
        payees = [seat for seat in range(state.seats) if _passes(state, seat, check.payee, ready)]
        pairs = [(payer, payee) for payer in payers for payee in payees if payer != payee]
        for payer, payee in pairs:
            if check.holder:  # a number worked out on the payer's or the payee's tiles
                holder = payer if check.holder == "payer" else payee
                if holder not in held:
                    held[holder] = state.ruleset.held_amounts(_held_hand(state, holder, drawn))
                amount = held[holder][check.holding]
            elif check.shared:  # N from the payers together to the payees together
                amount = check.amount // len(pairs)
            else:
                amount = check.amount if check.amount >= 0 else best_value(state, payee, payer)
            if check.dealer_double and state.seating.dealer in (payer, payee):
                amount *= 2
            if amount > 0:
                lines.append(Payment(payer, payee, amount * state.stake, check.id, check.name))
    return lines


def _held_hand(state: TableState, seat: int, drawn: bool) -> Hand:
    """``seat``'s tiles at the close, in the context of the close (the facts of play
    as they stand, the same for every player): the hand it won with where it left
    the table on its win or won the hand's last win, else the tiles it holds."""
    holding = seat_hand(state, seat, None, "self_draw")
    final = () if drawn or not state.wins else state.wins[-state.wins[-1].winners:]
    won = next((win for win in reversed(state.wins) if win.seat == seat), None)
    if won is None or won.result.hand is None or not (state.players[seat].out or won in final):
        return holding
    hand = won.result.hand
    return replace(hand, context=replace(hand.context, facts=holding.context.facts))


def is_ready(state: TableState, seat: int) -> bool:
    """Whether ``seat``'s hand is ready (a player who has won is not asked)."""
    return state.players[seat].held % 3 == 1 and _ready(state, seat)


def _ready(state: TableState, seat: int, counts: list[int] | None = None) -> bool:
    """Whether ``seat``'s 13 tiles (its concealed ``counts`` where given) are ready: a
    tile completes them to a win, or to one short of the ruleset's minimum alone
    (:meth:`mjr.Ruleset.ready_tiles`), self-drawn where the ruleset allows it.  No
    hand is built where no tile completes their shape."""
    player = state.players[seat]
    held = bytearray(player.counts if counts is None else counts)
    if not state.ruleset.shape_may_wait(held, player.jokers, len(player.melds), state.indicator):
        return False
    if "self_draw" in state.ruleset.win_methods:
        hand = seat_hand(state, seat, None, "self_draw", counts=counts)
    else:
        hand = seat_hand(state, seat, None, "discard", (seat + 1) % state.seats, counts=counts)
    return bool(state.ruleset.ready_tiles(hand))


def completes(state: TableState, seat: int, tile: int, source: int) -> bool:
    """Whether ``tile``, discarded by ``source``, completes ``seat``'s hand in shape,
    whether it would score or not (a fifth copy never does)."""
    if not may_win(state, seat, tile, "discard"):
        return False
    try:
        return state.ruleset.is_win(seat_hand(state, seat, tile, "discard", source))
    except HandError:
        return False


def declaring_discards(state: TableState, seat: int, discards: list[int]) -> list[int]:
    """Of the tiles ``seat`` may discard now, those that may make the ruleset's
    declaration (``declare``): each that leaves the hand ready, where the player has
    made none, holds no claimed meld (``closed``) and enough tiles are left to draw."""
    if not state.rules.declarations:
        return []
    declaration, player = state.rules.declarations[0], state.players[seat]
    if player.declared is not None or (state.offer is not None and state.offer.declaring):
        return []
    if declaration.closed and any(not meld.concealed for meld in player.melds):
        return []
    if state.wall.live < declaration.wall:
        return []
    ready = []
    for tile in sorted(set(discards)):
        if tile >= len(player.counts):
            continue  # a joker: a declaration lets a tile of a kind go
        counts = list(player.counts)
        counts[tile] -= 1
        if _ready(state, seat, counts):
            ready.append(tile)
    return ready


def abort_called(state: TableState, seat: int) -> str:
    """The ``abort ... nine_kinds N`` that ``seat`` may call now (its id), or "":
    on its first turn, before any claim or kong, holding N or more different
    terminal and honour kinds."""
    player = state.players[seat]
    if state.claimed or player.acted or state.turn_tile.drawn is None:
        return ""
    kinds = sum(1 for kind in TERMINALS_AND_HONORS if player.counts[kind])
    return next((rule.id for rule in state.rules.aborts if rule.word == "nine_kinds" and kinds >= rule.number), "")


def abort_after_discard(state: TableState) -> str:
    """The ``abort`` that a discard just passed (nobody winning on it) brings, or "":
    every player's first discard the same wind before any claim, every player's
    declaration standing, or the kongs its ``kongs N`` counts made by more than one
    player."""
    players = state.players
    for rule in state.rules.aborts:
        if rule.word == "same_first_discards":
            firsts = {tuple(player.discards) for player in players}
            if not state.claimed and len(firsts) == 1 and len(next(iter(firsts))) == 1 and \
                    FIRST_HONOR <= next(iter(firsts))[0] < FIRST_HONOR + 4:  # a wind
                return rule.id
        elif rule.word == "all_declared" and all(player.declared is not None for player in players):
            return rule.id
        elif rule.word == "kongs" and state.kongs >= rule.number and \
                sum(1 for player in players if any(meld.kind == "kong" for meld in player.melds)) > 1:
            return rule.id
    return ""


def discards_bar(state: TableState, seat: int) -> bool:
    """``missed_win ... own_discards`` (振聴): whether a kind ``seat``'s player has
    discarded this hand completes its hand in shape (scoring or not), which bars a
    win on a discard or a robbed kong."""
    player = state.players[seat]
    if not state.rules.own_discards or not player.discarded:
        return False
    offer = state.offer
    source = offer.seat if offer is not None else (seat + 1) % state.seats
    return any(completes(state, seat, kind, source) for kind in sorted(player.discarded))


def best_value(state: TableState, seat: int, payer: int) -> int:
    """The most points ``seat``'s waits would score on a discard by ``payer`` (查大叫)."""
    best = 0
    for wait in state.ruleset.waits(seat_hand(state, seat, None, "discard", payer)):
        kind = parse_tile(wait.tile)
        result = state.ruleset.evaluate(seat_hand(state, seat, kind, "discard", payer))
        if result.is_win:
            best = max(best, result.points)
    return best


def _refunds(state: TableState, exhausted: bool, ready: tuple[bool, ...]) -> list[Payment]:
    """The kong payments given back at the close of a hand that ran its course
    (``exhausted``: the wall ran out, with ``ready`` each seat's readiness), each at
    most once: at a hand nobody won (``refund_at_draw``), or where their maker has not
    won and is not ready, at a wall run out (``refund_unless_ready``) or however the
    hand ends (``refund_unless_ready_at_end``)."""
    nobody_won = exhausted and not state.wins
    refundable = {clause.id: clause for clause in state.rules.kong_payments if
                  (clause.refund_at_draw and nobody_won) or clause.refund_unless_ready_at_end or
                  (clause.refund_unless_ready and exhausted)}
    asked: dict[int, bool] = {}  # each maker's readiness, asked once where the wall did not run out
    lines = []
    for line in state.payments:
        clause = refundable.get(line.clause)
        if clause is None:
            continue
        maker = line.payee
        if not (clause.refund_at_draw and nobody_won):
            if state.players[maker].wins:
                continue
            if maker not in asked:
                asked[maker] = ready[maker] if exhausted else is_ready(state, maker)
            if asked[maker]:
                continue
        lines.append(Payment(maker, line.payer, line.amount, line.clause, f"{line.name} refunded"))
    return lines


def _passes(state: TableState, seat: int, test: PlayerTest, ready: tuple[bool, ...]) -> bool:
    player = state.players[seat]
    if test.won is not None and bool(player.wins) != test.won:
        return False
    if test.ready is not None and ready[seat] != test.ready:
        return False
    if test.suits is not None:
        op, value = test.suits
        if not _COMPARE[op](_suits_held(state, seat), value):
            return False
    if test.discards_terminal is not None and _discards_terminal(state, seat) != test.discards_terminal:
        return False
    return all(_history(state, seat, word, kind) == wanted for word, kind, wanted in test.history)


def _history(state: TableState, seat: int, word: str, kind: int) -> bool:
    """A test of the hand's history for ``seat``: it discarded the hand's first tile of
    ``kind`` (``first_discard``), claimed it (``claimed_first``), or discarded it and
    another player claimed it (``fed_first``)."""
    first = state.first_discards.get(kind)
    if first is None:
        return False
    discarder, claimer, _ = first
    if word == "claimed_first":
        return claimer == seat
    return discarder == seat and (word == "first_discard" or claimer >= 0)


def _discards_terminal(state: TableState, seat: int) -> bool:
    """Whether ``seat`` discarded this hand, every tile a terminal or an honour, and
    none of them claimed (流し満貫)."""
    player = state.players[seat]
    claimed = any(feeder == seat for _, feeder, _ in state.feeds)
    return bool(player.discards) and not claimed and all(tile in TERMINALS_AND_HONORS for tile in player.discards)


def _suits_held(state: TableState, seat: int) -> int:
    player = state.players[seat]
    suits = {kind // 9 for kind, count in enumerate(player.counts) if count and kind < FIRST_HONOR}
    suits |= {meld.tile // 9 for meld in player.melds if meld.tile < FIRST_HONOR}
    return len(suits)


def next_seating(state: TableState, ready: tuple[bool, ...], aborted: bool = False) -> Seating:
    """The seating of the next hand, by the first ``next_dealer`` rule that holds;
    ``ready`` says whose hands were ready when the hand was drawn, ``aborted``
    whether an ``abort`` ended it."""
    seating, wins = state.seating, state.wins
    first = wins[0] if wins else None
    several = first is not None and first.winners > 1
    words = {
        "drawn": not wins,
        "dealer_won": any(w.seat == seating.dealer for w in wins),
        "dealer_ready": not wins and ready[seating.dealer],
        "several_winners": several,
        "self_draw": first is not None and first.method == "self_draw",
        "discard": first is not None and first.method != "self_draw",
        "konged": any(meld.kind == "kong" for player in state.players for meld in player.melds),
        "aborted": aborted,
    }
    dealer = seating.dealer
    for rule in state.rules.next_dealer:
        words["streak"] = rule.streak > 0 and seating.streak >= rule.streak
        if not rule.conditions or any(words[word] for word in rule.conditions):
            dealer = _target(rule.target, state, first)
            break
    streak = seating.streak + 1 if dealer == seating.dealer else 0
    round_ = (seating.round + 1) % 4 if dealer == 0 and seating.dealer != 0 else seating.round
    repeats = seating.repeats + 1 if words["drawn"] or words["dealer_won"] else 0
    return Seating(dealer, round_, streak, first.seat if first is not None else seating.previous_winner,
                   repeats, state.deposits)


def _target(target: str, state: TableState, first: WinRecord | None) -> int:
    dealer = state.seating.dealer
    if target == "next":
        return (dealer + 1) % state.seats
    if target == "previous":
        return (dealer - 1) % state.seats
    if target == "random":
        return random.Random(f"{state.seed}:dealer").randrange(state.seats)
    if target == "last_drawer":
        return dealer if state.last_drawer is None else state.last_drawer
    if first is None:
        return dealer
    if target == "winner":
        return first.seat
    if target == "discarder":
        return first.source if first.source is not None else first.seat
    return dealer


__all__ = ["HandOutcome", "Payment", "WinRecord", "best_value", "close_hand", "is_ready", "kong_payment",
           "next_seating"]
