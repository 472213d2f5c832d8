"""Numbers shared by the runtime and the code the compiler generates.

The compiler writes these into every generated module; the runtime encodes hands
with them.  Changing one changes the build-cache key (it is part of mjr's version).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

#: Context flags, bit i for word i.
CONTEXT_FLAGS = ("self_draw", "discard", "robbing_kong", "after_kong", "last_tile", "first_turn", "dealer")
#: Every word of the hand notation that is not a tile: no fact of play may take one.
CONTEXT_WORDS = ("win", "self_draw", "discard", "robbing_kong", "after_kong", "last_tile", "first_turn", "dealer",
                 "seat", "round", "from", "indicator", "winners", "void")
#: The notation's word for the tiles a hand has set aside (``tiles ... aside(E S)``),
#: and the collection of them in the language (see mjr.tiles.aside).
ASIDE = "aside"
#: Every word of the hand notation beside the tiles: no fact of play may take one.
NOTATION_WORDS = (*CONTEXT_WORDS, ASIDE)
#: Group kinds as the kernels store them (a knitted straight is one group of nine tiles).
GROUP_KINDS = ("pair", "chow", "pung", "kong", "knitted")
GROUP_KNITTED = 4
GROUP_CONCEALED, GROUP_CLAIMED, GROUP_ADDED, GROUP_DECLARED, GROUP_LATEST = 1, 2, 4, 8, 16
#: Who a claimed meld's tile came from.
GROUP_FROM_RIGHT, GROUP_FROM_OPPOSITE, GROUP_FROM_LEFT = 32, 64, 128
#: The most and the fewest players a table seats (``seats``).  Its seats are named
#: in play order: the winds E S W N, then 5 6 7 8, seats with no wind (a table of
#: three sits E S W, one of two E S).
SEATS, MIN_SEATS = 8, 2
SEAT_NAMES = "ESWN5678"
#: How many a table seats where its ruleset does not say.
DEFAULT_SEATS = 4
#: The seats that have a wind (the seats E S W N): a seat wind, flowers numbered for a seat.
WIND_SEATS = 4
#: Where a claimed tile came from, relative to the hand's owner: L the player before
#: in play order, O the one across, R the next one (see :func:`seat_steps`), and at
#: a table of five or more the steps on in play order (2-6) of a player no letter
#: names.  A record writes a source as its code: its place here plus one (0: none),
#: so 1 R, 2 O, 3 L as at a table of four, and 4-8 the steps 2-6.
SOURCES = ("R", "O", "L", "2", "3", "4", "5", "6")
SOURCE_CODES = {source: code for code, source in enumerate(SOURCES, 1)}
#: The most sets a hand holds: five and a pair, for a deal of 16.  The shared kernel's
#: tables (mjr.ruleset.kernels) cover a suit of as many tiles.
MOST_SETS = 5
#: The kernel's decomposition tables, which a generated module reads: where a
#: decomposition's word holds its number of groups and its pair bit, and the
#: multiplier of the codes' hash.
DECOMPOSITION_GROUPS = 48
DECOMPOSITION_PAIR = 52
DECOMPOSITION_HASH = 2654435761  # Knuth's: 2**32 over the golden ratio


@cache
def seat_steps(seats: int) -> Mapping[str, int]:
    """The sources a table of ``seats`` has, as steps on in play order: R the next
    player, L the one before, O the one across (at a table of an even number), and
    the other steps by number (a table of five or more).  At a table of two the
    other player sits opposite, with nobody left or right.  (Worked out once per
    table size, read-only.)"""
    if seats == 2:
        return MappingProxyType({"O": 1})
    steps = {"R": 1, "L": seats - 1}
    if seats % 2 == 0:
        steps["O"] = seats // 2
    named = set(steps.values())
    steps.update({str(step): step for step in range(2, seats - 1) if step not in named})
    return MappingProxyType(steps)


@cache
def step_sources(seats: int) -> tuple[str, ...]:
    """The source of each step on at a table of ``seats`` (index 1 to ``seats - 1``;
    index 0, the player themself, is "")."""
    names = {step: source for source, step in seat_steps(seats).items()}
    return ("", *(names[step] for step in range(1, seats)))
SHAPES = ("standard", "seven_pairs", "thirteen_orphans")


def context_bits(words: set[str]) -> int:
    return sum(1 << i for i, name in enumerate(CONTEXT_FLAGS) if name in words)

#: Group bits the search writes beside the flags above, for group words of the
#: winning tile and wildcards: the places (bit i: the group's tile i) a wildcard
#: fills, how many of those stand for another kind, and "the winning tile is here".
GROUP_WILD_SHIFT, GROUP_SUBST_SHIFT, GROUP_WINNING = 16, 20, 1 << 24
#: A knitted straight's group tile is the 1 of its 1-4-7 suit; these two bits hold
#: the suit (0 m, 1 p, 2 s) of its 2-5-8, and the 3-6-9 takes the suit left.
GROUP_KNIT_SHIFT = 8


def knitted_kinds(first: int, flags: int) -> tuple[int, ...]:
    """The nine kinds of a knitted group, place by place: 1-4-7 of the first
    tile's suit, 2-5-8 and 3-6-9 of the others (the kernels' ``_knit_tile``)."""
    a, b = first // 9, (flags >> GROUP_KNIT_SHIFT) & 3
    suits = (a, b, 3 - a - b)
    return tuple(9 * suits[place // 3] + place // 3 + 3 * (place % 3) for place in range(9))
#: The wait a winning tile completed, as the kernels store it (0: none known).
WAITS = ("", "wait_edge", "wait_closed", "wait_open", "wait_pair", "wait_pung")

# -- the hand record -------------------------------------------------------------
# One hand with its melds and context as fixed-size bytes: what the batch API reads
# in place (a NumPy structured array, or any buffer of records) and what a single
# evaluation passes the kernel.  Its size depends on the ruleset: the most melds a
# hand can declare (the ruleset's sets) and its facts of play.

#: Offsets of the fixed fields: 34 concealed counts (the winning tile included),
#: then one byte each.
RECORD_COUNTS, RECORD_WIN, RECORD_METHOD, RECORD_FLAGS = 0, 34, 35, 36
RECORD_SEAT, RECORD_ROUND, RECORD_SOURCE, RECORD_DEALER = 37, 38, 39, 40
RECORD_INDICATOR, RECORD_VOID, RECORD_WINNERS, RECORD_MELDS = 41, 42, 43, 44
#: A byte field that is not given (no indicator, no void suit, dealer unknown).
RECORD_NONE = 255
#: Bits of the flags byte.
RECORD_AFTER_KONG, RECORD_LAST_TILE, RECORD_FIRST_TURN = 1, 2, 4
#: The win method byte is the index in this tuple (the first context flags).
RECORD_METHODS = CONTEXT_FLAGS[:3]
#: A meld is three bytes: kind (0 none, then 1 chow, 2 pung, 3 kong) in bits 0-1,
#: lowest tile, and flags: concealed, added, and its source's code (see SOURCES) in
#: bits 2-3, the jokers' places in bits 4-7.  A code past 3 (a source a table of
#: five or more names by number) puts its bits 2-3 in bits 2-3 of the kind byte.
MELD_KINDS = ("", "chow", "pung", "kong")
MELD_CONCEALED, MELD_ADDED, MELD_SOURCE_SHIFT = 1, 2, 2
MELD_KIND_MASK, MELD_SOURCE_MASK = 3, 12

#: What the kernel says of each hand.  Below REFUSED: it was scored (a win, or why
#: not); from REFUSED on: it was not, and why (see mjr.Ruleset.refusal).
STATUS_WIN, STATUS_SHAPE, STATUS_REQUIREMENT, STATUS_MINIMUM, STATUS_METHOD = 0, 1, 2, 3, 4
STATUS_MALFORMED, STATUS_IMPOSSIBLE, STATUS_OUTSIDE_RULES, STATUS_OVERFLOW, STATUS_NEEDS_WIN_TILE = 16, 17, 18, 19, 20
STATUS_REFUSED = STATUS_MALFORMED
STATUS_NAMES = {
    STATUS_WIN: "win", STATUS_SHAPE: "shape", STATUS_REQUIREMENT: "requirement", STATUS_MINIMUM: "minimum",
    STATUS_METHOD: "method", STATUS_MALFORMED: "malformed", STATUS_IMPOSSIBLE: "impossible",
    STATUS_OUTSIDE_RULES: "outside_rules", STATUS_OVERFLOW: "overflow", STATUS_NEEDS_WIN_TILE: "needs_win_tile",
}


def record_flowers(melds: int) -> int:
    """Where a record holds its flowers, in a ruleset with flowers: one byte right
    after the melds, bit ``n - 1`` for flower ``n`` (see mjr.tiles.flowers)."""
    return RECORD_MELDS + 3 * melds


def record_red(melds: int, flowers: bool) -> int:
    """Where a record holds its red fives, in a ruleset with them: one byte after
    the flowers' (or the melds), two bits of count per suit (see mjr.tiles.red)."""
    return record_flowers(melds) + flowers


def record_jokers(melds: int, flowers: bool, red: bool) -> int:
    """Where a record holds its concealed jokers, in a ruleset with dedicated jokers:
    one byte after the red fives' (or the flowers', or the melds), the count of
    jokers among the concealed tiles, a joker winning tile included (see mjr.tiles.jokers)."""
    return record_red(melds, flowers) + red


def record_layout(melds: int, values: int, tiles: int, flowers: bool = False,
                  red: bool = False, jokers: bool = False) -> tuple[int, int, int]:
    """Where the facts of play start (flag and number facts, 8-byte integers),
    where the tiles facts start (34 counts each), and the record's size, for a
    ruleset of ``melds`` sets, ``values`` flag and number facts and ``tiles`` tiles
    facts, with the flowers' byte when the ruleset has ``flowers`` and the red
    fives' when it has ``red``, the jokers' when it has ``jokers``.  Everything
    8-byte aligned, so a record array has no padding to guess."""
    facts_at = -(-(record_jokers(melds, flowers, red) + jokers) // 8) * 8
    tiles_at = facts_at + 8 * values
    return facts_at, tiles_at, -(-(tiles_at + 34 * tiles) // 8) * 8


#: The longest ruleset id, in bytes.  An id names files (``<id>.mjr``, the build's
#: ``_mjr_<id>_<key>`` module and its extension, whose platform suffix adds ~40
#: bytes), and a file name holds at most 255 bytes on common file systems.
MAX_RULESET_ID = 200


def ruleset_id_problem(ident: str) -> str:
    """What makes ``ident`` too long to be a ruleset id ("" when it is not)."""
    size = len(ident.encode("utf-8", "surrogatepass"))
    return f"ruleset id is {size} bytes long; at most {MAX_RULESET_ID}" if size > MAX_RULESET_ID else ""


# -- words and numbers of hands and play that the compiler checks a ruleset against

#: The place a ruleset's clause names (``from left``) as the source letter of a hand.
PLACE_SOURCES = {"left": "L", "opposite": "O", "right": "R"}
#: The payer of a ``table pays`` clause, and of its settlement line: the deposits on
#: the table (a kitty, stakes put down in earlier turns), which no seat pays in the
#: hand itself.
TABLE = "table"
WIN_METHODS = ("self_draw", "discard", "robbing_kong")
#: The largest number and the most tiles any fact of play holds.
MAX_FACT_NUMBER, MAX_FACT_TILES = 1_000_000, 16
#: The copies of a robbed tile in the robbed player's pung, outside the robber's hand.
ROBBED_PUNG = 3


def robbed_pung(wild: bool, forbidden: tuple[str, ...] | frozenset[str] = ()) -> int:
    """The fewest real copies of a robbed tile the robbed player's pung holds: three,
    or one where the tile set has wildcards or jokers (``wild``) that may fill a
    claimed pung's other places (``wildcard may_not`` forbids neither ``pung`` nor
    ``claim``)."""
    return 1 if wild and not {"pung", "claim"} & set(forbidden) else ROBBED_PUNG
#: The winning tile's value (and a record's winning byte) for a joker: no kind.
JOKER = 34
#: The most jokers a tile set has (the largest sets have eight).
MAX_JOKERS = 8
#: Where a meld's joker places start in its record flags byte (bit ``p`` + this:
#: place ``p`` of the meld's tiles is a joker).
MELD_JOKER_SHIFT = 4
#: The red copies of each suit's 5 a ruleset with ``red_fives`` has.
RED_COPIES = 1
#: The kinds of kong a ``kong_pay`` clause is paid on.
KONG_KINDS = ("direct", "added", "concealed")
#: What may decide the next dealer (``next_dealer when ...``), and whom it may name.
DEALER_CONDITIONS = ("drawn", "dealer_won", "dealer_ready", "several_winners", "self_draw", "discard", "konged",
                     "streak", "aborted")
DEALER_TARGETS = ("dealer", "next", "previous", "winner", "discarder", "random", "last_drawer")
#: The words ``open_kong FACT`` may take after its fact.
OPEN_KONG_WORDS = ("when_ready", "locks")
#: The words of ``declare``: its stake (a number), ``closed``, the fewest tiles left to
#: draw (``wall N``), ``locks``, the facts it sets on a first turn and until the
#: declarer's next turn (``first_turn(FACT)``, ``next_turn(FACT)``), ``missed_win_bars``.
DECLARE_WORDS = ("stake", "closed", "wall", "locks", "first_turn", "next_turn", "missed_win_bars")
#: The words of ``reveal N``: ``per_kong``, ``after M``.
REVEAL_WORDS = ("per_kong", "after")
#: What brings an abortive draw (``abort``): a player's choice on the first turn
#: holding N different terminal and honour kinds, every player's first discard the
#: same wind, every player's declaration standing, N kongs by more than one player.
ABORT_WORDS = ("nine_kinds", "same_first_discards", "all_declared", "kongs")
#: How a table fills a fact of play: the tiles after the win (horses, birds), the
#: dealer's streak, the steps to the previous hand's winner, the winning tile's
#: other copies all in sight, and whether the feeder of the winner's Nth claimed
#: meld fed another player's Nth one earlier in the hand (包先不包后); the tiles revealed
#: (``reveal``) and those under them (to a winner who has declared), the stakes of
#: declarations on the table, the hands in a row drawn or won by the dealer, and the
#: winning tile's other copies all out of sight (生牌).
FACT_SOURCES = ("wall_after_win", "dealer_streak", "previous_winner", "last_copy", "fed_before", "revealed",
                "under_revealed", "deposits", "repeats", "unseen")
