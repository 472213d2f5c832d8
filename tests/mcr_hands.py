"""Random legal MCR (国标) winning hands, for comparing the ``mcr`` ruleset with PyMahjongGB.

Seeded and deterministic: ``generate(n, seed)`` gives the same hands on every
machine.  Every shape of the MCR rules §M2.1 is drawn: the standard shape with 0-4
declared sets (chows, pungs, melded, added and concealed kongs), seven pairs
(with four of a kind), seven shifted pairs, thirteen orphans, honors and knitted
tiles, the knitted straight in standard form (with 0 or 1 declared set) and nine
gates; with every context flag a table can produce.  A *theme* picks the sets
(one suit, green tiles, shifted pungs, ...), weighted towards the rare fans, so
that 10,000 hands show every one of the 81 fans and the library's 明暗杠.

A candidate is kept only if PyMahjongGB scores it as a win of at least 8 fan
before flowers (a legal MCR win); its fans are recorded with it.  Needs
PyMahjongGB (``import MahjongGB``) installed.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from hand_shapes import (
    DRAGONS,
    GREEN,
    HONORS,
    TERMINALS,
    WINDS,
    SetSpec,
    Standard,
    any_pair,
    any_set,
    chow,
    kind,
    pung,
)

import mjr
from mjr.hand.model import Context, Hand, Meld
from mjr.plugins.pymahjonggb import LAST_COPY, to_args

#: The fan of flowers, counted in the library's total but not toward the minimum of 8.
FLOWER_FAN = "花牌"
MINIMUM = 8



@dataclass(frozen=True)
class McrHand:
    """One generated winning hand: the hand and its notation, the library's arguments,
    and the library's answer (``fans`` as ``(name, count, points)``, ``total`` with flowers)."""

    hand: Hand
    text: str
    theme: str
    args: tuple[object, ...]
    fans: tuple[tuple[str, int, int], ...]
    total: int


REVERSIBLE = tuple(kind(1, r) for r in (1, 2, 3, 4, 5, 8, 9)) + tuple(kind(2, r) for r in (2, 4, 5, 6, 8, 9)) + (31,)
#: The six knitted straights: for each, the suit of 147, 258 and 369.
KNITTED_ORDERS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))


def knitted_tiles(order: tuple[int, int, int]) -> list[int]:
    return [kind(order[i], r) for i in range(3) for r in range(i + 1, 10, 3)]


# --------------------------------------------------------------------------- themes of the standard shape


def theme_random(rng: random.Random) -> Standard:
    return [any_set(rng) for _ in range(4)], any_pair(rng)


def theme_plain(rng: random.Random) -> Standard:
    """Chows of all three suits and an honour pair: the sets of a 无番和 (chicken hand)."""
    suits = [0, 1, 2, rng.randrange(3)]
    rng.shuffle(suits)
    return [chow(suit, rng.randint(1, 7)) for suit in suits], rng.choice(HONORS)


def theme_flush(rng: random.Random) -> Standard:
    """One suit, with or without honours (清一色, 混一色), chows of one suit often related."""
    suit, honors = rng.randrange(3), rng.random() < 0.5
    return [any_set(rng, (suit,), honors) for _ in range(4)], any_pair(rng, (suit,), honors)


def theme_honors(rng: random.Random) -> Standard:
    """Winds and dragons: 大四喜, 小四喜, 三风刻, 大三元, 小三元, 双箭刻, 字一色."""
    group = list(rng.choice((WINDS, DRAGONS, HONORS)))
    rng.shuffle(group)
    n = rng.randint(2, min(4, len(group)))
    sets = [pung(k) for k in group[:n]]
    rest = [k for k in HONORS if k not in group[:n]]
    all_honors = rng.random() < 0.4
    while len(sets) < 4:
        if all_honors:
            k = rng.choice(rest)
            rest.remove(k)
            sets.append(pung(k))
        else:
            sets.append(any_set(rng))
    pair = rng.choice(rest) if all_honors or rng.random() < 0.6 else any_pair(rng)
    return sets, pair


def theme_pool(rng: random.Random, pool: tuple[int, ...], chows: list[SetSpec]) -> Standard:
    """Sets drawn from ``pool`` (pungs) and ``chows``; the pair from ``pool``."""
    sets = [rng.choice(chows) if chows and rng.random() < 0.5 else pung(rng.choice(pool)) for _ in range(4)]
    return sets, rng.choice(pool)


def theme_green(rng: random.Random) -> Standard:
    return theme_pool(rng, GREEN, [chow(2, 2)])


def theme_reversible(rng: random.Random) -> Standard:
    return theme_pool(rng, REVERSIBLE, [chow(1, 1), chow(1, 2), chow(1, 3), chow(2, 4)])


def theme_terminals(rng: random.Random) -> Standard:
    """Pungs of terminals (清幺九) or of terminals and honours (混幺九)."""
    pool = TERMINALS + (HONORS if rng.random() < 0.5 else ())
    return [pung(k) for k in rng.sample(pool, 4)], rng.choice(pool)


#: Ranks of 全大, 全中, 全小, 大于五, 小于五.
RANK_RANGES = ((7, 8, 9), (4, 5, 6), (1, 2, 3), (6, 7, 8, 9), (1, 2, 3, 4))


def theme_ranks(rng: random.Random) -> Standard:
    ranks = rng.choice(RANK_RANGES)
    pool = tuple(kind(s, r) for s in range(3) for r in ranks)
    chows = [chow(s, r) for s in range(3) for r in ranks if r + 2 in ranks]
    return theme_pool(rng, pool, chows)


def theme_even_pungs(rng: random.Random) -> Standard:
    pool = tuple(kind(s, r) for s in range(3) for r in (2, 4, 6, 8))
    return [pung(k) for k in rng.sample(pool, 4)], rng.choice(pool)


def theme_fives(rng: random.Random) -> Standard:
    fives = tuple(kind(s, 5) for s in range(3))
    return theme_pool(rng, fives, [chow(s, r) for s in range(3) for r in (3, 4, 5)])


def theme_outside(rng: random.Random) -> Standard:
    pool = TERMINALS + HONORS
    return theme_pool(rng, pool, [chow(s, r) for s in range(3) for r in (1, 7)])


def theme_chows(rng: random.Random) -> Standard:
    """A chow pattern (清龙, 花龙, 三同顺, 四步高, 双龙会 ...) completed at random."""
    a, b, c = rng.sample(range(3), 3)
    r, step = rng.randint(1, 3), rng.choice((1, 2))
    patterns: list[tuple[list[SetSpec], int | None]] = [
        ([chow(a, 1), chow(a, 4), chow(a, 7)], None),                              # 清龙
        ([chow(a, 1), chow(b, 4), chow(c, 7)], None),                              # 花龙
        ([chow(a, r), chow(a, r + step), chow(a, r + 2 * step)], None),            # 一色三步高
        ([chow(a, 1), chow(a, 1 + step), chow(a, 1 + 2 * step), chow(a, 1 + 3 * step)], None),  # 一色四步高
        ([chow(a, r + 2)] * 3, None),                                              # 一色三同顺
        ([chow(a, r + 2)] * 4, None),                                              # 一色四同顺
        ([chow(a, 1), chow(a, 1), chow(a, 7), chow(a, 7)], kind(a, 5)),            # 一色双龙会
        ([chow(a, 1), chow(a, 7), chow(b, 1), chow(b, 7)], kind(c, 5)),            # 三色双龙会
        ([chow(a, r + 2), chow(b, r + 2), chow(c, r + 2)], None),                  # 三色三同顺
        ([chow(a, r), chow(b, r + 1), chow(c, r + 2)], None),                      # 三色三步高
        ([chow(a, r), chow(a, r)], None),                                          # 一般高
        ([chow(a, r), chow(b, r)], None),                                          # 喜相逢
        ([chow(a, r), chow(a, r + 3)], None),                                      # 连六
        ([chow(a, 1), chow(a, 7)], None),                                          # 老少副
    ]
    sets, pair = rng.choice(patterns)
    sets = list(sets)
    while len(sets) < 4:
        sets.append(any_set(rng))
    return sets, pair if pair is not None else any_pair(rng)


def theme_pungs(rng: random.Random) -> Standard:
    """A pung pattern (一色四节高, 三节高, 三同刻, 双同刻), completed at random."""
    a, b, c = rng.sample(range(3), 3)
    r = rng.randint(1, 6)
    patterns = [
        [pung(kind(a, r)), pung(kind(a, r + 1)), pung(kind(a, r + 2)), pung(kind(a, r + 3))],
        [pung(kind(a, r)), pung(kind(a, r + 1)), pung(kind(a, r + 2))],
        [pung(kind(a, r)), pung(kind(b, r + 1)), pung(kind(c, r + 2))],
        [pung(kind(a, r)), pung(kind(b, r)), pung(kind(c, r))],
        [pung(kind(a, r)), pung(kind(b, r))],
    ]
    sets = list(rng.choice(patterns))
    while len(sets) < 4:
        sets.append(any_set(rng))
    return sets, any_pair(rng)


def theme_kongs(rng: random.Random) -> Standard:
    """Mostly pungs, for hands with many kongs (四杠, 三杠, 双暗杠, 明暗杠)."""
    return [pung(rng.randrange(34)) if rng.random() < 0.85 else any_set(rng) for _ in range(4)], any_pair(rng)


# --------------------------------------------------------------------------- declaring sets


def declare(rng: random.Random, sets: list[SetSpec], kong_rate: float) -> tuple[list[Meld], list[int]]:
    """Which sets are declared, and how: melds, and the concealed tiles of the rest."""
    melds: list[Meld] = []
    concealed: list[int] = []
    declared = rng.choice((0, 0, 1, 1, 2, 2, 3, 4))
    order = list(range(4))
    rng.shuffle(order)
    for position, index in enumerate(order):
        kind_name, tile = sets[index]
        if kind_name == "pung" and rng.random() < kong_rate:
            style = rng.choice(("concealed", "melded", "melded", "added"))
            if style == "concealed":
                melds.append(Meld("kong", tile, concealed=True))
            else:
                melds.append(Meld("kong", tile, source=rng.choice("LOR"), added=style == "added"))
        elif position < declared:
            melds.append(Meld(kind_name, tile, source="L" if kind_name == "chow" else rng.choice("LOR")))
        else:
            concealed.extend(Meld(kind_name, tile).tiles)
    return melds, concealed


STANDARD_THEMES: tuple[tuple[str, Callable[[random.Random], Standard], int], ...] = (
    ("random", theme_random, 22),
    ("plain", theme_plain, 4),
    ("flush", theme_flush, 10),
    ("honors", theme_honors, 9),
    ("green", theme_green, 3),
    ("reversible", theme_reversible, 3),
    ("terminals", theme_terminals, 3),
    ("ranks", theme_ranks, 6),
    ("even_pungs", theme_even_pungs, 2),
    ("fives", theme_fives, 3),
    ("outside", theme_outside, 4),
    ("chows", theme_chows, 14),
    ("pungs", theme_pungs, 8),
    ("kongs", theme_kongs, 6),
)


def standard(rng: random.Random, make: Callable[[random.Random], Standard]) -> tuple[list[int], list[Meld]]:
    sets, pair = make(rng)
    melds, concealed = declare(rng, sets, 0.6 if make is theme_kongs else 0.08)
    return concealed + [pair, pair], melds


# --------------------------------------------------------------------------- the special shapes


def seven_pairs(rng: random.Random) -> list[int]:
    first = 9 * rng.randrange(3)
    suit = tuple(range(first, first + 9))
    pool = rng.choice((tuple(range(34)), suit + HONORS, suit))
    kinds = rng.sample(pool, 7)
    if rng.random() < 0.25:  # four of a kind counts as two pairs
        kinds[1] = kinds[0]
    return [k for k in kinds for _ in range(2)]


def shifted_pairs(rng: random.Random) -> list[int]:
    suit, start = rng.randrange(3), rng.randint(1, 3)
    return [kind(suit, r) for r in range(start, start + 7) for _ in range(2)]


def orphans(rng: random.Random) -> list[int]:
    return list(TERMINALS + HONORS) + [rng.choice(TERMINALS + HONORS)]


def honors_knitted(rng: random.Random) -> list[int]:
    """14 of the 16 tiles of a knitted straight and the seven honours (七星不靠 when
    both left out are numbered, 全不靠 otherwise)."""
    tiles = knitted_tiles(rng.choice(KNITTED_ORDERS)) + list(HONORS)
    if rng.random() < 0.4:
        drop = rng.sample(range(9), 2)
    else:
        drop = [rng.randrange(9, 16), rng.randrange(16)]
        while drop[1] == drop[0]:
            drop[1] = rng.randrange(16)
    return [t for i, t in enumerate(tiles) if i not in drop]


def knitted_standard(rng: random.Random) -> tuple[list[int], list[Meld]]:
    """A knitted straight, a set and a pair; the set declared one time in three."""
    tiles = knitted_tiles(rng.choice(KNITTED_ORDERS)) + [any_pair(rng)] * 2
    kind_name, tile = any_set(rng)
    if rng.random() < 1 / 3:
        source = "L" if kind_name == "chow" else rng.choice("LOR")
        return tiles, [Meld(kind_name, tile, source=source)]
    return tiles + list(Meld(kind_name, tile).tiles), []


def nine_gates(rng: random.Random) -> tuple[list[int], int]:
    suit = rng.randrange(3)
    return [kind(suit, r) for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)], kind(suit, rng.randint(1, 9))


# --------------------------------------------------------------------------- a whole hand


def shape(rng: random.Random) -> tuple[str, list[int], list[Meld], int | None]:
    """(theme, concealed tiles with the winning tile, melds, the winning tile if fixed)."""
    pick = rng.random()
    if pick < 0.07:
        return "seven_pairs", seven_pairs(rng), [], None
    if pick < 0.085:
        return "shifted_pairs", shifted_pairs(rng), [], None
    if pick < 0.10:
        return "orphans", orphans(rng), [], None
    if pick < 0.125:
        return "honors_knitted", honors_knitted(rng), [], None
    if pick < 0.15:
        return "knitted", *knitted_standard(rng), None
    if pick < 0.16:
        concealed, win = nine_gates(rng)
        return "nine_gates", concealed + [win], [], win
    names, makers, weights = zip(*STANDARD_THEMES, strict=True)
    index = rng.choices(range(len(names)), weights)[0]
    return names[index], *standard(rng, makers[index]), None


def candidate(rng: random.Random) -> tuple[str, Hand] | None:
    """One hand of a random shape and context, or ``None`` if it would hold a fifth copy."""
    theme, tiles, melds, win = shape(rng)
    if win is None:
        win = rng.choice(tiles)
    tiles.remove(win)
    hand = Hand(tuple(sorted(tiles)), tuple(melds), win, context(rng, tiles, melds, win), flowers(rng))
    return (theme, hand) if max(hand.all_counts()) <= 4 else None


def context(rng: random.Random, tiles: list[int], melds: list[Meld], win: int) -> Context:
    """A random context of play that a table could produce with these tiles."""
    held = tiles.count(win) + sum(meld.tiles.count(win) for meld in melds)
    method = rng.choices(("self_draw", "discard", "robbing_kong"), (45, 48, 7 if held == 0 else 0))[0]
    has_kong = any(meld.kind == "kong" for meld in melds)
    after_kong = method == "self_draw" and has_kong and rng.random() < 0.35
    last_tile = method != "robbing_kong" and rng.random() < 0.08
    # 和绝张: the three other copies are in sight; a copy among the concealed tiles is not
    last_copy = tiles.count(win) == 0 and method != "robbing_kong" and rng.random() < 0.2
    return Context(win_by=method, after_kong=after_kong, last_tile=last_tile, seat=rng.randrange(4),
                   round=rng.randrange(4), facts=((LAST_COPY, True),) if last_copy else ())


def flowers(rng: random.Random) -> tuple[int, ...]:
    count = rng.choices(range(9), (50, 15, 10, 6, 5, 4, 4, 3, 3))[0]
    return tuple(sorted(rng.sample(range(1, 9), count)))


def hands(seed: int = 0) -> Iterator[McrHand]:
    """An endless stream of legal winning hands, the same for the same seed."""
    rng = random.Random(seed)
    while True:
        made = candidate(rng)
        if made is not None:
            scored = score(made[1], made[0])
            if scored is not None:
                yield scored


def score(hand: Hand, theme: str = "") -> McrHand | None:
    """``hand`` with the library's answer, or ``None`` if it is no legal win: not a
    win at all, or below 8 fan before flowers."""
    from MahjongGB import MahjongFanCalculator

    args = to_args(hand)
    try:
        answer = MahjongFanCalculator(*args, verbose=True)
    except TypeError:  # ERROR_NOT_WIN: a random wait that does not complete the hand
        return None
    fans = tuple((name, count, value * count) for value, count, name, _ in answer)
    total = sum(points for _, _, points in fans)
    if total - sum(points for name, _, points in fans if name == FLOWER_FAN) < MINIMUM:
        return None
    return McrHand(hand, mjr.format_hand(hand), theme, args, fans, total)


@functools.lru_cache(maxsize=4)
def generate(n: int, seed: int = 0) -> tuple[McrHand, ...]:
    """The first ``n`` hands of :func:`hands` (``seed``), kept for the next caller
    (the coverage test and the differential test share them)."""
    return tuple(itertools.islice(hands(seed), n))


def library_available() -> str | None:
    """Why the hands cannot be made (PyMahjongGB not importable), or ``None``."""
    try:
        import MahjongGB  # noqa: F401
    except ImportError as error:
        return f"PyMahjongGB is not installed (pip install PyMahjongGB): {error}"
    return None
