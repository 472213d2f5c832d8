"""The building blocks the hand generators of the differential tests share
(tests/mcr_hands.py, tests/riichi_hands.py): tile kinds, sets and pairs."""

from __future__ import annotations

import random

SetSpec = tuple[str, int]  # ("chow", lowest kind) or ("pung", kind)
Standard = tuple[list[SetSpec], int]  # four sets and the pair's kind

WINDS, DRAGONS = tuple(range(27, 31)), tuple(range(31, 34))
HONORS = WINDS + DRAGONS


def kind(suit: int, rank: int) -> int:
    return suit * 9 + rank - 1


TERMINALS = tuple(kind(s, r) for s in range(3) for r in (1, 9))
GREEN = (kind(2, 2), kind(2, 3), kind(2, 4), kind(2, 6), kind(2, 8), 32)  # 2 3 4 6 8 of bamboo, the green dragon


def chow(suit: int, rank: int) -> SetSpec:
    return ("chow", kind(suit, rank))


def pung(k: int) -> SetSpec:
    return ("pung", k)


def any_set(rng: random.Random, suits: tuple[int, ...] = (0, 1, 2), honors: bool = True,
            chows: float = 0.55) -> SetSpec:
    """A chow (with chance ``chows``) or a pung of the suits, and the honours if ``honors``."""
    if rng.random() < chows:
        return chow(rng.choice(suits), rng.randint(1, 7))
    pool = [kind(s, r) for s in suits for r in range(1, 10)] + (list(HONORS) if honors else [])
    return pung(rng.choice(pool))


def any_pair(rng: random.Random, suits: tuple[int, ...] = (0, 1, 2), honors: bool = True) -> int:
    return rng.choice([kind(s, r) for s in suits for r in range(1, 10)] + (list(HONORS) if honors else []))
