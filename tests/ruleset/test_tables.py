"""The table-driven win check (mjr.ruleset.kernels) against brute-force references."""

from __future__ import annotations

import itertools
from array import array
from functools import cache

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mjr.abi import DECOMPOSITION_GROUPS, DECOMPOSITION_HASH, DECOMPOSITION_PAIR
from mjr.errors import KernelError
from mjr.ruleset import kernels as tables
from mjr.ruleset.kernels import (
    IMPOSSIBLE,
    N_HONOR_CODES,
    N_SUIT_CODES,
    ensure_decompositions,
    ensure_tables,
    honor_need,
    is_win,
    is_win_many,
    orphans_need,
    seven_pairs_need,
    standard_need,
    suit_code,
    suit_need,
)

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
INF = 10**6
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.fixture(scope="module", autouse=True)
def _tables():
    ensure_tables()


def counts_of(text: str) -> bytes:
    """``"123m55p7z"`` -> 34 counts (a small MPSZ reader, independent of mjr.notation)."""
    counts = [0] * 34
    ranks: list[int] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            ranks.append(int(ch))
            continue
        base = {"m": 0, "p": 9, "s": 18, "z": 27}[ch]
        for r in ranks:
            counts[base + r - 1] += 1
        ranks = []
    assert not ranks, text
    return bytes(counts)


def _minus(counts: tuple[int, ...], kinds: dict[int, int]) -> tuple[int, ...]:
    lst = list(counts)
    for k, n in kinds.items():
        lst[k] -= n
    return tuple(lst)


def _pair_ok(k: int, pair: int) -> bool:
    return pair == 1 or (pair == 2 and k < 27 and k % 9 in (1, 4, 7))


# ---------------------------------------------------------------- references


@cache
def ref_need(counts: tuple[int, ...], pair: int) -> int:
    """Fewest jokers for melds (+ one pair: ``pair`` 1 any, 2 a 2-5-8 pair, 0 none).

    Exhaustive: the lowest real tile sits in a pung with 1-3 real copies, in any
    chow through it with every other place either real or a joker, or in the pair;
    or the pair is two jokers.  Nothing is chosen greedily.
    """
    k = next((i for i, c in enumerate(counts) if c), None)
    if k is None:
        return 2 if pair else 0
    best = 2 + ref_need(counts, 0) if pair else INF
    c = counts[k]
    for r in range(1, min(3, c) + 1):
        best = min(best, 3 - r + ref_need(_minus(counts, {k: r}), pair))
    if pair and _pair_ok(k, pair):
        for r in range(1, min(2, c) + 1):
            best = min(best, 2 - r + ref_need(_minus(counts, {k: r}), 0))
    if k < 27:
        base, rank = k - k % 9, k % 9
        for start in (rank - 2, rank - 1, rank):
            if start < 0 or start + 2 > 8:
                continue
            others = [base + start + d for d in range(3) if start + d != rank]
            for real in itertools.product((False, True), repeat=2):
                if any(u and counts[o] == 0 for o, u in zip(others, real, strict=True)):
                    continue
                take = {k: 1}
                for o, u in zip(others, real, strict=True):
                    if u:
                        take[o] = take.get(o, 0) + 1
                best = min(best, real.count(False) + ref_need(_minus(counts, take), pair))
    return best


@cache
def plain_standard(counts: tuple[int, ...], pair: int) -> bool:
    """Melds (+ pair) of real tiles only; counts may exceed 4 (jokers as copies)."""
    k = next((i for i, c in enumerate(counts) if c), None)
    if k is None:
        return not pair
    c = counts[k]
    if pair and _pair_ok(k, pair) and c >= 2 and plain_standard(_minus(counts, {k: 2}), 0):
        return True
    if c >= 3 and plain_standard(_minus(counts, {k: 3}), pair):
        return True
    if k < 27 and k % 9 <= 6 and counts[k + 1] and counts[k + 2]:
        return plain_standard(_minus(counts, {k: 1, k + 1: 1, k + 2: 1}), pair)
    return False


def plain_seven_pairs(counts: tuple[int, ...], fours_as_two: bool) -> bool:
    if sum(counts) != 14 or any(c % 2 for c in counts):
        return False
    return fours_as_two or max(counts) == 2


def plain_orphans(counts: tuple[int, ...]) -> bool:
    return (
        sum(counts) == 14
        and all(counts[k] for k in ORPHANS)
        and not any(c for k, c in enumerate(counts) if k not in ORPHANS)
    )


@cache
def ref_shapes(counts: bytes, jokers: int) -> frozenset[str]:
    """The shapes ``counts`` plus ``jokers`` can make, trying every joker as every
    kind and checking the hand without jokers: ``std``, ``std258``, ``seven``
    (distinct pairs), ``seven4`` (fours count as two pairs), ``orphans``."""
    found: set[str] = set()
    real = tuple(counts)
    for combo in itertools.combinations_with_replacement(range(34), jokers):
        full = list(real)
        for k in combo:
            full[k] += 1
        hand = tuple(full)
        if plain_standard(hand, 1):
            found.add("std")
        if plain_standard(hand, 2):
            found.add("std258")
        if plain_seven_pairs(hand, False):
            found.add("seven")
        if plain_seven_pairs(hand, True):
            found.add("seven4")
        if plain_orphans(hand):
            found.add("orphans")
    return frozenset(found)


def ref_is_win(counts: bytes, jokers: int, pair258: bool, seven: int, orphans: bool) -> bool:
    shapes = ref_shapes(counts, jokers)
    return (
        ("std258" if pair258 else "std") in shapes
        or (seven == 1 and "seven" in shapes)
        or (seven == 2 and "seven4" in shapes)
        or (orphans and "orphans" in shapes)
    )


def ref_seven_pairs_need(counts: bytes, fours_as_two: bool) -> int:
    jokers = 14 - sum(counts)
    ok = jokers >= 0 and ("seven4" if fours_as_two else "seven") in ref_shapes(counts, jokers)
    return jokers if ok else IMPOSSIBLE


def ref_orphans_need(counts: bytes) -> int:
    jokers = 14 - sum(counts)
    return jokers if jokers >= 0 and "orphans" in ref_shapes(counts, jokers) else IMPOSSIBLE


def capped(n: int) -> int:
    return min(n, 15)


# ---------------------------------------------------------------- strategies


@st.composite
def near_wins(draw) -> tuple[bytes, int]:
    """A complete hand (melds + pair), some tiles turned into jokers, maybe one
    tile swapped for another."""
    tiles: list[int] = []
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            start = draw(st.integers(0, 2)) * 9 + draw(st.integers(0, 6))
            tiles += [start, start + 1, start + 2]
        else:
            tiles += [draw(st.integers(0, 33))] * 3
    tiles += [draw(st.integers(0, 33))] * 2
    jokers = draw(st.integers(0, min(3, len(tiles))))
    for _ in range(jokers):
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    if tiles and draw(st.booleans()):
        tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.integers(0, 33))
    counts = [0] * 34
    for k in tiles:
        counts[k] += 1
    assume(max(counts) <= 4)
    return bytes(counts), jokers


@st.composite
def random_hands(draw) -> tuple[bytes, int]:
    """Random tiles from a small pool (one suit, sometimes a second suit or a few
    honours), padded with jokers to 3n+2 tiles."""
    pool = list(range(9 * (s := draw(st.integers(0, 2))), 9 * s + 9))
    extra = draw(st.sampled_from(["", "suit", "honours"]))
    if extra == "suit":
        pool += [(k + 9) % 27 for k in pool]
    elif extra == "honours":
        pool += [27, 28, 31]
    tiles = draw(st.lists(st.sampled_from(pool), max_size=14))
    counts = [0] * 34
    for k in tiles:
        counts[k] = min(4, counts[k] + 1)
    n = sum(counts)
    base = (2 - n) % 3
    jokers = draw(st.sampled_from([base, base + 3] if base == 0 and n <= 11 else [base]))
    return bytes(counts), jokers


hands = st.one_of(near_wins(), random_hands())


# ---------------------------------------------------------------- properties


@SETTINGS
@given(hands, st.booleans())
def test_standard_need_matches_exhaustive_search(hand, pair258):
    counts, _ = hand
    want = ref_need(tuple(counts), 2 if pair258 else 1)
    assert capped(standard_need(counts, pair258)) == capped(want)


@SETTINGS
@given(hands, st.booleans(), st.integers(0, 2), st.booleans())
def test_is_win_matches_joker_substitution(hand, pair258, seven, orphans):
    counts, jokers = hand
    want = ref_is_win(counts, jokers, pair258, seven, orphans)
    assert is_win(counts, jokers, pair258, seven, orphans) == want
    # The standard shape alone agrees with the exhaustive search too.
    std = ref_need(tuple(counts), 2 if pair258 else 1) <= jokers
    assert is_win(counts, jokers, pair258, 0, False) == std


@SETTINGS
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda c: 7 <= sum(c) <= 17))
def test_suit_table_large_codes(cs):
    """Up to 17 tiles of a suit: a 16-tile hand's five sets and a pair."""
    hand = tuple(cs) + (0,) * 25
    want = tuple(capped(ref_need(hand, pair)) for pair in (0, 1, 2))
    assert suit_need(suit_code(cs)) == want


def test_suit_table_all_small_codes():
    for cs in itertools.product(range(5), repeat=9):
        if sum(cs) > 5:
            continue
        hand = cs + (0,) * 25
        want = tuple(ref_need(hand, pair) for pair in (0, 1, 2))
        assert suit_need(suit_code(cs)) == want, cs


def test_honour_table_small_codes():
    for cs in itertools.product(range(5), repeat=7):
        if sum(cs) > 8:
            continue
        hand = (0,) * 27 + cs
        want = (ref_need(hand, 0), ref_need(hand, 1), 15)
        assert honor_need(suit_code(cs)) == want, cs


@st.composite
def jokered(draw, tiles: list[int]) -> bytes:
    """Counts of ``tiles`` with up to three of them taken out (they become jokers)
    and maybe one swapped for any tile."""
    tiles = list(tiles)
    for _ in range(draw(st.integers(0, 3))):
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    if draw(st.booleans()):
        tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.integers(0, 33))
    counts = [0] * 34
    for k in tiles:
        counts[k] += 1
    assume(max(counts) <= 4)
    return bytes(counts)


seven_pair_hands = st.lists(st.integers(0, 33), min_size=7, max_size=7).flatmap(
    lambda kinds: jokered(sorted(kinds * 2))
)
orphan_hands = st.sampled_from(ORPHANS).flatmap(lambda k: jokered(sorted(ORPHANS + (k,))))


@SETTINGS
@given(st.one_of(seven_pair_hands, orphan_hands, near_wins().map(lambda h: h[0])), st.booleans())
def test_special_shapes_match_substitution(counts, fours_as_two):
    assume(sum(counts) >= 11)
    assert seven_pairs_need(counts, fours_as_two) == ref_seven_pairs_need(counts, fours_as_two)
    assert orphans_need(counts) == ref_orphans_need(counts)
    jokers = 14 - sum(counts)
    for seven in (0, 1, 2):
        for orphans in (False, True):
            want = ref_is_win(counts, jokers, False, seven, orphans)
            assert is_win(counts, jokers, False, seven, orphans) == want


# ---------------------------------------------------------------- specific cases


def test_nine_gates_wins_on_every_rank():
    gates = counts_of("1112345678999m")
    assert standard_need(gates, False) == 1
    for rank in range(9):
        hand = bytearray(gates)
        hand[rank] += 1
        assert is_win(hand, 0, False, 0, False), rank + 1
        assert standard_need(hand, False) == 0
    # 111 234 55 678 999: a 2-5-8 pair.
    assert is_win(counts_of("11123455678999m"), 0, True, 0, False)
    # 111 22 345 678 999 with 2m added, 11 123 456 789 99 with 9m added (no 2-5-8 pair).
    assert is_win(counts_of("11122345678999m"), 0, True, 0, False)
    assert is_win(counts_of("11123456789999m"), 0, False, 0, False)
    assert not is_win(counts_of("11123456789999m"), 0, True, 0, False)


def test_simple_wins_and_misses():
    assert is_win(counts_of("123m456m789m123p55p"), 0, True, 0, False)
    assert is_win(counts_of("123m456m789m123p11p"), 0, False, 0, False)
    assert not is_win(counts_of("123m456m789m123p11p"), 0, True, 0, False)
    assert standard_need(counts_of("123m456m789m123p11p"), True) == ref_need(
        tuple(counts_of("123m456m789m123p11p")), 2
    )
    assert not is_win(counts_of("123m456m789m124p55p"), 0, False, 0, False)
    assert is_win(counts_of("123m456m789m12p55p"), 1, False, 0, False)
    assert is_win(counts_of("111z222z333z444z55z"), 0, False, 0, False)
    assert not is_win(counts_of("111z222z333z444z55z"), 0, True, 0, False)


def test_lone_high_tiles_need_jokers_below():
    assert suit_need(suit_code([0, 0, 0, 0, 0, 0, 0, 1, 1])) == (1, 3, 3)  # 8 9 -> J 8 9
    assert suit_need(suit_code([1, 1])) == (1, 3, 3)  # 1 2 -> 1 2 J
    assert suit_need(suit_code([0] * 8 + [1])) == (2, 1, 4)  # 9 -> J J 9, or the pair 9 J
    assert suit_need(suit_code([0, 1])) == (2, 1, 1)  # 2: the pair 2 J is a 2-5-8 pair
    assert suit_need(suit_code([1, 0, 1])) == (1, 3, 3)  # 1 3 -> 1 J 3
    hand = counts_of("89m11p")
    assert standard_need(hand, False) == 1
    assert is_win(hand, 1, False, 0, False)
    assert not is_win(hand, 0, False, 0, False)
    assert is_win(counts_of("89m123p456p789p11s"), 1, False, 0, False)


def test_joker_pair_and_fifth_copy():
    melds = counts_of("123m456m789m123p")
    assert standard_need(melds, False) == 2
    assert standard_need(melds, True) == 2
    assert is_win(melds, 2, True, 0, False)
    assert not is_win(melds, 1, False, 0, False)
    # Only honours, 2-5-8 pair of two jokers.
    assert is_win(counts_of("111z222z333z444z"), 2, True, 0, False)
    # 1111m: 111 plus 1 J, the joker a fifth 1m.
    assert suit_need(suit_code([4])) == (2, 1, 4)
    assert is_win(counts_of("1111m123p456p789p"), 1, False, 0, False)
    assert not is_win(counts_of("1111m123p456p789p"), 1, True, 0, False)
    assert standard_need(counts_of("1111m123p456p789p"), True) == 4
    assert is_win(counts_of("1111m123p456p"), 4, True, 0, False)  # 111m 1JJm 123p 456p JJ


def test_empty_and_joker_only_hands():
    empty = bytes(34)
    assert standard_need(empty, False) == 2
    assert standard_need(empty, True) == 2
    assert is_win(empty, 2, True, 0, False)
    assert is_win(empty, 14, True, 1, True)
    assert suit_need(0) == (0, 2, 2)
    assert honor_need(0) == (0, 2, 15)


def test_thirteen_orphans():
    base = counts_of("19m19p19s1234567z")
    assert orphans_need(base) == 1
    full = bytearray(base)
    full[33] += 1
    assert orphans_need(full) == 0
    assert is_win(full, 0, False, 0, True)
    assert not is_win(full, 0, False, 1, False)
    assert not is_win(full, 0, False, 2, False)
    assert is_win(base, 1, False, 0, True)
    one_missing = bytearray(full)
    one_missing[0] -= 1  # 1m gone: a joker takes its place
    assert orphans_need(one_missing) == 1
    assert is_win(one_missing, 1, False, 0, True)
    two_missing = bytearray(base)
    two_missing[27] -= 1
    assert orphans_need(two_missing) == 2
    assert is_win(two_missing, 2, False, 0, True)
    not_orphan = bytearray(base)
    not_orphan[4] += 1  # 5m
    assert orphans_need(not_orphan) == IMPOSSIBLE
    assert not is_win(not_orphan, 0, False, 0, True)
    three_ones = bytearray(base)
    three_ones[0] += 2  # 1m three times
    assert orphans_need(three_ones) == IMPOSSIBLE


def test_seven_pairs():
    pairs = counts_of("1199m1199p11s1155z")
    assert not is_win(pairs, 0, False, 0, False)
    assert is_win(pairs, 0, False, 1, False)
    assert is_win(pairs, 0, False, 2, False)
    assert seven_pairs_need(pairs, False) == 0
    four = counts_of("1111m22p33p44s55s66z")
    assert seven_pairs_need(four, False) == IMPOSSIBLE
    assert seven_pairs_need(four, True) == 0
    assert not is_win(four, 0, False, 1, False)
    assert is_win(four, 0, False, 2, False)
    # 1199m 1199p 1s 11z 5z + 2 jokers
    jokered = counts_of("1199m1199p1s11z5z")
    assert seven_pairs_need(jokered, False) == 2
    assert is_win(jokered, 2, False, 1, False)
    # three of a kind: with distinct pairs the odd tile cannot pair
    three = counts_of("111m99m1199p11s11z")
    assert seven_pairs_need(three, False) == IMPOSSIBLE
    assert seven_pairs_need(three, True) == 1
    assert is_win(three, 1, False, 2, False)
    assert not is_win(three, 1, False, 1, False)
    # Fewer than 7 kinds: joker pairs of new kinds.
    assert seven_pairs_need(counts_of("11m22m33m44m55m"), False) == 4
    assert is_win(counts_of("11m22m33m44m55m"), 4, False, 1, False)
    # Also a standard win: 123 123 456 456 77.
    assert is_win(counts_of("11223344556677m"), 0, False, 0, False)
    assert not is_win(counts_of("11223344556677m"), 0, True, 0, False)
    assert is_win(counts_of("11223344556677m"), 0, True, 1, False)


# ---------------------------------------------------------------- API details


@pytest.mark.parametrize("kind", [bytes, bytearray, lambda b: array("B", b), list, tuple, memoryview])
def test_counts_types(kind):
    hand = counts_of("1112345678999m5m")
    assert standard_need(kind(hand), False) == 0
    assert is_win(kind(hand), 0, False, 0, False)
    assert seven_pairs_need(kind(counts_of("1199m1199p11s1155z")), False) == 0
    assert orphans_need(kind(counts_of("19m19p19s12345677z"))) == 0


def test_bad_counts_are_named_without_echoing_the_buffer():
    with pytest.raises(KernelError, match="must hold 34 values, one per tile kind; got 33$"):
        standard_need(bytes(33), False)
    with pytest.raises(KernelError, match="got 35$"):
        is_win(bytes(35), 0, False, 0, False)
    with pytest.raises(KernelError, match="^counts must be at most 4; kind 0 has 5$"):
        is_win(bytes([5] + [0] * 33), 0, False, 0, False)
    with pytest.raises(KernelError, match="must be 34 small numbers"):
        is_win([300] * 34, 0, False, 0, False)
    with pytest.raises(KernelError, match="seven_pairs must be 0, 1 or 2, not 3"):
        is_win(bytes(34), 0, False, 3, False)
    with pytest.raises(KernelError, match="suit code out of range"):
        suit_need(N_SUIT_CODES)
    with pytest.raises(KernelError, match="honour code out of range"):
        honor_need(-1)
    with pytest.raises(KernelError, match="at most 4; a hand has more"):
        is_win_many(bytes([5] + [0] * 33), 0, False, 0, False)
    huge = bytes([9]) * 10**6
    with pytest.raises(KernelError) as caught:
        is_win(huge, 0, False, 0, False)
    assert len(str(caught.value)) < 100


def test_table_layout():
    assert len(tables.suit_table) == 2 * N_SUIT_CODES
    assert len(tables.honor_table) == 2 * N_HONOR_CODES
    # More than 17 tiles: not computed.
    assert suit_need(N_SUIT_CODES - 1) == (15, 15, 15)
    code = suit_code([1, 1, 1, 0, 0, 0, 0, 0, 2])
    # 123 99: melds 1 (99J), pair 0, 2-5-8 pair 3 (99J and JJ).
    assert suit_need(code) == (1, 0, 3)
    assert tables.suit_table[2 * code] == 1 | (0 << 4)
    assert tables.suit_table[2 * code + 1] == 3


def test_a_suit_of_seventeen_tiles_is_read():
    """Five sets in one suit (a deal of 16): 11m222333444456678s wins
    with no joker; the tables once stopped at 14 tiles a suit and called it impossible."""
    assert standard_need(counts_of("11m222333444456678s"), False) == 0
    assert is_win(counts_of("222333444555666s88s"), 0, False, 0, False)


# --------------------------------------------------------------------------- decompositions


def ref_decompositions(counts: list[int], pair_left: bool) -> list[tuple[tuple[str, int], ...]]:
    """Every way nine counts split into sets and at most one pair, in the search's
    order: the lowest tile left in a pair, then a pung, then a chow from it up."""
    r = next((i for i, c in enumerate(counts) if c), None)
    if r is None:
        return [()]
    found: list[tuple[tuple[str, int], ...]] = []
    for kind, take, ok in (("pair", {r: 2}, pair_left and counts[r] >= 2), ("pung", {r: 3}, counts[r] >= 3),
                           ("chow", {r: 1, r + 1: 1, r + 2: 1}, r <= 6 and counts[r + 1] and counts[r + 2])):
        if not ok:
            continue
        rest = list(counts)
        for rank, n in take.items():
            rest[rank] -= n
        found += [((kind, r), *tail) for tail in ref_decompositions(rest, pair_left and kind != "pair")]
    return found


def table_decompositions(code: int) -> list[tuple[tuple[str, int], ...]] | None:
    """The kernel's decompositions of a suit's code, read as the generated modules read them."""
    keys, spans, words = tables.decomposition_keys, tables.decomposition_spans, tables.decomposition_words
    slot = (code * DECOMPOSITION_HASH) % 2**32 >> tables.decomposition_shift
    while keys[slot]:
        if keys[slot] == code + 1:
            out = []
            for word in words[spans[slot] >> 8:(spans[slot] >> 8) + (spans[slot] & 255)]:
                groups = tuple((("pair", "chow", "pung")[word >> 8 * g >> 4 & 15], word >> 8 * g & 15)
                               for g in range(word >> DECOMPOSITION_GROUPS & 15))
                assert word >> DECOMPOSITION_PAIR & 1 == any(kind == "pair" for kind, _ in groups)
                out.append(groups)
            return out
        slot = (slot + 1) % len(keys)
    return None


needs_compiled = pytest.mark.skipif(not tables.COMPILED, reason="the decomposition tables are built compiled only")


@needs_compiled
@SETTINGS
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda c: sum(c) <= 17))
def test_decompositions_are_the_searchs(cs):
    ensure_decompositions()
    want = ref_decompositions(cs, True)
    assert table_decompositions(suit_code(cs)) == (want if want else None)


@needs_compiled
def test_decompositions_of_every_small_suit():
    ensure_decompositions()
    for cs in itertools.product(range(5), repeat=9):
        if sum(cs) <= 8 and sum(cs) % 3 != 1:
            want = ref_decompositions(list(cs), True)
            assert table_decompositions(suit_code(cs)) == (want if want else None), cs
    # the two orders of one pair and chow, as the search finds them
    assert table_decompositions(suit_code([3, 1, 1, 0, 0, 0, 0, 0, 0])) == [
        (("pair", 0), ("chow", 0)), (("chow", 0), ("pair", 0))]


def test_decompositions_need_the_compiled_kernel():
    if tables.COMPILED:
        ensure_decompositions()
        assert tables.decomposition_words is not None
    else:
        with pytest.raises(KernelError, match="compiled only"):
            ensure_decompositions()
