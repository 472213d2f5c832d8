"""Settlement of a single win: who pays whom, and which clause says so.

Seats are named in play order (:data:`mjr.abi.SEAT_NAMES`): a table of ``seats``
players sits the first of E S W N 5 6 7 8, and play runs in that order.  For the
winner the right-hand player (下家) is the next seat, the left-hand player (上家)
the one before, the opposite player half way round (at a table of an even
number), and the others, at a table of five or more, are so many steps on (see
:func:`mjr.abi.seat_steps`).  A ``pay``
clause names the payers of an ordinary win, and each pays the amount the
evaluation worked out for their seat (amounts may differ by payer); a ``liable``
clause moves the sum of those amounts onto one player.  A ``table pays`` clause
adds a line from the deposits on the table (``table``).
"""

from __future__ import annotations

from ..abi import PLACE_SOURCES, SEAT_NAMES, TABLE, seat_steps
from ..errors import MjrError
from .checks import from_words
from .result import PaymentLine, Result, Settlement, Stakes


def seat_of(winner: int, source: str, seats: int) -> str:
    """The seat of the player at relative position ``source`` (L, O, R, or steps on)
    from ``winner`` at a table of ``seats`` (a hand the ruleset accepts has only
    sources it seats)."""
    return SEAT_NAMES[(winner + seat_steps(seats)[source]) % seats]


def amounts_by_seat(winner: int, amounts: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
    """What each other seat pays under the payment clause, in play order from the
    winner's right: the kernel's amounts for the players 1, 2, ... steps on, one for
    each other seat at the table."""
    seats = len(amounts) + 1
    return tuple((SEAT_NAMES[(winner + step) % seats], int(amount)) for step, amount in enumerate(amounts, 1))


def settle(result: Result, clauses: tuple[tuple[str, str, bool, str, int], ...], table: Stakes,
           seats: int) -> Settlement:
    if not result.is_win or result.hand is None:
        raise MjrError(f"only a win can be settled ({result.reason or 'no hand'})")
    if result.payment is None:
        raise MjrError("no payment clause of the ruleset applies to this win")
    if not result.amounts:
        raise MjrError("settling this win needs to know who discarded (or whose kong was robbed), on which "
                       f"the amounts depend: add {from_words(seats)} to the hand")
    seated = tuple(SEAT_NAMES[:seats])
    strangers = sorted(repr(seat) for seat in table.won if seat not in seated)
    if strangers:
        raise MjrError(f"Stakes.won names {strangers[0]}, which is no seat of a table of {seats} "
                       f"({' '.join(seated)})")
    by_id = {clause[0]: clause for clause in clauses}
    winner = SEAT_NAMES[result.hand.context.seat]
    pay_id, pay_name, _, payer_kind, payer_index = by_id[result.payment]
    amounts = {seat: amount * table.stake for seat, amount in result.amounts}
    payers = _payers(result, payer_kind, payer_index, table, seats)
    taken = tuple(PaymentLine(TABLE, winner, amount * table.stake, clause, by_id[clause][1])
                  for clause, amount in result.from_table)
    if result.liable is None:
        lines = tuple(PaymentLine(seat, winner, amounts[seat], pay_id, pay_name) for seat in payers)
        return Settlement(lines + taken, seats)
    liable_id, liable_name, _, liable_kind, liable_index = by_id[result.liable]
    (liable_seat,) = _payers(result, liable_kind, liable_index, table, seats)
    total = sum(amounts[seat] for seat in payers)
    return Settlement((PaymentLine(liable_seat, winner, total, liable_id, liable_name), *taken), seats)


def _payers(result: Result, kind: str, index: int, table: Stakes, seats: int) -> list[str]:
    hand = result.hand
    assert hand is not None
    winner = hand.context.seat
    if kind == "each":
        others = [SEAT_NAMES[(winner + step) % seats] for step in range(1, seats)]
        return [seat for seat in others if seat not in table.won]
    if kind == "discarder":
        if hand.context.source is None:
            raise MjrError("settling this win needs to know who discarded (or whose kong was robbed): "
                           f"add {from_words(seats)} to the hand")
        return [seat_of(winner, hand.context.source, seats)]
    if kind in PLACE_SOURCES:
        return [seat_of(winner, PLACE_SOURCES[kind], seats)]
    if kind == "last_meld":
        if not hand.melds or hand.melds[-1].source is None:
            raise MjrError("settling this win needs the source of the last meld, e.g. [5555p<L]")
        return [seat_of(winner, hand.melds[-1].source, seats)]
    claimed = [meld for meld in hand.melds if meld.source is not None]
    if len(claimed) < index:
        raise MjrError(f"settling this win needs claimed meld {index} with its source, e.g. [555p<O]")
    source = claimed[index - 1].source
    assert source is not None
    return [seat_of(winner, source, seats)]
