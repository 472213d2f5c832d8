"""What the fields of a hand may hold, and the checks that name the first bad one.

The meld kinds, the sources of a claimed tile, the win methods and what each rules
out, and the facts of play's names and values; then one ``*_problem`` function per
dataclass of :mod:`mjr.hand` (:func:`meld_problem`, :func:`context_problem`,
:func:`facts_problem`), which gives ``(field, value, reason)`` for the first bad
field, or ``None``.  :class:`~mjr.hand.Meld`, :class:`~mjr.hand.Context` and
:class:`~mjr.hand.Hand` call them when their cheap test fails and raise
:class:`~mjr.hand.HandFieldError` with what they give; the readers of text and JSON
call them to point at the word or key first.  The names are importable from
:mod:`mjr.hand` too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..abi import MAX_FACT_NUMBER, MAX_FACT_TILES, NOTATION_WORDS, SEAT_NAMES, SEATS, SOURCES, WIN_METHODS
from ..tiles.kinds import FIRST_HONOR, N_KINDS, tile_name

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from .model import Context, Meld

CHOW, PUNG, KONG = "chow", "pung", "kong"
MELD_KINDS = (CHOW, PUNG, KONG)
_FLAGS = ("after_kong", "last_tile", "first_turn", "dealer")
#: What a seat and a source may be, in words.
SEAT_WORDS = f"seats are 0-{SEATS - 1} ({' '.join(SEAT_NAMES)}: the winds, then seats with no wind)"
SOURCE_WORDS = f"expected 'L', 'O', 'R', a step on '{SOURCES[3]}'-'{SOURCES[-1]}' (at a table of five or more) or None"
#: The kinds a chow may start at: ranks 1-7 of a suit.
CHOW_STARTS = frozenset(kind for kind in range(FIRST_HONOR) if kind % 9 < 7)
#: A fact of play's name (its largest number and most tiles: mjr.abi).
FACT_NAME = re.compile(r"[a-z_][a-z0-9_]*\Z")
#: A fact's value: a set flag, a number, or tiles (sorted kinds).
FactValue = bool | int | tuple[int, ...]






def _is_kind(value: object) -> bool:
    """A tile kind: an int 0-33, not a bool (``True`` would pass for 1)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < N_KINDS


def _typed(reason: str, value: object, wanted: type) -> str:
    """``reason``, with the type of ``value`` when it is not what the field takes
    (a numpy int or a float looks like an int in a message)."""
    if isinstance(value, wanted) and not (wanted is int and isinstance(value, bool)):
        return reason
    return f"{reason}, not {type(value).__name__}"


def _bool_problem(owner: object, names: tuple[str, ...]) -> tuple[str, object, str] | None:
    for name in names:
        value = getattr(owner, name)
        if not isinstance(value, bool):
            return name, value, _typed("expected True or False", value, bool)
    return None


def kind_problem(name: str, value: object, optional: bool = False) -> tuple[str, object, str] | None:
    """A field that holds a tile kind (or ``None`` when ``optional``)."""
    if _is_kind(value) or (optional and value is None):
        return None
    reason = "tile kinds are ints 0-33 (see mjr.tiles)" + (", or None" if optional else "")
    return name, value, _typed(reason, value, int)



def meld_problem(meld: Meld) -> tuple[str, object, str] | None:
    """(field, value, reason) of the first bad field of a meld, or ``None``."""
    if not isinstance(meld.kind, str) or meld.kind not in MELD_KINDS:
        return "kind", meld.kind, _typed("expected 'chow', 'pung' or 'kong'", meld.kind, str)
    problem = kind_problem("tile", meld.tile)
    if problem is not None:
        return problem
    if meld.kind == CHOW and meld.tile not in CHOW_STARTS:
        return "tile", meld.tile, f"no chow starts at {tile_name(meld.tile)}: a chow starts at rank 1-7 of a suit"
    if not (meld.source is None or (isinstance(meld.source, str) and meld.source in SOURCES)):
        return "source", meld.source, _typed(SOURCE_WORDS, meld.source, str)
    problem = _bool_problem(meld, ("concealed", "added"))
    if problem is not None:
        return problem
    if meld.concealed and meld.kind != KONG:
        return "concealed", True, f"only a kong can be concealed, not a {meld.kind}"
    if meld.concealed and meld.source is not None:
        return "source", meld.source, "a concealed kong has no source"
    if meld.added and (meld.kind != KONG or meld.concealed):
        return "added", True, "only an exposed kong can be added (a fourth tile added to a pung)"
    return None



#: What a win method rules out: field, the value it cannot have, and why.
RULED_OUT = {
    "self_draw": (
        ("source", "a self-draw has no discarder"),
        ("winners", "only one player wins a self-draw"),
    ),
    "robbing_kong": (("after_kong", "the tile of a robbed kong is not drawn after a kong"),),
}
#: The value of each field above that its win method allows (the default).
_ALLOWED = {"source": None, "winners": 1, "after_kong": False}


def facts_problem(facts: tuple[object, ...]) -> tuple[str, object, str] | None:
    """(field, value, reason) of the first bad fact, or ``None``."""
    seen: set[str] = set()
    for index, pair in enumerate(facts):
        if type(pair) is not tuple or len(pair) != 2:
            return f"facts[{index}]", pair, "expected a (name, value) pair"
        name, value = pair
        if not (isinstance(name, str) and FACT_NAME.match(name)) or name in NOTATION_WORDS:
            return f"facts[{index}]", name, "a fact's name is a lower-case word that is not a hand keyword"
        if name in seen:
            return f"facts[{index}]", name, "this fact is given twice"
        seen.add(name)
        problem = _fact_value_problem(value)
        if problem is not None:
            return f"facts[{index}]", value, problem
    return None


def _fact_value_problem(value: object) -> str | None:
    if value is True:
        return None
    if value is False:
        return "a flag that does not hold is left out, not given as False"
    if type(value) is int:
        return None if 0 <= value <= MAX_FACT_NUMBER else f"a number fact is 0 to {MAX_FACT_NUMBER:,}"
    if type(value) is tuple:
        if not 1 <= len(value) <= MAX_FACT_TILES:
            return f"a tiles fact holds 1 to {MAX_FACT_TILES} tiles (leave an empty one out)"
        return None if all(_is_kind(kind) for kind in value) else "tile kinds are ints 0-33 (see mjr.tiles)"
    return _typed("expected True, an int or a tuple of tile kinds", value, int)

def _in_range(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def context_problem(context: Context) -> tuple[str, object, str] | None:
    """(field, value, reason) of the first bad field of a context, or ``None``."""
    checks = (
        ("win_by", isinstance(context.win_by, str) and context.win_by in WIN_METHODS,
         "expected 'self_draw', 'discard' or 'robbing_kong'", str),
        ("seat", _in_range(context.seat, 0, SEATS - 1), SEAT_WORDS, int),
        ("round", _in_range(context.round, 0, 3), "rounds are winds 0-3 (E S W N)", int),
        ("source", context.source is None or (isinstance(context.source, str) and context.source in SOURCES),
         SOURCE_WORDS, str),
        ("winners", _in_range(context.winners, 1, SEATS - 1), f"expected 1-{SEATS - 1}", int),
        ("void", context.void is None or _in_range(context.void, 0, 2), "void suits are 0-2 (m p s), or None", int),
        ("dealer_seat", context.dealer_seat is None or _in_range(context.dealer_seat, 0, SEATS - 1),
         f"{SEAT_WORDS}, or None", int),
    )
    for name, ok, reason, wanted in checks:
        if not ok:
            value = getattr(context, name)
            return name, value, _typed(reason, value, wanted)
    problem = kind_problem("indicator", context.indicator, optional=True) or _bool_problem(context, _FLAGS)
    if problem is not None:
        return problem
    if context.dealer and context.dealer_seat is not None:
        return "dealer_seat", context.dealer_seat, f"dealer=True says the winner (seat {context.seat}) deals"
    if not isinstance(context.facts, tuple):
        return "facts", context.facts, "expected a tuple of (name, value) pairs"
    problem = facts_problem(context.facts)
    if problem is not None:
        return problem
    found = conflict(context.win_by, vars(context))
    if found is not None:
        name, why = found
        return name, getattr(context, name), f"{why} (win_by is {context.win_by!r})"
    return None


def conflict(win_by: str, fields: Mapping[str, object]) -> tuple[str, str] | None:
    """(field, why) of a field in ``fields`` that ``win_by`` rules out, or ``None``.

    ``fields`` maps Context field names to values (a missing one has its default),
    so the notation can ask before it builds a Context and point at the word.
    """
    for name, why in RULED_OUT.get(win_by, ()):
        if fields.get(name, _ALLOWED[name]) != _ALLOWED[name]:
            return name, why
    return None
