"""The words an expression may use, by scope, with their types and generated code.

A word is looked up in the scope it is used in: a hand-level word (``self_draw``,
``suits``), a tile quality (``honor``, ``rank``) inside ``tiles``/``kinds``
collections or, meaning "every tile of the group", inside groups; a kind property
(``copies``); a group property (``chow``, ``concealed``).  The code strings are
Cython pure-Python expressions over the names the generated module defines; ``{k}``
stands for a tile kind, ``{gk} {gt} {gf}`` for a group's kind, first tile and flags.
These are the engine's generic words: nothing here names a region or a fan.
"""

from __future__ import annotations

from dataclasses import dataclass

from mjr import abi

from .ir import BOOL, GROUP, INT, KIND, TILE, TUPLE


@dataclass(frozen=True)
class WordInfo:
    type: str
    code: str
    doc: str


def _flag(bit: int) -> str:
    return f"((s.ctx & {bit}) != 0)"


#: What each context flag says of the win.
_FLAG_DOCS = {
    "self_draw": "the winner drew the winning tile",
    "discard": "the winning tile was another player's discard",
    "robbing_kong": "the winning tile was robbed from another player's added kong",
    "after_kong": "the winning tile came right after a kong (the replacement, or the kong-maker's discard)",
    "last_tile": "the winning tile was the last of the wall",
    "first_turn": "the win came in the first go-around, before any claim",
    "dealer": "the winner is the dealer",
}

HAND_WORDS: dict[str, WordInfo] = {
    **{name: WordInfo(BOOL, _flag(1 << i), _FLAG_DOCS[name]) for i, name in enumerate(abi.CONTEXT_FLAGS)},
    "standard": WordInfo(BOOL, "(s.shape == 0)", "the decomposition is sets plus a pair"),
    "seven_pairs": WordInfo(BOOL, "(s.shape == 1)", "the decomposition is seven pairs"),
    "thirteen_orphans": WordInfo(BOOL, "(s.shape == 2)", "the hand is thirteen orphans"),
    "suits": WordInfo(INT, "_count_suits(s)", "how many of the suits m, p, s the hand holds"),
    "winners": WordInfo(INT, "s.winners", "how many players win on this discard"),
    "wildcards": WordInfo(INT, "(s.wild_held + s.meld_jokers)",
                          "wildcard tiles held in the hand, and the jokers in its declared melds"),
    "substituted": WordInfo(INT, "s.subst", "wildcards standing for a tile other than their own (the jokers "
                                            "in declared melds too)"),
    # Who sits where: the winner is seat s.seat of the _SEATS at the table; the
    # discarder (or the player whose kong was robbed) s.source steps on in play order
    # (1 right, _SEATS - 1 left, opposite half way round; 0 none); the dealer sits at
    # s.dealer_seat (the hand must say who deals where these are used).  A word of a
    # place where nobody sits is refused by the checker (a table of two has only the
    # opposite player, one of three no opposite).
    "discarder_dealer": WordInfo(BOOL, "(s.source > 0 and (s.seat + s.source) % _SEATS == s.dealer_seat)",
                                 "the discarder (or the player whose kong was robbed) is the dealer"),
    "discarder_left": WordInfo(BOOL, "(s.source == _SEATS - 1)", "the winning tile came from the left player (上家)"),
    "discarder_opposite": WordInfo(BOOL, "(2 * s.source == _SEATS)", "the winning tile came from the opposite player"),
    "discarder_right": WordInfo(BOOL, "(s.source == 1)", "the winning tile came from the right player (下家)"),
    "winner_from_dealer": WordInfo(INT, "((s.seat - s.dealer_seat + _SEATS) % _SEATS)",
                                   "steps in play order from the dealer to the winner: 0 the dealer, "
                                   "1 the dealer's right player (下家), then on round the table"),
    **{name: WordInfo(BOOL, f"(s.wait == {code})", doc) for code, (name, doc) in enumerate(zip(abi.WAITS, (
        "", "the winning tile completed an edge wait (12-3, 7-89)", "it completed a closed wait (1-3)",
        "it completed an open wait (23 waiting on 1 or 4)", "it completed the pair (单吊)",
        "it completed a pung (双碰)"), strict=True)) if name},
    "waits": WordInfo(INT, "_waits(s, 0)", "how many kinds the hand without its winning tile waits on (shapes only)"),
    "formal_waits": WordInfo(INT, "_waits(s, 1)", "the kinds that complete the hand as sets and a pair (knitted "
                                                  "too) or seven pairs, however many copies are held or out of play"),
    "winning_wildcard": WordInfo(BOOL, "(s.win_wild != 0)", "the winning tile is a wildcard"),
    "no_other_fans": WordInfo(BOOL, "(s.alone != 0)", "no other fan or limit is awarded (in a fan's condition only)"),
    # Flowers set aside (mjr.tiles.flowers): s.flowers has bit n - 1 for flower n; flower n
    # belongs to the seat (n - 1) % 4, and 1-4, 5-8 are the two series.
    "flowers": WordInfo(INT, " + ".join(f"((s.flowers >> {i}) & 1)" for i in range(8)).join("()"),
                        "how many flowers (of the eight) the hand has set aside"),
    "seat_flowers": WordInfo(INT, "(((s.flowers >> s.seat) & 1) + ((s.flowers >> (s.seat + 4)) & 1))",
                             "how many of the winner's flowers it holds: those numbered for its seat "
                             "(1 and 5 East, 2 and 6 South, ...), 0-2"),
    "red_fives": WordInfo(INT, "s.red", "how many red fives (0m 0p 0s) the hand holds"),
    "aside_fours": WordInfo(INT, "_aside_fours(s)", "how many kinds the hand has set aside all four copies of "
                                                   "(tiles ... aside(...))"),
    "flower_series": WordInfo(INT, "((1 if (s.flowers & 15) == 15 else 0) + (1 if (s.flowers & 240) == 240 else 0))",
                              "how many full series of four it holds: the flowers 1-4, the seasons 5-8 (0-2)"),
}

#: Words of the payer, in payment amounts only: the amount is worked out for each
#: player who may pay (s.payer steps on from the winner in play order).
PAYER_WORDS: dict[str, WordInfo] = {
    "payer_dealer": WordInfo(BOOL, "((s.seat + s.payer) % _SEATS == s.dealer_seat)", "the payer is the dealer"),
    "payer_discarder": WordInfo(BOOL, "(s.payer == s.source)",
                                "the payer discarded the winning tile (or had the kong robbed)"),
    "payer_left": WordInfo(BOOL, "(s.payer == _SEATS - 1)", "the payer sits at the winner's left (上家)"),
    "payer_opposite": WordInfo(BOOL, "(2 * s.payer == _SEATS)", "the payer sits opposite the winner"),
    "payer_right": WordInfo(BOOL, "(s.payer == 1)", "the payer sits at the winner's right (下家)"),
    "payer_from_dealer": WordInfo(INT, "((s.seat + s.payer - s.dealer_seat + _SEATS) % _SEATS)",
                                  "steps in play order from the dealer to the payer (0 the dealer)"),
}
#: The words naming a place at the table (left, opposite, right): refused where
#: the ruleset's table seats nobody there (``seats``).
PLACE_OF_WORD = {f"{who}_{place}": place for who in ("discarder", "payer", "from")
                 for place in ("left", "opposite", "right")}
#: The words of a seat's wind (and the flowers numbered for it): refused where the
#: table seats more than the four winds (mjr.abi.WIND_SEATS).
SEAT_WIND_WORDS = frozenset({"seat_wind", "seat_flowers"})
#: Words that need the hand to say who deals, and who discarded.
NEEDS_DEALER = frozenset({"discarder_dealer", "winner_from_dealer", "payer_dealer", "payer_from_dealer"})
NEEDS_SOURCE = frozenset({"discarder_dealer", "discarder_left", "discarder_opposite", "discarder_right",
                          "payer_discarder"})

#: The words that count the waits (a search per kind, made when a condition asks).
WAIT_COUNT_WORDS = frozenset({"waits", "formal_waits"})
#: Words that need the winning tile, and those that count the waits: a ruleset
#: using none of them is generated without the work they cost.
WINNING_TILE_WORDS = frozenset({*(name for name in abi.WAITS if name), "winning", *WAIT_COUNT_WORDS,
                                "winning_wildcard", "winning_tile"})

TILE_WORDS: dict[str, WordInfo] = {
    "honor": WordInfo(BOOL, "({k} >= 27)", "a wind or a dragon"),
    "wind": WordInfo(BOOL, "({k} >= 27 and {k} <= 30)", "E, S, W or N"),
    "dragon": WordInfo(BOOL, "({k} >= 31)", "white, green or red"),
    "suited": WordInfo(BOOL, "({k} < 27)", "a tile of a suit"),
    "terminal": WordInfo(BOOL, "({k} < 27 and ({k} % 9 == 0 or {k} % 9 == 8))", "a 1 or 9 of a suit"),
    "simple": WordInfo(BOOL, "({k} < 27 and {k} % 9 != 0 and {k} % 9 != 8)", "a 2-8 of a suit"),
    "m": WordInfo(BOOL, "({k} < 9)", "a tile of suit m"),
    "p": WordInfo(BOOL, "({k} >= 9 and {k} < 18)", "a tile of suit p"),
    "s": WordInfo(BOOL, "({k} >= 18 and {k} < 27)", "a tile of suit s"),
    "seat_wind": WordInfo(BOOL, "({k} == 27 + s.seat)", "the winner's seat wind"),
    "round_wind": WordInfo(BOOL, "({k} == 27 + s.round_)", "the round wind"),
    "wildcard": WordInfo(BOOL, "(s.is_wild[{k}] != 0)", "of a kind that is wild this hand (as a tile of the "
                                                        "completed hand: a wildcard standing for its own kind)"),
    "void_suit": WordInfo(BOOL, "(s.void >= 0 and {k} < 27 and {k} // 9 == s.void)", "of the declared void suit"),
    "rank": WordInfo(INT, "_rank({k})", "1-9 for a suited tile, 0 for an honour"),
    "winning_tile": WordInfo(BOOL, "({k} == s.win_tile)", "of the winning tile's kind (as it plays)"),
}

KIND_WORDS: dict[str, WordInfo] = {
    "copies": WordInfo(INT, "s.tc[{k}]", "copies of the kind in the whole hand"),
    "konged": WordInfo(BOOL, "_konged(s, {k})", "the hand has a kong of the kind"),
}

GROUP_WORDS: dict[str, WordInfo] = {
    "chow": WordInfo(BOOL, "({gk} == 1)", "a run of three"),
    "pung": WordInfo(BOOL, "({gk} == 2 or {gk} == 3)", "three of a kind, or a kong"),
    "kong": WordInfo(BOOL, "({gk} == 3)", "four of a kind declared as a kong"),
    "pair": WordInfo(BOOL, "({gk} == 0)", "the pair"),
    "knitted": WordInfo(BOOL, f"({{gk}} == {abi.GROUP_KNITTED})",
                        "a knitted straight: 1-4-7, 2-5-8 and 3-6-9, each of a suit of its own"),
    "concealed": WordInfo(BOOL, f"(({{gf}} & {abi.GROUP_CONCEALED}) != 0)",
                          "formed in the hand, or a concealed kong (not a declared meld)"),
    "exposed": WordInfo(BOOL, f"(({{gf}} & {abi.GROUP_CONCEALED}) == 0)",
                        "a declared meld other than a concealed kong"),
    "claimed": WordInfo(BOOL, f"(({{gf}} & {abi.GROUP_CLAIMED}) != 0)", "made with another player's tile"),
    "added": WordInfo(BOOL, f"(({{gf}} & {abi.GROUP_ADDED}) != 0)", "a kong added to an exposed pung"),
    "declared": WordInfo(BOOL, f"(({{gf}} & {abi.GROUP_DECLARED}) != 0)", "a declared meld"),
    "latest": WordInfo(BOOL, f"(({{gf}} & {abi.GROUP_LATEST}) != 0)", "the meld declared last"),
    "from_left": WordInfo(BOOL, f"(({{gf}} & {abi.GROUP_FROM_LEFT}) != 0)", "claimed from the left player (上家)"),
    "from_opposite": WordInfo(BOOL, f"(({{gf}} & {abi.GROUP_FROM_OPPOSITE}) != 0)", "claimed from the opposite player"),
    "from_right": WordInfo(BOOL, f"(({{gf}} & {abi.GROUP_FROM_RIGHT}) != 0)", "claimed from the right player (下家)"),
    "winning": WordInfo(BOOL, f"(({{gf}} & {abi.GROUP_WINNING}) != 0)", "the group the winning tile completed"),
    "wilds": WordInfo(INT, " + ".join(f"(({{gf}} >> {abi.GROUP_WILD_SHIFT + i}) & 1)" for i in range(4)).join("()"),
                      "wildcard tiles placed in this group (a declared meld's: its jokers)"),
    "substitutes": WordInfo(INT, f"(({{gf}} >> {abi.GROUP_SUBST_SHIFT}) & 7)",
                            "of the group's wildcards, those standing for a kind other than their own"),
}

#: Words of a combination of groups, inside ``count(N sets where ...)`` only.  Their
#: code is written per combination size (see mjr.compiler.emit.tuples).
TUPLE_WORDS: dict[str, WordInfo] = {
    "same_suit": WordInfo(BOOL, "", "every member is of one suit (honours are of none)"),
    "distinct_suits": WordInfo(BOOL, "", "every member is of a suit, each of a different one"),
    "step": WordInfo(INT, "", "the members' ranks (a chow's lowest), in order, rise by this much each; -1 when "
                              "they do not rise evenly"),
}

#: Collections and the scope of their elements.
COLLECTIONS = {"sets": GROUP, "groups": GROUP, "pairs": GROUP, "melds": GROUP, "tiles": TILE, "kinds": KIND}

#: Names only the score formula may use, and only payment amounts.
SCORE_NAMES = {"base": "base_", "fan": "fan_", "mult": "mult_"}
AMOUNT_NAMES = {"points": "points_", "fan": "fan_", "base": "base_", "mult": "mult_"}


def words_for(scope: str) -> dict[str, WordInfo]:
    """Every word usable in ``scope`` (hand words are usable everywhere)."""
    words = dict(HAND_WORDS)
    if scope in (TILE, KIND, GROUP):
        words.update(TILE_WORDS)
    if scope == KIND:
        words.update(KIND_WORDS)
    if scope == GROUP:
        words.update(GROUP_WORDS)
    if scope == TUPLE:
        words.update(TUPLE_WORDS)
    return words


def scope_of_word(name: str) -> str | None:
    """The narrowest scope a word belongs to, for 'only inside ...' messages."""
    for scope, table in ((GROUP, GROUP_WORDS), (KIND, KIND_WORDS), (TILE, TILE_WORDS)):
        if name in table:
            return scope
    return None


ALL_WORDS = sorted({*HAND_WORDS, *TILE_WORDS, *KIND_WORDS, *GROUP_WORDS, *PAYER_WORDS, *TUPLE_WORDS})
