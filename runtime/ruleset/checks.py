"""The checks of a hand against one ruleset's tile set, claims and context.

These are the reasons a :class:`~mjr.Ruleset` refuses a hand that a real table
could deal (:func:`mjr.hand.impossibility` says when none could): a size the
ruleset does not deal, a tile, flower, red five, joker or tile set aside that its
tile set lacks, a claim it does not allow or from a player it may not come from,
a wildcard used where ``wildcard may_not`` forbids it, and a context its rules
cannot score (a fact of play, the dealer, the discarder, an indicator).  Each
function takes the ruleset's :class:`~mjr.ruleset.module.GeneratedModule` and
gives the reason as text, or ``None``; :meth:`mjr.Ruleset.check_hand` raises
:class:`~mjr.ruleset.HandError` with it.
"""

from __future__ import annotations

from ..abi import JOKER, PLACE_SOURCES, RED_COPIES, SEAT_NAMES, seat_steps, step_sources
from ..hand.model import CHOW, Meld
from ..notation.parse import format_meld
from ..tiles.aside import foreign_aside
from ..tiles.flowers import flower_name
from ..tiles.kinds import N_KINDS, tile_name

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..hand.model import Context, Hand
    from .module import GeneratedModule

_CLAIM_OF_MELD = {"chow": "chow", "pung": "pung", "kong": "kong"}


def _red_problem(rules: GeneratedModule, red: tuple[int, ...]) -> str | None:
    if red and not rules.red_fives:
        return f"a red {tile_name(red[0])} is not in {rules.id}'s tile set, which has no red fives"
    for kind in red:
        if red.count(kind) > RED_COPIES:
            return f"{rules.id} has {RED_COPIES} red {tile_name(kind)}; this hand holds {red.count(kind)}"
    return None


def _jokers_problem(rules: GeneratedModule, hand: Hand) -> str | None:
    held = hand.all_jokers
    if held and not rules.jokers:
        return f"a joker (J) is not in {rules.id}'s tile set, which has no jokers"
    if held > rules.jokers:
        return f"{rules.id} has {rules.jokers} jokers; this hand holds {held}"
    return None


def aside_problem(rules: GeneratedModule, aside: tuple[int, ...]) -> str | None:
    """A tile set aside that the tile set does not set aside."""
    foreign = foreign_aside(aside, rules.aside)
    if foreign is None:
        return None
    if not rules.aside:
        return f"{rules.id} sets no tiles aside (its tiles statement has no aside(...)): {tile_name(foreign)} is"
    listed = " ".join(tile_name(kind) for kind in sorted(rules.aside))
    return f"{rules.id} sets aside only {listed}, not {tile_name(foreign)}"


def outside_rules(rules: GeneratedModule, hand: Hand, winning: bool) -> str | None:
    """The first reason a possible hand (winning, or waiting) is outside the
    ruleset's tiles, claims, wildcard uses and context, or ``None``."""
    expected = rules.deal + (1 if winning else 0)
    if hand.size != expected:
        what = "a winning hand" if winning else "a waiting hand"
        return f"{what} has {expected} tiles in {rules.id} (kongs count 3); this one has {hand.size}"
    problem = context_problem(rules, hand.context)
    if problem is not None:
        return problem
    used = {*hand.tiles, *(tile for meld in hand.melds for tile in meld.tiles), hand.win_tile}
    foreign = [kind for kind in used if kind is not None and kind != JOKER and kind not in rules.kinds]
    if foreign:
        if min(foreign) in rules.aside:
            return (f"tile {tile_name(min(foreign))} is set aside when drawn in {rules.id}, never held: "
                    f"give it with the tiles set aside ('aside {tile_name(min(foreign))}')")
        return f"tile {tile_name(min(foreign))} is not in {rules.id}'s tile set"
    problem = aside_problem(rules, hand.aside)
    if problem is not None:
        return problem
    if hand.flowers and not rules.flowers:
        return f"flower {flower_name(hand.flowers[0])} is not in {rules.id}'s tile set, which has no flowers"
    problem = _red_problem(rules, hand.red) or _jokers_problem(rules, hand)
    if problem is not None:
        return problem
    wild = rules.wildcard_kinds(hand)
    for meld in hand.melds:
        claim = _CLAIM_OF_MELD[meld.kind]
        if not meld.concealed and claim not in rules.claims:
            return f"{rules.id} does not allow claiming a {claim}"
        problem = _source_problem(rules, meld.source, meld) or _claim_source_problem(rules, meld, claim)
        if problem is not None:
            return problem
        stand_in = rules.wild_stand_in
        if meld.kind == CHOW and stand_in in meld.tiles and stand_in_target(rules, wild) >= 0:
            return (f"the chow {format_meld(meld)} holds {tile_name(stand_in)}, which plays as "
                    f"{tile_name(stand_in_target(rules, wild))} this hand: no chow")
    return wildcard_use_problem(rules, hand) if rules.wild_forbidden else None


def _seat_problem(rules: GeneratedModule, context: Context) -> str | None:
    """A seat or a player the ruleset's table has not (it seats ``rules.seats``,
    named in play order: see :data:`mjr.abi.SEAT_NAMES`)."""
    seats = rules.seats
    at_table = f"{rules.id} seats {seats} players"
    for what, seat in (("seat", context.seat), ("dealer", context.dealer_seat)):
        if seat is not None and seat >= seats:
            return (f"{at_table} ({' '.join(SEAT_NAMES[:seats])}): nobody sits at {SEAT_NAMES[seat]} "
                    f"({what} {SEAT_NAMES[seat]})")
    if context.winners >= seats:
        return (f"{at_table} ({' '.join(SEAT_NAMES[:seats])}): at most {seats - 1} win on one discard, "
                f"not {context.winners} (winners {context.winners})")
    return _source_problem(rules, context.source, "the discarder")


def _source_problem(rules: GeneratedModule, source: str | None, what: str | Meld) -> str | None:
    """A source (L, O, R, or steps on by number) naming a place where the ruleset's
    table seats nobody, or a step it names by letter; ``what`` names whose source
    it is (a meld is written out only for a problem)."""
    seats = rules.seats
    if source is None or source in seat_steps(seats):
        return None
    if isinstance(what, Meld):
        what = f"the meld {format_meld(what)}"
    at_table = f"{rules.id} seats {seats} players"
    if source.isdigit() and int(source) < seats:
        named = step_sources(seats)[int(source)]
        return f"{at_table}: the player {source} steps on is {named} there: write {named} for {what}"
    place = next((f"{word} ({letter})" for word, letter in PLACE_SOURCES.items() if letter == source),
                 f"{source} steps on")
    return f"{at_table}: nobody sits {place}, so {what} cannot be there; use {_either(step_sources(seats)[1:])}"


def _either(words: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    *others, last = words
    return f"{', '.join(others)} or {last}" if others else last


def from_words(seats: int) -> str:
    """How a hand names its discarder at a table of ``seats``, in play order:
    'from R', 'from O' or 'from L' at four."""
    return _either([f"'from {source}'" for source in step_sources(seats)[1:]])


def _claim_source_problem(rules: GeneratedModule, meld: Meld, claim: str) -> str | None:
    """A claimed meld from a player its claim may not come from (``claims
    chow(left)``, ``kong(right opposite)``).  An added kong's source is its pung's."""
    allowed = [word for word in rules.claims.get(claim, ()) if word in PLACE_SOURCES]
    if not allowed or meld.concealed or meld.added or meld.source is None:
        return None
    if meld.source in {PLACE_SOURCES[word] for word in allowed}:
        return None
    return f"in {rules.id} a {claim} is claimed only from the {' or '.join(allowed)} player, not {meld.source}"


def wildcard_use_problem(rules: GeneratedModule, hand: Hand) -> str | None:
    """What ``wildcard may_not`` forbids in this hand: a meld of a forbidden kind,
    or a claimed meld, holding a wildcard; a win on a discarded (or robbed)
    wildcard, since a wildcard is never discarded."""
    forbidden = rules.wild_forbidden
    wild = rules.wildcard_kinds(hand)
    for meld in hand.melds:
        held = next((kind for kind in meld.tiles if wild[kind]), None)
        if held is None and not meld.jokers:
            continue
        word = format_meld(meld)
        what_held = "a joker" if held is None else f"the wildcard {tile_name(held)}"
        if meld.kind in forbidden:
            what = "a concealed kong" if meld.concealed else f"a {meld.kind}"
            return (f"{word} holds {what_held}: in {rules.id} a wildcard may not be used "
                    f"in {what} (wildcard may_not {meld.kind})")
        if "claim" in forbidden and not meld.concealed:
            return (f"{word} holds {what_held}: in {rules.id} wildcards may not be used "
                    "in a claimed meld (wildcard may_not claim)")
    win = hand.win_tile
    if "discard" in forbidden and win is not None and (win == JOKER or wild[win]) and not hand.context.self_draw:
        how = "robbed from a kong" if hand.context.win_by == "robbing_kong" else "a discard"
        name = "J is a joker" if win == JOKER else f"{tile_name(win)} is a wildcard"
        return (f"the winning tile {name}, so it cannot be {how}: in {rules.id} "
                "a wildcard is never discarded (wildcard may_not discard)")
    return None


def stand_in_target(rules: GeneratedModule, wild: bytearray) -> int:
    """The kind the ``wildcard stand_in`` tile plays as this hand (the first
    wildcard kind, when the stand-in is not wild itself), or -1."""
    stand_in = rules.wild_stand_in
    if stand_in < 0 or wild[stand_in]:
        return -1
    return next((kind for kind in range(N_KINDS) if wild[kind]), -1)


def context_problem(rules: GeneratedModule, context: Context) -> str | None:
    """A context the ruleset cannot score: its facts of play, a dealer or a
    discarder the rules need, an indicator it has no wildcard for."""
    problem = rules.facts.problem(context, rules.id, rules.kinds) or _seat_problem(rules, context)
    if problem is not None:
        return problem
    if rules.needs_dealer and context.dealer_wind is None:
        return (f"{rules.id}'s rules need to know who deals: add 'dealer' (the winner deals) "
                f"or 'dealer X' (X the dealer's seat, {' '.join(SEAT_NAMES[:rules.seats])})")
    if rules.needs_source and context.win_by != "self_draw" and context.source is None:
        return (f"{rules.id}'s rules need to know who discarded the winning tile (or whose kong was robbed): "
                f"add {from_words(rules.seats)}")
    indicator = context.indicator
    if indicator is None:
        return None
    if not rules.wild_derived:
        return f"{rules.id} has no wildcard from an indicator: drop 'indicator {tile_name(indicator)}'"
    if indicator not in rules.kinds:
        return f"tile {tile_name(indicator)} is not in {rules.id}'s tile set"
    return None
