"""A loaded ruleset: the generated module behind a small, stable API.

The generated module does the work (decompositions, fans, totals) on arrays; this
class turns hands into those arrays and the module's answers into :class:`Result`.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from types import ModuleType

from ..abi import (
    GROUP_CONCEALED,
    GROUP_DECLARED,
    GROUP_KINDS,
    GROUP_KNIT_SHIFT,
    GROUP_WINNING,
    JOKER,
    SHAPES,
    STATUS_METHOD,
    STATUS_MINIMUM,
    STATUS_NEEDS_WIN_TILE,
    STATUS_OVERFLOW,
    STATUS_REFUSED,
    STATUS_REQUIREMENT,
    STATUS_SHAPE,
    STATUS_WIN,
    knitted_kinds,
)
from ..errors import BatchError, HandError, MjrError, did_you_mean
from ..hand.model import Context, Hand, copies, impossibility
from ..notation.parse import format_hand, parse_hand
from ..options import OptionInfo, describe
from ..options import Value as OptionValue
from ..tiles.kinds import FIRST_HONOR, N_KINDS, tile_name
from ..tiles.red import RED_KINDS
from . import checks
from . import kernels as tables
from .batches import OVERFLOWED as OVERFLOWED  # the marks of a batch's arrays, named here too
from .batches import REFUSED as REFUSED
from .batches import BatchScores, Unpacked, record_view, run_batch
from .counts import Buffer, batch_view, win_tiles_view, zeros
from .module import read_module
from .records import RecordCodec, numpy_dtype
from .result import FanLine, Group, Result, Settlement, Stakes, Wait, lazy_result
from .rules_of_play import PlayRules
from .settle import amounts_by_seat, settle

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import Any

_NO_FANS = array("Q")  # the fans' bits of a batch that keeps none

_OVERFLOW = ("the points of this hand pass the 64-bit integers mjr counts in ({id}'s score formula "
             "or a payment amount): the ruleset needs a cap")




@dataclass(frozen=True)
class FanInfo:
    id: str
    name: str
    kind: str
    file: str
    line: int
    source: str
    excludes: tuple[str, ...]


class Ruleset:
    """One region's rules, compiled.  Use :func:`mjr.load` to get one.

    The generated module holds constants only; every call keeps its working state
    to itself, so any number of threads may use one ruleset at once."""

    def __init__(self, module: ModuleType, backend: str):
        #: the generated module itself, for a program that wants it as loaded; the
        #: runtime reads its tables and entry points through :attr:`generated` only
        self.module = module
        #: the generated module's constants, typed, and its entry points (:class:`GeneratedModule`)
        self.generated = generated = read_module(module)
        self.backend = backend
        self.id = generated.id
        self.title = generated.title
        self.native_title = generated.native_title
        self.sources = generated.sources
        self.kinds = generated.kinds
        self.deal = generated.deal
        #: how many players the table seats (``seats``): the winds E S W N in play
        #: order, the first ``seats`` of them
        self.seats = generated.seats
        self.claims = generated.claims
        self.win_methods = generated.win_methods
        self.fans = tuple(FanInfo(*row) for row in generated.fans)
        self._fan_index = {fan.id: i for i, fan in enumerate(self.fans)}
        #: whether the ruleset has wildcards (fixed, or derived from an indicator)
        self.has_wildcards = generated.has_wildcards
        #: whether the flipped indicator goes back into play (``indicator in_play``)
        self.indicator_in_play = generated.indicator_in_play
        standard, seven_pairs, orphans, knitted = generated.shapes
        self._shapes = (standard, seven_pairs, orphans)
        #: whether each suit is whole or absent: the table kernel's wildcards may stand
        #: for any kind of a suit, and a suit with kinds left out (without(...)) needs the search
        self._whole_suits = all(len({*range(9 * s, 9 * s + 9)} & generated.kinds) in (0, 9) for s in range(3))
        #: the most declared melds a hand with a knitted straight may have (-1: none may have one)
        self._knitted_melds = (generated.deal - 1) // 3 - 3 if standard and knitted else -1
        #: the kinds of the tile set in order: each a tile that may complete a hand one short
        self._kinds_in_order = tuple(sorted(generated.kinds))
        #: the kinds an indicator may be (those of the tile set, where one makes a wildcard)
        self._indicators = generated.kinds if generated.wild_derived else frozenset()
        #: the kind the ``wildcard stand_in`` tile plays as, by the indicator flipped (-1: its own)
        self._stand_in_targets = {indicator: checks.stand_in_target(generated, generated.wildcard_flags(indicator))
                                  for indicator in (None, *range(N_KINDS))}
        #: the facts of play the ruleset declares, by id
        self.facts = generated.facts
        #: the table options a game may choose (:class:`mjr.OptionInfo`), and the
        #: value of each option this ruleset was built with (fixed ones too)
        self.option_table: tuple[OptionInfo, ...] = tuple(OptionInfo(*row) for row in generated.options)
        self.options: dict[str, OptionValue] = dict(generated.chosen)
        #: the shape names by kernel number: the built-in ones, then the declared ones
        self.shape_ids: tuple[str, ...] = (*SHAPES, *(ident for ident, _ in generated.declared_shapes))
        #: whether scoring needs each hand's winning tile (a batch must give them)
        self.uses_win_tile = generated.uses_win_tile
        self._shared: dict[Hand | str | None, tuple[Context, bytes, str | None]] = {}
        #: this ruleset's hand records (see :meth:`evaluate_batch`)
        #: whether the tile set has flowers (a hand may hold some, set aside: mjr.tiles.flowers)
        self.has_flowers = generated.flowers
        #: whether the tile set has red fives (0m 0p 0s: mjr.tiles.red)
        self.has_red = generated.red_fives
        #: the kinds of which the tile set has a red copy: the suits' 5s in play where it has red fives
        self.red_kinds = frozenset(kind for kind in RED_KINDS if kind in self.kinds) if self.has_red else frozenset()
        #: the kinds the tile set sets aside when drawn (``aside(...)``: mjr.tiles.aside), none in play
        self.aside_kinds = generated.aside
        #: how a hand is played beyond how a win scores (:class:`mjr.ruleset.rules_of_play.PlayRules`)
        self.play = PlayRules.from_module(generated.play)
        #: the dedicated joker tiles of the tile set (``jokers N``: mjr.tiles.jokers), 0 for none
        self.jokers = generated.jokers
        tiles_facts = sum(1 for fact in self.facts.by_id.values() if fact.kind == "tiles")
        tiles_at = generated.record_tiles_at
        self.records = RecordCodec(generated.record_size, generated.record_max_melds, generated.record_facts_at,
                                   tiles_at, self.facts, self.has_flowers, self.has_red,
                                   self.jokers, tiles_at + 34 * tiles_facts if generated.aside else -1)

    @property
    def choices(self) -> dict[str, OptionValue]:
        """The value of each option of the table (the options a variant fixes left
        out): what loading this ruleset again by name takes to give this build."""
        return {option.name: self.options[option.name] for option in self.option_table}

    def chosen_text(self) -> str:
        """The options chosen where they are not the defaults, as the command line
        writes them (``ghost=flip tiles=108``); empty for the defaults."""
        return describe((option.name, self.options[option.name]) for option in self.option_table
                        if self.options.get(option.name) != option.default)

    def __repr__(self) -> str:
        chosen = f" {describe(self.options.items())}" if self.options else ""
        return f"<Ruleset {self.id}{chosen} ({self.backend})>"

    # -- hands -------------------------------------------------------------------

    def read_hand(self, text: str) -> Hand:
        """A hand in the notation, read with this ruleset's facts of play, flowers
        and red fives (what the tile set lacks is refused at its character)."""
        return parse_hand(text, self.facts.kinds, self.has_flowers, self.has_red, self.jokers, self.aside_kinds)

    def _hand(self, hand: Hand | str, what: str = "a hand") -> Hand:
        if isinstance(hand, str):
            return self.read_hand(hand)
        if not isinstance(hand, Hand):
            raise HandError(f"{what} must be a Hand or a hand string such as '123m 456m 789m 123p 44p', "
                            f"not {type(hand).__name__}")
        return hand

    def check_hand(self, hand: Hand | str, winning: bool) -> None:
        """Raise HandError when the hand (or its text) is impossible or outside this
        ruleset's tiles and claims."""
        if type(hand) is not Hand:
            hand = self._hand(hand)
        problem = impossibility(hand, self.indicator_in_play, self.generated.robbed_pung)
        if problem is None:
            problem = checks.outside_rules(self.generated, hand, winning)
        if problem is not None:
            raise HandError(problem)

    def wildcard_kinds(self, hand: Hand) -> bytearray:
        """34 flags: the kinds that are wildcards for this hand."""
        return self.generated.wildcard_kinds(hand)

    # -- evaluation --------------------------------------------------------------

    def evaluate(self, hand: Hand | str) -> Result:
        """The best-scoring way ``hand`` (with its winning tile) wins, or why not."""
        if type(hand) is not Hand:
            hand = self._hand(hand)
        if hand.win_tile is None:
            raise HandError("a hand to evaluate needs its winning tile: add 'win T'")
        record = self.records.record(hand)
        answer = self.generated.evaluate_record(record) if record is not None else self._run(hand)
        if answer[0] == STATUS_WIN:  # (_answer's first case, written out: most hands asked about win)
            return lazy_result(answer[1], hand, self, answer[2])
        return self._answer(hand, answer)

    def _run(self, hand: Hand) -> tuple[int, Any, Any]:
        """The module's answer for a hand: a status (mjr.abi.STATUS_*) and its
        details.  The module checks the hand as :meth:`check_hand` does."""
        record = self.records.record(hand)
        if record is None:  # more melds than sets, or an undeclared fact: check_hand says which
            self.check_hand(hand, winning=hand.win_tile is not None)
            raise AssertionError(f"a hand check_hand accepts has no record: {format_hand(hand)}")
        return self.generated.evaluate_record(record)

    def _answer(self, hand: Hand, answer: tuple[int, Any, Any]) -> Result:
        """The :class:`Result` of the module's answer; a refused hand raises
        :class:`HandError`, in :meth:`check_hand`'s words."""
        status, details, state = answer
        if status == STATUS_WIN:
            return lazy_result(details, hand, self, state)
        if status == STATUS_OVERFLOW:
            raise HandError(_OVERFLOW.format(id=self.id))
        if status >= STATUS_REFUSED:
            self.check_hand(hand, winning=True)
            raise AssertionError(f"the module refused a hand check_hand accepts: {format_hand(hand)}")
        if status == STATUS_METHOD:
            method = hand.context.win_by.replace("_", " ")
            return Result(False, f"{self.id} does not allow winning by {method}", hand=hand)
        return Result(False, self._reason(status, details), hand=hand)

    def _reason(self, status: int, details: int) -> str:
        if status == STATUS_REQUIREMENT:
            ident, name = self.generated.requirements[details]
            return f"fails requirement {ident} ({name})"
        if status == STATUS_MINIMUM:
            return f"below the minimum of {self.generated.minimum} fan"
        return "the tiles do not form a complete hand"

    def lazy_field(self, name: str, state: Any, hand: Hand | None) -> Any:
        """A field of a winning result, computed when first read from the module's
        state of its evaluation (see :func:`lazy_result`)."""
        generated = self.generated
        if name == "amounts":
            return amounts_by_seat(hand.context.seat if hand is not None else 0, generated.best_amounts(state))
        if name == "fans":
            return tuple([self._fan_line(i, int(value)) for i, value in generated.best_awards(state)])
        if name == "from_table":
            return tuple([(generated.payments[i][0], int(amount)) for i, amount in generated.best_taken(state)])
        if name == "groups":
            return tuple([_group(kind, tile, flags) for kind, tile, flags in generated.best_groups(state)])
        return tuple([(tile_name(k), int(n)) for k, n in generated.best_wildcards(state)])

    @lru_cache(maxsize=4096)  # noqa: B019 - a Ruleset lives as long as its module
    def _fan_line(self, index: int, value: int) -> FanLine:
        fan = self.fans[index]
        return FanLine(fan.id, fan.name, fan.kind, value)

    def is_win(self, hand: Hand | str) -> bool:
        """Whether the tiles form a complete hand (a table look-up; no scoring, no
        requirements).  The hand is checked as :meth:`evaluate` checks it; without
        a ``win`` tile, its last concealed tile is taken as the winning one."""
        hand = self._hand(hand)
        if hand.win_tile is None and hand.tiles:
            hand = Hand(hand.tiles[:-1], hand.melds, hand.tiles[-1], hand.context, hand.flowers, jokers=hand.jokers)
        self.check_hand(hand, winning=True)
        return self._completes(hand)

    def _completes(self, hand: Hand) -> bool:
        """:meth:`is_win` of a checked hand: the built-in shapes by the table kernel,
        then the declared shapes (whose conditions only the ruleset's module knows)."""
        counts = bytearray(hand.concealed_counts())
        jokers = hand.jokers + (hand.win_tile == JOKER)  # dedicated jokers, beside the wild kinds
        complete = self._shape_completes(counts, jokers, len(hand.melds), hand.context.indicator)
        if complete is not None:
            return complete
        status = self._run(hand)[0]
        return status != STATUS_SHAPE and status < STATUS_REFUSED

    def shape_completes(self, counts: bytes | bytearray | list[int], jokers: int, melds: int,
                        indicator: int | None) -> bool | None:
        """Whether a hand's concealed tiles, 34 ``counts`` (the winning tile among
        them) and ``jokers`` dedicated jokers, with ``melds`` declared melds (a kong
        counted as three tiles), form a complete hand by a shape of the ruleset, the
        wildcards being those ``indicator`` makes (``None``: none flipped): a look-up
        in the table kernel, and for the declared shapes a test of the tiles held, no
        hand built.  ``None`` where only a whole hand can tell: a declared shape that
        reads more than the tiles held (the context, a fact, a wildcard, the melds'
        tiles), or a wildcard in a tile set with a suit cut short.  Arguments that
        make no hand of the ruleset's winning size raise :class:`HandError` naming
        the argument."""
        held = self._shape_arguments(counts, jokers, melds, indicator, self.deal + 1)
        return self._shape_completes(held, jokers, melds, indicator)

    def shape_may_wait(self, counts: bytes | bytearray | list[int], jokers: int, melds: int,
                       indicator: int | None) -> bool:
        """Whether some tile may complete a hand one tile short, its arguments as
        :meth:`shape_completes` takes them (the tiles one fewer): false only where
        none can (a joker for the missing tile completes no built-in shape, and the
        ruleset has no shape of its own nor a knitted straight, whose tiles must be
        real)."""
        held = self._shape_arguments(counts, jokers, melds, indicator, self.deal)
        if melds <= self._knitted_melds:
            return True
        as_given = bytes(held) if self.generated.declared_shapes else None  # (the built-in look-up works on held)
        if self._built_in_shape(held, jokers + 1, melds, indicator) is not False:
            return True
        return as_given is not None and self._declared_may_wait(as_given, jokers, melds, indicator)

    def _shape_arguments(self, counts: object, jokers: object, melds: object, indicator: object,
                         size: int) -> bytearray:
        """A copy of ``counts`` once the arguments of :meth:`shape_completes` are
        checked to make a hand of ``size`` tiles; else :class:`HandError` naming the
        argument (:meth:`_shape_problem`).  The table asks at every step: one test
        of the whole, the reason worked out only for arguments that fail it."""
        try:
            held = bytearray(counts) if isinstance(counts, _COUNTS) else None
        except (TypeError, ValueError):
            held = None
        if held is not None and len(held) == N_KINDS and max(held) <= 4 and type(jokers) is int and \
                type(melds) is int and 0 <= jokers <= self.jokers and melds >= 0 and \
                sum(held) + jokers + 3 * melds == size and (indicator is None or (
                    type(indicator) is int and indicator in self._indicators)):
            return held
        raise HandError(self._shape_problem(held, counts, jokers, melds, indicator, size))

    def _shape_problem(self, held: bytearray | None, counts: object, jokers: object, melds: object,
                       indicator: object, size: int) -> str:
        """What is wrong with arguments :meth:`_shape_arguments` refused."""
        if not isinstance(counts, _COUNTS):
            return f"counts must be 34 counts (bytes, bytearray or a list of ints 0-4), not {type(counts).__name__}"
        if held is None:
            return "counts must be 34 whole numbers 0-4"
        if len(held) != N_KINDS or max(held) > 4:
            return (f"counts must be 34 whole numbers 0-4, one per kind, not {len(held)} numbers up to "
                    f"{max(held, default=0)}")
        for name, value in (("jokers", jokers), ("melds", melds)):
            if type(value) is not int or value < 0:
                return f"{name} must be a whole number 0 or more, not {value!r}"
        assert isinstance(jokers, int) and isinstance(melds, int)
        if jokers > self.jokers:
            return f"jokers: {self.id} has {self.jokers} dedicated jokers, not {jokers}"
        tiles = sum(held) + jokers + 3 * melds
        if tiles != size:
            return f"the counts, jokers and melds (three tiles each) make {tiles} tiles; here a hand has {size}"
        return (f"indicator must be None or a kind of {self.id}'s tile set where it has a wildcard from an "
                f"indicator, not {indicator!r}")

    def _shape_completes(self, counts: bytearray, jokers: int, melds: int, indicator: int | None) -> bool | None:
        """:meth:`shape_completes` of checked arguments, ``counts`` worked on in place."""
        if not self.generated.declared_shapes:
            return self._built_in_shape(counts, jokers, melds, indicator)
        moved = self.generated.wild_kinds(indicator) or self._stand_in_targets[indicator] >= 0
        tiles = self._tiles_held(counts, indicator) if moved else counts  # (before the look-up moves wildcards)
        built_in = self._built_in_shape(counts, jokers, melds, indicator)
        return built_in if built_in is not False else self._declared_shape(tiles, melds)

    def _tiles_held(self, counts: bytes | bytearray, indicator: int | None) -> bytes | bytearray:
        """The tiles as a declared shape sees them: each wildcard as its own kind, the
        stand-in tile as the kind it plays."""
        target = self._stand_in_targets[indicator]
        if target < 0:
            return bytes(counts)
        tiles = bytearray(counts)
        stand_in = self.generated.wild_stand_in
        tiles[target] += tiles[stand_in]
        tiles[stand_in] = 0
        return tiles

    def _declared_shape(self, tiles: bytes | bytearray, melds: int) -> bool | None:
        """Whether a declared shape holds for the tiles held and ``melds`` declared
        melds, from the module's test of the tiles; ``None`` where it cannot tell."""
        found = self.generated.declared_shape_of_tiles(tiles, melds)
        return None if found < 0 else found == 1

    def _declared_may_wait(self, counts: bytes, jokers: int, melds: int, indicator: int | None) -> bool:
        """Whether some tile, or a dedicated joker, may complete a hand one tile short
        by a declared shape (``counts``: its concealed counts, as given)."""
        for kind in self._kinds_in_order:
            if counts[kind] < 4:
                one_more = bytearray(counts)
                one_more[kind] += 1
                if self._declared_shape(self._tiles_held(one_more, indicator), melds) is not False:
                    return True
        # a dedicated joker is no tile held: the tiles as they are, where one may be the last tile
        return jokers < self.jokers and self._declared_shape(self._tiles_held(counts, indicator), melds) is not False

    def _built_in_shape(self, counts: bytearray, jokers: int, melds: int, indicator: int | None) -> bool | None:
        """Whether checked arguments complete a built-in shape (the table kernel),
        ``counts`` worked on in place; ``None`` where a wildcard may stand for a kind
        left out of the tile set."""
        for kind in self.generated.wild_kinds(indicator):
            jokers += counts[kind]
            counts[kind] = 0
        target = self._stand_in_targets[indicator]
        if target >= 0:
            stand_in = self.generated.wild_stand_in
            counts[target], counts[stand_in] = counts[stand_in], 0
        if jokers and not self._whole_suits:  # a wildcard may not stand for a kind left out
            return None
        if self._built_in_completes(counts, jokers, bool(melds)):
            return True
        return melds <= self._knitted_melds and _knitted_completes(counts, jokers)

    def _built_in_completes(self, counts: bytearray, jokers: int, melds: bool) -> bool:
        standard, seven_pairs, orphans = self._shapes
        if melds:
            seven_pairs, orphans = 0, False
        if standard:
            return bool(tables.is_win(counts, jokers, False, seven_pairs, orphans))
        return bool(seven_pairs and tables.seven_pairs_need(counts, seven_pairs == 2) <= jokers) or bool(
            orphans and tables.orphans_need(counts) <= jokers
        )

    def held_amounts(self, hand: Hand | str) -> tuple[int, ...]:
        """The held amounts of the ruleset's draw checks and end payments (``(EXPR) of
        payer`` or ``of payee``), in file order, worked out on ``hand``: a player's
        tiles and melds at the end of a hand, its winning tile among them where it has
        one, in its context (its seat, the facts of play).  A hand of 13 tiles, or of
        14 with its winning tile; an impossible one raises :class:`HandError`."""
        if type(hand) is not Hand:
            hand = self._hand(hand)
        self.check_hand(hand, winning=hand.win_tile is not None)
        record = self.records.record(hand)
        if record is None:
            raise AssertionError(f"a hand check_hand accepts has no record: {format_hand(hand)}")
        return tuple(self.generated.held_values(record))

    def waits(self, hand: Hand | str) -> list[Wait]:
        """Every tile that completes a 13-tile hand, with the best result on it."""
        return [wait for wait, status in self._completions(hand) if status == STATUS_WIN]

    def near_misses(self, hand: Hand | str) -> list[Wait]:
        """The tiles that complete the shape of a 13-tile hand but do not win with it,
        each with a result that says why (a requirement it fails, the minimum, a win
        method the ruleset lacks).  Never among :meth:`waits`."""
        return [wait for wait, status in self._completions(hand) if status != STATUS_WIN]

    def ready_tiles(self, hand: Hand | str) -> list[Wait]:
        """The tiles on which a 13-tile hand is ready: each that completes it to a
        win, or to a hand that falls short of the ruleset's ``minimum`` alone (a hand
        with no scoring pattern yet is ready all the same: 形式聴牌), with its result.
        The waits, and the near misses for the minimum."""
        return [wait for wait, status in self._completions(hand) if status in (STATUS_WIN, STATUS_MINIMUM)]

    def _completions(self, hand: Hand | str) -> list[tuple[Wait, int]]:
        """Every tile that completes the shape of a 13-tile hand, with its result and
        the module's status (mjr.abi.STATUS_*)."""
        hand = self._hand(hand)
        if hand.win_tile is not None:
            raise HandError("waits takes a hand without its winning tile (drop 'win T')")
        self.check_hand(hand, winning=False)
        held = copies(hand, self.indicator_in_play, self.generated.robbed_pung)
        robbed = self.generated.robbed_pung if hand.context.win_by == "robbing_kong" else 0
        counts, melds, indicator = bytearray(hand.concealed_counts()), len(hand.melds), hand.context.indicator
        found = []
        for kind in sorted(self.kinds):
            if held[kind] + 1 + robbed > 4:  # no fifth copy (impossibility), the winning tile included
                continue
            with_kind = bytearray(counts)
            with_kind[kind] += 1
            if self._shape_completes(with_kind, hand.jokers, melds, indicator) is False:  # no hand built
                continue
            candidate = hand.with_win(kind)
            if self.generated.wild_forbidden and checks.wildcard_use_problem(self.generated, candidate) is not None:
                continue  # a wildcard this hand could not win on (never discarded)
            if self._completes(candidate):
                answer = self._run(candidate)
                found.append((Wait(tile_name(kind), self._answer(candidate, answer)), answer[0]))
        return found

    def evaluate_many(self, hands: Iterable[Hand | str]) -> list[Result]:
        """Evaluate many hands (see :meth:`evaluate_counts` for the array path)."""
        return [self.evaluate(hand) for hand in hands]

    def evaluate_counts(
        self, counts: Buffer, context: Hand | str | None = None, *, refused: str = "raise",
        win_tiles: Buffer | None = None,
    ) -> tuple[array[int], array[int]]:
        """Batch scoring with no per-hand Python.

        ``counts`` holds N concealed winning hands of 34 tile counts each (the
        winning tile included): any C-contiguous buffer of bytes -- ``bytes``,
        ``bytearray``, ``array('B')``, a NumPy ``uint8`` array of N x 34 -- read in
        place.  The hands share one context, taken from ``context`` (a hand whose
        tiles are ignored).  Returns arrays of points and fan: -1 where a hand does
        not win.

        ``win_tiles`` gives each hand's winning tile, one kind number (0-33) per
        hand.  Each hand is checked as :meth:`evaluate` checks it (counts, tile
        set, size, and with ``win_tiles`` how its winning tile came: a robbed tile
        the hand holds another copy of, a wildcard won on as a discard under
        ``wildcard may_not discard``).  With ``refused="raise"`` the first hand
        that fails, or whose points would pass 64 bits, raises :class:`HandError`
        naming its index; with ``refused="mark"`` such hands get -2
        (:data:`REFUSED`), or -3 (:data:`OVERFLOWED`) for the points, and the rest
        are scored.

        Without ``win_tiles`` a batch raises :class:`BatchError` where the answer
        depends on the winning tile: a ruleset whose words need it (``winning``,
        ``wait_*``), a context that robs a kong, a discard win where a wildcard is
        never discarded.  A hand whose conditions ask for ``waits`` is refused
        (by index, as above).
        """
        if refused not in ("raise", "mark"):
            raise MjrError(f"refused must be 'raise' or 'mark', not {refused!r}")
        view = batch_view(counts)
        n = len(view) // N_KINDS
        c, record, why = self._shared_context(context)
        wins = win_tiles_view(win_tiles, n, why)
        points, fan, status = zeros("q", n), zeros("q", n), bytearray(n)
        first = self.generated.evaluate_records(view, N_KINDS, record, 0, wins, bool(wins), 0, n,
                                                0 if refused == "raise" else n, points, fan, status, _NO_FANS, 0)
        if first >= 0 and refused == "raise":
            if status[first] == STATUS_OVERFLOW:
                raise HandError(f"hand {first} of the batch: {_OVERFLOW.format(id=self.id)}")
            self._raise_refused(view, first, c, wins, status[first])
        return points, fan

    def _shared_context(self, context: Hand | str | None) -> tuple[Context, bytes, str | None]:
        """A batch's shared context, its record, and why the batch needs each
        hand's winning tile (or ``None``); kept per context, which a program
        scoring many batches passes again and again."""
        try:
            return self._shared[context]
        except (KeyError, TypeError):  # (a context that is no hand and cannot be hashed: _hand says so)
            pass
        ctx_hand = self._hand(context, "the context") if context is not None else Hand((), win_tile=0)
        problem = checks.context_problem(self.generated, ctx_hand.context)  # as check_hand checks a hand's context
        if problem is None and ctx_hand.flowers and not self.has_flowers:
            problem = f"{self.id}'s tile set has no flowers"
        if problem is None:
            problem = checks.aside_problem(self.generated, ctx_hand.aside)
        if problem is None and ctx_hand.red:
            problem = "red fives are tiles of each hand, not of the shared context (a batch of counts has none)"
        if problem is None and ctx_hand.all_jokers:
            problem = "jokers are tiles of each hand, not of the shared context (a batch of counts has none)"
        if problem is not None:
            raise HandError(f"the batch's context: {problem}")
        record = self.records.record(Hand((), context=ctx_hand.context, flowers=ctx_hand.flowers,
                                          aside=ctx_hand.aside))
        assert record is not None, "a context checks.context_problem accepts has a record"
        shared = ctx_hand.context, record, self._why_win_tiles(ctx_hand)
        if len(self._shared) >= 256:
            self._shared.clear()
        self._shared[context] = shared
        return shared

    def evaluate_batch(self, hands: Any, *, workers: int | None = None, fans: bool = False,
                       refused: str = "mark") -> BatchScores:
        """Score a batch of hands, each with its melds and context, with no Python
        per hand, on ``workers`` threads (default: every core, for a batch of more
        than a few thousand hands; the answer is the same whatever the number).

        ``hands`` is a NumPy structured array of :meth:`record_dtype` (read in
        place), any C-contiguous buffer of such records, an Arrow table with those
        columns (``dealer``, ``indicator``, ``void`` and ``winners`` may be left
        out), or a list of :class:`Hand` or hand strings (packed into records).
        Each hand is checked as :meth:`evaluate` checks it; with
        ``refused="raise"`` the first refused hand raises :class:`HandError`
        naming its index, with ``"mark"`` its status says so and
        :meth:`BatchScores.reason <mjr.ruleset.batches.BatchScores.reason>`
        says why.  A hand of a list that cannot be read or packed (bad notation,
        no winning tile, not a hand at all) is refused the same way: marked
        ``malformed`` (or ``impossible``, ``outside_rules``) with points and fan
        -2, or raised by its index.  ``fans=True`` keeps each hand's awarded fans as bits."""
        if refused not in ("raise", "mark"):
            raise MjrError(f"refused must be 'raise' or 'mark', not {refused!r}")
        unpacked: dict[int, Unpacked] = {}
        view, n = record_view(self, hands, unpacked)
        scores = run_batch(self, view, n, fan_words=-(-len(self.fans) // 64) if fans else 0, workers=workers,
                           unpacked=unpacked)
        first = scores.first_refused
        if first >= 0 and refused == "raise":
            raise HandError(f"hand {first} of the batch: {scores.reason(first)}")
        return scores

    def record_dtype(self) -> Any:
        """The NumPy structured dtype of this ruleset's hand records (needs NumPy):
        ``counts`` (34 concealed counts, the winning tile included), ``win``,
        ``method`` (0 self_draw, 1 discard, 2 robbing_kong), ``flags`` (1
        after_kong, 2 last_tile, 4 first_turn), ``seat``, ``round``, ``source``
        (a code: 0 none, 1 right, 2 opposite, 3 left, 4-8 the steps on 2-6 at a
        table of five or more), ``dealer``, ``indicator``, ``void`` (255: none),
        ``winners``, ``melds`` (kind 1 chow 2 pung 3 kong, lowest tile, flags 1
        concealed 2 added + 4 x the source's code; a code past 3 puts its bits 4
        and 8 in the kind byte: see docs/api.rst), ``flowers`` (bit n - 1 for flower n)
        when the tile set has flowers, ``red`` (two bits of count per suit m p s)
        when it has red fives, ``facts`` / ``fact_tiles`` when the ruleset
        declares facts of play, by slot, and ``aside`` (34 counts of the tiles set
        aside) when its tile set sets kinds aside."""
        return numpy_dtype(self.records)

    def _why_win_tiles(self, ctx_hand: Hand) -> str | None:
        """Why a batch in this context cannot be scored without each hand's winning
        tile, or ``None`` when it can."""
        context = ctx_hand.context
        if self.uses_win_tile:
            return f"{self.id} scores the winning tile (winning or wait_*)"
        if context.win_by == "robbing_kong":
            return ("a hand that robs a kong may hold no other copy of the robbed tile, "
                    "and the counts do not say which tile it robbed")
        if (context.win_by != "self_draw" and "discard" in self.generated.wild_forbidden
                and any(self.wildcard_kinds(ctx_hand))):
            return (f"in {self.id} a wildcard is never discarded (wildcard may_not discard), "
                    "and the counts do not say whether a hand won on one")
        return None

    def _raise_refused(self, view: memoryview, index: int, context: Context, wins: bytes, status: int) -> None:
        """Raise for hand ``index`` of a batch, refused by the kernel, in
        :meth:`check_hand`'s words."""
        row = view[index * N_KINDS:(index + 1) * N_KINDS]
        tiles = [kind for kind in range(N_KINDS) for _ in range(row[kind])]
        prefix = f"hand {index} of the batch: "
        if not tiles:
            raise HandError(f"{prefix}a winning hand has {self.deal + 1} tiles in {self.id}; this one has none")
        win = tiles[-1]
        if wins:
            win = wins[index]
            if win >= N_KINDS:
                raise HandError(f"{prefix}its winning tile {win} is not a tile kind (0-33)")
            if win not in tiles:
                raise HandError(f"{prefix}its winning tile {tile_name(win)} is not among its tiles")
        tiles.remove(win)
        try:
            self.check_hand(Hand(tuple(tiles), (), win, context), winning=True)
        except HandError as error:
            raise HandError(prefix + str(error)) from None
        if status == STATUS_NEEDS_WIN_TILE:  # the only refusal check_hand cannot see
            raise BatchError(f"{prefix}{self.id} asks what this hand waited on (waits): pass win_tiles=, "
                             "one tile kind (0-33) per hand")
        raise AssertionError(f"batch hand {index} refused by the kernel but not by check_hand")  # pragma: no cover

    # -- settlement and explanation ---------------------------------------------

    def settle(self, result: Result, table: Stakes | None = None) -> Settlement:
        return settle(result, self.generated.payments, table or Stakes(), self.seats)

    def fan(self, ident: str) -> FanInfo:
        if ident not in self._fan_index:
            raise MjrError(f"{self.id} has no fan {ident!r}{did_you_mean(ident, self._fan_index)}")
        return self.fans[self._fan_index[ident]]


#: What :meth:`Ruleset.shape_completes` takes as counts.
_COUNTS = (bytes, bytearray, memoryview, list, tuple)


def _knitted_completes(counts: bytearray, jokers: int) -> bool:
    """Whether the concealed tiles hold a knitted straight of real tiles (no
    wildcard fills a knitted place) and the rest, with the wildcards, form sets and
    a pair: the kernel's ``_knitted``."""
    suited = counts[:FIRST_HONOR]
    if suited.count(0) > FIRST_HONOR - 9:  # fewer than the nine suited kinds of a knitted straight
        return False
    held = int.from_bytes(suited.translate(_HELD), "little")
    for kinds, mask in _KNITTED_MASKS:
        if held & mask == mask:
            rest = bytearray(counts)
            for kind in kinds:
                rest[kind] -= 1
            if tables.is_win(rest, jokers, False, 0, False):
                return True
    return False


#: The nine kinds of each knitted straight: the suits of its 1-4-7 and 2-5-8 (the 3-6-9 takes the third).
KNITTED_STRAIGHTS = tuple(knitted_kinds(9 * a, b << GROUP_KNIT_SHIFT) for a in range(3) for b in range(3) if a != b)
#: Each knitted straight's kinds, and as a number of a byte per suited kind, 1 at its
#: nine kinds: the kinds held, counts translated by ``_HELD`` (a count to 0 or 1),
#: hold it where they have all its bytes.
_KNITTED_MASKS = tuple((kinds, sum(1 << 8 * kind for kind in kinds)) for kinds in KNITTED_STRAIGHTS)
_HELD = bytes([0, *[1] * 255])


@cache
def _group(kind: int, tile: int, flags: int) -> Group:
    name = GROUP_KINDS[kind]
    if name == "knitted":
        tiles = tuple(tile_name(k) for k in knitted_kinds(tile, flags))
    elif name == "chow":
        tiles = tuple(tile_name(tile + i) for i in range(3))
    else:
        tiles = (tile_name(tile),) * {"pair": 2, "pung": 3, "kong": 4}[name]
    return Group(name, tiles, bool(flags & GROUP_CONCEALED), bool(flags & GROUP_DECLARED), bool(flags & GROUP_WINNING))


__all__ = ["Ruleset", "HandError", "FanInfo"]
