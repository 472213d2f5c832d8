"""The tile set and the deal of a ruleset, and the shapes and claims they allow.

The kinds a ``tiles`` statement names, the hand size ``deal`` gives, and the checks
that refuse a shape no hand of that deal and tile set can take (seven pairs,
thirteen orphans, a knitted straight) and a chow claim where the tile set has no
suit.  Each reports into the checker's one list of problems.
"""

from __future__ import annotations

from collections.abc import Callable

from mjr.abi import DEFAULT_SEATS, MIN_SEATS, PLACE_SOURCES, SEAT_NAMES, SEATS, seat_steps
from mjr.dsl import ast
from mjr.errors import Span
from mjr.tiles.kinds import FIRST_HONOR, N_KINDS, SUIT_LETTERS, parse_tile

#: Reports a problem at its place into the checker's list.
Report = Callable[[Span, str], None]
#: The terminals and honours, every one of which a thirteen-orphans hand holds.
ORPHANS = frozenset({0, 8, 9, 17, 18, 26, *range(FIRST_HONOR, N_KINDS)})


def tile_kind(ref: ast.TileRef, kinds: tuple[int, ...], report: Report) -> int | None:
    """The kind ``ref`` names, reported where it is no tile or not in ``kinds``."""
    try:
        kind = parse_tile(ref.text)
    except ValueError:
        report(ref.span, f"{ref.text!r} is not a tile")
        return None
    if kind not in kinds:
        report(ref.span, f"tile {ref.text} is not in this ruleset's tile set")
        return None
    return kind


def kinds_of(tiles: ast.Tiles, report: Report) -> tuple[int, ...]:
    """The kinds a ``tiles`` statement names, in kind order, less those it leaves
    out (``without(...)``: each a kind of its suits and honours, named once; a
    suit, the winds or the dragons may not be left out whole)."""
    kinds: list[int] = []
    for letter in SUIT_LETTERS:
        if letter in tiles.suits:
            base = SUIT_LETTERS.index(letter) * 9
            kinds.extend(range(base, base + 9))
    if len(set(tiles.suits)) != len(tiles.suits):
        report(tiles.span, "a suit is listed twice in 'tiles'")
    if tiles.winds:
        kinds.extend(range(FIRST_HONOR, FIRST_HONOR + 4))
    if tiles.dragons:
        kinds.extend(range(FIRST_HONOR + 4, N_KINDS))
    left_out: set[int] = set()
    for ref in tiles.without:
        kind = tile_kind(ref, tuple(kinds), report)
        if kind is not None and kind in left_out:
            report(ref.span, f"tile {ref.text} is left out twice in 'without(...)'")
        elif kind is not None:
            left_out.add(kind)
    kept = tuple(kind for kind in kinds if kind not in left_out)
    groups = [(SUIT_LETTERS.index(letter) * 9, 9, f"suit {letter}") for letter in tiles.suits]
    groups += [(FIRST_HONOR, 4, "the winds"), (FIRST_HONOR + 4, 3, "the dragons")]
    for first, size, what in groups:
        if any(first <= kind < first + size for kind in kinds) and not any(first <= kind < first + size
                                                                           for kind in kept):
            report(tiles.without[0].span, f"'without(...)' leaves out every tile of {what}: "
                                          f"drop it from 'tiles' instead")
            break
    return kept


def seats_of(statement: ast.Statement | None, report: Report) -> int:
    """How many players ``seats`` sits at the table (4 when it is not written)."""
    if not isinstance(statement, ast.Seats):
        return DEFAULT_SEATS
    if not MIN_SEATS <= statement.count <= SEATS:
        report(statement.span, f"seats {statement.count}: a table seats {MIN_SEATS} to {SEATS} players "
                               f"(its seats are {' '.join(SEAT_NAMES)}, in play order)")
        return DEFAULT_SEATS
    return statement.count


_NUMBER_WORDS = ("two", "three", "four", "five", "six", "seven", "eight")


def place_problem(place: str, seats: int) -> str | None:
    """Why nobody sits at ``place`` (left, opposite, right) at a table of ``seats``, or None."""
    if PLACE_SOURCES[place] in seat_steps(seats):
        return None
    table = f"a table of {_NUMBER_WORDS[seats - MIN_SEATS]} (seats {seats}) has no {place} player"
    return f"{table}: the other player sits opposite" if seats == 2 else table


def deal_of(statement: ast.Statement | None, report: Report) -> int:
    """The hand size ``deal`` gives (13 when it is not written, or is no size)."""
    if not isinstance(statement, ast.Deal):
        return 13
    if statement.size % 3 != 1 or not 4 <= statement.size <= 16:
        report(statement.span, f"deal {statement.size} is not a hand size: use 3n+1 tiles (4 to 16)")
        return 13
    return statement.size


def check_shapes(statement: ast.Statement | None, deal: int, kinds: tuple[int, ...], report: Report) -> None:
    """Refuse a shape no hand of this deal and tile set can take: seven pairs and
    thirteen orphans are 14 tiles (deal 13); thirteen orphans needs every
    terminal and honour; seven pairs needs seven kinds (four with ``fours``); a
    knitted straight is nine of the 14 tiles (deal 13) and needs the three suits."""
    if not isinstance(statement, ast.Options):
        return
    for option in statement.options:
        if option.name == "standard" and "knitted" in option.arguments:
            _check_knitted(option, deal, kinds, report)
        if option.name not in ("seven_pairs", "thirteen_orphans"):
            continue
        if deal != 13:
            report(option.span, f"shape {option.name} is 14 tiles and needs deal 13, but the deal is {deal}")
        elif option.name == "thirteen_orphans" and not ORPHANS <= set(kinds):
            report(option.span, "shape thirteen_orphans needs every terminal and honour in the tile set "
                                "(tiles suits(m p s) winds dragons)")
        elif option.name == "seven_pairs" and len(kinds) < (4 if "fours" in option.arguments else 7):
            report(option.span, f"shape seven_pairs needs seven different kinds, and the tile set "
                                f"has {len(kinds)}")


def _check_knitted(option: ast.Option, deal: int, kinds: tuple[int, ...], report: Report) -> None:
    if deal != 13:
        report(option.span, f"shape standard(knitted) is 14 tiles (a knitted straight, a set and a pair) "
                            f"and needs deal 13, but the deal is {deal}")
    elif not set(range(27)) <= set(kinds):
        report(option.span, "shape standard(knitted) needs the three suits in the tile set "
                            "(tiles suits(m p s))")


def check_claims(statement: ast.Statement | None, kinds: tuple[int, ...], seats: int, report: Report) -> None:
    """Refuse a chow claim where no chow can be made (a tile set without a suit),
    and a claim from a place at the table where nobody sits."""
    if not isinstance(statement, ast.Options):
        return
    for option in statement.options:
        if option.name == "chow" and all(k >= FIRST_HONOR for k in kinds):
            report(option.span, "a chow is three tiles of a suit in a row, and the tile set has no suit")
        for place in option.arguments:
            problem = place_problem(place, seats) if place in PLACE_SOURCES else None
            if problem is not None:
                report(option.span, f"{option.name}({place}): {problem}")
