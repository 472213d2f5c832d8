"""Hands as records: the fixed-size bytes the compiled kernel reads.

A record holds one hand with its melds and context (see :mod:`mjr.abi` for the
fields).  :class:`RecordCodec` writes a :class:`~mjr.hand.Hand` as one, and reads
one back into a hand to say, in :func:`~mjr.Ruleset.check_hand`'s words, why the
kernel refused it.  The layout depends on the ruleset: the most melds a hand holds,
its facts of play, whether it has flowers (one byte after the melds), red fives
(one byte after those) and dedicated jokers (one byte after those, and the
places of each meld's jokers in its flags: see :mod:`mjr.tiles.jokers`), and whether
it sets kinds aside (34 counts after the tiles facts').
"""

from __future__ import annotations

from ..abi import (
    JOKER,
    MAX_JOKERS,
    MELD_ADDED,
    MELD_CONCEALED,
    MELD_JOKER_SHIFT,
    MELD_KINDS,
    MELD_SOURCE_SHIFT,
    RECORD_AFTER_KONG,
    RECORD_FIRST_TURN,
    RECORD_LAST_TILE,
    RECORD_METHODS,
    RECORD_NONE,
    SOURCE_STEPS,
    record_flowers,
    record_jokers,
    record_red,
)
from ..errors import HandFieldError, MjrError, RecordError
from ..hand.model import Context, FactValue, Hand, Meld
from ..tiles.flowers import flower_mask, flowers_of_mask
from ..tiles.jokers import joker_places, jokers_of_places
from ..tiles.kinds import N_KINDS
from ..tiles.red import red_byte, red_of_byte
from .facts import Facts

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import Any

_MELD_CODE = {kind: code for code, kind in enumerate(MELD_KINDS) if kind}
_METHOD_CODE = {method: code for code, method in enumerate(RECORD_METHODS)}
_STEP_SOURCE = {step: source for source, step in SOURCE_STEPS.items()}
_BYTE = [bytes((value,)) for value in range(256)]




class RecordCodec:
    """One ruleset's hand records: writing hands, reading records back."""

    def __init__(self, size: int, max_melds: int, facts_at: int, tiles_at: int, facts: Facts,
                 flowers: bool = False, red: bool = False, jokers: int = 0, aside_at: int = -1):
        self.size = size
        #: the dedicated jokers of the tile set (0: the records hold no jokers' byte)
        self.jokers = jokers
        #: where the 34 counts of the tiles set aside start (after the tiles facts'), or
        #: -1: the ruleset sets none aside (mjr.tiles.aside)
        self.aside_at = aside_at
        self.max_melds = max_melds
        #: whether the records hold a byte of flowers (the ruleset has flowers), and of red fives
        self.flowers = flowers
        self.red = red
        self.facts_at = facts_at
        self.tiles_at = tiles_at
        self.facts = facts
        self._values = sorted((f for f in facts.by_id.values() if f.kind != "tiles"), key=lambda f: f.slot)
        self._tiles = sorted((f for f in facts.by_id.values() if f.kind == "tiles"), key=lambda f: f.slot)
        # A record's last bytes, after the melds and the hand's flowers, red fives and
        # jokers, in a context with no facts given (each number at its low end), and where
        # in them each fact's bytes start: a context's are a copy with its facts written in.
        start = self._tail_start = record_jokers(max_melds, flowers, red) + bool(jokers)  # after the hand's own bytes
        tail = bytearray(size - start)
        self._tail_at: dict[str, tuple[int, str]] = {}
        for fact in self._values:
            at = facts_at - start + 8 * fact.slot
            self._tail_at[fact.id] = (at, fact.kind)
            if fact.kind == "number":
                tail[at:at + 8] = fact.low.to_bytes(8, "little")
        for fact in self._tiles:
            self._tail_at[fact.id] = (tiles_at - start + N_KINDS * fact.slot, fact.kind)
        self._empty_tail = bytes(tail)
        self._contexts: dict[int, tuple[Context, bytes | None, bytes | None]] = {}
        self._no_melds = bytes(3 * max_melds)

    # -- writing -------------------------------------------------------------------

    def record(self, hand: Hand) -> bytes | None:
        """``hand`` as a record, or ``None`` when it cannot be one (more melds than
        the ruleset's sets, a fact of play it does not declare, a kind held more
        times than a count's byte holds): such a hand is refused, and
        :meth:`mjr.Ruleset.check_hand` says why."""
        context = hand.context
        kept = self._contexts.get(id(context))
        if kept is None or kept[0] is not context:
            kept = self._keep(context)
        head, tail = kept[1], kept[2]
        melds = self._meld_bytes(hand.melds) if hand.melds else self._no_melds
        if melds is None or head is None or tail is None:
            return None
        try:
            concealed = hand.concealed_counts()
        except ValueError:  # past 255 copies of a kind
            return None
        win = hand.win_tile
        parts = [concealed, _BYTE[RECORD_NONE if win is None else win], head, melds]
        if self.flowers:  # the flowers' byte, then the red fives', the jokers', the context's
            parts.append(_BYTE[flower_mask(hand.flowers)])
        elif hand.flowers:
            return None
        if self.red:
            parts.append(_BYTE[red_byte(hand.red)])
        elif hand.red:
            return None
        if self.jokers:  # the concealed jokers' byte the next
            parts.append(_BYTE[hand.jokers + (win == JOKER)])
        elif hand.jokers or win == JOKER or (hand.melds and any(meld.jokers for meld in hand.melds)):
            return None
        if hand.aside:  # the tiles set aside: 34 counts in the context's bytes
            if self.aside_at < 0:
                return None
            counts = bytearray(tail)
            at = self.aside_at - self._tail_start
            for kind in hand.aside:
                counts[at + kind] += 1
            tail = bytes(counts)
        parts.append(tail)
        return b"".join(parts)

    def _keep(self, context: Context) -> tuple[Context, bytes | None, bytes | None]:
        """A context's bytes before the melds and after the hand's own, kept by its
        identity (the entry holds the context, so the identity stays its own):
        the hands of one table share a few contexts, and the notation reuses them."""
        encoded = self._context_bytes(context)
        kept = (context, *encoded) if encoded is not None else (context, None, None)
        if len(self._contexts) >= 4096:
            self._contexts.clear()
        self._contexts[id(context)] = kept
        return kept

    def _context_bytes(self, context: Context) -> tuple[bytes, bytes] | None:
        dealer = context.dealer_wind
        flags = ((RECORD_AFTER_KONG if context.after_kong else 0) | (RECORD_LAST_TILE if context.last_tile else 0)
                 | (RECORD_FIRST_TURN if context.first_turn else 0))
        head = bytes((
            _METHOD_CODE[context.win_by], flags, context.seat, context.round,
            0 if context.source is None else SOURCE_STEPS[context.source],
            RECORD_NONE if dealer is None else dealer,
            RECORD_NONE if context.indicator is None else context.indicator,
            RECORD_NONE if context.void is None else context.void,
            context.winners,
        ))
        if not context.facts:
            return head, self._empty_tail
        tail = bytearray(self._empty_tail)
        places = self._tail_at
        for name, value in context.facts:
            place = places.get(name)
            if place is None:
                return None
            at, kind = place
            if kind == "tiles":
                if type(value) is not tuple:
                    return None
                for tile in value:
                    tail[at + tile] += 1
            elif isinstance(value, tuple):
                return None
            elif value is True and kind == "flag":  # the template's 8 bytes are 0
                tail[at] = 1
            else:
                tail[at:at + 8] = int(value).to_bytes(8, "little")
        return head, bytes(tail)

    def _meld_bytes(self, melds: tuple[Meld, ...]) -> bytes | None:
        if len(melds) > self.max_melds:
            return None
        out = bytearray(self._no_melds)
        at = 0
        for meld in melds:
            source = meld.source
            out[at] = _MELD_CODE[meld.kind]
            out[at + 1] = meld.tile
            out[at + 2] = ((MELD_CONCEALED if meld.concealed else 0) | (MELD_ADDED if meld.added else 0)
                           | (0 if source is None else SOURCE_STEPS[source] << MELD_SOURCE_SHIFT)
                           | (joker_places(meld.tiles, meld.jokers) << MELD_JOKER_SHIFT if meld.jokers else 0))
            at += 3
        return bytes(out)

    # -- reading -------------------------------------------------------------------

    def hand(self, record: bytes | memoryview) -> Hand:
        """The hand a record holds.  A field out of its range raises
        :class:`RecordError` naming it."""
        counts = list(record[:N_KINDS])
        win = record[34]
        jokers = self._read_jokers(record[record_jokers(self.max_melds, self.flowers, self.red)]) if self.jokers else 0
        if win == JOKER and self.jokers:
            if jokers == 0:
                raise RecordError("its winning tile is a joker, and its jokers' byte holds none")
            jokers -= 1
        elif win >= N_KINDS:
            raise RecordError(f"its winning tile {win} is not a tile kind (0-33)")
        elif counts[win] == 0:
            raise RecordError(f"its winning tile (kind {win}) is not among its tile counts")
        else:
            counts[win] -= 1
        tiles = tuple(kind for kind in range(N_KINDS) for _ in range(counts[kind]))
        flowers = flowers_of_mask(record[record_flowers(self.max_melds)]) if self.flowers else ()
        red = self._read_red(record[record_red(self.max_melds, self.flowers)]) if self.red else ()
        aside = self._read_aside(record) if self.aside_at >= 0 else ()
        try:
            return Hand(tiles, self._read_melds(record), win, self._read_context(record), flowers, red, jokers, aside)
        except HandFieldError as error:
            raise RecordError(str(error)) from None

    def _read_aside(self, record: bytes | memoryview) -> tuple[int, ...]:
        counts = record[self.aside_at:self.aside_at + N_KINDS]
        if max(counts) > 4:
            kind = max(range(N_KINDS), key=lambda k: counts[k])
            raise RecordError(f"aside {counts[kind]} copies of kind {kind}: a kind has 4")
        return tuple(kind for kind in range(N_KINDS) for _ in range(counts[kind]))

    @staticmethod
    def _read_jokers(byte: int) -> int:
        if byte > MAX_JOKERS:
            raise RecordError(f"jokers {byte}: no tile set has more than {MAX_JOKERS}")
        return byte

    @staticmethod
    def _read_red(byte: int) -> tuple[int, ...]:
        if byte > 63:
            raise RecordError(f"red fives {byte} has bits beyond two a suit (m, p, s: 0-63)")
        return red_of_byte(byte)

    def _read_context(self, record: bytes | memoryview) -> Context:
        method, flags, seat, round_, source, dealer, indicator, void, winners = record[35:44]
        if method >= len(RECORD_METHODS):
            raise RecordError(f"win method {method} is not one of 0-2 ({', '.join(RECORD_METHODS)})")
        if flags > 7:
            raise RecordError(f"flags {flags} has bits beyond after_kong (1), last_tile (2) and first_turn (4)")
        if source > 3:
            raise RecordError(f"source {source} is not 0 (none) or 1-3 (steps on from the winner: R O L)")
        return Context(
            win_by=RECORD_METHODS[method], after_kong=bool(flags & RECORD_AFTER_KONG),
            last_tile=bool(flags & RECORD_LAST_TILE), first_turn=bool(flags & RECORD_FIRST_TURN),
            seat=seat, round=round_, source=_STEP_SOURCE.get(source), winners=winners,
            indicator=None if indicator == RECORD_NONE else indicator,
            void=None if void == RECORD_NONE else void,
            dealer_seat=None if dealer == RECORD_NONE else dealer,
            facts=self._read_facts(record),
        )

    def _read_facts(self, record: bytes | memoryview) -> tuple[tuple[str, FactValue], ...]:
        facts: list[tuple[str, FactValue]] = []
        for fact in self._values:
            at = self.facts_at + 8 * fact.slot
            value = int.from_bytes(record[at:at + 8], "little", signed=True)
            if fact.kind == "flag" and value not in (0, 1):
                raise RecordError(f"fact {fact.id!r} is a flag: 0 or 1, not {value}")
            if value and fact.kind == "flag":
                facts.append((fact.id, True))
            elif fact.kind == "number" and value != fact.low:  # a number left out takes its low end
                facts.append((fact.id, value))
        for fact in self._tiles:
            at = self.tiles_at + N_KINDS * fact.slot
            kinds = tuple(kind for kind in range(N_KINDS) for _ in range(record[at + kind]))
            if kinds:
                facts.append((fact.id, kinds))
        return tuple(facts)

    def _read_melds(self, record: bytes | memoryview) -> tuple[Meld, ...]:
        melds: list[Meld] = []
        for i in range(self.max_melds):
            kind, tile, flags = record[44 + 3 * i:47 + 3 * i]
            if kind == 0 and not (tile or flags):
                continue
            where = f"meld {i}"
            if kind == 0 or kind >= len(MELD_KINDS) or len(melds) < i:
                raise RecordError(f"{where}: kind {kind} is not 1-3 (chow, pung, kong), or a meld follows an "
                                  "empty one (melds come first, one after another)")
            if flags > 15 and not self.jokers:
                raise RecordError(f"{where}: flags {flags} has bits beyond concealed (1), added (2) and the "
                                  "source (4, 8, 12)")
            places = flags >> MELD_JOKER_SHIFT
            try:
                shape = Meld(MELD_KINDS[kind], tile)
                if places >> len(shape.tiles):
                    raise RecordError(f"{where}: jokers at places {places:#x} of a {shape.kind} of "
                                      f"{len(shape.tiles)} tiles")
                melds.append(Meld(MELD_KINDS[kind], tile, bool(flags & MELD_CONCEALED),
                                  _STEP_SOURCE.get(flags >> MELD_SOURCE_SHIFT & 3), bool(flags & MELD_ADDED),
                                  jokers_of_places(shape.tiles, places)))
            except HandFieldError as error:
                raise RecordError(f"{where}: {error}") from None
        return tuple(melds)


def numpy_dtype(codec: RecordCodec) -> Any:
    """The NumPy structured dtype of a record (NumPy must be installed)."""
    try:
        import numpy
    except ImportError:
        raise MjrError("a NumPy record array needs NumPy: pip install 'mahjong-rules[numpy]'") from None
    fields = [
        ("counts", "u1", (N_KINDS,), 0), ("win", "u1", (), 34), ("method", "u1", (), 35), ("flags", "u1", (), 36),
        ("seat", "u1", (), 37), ("round", "u1", (), 38), ("source", "u1", (), 39), ("dealer", "u1", (), 40),
        ("indicator", "u1", (), 41), ("void", "u1", (), 42), ("winners", "u1", (), 43),
        ("melds", "u1", (codec.max_melds, 3), 44),
    ]
    if codec.flowers:
        fields.append(("flowers", "u1", (), record_flowers(codec.max_melds)))
    if codec.red:
        fields.append(("red", "u1", (), record_red(codec.max_melds, codec.flowers)))
    if codec.jokers:
        fields.append(("jokers", "u1", (), record_jokers(codec.max_melds, codec.flowers, codec.red)))
    if codec._values:
        fields.append(("facts", "<i8", (len(codec._values),), codec.facts_at))
    if codec._tiles:
        fields.append(("fact_tiles", "u1", (len(codec._tiles), N_KINDS), codec.tiles_at))
    if codec.aside_at >= 0:
        fields.append(("aside", "u1", (N_KINDS,), codec.aside_at))
    return numpy.dtype({
        "names": [f[0] for f in fields], "formats": [(f[1], f[2]) if f[2] else f[1] for f in fields],
        "offsets": [f[3] for f in fields], "itemsize": codec.size,
    })
