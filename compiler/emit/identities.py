"""Which identities of a wildcard-only group no rule can tell apart.

Wildcards left over once every real tile is placed form groups of their own, and
the search tries every identity for each: 34 pungs and 21 chows for a set, 34
pairs.  Most rules read a group's tiles only through a few qualities (honour or
not, which suit, terminal or not), so many identities score alike.  The compiler
proves which: every word that reads the tiles is known to read them through a
quality of a single kind (:data:`STATIC_QUALITIES`), through the counts
(``copies``, the ``kinds`` collection), or through the context of the hand (the
seat and round winds, the winning tile, the wildcard kinds).  Two kinds with the
same qualities are then alike in every rule, as long as the hand treats them
alike too: the same count held (when a rule counts copies or kinds), neither one
wild, nor the winning tile, nor a wind a rule names.  The generated search checks
that part as it goes.

Trying only the first identity of each class is exact: swapping two alike kinds
throughout a decomposition changes no word, so a skipped identity's every
completion has an alike completion under the first identity of its class, met
earlier in the search.  The first best decomposition (the one kept on a tie, with
its groups and wildcard assignment) is therefore never skipped, and neither is
the first that fails a requirement.  A word the analysis does not know (say
``konged``, which matches a group's identity against a kind) turns the pruning off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..model import ir
from ..model.vocabulary import AMOUNT_NAMES, GROUP_WORDS, HAND_WORDS, PAYER_WORDS, SCORE_NAMES

#: Tile qualities that depend on the kind alone.
STATIC_QUALITIES: dict[str, Callable[[int], int]] = {
    "honor": lambda k: k >= 27,
    "wind": lambda k: 27 <= k <= 30,
    "dragon": lambda k: k >= 31,
    "suited": lambda k: k < 27,
    "terminal": lambda k: k < 27 and k % 9 in (0, 8),
    "simple": lambda k: k < 27 and k % 9 not in (0, 8),
    "m": lambda k: k < 9,
    "p": lambda k: 9 <= k < 18,
    "s": lambda k: 18 <= k < 27,
    "rank": lambda k: k % 9 + 1 if k < 27 else 0,
}
#: Words that read a kind's suit: ``suits`` counts them; ``void_suit`` names one.
SUIT_WORDS = frozenset({"suits", "void_suit"})
#: Words that read the tiles through the hand's context: the kinds they name are
#: never merged with another (the generated ``_kind_key``).
CONTEXT_WORDS = frozenset({"seat_wind", "round_wind", "wildcard", "substituted", "substitutes"})
#: Words that read no tile identity at all.
BLIND_WORDS = (frozenset({*HAND_WORDS, *GROUP_WORDS, *PAYER_WORDS, *SCORE_NAMES, *AMOUNT_NAMES})
               - SUIT_WORDS - CONTEXT_WORDS)


@dataclass(frozen=True)
class IdentityClasses:
    """``previous[i]``: the identity before ``i`` (0-33 a pung or pair of that kind,
    34-54 a chow) that no rule tells apart from it, or -1; ``counts``: 0 when the
    counts held never matter, 1 when whether a kind is held does (``kinds``), 2
    when the exact count does (``copies``); the winds and the winning tile kept
    apart when a rule reads them."""

    enabled: bool
    previous: tuple[int, ...]
    counts: int
    seat_wind: bool
    round_wind: bool
    winning_tile: bool


def _walk(roots: Iterable[ir.Node]) -> tuple[set[str], set[str]]:
    """The word names and the aggregates' collections of ``roots``."""
    words: set[str] = set()
    collections: set[str] = set()
    for node in ir.nodes(roots):
        if isinstance(node, ir.Word):
            words.add(node.name)
        elif isinstance(node, ir.Aggregate):
            collections.add(node.collection)
    return words, collections


def _chow_start(ident: int) -> int:
    return (ident - 34) // 7 * 9 + (ident - 34) % 7


def _edge(start: int, winning_tile: bool) -> tuple[bool, ...]:
    """What the wait a wildcard winning tile completes in the chow from ``start``
    reads of its ranks (see the generated ``_wait_of``): its 3 is an edge wait in
    a 1-2-3, its 7 in a 7-8-9, any other place closed or open alike.  A pung or a
    pair waits on its kind whatever its rank, so only a chow's place is kept."""
    return (start % 9 == 0, start % 9 == 6) if winning_tile else ()


def identity_classes(ruleset: ir.Ruleset, winning_tile: bool) -> IdentityClasses:
    words, collections = _walk(ir.expressions(ruleset))
    known = BLIND_WORDS | SUIT_WORDS | CONTEXT_WORDS | set(STATIC_QUALITIES) | {"copies"}
    qualities = sorted(words & set(STATIC_QUALITIES))
    suit = bool(words & SUIT_WORDS)

    def signature(k: int) -> tuple[int, ...]:
        values = [int(STATIC_QUALITIES[q](k)) for q in qualities]
        return (*values, k // 9 if k < 27 else 3) if suit else tuple(values)

    enabled = words <= known
    signatures: list[tuple[object, ...]] = [signature(k) for k in range(34)]
    signatures += [(*(signature(_chow_start(i) + p) for p in range(3)), *_edge(_chow_start(i), winning_tile))
                   for i in range(34, 55)]
    previous = []
    for ident, sig in enumerate(signatures):
        low = 0 if ident < 34 else 34
        earlier = [j for j in range(low, ident) if signatures[j] == sig]
        previous.append(earlier[-1] if earlier and enabled else -1)
    counts = 2 if "copies" in words else 1 if "kinds" in collections else 0
    return IdentityClasses(enabled, tuple(previous), counts, "seat_wind" in words, "round_wind" in words,
                           winning_tile)
