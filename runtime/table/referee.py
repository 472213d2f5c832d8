"""The referee of one hand of play: the wall, the deal, every player's legal actions,
claims and their priority, kongs, wins, and the settlement of the whole hand.

A :class:`Table` is driven by :class:`~mjr.table.actions.Action` events: :meth:`Table.legal`
names what each player may do now, and :meth:`Table.act` does one of them or refuses
it with a reason, leaving the table as it was.  Everything a region decides comes
from its ruleset: the tile set, the deal, the claims and win methods, the scoring of
every win (:meth:`mjr.Ruleset.evaluate`), its payments (:meth:`mjr.Ruleset.settle`),
and the rules of play (:attr:`mjr.Ruleset.play`).

Seats 0-3 sit in play order; the dealer's seat wind is East and the others follow.

A table may be shared by threads (a server's thread per player): one lock,
:attr:`Table.lock`, is held over every public method, so each action, with its log
lines, is done whole before the next begins.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import IO, Concatenate, ParamSpec, TypeVar, cast

from ..abi import JOKER, PLACE_SOURCES
from ..errors import IllegalAction, LogWriteError, MjrError, TableError, clip_repr
from ..hand.model import Context, Hand, Meld
from ..ruleset.loaded import Ruleset
from ..ruleset.result import Result, Stakes
from ..tiles.kinds import N_KINDS, WIND_LETTERS
from .actions import Action
from .close import HandOutcome, Payment, WinRecord, close_hand, is_ready, kong_payment, table_facts
from .deal import TableDeal
from .seats import Player, Seating, seat_number, tiles_of, whole_number
from .wall import WALL_JOKER, Wall, wall_tile_name
from .wild import chow_starts, claim_jokers, forbidden_why, held_tiles, may_meld

#: The relative source of a claimed tile: steps in play order from the claimer.
_SOURCE = {1: "R", 2: "O", 3: "L"}
#: The largest stake a table takes.  A payment is a hand's points times the stake: under
#: this stake, every hand of fewer than 2**32 points pays within 64-bit integers.
MAX_STAKE = 2**31 - 1
#: A seed shuffles the wall (random.Random): any int that fits in 64 bits, either sign.
SEED_BITS = 64
#: The highest number of a hand in a session (its ``session_hand``, from 0).
MAX_SESSION_HAND = 2**63 - 1

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _locked(method: Callable[Concatenate[Table, _P], _R]) -> Callable[Concatenate[Table, _P], _R]:
    """``method`` run holding the table's lock (see :attr:`Table.lock`)."""

    @functools.wraps(method)
    def locked(self: Table, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self.lock:
            return method(self, *args, **kwargs)

    return locked


def unplayable(ruleset: Ruleset) -> str | None:
    """Why a table cannot play ``ruleset``, or ``None``: a red five is a copy the
    wall does not tell apart yet (such a ruleset is scored, not played)."""
    if ruleset.has_red:
        return (f"{ruleset.id} has red fives, which a table of play does not deal yet: score its hands with "
                "Ruleset.evaluate")
    return None


class Table(TableDeal):
    """One hand of play under ``ruleset``.

    ``seed`` (an int) shuffles the wall; ``wall`` gives it tile by tile instead (kinds
    0-33, flowers 34-41, a dedicated joker 42: :data:`mjr.table.wall.WALL_JOKER`).  ``stake``
    (an int 1 to :data:`MAX_STAKE`) multiplies every payment.  A stake, seed or seating
    that cannot be played is refused with :class:`~mjr.errors.TableError`.  With ``log``
    the hand is written to it as it is played (:mod:`mjr.table.log`); ``session_hand``,
    the hand's number in a session, goes in its ``hand`` line.  The hand is dealt at
    once; the dealer acts first, by drawing.
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
        self.ruleset = ruleset
        self.rules = ruleset.play
        self.seating = checked_seating(seating)
        self.stake = checked_stake(stake)
        self.seed = checked_seed(seed)
        dead = self.rules.dead_wall
        #: the kinds set aside as drawn, like flowers (tiles ... aside(...)): in the wall, never in play
        self.aside_kinds = ruleset.aside_kinds
        kinds = ruleset.kinds | ruleset.aside_kinds
        if wall is None:
            self.wall = Wall.shuffled(kinds, ruleset.has_flowers, self.seed, dead, ruleset.jokers)
        else:
            self.wall = Wall.given(checked_wall(wall), kinds, ruleset.has_flowers, dead, ruleset.jokers)
        self.players = [Player() for _ in range(4)]
        self.indicator: int | None = None
        #: the flowers, kinds set aside and jokers flipped where the indicator is, set aside (no player's)
        self.set_aside: list[int] = []
        # the wildcard kinds of the hand, once the indicator is flipped, and the dedicated jokers
        self.wild: frozenset[int] = frozenset()
        self.forbidden: tuple[str, ...] = ruleset.generated.wild_forbidden
        self.payments: list[Payment] = []
        self.wins: list[WinRecord] = []
        self.events: list[dict[str, object]] = []
        self.outcome: HandOutcome | None = None
        # the state of play
        self.turn = self.seating.dealer
        # declare (void_suit declared) | draw | discard | claim | rob | replace (a kong's replacement) | over
        self.phase = "declare" if self.rules.void_suit == "declared" else "draw"
        self.drawn: int | None = None  # the tile just drawn, which a self-draw wins on
        self.after_kong = False  # the turn's tile is a kong's replacement
        self.opened = False  # ... by an opened kong (open_kong)
        self.discard_after_kong = False  # the discard on the table was made after a kong's replacement
        self.discard_opened = False  # ... after an opened kong's
        self.first_offered: int | None = None  # who was offered a roaming last tile first
        self.last_drawer: int | None = None  # who drew the last tile (or, all passing it, was offered it first)
        self.last_draw = False  # the turn's tile (or the discard on the table) came after the last draw
        self.claimed = False  # anyone has claimed or konged: no first turn any more
        self.feeds: list[tuple[int, int, int]] = []  # (claimer, discarder, the claimer's claimed melds with it)
        self.offer: tuple[int, int] | None = None  # (seat, tile) of the discard or robbed kong on offer
        self.options: dict[int, list[Action]] = {}  # who may answer the offer, and how
        self.answers: dict[int, Action] = {}
        self._legal: dict[int, list[Action]] | None = None  # legal() once worked out, until the next action
        self.log = log
        self._logged = 0  # events written to the log so far
        self._deal()
        if log is not None:
            from .log import hand_header

            self._write([hand_header(self, session_hand)])

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
        if self.phase == "over":
            return {}
        if self.phase in ("claim", "rob"):
            return {seat: actions for seat, actions in self.options.items() if seat not in self.answers}
        if self.phase == "declare":
            return {seat: [Action(seat, "void", suit * 9) for suit in range(3)]
                    for seat in ((self.seating.dealer + step) % 4 for step in range(4))
                    if self.players[seat].void is None}
        if self.phase == "draw":
            roams = self.rules.last_draw == "roams" and self.wall.live == 1
            return {self.turn: [Action(self.turn, "draw")] + [Action(self.turn, "pass")] * roams}
        if self.phase == "replace":
            opening = self.rules.open_kong
            assert opening is not None
            may_open = not opening.when_ready or is_ready(self, self.turn)
            return {self.turn: [Action(self.turn, "draw")] + [Action(self.turn, "open")] * may_open}
        return {self.turn: self._turn_actions()}

    def _turn_actions(self) -> list[Action]:
        seat, player = self.turn, self.players[self.turn]
        if self.drawn is not None and self._must_show():
            actions = [Action(seat, "discard", self.drawn)]
        else:
            actions = [Action(seat, "discard", tile) for tile in held_tiles(player.counts, player.jokers)
                       if self.may_use(tile, "discard")]
        if self.drawn is not None:
            if self.wall.live > 0 and "kong" in self.ruleset.claims and not player.locked:
                actions += [Action(seat, "kong", kind) for kind, count in enumerate(player.counts)
                            if count == 4 and self.may_use(kind, "kong")]
                actions += [Action(seat, "kong", meld.tile) for meld in player.melds
                            if meld.kind == "pung" and player.counts[meld.tile] and self.may_use(meld.tile, "kong")]
            if not player.dead and "self_draw" in self.ruleset.win_methods and \
                    self._score(seat, self.drawn, "self_draw").is_win:
                actions.append(Action(seat, "win"))
        return sorted(actions)

    def _must_show(self) -> bool:
        """Whether the turn's player must discard the tile just drawn unless winning
        with it: a locked hand, or the taker of a roaming last tile."""
        roaming = self.rules.last_draw == "roams" and self.last_draw and not self.after_kong
        return roaming or self.players[self.turn].locked

    def _answers_to(self, seat: int, tile: int, robbing: bool) -> list[Action]:
        """What ``seat`` may do with the tile on offer: win, and on a discard pung, kong or chow."""
        player = self.players[seat]
        actions: list[Action] = []
        method = "robbing_kong" if robbing else "discard"
        banned = player.banned is not None and (not player.banned or tile in player.banned)
        if method in self.ruleset.win_methods and not (banned and not robbing) and not player.dead:
            if self._score(seat, tile, method).is_win:
                actions.append(Action(seat, "win"))
        if not robbing and self.wall.live > 0 and not player.locked and tile != WALL_JOKER:
            for claim in ("pung", "kong"):
                if self._may_claim(claim, seat) and may_meld(self, seat, claim, tile):
                    actions.append(Action(seat, claim))
            if self._may_claim("chow", seat):
                actions += [Action(seat, "chow", start) for start in chow_starts(player.counts, player.jokers, tile)
                            if may_meld(self, seat, "chow", tile, start)]
        return actions + [Action(seat, "pass")] if actions else []

    @_locked
    def may_use(self, tile: int, *uses: str) -> bool:
        """Whether ``wildcard may_not`` lets ``tile`` (a kind, or a joker) be put to these uses."""
        return tile not in self.wild or not any(use in self.forbidden for use in uses)

    def _may_claim(self, claim: str, seat: int) -> bool:
        """Whether the ruleset lets ``seat`` make ``claim`` on the discard on offer: a
        claim limited to players by place (``chow(left)``) counts them in play order."""
        if claim not in self.ruleset.claims:
            return False
        places = [word for word in self.ruleset.claims[claim] if word in PLACE_SOURCES]
        if not places:
            return True
        assert self.offer is not None
        discarder = self.offer[0]
        still = [(discarder + step) % 4 for step in (1, 2, 3) if not self.players[(discarder + step) % 4].out]
        place = {still[0]: "left", still[-1]: "right"}.get(seat, "opposite") if len(still) > 1 else "left"
        return place in places

    def _next_in_play(self, seat: int) -> int:
        """The next seat after ``seat`` still in the hand."""
        for step in (1, 2, 3):
            candidate = (seat + step) % 4
            if not self.players[candidate].out:
                return candidate
        return seat

    # -- scoring a win -------------------------------------------------------------

    @_locked
    def context(self, seat: int, method: str, source: int | None = None, winners: int = 1,
                tile: int | None = None) -> Context:
        """The context of a win by ``seat`` (a seat 0-3, checked as :meth:`act` checks
        one): its winds, the dealer, and the state of play."""
        seat = seat_number(seat)
        player = self.players[seat]
        kong_win = method == "self_draw" and self.after_kong
        facts = table_facts(self, seat, tile)
        opening = self.rules.open_kong
        if opening is not None and ((kong_win and self.opened) or (method == "discard" and self.discard_opened)):
            facts += ((opening.fact, True),)
        return Context(
            win_by=method,
            after_kong=kong_win or (method == "discard" and self.discard_after_kong),
            last_tile=self.last_draw and method != "robbing_kong",
            first_turn=not self.claimed and not player.acted and not player.melds,
            dealer=seat == self.seating.dealer,
            dealer_seat=None if seat == self.seating.dealer else 0,  # the dealer sits East
            seat=(seat - self.seating.dealer) % 4,
            round=self.seating.round,
            source=None if source is None else _SOURCE[(source - seat) % 4],
            indicator=self.indicator,
            winners=winners,
            void=player.void,
            facts=facts,
        )

    @_locked
    def hand_of(self, seat: int, tile: int | None, method: str, source: int | None = None,
                winners: int = 1, counts: list[int] | None = None) -> Hand:
        """``seat``'s hand, winning on ``tile`` (``None``: the waiting hand); its
        concealed tiles ``counts`` where given, else the player's.  ``seat`` is checked
        as :meth:`act` checks one, ``tile`` is a kind 0-33 or the joker."""
        seat = seat_number(seat)
        if tile is not None and tile != WALL_JOKER:
            tile = whole_number(tile, "tile", 0, N_KINDS - 1, IllegalAction)
        player = self.players[seat]
        counts = list(player.counts if counts is None else counts)
        jokers, win = player.jokers, tile
        if tile == WALL_JOKER:
            jokers, win = jokers - (method == "self_draw"), JOKER
        elif tile is not None and method == "self_draw":
            counts[tile] -= 1
        return Hand(tiles_of(counts), tuple(player.melds), win, self.context(seat, method, source, winners, tile),
                    tuple(player.flowers), jokers=jokers, aside=tuple(player.aside))

    def _score(self, seat: int, tile: int, method: str, winners: int = 1) -> Result:
        source = None if method == "self_draw" else self.offer[0] if self.offer else None
        return self.ruleset.evaluate(self.hand_of(seat, tile, method, source, winners))

    # -- acting --------------------------------------------------------------------

    @_locked
    def act(self, action: Action | str, seat: int | None = None) -> None:
        """Do ``action`` (an :class:`Action`, or its text with ``seat``), or raise
        :class:`IllegalAction` saying why, leaving the table unchanged.  Under a
        ``false_win`` rule, a ``win`` the rules refuse from a player asked to act is
        no illegal action but a false win, and paid for.

        Every argument is checked before anything changes: ``seat`` a seat 0-3 (an int,
        or a numpy int), ``action`` an :class:`Action` or text.  A log that cannot be
        written raises :class:`~mjr.errors.LogWriteError` once the action is done."""
        action = _action_of(action, seat)
        legal = self._current_legal()
        if action not in legal.get(action.seat, ()):
            if not self._false_win(action):
                raise IllegalAction(self._why_not(action, legal))
        else:
            self.events.append({"seat": action.seat, "action": str(action)})
            self._legal = None
            getattr(self, f"_do_{self.phase}")(action)
        if self.log is not None:
            self._write_events()

    def _write_events(self) -> None:
        """Write the events since the last action, and the end of the hand once it is over."""
        lines: list[dict[str, object]] = list(self.events[self._logged:])
        if self.over:
            from .log import hand_end

            lines.append(hand_end(self))
        self._logged = len(self.events)
        self._write(lines)

    def _write(self, lines: list[dict[str, object]]) -> None:
        """Write ``lines`` in one piece.  On a failure the table stops writing to its
        log (``log`` becomes ``None``): what it holds stays a beginning of the hand's
        log, never with a line repeated or one left out in the middle."""
        from .log import write_lines

        assert self.log is not None
        try:
            write_lines(self.log, lines)
        except LogWriteError as error:
            self.log = None
            raise LogWriteError(f"{error}: the log is cut short, and the table writes no more to it"
                                ) from error.__cause__

    def _why_not(self, action: Action, legal: dict[int, list[Action]]) -> str:
        if self.phase == "over":
            return "the hand is over"
        why = forbidden_why(self, action)
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
        seat = seat_number(seat)
        if self.rules.false_win is None or seat not in self._current_legal():
            return False
        return self.phase in ("claim", "rob") or (self.phase == "discard" and self.drawn is not None)

    def _false_win(self, action: Action) -> bool:
        """诈胡 (``false_win``): a win declared by a player asked to act, which the
        rules refuse, costs its declarer the penalty; play goes on.  False where the
        ruleset has no such rule or the declaration is no false win."""
        rule = self.rules.false_win
        seat = action.seat
        if rule is None or action.kind != "win" or not self.may_declare_win(seat):
            return False
        self.events.append({"seat": seat, "action": "win", "false": True})
        self._legal = None
        self.payments += [Payment(seat, other, rule.amount * self.stake, rule.id, rule.name)
                          for other in range(4) if other != seat and not self.players[other].out]
        self.players[seat].dead = self.players[seat].dead or rule.dead_hand
        if self.phase in ("claim", "rob"):
            self._do_claim(Action(seat, "pass"))
        return True

    def _do_declare(self, action: Action) -> None:
        """定缺: each player declares a void suit after the deal; then the dealer draws."""
        assert action.tile is not None
        self.players[action.seat].void = action.tile // 9
        if all(player.void is not None for player in self.players):
            self.phase = "draw"

    def _do_draw(self, action: Action) -> None:
        if action.kind == "pass":
            return self._pass_last_tile(action.seat)
        self._draw(action.seat, back=False)

    def _pass_last_tile(self, seat: int) -> None:
        """A roaming last tile passed on: to the next player, or, when every player
        has passed it, the hand is drawn."""
        if self.first_offered is None:
            self.first_offered = seat
        following = self._next_in_play(seat)
        if following == self.first_offered:
            self.last_drawer = self.first_offered
            return self._end(drawn=True)
        self.turn = following

    def _do_replace(self, action: Action) -> None:
        opening = self.rules.open_kong
        assert opening is not None
        if action.kind == "open":
            self.players[action.seat].locked = opening.locks
        self._draw(action.seat, back=True, opened=action.kind == "open")

    def _draw(self, seat: int, back: bool, opened: bool = False) -> None:
        player = self.players[seat]
        tile = self.wall.draw_back() if back else self.wall.draw()
        flowers, aside = len(player.flowers), len(player.aside)
        self.drawn = self._take(seat, tile)
        if self.drawn is None:
            self.events[-1]["flowers"] = [f"{n}f" for n in player.flowers[flowers:]]
            self._log_aside(player.aside[aside:])
            return self._end(drawn=True)
        if back:
            self.events.append({"seat": seat, "replacement": wall_tile_name(self.drawn)})
        else:
            self.events[-1]["tile"] = wall_tile_name(self.drawn)
        if len(player.flowers) > flowers:
            self.events[-1]["flowers"] = [f"{n}f" for n in player.flowers[flowers:]]
        self._log_aside(player.aside[aside:])
        self.after_kong, self.opened = back, opened
        self.last_draw = self.wall.live == 0
        if self.last_draw:
            self.last_drawer = seat
        player.banned = None
        self.phase = "discard"

    def _do_discard(self, action: Action) -> None:
        seat, player = action.seat, self.players[action.seat]
        if action.kind == "win":
            return self._win([(seat, "self_draw", self.drawn, None)])
        assert action.tile is not None
        if action.kind == "kong":
            return self._own_kong(seat, action.tile)
        player.give_up(action.tile)
        player.discards.append(action.tile)
        player.acted = True
        self.discard_after_kong, self.discard_opened = self.after_kong, self.opened
        self.drawn, self.after_kong, self.opened = None, False, False
        self._offer(seat, action.tile, robbing=False)

    def _offer(self, seat: int, tile: int, robbing: bool) -> None:
        """Put a discard (or a kong's added tile) before the other players."""
        self.offer = (seat, tile)
        self.options = {}
        self.answers = {}
        self.phase = "rob" if robbing else "claim"  # before the answers: a win on the offer is scored in it
        for step in (1, 2, 3):
            other = (seat + step) % 4
            if not self.players[other].out:
                answers = self._answers_to(other, tile, robbing)
                if answers:
                    self.options[other] = answers
        if not self.options:
            self._resolve()

    def _do_claim(self, action: Action) -> None:
        self.answers[action.seat] = action
        if len(self.answers) == len(self.options):
            self._resolve()

    _do_rob = _do_claim

    def _resolve(self) -> None:
        """Every player has answered: wins first, then a pung or kong, then a chow."""
        assert self.offer is not None
        seat, tile = self.offer
        robbing = self.phase == "rob"
        order = [(seat + step) % 4 for step in (1, 2, 3)]
        winners = [other for other in order if self.answers.get(other, Action(other, "pass")).kind == "win"]
        self._ban_missed(winners, tile)
        if winners:
            if self.rules.discard_win == "nearest":
                winners = winners[:1]
            method = "robbing_kong" if robbing else "discard"
            return self._win([(winner, method, tile, seat) for winner in winners])
        if robbing:
            return self._complete_kong(seat, tile, "added", None)
        for kinds in (("kong", "pung"), ("chow",)):
            for other in order:
                answer = self.answers.get(other)
                if answer is not None and answer.kind in kinds:
                    return self._claim(answer, seat, tile)
        self._next_turn(self._next_in_play(seat))

    def _ban_missed(self, winners: list[int], tile: int) -> None:
        """漏胡: a player who could have won on the discard and did not."""
        if self.rules.missed_win == "none" or self.phase == "rob":
            return
        for other, actions in self.options.items():
            if other not in winners and Action(other, "win") in actions:
                player = self.players[other]
                player.banned = player.banned or set()
                if self.rules.missed_win == "same_tile":
                    player.banned.add(tile)

    def _claim(self, answer: Action, discarder: int, tile: int) -> None:
        seat, player = answer.seat, self.players[answer.seat]
        self.players[discarder].discards.pop()
        source = _SOURCE[(discarder - seat) % 4]
        self.claimed = True
        player.acted = True
        player.banned = None
        self.offer, self.options, self.answers = None, {}, {}
        self.turn = seat
        self.feeds.append((seat, discarder, 1 + sum(meld.source is not None for meld in player.melds)))
        stand_for = claim_jokers(player.counts, player.jokers, answer.kind, tile, answer.tile)
        assert stand_for is not None  # a legal claim
        meld = Meld(answer.kind, tile if answer.tile is None else answer.tile, source=source, jokers=stand_for)
        used = list(meld.tiles)
        for kind in (tile, *stand_for):
            used.remove(kind)
        for kind in used:
            player.counts[kind] -= 1
        player.jokers -= len(stand_for)
        player.melds.append(meld)
        if answer.kind == "kong":
            return self._after_kong(seat, tile, "direct", discarder)
        self.drawn, self.after_kong, self.last_draw = None, False, False
        self.phase = "discard"

    def _own_kong(self, seat: int, tile: int) -> None:
        player = self.players[seat]
        self.drawn = None
        if player.counts[tile] == 4:
            player.counts[tile] = 0
            player.melds.append(Meld("kong", tile, concealed=True))
            self.claimed = True
            return self._after_kong(seat, tile, "concealed", None)
        player.counts[tile] -= 1
        self._offer(seat, tile, robbing=True)

    def _complete_kong(self, seat: int, tile: int, kind: str, discarder: int | None) -> None:
        player = self.players[seat]
        index = next(i for i, meld in enumerate(player.melds) if meld.kind == "pung" and meld.tile == tile)
        pung = player.melds[index]
        player.melds[index] = Meld("kong", tile, source=pung.source, added=True, jokers=pung.jokers)
        self.claimed = True
        self.offer, self.options, self.answers = None, {}, {}
        self._after_kong(seat, tile, kind, discarder)

    def _after_kong(self, seat: int, tile: int, kind: str, discarder: int | None) -> None:
        """A kong stands: its payments, the wall's tiles it leaves undrawn (never its
        own replacement), then the replacement draw."""
        self.payments += kong_payment(self, seat, kind, discarder)
        self.wall.dead += min(self.rules.dead_per_kong, self.wall.live - 1)
        self.turn = seat
        if self.rules.open_kong is not None:
            self.phase = "replace"  # its maker chooses: a plain draw, or opening the kong
        else:
            self._draw(seat, back=True)

    def _next_turn(self, seat: int) -> None:
        self.offer, self.options, self.answers = None, {}, {}
        self.drawn, self.after_kong, self.last_draw, self.discard_after_kong = None, False, False, False
        self.opened = self.discard_opened = False
        if self.wall.live == 0:
            return self._end(drawn=True)
        self.turn = seat
        self.phase = "draw"

    # -- wins and the end ------------------------------------------------------------

    def _win(self, wins: list[tuple[int, str, int | None, int | None]]) -> None:
        """Score and settle each win; then the hand ends or play goes on."""
        out = frozenset(WIND_LETTERS[(seat - self.seating.dealer) % 4]
                        for seat, player in enumerate(self.players) if player.out)
        records = []
        for seat, method, tile, source in wins:
            assert tile is not None
            result = self._score(seat, tile, method, len(wins))
            settlement = self.ruleset.settle(result, Stakes(self.stake, out))
            lines = [Payment(self._seat_of(line.payer), self._seat_of(line.payee), line.amount, line.clause,
                             line.name) for line in settlement.lines]
            records.append(WinRecord(seat, method, tile, source, result, tuple(lines), len(wins)))
        for record in records:
            self.wins.append(record)
            self.payments += record.lines
            player = self.players[record.seat]
            player.wins += 1
            if record.method == "self_draw":
                player.give_up(record.tile)
            elif record.method == "discard" and record.source is not None:
                if self.players[record.source].discards[-1:] == [record.tile]:
                    self.players[record.source].discards.pop()
            if self.rules.hand_ends == "wins":
                player.out = True
        self._after_win(wins)

    def _after_win(self, wins: list[tuple[int, str, int | None, int | None]]) -> None:
        rules = self.rules
        if rules.hand_ends == "first_win":
            return self._end(drawn=False)
        still = [seat for seat, player in enumerate(self.players) if not player.out]
        if rules.hand_ends == "wins" and (sum(p.out for p in self.players) >= rules.ends_after or len(still) < 2):
            return self._end(drawn=False)
        last = wins[-1][0]
        self._next_turn(self._next_in_play(last))

    def _end(self, drawn: bool) -> None:
        self.phase = "over"
        self.offer, self.options, self.answers = None, {}, {}
        self.outcome = close_hand(self, drawn)
        self.payments += self.outcome.closing

    def _seat_of(self, wind: str) -> int:
        return (self.seating.dealer + WIND_LETTERS.index(wind)) % 4

    # -- reading the state -----------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @_locked
    def net(self) -> list[int]:
        """Each seat's net result from every payment so far."""
        net = [0, 0, 0, 0]
        for payment in self.payments:
            net[payment.payer] -= payment.amount
            net[payment.payee] += payment.amount
        return net


def _action_of(action: object, seat: object) -> Action:
    """The :class:`Action` ``act`` was given (an action, or its text with ``seat``),
    checked whole; else :class:`IllegalAction` naming the argument."""
    if isinstance(action, str):
        if seat is None:
            raise IllegalAction("an action given as text needs its seat")
        return Action.parse(seat_number(seat), action)
    if not isinstance(action, Action):
        raise IllegalAction(f"an action is an Action or its text with the seat (e.g. act('discard 5m', 0)), "
                            f"not {type(action).__name__}")
    if seat is not None and seat_number(seat) != action.seat:
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
    """``wall`` as a list of plain ints 0-42 (:data:`mjr.table.wall.WALL_JOKER` the highest),
    before :meth:`mjr.table.wall.Wall.given` checks it holds the tile set; else
    :class:`~mjr.errors.TableError` naming the place."""
    if not isinstance(wall, (list, tuple)):
        raise TableError(f"wall must be a list of tiles (ints 0-{WALL_JOKER}), not {type(wall).__name__}")
    return [whole_number(tile, f"wall[{place}]", 0, WALL_JOKER) for place, tile in enumerate(wall)]


def checked_log(log: object) -> IO[str] | None:
    """``log`` (a text stream, or ``None``): anything without a ``write`` method, a
    file's name say, is :class:`~mjr.errors.TableError` before anything is dealt."""
    if log is not None and not callable(getattr(log, "write", None)):
        raise TableError(f"log must be a text stream open for writing (open(path, 'w')), not "
                         f"{clip_repr(log)} ({type(log).__name__})")
    return cast("IO[str] | None", log)  # it writes; what it fails to write is a LogWriteError


def checked_seating(seating: object) -> Seating:
    """``seating`` (a :class:`Seating`, which checks its own fields, or ``None`` for the
    first hand's); else :class:`~mjr.errors.TableError`."""
    if seating is None:
        return Seating()
    if not isinstance(seating, Seating):
        raise TableError(f"seating must be a mjr.table.Seating, not {type(seating).__name__}")
    return seating


__all__ = ["MAX_STAKE", "IllegalAction", "Seating", "Table", "checked_log", "checked_ruleset",
           "checked_seating", "checked_seed", "checked_stake", "tiles_of", "unplayable"]
