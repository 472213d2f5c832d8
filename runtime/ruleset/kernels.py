"""Table-driven win check with jokers (wildcards).

Written in Cython's pure-Python mode: interpreted, this file is plain (slow but
correct) Python; ``cythonize`` compiles the very same file at install time into a
fast extension.

Encoding.  A suit's nine counts form a base-5 *code*, digit ``i`` holding the count
of rank ``i + 1``, least significant first: ``code = sum(c[i] * 5**i)``.  The seven
honours form a base-5 code the same way.

Tables.  Built once per process on first use and kept in module globals.  Each code
owns two bytes, so ``table[2 * code]`` and ``table[2 * code + 1]`` share a cache line:

* byte 0, low nibble: ``need_melds``, the fewest jokers that turn the tiles into
  melds only (chows and pungs; every real tile used; a joker stands for any tile,
  even a fifth copy);
* byte 0, high nibble: ``need_pair``, the same for melds plus exactly one pair
  (a pair of two jokers is allowed);
* byte 1: ``need_pair258``, melds plus one pair of rank 2, 5 or 8.

Values saturate at 15 ("15 or more", in practice impossible), but no code of at
most 17 tiles (five sets and a pair, :data:`mjr.abi.MOST_SETS`) comes near that
(the largest suit value is 9, honours 14).  Codes of more tiles are not
computed and hold 15.  Honours
have no chows, and their ``need_pair258`` is always 15: a 2-5-8 pair of jokers
counts in a suit group (code 0 of any suit costs 2).

``counts`` arguments are 34 small ints in tile-kind order (see :mod:`mjr.tiles`):
``bytes`` and ``bytearray`` take the fastest path, any other buffer of unsigned
bytes (``array('B')``, a ``memoryview``) or a list / tuple of ints also works.
"""

from array import array

import cython

from ..abi import DECOMPOSITION_GROUPS, DECOMPOSITION_HASH, DECOMPOSITION_PAIR, MOST_SETS
from ..errors import KernelError

N_KINDS = 34
#: Codes of one suit (nine ranks) and of the honours (seven kinds).
N_SUIT_CODES = 5**9
N_HONOR_CODES = 5**7
#: Saturated table value: "15 or more jokers", i.e. impossible.
CAP = 15
#: What the special shapes return when they cannot be made at all.
IMPOSSIBLE = 99
#: Whether this module runs compiled (the generated modules read its tables only then).
COMPILED = cython.compiled

# C-level copies of the constants for the compiled hot path.
_n_kinds = cython.declare(cython.Py_ssize_t, 34)
_cap = cython.declare(cython.int, 15)
_impossible = cython.declare(cython.int, 99)
_max_tiles = cython.declare(cython.int, 3 * MOST_SETS + 2)

# The tables.  ``suit_table`` / ``honor_table`` are the Python objects (None until
# built); ``_suit`` / ``_honor`` are typed views of them for the compiled code.
suit_table = None
honor_table = None
_ready = cython.declare(cython.bint, False)
_suit = cython.declare(cython.uchar[::1], None)
_honor = cython.declare(cython.uchar[::1], None)

# ---------------------------------------------------------------- table building


@cython.cfunc
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def _fill(t: cython.uchar[::1], ndig: cython.int, suited: cython.bint) -> cython.void:
    """Fill ``t`` (two bytes per code, preset to 15) for every code of at most 17
    tiles, in increasing code order.

    The codes are walked by an odometer whose digits are the counts.  After each
    step the digit just raised is the lowest non-zero one, and the lowest real
    tile must sit in some group: a pung, a chow in which it is the bottom or the
    middle tile (nothing real lies below it, so a joker fills the place below, as
    in J-8-9), or the pair.  Removing that group's real tiles gives a smaller, already finished
    code.  A group takes every real tile it can use: swapping a joker in the group
    with an equal real tile elsewhere never costs more, so nothing is lost.

    Two cases need no step of their own.  A group of one real tile and two jokers
    (a chow with the tile on top, say) is no better than the pung of that tile.  A pair
    of two jokers is reached through code 0, whose pair costs 2.
    """
    pw = cython.declare(cython.int[10])
    c = cython.declare(cython.int[12])
    k: cython.int
    v: cython.int
    i: cython.int
    ci: cython.int
    pi: cython.int
    code: cython.int
    n: cython.int
    s: cython.int
    e: cython.int
    cost: cython.int
    bm: cython.int
    bp: cython.int
    bq: cython.int
    for k in range(12):
        c[k] = 0
    v = 1
    for k in range(10):
        pw[k] = v
        v *= 5
    # No tiles: no melds needed, a pair costs two jokers.
    t[0] = 0x20
    t[1] = 2 if suited else 15
    code = 0
    n = 0
    while True:
        # Next code of at most 17 tiles: raise the lowest digit that may grow,
        # clearing the digits below it.
        i = 0
        while i < ndig:
            if c[i] < 4 and n < _max_tiles:
                break
            n -= c[i]
            code -= c[i] * pw[i]
            c[i] = 0
            i += 1
        if i == ndig:
            break
        c[i] += 1
        n += 1
        code += pw[i]
        ci = c[i]
        pi = pw[i]

        # Pung of the lowest kind.
        k = ci if ci < 3 else 3
        cost = 3 - k
        s = 2 * (code - k * pi)
        e = t[s]
        bm = cost + (e & 15)
        bp = cost + (e >> 4)
        bq = cost + t[s + 1]
        if suited:
            # Chow with the lowest tile at the bottom.
            if i + 2 < ndig:
                s = code - pi
                cost = 0
                if c[i + 1]:
                    s -= pw[i + 1]
                else:
                    cost += 1
                if c[i + 2]:
                    s -= pw[i + 2]
                else:
                    cost += 1
                s *= 2
                e = t[s]
                v = cost + (e & 15)
                if v < bm:
                    bm = v
                v = cost + (e >> 4)
                if v < bp:
                    bp = v
                v = cost + t[s + 1]
                if v < bq:
                    bq = v
            # In the middle, a joker below and a real tile above (with a joker
            # above too it would be a pung with two jokers).
            if i >= 1 and i + 1 < ndig and c[i + 1]:
                s = 2 * (code - pi - pw[i + 1])
                cost = 1
                e = t[s]
                v = cost + (e & 15)
                if v < bm:
                    bm = v
                v = cost + (e >> 4)
                if v < bp:
                    bp = v
                v = cost + t[s + 1]
                if v < bq:
                    bq = v
        # The pair is the lowest kind.
        k = ci if ci < 2 else 2
        v = 2 - k + (t[2 * (code - k * pi)] & 15)
        if v < bp:
            bp = v
        if suited and (i == 1 or i == 4 or i == 7) and v < bq:
            bq = v
        if bm > _cap:
            bm = _cap
        if bp > _cap:
            bp = _cap
        if bq > _cap or not suited:
            bq = _cap
        t[2 * code] = bm | (bp << 4)
        t[2 * code + 1] = bq


@cython.ccall
def ensure_tables() -> None:
    """Build the suit and honour tables unless this process already has them."""
    global suit_table, honor_table, _suit, _honor, _ready
    if _ready:
        return
    suits = bytearray(b"\xff\x0f") * N_SUIT_CODES
    honors = bytearray(b"\xff\x0f") * N_HONOR_CODES
    _fill(suits, 9, True)
    _fill(honors, 7, False)
    suit_table = suits
    honor_table = honors
    _suit = suits
    _honor = honors
    _ready = True


# ---------------------------------------------------------------- decompositions
#
# Every way one suit's counts split into sets (pungs, chows) and at most one pair,
# with no joker: what a search of a hand without wildcards finds in that suit, in
# the order it finds them.  The search places the lowest tile left in a pair, else
# a pung, else a chow from it up; a hand's decompositions are the product of its
# suits' (the honours' are plain), with the pair in exactly one.
#
# A decomposition is one 64-bit word: its groups in that order, a byte each from bit
# 0 (``kind << 4 | rank``: kind 0 a pair, 1 a chow, 2 a pung, rank 0-8, a chow's its
# lowest), their number at bit :data:`mjr.abi.DECOMPOSITION_GROUPS`, and bit
# :data:`mjr.abi.DECOMPOSITION_PAIR` set when one of them is the pair.  The codes of a suit
# that split at all (at most :data:`mjr.abi.MOST_SETS` sets and a pair) are kept in
# an open-addressing table: ``decomposition_keys[slot]`` the code + 1 (0: an empty
# slot), ``decomposition_spans[slot]`` its first word in ``decomposition_words``
# shifted left by 8, plus how many.  The slot of a code is
# ``((code * mjr.abi.DECOMPOSITION_HASH) mod 2**32) >> decomposition_shift``, then
# the next slots in turn.

decomposition_keys = None
decomposition_spans = None
decomposition_words = None
decomposition_shift = 0
_decomposed = cython.declare(cython.bint, False)
_groups_at = cython.declare(cython.int, DECOMPOSITION_GROUPS)
_pair_at = cython.declare(cython.int, DECOMPOSITION_PAIR)
_hash = cython.declare(cython.uint, DECOMPOSITION_HASH)


@cython.cfunc
@cython.exceptval(check=False)
def _mark_sets(c: cython.p_int, pw: cython.p_int, first: cython.int, sets_left: cython.int, code: cython.int,
               marks: cython.p_uchar) -> cython.void:
    """Mark the code of every multiset of at most ``sets_left`` more sets (from the
    ``first`` kind of set on: 0-8 the pungs, 9-15 the chows), no count past 4;
    ``pw`` holds the powers of 5."""
    g: cython.int
    r: cython.int
    i: cython.int
    add: cython.int
    fits: cython.bint
    marks[code] = 1
    if sets_left == 0:
        return
    for g in range(first, 16):
        r = g if g < 9 else g - 9
        if g < 9:
            fits = c[r] <= 1
            add = 3 * pw[r]
            c[r] += 3
        else:
            fits = c[r] < 4 and c[r + 1] < 4 and c[r + 2] < 4
            add = pw[r] + pw[r + 1] + pw[r + 2]
            for i in range(3):
                c[r + i] += 1
        if fits:
            _mark_sets(c, pw, g, sets_left - 1, code + add, marks)
        if g < 9:
            c[r] -= 3
        else:
            for i in range(3):
                c[r + i] -= 1


@cython.cfunc
@cython.exceptval(check=False)
def _decompose(c: cython.p_int, pair_left: cython.int, groups: cython.ulonglong, n: cython.int,
               out: cython.p_ulonglong, found: cython.int) -> cython.int:
    """Write the decompositions of the counts ``c`` to ``out`` from ``found`` on (none
    written when ``out`` is NULL), after the ``n`` groups already in ``groups``, in
    the search's order; return how many there are then."""
    r: cython.int = 0
    while r < 9 and c[r] == 0:
        r += 1
    if r == 9:
        if out != cython.NULL:
            out[found] = (groups | (cython.cast(cython.ulonglong, n) << _groups_at)
                          | (cython.cast(cython.ulonglong, 1 - pair_left) << _pair_at))
        return found + 1
    if pair_left and c[r] >= 2:
        c[r] -= 2
        found = _decompose(c, 0, groups | (cython.cast(cython.ulonglong, r) << (8 * n)), n + 1, out, found)
        c[r] += 2
    if c[r] >= 3:
        c[r] -= 3
        found = _decompose(c, pair_left, groups | (cython.cast(cython.ulonglong, 0x20 | r) << (8 * n)), n + 1,
                           out, found)
        c[r] += 3
    if r <= 6 and c[r + 1] > 0 and c[r + 2] > 0:
        c[r] -= 1
        c[r + 1] -= 1
        c[r + 2] -= 1
        found = _decompose(c, pair_left, groups | (cython.cast(cython.ulonglong, 0x10 | r) << (8 * n)), n + 1,
                           out, found)
        c[r] += 1
        c[r + 1] += 1
        c[r + 2] += 1
    return found


@cython.cfunc
@cython.exceptval(check=False)
def _digits(code: cython.int, c: cython.p_int) -> cython.void:
    """The nine counts of a suit's code."""
    r: cython.int
    for r in range(9):
        c[r] = code % 5
        code //= 5


@cython.ccall
def ensure_decompositions() -> None:
    """Build the decomposition tables unless this process already has them."""
    global decomposition_keys, decomposition_spans, decomposition_words, decomposition_shift, _decomposed
    if _decomposed:
        return
    if not cython.compiled:
        raise KernelError("the decomposition tables are built compiled only (interpreted, the search finds them)")
    c = cython.declare(cython.int[10])
    pw = cython.declare(cython.int[10])
    marked = bytearray(N_SUIT_CODES)
    marks: cython.uchar[::1] = marked
    code: cython.int
    r: cython.int
    n: cython.int
    slot: cython.uint
    codes: cython.int = 0
    words: cython.int = 0
    bits: cython.int = 1
    for r in range(10):
        c[r] = 0
        pw[r] = 1 if r == 0 else 5 * pw[r - 1]
    _mark_sets(c, pw, 0, MOST_SETS, 0, cython.address(marks[0]))
    for code in range(N_SUIT_CODES):  # each multiset of sets, and the same with a pair
        if marks[code] == 1:
            _digits(code, c)
            for r in range(9):
                if c[r] <= 2 and marks[code + 2 * pw[r]] == 0:
                    marks[code + 2 * pw[r]] = 2
    for code in range(N_SUIT_CODES):
        codes += marks[code] != 0
    while (1 << bits) < 2 * codes:
        bits += 1
    keys = array("I", [0]) * (1 << bits)
    spans = array("I", [0]) * (1 << bits)
    key_of: cython.uint[::1] = keys
    span_of: cython.uint[::1] = spans
    for code in range(N_SUIT_CODES):  # each code's place, and how many decompositions it has
        if marks[code]:
            _digits(code, c)
            n = _decompose(c, 1, 0, 0, cython.NULL, 0)
            if n > 255:  # (at most 14: the count has a byte)
                raise KernelError(f"suit code {code} splits {n} ways, more than a table entry holds")
            slot = (cython.cast(cython.uint, code) * _hash) >> (32 - bits)
            while key_of[slot] != 0:
                slot = (slot + 1) & ((1 << bits) - 1)
            key_of[slot] = code + 1
            span_of[slot] = (words << 8) | n
            words += n
    out = array("Q", [0]) * words
    word_of: cython.ulonglong[::1] = out
    for slot in range(1 << bits):
        if key_of[slot]:
            _digits(key_of[slot] - 1, c)
            _decompose(c, 1, 0, 0, cython.address(word_of[span_of[slot] >> 8]), 0)
    decomposition_keys, decomposition_spans, decomposition_words = keys, spans, out
    decomposition_shift = 32 - bits
    _decomposed = True


# ---------------------------------------------------------------- the hot path


@cython.cfunc
@cython.inline
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
@cython.exceptval(check=False)
def _standard(p: cython.p_const_uchar, pair258: cython.bint) -> cython.int:
    """``standard_need`` on 34 counts already checked to be at most 4."""
    k: cython.int
    c0: cython.int = 0
    c1: cython.int = 0
    c2: cython.int = 0
    c3: cython.int = 0
    for k in range(8, -1, -1):
        c0 = c0 * 5 + p[k]
        c1 = c1 * 5 + p[9 + k]
        c2 = c2 * 5 + p[18 + k]
    for k in range(33, 26, -1):
        c3 = c3 * 5 + p[k]
    a0: cython.int = _suit[2 * c0]
    a1: cython.int = _suit[2 * c1]
    a2: cython.int = _suit[2 * c2]
    a3: cython.int = _honor[2 * c3]
    m0: cython.int = a0 & 15
    m1: cython.int = a1 & 15
    m2: cython.int = a2 & 15
    m3: cython.int = a3 & 15
    d: cython.int
    x: cython.int
    if pair258:
        # Honour groups cannot hold a 2-5-8 pair.
        d = _suit[2 * c0 + 1] - m0
        x = _suit[2 * c1 + 1] - m1
        if x < d:
            d = x
        x = _suit[2 * c2 + 1] - m2
        if x < d:
            d = x
    else:
        d = (a0 >> 4) - m0
        x = (a1 >> 4) - m1
        if x < d:
            d = x
        x = (a2 >> 4) - m2
        if x < d:
            d = x
        x = (a3 >> 4) - m3
        if x < d:
            d = x
    return m0 + m1 + m2 + m3 + d


@cython.cfunc
@cython.exceptval(check=False)
def _seven_pairs(p: cython.p_const_uchar, fours_as_two: cython.bint) -> cython.int:
    k: cython.int
    v: cython.int
    pairs: cython.int = 0
    odd: cython.int = 0
    for k in range(34):
        v = p[k]
        if v == 0:
            continue
        if v > 2 and not fours_as_two:
            # A third tile could only pair with a joker of its own kind.
            return _impossible
        pairs += (v + 1) >> 1
        odd += v & 1
    if pairs > 7:
        return _impossible
    # Each odd tile takes a joker; the missing pairs are pairs of jokers.
    return odd + 2 * (7 - pairs)


@cython.cfunc
@cython.exceptval(check=False)
def _orphans(p: cython.p_const_uchar) -> cython.int:
    k: cython.int
    v: cython.int
    real: cython.int = 0  # non-orphan tiles
    missing: cython.int = 0
    extra: cython.int = 0
    for k in range(34):
        v = p[k]
        if k >= 27 or k % 9 == 0 or k % 9 == 8:
            if v == 0:
                missing += 1
            else:
                extra += v - 1
        else:
            real += v
    if real != 0 or extra > 1:  # a non-orphan tile, or too many duplicates
        return _impossible
    # With no duplicate yet, a joker is the duplicate.
    return missing + 1 - extra




def _as_bytes(counts) -> bytes:
    """A sequence of counts as bytes, or a :class:`KernelError` saying why not."""
    try:
        return bytes(counts)
    except (TypeError, ValueError):
        raise KernelError("counts must be 34 small numbers (bytes, bytearray, a uint8 buffer or a list "
                          f"of ints 0-4), not {type(counts).__name__}") from None


@cython.cfunc
def _bad_counts(counts, n: cython.Py_ssize_t) -> cython.int:
    """Say what is wrong without echoing the buffer (it may be huge)."""
    if n != N_KINDS:
        raise KernelError(f"counts must hold {N_KINDS} values, one per tile kind; got {n}")
    kind = next(k for k in range(N_KINDS) if counts[k] > 4)
    raise KernelError(f"counts must be at most 4; kind {kind} has {counts[kind]}")


# Operations of _dispatch.
_OP_STANDARD = cython.declare(cython.int, 0)
_OP_SEVEN = cython.declare(cython.int, 1)
_OP_ORPHANS = cython.declare(cython.int, 2)
_OP_WIN = cython.declare(cython.int, 3)


@cython.cfunc
@cython.boundscheck(False)
@cython.wraparound(False)
def _dispatch(counts, op: cython.int, jokers: cython.int, flags: cython.int) -> cython.int:
    """Check ``counts`` once and run one operation on it.

    ``flags``: bit 0 the 2-5-8 pair, bits 1-2 the seven-pairs mode (0 / 1 / 2),
    bit 3 thirteen orphans.  For ``_OP_SEVEN`` bit 1 means fours count as two pairs.
    """
    p: cython.p_const_uchar
    mv: cython.const[cython.uchar][::1]  # type: ignore[valid-type]
    n: cython.Py_ssize_t
    k: cython.int
    bad: cython.int = 0
    seven: cython.int
    if not _ready:
        ensure_tables()
    if cython.compiled:
        if type(counts) is bytes:
            n = len(cython.cast(bytes, counts))
            p = cython.cast(bytes, counts)
        elif type(counts) is bytearray:
            n = len(cython.cast(bytearray, counts))
            p = cython.cast(bytearray, counts)
        else:
            if isinstance(counts, (list, tuple)):
                counts = _as_bytes(counts)
            mv = counts
            n = mv.shape[0]
            if n != _n_kinds:
                return _bad_counts(counts, n)
            p = cython.address(mv[0])
    else:
        if not isinstance(counts, (bytes, bytearray)):
            counts = _as_bytes(counts)  # same checks as the compiled path
        n = len(counts)
        p = counts
    if n != _n_kinds:
        return _bad_counts(counts, n)
    for k in range(34):
        bad |= p[k] > 4
    if bad:
        return _bad_counts(counts, n)

    if op == _OP_STANDARD:
        return _standard(p, flags & 1)
    if op == _OP_SEVEN:
        return _seven_pairs(p, flags & 2)
    if op == _OP_ORPHANS:
        return _orphans(p)
    # _OP_WIN
    if _standard(p, flags & 1) <= jokers:
        return 1
    seven = (flags >> 1) & 3
    if seven != 0 and _seven_pairs(p, seven == 2) <= jokers:
        return 1
    if flags & 8 and _orphans(p) <= jokers:
        return 1
    return 0


# ---------------------------------------------------------------- public API


@cython.ccall
def standard_need(counts, pair258: cython.bint) -> cython.int:
    """Fewest jokers that complete ``counts`` (the real concealed tiles, jokers
    removed) as melds plus one pair; with ``pair258`` the pair must be a suited
    2, 5 or 8.

    The sum over the four groups of ``need_melds``, plus the smallest
    ``need_pair - need_melds`` of a group that may hold the pair.  Exact while
    every group holds at most 17 tiles (a larger group reads as 15, so the
    result is at least 15).  Whether the number of tiles fits is the caller's
    business: with ``real + jokers`` of the form 3n+2, the hand wins exactly when
    the result is at most ``jokers`` (spare jokers make melds of their own).
    """
    return _dispatch(counts, _OP_STANDARD, 0, 1 if pair258 else 0)


@cython.ccall
def seven_pairs_need(counts, fours_as_two: cython.bint) -> cython.int:
    """Fewest jokers that make seven pairs of ``counts`` plus jokers (14 tiles in
    all), :data:`IMPOSSIBLE` when no number does.  Without ``fours_as_two`` the
    pairs must be of seven different kinds."""
    return _dispatch(counts, _OP_SEVEN, 0, 2 if fours_as_two else 0)


@cython.ccall
def orphans_need(counts) -> cython.int:
    """Fewest jokers that make thirteen orphans (each terminal and honour once, one
    of them twice), :data:`IMPOSSIBLE` with any other tile or a second duplicate."""
    return _dispatch(counts, _OP_ORPHANS, 0, 0)


@cython.ccall
def is_win(
    counts, jokers: cython.int, pair258: cython.bint, seven_pairs: cython.int, orphans: cython.bint
) -> cython.bint:
    """Whether ``counts`` plus ``jokers`` jokers form a winning concealed part:
    melds plus a pair (a 2-5-8 pair with ``pair258``), or, where allowed, seven
    pairs (``seven_pairs`` 1: of distinct kinds, 2: four of a kind counts as two
    pairs, 0: not allowed) or thirteen orphans."""
    if seven_pairs < 0 or seven_pairs > 2:
        raise KernelError(f"seven_pairs must be 0, 1 or 2, not {seven_pairs}")
    flags: cython.int = (1 if pair258 else 0) | (seven_pairs << 1) | (8 if orphans else 0)
    return _dispatch(counts, _OP_WIN, jokers, flags) != 0


@cython.ccall
def is_win_many(hands: bytes, jokers: cython.int, pair258: cython.bint, seven_pairs: cython.int,
                orphans: cython.bint) -> bytearray:
    """:func:`is_win` for many hands at once: ``hands`` holds 34 counts per hand
    (N*34 bytes); returns N bytes, 1 where the hand wins.  No Python per hand."""
    n: cython.Py_ssize_t = len(hands)
    h: cython.Py_ssize_t
    k: cython.int
    bad: cython.int = 0
    seven: cython.int = seven_pairs
    q: cython.p_const_uchar
    if n % 34:
        raise KernelError(f"hands must hold 34 counts per hand, got {n} bytes")
    if seven < 0 or seven > 2:
        raise KernelError(f"seven_pairs must be 0, 1 or 2, not {seven}")
    if not _ready:
        ensure_tables()
    out = bytearray(n // 34)
    p: cython.p_const_uchar = hands
    for h in range(n // 34):
        q = p + 34 * h if cython.compiled else hands[34 * h: 34 * h + 34]
        for k in range(34):
            bad |= q[k] > 4
        out[h] = (_standard(q, pair258) <= jokers
                  or (seven != 0 and _seven_pairs(q, seven == 2) <= jokers)
                  or (orphans and _orphans(q) <= jokers))
    if bad:
        raise KernelError("hands must hold counts of at most 4; a hand has more")
    return out


@cython.ccall
def suit_need(code: cython.int) -> tuple:
    """``(need_melds, need_pair, need_pair258)`` of a suit code."""
    if code < 0 or code >= N_SUIT_CODES:
        raise KernelError(f"suit code out of range: {code}")
    if not _ready:
        ensure_tables()
    e: cython.int = _suit[2 * code]
    return (e & 15, e >> 4, _suit[2 * code + 1])


@cython.ccall
def honor_need(code: cython.int) -> tuple:
    """``(need_melds, need_pair, 15)`` of an honour code."""
    if code < 0 or code >= N_HONOR_CODES:
        raise KernelError(f"honour code out of range: {code}")
    if not _ready:
        ensure_tables()
    e: cython.int = _honor[2 * code]
    return (e & 15, e >> 4, _honor[2 * code + 1])


def suit_code(counts) -> int:
    """The base-5 code of a sequence of counts (nine ranks or seven honours)."""
    code = 0
    for v in reversed(list(counts)):
        code = code * 5 + v
    return code
