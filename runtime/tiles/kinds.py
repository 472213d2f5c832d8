"""Tile kinds and their classes.

A tile kind is a small int: 0-8 characters 1m-9m, 9-17 dots 1p-9p, 18-26 bamboo
1s-9s, 27-30 the winds E S W N, 31-33 the dragons white (5z, P), green (6z, F) and
red (7z, C).  Everything else in mjr (notation, kernels, generated rulesets) speaks
in these numbers.
"""

from __future__ import annotations

N_KINDS = 34
#: The copies of each kind in a tile set.
COPIES = 4
SUIT_LETTERS = "mps"
FIRST_HONOR = 27
WIND_LETTERS = "ESWN"
#: Honour letters in kind order 27..33; ``P`` white, ``F`` green, ``C`` red.
HONOR_LETTERS = "ESWNPFC"
TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def suit_of(kind: int) -> int:
    """0, 1, 2 for m, p, s; 3 for honours."""
    return kind // 9 if kind < FIRST_HONOR else 3


def rank_of(kind: int) -> int:
    """1-9 for suited tiles, 0 for honours."""
    return kind % 9 + 1 if kind < FIRST_HONOR else 0


def is_honor(kind: int) -> bool:
    return kind >= FIRST_HONOR


def kind_of(rank: int, suit: int) -> int:
    """The kind of a suited tile (suit 0-2, rank 1-9) or an honour (suit 3, rank 1-7)."""
    return suit * 9 + rank - 1


#: MPSZ names of the 34 kinds: ``1m`` ... ``9s``, ``1z`` (East) ... ``7z`` (red).
TILE_NAMES = tuple(f"{k % 9 + 1}{SUIT_LETTERS[k // 9]}" for k in range(FIRST_HONOR)) + tuple(
    f"{k}z" for k in range(1, 8)
)


def tile_name(kind: int) -> str:
    """MPSZ name: ``5m``, ``1z`` (East) ... ``7z`` (red)."""
    if not 0 <= kind < N_KINDS:
        raise ValueError(f"no tile kind {kind}")
    return TILE_NAMES[kind]


def tile_text(kind: int) -> str:
    """A tile as a person reads it (and the notation and the language read it back):
    ``5m``, an honour by its letter, ``E`` ... ``C``."""
    if FIRST_HONOR <= kind < N_KINDS:
        return HONOR_LETTERS[kind - FIRST_HONOR]
    return tile_name(kind)




def parse_tile(text: str) -> int:
    """One tile: ``5m``, ``7z`` or an honour letter. Raises ValueError."""
    if len(text) == 1 and text in HONOR_LETTERS:
        return FIRST_HONOR + HONOR_LETTERS.index(text)
    if len(text) == 2 and text[0] in "123456789":
        rank, suit = int(text[0]), text[1]
        if suit in SUIT_LETTERS and 1 <= rank <= 9:
            return kind_of(rank, SUIT_LETTERS.index(suit))
        if suit == "z" and 1 <= rank <= 7:
            return FIRST_HONOR + rank - 1
    raise ValueError(f"not a tile: {text!r}")
