"""The referee of one hand of play: the wall, the deal, every player's legal actions,
claims and their priority, kongs, wins, and the settlement of the whole hand.

A :class:`Table` is driven by :class:`~mjr.table.actions.Action` events: :meth:`Table.legal`
names what each player may do now, and :meth:`Table.act` does one of them or refuses
it with a reason, leaving the table as it was.  Everything a region decides comes
from its ruleset: the tile set, the deal, the claims and win methods, the scoring of
every win (:meth:`mjr.Ruleset.evaluate`), its payments (:meth:`mjr.Ruleset.settle`),
and the rules of play (:attr:`mjr.Ruleset.play`).

Seats 0 to ``seats - 1`` sit in play order; the dealer's seat is named East and the
others follow (S W N, then 5 6 7 8 past the winds: mjr.abi.SEAT_NAMES).

The referee changes the hand's state (:mod:`mjr.table.state`) by the phase it is
in; the modules below it work out what that state comes to under the ruleset (the
deal, :mod:`mjr.table.deal`; a seat's hand, :mod:`mjr.table.hands`; wildcards,
:mod:`mjr.table.wild`; the close of the hand, :mod:`mjr.table.close`) and write its log
lines (:mod:`mjr.table.record`), and none of them knows the referee.

A table may be shared by threads (a server's thread per player): one lock,
:attr:`Table.lock`, is held over every public method, so each action, with its log
lines, is done whole before the next begins.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import IO, ClassVar, Concatenate, Generic, ParamSpec, TypeVar, cast, overload

from ..abi import SEAT_NAMES, SEATS, TABLE
from ..errors import IllegalAction, LogWriteError, MjrError, TableError, clip_repr
from ..hand.model import Context, Hand, Meld
from ..ruleset.loaded import Ruleset
from ..ruleset.result import Stakes
from ..ruleset.rules_of_play import PlayRules
from ..tiles.kinds import FIRST_HONOR, N_KINDS
from .actions import Action, offered
from .close import (
    abort_after_discard,
    abort_called,
    close_hand,
    completes,
    declaring_discards,
    discards_bar,
    is_ready,
    kong_payment,
)
from .deal import deal, take
from .hands import may_win, score, seat_hand, win_context
from .record import hand_end, hand_header, write_lines
from .seats import Player, Seating, relative_source, seat_number, tiles_of, whole_number
from .state import ON_TABLE, HandOutcome, Offer, Payment, Phase, TableState, TurnTile, WinRecord
from .wall import LAST_WALL_TILE, WALL_JOKER, Wall, is_red, kind_of, wall_tile_name
from .wild import chow_starts, claim_jokers, forbidden_why, held_tiles, may_meld

#: The largest stake a table takes.  A payment is a hand's points times the stake: under
#: this stake, every hand of fewer than 2**32 points pays within 64-bit integers.
MAX_STAKE = 2**31 - 1
#: A seed shuffles the wall (random.Random): any int that fits in 64 bits, either sign.
SEED_BITS = 64
#: The highest number of a hand in a session (its ``session_hand``, from 0).
MAX_SESSION_HAND = 2**63 - 1

_P = ParamSpec("_P")
_R = TypeVar("_R")
_T = TypeVar("_T")


def _locked(method: Callable[Concatenate[Table, _P], _R]) -> Callable[Concatenate[Table, _P], _R]:
    """``method`` run holding the table's lock (see :attr:`Table.lock`)."""

    @functools.wraps(method)
    def locked(self: Table, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self.lock:
            return method(self, *args, **kwargs)

    return locked


class _OfState(Generic[_T]):
    """An attribute of the table that is its hand's state's: ``table.players`` is
    ``table.state.players``, read and set alike."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, table: None, owner: type) -> _OfState[_T]: ...

    @overload
    def __get__(self, table: Table, owner: type) -> _T: ...

    def __get__(self, table: Table | None, owner: type) -> _OfState[_T] | _T:
        if table is None:
            return self
        return cast("_T", getattr(table.state, self.name))

    def __set__(self, table: Table, value: _T) -> None:
        setattr(table.state, self.name, value)


def unplayable(ruleset: Ruleset) -> str | None:
    """Why a table cannot play ``ruleset``, or ``None``: a win needs a ``pay`` clause
    to be settled by."""
    if not any(not liable and payer != TABLE for _, _, liable, payer, _ in ruleset.generated.payments):
        return (f"{ruleset.id}{_options_text(ruleset)} has no 'pay' clause, and a table of play settles every "
                "win by one: score its hands with Ruleset.evaluate")
    return None


def _options_text(ruleset: Ruleset) -> str:
    chosen = ruleset.chosen_text()
    return f" ({chosen})" if chosen else ""


class Table:
    """One hand of play under ``ruleset``.

    ``seed`` (an int) shuffles the wall; ``wall`` gives it tile by tile instead (kinds
    0-33, flowers 34-41, a dedicated joker 42: :data:`mjr.table.wall.WALL_JOKER`, red fives
    43-45: :data:`mjr.table.wall.RED_BASE`).  ``stake``
    (an int 1 to :data:`MAX_STAKE`) multiplies every payment.  A stake, seed or seating
    that cannot be played is refused with :class:`~mjr.errors.TableError`.  With ``log``
    the hand is written to it as it is played (:mod:`mjr.table.record`); ``session_hand``,
    the hand's number in a session, goes in its ``hand`` line.  The hand is dealt at
    once; the dealer acts first, by drawing.

    The table is the referee of the hand; what it has dealt and what has happened is
    its :attr:`state` (a :class:`~mjr.table.state.TableState`), whose attributes it
    shows as its own (``table.players``, ``table.phase``, ``table.wall``, ...).
    """

    def __init__(self, ruleset: Ruleset, *, seed: int = 0, wall: list[int] | None = None,
                 seating: Seating | None = None, stake: int = 1, log: IO[str] | None = None,
                 session_hand: int | None = None):
        checked_ruleset(ruleset)
        log = checked_log(log)
        if session_hand is not None:
            session_hand = whole_number(session_hand, "session_hand", 0, MAX_SESSION_HAND)
        #: held over every public method: hold it too to read several attributes as of one moment
        self.lock = threading.RLock()
        seating = checked_seating(seating, ruleset.seats)
        stake = checked_stake(stake)
        seed = checked_seed(seed)
        dead = ruleset.play.dead_wall
        kinds = ruleset.kinds | ruleset.aside_kinds
        if wall is None:
            dealt = Wall.shuffled(kinds, ruleset.has_flowers, seed, dead, ruleset.jokers, ruleset.red_kinds)
        else:
            dealt = Wall.given(checked_wall(wall), kinds, ruleset.has_flowers, dead, ruleset.jokers,
                               ruleset.red_kinds)
        #: the hand in play: the wall, the players, the turn, the offer, what has been paid and won
        self.state = TableState(ruleset, dealt, seating, stake, seed)
        self._legal: dict[int, list[Action]] | None = None  # legal() once worked out, until the next action
        self.log = log
        self._logged = 0  # events written to the log so far
        deal(self.state)
        if log is not None:
            self._write([hand_header(self.state, session_hand)])

    # -- the state, shown as the table's own ---------------------------------------------

    ruleset: _OfState[Ruleset] = _OfState()
    rules: _OfState[PlayRules] = _OfState()
    seating: _OfState[Seating] = _OfState()
    seats: _OfState[int] = _OfState()
    stake: _OfState[int] = _OfState()
    seed: _OfState[int] = _OfState()
    wall: _OfState[Wall] = _OfState()
    aside_kinds: _OfState[frozenset[int]] = _OfState()
    players: _OfState[list[Player]] = _OfState()
    indicator: _OfState[int | None] = _OfState()
    set_aside: _OfState[list[int]] = _OfState()
    wild: _OfState[frozenset[int]] = _OfState()
    forbidden: _OfState[tuple[str, ...]] = _OfState()
    payments: _OfState[list[Payment]] = _OfState()
    wins: _OfState[list[WinRecord]] = _OfState()
    events: _OfState[list[dict[str, object]]] = _OfState()
    outcome: _OfState[HandOutcome | None] = _OfState()
    turn: _OfState[int] = _OfState()
    phase: _OfState[Phase] = _OfState()
    first_offered: _OfState[int | None] = _OfState()
    last_drawer: _OfState[int | None] = _OfState()
    claimed: _OfState[bool] = _OfState()
    feeds: _OfState[list[tuple[int, int, int]]] = _OfState()
    revealed: _OfState[tuple[int, ...]] = _OfState()
    deposits: _OfState[int] = _OfState()

    @property
    def drawn(self) -> int | None:
        """The tile just drawn, which a self-draw wins on (see :class:`~mjr.table.state.TurnTile`)."""
        return self.state.turn_tile.drawn

    @property
    def after_kong(self) -> bool:
        return self.state.turn_tile.after_kong

    @property
    def opened(self) -> bool:
        return self.state.turn_tile.opened

    @property
    def last_draw(self) -> bool:
        return self.state.turn_tile.last_draw

    @property
    def discard_after_kong(self) -> bool:
        return self.state.turn_tile.discard_after_kong

    @property
    def discard_opened(self) -> bool:
        return self.state.turn_tile.discard_opened

    @property
    def offer(self) -> tuple[int, int] | None:
        """(seat, tile) of the discard or robbed kong on offer."""
        offer = self.state.offer
        return None if offer is None else (offer.seat, offer.tile)

    @property
    def options(self) -> dict[int, list[Action]]:
        """Who may answer the tile on offer, and how."""
        return {} if self.state.offer is None else self.state.offer.options

    @property
    def answers(self) -> dict[int, Action]:
        """The answers to the tile on offer so far."""
        return {} if self.state.offer is None else self.state.offer.answers

    # -- what may be done ----------------------------------------------------------

    @_locked
    def legal(self) -> dict[int, list[Action]]:
        """Every player who must act now, with the actions open to them: a new dict
        of new lists, the caller's to change (a bot that filters its list in place
        changes nothing the table goes by)."""
        return {seat: list(actions) for seat, actions in self._current_legal().items()}

    def _current_legal(self) -> dict[int, list[Action]]:
        """What :meth:`legal` shows, worked out once per state: the table's own, which
        :meth:`act` checks an action against."""
        if self._legal is None:
            self._legal = self._work_out_legal()
        return self._legal

    def _work_out_legal(self) -> dict[int, list[Action]]:
        state = self.state
        phase, turn = state.phase, state.turn
        if phase is Phase.OVER:
            return {}
        if phase.offered:
            return {} if state.offer is None else state.offer.waiting
        if phase is Phase.DECLARE:
            return {seat: [offered(seat, "void", suit * 9) for suit in range(3)]
                    for seat in ((state.seating.dealer + step) % state.seats for step in range(state.seats))
                    if state.players[seat].void is None}
        if phase is Phase.DRAW:
            roams = state.rules.last_draw == "roams" and state.wall.live == 1
            return {turn: [offered(turn, "draw")] + [offered(turn, "pass")] * roams}
        if phase is Phase.REPLACE:
            opening = state.rules.open_kong
            assert opening is not None
            may_open = not opening.when_ready or is_ready(state, turn)
            return {turn: [offered(turn, "draw")] + [offered(turn, "open")] * may_open}
        return {turn: self._turn_actions()}

    def _turn_actions(self) -> list[Action]:
        """The turn's player's actions, in :class:`Action` order (by kind, then tile)."""
        state = self.state
        seat, player, drawn = state.turn, state.players[state.turn], state.turn_tile.drawn
        if drawn is not None and self._must_show():
            discards = [drawn]
        else:
            discards = list(held_tiles(player.counts, player.jokers))
            if state.wild and "discard" in state.forbidden:
                discards = [tile for tile in discards if state.may_use(tile, "discard")]
        kongs: list[int] = []
        win = abort = False
        if drawn is not None:
            if state.wall.live > 0 and "kong" in state.ruleset.claims and not player.locked and state.may_kong:
                kongs = [kind for kind, count in enumerate(player.counts) if count == 4 and state.may_use(kind, "kong")]
                kongs += [meld.tile for meld in player.melds
                          if meld.kind == "pung" and player.counts[meld.tile] and state.may_use(meld.tile, "kong")]
            win = not player.dead and "self_draw" in state.ruleset.win_methods and \
                may_win(state, seat, drawn, "self_draw") and score(state, seat, drawn, "self_draw").is_win
            abort = bool(abort_called(state, seat))
        return [offered(seat, "abort")] * abort + \
            [offered(seat, "declare", tile) for tile in declaring_discards(state, seat, discards)] + \
            [offered(seat, "discard", tile) for tile in discards] + \
            [offered(seat, "kong", kind) for kind in sorted(kongs)] + [offered(seat, "win")] * win

    def _must_show(self) -> bool:
        """Whether the turn's player must discard the tile just drawn unless winning
        with it: a locked hand, or the taker of a roaming last tile."""
        state = self.state
        roaming = state.rules.last_draw == "roams" and state.turn_tile.last_draw and not state.turn_tile.after_kong
        return roaming or state.players[state.turn].locked

    def _answers_to(self, seat: int, tile: int, robbing: bool) -> list[Action]:
        """What ``seat`` may do with the tile on offer: win, and on a discard pung, kong or chow."""
        state = self.state
        player = state.players[seat]
        actions: list[Action] = []
        method = "robbing_kong" if robbing else "discard"
        banned = player.banned is not None and (not player.banned or tile in player.banned)
        if banned and robbing and not state.rules.own_discards:
            banned = False  # 漏胡 bars discard wins; furiten (own_discards) bars robbing a kong too
        if method in state.ruleset.win_methods and not banned and not player.dead and not player.barred and \
                may_win(state, seat, tile, method):
            result = score(state, seat, tile, method)
            concealed = state.offer is not None and state.offer.concealed
            if result.is_win and (not concealed or result.shape in state.rules.rob_concealed) and \
                    not discards_bar(state, seat):
                actions.append(offered(seat, "win"))
        if not robbing and state.wall.live > 0 and not player.locked and tile != WALL_JOKER:
            held = player.counts[tile] + player.jokers  # a pung takes two tiles of the hand, a kong three
            for claim in ("pung", "kong") if state.may_kong else ("pung",):
                if held >= 2 + (claim == "kong") and self._may_claim(claim, seat) and \
                        may_meld(state, seat, claim, tile):
                    actions.append(offered(seat, claim))
            if tile < FIRST_HONOR and self._may_claim("chow", seat):
                actions += [offered(seat, "chow", start) for start in chow_starts(player.counts, player.jokers, tile)
                            if may_meld(state, seat, "chow", tile, start)]
        return actions + [offered(seat, "pass")] if actions else []

    @_locked
    def may_use(self, tile: int, *uses: str) -> bool:
        """Whether ``wildcard may_not`` lets ``tile`` (a kind, or a joker) be put to these uses."""
        return self.state.may_use(tile, *uses)

    def _may_claim(self, claim: str, seat: int) -> bool:
        """Whether the ruleset lets ``seat`` make ``claim`` on the discard on offer: a
        claim limited to players by place (``chow(left)``) counts where the discarder
        sits for ``seat`` at the table, as the meld's source is written, whoever of the
        players between them has left the hand."""
        state = self.state
        places = state.claim_places.get(claim)
        if places is None:
            return False
        if not places:
            return True
        assert state.offer is not None
        return relative_source(seat, state.offer.seat, state.seats) in places

    # -- scoring a win -------------------------------------------------------------

    @_locked
    def context(self, seat: int, method: str, source: int | None = None, winners: int = 1,
                tile: int | None = None) -> Context:
        """The context of a win by ``seat`` (a seat of the table, checked as :meth:`act`
        checks one): its winds, the dealer, and the state of play."""
        seat = seat_number(seat, seats=self.state.seats)
        return win_context(self.state, seat, method, self._source(seat, source), winners, tile)

    @_locked
    def hand_of(self, seat: int, tile: int | None, method: str, source: int | None = None,
                winners: int = 1, counts: list[int] | None = None) -> Hand:
        """``seat``'s hand, winning on ``tile`` (``None``: the waiting hand); its
        concealed tiles ``counts`` where given, else the player's.  ``seat`` is checked
        as :meth:`act` checks one, ``tile`` is a kind 0-33 or the joker."""
        seat = seat_number(seat, seats=self.state.seats)
        if tile is not None and tile != WALL_JOKER:
            tile = whole_number(tile, "tile", 0, N_KINDS - 1, IllegalAction)
        return seat_hand(self.state, seat, tile, method, self._source(seat, source), winners, counts)

    def _source(self, seat: int, source: object) -> int | None:
        """``source``, the seat that discarded (or was robbed): None, or another seat
        of the table; else :class:`IllegalAction`."""
        if source is None:
            return None
        source = seat_number(source, "source", self.state.seats)
        if source == seat:
            raise IllegalAction(f"source {source} is the winner's own seat: a discard comes from another player")
        return source

    # -- acting --------------------------------------------------------------------

    @_locked
    def act(self, action: Action | str, seat: int | None = None) -> None:
        """Do ``action`` (an :class:`Action`, or its text with ``seat``), or raise
        :class:`IllegalAction` saying why, leaving the table unchanged.  Under a
        ``false_win`` rule, a ``win`` the rules refuse from a player asked to act is
        no illegal action but a false win, and paid for.

        Every argument is checked before anything changes: ``seat`` a seat of the
        table (an int, or a numpy int), ``action`` an :class:`Action` or text.  A log
        that cannot be written raises :class:`~mjr.errors.LogWriteError` once the
        action is done."""
        action = _action_of(action, seat, self.state.seats)
        seat_number(action.seat, "seat", self.state.seats)
        legal = self._current_legal()
        if action not in legal.get(action.seat, ()):
            if not self._false_win(action):
                raise IllegalAction(self._why_not(action, legal))
        else:
            self.state.events.append({"seat": action.seat, "action": str(action)})
            self._legal = None
            self._ACTS[self.state.phase](self, action)
        if self.log is not None:
            self._write_events()

    def _write_events(self) -> None:
        """Write the events since the last action, and the end of the hand once it is over."""
        state = self.state
        lines: list[dict[str, object]] = list(state.events[self._logged:])
        if state.over:
            lines.append(hand_end(state))
        self._logged = len(state.events)
        self._write(lines)

    def _write(self, lines: list[dict[str, object]]) -> None:
        """Write ``lines`` in one piece.  On a failure the table stops writing to its
        log (``log`` becomes ``None``): what it holds stays a beginning of the hand's
        log, never with a line repeated or one left out in the middle."""
        assert self.log is not None
        try:
            write_lines(self.log, lines)
        except LogWriteError as error:
            self.log = None
            raise LogWriteError(f"{error}: the log is cut short, and the table writes no more to it"
                                ) from error.__cause__

    def _why_not(self, action: Action, legal: dict[int, list[Action]]) -> str:
        if self.state.phase is Phase.OVER:
            return "the hand is over"
        why = forbidden_why(self.state, action)
        if action.seat not in legal:
            if why:
                return f"seat {action.seat} may not {action}: {why}"
            waiting = ", ".join(f"seat {seat}" for seat in sorted(legal))
            return f"seat {action.seat} may not act now: waiting for {waiting}"
        open_ = ", ".join(str(choice) for choice in legal[action.seat])
        return f"seat {action.seat} may not {action} now{f' ({why})' if why else ''}; it may: {open_}"

    @_locked
    def may_declare_win(self, seat: int) -> bool:
        """Whether ``seat`` may declare a win now, standing or not: it is asked to act
        on a tile just drawn or on offer, and a refused win would be a ``false_win``."""
        seat = seat_number(seat, seats=self.state.seats)
        state = self.state
        if state.rules.false_win is None or seat not in self._current_legal():
            return False
        return state.phase.offered or (state.phase is Phase.DISCARD and state.turn_tile.drawn is not None)

    def _false_win(self, action: Action) -> bool:
        """诈胡 (``false_win``): a win declared by a player asked to act, which the
        rules refuse, costs its declarer the penalty; play goes on.  False where the
        ruleset has no such rule or the declaration is no false win."""
        state = self.state
        rule = state.rules.false_win
        seat = action.seat
        if rule is None or action.kind != "win" or not self.may_declare_win(seat):
            return False
        state.events.append({"seat": seat, "action": "win", "false": True})
        self._legal = None
        state.payments += [Payment(seat, other, rule.amount * state.stake, rule.id, rule.name)
                           for other in range(state.seats) if other != seat and not state.players[other].out]
        state.players[seat].dead = state.players[seat].dead or rule.dead_hand
        if state.phase.offered:
            self._answer(offered(seat, "pass"))
        return True

    # -- what an action does, by phase -------------------------------------------------

    def _declare(self, action: Action) -> None:
        """定缺: each player declares a void suit after the deal; then the dealer draws."""
        assert action.tile is not None
        players = self.state.players
        players[action.seat].void = action.tile // 9
        if all(player.void is not None for player in players):
            self.state.phase = Phase.DRAW

    def _draw_or_pass(self, action: Action) -> None:
        if action.kind == "pass":
            return self._pass_last_tile(action.seat)
        self._draw(action.seat, back=False)

    def _replace(self, action: Action) -> None:
        """A kong's replacement: drawn plainly, or with the kong opened (open_kong)."""
        opening = self.state.rules.open_kong
        assert opening is not None
        if action.kind == "open":
            self.state.players[action.seat].locked = opening.locks
        self._draw(action.seat, back=True, opened=action.kind == "open")

    def _discard(self, action: Action) -> None:
        """The turn's player wins on the tile drawn, kongs, or discards."""
        state = self.state
        seat, player = action.seat, state.players[action.seat]
        if action.kind == "win":
            return self._win([(seat, "self_draw", state.turn_tile.drawn, None)])
        if action.kind == "abort":
            return self._end(drawn=True, aborted=abort_called(state, seat))
        assert action.tile is not None
        if action.kind == "kong":
            return self._own_kong(seat, action.tile)
        turn = state.turn_tile
        red = player.give_up(action.tile, red=self._must_show() and turn.drawn_red and action.tile == turn.drawn)
        player.discards.append(action.tile)
        player.discarded.add(action.tile)
        state.discards_made += 1
        state.first_discards.setdefault(action.tile, [seat, -1, state.discards_made])
        declaring = ""
        if action.kind == "declare":
            declaration = state.rules.declarations[0]
            first = not state.claimed and not player.acted
            declaring = declaration.first_turn if first and declaration.first_turn else declaration.id
        player.acted = True
        player.next_turn = False  # its next discard ends a declaration's next_turn
        state.turn_tile = turn.discarded()
        self._offer(seat, action.tile, robbing=False, red=red, declaring=declaring)

    def _answer(self, action: Action) -> None:
        """A player answers the tile on offer; once all have, the offer is resolved."""
        offer = self.state.offer
        assert offer is not None
        self.state.offer = offer = offer.answered(action)
        if offer.complete:
            self._resolve()

    #: what a legal action does in each phase of play; none is legal once the hand is over
    _ACTS: ClassVar[dict[Phase, Callable[[Table, Action], None]]] = {
        Phase.DECLARE: _declare, Phase.DRAW: _draw_or_pass, Phase.REPLACE: _replace, Phase.DISCARD: _discard,
        Phase.CLAIM: _answer, Phase.ROB: _answer,
    }

    # -- the steps of play -------------------------------------------------------------

    def _pass_last_tile(self, seat: int) -> None:
        """A roaming last tile passed on: to the next player, or, when every player
        has passed it, the hand is drawn."""
        state = self.state
        if state.first_offered is None:
            state.first_offered = seat
        following = state.next_in_play(seat)
        if following == state.first_offered:
            state.last_drawer = state.first_offered
            return self._end(drawn=True)
        state.turn = following

    def _draw(self, seat: int, back: bool, opened: bool = False) -> None:
        state = self.state
        player, events = state.players[seat], state.events
        tile = state.wall.draw_back() if back else state.wall.draw()
        flowers, aside = len(player.flowers), len(player.aside)
        drawn = take(state, seat, tile)  # the turn has no tile drawn before it: None stays None
        if drawn is None:
            events[-1]["flowers"] = [f"{n}f" for n in player.flowers[flowers:]]
            self._log_aside(player.aside[aside:])
            return self._end(drawn=True)
        if back:
            events.append({"seat": seat, "replacement": wall_tile_name(drawn)})
        else:
            events[-1]["tile"] = wall_tile_name(drawn)
        if len(player.flowers) > flowers:
            events[-1]["flowers"] = [f"{n}f" for n in player.flowers[flowers:]]
        self._log_aside(player.aside[aside:])
        last = state.wall.live == 0
        state.turn_tile = state.turn_tile.drew(kind_of(drawn), back, opened, last, is_red(drawn))
        if last:
            state.last_drawer = seat
        player.banned = None
        state.phase = Phase.DISCARD

    def _log_aside(self, tiles: list[int]) -> None:
        """Name in the last event the tiles of kinds set aside that a draw set aside."""
        if tiles:
            self.state.events[-1]["aside"] = [wall_tile_name(tile) for tile in tiles]

    def _offer(self, seat: int, tile: int, robbing: bool, red: bool = False, declaring: str = "",
               concealed: bool = False) -> None:
        """Put a discard (or a kong's added tile, or a concealed kong's) before the
        other players: its red copy or not, declaring (the fact a declaration sets, ""
        for none) or not."""
        state = self.state
        state.offer = Offer(seat, tile, red=red, declaring=declaring, concealed=concealed)
        state.phase = Phase.ROB if robbing else Phase.CLAIM  # before the answers: a win on the offer is scored in it
        options: dict[int, list[Action]] = {}
        for step in range(1, state.seats):
            other = (seat + step) % state.seats
            if not state.players[other].out:
                answers = self._answers_to(other, tile, robbing)
                if answers:
                    options[other] = answers
        state.offer = Offer(seat, tile, options, red=red, declaring=declaring, concealed=concealed)
        if not options:
            self._resolve()

    def _resolve(self) -> None:
        """Every player has answered: wins first, then a pung or kong, then a chow."""
        state = self.state
        assert state.offer is not None
        seat, tile, answers = state.offer.seat, state.offer.tile, state.offer.answers
        robbing = state.phase is Phase.ROB
        order = [(seat + step) % state.seats for step in range(1, state.seats)]
        winners = [other for other in order if answers.get(other, offered(other, "pass")).kind == "win"]
        self._ban_missed(winners, tile)
        if winners:
            if state.rules.discard_win == "nearest":
                winners = winners[:1]
            method = "robbing_kong" if robbing else "discard"
            return self._win([(winner, method, tile, seat) for winner in winners])
        if state.offer.declaring:
            self._declared(seat, state.offer.declaring)
        if robbing and state.offer.concealed:
            return self._complete_concealed(seat, tile, True)
        if robbing:
            return self._complete_kong(seat, tile, "added", None)
        aborted = abort_after_discard(state)
        if aborted:
            return self._end(drawn=True, aborted=aborted)
        for kinds in (("kong", "pung"), ("chow",)):
            for other in order:
                answer = answers.get(other)
                if answer is not None and answer.kind in kinds:
                    return self._claim(answer, seat, tile)
        self._next_turn(state.next_in_play(seat))

    def _declared(self, seat: int, fact: str) -> None:
        """A declaration stands, its discard passed: its stake goes onto the table,
        and its facts and its lock hold for the declarer."""
        state = self.state
        player, declaration = state.players[seat], state.rules.declarations[0]
        player.declared, player.declared_fact = declaration, fact
        player.next_turn = bool(declaration.next_turn)
        player.locked = player.locked or declaration.locks
        if declaration.stake:
            state.payments.append(Payment(seat, ON_TABLE, declaration.stake * state.stake, declaration.id,
                                          declaration.name))

    def _ban_missed(self, winners: list[int], tile: int) -> None:
        """漏胡: a player who could have won on the tile on offer and did not (after
        a declaration with ``missed_win_bars``, for the rest of the hand).  Under
        ``own_discards`` (furiten) a tile that completes the hand counts, scoring or
        not, and so does a robbed kong's."""
        state = self.state
        offer = state.offer
        assert offer is not None
        furiten = state.rules.own_discards
        for other in range(state.seats):
            if other == offer.seat or other in winners or state.players[other].out:
                continue
            if offered(other, "win") not in offer.options.get(other, ()) and not (
                    furiten and not offer.concealed and completes(state, other, tile, offer.seat)):
                continue
            player = state.players[other]
            if player.declared is not None and player.declared.missed_win_bars:
                player.barred = True
            if state.rules.missed_win == "none" or (state.phase is Phase.ROB and not furiten):
                continue
            player.banned = player.banned or set()
            if state.rules.missed_win == "same_tile":
                player.banned.add(tile)

    def _claim(self, answer: Action, discarder: int, tile: int) -> None:
        state = self.state
        seat, player = answer.seat, state.players[answer.seat]
        first = state.first_discards.get(tile)
        if first is not None and first[2] == state.discards_made:
            first[1] = seat  # the hand's first discard of the kind, claimed as it was made
        state.players[discarder].discards.pop()
        red = state.offer is not None and state.offer.red
        self._interrupted()
        player.acted = True
        player.banned = None
        state.offer = None
        state.turn = seat
        state.feeds.append((seat, discarder, 1 + sum(meld.source is not None for meld in player.melds)))
        stand_for = claim_jokers(player.counts, player.jokers, answer.kind, tile, answer.tile)
        assert stand_for is not None  # a legal claim
        meld = Meld(answer.kind, tile if answer.tile is None else answer.tile,
                    source=relative_source(seat, discarder, state.seats), jokers=stand_for)
        used = list(meld.tiles)
        for kind in (tile, *stand_for):
            used.remove(kind)
        player.meld_from_hand(used)
        if red:
            player.melded_red.append(tile)
        player.jokers -= len(stand_for)
        player.melds.append(meld)
        if answer.kind == "kong":
            return self._after_kong(seat, tile, "direct", discarder)
        state.turn_tile = state.turn_tile.claimed()
        state.phase = Phase.DISCARD

    def _own_kong(self, seat: int, tile: int) -> None:
        state = self.state
        player = state.players[seat]
        state.turn_tile = state.turn_tile.konged()
        if player.counts[tile] == 4 and not state.rules.rob_concealed:
            return self._complete_concealed(seat, tile, False)
        red = player.give_up(tile)  # the kong's tile (an added one, or a fourth copy) before the others
        self._offer(seat, tile, robbing=True, red=red, concealed=player.counts[tile] == 3)

    def _complete_concealed(self, seat: int, tile: int, offered: bool) -> None:
        """A concealed kong stands: its four copies (the one ``offered`` to be robbed
        among them) meld."""
        state = self.state
        player = state.players[seat]
        player.meld_from_hand([tile] * (3 if offered else 4))
        if offered and state.offer is not None and state.offer.red:
            player.melded_red.append(tile)
        player.melds.append(Meld("kong", tile, concealed=True))
        self._interrupted()
        state.offer = None
        self._after_kong(seat, tile, "concealed", None)

    def _complete_kong(self, seat: int, tile: int, kind: str, discarder: int | None) -> None:
        state = self.state
        player = state.players[seat]
        index = next(i for i, meld in enumerate(player.melds) if meld.kind == "pung" and meld.tile == tile)
        pung = player.melds[index]
        player.melds[index] = Meld("kong", tile, source=pung.source, added=True, jokers=pung.jokers)
        if state.offer is not None and state.offer.red:
            player.melded_red.append(tile)
        self._interrupted()
        state.offer = None
        self._after_kong(seat, tile, kind, discarder)

    def _interrupted(self) -> None:
        """A claim or a kong: no first turn any more, and no declaration's ``next_turn``."""
        self.state.claimed = True
        for player in self.state.players:
            player.next_turn = False

    def _after_kong(self, seat: int, tile: int, kind: str, discarder: int | None) -> None:
        """A kong stands: its payments, the wall's tiles it leaves undrawn (never its
        own replacement), then the replacement draw."""
        state = self.state
        state.kongs += 1
        state.payments += kong_payment(state, seat, kind, discarder)
        state.wall.dead += min(state.rules.dead_per_kong, state.wall.live - 1)
        state.turn = seat
        if state.rules.open_kong is not None:
            state.phase = Phase.REPLACE  # its maker chooses: a plain draw, or opening the kong
        else:
            self._draw(seat, back=True)

    def _next_turn(self, seat: int) -> None:
        state = self.state
        state.offer = None
        state.turn_tile = TurnTile()
        if state.wall.live == 0:
            return self._end(drawn=True)
        state.turn = seat
        state.phase = Phase.DRAW

    # -- wins and the end ------------------------------------------------------------

    def _win(self, wins: list[tuple[int, str, int | None, int | None]]) -> None:
        """Score and settle each win; then the hand ends or play goes on."""
        state = self.state
        out = frozenset(SEAT_NAMES[(seat - state.seating.dealer) % state.seats]
                        for seat, player in enumerate(state.players) if player.out)
        records = []
        state.deposit_taker = wins[0][0]  # the deposits go to the first winner in turn
        for seat, method, tile, source in wins:
            assert tile is not None
            result = score(state, seat, tile, method, len(wins))
            settlement = state.ruleset.settle(result, Stakes(state.stake, out))
            lines = [Payment(ON_TABLE if line.payer == TABLE else state.seat_of(line.payer),
                             state.seat_of(line.payee), line.amount, line.clause, line.name)
                     for line in settlement.lines]
            records.append(WinRecord(seat, method, tile, source, result, tuple(lines), len(wins)))
        state.deposit_taker = None
        for record in records:
            state.wins.append(record)
            state.payments += record.lines
            player = state.players[record.seat]
            player.wins += 1
            if record.method == "self_draw":
                player.give_up(record.tile)
            elif record.method == "discard" and record.source is not None:
                if state.players[record.source].discards[-1:] == [record.tile]:
                    state.players[record.source].discards.pop()
            if state.rules.hand_ends == "wins":
                player.out = True
        self._after_win(wins)

    def _after_win(self, wins: list[tuple[int, str, int | None, int | None]]) -> None:
        state = self.state
        rules = state.rules
        if rules.hand_ends == "first_win":
            return self._end(drawn=False)
        still = [seat for seat, player in enumerate(state.players) if not player.out]
        if rules.hand_ends == "wins" and (sum(p.out for p in state.players) >= rules.ends_after or len(still) < 2):
            return self._end(drawn=False)
        last = wins[-1][0]
        self._next_turn(state.next_in_play(last))

    def _end(self, drawn: bool, aborted: str = "") -> None:
        state = self.state
        state.phase = Phase.OVER
        state.offer = None
        state.outcome = close_hand(state, drawn, aborted)
        state.payments += state.outcome.closing

    # -- reading the state -----------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.over

    @_locked
    def net(self) -> list[int]:
        """Each seat's net result from every payment so far."""
        return self.state.net()


def _action_of(action: object, seat: object, seats: int) -> Action:
    """The :class:`Action` ``act`` was given at a table of ``seats`` (an action, or
    its text with ``seat``), checked whole; else :class:`IllegalAction` naming the
    argument."""
    if isinstance(action, str):
        if seat is None:
            raise IllegalAction("an action given as text needs its seat")
        return Action.parse(seat_number(seat, seats=seats), action)
    if not isinstance(action, Action):
        raise IllegalAction(f"an action is an Action or its text with the seat (e.g. act('discard 5m', 0)), "
                            f"not {type(action).__name__}")
    if seat is not None and seat_number(seat, seats=seats) != action.seat:
        raise IllegalAction(f"seat {seat} given with an action of seat {action.seat}")
    return Action(action.seat, action.kind, action.tile)  # checked again: its fields may have been changed since


def checked_ruleset(ruleset: object) -> Ruleset:
    """``ruleset`` if a table can play it: a :class:`~mjr.Ruleset` (else
    :class:`~mjr.errors.TableError`) that is not :func:`unplayable` (else
    :class:`~mjr.errors.MjrError` saying why)."""
    if not isinstance(ruleset, Ruleset):
        raise TableError(f"ruleset must be a mjr.Ruleset (from mjr.load), not {type(ruleset).__name__}")
    why = unplayable(ruleset)
    if why is not None:
        raise MjrError(why)
    return ruleset


def checked_stake(stake: object) -> int:
    """``stake`` as a plain int 1 to :data:`MAX_STAKE`; else :class:`~mjr.errors.TableError`."""
    return whole_number(stake, "stake", 1, MAX_STAKE)


def checked_seed(seed: object) -> int:
    """``seed`` as a plain int of at most :data:`SEED_BITS` bits; else :class:`~mjr.errors.TableError`."""
    return whole_number(seed, "seed", -(2 ** (SEED_BITS - 1)), 2**SEED_BITS - 1)


def checked_wall(wall: object) -> list[int]:
    """``wall`` as a list of plain ints 0-45 (a red five's the highest: see
    :mod:`mjr.table.wall`), before :meth:`mjr.table.wall.Wall.given` checks it holds the
    tile set; else :class:`~mjr.errors.TableError` naming the place."""
    if not isinstance(wall, (list, tuple)):
        raise TableError(f"wall must be a list of tiles (ints 0-{LAST_WALL_TILE}), not {type(wall).__name__}")
    return [whole_number(tile, f"wall[{place}]", 0, LAST_WALL_TILE) for place, tile in enumerate(wall)]


def checked_log(log: object) -> IO[str] | None:
    """``log`` (a text stream, or ``None``): anything without a ``write`` method, a
    file's name say, is :class:`~mjr.errors.TableError` before anything is dealt."""
    if log is not None and not callable(getattr(log, "write", None)):
        raise TableError(f"log must be a text stream open for writing (open(path, 'w')), not "
                         f"{clip_repr(log)} ({type(log).__name__})")
    return cast("IO[str] | None", log)  # it writes; what it fails to write is a LogWriteError


def checked_seating(seating: object, seats: int = SEATS) -> Seating:
    """``seating`` (a :class:`Seating`, which checks its own fields, or ``None`` for the
    first hand's) at a table of ``seats``; else :class:`~mjr.errors.TableError`."""
    if seating is None:
        return Seating()
    if not isinstance(seating, Seating):
        raise TableError(f"seating must be a mjr.table.Seating, not {type(seating).__name__}")
    for name, seat in (("dealer", seating.dealer), ("previous_winner", seating.previous_winner)):
        if seat is not None and seat >= seats:
            raise TableError(f"Seating.{name} is seat {seat}, but the table seats {seats} (seats 0-{seats - 1})")
    return seating


__all__ = ["MAX_STAKE", "IllegalAction", "Phase", "Seating", "Table", "checked_log", "checked_ruleset",
           "checked_seating", "checked_seed", "checked_stake", "tiles_of", "unplayable"]
