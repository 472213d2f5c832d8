"""The state of one hand in play: what a :class:`~mjr.table.Table` has dealt, who
holds what, whose turn it is and in which phase, the tile on offer, and what the
hand has paid and won so far.

This is data, read by the modules that work out what it comes to under the ruleset
(:mod:`mjr.table.hands`, :mod:`mjr.table.close`, :mod:`mjr.table.wild`) and changed
only by the referee, :class:`mjr.table.Table`.  What changes together is one value
replaced whole: the turn's tile and how it came (:class:`TurnTile`), the offer
and its answers (:class:`Offer`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..abi import PLACE_SOURCES, SEAT_NAMES
from ..ruleset.loaded import Ruleset
from ..ruleset.result import Result
from .actions import Action
from .seats import Player, Seating
from .wall import Wall


class Phase(str, enum.Enum):
    """What the table waits for.  A phase is its word too (``table.phase == "draw"``),
    shown and compared as that word."""

    DECLARE = "declare"  # each player declares a void suit (void_suit declared)
    DRAW = "draw"  # the turn's player draws (or passes a roaming last tile)
    REPLACE = "replace"  # a kong's maker draws its replacement, or opens the kong (open_kong)
    DISCARD = "discard"  # the turn's player discards, kongs or wins on the tile drawn
    CLAIM = "claim"  # the others answer a discard
    ROB = "rob"  # the others answer the added tile of a kong: rob it or pass
    OVER = "over"  # the hand is over

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return repr(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    @property
    def offered(self) -> bool:
        """Whether the others answer a tile on offer (a discard, or a kong's added tile)."""
        return self in (Phase.CLAIM, Phase.ROB)


@dataclass(frozen=True)
class TurnTile:
    """The tile the turn goes by and how it came: replaced whole as play moves on,
    so that each step of play sets all of it at once.  A new turn is ``TurnTile()``."""

    drawn: int | None = None  # the tile just drawn, which a self-draw wins on
    drawn_red: bool = False  # ... its red copy
    after_kong: bool = False  # it is a kong's replacement
    opened: bool = False  # ... an opened kong's (open_kong)
    last_draw: bool = False  # it (or the discard on the table) came after the last draw
    discard_after_kong: bool = False  # the discard last made was made after a kong's replacement
    discard_opened: bool = False  # ... after an opened kong's

    def drew(self, tile: int, replacement: bool, opened: bool, last: bool, red: bool = False) -> TurnTile:
        """The turn after drawing ``tile`` (a kind; its ``red`` copy or not): a kong's
        ``replacement`` or not, of an ``opened`` kong or not, the ``last`` draw of the
        wall or not."""
        return TurnTile(tile, red, replacement, opened, last, self.discard_after_kong, self.discard_opened)

    def discarded(self) -> TurnTile:
        """The turn after its discard, which carries how the tile before it came."""
        return TurnTile(last_draw=self.last_draw, discard_after_kong=self.after_kong,
                        discard_opened=self.opened)

    def claimed(self) -> TurnTile:
        """The claimer's turn: no tile drawn, not after a kong or the last draw (the
        claimed discard's flags stay until the next discard or turn)."""
        return TurnTile(None, False, False, self.opened, False, self.discard_after_kong, self.discard_opened)

    def konged(self) -> TurnTile:
        """The turn after its maker's own kong of the tile drawn: the tile is melded."""
        return TurnTile(None, False, self.after_kong, self.opened, self.last_draw, self.discard_after_kong,
                        self.discard_opened)


@dataclass(frozen=True)
class Offer:
    """A tile before the other players: the discard (or a kong's added tile, to be
    robbed) of ``seat``, who may answer it and how, and the answers so far."""

    seat: int
    tile: int
    options: dict[int, list[Action]] = field(default_factory=dict)
    answers: dict[int, Action] = field(default_factory=dict)
    red: bool = False  # the tile is a red five
    #: the flag fact the discard's declaration (``declare``) sets once the discard passes; "" for none
    declaring: str = ""
    concealed: bool = False  # the tile of a concealed kong, to be robbed (``rob_concealed``)

    def answered(self, action: Action) -> Offer:
        """The offer with ``action`` its seat's answer."""
        return Offer(self.seat, self.tile, self.options, {**self.answers, action.seat: action}, self.red,
                     self.declaring, self.concealed)

    @property
    def waiting(self) -> dict[int, list[Action]]:
        """Who is still to answer, and how they may."""
        return {seat: actions for seat, actions in self.options.items() if seat not in self.answers}

    @property
    def complete(self) -> bool:
        return len(self.answers) == len(self.options)


#: The table itself as a party to a payment (a :class:`Payment`'s payer or payee):
#: the stakes of declarations go onto it, and a ``table pays`` clause pays from it.
ON_TABLE = -1


@dataclass(frozen=True)
class Payment:
    """One payment of a hand of play, by seat (0-7, or :data:`ON_TABLE` for the
    deposits on the table), with the clause behind it."""

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
    """How a hand ended: drawn or not (aborted, by which ``abort``), the payments of
    its close, and the next hand's seating."""

    drawn: bool
    closing: tuple[Payment, ...]
    next_seating: Seating
    ready: tuple[bool, ...] = ()  # per seat, at an exhaustive draw
    aborted: str = ""  # the ``abort`` that ended the hand, "" for none


class TableState:
    """One hand in play under ``ruleset``, dealt from ``wall`` (not yet dealt when
    made: :func:`mjr.table.deal.deal` deals it)."""

    def __init__(self, ruleset: Ruleset, wall: Wall, seating: Seating, stake: int, seed: int):
        self.ruleset = ruleset
        self.rules = ruleset.play
        self.seating = seating
        self.stake = stake
        self.seed = seed
        self.wall = wall
        #: the kinds set aside as drawn, like flowers (tiles ... aside(...)): in the wall, never in play
        self.aside_kinds = ruleset.aside_kinds
        #: how many players the table seats (the ruleset's ``seats``): seats 0 to seats - 1
        self.seats = ruleset.seats
        self.players = [Player() for _ in range(self.seats)]
        self.indicator: int | None = None
        #: the flowers, kinds set aside and jokers flipped where the indicator is, set aside (no player's)
        self.set_aside: list[int] = []
        # the wildcard kinds of the hand, once the indicator is flipped, and the dedicated jokers
        self.wild: frozenset[int] = frozenset()
        self.forbidden: tuple[str, ...] = ruleset.generated.wild_forbidden
        #: the claims the ruleset allows, each with the places of the discarder it may be
        #: made from (``chow(left)``: ``L``), none for any
        self.claim_places = {claim: frozenset(PLACE_SOURCES[word] for word in words if word in PLACE_SOURCES)
                             for claim, words in ruleset.claims.items()}
        self.payments: list[Payment] = []
        self.wins: list[WinRecord] = []
        #: the hand's record, line by line as its log has them (mjr.table.record)
        self.events: list[dict[str, object]] = []
        self.outcome: HandOutcome | None = None
        self.turn = seating.dealer  # the seat whose turn it is
        self.phase = Phase.DECLARE if self.rules.void_suit == "declared" else Phase.DRAW
        self.turn_tile = TurnTile()
        self.offer: Offer | None = None  # the discard or robbed kong on offer
        self.first_offered: int | None = None  # who was offered a roaming last tile first
        self.last_drawer: int | None = None  # who drew the last tile (or, all passing it, was offered it first)
        self.claimed = False  # anyone has claimed or konged: no first turn any more
        self.feeds: list[tuple[int, int, int]] = []  # (claimer, discarder, the claimer's claimed melds with it)
        #: the first discard of each kind this hand: [its discarder, its claimer (-1: none), its
        #: number among the hand's discards] (the tests first_discard T, claimed_first T, fed_first T)
        self.first_discards: dict[int, list[int]] = {}
        self.discards_made = 0  # the hand's discards so far, claimed or not
        #: the tiles ``reveal`` sets in the dead wall (kinds), the one turned up first
        #: first, and the tile under each
        self.revealable: list[int] = []
        self.under: list[int] = []
        self.kongs = 0  # kongs made this hand (each reveals one more tile under ``reveal ... per_kong``)
        #: while wins are scored, the winner the deposits go to (the first in turn); None: any winner
        self.deposit_taker: int | None = None

    # -- small queries ---------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def net(self) -> list[int]:
        """Each seat's net result from every payment so far (the table's deposits
        are no seat's: see :attr:`deposits`)."""
        net = [0] * self.seats
        for payment in self.payments:
            if payment.payer != ON_TABLE:
                net[payment.payer] -= payment.amount
            if payment.payee != ON_TABLE:
                net[payment.payee] += payment.amount
        return net

    @property
    def deposits(self) -> int:
        """The points on the table now: those the seating brought, the stakes put
        on it this hand, less what wins took from it."""
        put = sum(p.amount for p in self.payments if p.payee == ON_TABLE)
        return self.seating.deposits + put - sum(p.amount for p in self.payments if p.payer == ON_TABLE)

    @property
    def may_kong(self) -> bool:
        """Whether another kong may be made: under ``reveal ... after M`` a hand has
        at most M, the replacement tiles kept."""
        reveal = self.rules.reveal
        return reveal is None or reveal.after == 0 or self.kongs < reveal.after

    @property
    def revealed(self) -> tuple[int, ...]:
        """The tiles ``reveal`` has turned up so far: those of the deal, and one
        more per kong where it says ``per_kong``."""
        reveal = self.rules.reveal
        if reveal is None:
            return ()
        return tuple(self.revealable[:reveal.count + (self.kongs if reveal.per_kong else 0)])

    def may_use(self, tile: int, *uses: str) -> bool:
        """Whether ``wildcard may_not`` lets ``tile`` (a kind, or a joker) be put to these uses."""
        return tile not in self.wild or not any(use in self.forbidden for use in uses)

    def next_in_play(self, seat: int) -> int:
        """The next seat after ``seat`` still in the hand."""
        for step in range(1, self.seats):
            candidate = (seat + step) % self.seats
            if not self.players[candidate].out:
                return candidate
        return seat

    def seat_of(self, name: str) -> int:
        """The seat of a seat's name this hand (``E S W N 5 6 7 8``, the dealer's E)."""
        return (self.seating.dealer + SEAT_NAMES.index(name)) % self.seats


__all__ = ["ON_TABLE", "HandOutcome", "Offer", "Payment", "Phase", "TableState", "TurnTile", "WinRecord"]
