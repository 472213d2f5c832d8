"""The in-memory hand: tile counts, declared melds, the winning tile and its context.

Hands are plain frozen data, valid by construction: :class:`Hand`, :class:`Meld` and
:class:`Context` check their fields when built and raise :class:`HandFieldError`
naming the field and the bad value, so everything downstream (the kernels, the
notation writer, ``Result.to_json``) can trust them.  The notation module reads and
writes them as text and JSON, with its own positioned errors first; rulesets check
them against their own tile set and claims.  What each field may hold, and the
checks that name a bad one, are :mod:`mjr.hand.fields`.

A Hand and a Context keep every field in their ``__dict__`` (no slots; the trusted
constructors below fill it whole), where the compiled record writer of
:mod:`mjr.ruleset.records` reads them: a tenth of the cost of reading attributes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from ..abi import JOKER, MAX_FACT_NUMBER, MAX_FACT_TILES, ROBBED_PUNG, SEATS, SOURCES, WIN_METHODS
from ..errors import HandFieldError
from ..tiles.aside import aside_problem
from ..tiles.flowers import flowers_problem
from ..tiles.jokers import hand_jokers_problem, meld_joker_problem
from ..tiles.kinds import N_KINDS, tile_name
from ..tiles.red import red_problem
from .fields import (
    CHOW,
    CHOW_STARTS,
    FACT_NAME,
    KONG,
    MELD_KINDS,
    PUNG,
    RULED_OUT,
    FactValue,
    conflict,
    context_problem,
    facts_problem,
    kind_problem,
    meld_problem,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

#: The public names, the kinds, sources and checks of :mod:`mjr.hand.fields` among them.
__all__ = [
    "CHOW",
    "FACT_NAME",
    "FIRST_TURN_CLAIM",
    "KONG",
    "MAX_FACT_NUMBER",
    "MAX_FACT_TILES",
    "MELD_KINDS",
    "PUNG",
    "ROBBED_PUNG",
    "RULED_OUT",
    "SOURCES",
    "WIN_METHODS",
    "Context",
    "FactValue",
    "Hand",
    "HandFieldError",
    "Meld",
    "conflict",
    "context_problem",
    "copies",
    "facts_problem",
    "first_turn_claim",
    "hand_problem",
    "impossibility",
    "meld_problem",
]

_SOURCE_OR_NONE = (None, *SOURCES)
_KINDS = frozenset(range(N_KINDS))
_INT = frozenset({int})




@dataclass(frozen=True)
class Meld:
    """A declared set: ``[345p<L]`` chow, ``[555p]`` pung, ``[5555p]`` / ``(5555p)`` kong.

    ``tile`` is the lowest tile kind of the set.  ``source`` is the player the
    claimed tile came from (L left, O opposite, R right, or at a table of five or
    more the steps on in play order, 2-6, of a player no letter names), ``None``
    when unknown or for a concealed kong.  ``added`` marks a kong made by adding a drawn fourth tile
    to an exposed pung (补杠).  Only a kong is concealed or added, and a concealed
    kong has no source; a chow starts at rank 1-7 of a suit.
    """

    kind: str
    tile: int
    concealed: bool = False
    source: str | None = None
    added: bool = False
    #: the kinds its dedicated jokers stand for, sorted (see :mod:`mjr.tiles.jokers`): ``(4,)`` for ``[3J5m]``
    jokers: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        """One cheap test for the usual case; the detailed search only on failure."""
        if self.jokers or type(self.jokers) is not tuple:
            _store_sorted(self, "jokers", lambda jokers: meld_problem(self) or meld_joker_problem(self.tiles, jokers))
        tile = self.tile
        if not (
            type(tile) is int and 0 <= tile < N_KINDS
            and (self.kind == PUNG or self.kind == KONG or (self.kind == CHOW and tile in CHOW_STARTS))
            and self.source in _SOURCE_OR_NONE
            and (self.concealed is False or (self.concealed is True and self.kind == KONG and self.source is None))
            and (self.added is False or (self.added is True and self.kind == KONG and self.concealed is False))
        ):
            problem = meld_problem(self)
            if problem is not None:
                raise HandFieldError("Meld", *problem)

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == KONG else 3)


_MELD = frozenset({Meld})

@dataclass(frozen=True)
class Context:
    """Everything about a win that is not the tiles themselves.

    ``source`` names the player who discarded the winning tile, or whose kong was
    robbed (L, O, R, or 2-6 steps on: see :class:`Meld`).  ``seat`` is 0-7 (E S W
    N, then 5 6 7 8 at a table of five or more) and ``round`` a wind 0-3 (E S W N).  ``void`` is a
    declared void suit (0-2) where a region declares one.  A self-draw has no
    source and one winner; a robbed kong is not ``after_kong``.

    ``dealer`` says the winner deals; ``dealer_seat`` names another dealer's seat
    (0-7).  A ``dealer_seat`` equal to ``seat`` is read as ``dealer=True`` (and
    stored so), so each table has one form.  ``facts`` holds the facts of play a
    ruleset declares, as ``(name, value)`` pairs: ``True`` for a flag that holds
    (leave a false flag out), an int 0-1,000,000, or a tuple of tile kinds; they
    are stored sorted by name, tiles in kind order.
    """

    win_by: str = "discard"
    after_kong: bool = False
    last_tile: bool = False
    first_turn: bool = False
    dealer: bool = False
    seat: int = 0
    round: int = 0
    source: str | None = None
    indicator: int | None = None
    winners: int = 1
    void: int | None = None
    dealer_seat: int | None = None
    facts: tuple[tuple[str, FactValue], ...] = ()

    def __post_init__(self) -> None:
        """One cheap test for the usual case; the detailed search only on failure."""
        if self.dealer_seat is not None and self.dealer_seat == self.seat and not self.dealer:
            object.__setattr__(self, "dealer", True)
        if self.dealer and self.dealer_seat == self.seat:
            object.__setattr__(self, "dealer_seat", None)
        if self.facts and type(self.facts) is tuple:
            object.__setattr__(self, "facts", _sorted_facts(self.facts))
        if not (
            self.win_by in WIN_METHODS
            and type(self.after_kong) is bool and type(self.last_tile) is bool
            and type(self.first_turn) is bool and type(self.dealer) is bool
            and type(self.seat) is int and 0 <= self.seat < SEATS
            and type(self.round) is int and 0 <= self.round <= 3
            and self.source in _SOURCE_OR_NONE
            and (self.indicator is None or (type(self.indicator) is int and 0 <= self.indicator < N_KINDS))
            and type(self.winners) is int and 1 <= self.winners < SEATS
            and (self.void is None or (type(self.void) is int and 0 <= self.void <= 2))
            and (self.win_by == "discard" or (self.source is None and self.winners == 1 and not self.after_kong))
            and (self.dealer_seat is None or (type(self.dealer_seat) is int and 0 <= self.dealer_seat < SEATS
                                              and not self.dealer))
            and type(self.facts) is tuple and (not self.facts or facts_problem(self.facts) is None)
        ):  # the last line passes when no field RULED_OUT names is set; context_problem decides the rest
            problem = context_problem(self)
            if problem is not None:
                raise HandFieldError("Context", *problem)

    def __hash__(self) -> int:
        """Kept once worked out: every evaluation looks its context up."""
        try:
            return self.__dict__["_hash"]  # type: ignore[no-any-return]
        except KeyError:
            value = hash(tuple([getattr(self, name) for name in _CONTEXT_FIELDS]))
            object.__setattr__(self, "_hash", value)
            return value

    def __getstate__(self) -> dict[str, object]:
        """The fields, not the kept hash: a string's hash differs between processes."""
        return {name: getattr(self, name) for name in _CONTEXT_FIELDS}

    @property
    def self_draw(self) -> bool:
        return self.win_by == "self_draw"

    @property
    def dealer_wind(self) -> int | None:
        """The dealer's seat, or ``None`` when the context does not say."""
        return self.seat if self.dealer else self.dealer_seat

    def fact(self, name: str) -> FactValue | None:
        """The value given for fact ``name``, or ``None``."""
        for key, value in self.facts:
            if key == name:
                return value
        return None


_CONTEXT_FIELDS = tuple(f.name for f in fields(Context))


def _sorted_facts(facts: tuple[object, ...]) -> tuple[object, ...]:
    """Facts in name order, tiles in kind order, when they have the shape for it
    (a bad shape is left for :func:`facts_problem` to name)."""
    pairs: list[tuple[object, object]] = []
    for pair in facts:
        if type(pair) is not tuple or len(pair) != 2:
            return facts
        name, value = pair
        pairs.append((name, tuple(sorted(value)) if type(value) is tuple and _INT.issuperset(map(type, value))
                      else value))
    return tuple(sorted(pairs, key=lambda pair: str(pair[0])))


@dataclass(frozen=True)
class Hand:
    """Concealed tiles (sorted kinds, the winning tile not among them), melds in the
    order they were declared, the winning tile (``None`` for a waiting hand of 13),
    the context, and the flowers set aside.

    ``tiles`` and ``melds`` are tuples (a hand is hashable); a tile is a kind 0-33.
    ``flowers`` holds flower numbers 1-8, each at most once, stored sorted (see
    :mod:`mjr.tiles.flowers`); they are no part of the hand's shape.  ``red`` holds the
    kinds of the red fives among its tiles (see :mod:`mjr.tiles.red`), sorted.
    """

    tiles: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    win_tile: int | None = None
    context: Context = field(default_factory=Context)
    flowers: tuple[int, ...] = ()
    #: the kinds of the red fives among the hand's tiles (4, 13, 22: 5m 5p 5s), sorted
    red: tuple[int, ...] = ()
    #: the dedicated jokers among the concealed tiles, the winning tile not among them (mjr.tiles.jokers)
    jokers: int = 0
    #: the tiles set aside as drawn, of kinds the ruleset sets aside (mjr.tiles.aside): sorted
    #: kinds, a kind once for each copy
    aside: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        """One cheap test for the usual case; the detailed search only on failure."""
        win = self.win_tile
        if self.flowers:
            _store_sorted(self, "flowers", flowers_problem)
        if not (
            type(self.tiles) is tuple and _INT.issuperset(map(type, self.tiles)) and _KINDS.issuperset(self.tiles)
            and type(self.melds) is tuple and _MELD.issuperset(map(type, self.melds))
            and (win is None or (type(win) is int and 0 <= win < N_KINDS))
            and type(self.context) is Context
            and self.jokers == 0 and type(self.jokers) is int
            and not (self.context.first_turn and self.melds)  # first_turn_claim decides
        ):
            problem = hand_problem(self)
            if problem is not None:
                raise HandFieldError("Hand", *problem)
        if self.red or type(self.red) is not tuple:
            _store_sorted(self, "red", lambda red: red_problem(red, self.all_counts()))
        if self.aside or type(self.aside) is not tuple:
            _store_sorted(self, "aside", aside_problem)

    @property
    def all_jokers(self) -> int:
        """Every dedicated joker the hand holds: concealed, the winning tile, in melds."""
        return self.jokers + (self.win_tile == JOKER) + sum(len(meld.jokers) for meld in self.melds)

    def concealed_counts(self) -> bytes:
        """Counts of the 34 kinds among the concealed tiles, the winning tile included,
        as 34 bytes: immutable, so ``bytearray(...)`` or ``list(...)`` gives a copy to change.

        Computed once per hand, on first use, since every evaluation reads it; bytes is
        the form :meth:`mjr.Ruleset.evaluate_counts` takes.  A hand holding more than 255
        copies of a kind (no table deals one: see :func:`impossibility`) raises ValueError.
        """
        counts: bytes | None = self.__dict__.get("_concealed_counts")
        if counts is None:
            tally = bytearray(N_KINDS)
            try:
                for kind in self.tiles:
                    tally[kind] += 1
                if self.win_tile is not None and self.win_tile != JOKER:  # a joker is of no kind
                    tally[self.win_tile] += 1
            except ValueError:  # past 255
                raise ValueError(f"{max(self._concealed_tally())} concealed copies of a kind do not fit a byte "
                                 "count; mjr.hand.impossibility says why no table deals this hand") from None
            counts = self.__dict__["_concealed_counts"] = bytes(tally)
        return counts

    def _concealed_tally(self) -> list[int]:
        counts = [0] * N_KINDS
        for kind in self.tiles:
            counts[kind] += 1
        if self.win_tile is not None and self.win_tile != JOKER:
            counts[self.win_tile] += 1
        return counts

    def all_counts(self) -> list[int]:
        """Counts of every tile the hand holds, melds and winning tile included (a
        joker is of no kind: it is not counted)."""
        counts = self._concealed_tally()
        for meld in self.melds:
            for kind in meld.tiles:
                counts[kind] += 1
            for kind in meld.jokers:
                counts[kind] -= 1
        return counts

    @property
    def size(self) -> int:
        """Tiles as the deal counts them: a kong counts three."""
        return len(self.tiles) + self.jokers + 3 * len(self.melds) + (self.win_tile is not None)

    def with_win(self, tile: int) -> Hand:
        return Hand(self.tiles, self.melds, tile, self.context, self.flowers, self.red, self.jokers, self.aside)


def _store_sorted(owner: Meld | Hand, name: str,
                  problem_of: Callable[[Any], tuple[str, object, str] | None]) -> None:
    """Sort ``owner``'s tuple field ``name`` (of ints only: anything else is left for
    the check to name), then refuse it where ``problem_of`` the sorted value names a
    problem: a meld's jokers (after its other fields), a hand's flowers, red fives
    and tiles set aside."""
    value = getattr(owner, name)
    if type(value) is tuple and _INT.issuperset(map(type, value)):
        object.__setattr__(owner, name, value := tuple(sorted(value)))
    problem = problem_of(value)
    if problem is not None:
        raise HandFieldError(type(owner).__name__, *problem)


#: Every Context field at its default, the start of a Context built by trusted_context.
_CONTEXT_DEFAULTS = dict(vars(Context()))


def trusted_context(fields: dict[str, object]) -> Context:
    """A Context from fields already proven valid and in stored form (the notation's
    fast reader proves them while it reads): no checks, so a Context costs no more than
    a dict.  Public construction stays fully checked."""
    context = object.__new__(Context)
    state = _CONTEXT_DEFAULTS.copy()
    state.update(fields)
    object.__setattr__(context, "__dict__", state)
    return context


def trusted_hand(tiles: tuple[int, ...], melds: tuple[Meld, ...], win_tile: int | None, context: Context,
                 flowers: tuple[int, ...] = (), red: tuple[int, ...] = (), aside: tuple[int, ...] = (),
                 counts: bytes | None = None) -> Hand:
    """A Hand from fields already proven valid and in stored form, as
    :func:`trusted_context` (the fast reader reads no jokers); ``counts``, when
    given, are its :meth:`Hand.concealed_counts`, counted while it was read."""
    hand = object.__new__(Hand)
    state: dict[str, object] = {"tiles": tiles, "melds": melds, "win_tile": win_tile, "context": context,
                                "flowers": flowers, "red": red, "jokers": 0, "aside": aside}
    if counts is not None:
        state["_concealed_counts"] = counts
    object.__setattr__(hand, "__dict__", state)
    return hand


def hand_problem(hand: Hand) -> tuple[str, object, str] | None:
    """(field, value, reason) of the first bad field of a hand, or ``None``."""
    if not isinstance(hand.tiles, tuple):
        return "tiles", hand.tiles, "expected a tuple of tile kinds"
    for index, kind in enumerate(hand.tiles):
        problem = kind_problem(f"tiles[{index}]", kind)
        if problem is not None:
            return problem
    if not isinstance(hand.melds, tuple):
        return "melds", hand.melds, "expected a tuple of Meld"
    for index, meld in enumerate(hand.melds):
        if not isinstance(meld, Meld):
            return f"melds[{index}]", meld, "expected a Meld"
    if hand.win_tile != JOKER or type(hand.win_tile) is not int:
        problem = kind_problem("win_tile", hand.win_tile, optional=True)
        if problem is not None:
            return (*problem[:2], f"{problem[2]}; mjr.tiles.JOKER ({JOKER}) for a joker")
    problem = hand_jokers_problem(hand.jokers, hand.all_jokers if type(hand.jokers) is int else 0)
    if problem is not None:
        return problem
    if not isinstance(hand.context, Context):
        return "context", hand.context, "expected a Context"
    claimed = first_turn_claim(hand.melds, hand.context.first_turn)
    if claimed is not None:
        return f"melds[{claimed}]", hand.melds[claimed], f"{FIRST_TURN_CLAIM} (context.first_turn is True)"
    return None


#: Why a ``first_turn`` hand holds no exposed meld.
FIRST_TURN_CLAIM = "first_turn is the first go-round before any claim, and an exposed meld was claimed"


def first_turn_claim(melds: tuple[Meld, ...], first_turn: bool) -> int | None:
    """The index of the first exposed meld of a ``first_turn`` hand, or ``None``.

    ``first_turn`` means the first go-round before anyone claimed (hands that
    reward it are void once anyone chowed or ponged), and every exposed meld, an
    added kong included, was made by a claim; a concealed kong was not.  The readers ask
    before they build a Hand, so their errors can point at the word or the key.
    """
    if first_turn:
        for index, meld in enumerate(melds):
            if not meld.concealed:
                return index
    return None


def copies(hand: Hand, indicator_in_play: bool = False, robbed: int = ROBBED_PUNG) -> list[int]:
    """Copies of the 34 kinds the hand accounts for: its tiles, melds and winning
    tile, the flipped indicator (unless the ruleset puts it back in play), and the
    ``robbed`` copies in the robbed player's pung when the hand robs a kong of its
    winning tile (three, or one where wildcards may fill it: see
    :func:`mjr.abi.robbed_pung`), the tiles of tiles facts (birds drawn from the
    wall are real tiles) and the tiles set aside."""
    counts = hand.all_counts()
    for kind in hand.aside:
        counts[kind] += 1
    if hand.context.indicator is not None and not indicator_in_play:
        counts[hand.context.indicator] += 1
    for _, value in hand.context.facts:
        if type(value) is tuple:
            for kind in value:
                counts[kind] += 1
    if hand.context.win_by == "robbing_kong" and hand.win_tile is not None and hand.win_tile != JOKER:
        counts[hand.win_tile] += robbed
    return counts




def impossibility(hand: Hand, indicator_in_play: bool = False, robbed: int = ROBBED_PUNG) -> str | None:
    """Why no real table could produce this hand, or ``None``.

    A fifth copy of a kind (see :func:`copies`: the indicator out of play and a
    robbed pung's ``robbed`` copies count) or a tile count that is not 3n+1 / 3n+2.
    """
    counts = copies(hand, indicator_in_play, robbed)
    if max(counts) > 4:
        kind = next(kind for kind, n in enumerate(counts) if n > 4)
        return _too_many(hand, kind, counts[kind], indicator_in_play, robbed)
    wanted = 2 if hand.win_tile is not None else 1
    if hand.size % 3 != wanted:
        what = "a winning hand" if hand.win_tile is not None else "a waiting hand"
        return f"{hand.size} tiles is not a size for {what} (3n+{wanted})"
    return None


def _too_many(hand: Hand, kind: int, count: int, indicator_in_play: bool, robbed: int) -> str:
    """The message for ``count`` copies of ``kind``, naming the copies counted
    outside the hand."""
    extra, hint = [], ""
    if kind == hand.context.indicator and not indicator_in_play:
        extra.append("the indicator")
    if kind == hand.win_tile and hand.context.win_by == "robbing_kong":
        if robbed == ROBBED_PUNG:
            extra.append("the three in the robbed player's pung")
            hint = "; a hand that robs a kong holds no other copy of the robbed tile"
        else:
            extra.append("the one in the robbed player's pung, its other places wildcards")
    if kind in hand.aside:
        extra.append("those set aside")
    beyond = f" (with {' and '.join(extra)})" if extra else ""
    return f"{count} copies of {tile_name(kind)}{beyond}: there are only 4{hint}"
