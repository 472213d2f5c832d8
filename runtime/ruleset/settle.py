"""Settlement of a single win: who pays whom, and which clause says so.

Seats are winds.  Play runs E -> S -> W -> N, so for the winner the right-hand
player (下家) is the next wind, the opposite player two on, and the left-hand player
(上家) three on.  A ``pay`` clause names the payers of an ordinary win, and each
pays the amount the evaluation worked out for their seat (amounts may differ by
payer); a ``liable`` clause moves the sum of those amounts onto one player.  A
``table pays`` clause adds a line from the deposits on the table (``table``).
"""

from __future__ import annotations

from ..abi import PLACE_SOURCES, SOURCE_STEPS, TABLE
from ..errors import MjrError
from ..tiles.kinds import WIND_LETTERS
from .result import PaymentLine, Result, Settlement, Stakes


def seat_of(winner: int, source: str) -> str:
    """The wind of the player at relative position ``source`` (L, O, R) from ``winner``."""
    return WIND_LETTERS[(winner + SOURCE_STEPS[source]) % 4]


def settle(result: Result, clauses: tuple[tuple[str, str, bool, str, int], ...], table: Stakes) -> Settlement:
    if not result.is_win or result.hand is None:
        raise MjrError(f"only a win can be settled ({result.reason or 'no hand'})")
    if result.payment is None:
        raise MjrError("no payment clause of the ruleset applies to this win")
    if not result.amounts:
        raise MjrError("settling this win needs to know who discarded (or whose kong was robbed), on which "
                       "the amounts depend: add 'from L', 'from O' or 'from R' to the hand")
    by_id = {clause[0]: clause for clause in clauses}
    winner = WIND_LETTERS[result.hand.context.seat]
    pay_id, pay_name, _, payer_kind, payer_index = by_id[result.payment]
    amounts = {seat: amount * table.stake for seat, amount in result.amounts}
    payers = _payers(result, payer_kind, payer_index, table)
    taken = tuple(PaymentLine(TABLE, winner, amount * table.stake, clause, by_id[clause][1])
                  for clause, amount in result.from_table)
    if result.liable is None:
        lines = tuple(PaymentLine(seat, winner, amounts[seat], pay_id, pay_name) for seat in payers)
        return Settlement(lines + taken)
    liable_id, liable_name, _, liable_kind, liable_index = by_id[result.liable]
    (liable_seat,) = _payers(result, liable_kind, liable_index, table)
    total = sum(amounts[seat] for seat in payers)
    return Settlement((PaymentLine(liable_seat, winner, total, liable_id, liable_name), *taken))


def _payers(result: Result, kind: str, index: int, table: Stakes) -> list[str]:
    hand = result.hand
    assert hand is not None
    winner = hand.context.seat
    if kind == "each":
        seats = [WIND_LETTERS[(winner + step) % 4] for step in (1, 2, 3)]
        return [seat for seat in seats if seat not in table.won]
    if kind == "discarder":
        if hand.context.source is None:
            raise MjrError("settling this win needs to know who discarded (or whose kong was robbed): "
                           "add 'from L', 'from O' or 'from R' to the hand")
        return [seat_of(winner, hand.context.source)]
    if kind in PLACE_SOURCES:
        return [seat_of(winner, PLACE_SOURCES[kind])]
    if kind == "last_meld":
        if not hand.melds or hand.melds[-1].source is None:
            raise MjrError("settling this win needs the source of the last meld, e.g. [5555p<L]")
        return [seat_of(winner, hand.melds[-1].source)]
    claimed = [meld for meld in hand.melds if meld.source is not None]
    if len(claimed) < index:
        raise MjrError(f"settling this win needs claimed meld {index} with its source, e.g. [555p<O]")
    source = claimed[index - 1].source
    assert source is not None
    return [seat_of(winner, source)]
