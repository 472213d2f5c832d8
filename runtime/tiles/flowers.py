"""Flower tiles: bonus tiles a player sets aside and replaces (补花).

A flower is never part of a hand's shape, its melds or its waits: a hand holds a
set of them beside its tiles, each of the eight at most once.  They are numbered
1-8 and written ``1f``-``8f``: 1-4 are the flowers 梅兰竹菊 (plum, orchid,
bamboo, chrysanthemum), 5-8 the seasons 春夏秋冬.  Flower ``n`` belongs to the
seat ``(n - 1) % 4`` (E S W N): ``1f`` and ``5f`` are East's.  A hand keeps them
as a sorted tuple of numbers (:attr:`mjr.Hand.flowers`); a hand record as one
byte, bit ``n - 1`` for flower ``n``.
"""

from __future__ import annotations

#: How many flower tiles there are, and the letter that writes them (``5f``).
N_FLOWERS = 8
FLOWER_LETTER = "f"
#: The bits of a full series of four: the flowers 1-4, the seasons 5-8.
SERIES_MASKS = (0x0F, 0xF0)


def flower_name(number: int) -> str:
    """``5f`` for flower 5."""
    return f"{number}{FLOWER_LETTER}"


def format_flowers(flowers: tuple[int, ...]) -> str:
    """The notation's one word for a hand's flowers, ``15f``; empty for none."""
    return "".join(str(number) for number in flowers) + FLOWER_LETTER if flowers else ""


def flower_mask(flowers: tuple[int, ...]) -> int:
    """The record byte of a set of flowers: bit ``n - 1`` for flower ``n``."""
    mask = 0
    for number in flowers:
        mask |= 1 << (number - 1)
    return mask


def flowers_of_mask(mask: int) -> tuple[int, ...]:
    """The flowers a record byte holds, in order."""
    return tuple(number for number in range(1, N_FLOWERS + 1) if mask >> (number - 1) & 1)


def flowers_problem(flowers: object) -> tuple[str, object, str] | None:
    """(field, value, reason) of what is wrong with a hand's ``flowers``, or ``None``:
    a tuple of distinct ints 1-8 (a hand built with them unsorted has them sorted
    before this is asked)."""
    if type(flowers) is not tuple:
        return "flowers", flowers, "expected a tuple of flower numbers 1-8"
    seen: set[int] = set()
    for index, number in enumerate(flowers):
        if type(number) is not int or not 1 <= number <= N_FLOWERS:
            return f"flowers[{index}]", number, "flowers are numbered 1-8 (1-4 梅兰竹菊, 5-8 春夏秋冬)"
        if number in seen:
            return f"flowers[{index}]", number, "each flower is held at most once"
        seen.add(number)
    return None
