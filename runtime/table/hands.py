"""A seat's hand at a table of play as its ruleset scores it: the context of a win
(the winds, the dealer, the state of play, and the facts of play the ruleset has the
table fill) and the hand itself, from a :class:`~mjr.table.state.TableState`."""

from __future__ import annotations

from ..abi import JOKER
from ..hand.model import Context, FactValue, Hand
from ..ruleset.result import Result
from ..tiles.kinds import N_KINDS
from .seats import relative_source, tiles_of
from .state import Phase, TableState
from .wall import WALL_JOKER, kind_of


def win_context(state: TableState, seat: int, method: str, source: int | None = None, winners: int = 1,
                tile: int | None = None) -> Context:
    """The context of a win by ``seat`` by ``method`` on ``tile``, fed by ``source``:
    its winds, the dealer, and the state of play."""
    player = state.players[seat]
    turn = state.turn_tile
    kong_win = method == "self_draw" and turn.after_kong
    facts = table_facts(state, seat, tile)
    opening = state.rules.open_kong
    if opening is not None and ((kong_win and turn.opened) or (method == "discard" and turn.discard_opened)):
        facts += ((opening.fact, True),)
    if player.declared is not None:
        facts += ((player.declared_fact, True),)
        if player.next_turn:
            facts += ((player.declared.next_turn, True),)
    seating = state.seating
    return Context(
        win_by=method,
        after_kong=kong_win or (method == "discard" and turn.discard_after_kong),
        last_tile=turn.last_draw and method != "robbing_kong",
        first_turn=not state.claimed and not player.acted and not player.melds,
        dealer=seat == seating.dealer,
        dealer_seat=None if seat == seating.dealer else 0,  # the dealer sits East
        seat=(seat - seating.dealer) % state.seats,
        round=seating.round,
        source=None if source is None else relative_source(seat, source, state.seats),
        indicator=state.indicator,
        winners=winners,
        void=player.void,
        facts=facts,
    )


def seat_hand(state: TableState, seat: int, tile: int | None, method: str, source: int | None = None,
              winners: int = 1, counts: list[int] | None = None) -> Hand:
    """``seat``'s hand, winning on ``tile`` (``None``: the waiting hand); its
    concealed tiles ``counts`` where given, else the player's."""
    player = state.players[seat]
    counts = list(player.counts if counts is None else counts)
    red = [kind for index, kind in enumerate(player.red) if player.red[:index].count(kind) < counts[kind]]
    offer = state.offer
    if method != "self_draw" and tile is not None and offer is not None and offer.red and offer.tile == tile:
        red.append(tile)  # a win on a red five on offer
    jokers, win = player.jokers, tile
    if tile == WALL_JOKER:
        jokers, win = jokers - (method == "self_draw"), JOKER
    elif tile is not None and method == "self_draw":
        counts[tile] -= 1
    return Hand(tiles_of(counts), tuple(player.melds), win, win_context(state, seat, method, source, winners, tile),
                tuple(player.flowers), tuple(sorted(red + player.melded_red)), jokers=jokers,
                aside=tuple(player.aside))


def may_win(state: TableState, seat: int, tile: int, method: str) -> bool:
    """Whether ``seat`` may win on ``tile`` by ``method``: false where its tiles form
    no complete hand by the ruleset's shapes, told from the player's counts by the
    table kernel (:meth:`mjr.Ruleset.shape_completes`) with no hand built and
    nothing scored, and exactly where :func:`score` finds no win on the shape."""
    player = state.players[seat]
    counts, jokers = bytearray(player.counts), player.jokers
    if method != "self_draw":  # a drawn tile is among the player's own already
        if tile == WALL_JOKER:
            jokers += 1
        else:
            counts[tile] += 1
    return state.ruleset.shape_completes(counts, jokers, len(player.melds), state.indicator) is not False


def score(state: TableState, seat: int, tile: int, method: str, winners: int = 1) -> Result:
    """What a win by ``seat`` on ``tile`` scores; a win on the tile on offer is fed by its seat."""
    source = None if method == "self_draw" else state.offer.seat if state.offer else None
    return state.ruleset.evaluate(seat_hand(state, seat, tile, method, source, winners))


# -- facts of play -------------------------------------------------------------------


def table_facts(state: TableState, seat: int, tile: int | None) -> tuple[tuple[str, FactValue], ...]:
    """The facts of play the ruleset has the table fill, for a win by ``seat`` on ``tile``."""
    facts: list[tuple[str, FactValue]] = []
    declared = state.ruleset.facts.by_id
    for ident, source, count in state.rules.fact_sources:
        fact = declared.get(ident)
        if fact is None:
            continue
        if source == "wall_after_win":
            tiles = _tiles_after_win(state, count)
            if tiles:
                facts.append((ident, tiles))
        elif source == "dealer_streak":
            facts.append((ident, min(state.seating.streak, fact.high)))
        elif source == "previous_winner":
            previous = state.seating.previous_winner
            facts.append((ident, ((state.seating.dealer if previous is None else previous) - seat) % state.seats))
        elif source in ("last_copy", "unseen") and tile is not None and tile < N_KINDS and \
                _in_sight(state, tile) == (3 if source == "last_copy" else 0):
            facts.append((ident, True))
        elif source == "fed_before" and _fed_before(state, seat, count):
            facts.append((ident, True))
        elif source == "revealed":
            facts.append((ident, tuple(sorted(state.revealed))))
        elif source == "under_revealed" and state.players[seat].declared is not None:
            facts.append((ident, tuple(sorted(state.under[:len(state.revealed)]))))
        elif source == "deposits" and state.deposit_taker in (None, seat):
            facts.append((ident, min(_stakes_on_table(state), fact.high)))
        elif source == "repeats":
            facts.append((ident, min(state.seating.repeats, fact.high)))
    return tuple(facts)


def _stakes_on_table(state: TableState) -> int:
    """How many declarations' stakes the deposits on the table make (``deposits``)."""
    stake = next((d.stake for d in state.rules.declarations if d.stake), 0) * state.stake
    return state.deposits // stake if stake else 0


def _fed_before(state: TableState, seat: int, nth: int) -> bool:
    """包先不包后: whether the player who fed ``seat``'s ``nth`` claimed meld had fed
    another player's ``nth`` claimed meld earlier in the hand."""
    for index, (claimer, feeder, ordinal) in enumerate(state.feeds):
        if claimer == seat and ordinal == nth:
            return any(other != seat and earlier == feeder and number == nth
                       for other, earlier, number in state.feeds[:index])
    return False


def _tiles_after_win(state: TableState, count: int) -> tuple[int, ...]:
    """The next ``count`` tiles of the wall (flowers, jokers and the kinds set aside,
    which a fact's tiles cannot be, passed over; the unplayed tail included); fewer,
    or none, as the wall runs out.  (A region whose rules use the winning tile when
    none is left says so in its file, with ``winning_tile``.)"""
    wall, in_play = state.wall, state.ruleset.kinds
    kinds = map(kind_of, wall.tiles[wall.head:wall.tail])
    return tuple(sorted([kind for kind in kinds if kind in in_play][:count]))


def _in_sight(state: TableState, tile: int) -> int:
    """Copies of ``tile`` in sight: discards and open melds, the tile on offer left out."""
    seen = 0
    for player in state.players:
        seen += player.discards.count(tile)
        seen += sum(meld.tiles.count(tile) - meld.jokers.count(tile) for meld in player.melds if not meld.concealed)
    if state.offer is not None and state.phase is Phase.CLAIM and state.offer.tile == tile:
        seen -= 1
    return seen


__all__ = ["may_win", "score", "seat_hand", "table_facts", "win_context"]
