"""Hands as JSON, for embedders.

:func:`hand_to_json` writes, and :func:`hand_from_json` reads::

    {
      "tiles": ["2m", "3m", ...],          # concealed, winning tile excluded
      "melds": [{"kind": "pung",           # "chow" | "pung" | "kong"
                 "tile": "5p",             # lowest tile of the set
                 "concealed": false,       # only a kong
                 "from": "O",              # "L" | "O" | "R" | "2"-"6" | null
                 "added": false,           # only an exposed kong
                 "jokers": []}],           # the tiles its jokers stand for (see mjr.tiles.jokers), or []
      "win": "2s",                         # or null for a waiting hand; "J" for a joker
      "flowers": ["1f", "5f"],             # flowers set aside (1f-8f, each once), or []
      "red": ["5p"],                       # the red fives among the tiles (0p in the text), or []
      "jokers": 0,                         # the jokers among the concealed tiles (J in the text)
      "context": {"win_by": "self_draw",   # "self_draw" | "discard" | "robbing_kong"
                  "after_kong": false, "last_tile": false,
                  "first_turn": false, "dealer": false,
                  "seat": "E", "round": "S",   # seats E S W N 5 6 7 8, winds E S W N
                  "from": "L",             # "L" | "O" | "R" | "2"-"6" | null
                  "indicator": "5m",       # a tile or null
                  "winners": 1,            # 1-7
                  "void": "m",             # "m" | "p" | "s" | null
                  "dealer_seat": "S",      # another player's seat when they deal, or null
                  "facts": {"streak": 2, "bought": true, "birds": ["3m", "5p"]}},
                                           # facts of play: true (a flag), a number or tiles
      "aside": ["1z", "1z", "7z"]          # tiles set aside as drawn (mjr.tiles.aside), or []
    }

Tiles are MPSZ names (honour letters are accepted on input).  Missing keys take
the defaults above (``kind`` and ``tile`` of a meld have none); unknown keys are
rejected, so a misspelt key cannot silently fall back to a default.  Bad content
raises :class:`NotationError` whose ``text`` is the path of the bad value, such
as ``melds[1].tile``, and whose ``column`` is 0.  A list longer than
:data:`MAX_JSON_ITEMS` is refused before its entries are read, and an error quotes
at most a few dozen characters of a value, whatever its size or depth.

Both readers (this one and the text notation) reject a hand with no tile at all, so
whatever they return can be written back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn, TypeVar, cast

from ..abi import JOKER, MAX_JOKERS, SEAT_NAMES, SEATS, SOURCES, WIN_METHODS
from ..errors import HandFieldError, NotationError, clip, clip_repr, closest
from ..hand.model import (
    FACT_NAME,
    FIRST_TURN_CLAIM,
    MELD_KINDS,
    Context,
    FactValue,
    Hand,
    Meld,
    facts_problem,
    first_turn_claim,
)
from ..tiles.aside import aside_problem
from ..tiles.flowers import N_FLOWERS, flower_name
from ..tiles.jokers import JOKER_LETTER, held_name
from ..tiles.kinds import WIND_LETTERS, parse_tile, tile_name
from ..tiles.red import red_problem
from .format import DEFAULT_CONTEXT, VOID_LETTERS, check_writable

#: The most entries read from the ``tiles`` or ``melds`` list: far more than any
#: table deals, so only hostile input meets it.
MAX_JSON_ITEMS = 1024


def _optional_name(kind: int | None) -> str | None:
    return None if kind is None else held_name(kind)


def _meld_to_json(meld: Meld) -> dict[str, Any]:
    return {
        "kind": meld.kind,
        "tile": tile_name(meld.tile),
        "concealed": meld.concealed,
        "from": meld.source,
        "added": meld.added,
        "jokers": [tile_name(kind) for kind in meld.jokers],
    }


def _context_to_json(context: Context) -> dict[str, Any]:
    return {
        "win_by": context.win_by,
        "after_kong": context.after_kong,
        "last_tile": context.last_tile,
        "first_turn": context.first_turn,
        "dealer": context.dealer,
        "seat": SEAT_NAMES[context.seat],
        "round": WIND_LETTERS[context.round],
        "from": context.source,
        "indicator": _optional_name(context.indicator),
        "winners": context.winners,
        "void": None if context.void is None else VOID_LETTERS[context.void],
        "dealer_seat": None if context.dealer_seat is None else SEAT_NAMES[context.dealer_seat],
        "facts": {name: [tile_name(k) for k in value] if type(value) is tuple else value
                  for name, value in context.facts},
    }


def hand_to_json(hand: Hand) -> dict[str, Any]:
    """The hand as the JSON object described in the module docstring, every key present.

    Raises ValueError for a hand the schema cannot express, as :func:`format_hand`.
    """
    check_writable(hand)
    return {
        "tiles": [tile_name(kind) for kind in hand.tiles],
        "melds": [_meld_to_json(meld) for meld in hand.melds],
        "win": _optional_name(hand.win_tile),
        "flowers": [flower_name(number) for number in hand.flowers],
        "red": [tile_name(kind) for kind in hand.red],
        "jokers": hand.jokers,
        "context": _context_to_json(hand.context),
        "aside": [tile_name(kind) for kind in hand.aside],
    }


_T = TypeVar("_T")
_HAND_KEYS = ("tiles", "melds", "win", "flowers", "red", "jokers", "context", "aside")
_MELD_KEYS = ("kind", "tile", "concealed", "from", "added", "jokers")
_CONTEXT_KEYS = tuple(_context_to_json(DEFAULT_CONTEXT))


def _json_fail(path: str, reason: str) -> NoReturn:
    raise NotationError(path or "hand", 0, reason)


def _json_key(field: str) -> str:
    """The JSON key of a Meld or Context field."""
    return "from" if field == "source" else field


def _at(path: str, key: str | int) -> str:
    """Extend a JSON path: ``melds`` + 1 -> ``melds[1]``, + ``tile`` -> ``melds[1].tile``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _json_object(value: object, path: str, keys: tuple[str, ...]) -> dict[str, object]:
    """An object with only known keys; a misspelt key gets a suggestion."""
    if not isinstance(value, dict):
        _json_fail(path, f"expected an object, got {type(value).__name__}")
    for key in value:
        if key not in keys:
            name = clip(str(key), 40) if isinstance(key, str) else clip_repr(key)
            guess = closest(name, keys, lower=False)
            hint = f"; did you mean '{guess[0]}'?" if guess else f"; expected one of {', '.join(keys)}"
            _json_fail(_at(path, name), f"unknown key {clip_repr(key)}{hint}")
    return value


def _json_list(value: object, path: str) -> list[object]:
    if not isinstance(value, list):
        _json_fail(path, f"expected a list, got {type(value).__name__}")
    if len(value) > MAX_JSON_ITEMS:
        _json_fail(path, f"a list of {len(value)} entries; at most {MAX_JSON_ITEMS} are read")
    return value


def _json_tile(value: object, path: str) -> int:
    """One tile name, ``5m`` / ``7z`` / ``C``."""
    if not isinstance(value, str):
        _json_fail(path, f'expected a tile name such as "5m", got {clip_repr(value)}')
    try:
        return parse_tile(value)
    except ValueError:
        pass  # fail outside the handler, so the error carries no chained traceback
    _json_fail(path, f'not a tile: {clip_repr(value)}; expected a name such as "5m", "7z" or "E"')


def _json_optional_tile(obj: dict[str, object], key: str, path: str) -> int | None:
    value = obj.get(key)
    return None if value is None else _json_tile(value, _at(path, key))


def _json_win(obj: dict[str, object]) -> int | None:
    """The winning tile: a tile name, ``"J"`` for a joker, or null."""
    return JOKER if obj.get("win") == JOKER_LETTER else _json_optional_tile(obj, "win", "")


def _json_jokers(obj: dict[str, object]) -> int:
    """The jokers among the concealed tiles: a count, 0 to :data:`mjr.tiles.MAX_JOKERS`."""
    value = obj.get("jokers", 0)
    if type(value) is not int or not 0 <= value <= MAX_JOKERS:
        _json_fail("jokers", f"expected the number of jokers among the concealed tiles, 0-{MAX_JOKERS}, "
                             f"got {clip_repr(value)}")
    return value


def _json_bool(obj: dict[str, object], key: str, path: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        _json_fail(_at(path, key), f"expected true or false, got {clip_repr(value)}")
    return value


def _json_choice(obj: dict[str, object], key: str, path: str, choices: tuple[str, ...], default: str) -> str:
    value = obj.get(key, default)
    if not isinstance(value, str) or value not in choices:
        _json_fail(_at(path, key), f"expected one of {', '.join(map(repr, choices))}, got {clip_repr(value)}")
    return value


def _json_optional_choice(
    obj: dict[str, object], key: str, path: str, choices: tuple[str, ...]
) -> str | None:
    if obj.get(key) is None:
        return None
    return _json_choice(obj, key, path, choices, "")


def _json_winners(obj: dict[str, object], path: str) -> int:
    value = obj.get("winners", 1)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value < SEATS:
        _json_fail(_at(path, "winners"), f"expected 1-{SEATS - 1}, got {clip_repr(value)}")
    return value


def _json_meld(value: object, path: str) -> Meld:
    obj = _json_object(value, path, _MELD_KEYS)
    for key in ("kind", "tile"):
        if key not in obj:
            _json_fail(_at(path, key), "missing: a meld needs a kind and a tile")
    kind = _json_choice(obj, "kind", path, MELD_KINDS, "")
    tile = _json_tile(obj["tile"], _at(path, "tile"))
    concealed, added = _json_bool(obj, "concealed", path), _json_bool(obj, "added", path)
    source = _json_optional_choice(obj, "from", path, SOURCES)
    jokers = tuple(_json_tile(v, _at(_at(path, "jokers"), i)) for i, v in
                   enumerate(_json_list(obj.get("jokers", []), _at(path, "jokers"))))
    return _built(path, lambda: Meld(kind, tile, concealed, source, added, jokers))


def _built(path: str, build: Callable[[], _T]) -> _T:
    """Build a Meld or Context from values each valid on its own; a combination the
    dataclass refuses (a chow at 8m, a self-draw from L) fails at the field's path."""
    try:
        return build()
    except HandFieldError as error:
        problem = error
    _json_fail(_at(path, _json_key(problem.field)), problem.reason)


def _json_context(value: object, path: str) -> Context:
    obj = _json_object(value, path, _CONTEXT_KEYS)
    winds, seats = tuple(WIND_LETTERS), tuple(SEAT_NAMES)
    void = _json_optional_choice(obj, "void", path, tuple(VOID_LETTERS))
    dealer_seat = _json_optional_choice(obj, "dealer_seat", path, seats)
    fields: dict[str, Any] = {
        "win_by": _json_choice(obj, "win_by", path, WIN_METHODS, DEFAULT_CONTEXT.win_by),
        "after_kong": _json_bool(obj, "after_kong", path),
        "last_tile": _json_bool(obj, "last_tile", path),
        "first_turn": _json_bool(obj, "first_turn", path),
        "dealer": _json_bool(obj, "dealer", path),
        "seat": SEAT_NAMES.index(_json_choice(obj, "seat", path, seats, "E")),
        "round": WIND_LETTERS.index(_json_choice(obj, "round", path, winds, "E")),
        "source": _json_optional_choice(obj, "from", path, SOURCES),
        "indicator": _json_optional_tile(obj, "indicator", path),
        "winners": _json_winners(obj, path),
        "void": None if void is None else VOID_LETTERS.index(void),
        "dealer_seat": None if dealer_seat is None else SEAT_NAMES.index(dealer_seat),
        "facts": _json_facts(obj.get("facts", {}), _at(path, "facts")),
    }
    return _built(path, lambda: Context(**fields))


def _json_facts(value: object, path: str) -> tuple[tuple[str, FactValue], ...]:
    """``{"streak": 2, "bought": true, "birds": ["3m"]}`` as Context.facts; the
    ruleset checks the names and ranges against its declarations."""
    if not isinstance(value, dict):
        _json_fail(path, f"expected an object of facts, got {type(value).__name__}")
    if len(value) > MAX_JSON_ITEMS:
        _json_fail(path, f"{len(value)} facts; at most {MAX_JSON_ITEMS} are read")
    facts: list[tuple[str, FactValue]] = []
    for name, given in value.items():
        where = _at(path, clip(str(name), 40))
        if not isinstance(name, str) or not FACT_NAME.match(name):
            _json_fail(where, f"a fact's name is a lower-case word, not {clip_repr(name)}")
        if isinstance(given, list):
            facts.append((name, tuple(_json_tile(v, _at(where, i)) for i, v in enumerate(_json_list(given, where)))))
        elif given is True or (isinstance(given, int) and not isinstance(given, bool)):
            facts.append((name, given))
        else:
            _json_fail(where, f"expected true, a number or a list of tiles, got {clip_repr(given)}")
    problem = facts_problem(tuple(facts))
    if problem is not None:
        _json_fail(path, f"{clip_repr(problem[1])}: {problem[2]}")
    return tuple(facts)


def hand_from_json(data: dict[str, Any]) -> Hand:
    """Read the JSON object described in the module docstring (as from ``json.loads``).

    Anything malformed raises :class:`NotationError` naming the path of the bad
    value, never a KeyError or TypeError.
    """
    obj = _json_object(data, "", _HAND_KEYS)
    tiles = [_json_tile(v, _at("tiles", i)) for i, v in enumerate(_json_list(obj.get("tiles", []), "tiles"))]
    melds = [_json_meld(v, _at("melds", i)) for i, v in enumerate(_json_list(obj.get("melds", []), "melds"))]
    win = _json_win(obj)
    context = _json_context(obj.get("context", {}), "context")
    flowers = _json_flowers(_json_list(obj.get("flowers", []), "flowers"))
    red = tuple(sorted(_json_tile(v, _at("red", i)) for i, v in enumerate(_json_list(obj.get("red", []), "red"))))
    jokers = _json_jokers(obj)
    if not tiles and not melds and win is None and not jokers:
        _json_fail("", "a hand needs at least one tile")
    claimed = first_turn_claim(tuple(melds), context.first_turn)
    if claimed is not None:
        _json_fail("context.first_turn", f"{FIRST_TURN_CLAIM} (melds[{claimed}])")
    held = _built("", lambda: Hand(tuple(sorted(tiles)), tuple(melds), win, context, flowers, jokers=jokers))
    problem = red_problem(red, held.all_counts())
    if problem is not None:
        _json_fail(problem[0], f"{tile_name(cast(int, problem[1]))}: {problem[2]}")
    return Hand(held.tiles, held.melds, win, context, flowers, red, jokers, _json_aside(obj.get("aside", [])))


def _json_aside(value: object) -> tuple[int, ...]:
    """``["1z", "1z", "7z"]`` as Hand.aside: tiles, at most four of a kind (the
    ruleset checks that it sets their kinds aside)."""
    kinds = tuple(sorted(_json_tile(v, _at("aside", i)) for i, v in enumerate(_json_list(value, "aside"))))
    problem = aside_problem(kinds)
    if problem is not None:
        _json_fail("aside", f"{tile_name(cast(int, problem[1]))}: {problem[2]}")
    return kinds


def _json_flowers(values: list[object]) -> tuple[int, ...]:
    """``["1f", "5f"]`` as Hand.flowers: names 1f-8f, each at most once."""
    names = {flower_name(number): number for number in range(1, N_FLOWERS + 1)}
    held: list[int] = []
    for index, value in enumerate(values):
        if not isinstance(value, str) or value not in names:
            _json_fail(_at("flowers", index), f"expected a flower 1f-8f, got {clip_repr(value)}")
        if names[value] in held:
            _json_fail(_at("flowers", index), f"flower {value} is given twice; each flower is held once")
        held.append(names[value])
    return tuple(sorted(held))
