"""Deterministic hand generators for the benchmarks.

Every generator takes a :class:`random.Random` (seed it for reproducible runs)
and returns :class:`BenchHand` objects: 34 tile counts (the winning tile
included, wildcards included) plus the winning tile.  Converters turn a hand into
each format the benchmarks feed:

* :func:`to_counts` / :func:`pack_counts` -- 34 bytes per hand (``mjr.ruleset.kernels`` and
  ``Ruleset.evaluate_counts``; the record arrays of ``Ruleset.evaluate_batch`` are
  filled from the counts in ``batch_calls.py``);
* :func:`to_mjr` -- mjr text notation (``"123m 456p ... win 2s self_draw"``);
* :func:`to_gb` -- PyMahjongGB's ``(hand, winTile)`` tile codes (W/B/T/F/J);
* :func:`to_riichi` -- the ``mahjong`` package's 136-format tiles and win tile.

Tile kinds follow mjr: 0-8 ``1m-9m``, 9-17 ``1p-9p``, 18-26 ``1s-9s``, 27-30 the
winds E S W N, 31-33 the dragons white, green, red.  The ``mahjong`` package
uses the same 34-kind order (its honours: E S W N haku hatsu chun).

The module has no dependency beyond the standard library: it carries its own
small recursive win check, used to reject winning hands from the non-winning
sets and to cross-check mjr's table kernel.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

N_KINDS = 34
SUITED = tuple(range(27))
HONORS = tuple(range(27, 34))
ALL_KINDS = tuple(range(34))
TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
#: Honour order of the wildcard successor in Guangdong tuidaohu (E S W N C F P, wrapping).
TUIDAOHU_HONOR_ORDER = (27, 28, 29, 30, 33, 32, 31)


@dataclass(frozen=True)
class BenchHand:
    """A 14-tile concealed hand: ``counts`` (34 ints, the winning tile included)
    and ``win`` (the winning tile's kind)."""

    counts: tuple[int, ...]
    win: int

    @property
    def size(self) -> int:
        return sum(self.counts)


# ---------------------------------------------------------------- tiles


def suit_kinds(suits: str) -> tuple[int, ...]:
    """The suited kinds of the given suit letters, e.g. ``"mp"``."""
    return tuple(k for s in suits for k in range(9 * "mps".index(s), 9 * "mps".index(s) + 9))


def tile_name(kind: int) -> str:
    if kind >= 27:
        return f"{kind - 26}z"
    return f"{kind % 9 + 1}{'mps'[kind // 9]}"


def wildcard_of(indicator: int) -> int:
    """Guangdong tuidaohu's wildcard: the indicator + 1 (9 wraps to 1; honours in
    the order E S W N C F P, wrapping)."""
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    order = TUIDAOHU_HONOR_ORDER
    return order[(order.index(indicator) + 1) % len(order)]


# ---------------------------------------------------------------- a reference win check


def _melds_only(c: list[int], i: int) -> bool:
    while i < N_KINDS and c[i] == 0:
        i += 1
    if i == N_KINDS:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _melds_only(c, i)
        c[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _melds_only(c, i)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        if ok:
            return True
    return False


def standard_win(counts: Sequence[int]) -> bool:
    """Melds plus one pair, no jokers (a plain recursive check)."""
    if sum(counts) % 3 != 2:
        return False
    c = list(counts)
    for k in range(N_KINDS):
        if c[k] >= 2:
            c[k] -= 2
            ok = _melds_only(c, 0)
            c[k] += 2
            if ok:
                return True
    return False


def seven_pairs_win(counts: Sequence[int], fours_as_two: bool = True) -> bool:
    if sum(counts) != 14 or any(v % 2 for v in counts):
        return False
    return fours_as_two or all(v <= 2 for v in counts)


def orphans_win(counts: Sequence[int]) -> bool:
    return sum(counts) == 14 and all(counts[k] >= 1 for k in TERMINALS_AND_HONORS) and all(
        counts[k] == 0 for k in range(N_KINDS) if k not in TERMINALS_AND_HONORS
    )


def any_win(counts: Sequence[int]) -> bool:
    """Any of the three shapes (used to reject winning hands from non-winning sets)."""
    return standard_win(counts) or seven_pairs_win(counts) or orphans_win(counts)


# ---------------------------------------------------------------- generators


def _pick_win(rng: random.Random, counts: Sequence[int], avoid: int | None = None) -> int:
    tiles = [k for k in range(N_KINDS) for _ in range(counts[k]) if k != avoid]
    return rng.choice(tiles)


def standard_winning(
    rng: random.Random, kinds: Iterable[int], chow_share: float = 0.6, max_copies: Sequence[int] | None = None
) -> BenchHand:
    """Four sets and a pair drawn from ``kinds``: each set a chow (when possible)
    with probability ``chow_share``, else a pung; never more than four copies of a
    kind (or ``max_copies[k]``)."""
    kinds = tuple(kinds)
    kind_set = set(kinds)
    limit = list(max_copies) if max_copies is not None else [4] * N_KINDS
    chow_starts = [k for k in kinds if k < 27 and k % 9 <= 6 and k + 1 in kind_set and k + 2 in kind_set]
    while True:
        c = [0] * N_KINDS
        pair = rng.choice(kinds)
        c[pair] += 2
        sets = 0
        tries = 0
        while sets < 4 and tries < 50:
            tries += 1
            if chow_starts and rng.random() < chow_share:
                s = rng.choice(chow_starts)
                if c[s] < limit[s] and c[s + 1] < limit[s + 1] and c[s + 2] < limit[s + 2]:
                    c[s] += 1
                    c[s + 1] += 1
                    c[s + 2] += 1
                    sets += 1
            else:
                k = rng.choice(kinds)
                if c[k] + 3 <= limit[k]:
                    c[k] += 3
                    sets += 1
        if sets == 4 and c[pair] <= limit[pair]:
            return BenchHand(tuple(c), _pick_win(rng, c))


def seven_pairs_winning(rng: random.Random, kinds: Iterable[int], four_share: float = 0.0) -> BenchHand:
    """Seven pairs of distinct kinds; with ``four_share`` > 0, sometimes one kind
    held four times (two pairs, as regions with ``seven_pairs(fours)`` allow)."""
    kinds = tuple(kinds)
    c = [0] * N_KINDS
    if four_share and rng.random() < four_share:
        chosen = rng.sample(kinds, 6)
        c[chosen[0]] = 4
        for k in chosen[1:]:
            c[k] = 2
    else:
        for k in rng.sample(kinds, 7):
            c[k] = 2
    return BenchHand(tuple(c), _pick_win(rng, c))


def non_winning(rng: random.Random, kinds: Iterable[int]) -> BenchHand:
    """14 tiles drawn from a wall of four copies of each of ``kinds``; winning
    draws (about one in a few thousand) are thrown back."""
    wall = [k for k in kinds for _ in range(4)]
    while True:
        c = [0] * N_KINDS
        for k in rng.sample(wall, 14):
            c[k] += 1
        if not any_win(c):
            return BenchHand(tuple(c), _pick_win(rng, c))


def wildcard_winning(rng: random.Random, kinds: Iterable[int], indicator: int, n_wild: int) -> BenchHand:
    """A standard winning hand in which ``n_wild`` tiles were replaced by the
    wildcard of ``indicator`` (tuidaohu's indicator + 1).  Copies stay real: at
    most four of each kind, the flipped indicator counting as one."""
    kinds = tuple(kinds)
    wild = wildcard_of(indicator)
    limit = [4] * N_KINDS
    limit[indicator] = 3
    limit[wild] = 0  # the base hand holds no wildcard of its own
    base_kinds = tuple(k for k in kinds if k != wild)
    wild_cap = 3 if wild == indicator else 4
    if n_wild > wild_cap:
        raise ValueError(f"at most {wild_cap} wildcards")
    while True:
        base = standard_winning(rng, base_kinds, max_copies=limit)
        tiles = [k for k in range(N_KINDS) for _ in range(base.counts[k])]
        for i in rng.sample(range(len(tiles)), n_wild):
            tiles[i] = wild
        c = [0] * N_KINDS
        for k in tiles:
            c[k] += 1
        if c[indicator] <= 3:
            return BenchHand(tuple(c), _pick_win(rng, c))


def generate(rng: random.Random, n: int, make, *args, **kwargs) -> list[BenchHand]:
    """``n`` hands from ``make(rng, *args, **kwargs)``."""
    return [make(rng, *args, **kwargs) for _ in range(n)]


def distinct(rng: random.Random, n: int, make, *args, **kwargs) -> list[BenchHand]:
    """``n`` different hands from ``make(rng, *args, **kwargs)``: a pass over them
    never meets the same hand twice, so the CPU cannot learn their branches (a short
    list cycled made the non-winning rows 2.5x too optimistic)."""
    seen: set[BenchHand] = set()
    out: list[BenchHand] = []
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > 20 * n + 1000:
            raise ValueError(f"{make.__name__} gave only {len(out)} different hands of the {n} asked for")
        hand = make(rng, *args, **kwargs)
        if hand not in seen:
            seen.add(hand)
            out.append(hand)
    return out


# ---------------------------------------------------------------- formats


def to_counts(hand: BenchHand) -> bytes:
    """34 bytes of counts, the winning tile included."""
    return bytes(hand.counts)


def pack_counts(hands: Iterable[BenchHand]) -> bytes:
    """N * 34 bytes: the batch buffer of ``Ruleset.evaluate_counts``."""
    return b"".join(bytes(h.counts) for h in hands)


def strip_wildcards(hand: BenchHand, wild: Sequence[int] | int | None) -> tuple[bytes, int]:
    """The counts with the wildcard kind(s) removed, and how many jokers that makes
    (the form ``mjr.ruleset.kernels.is_win`` takes)."""
    if wild is None:
        return bytes(hand.counts), 0
    kinds = (wild,) if isinstance(wild, int) else tuple(wild)
    c = list(hand.counts)
    jokers = 0
    for k in kinds:
        jokers += c[k]
        c[k] = 0
    return bytes(c), jokers


def to_mjr(hand: BenchHand, context: str = "self_draw", indicator: int | None = None) -> str:
    """mjr text notation: the concealed tiles without the winning tile, ``win T``,
    then the context words."""
    c = list(hand.counts)
    c[hand.win] -= 1
    words = []
    for suit, letter in ((range(0, 9), "m"), (range(9, 18), "p"), (range(18, 27), "s"), (range(27, 34), "z")):
        ranks = "".join(str(k - suit.start + 1) * c[k] for k in suit)
        if ranks:
            words.append(ranks + letter)
    words += ["win", tile_name(hand.win)]
    if context:
        words.append(context)
    if indicator is not None:
        words += ["indicator", tile_name(indicator)]
    return " ".join(words)


#: PyMahjongGB tile codes by mjr kind: W characters (m), B dots (p), T bamboo (s),
#: F1-F4 winds E S W N, J1-J3 dragons red, green, white (its order: 中 发 白).
GB_CODES = (
    tuple(f"W{r}" for r in range(1, 10))
    + tuple(f"B{r}" for r in range(1, 10))
    + tuple(f"T{r}" for r in range(1, 10))
    + ("F1", "F2", "F3", "F4", "J3", "J2", "J1")
)


def to_gb(hand: BenchHand) -> tuple[tuple[str, ...], str]:
    """``(hand, winTile)`` for PyMahjongGB's ``MahjongFanCalculator``: 13 concealed
    tile codes and the winning tile's code."""
    c = list(hand.counts)
    c[hand.win] -= 1
    tiles = tuple(GB_CODES[k] for k in range(N_KINDS) for _ in range(c[k]))
    return tiles, GB_CODES[hand.win]


def to_riichi(hand: BenchHand) -> tuple[list[int], int]:
    """``(tiles, win_tile)`` in the ``mahjong`` package's 136 format (kind * 4 +
    copy): 14 tiles, the winning tile among them."""
    tiles = [4 * k + i for k in range(N_KINDS) for i in range(hand.counts[k])]
    return tiles, 4 * hand.win + hand.counts[hand.win] - 1


def to_riichi34(hand: BenchHand) -> list[int]:
    """The ``mahjong`` package's 34-count list (for ``Agari.is_agari``)."""
    return list(hand.counts)
