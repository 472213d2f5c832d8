"""Hands as records: the fixed-size bytes the compiled kernel reads.

A record holds one hand with its melds and context (see :mod:`mjr.abi` for the
fields).  :class:`RecordCodec` writes a :class:`~mjr.hand.Hand` as one, and reads
one back into a hand to say, in :func:`~mjr.Ruleset.check_hand`'s words, why the
kernel refused it.  The layout depends on the ruleset: the most melds a hand holds,
its facts of play, whether it has flowers (one byte after the melds), red fives
(one byte after those) and dedicated jokers (one byte after those, and the
places of each meld's jokers in its flags: see :mod:`mjr.tiles.jokers`), and whether
it sets kinds aside (34 counts after the tiles facts').

Writing one is on the path of every single evaluation, so it is written in Cython's
pure-Python mode, as :mod:`mjr.ruleset.kernels` is, and compiled at install: the
hand's fields go straight into the new record's bytes, and only the bytes of a
context's facts of play are kept, by the context's identity, as hands share them.
Interpreted, the same code writes a ``bytearray`` and copies it.
"""

from __future__ import annotations

import cython

from ..abi import (
    JOKER,
    MAX_JOKERS,
    MELD_ADDED,
    MELD_CONCEALED,
    MELD_JOKER_SHIFT,
    MELD_KIND_MASK,
    MELD_KINDS,
    MELD_SOURCE_MASK,
    MELD_SOURCE_SHIFT,
    RECORD_AFTER_KONG,
    RECORD_FIRST_TURN,
    RECORD_LAST_TILE,
    RECORD_MELDS,
    RECORD_METHOD,
    RECORD_METHODS,
    RECORD_NONE,
    RECORD_WIN,
    SOURCE_CODES,
    SOURCES,
    record_flowers,
    record_jokers,
    record_red,
)
from ..errors import HandFieldError, MjrError, RecordError
from ..hand.model import Context, FactValue, Hand, Meld
from ..tiles.flowers import flowers_of_mask
from ..tiles.jokers import joker_places, jokers_of_places
from ..tiles.kinds import N_KINDS
from ..tiles.red import red_of_byte
from .facts import Facts

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import Any

_MELD_CODE = {kind: code for code, kind in enumerate(MELD_KINDS) if kind}
_METHOD_CODE = {method: code for code, method in enumerate(RECORD_METHODS)}
_CODE_SOURCE = {code: source for source, code in SOURCE_CODES.items()}
# The layout's numbers as C constants for the compiled writer (see mjr.abi).
_MOST_COUNTED = cython.declare(cython.int, 255)  # the most copies of a kind a count holds: it is a byte
_WIN = cython.declare(cython.int, RECORD_WIN)
_METHOD = cython.declare(cython.int, RECORD_METHOD)
_MELDS = cython.declare(cython.int, RECORD_MELDS)
_NONE = cython.declare(cython.int, RECORD_NONE)
_AFTER_KONG = cython.declare(cython.int, RECORD_AFTER_KONG)
_LAST_TILE = cython.declare(cython.int, RECORD_LAST_TILE)
_FIRST_TURN = cython.declare(cython.int, RECORD_FIRST_TURN)
_JOKER = cython.declare(cython.int, JOKER)
_CONCEALED = cython.declare(cython.int, MELD_CONCEALED)
_ADDED = cython.declare(cython.int, MELD_ADDED)
_SOURCE_SHIFT = cython.declare(cython.int, MELD_SOURCE_SHIFT)
_SOURCE_MASK = cython.declare(cython.int, MELD_SOURCE_MASK)
_JOKER_SHIFT = cython.declare(cython.int, MELD_JOKER_SHIFT)


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
        start = record_jokers(max_melds, flowers, red) + bool(jokers)  # after the hand's own bytes
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
        self._tails: dict[int, tuple[Context, bytes | None]] = {}
        #: what the writer reads of the layout, in one piece
        self.layout = (size, max_melds, flowers, red, bool(jokers), aside_at)

    # -- writing -------------------------------------------------------------------

    def record(self, hand: Hand) -> bytes | None:
        """``hand`` as a record, or ``None`` when it cannot be one (more melds than
        the ruleset's sets, a fact of play it does not declare, a kind held more
        times than a count's byte holds): such a hand is refused, and
        :meth:`mjr.Ruleset.check_hand` says why."""
        context = hand.context
        tail = self._empty_tail
        if context.facts:
            kept = self._tails.get(id(context))
            if kept is None or kept[0] is not context:
                kept = self._keep(context)
            if kept[1] is None:
                return None
            tail = kept[1]
        record: bytes | None = _write(self, hand, context, tail)
        return record

    def _keep(self, context: Context) -> tuple[Context, bytes | None]:
        """The bytes of a context's facts of play, kept by its identity (the entry
        holds the context, so the identity stays its own): the hands of one table
        share a few contexts, and the notation reuses them."""
        kept = (context, _facts_tail(self._empty_tail, self._tail_at, context.facts))
        if len(self._tails) >= 4096:
            self._tails.clear()
        self._tails[id(context)] = kept
        return kept

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
        if source > len(SOURCES):
            raise RecordError(f"source {source} is not 0 (none) or 1-{len(SOURCES)} (R O L, then 2-6 steps on "
                              "from the winner)")
        return Context(
            win_by=RECORD_METHODS[method], after_kong=bool(flags & RECORD_AFTER_KONG),
            last_tile=bool(flags & RECORD_LAST_TILE), first_turn=bool(flags & RECORD_FIRST_TURN),
            seat=seat, round=round_, source=_CODE_SOURCE.get(source), winners=winners,
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
            at = RECORD_MELDS + 3 * i
            byte, tile, flags = record[at], record[at + 1], record[at + 2]
            if byte == 0 and not (tile or flags):
                continue
            where = f"meld {i}"
            kind, code = byte & MELD_KIND_MASK, (byte & MELD_SOURCE_MASK) | (flags >> MELD_SOURCE_SHIFT & 3)
            if kind == 0 or byte > MELD_KIND_MASK | MELD_SOURCE_MASK or len(melds) < i:
                raise RecordError(f"{where}: kind {byte} is not 1-3 (chow, pung, kong) with a source's high bits "
                                  "(4, 8), or a meld follows an empty one (melds come first, one after another)")
            if code > len(SOURCES):
                raise RecordError(f"{where}: source {code} is not 0 (none) or 1-{len(SOURCES)}")
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
                                  _CODE_SOURCE.get(code), bool(flags & MELD_ADDED),
                                  jokers_of_places(shape.tiles, places)))
            except HandFieldError as error:
                raise RecordError(f"{where}: {error}") from None
        return tuple(melds)


@cython.cfunc
def _write_context(p: cython.p_uchar, context: Context) -> cython.void:
    """A context's bytes before the melds: method, flags, seat, round, source, dealer
    (:attr:`~mjr.hand.Context.dealer_wind`), indicator, void suit, winners (see
    :data:`mjr.abi.RECORD_METHOD` on).  Read from the context's ``__dict__``, where a
    Context (plain frozen data, every field set) keeps its fields: a tenth of the
    cost of reading them as attributes."""
    fields: dict[str, Any] = context.__dict__
    source = fields["source"]
    dealer = fields["seat"] if fields["dealer"] else fields["dealer_seat"]
    indicator = fields["indicator"]
    void = fields["void"]
    p[_METHOD] = _METHOD_CODE[fields["win_by"]]
    p[_METHOD + 1] = ((_AFTER_KONG if fields["after_kong"] else 0) | (_LAST_TILE if fields["last_tile"] else 0)
                      | (_FIRST_TURN if fields["first_turn"] else 0))
    p[_METHOD + 2] = fields["seat"]
    p[_METHOD + 3] = fields["round"]
    p[_METHOD + 4] = 0 if source is None else SOURCE_CODES[source]
    p[_METHOD + 5] = _NONE if dealer is None else dealer
    p[_METHOD + 6] = _NONE if indicator is None else indicator
    p[_METHOD + 7] = _NONE if void is None else void
    p[_METHOD + 8] = fields["winners"]


@cython.cfunc
def _facts_tail(empty: bytes, places: dict[str, tuple[int, str]], facts: tuple[tuple[str, FactValue], ...]) -> object:
    """A record's bytes after the hand's own for these facts of play (``empty``: for
    none, each number at its low end; ``places``: where each fact's bytes start in
    them, and its kind), the tiles set aside left at 0; or ``None`` where the ruleset
    declares no such fact, or its value is of another kind."""
    i: cython.Py_ssize_t
    at: cython.Py_ssize_t
    number: cython.longlong
    out = bytes(len(empty)) if cython.compiled else bytearray(len(empty))
    p: cython.p_uchar = out
    read: cython.p_const_uchar = empty
    for i in range(len(empty)):
        p[i] = read[i]
    for name, value in facts:
        place = places.get(name)
        if place is None:
            return None
        at = place[0]
        kind = place[1]
        if kind == "tiles":
            if type(value) is not tuple:
                return None
            for tile in value:
                p[at + cython.cast(cython.int, tile)] += 1
        elif type(value) is tuple:
            return None
        elif value is True and kind == "flag":  # the empty bytes hold 0
            p[at] = 1
        else:  # a number, as eight bytes, little-endian
            number = value
            for i in range(8):
                p[at + i] = (number >> (8 * i)) & 255
    return out if cython.compiled else bytes(out)


@cython.cfunc
def _write(codec: RecordCodec, hand: Hand, context: Context, tail: bytes) -> object:
    """``hand`` as a record, the bytes of its context's facts given (see :meth:`RecordCodec._keep`),
    or ``None``: written straight into a new record's bytes (compiled, at install, a
    fresh ``bytes`` it alone holds; interpreted, a ``bytearray`` copied at the end)."""
    i: cython.Py_ssize_t
    at: cython.Py_ssize_t
    kind: cython.int
    size: cython.Py_ssize_t
    most: cython.Py_ssize_t
    has_flowers: cython.bint
    has_red: cython.bint
    has_jokers: cython.bint
    aside_at: cython.Py_ssize_t
    size, most, has_flowers, has_red, has_jokers, aside_at = codec.layout
    fields: dict[str, Any] = hand.__dict__  # as the context's: see _write_context
    tiles: tuple[int, ...] = fields["tiles"]
    melds: tuple[Meld, ...] = fields["melds"]
    win = fields["win_tile"]
    won: cython.int = _NONE if win is None else win
    flowers: tuple[int, ...] = fields["flowers"]
    red: tuple[int, ...] = fields["red"]
    aside: tuple[int, ...] = fields["aside"]
    jokers: cython.int = fields["jokers"]
    if len(melds) > most:
        return None
    out = bytes(size) if cython.compiled else bytearray(size)
    p: cython.p_uchar = out
    for i in range(len(tiles)):  # the concealed counts, the winning tile's kind among them
        kind = tiles[i]
        if p[kind] == _MOST_COUNTED:
            return None
        p[kind] += 1
    p[_WIN] = won
    if won < _JOKER:  # a joker is of no kind
        if p[won] == _MOST_COUNTED:
            return None
        p[won] += 1
    _write_context(p, context)
    at = _MELDS
    meld_jokers: cython.bint = False
    for meld in melds:
        meld_jokers |= _write_meld(p, at, meld)
        at += 3
    at = _MELDS + 3 * most
    if has_flowers:  # the flowers' byte, then the red fives', the jokers', the context's
        for flower in flowers:
            p[at] |= 1 << (flower - 1)
        at += 1
    elif flowers:
        return None
    if has_red:  # two bits of count per suit, as red_byte writes them: 5m 5p 5s are kinds 4, 13, 22
        for kind in red:
            p[at] += 1 << (2 * (kind // 9))
        at += 1
    elif red:
        return None
    if has_jokers:  # the concealed jokers' byte the next
        p[at] = jokers + (won == _JOKER)
        at += 1
    elif meld_jokers or jokers or won == _JOKER:
        return None
    read: cython.p_const_uchar = tail
    for i in range(len(tail)):
        p[at + i] = read[i]
    if aside:  # the tiles set aside: 34 counts in the context's bytes
        if aside_at < 0:
            return None
        for kind in aside:
            p[aside_at + kind] += 1
    return out if cython.compiled else bytes(out)


@cython.cfunc
def _write_meld(p: cython.p_uchar, at: cython.Py_ssize_t, meld: Meld) -> cython.bint:
    """A meld's three bytes from ``at``: kind, lowest tile, flags (see
    :data:`mjr.abi.MELD_KINDS`); whether it holds jokers."""
    source = meld.source
    jokers: tuple[int, ...] = meld.jokers
    flags: cython.int = (_CONCEALED if meld.concealed else 0) | (_ADDED if meld.added else 0)
    code: cython.int = 0
    if source is not None:
        code = SOURCE_CODES[source]
        flags |= (code & 3) << _SOURCE_SHIFT
    if jokers:
        flags |= cython.cast(cython.int, joker_places(meld.tiles, jokers)) << _JOKER_SHIFT
    p[at] = _MELD_CODE[meld.kind] | (code & _SOURCE_MASK)
    p[at + 1] = meld.tile
    p[at + 2] = flags
    return len(jokers) > 0


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
