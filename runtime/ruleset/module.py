"""A ruleset's generated module, read once: its tables as typed values, its entry points as typed calls.

The compiler writes each ruleset as a module of constants (``RULESET_ID``, ``FANS``,
``WILD_DERIVED``, ``EXAMPLES`` ...) and entry functions (``evaluate_record``,
``evaluate_records``, ``best_*``).  :func:`read_module` is the one place the
runtime reads those names: it converts each constant to the Python type the
runtime works with (tuples, dicts, frozensets, booleans) and gives a name that
an older build may lack its default, so the rest of the runtime reads the
:class:`GeneratedModule` and never the module.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..tiles.kinds import N_KINDS
from .facts import Facts

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from array import array
    from collections.abc import Callable
    from types import ModuleType
    from typing import Any, Protocol

    from ..hand.model import Hand
    from ..options import Value as OptionValue
    from .counts import Buffer

    #: What a module answers for one hand record: a status (mjr.abi.STATUS_*), then
    #: the fields of a winning result (a dict) and its search state, or the index of
    #: the requirement it fails (else 0) and ``None``.
    Answer = tuple[int, Any, Any]
    #: (id, display name, kind, file, line, source text, excluded ids) per fan
    FanRow = tuple[str, str, str, str, int, str, tuple[str, ...]]
    #: (name, display name, kind, values, default, section) per table option
    OptionRow = tuple[str, str, str, tuple[OptionValue, ...], OptionValue, str]
    #: (kind, id, display name, value, condition, excluded ids, file, line, statement) per scored item
    ItemRow = tuple[str, str, str, str, str, tuple[str, ...], str, int, str]
    #: (id, display name, liable, payer, payer index) per payment clause
    PaymentRow = tuple[str, str, bool, str, int]
    #: (id, display name, value) per floor
    FloorRow = tuple[str, str, int]
    #: (check, expected value, line) per ``expect`` of an example
    Check = tuple[str, Any, int]

    class RecordsKernel(Protocol):
        """The module's ``evaluate_records``: hands ``start`` to ``stop`` of a batch,
        scored without the GIL into the output arrays; the first hand refused (or
        whose points passed 64 bits), or -1."""

        def __call__(self, counts: Buffer, counts_stride: int, records: Buffer, record_stride: int,
                     win_tiles: Buffer, win_known: bool, start: int, stop: int, refuse_at: int,
                     out_points: array[int], out_fan: array[int], out_status: bytearray, out_fans: array[int],
                     fan_words: int) -> int: ...


@dataclass(frozen=True, slots=True)
class Example:
    """One example hand written in the ruleset, with what it expects."""

    title: str
    #: the hand, in the notation
    hand: str
    file: str
    line: int
    #: the column of the hand's opening quote
    column: int
    checks: tuple[Check, ...]


@dataclass(frozen=True, slots=True, eq=False)
class GeneratedModule:
    """What a ruleset's generated module holds, typed (see the module docstring).

    The attributes are the module's constants of the same names in lower case
    (``id`` is ``RULESET_ID``); the entry functions are the module's own, so a
    call costs what a call into the module costs."""

    id: str
    #: the file the module was loaded from (its source, or the extension compiled from it)
    file: str
    title: str
    native_title: str
    sources: tuple[str, ...]
    #: the ``.mjr`` files the ruleset is written in, the variant's last
    files: tuple[str, ...]
    kinds: frozenset[int]
    deal: int
    #: the players the table seats (``seats``): the first winds in play order
    seats: int
    #: the fewest real copies of a robbed tile in the robbed player's pung (mjr.abi.robbed_pung)
    robbed_pung: int
    claims: dict[str, tuple[str, ...]]
    win_methods: tuple[str, ...]
    #: whether the tile set has flowers, red fives; its dedicated jokers; the kinds it sets aside
    flowers: bool
    red_fives: bool
    jokers: int
    aside: frozenset[int]
    #: standard, seven pairs (0 no, 1 distinct pairs, 2 with fours), thirteen orphans, knitted
    shapes: tuple[bool, int, bool, bool]
    #: (id, display name) per declared shape: shape number 3 + its index
    declared_shapes: tuple[tuple[str, str], ...]
    #: whether a declared shape holds for 34 counts of tiles held and a number of
    #: declared melds: 1 one does, 0 none does, -1 these cannot tell
    declared_shape_of_tiles: Callable[[bytes | bytearray, int], int]
    #: the held amounts (``(EXPR) of payer``) of a record's hand, in order
    held_values: Callable[[bytes], tuple[int, ...]]
    #: (name, body as written) per define, in file order
    defines: tuple[tuple[str, str], ...]
    wild_fixed: tuple[int, ...]
    #: the wildcard kind for each indicator kind (empty: no indicator wildcard)
    wild_derived: tuple[int, ...]
    #: what ``wildcard may_not`` forbids, as written (``discard``, ``claim``, meld kinds)
    wild_forbidden: tuple[str, ...]
    #: the kind that plays as the first wildcard kind when it is not wild itself (-1: none)
    wild_stand_in: int
    indicator_in_play: bool
    uses_win_tile: bool
    needs_dealer: bool
    needs_source: bool
    facts: Facts
    options: tuple[OptionRow, ...]
    chosen: dict[str, OptionValue]
    example_options: tuple[tuple[tuple[str, OptionValue], ...], ...]
    fans: tuple[FanRow, ...]
    #: (id, display name) per requirement
    requirements: tuple[tuple[str, str], ...]
    floors: tuple[FloorRow, ...]
    #: (id, display name) per named value
    values: tuple[tuple[str, str], ...]
    payments: tuple[PaymentRow, ...]
    items: tuple[ItemRow, ...]
    examples: tuple[Example, ...]
    #: the rules of a hand of play, as ``PlayRules.from_module`` reads them (mjr.ruleset.rules_of_play)
    play: dict[str, Any]
    base: int
    cap: int | None
    limits: str
    minimum: int | None
    minimum_without: tuple[str, ...]
    account_once: tuple[str, ...]
    prefer: tuple[str, ...]
    #: the score formula in force, as ``mjr diff`` shows it ("?" for a module without it)
    score_text: str
    record_size: int
    record_max_melds: int
    record_facts_at: int
    record_tiles_at: int
    evaluate_record: Callable[[bytes], Answer]
    evaluate_records: RecordsKernel
    #: what the players 1-3 steps on from the winner pay, from a winning answer's state
    best_amounts: Callable[[object], tuple[int, ...]]
    #: (payment clause index, amount) per ``table pays`` clause that applied: what the
    #: winner takes from the deposits on the table
    best_taken: Callable[[object], tuple[tuple[int, int], ...]]
    #: (fan index, value) per awarded fan
    best_awards: Callable[[object], tuple[tuple[int, int], ...]]
    #: (kind, tile, flags) per group of the best decomposition
    best_groups: Callable[[object], tuple[tuple[int, int, int], ...]]
    #: (kind, count) per kind the wildcards stood as
    best_wildcards: Callable[[object], tuple[tuple[int, int], ...]]

    @property
    def has_wildcards(self) -> bool:
        """Whether the ruleset has wildcards (fixed, or derived from an indicator)."""
        return bool(self.wild_fixed or self.wild_derived)

    def wildcard_kinds(self, hand: Hand) -> bytearray:
        """34 flags: the kinds that are wildcards for this hand."""
        return self.wildcard_flags(hand.context.indicator)

    def wildcard_flags(self, indicator: int | None) -> bytearray:
        """34 flags: the kinds that are wildcards where ``indicator`` is flipped (``None``: none is)."""
        flags = bytearray(N_KINDS)
        for kind in self.wild_kinds(indicator):
            flags[kind] = 1
        return flags

    def wild_kinds(self, indicator: int | None) -> tuple[int, ...]:
        """The kinds that are wildcards where ``indicator`` is flipped: the fixed ones, then the derived one."""
        if self.wild_derived and indicator is not None:
            return (*self.wild_fixed, self.wild_derived[indicator])
        return self.wild_fixed


def read_module(module: ModuleType) -> GeneratedModule:
    """The :class:`GeneratedModule` of a ruleset's generated module."""
    m = module
    standard, seven_pairs, orphans, knitted = m.SHAPES
    return GeneratedModule(
        id=str(m.RULESET_ID), file=str(m.__file__), title=str(m.TITLE), native_title=str(m.NATIVE_TITLE),
        sources=tuple(m.SOURCES), files=tuple(m.FILES),
        kinds=frozenset(m.KINDS), deal=int(m.DEAL), seats=int(m.SEATS), robbed_pung=int(m.ROBBED_PUNG),
        claims=dict(m.CLAIMS),
        win_methods=tuple(m.WIN_METHODS),
        flowers=bool(m.FLOWERS), red_fives=bool(m.RED_FIVES), jokers=int(m.JOKERS), aside=frozenset(m.ASIDE),
        shapes=(bool(standard), int(seven_pairs), bool(orphans), bool(knitted)),
        declared_shapes=tuple(m.DECLARED_SHAPES), declared_shape_of_tiles=m.declared_shape_of_tiles,
        held_values=m.held_values, defines=tuple(getattr(m, "DEFINES", ())),
        wild_fixed=tuple(m.WILD_FIXED), wild_derived=tuple(m.WILD_DERIVED), wild_forbidden=tuple(m.WILD_FORBIDDEN),
        wild_stand_in=int(m.WILD_STAND_IN), indicator_in_play=bool(m.INDICATOR_IN_PLAY),
        uses_win_tile=bool(m.USES_WIN_TILE), needs_dealer=bool(m.NEEDS_DEALER), needs_source=bool(m.NEEDS_SOURCE),
        facts=Facts(m.FACTS), options=tuple(m.OPTIONS), chosen=dict(m.CHOSEN),
        example_options=tuple(m.EXAMPLE_OPTIONS),
        fans=tuple(m.FANS), requirements=tuple(m.REQUIREMENTS), floors=tuple(m.FLOORS), values=tuple(m.VALUES),
        payments=tuple(m.PAYMENTS), items=tuple(m.ITEMS), examples=tuple(Example(*row) for row in m.EXAMPLES),
        play=dict(m.PLAY),
        base=m.BASE, cap=m.CAP, limits=m.LIMITS, minimum=m.MINIMUM,
        minimum_without=tuple(getattr(m, "MINIMUM_WITHOUT", ())), account_once=tuple(getattr(m, "ACCOUNT_ONCE", ())),
        prefer=tuple(getattr(m, "PREFER", ())), score_text=str(getattr(m, "SCORE_TEXT", "?")),
        record_size=int(m.RECORD_SIZE), record_max_melds=int(m.RECORD_MAX_MELDS),
        record_facts_at=int(m.RECORD_FACTS_AT), record_tiles_at=int(m.RECORD_TILES_AT),
        evaluate_record=m.evaluate_record, evaluate_records=m.evaluate_records, best_amounts=m.best_amounts,
        best_taken=m.best_taken,
        best_awards=m.best_awards, best_groups=m.best_groups, best_wildcards=m.best_wildcards,
    )


__all__ = ["Example", "GeneratedModule", "read_module"]
