"""Hypothesis strategies for the inputs of each target: mostly near-valid (a valid
input with a few mutations, so it gets past the first check), sometimes anything.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

import mjr
from mjr.compiler.build import bundled_dir
from mjr.hand import KONG, MELD_KINDS, SOURCES, WIN_METHODS
from mjr.tiles import N_KINDS, TILE_NAMES

from .checks import RULESET_IDS
from .table_target import table_specs

kinds = st.integers(0, N_KINDS - 1)
#: Values a field should never hold, next to the ones it should.
odd_values = st.one_of(
    st.integers(-3, 40), st.sampled_from([99, -1, 2**63, -(2**70), 34]), st.booleans(), st.none(),
    st.text(max_size=3), st.floats(allow_nan=True), st.lists(st.integers(-1, 40), max_size=3),
)


def _often(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """The valid values nine times in ten, an odd one otherwise."""
    return st.one_of(*[valid] * 9, odd_values)


# --------------------------------------------------------------------------- hands as data

melds = st.builds(
    dict,
    kind=st.sampled_from(MELD_KINDS),
    tile=kinds,
    concealed=st.booleans(),
    source=st.sampled_from([None, *SOURCES]),
    added=st.booleans(),
)
contexts = st.fixed_dictionaries({}, optional={
    "win_by": _often(st.sampled_from(WIN_METHODS)), "after_kong": _often(st.booleans()),
    "last_tile": _often(st.booleans()), "first_turn": _often(st.booleans()), "dealer": _often(st.booleans()),
    "seat": _often(st.integers(0, 3)), "round": _often(st.integers(0, 3)),
    "source": _often(st.sampled_from([None, *SOURCES])), "indicator": _often(st.none() | kinds),
    "winners": _often(st.integers(1, 3)), "void": _often(st.none() | st.integers(0, 2)),
})


@st.composite
def hand_specs(draw: st.DrawFn) -> dict[str, Any]:
    """Field values for Hand, Meld and Context: sizes near a real hand's, any values."""
    declared = draw(st.lists(melds, max_size=4))
    spec_melds = [[m[key] if draw(st.integers(0, 9)) else draw(odd_values)
                   for key in ("kind", "tile", "concealed", "source", "added")] for m in declared]
    size = 13 - 3 * len(declared) if draw(st.booleans()) else draw(st.integers(0, 16))
    tiles = draw(st.lists(_often(kinds), min_size=size, max_size=size))
    win = draw(st.one_of(kinds, kinds, st.none(), odd_values))
    return {"tiles": sorted(tiles, key=repr), "melds": spec_melds, "win": win, "context": draw(contexts)}


@st.composite
def valid_contexts(draw: st.DrawFn) -> mjr.Context:
    """Any context a Context accepts: a self-draw has no source and one winner, and
    a robbed kong is not after a kong (see ``mjr.hand.RULED_OUT``)."""
    win_by = draw(st.sampled_from(WIN_METHODS))
    return mjr.Context(
        win_by=win_by,
        after_kong=draw(st.booleans()) and win_by != "robbing_kong",
        last_tile=draw(st.booleans()),
        first_turn=draw(st.booleans()),
        dealer=draw(st.booleans()),
        seat=draw(st.integers(0, 3)),
        round=draw(st.integers(0, 3)),
        source=None if win_by == "self_draw" else draw(st.sampled_from([None, *SOURCES])),
        indicator=draw(st.none() | kinds),
        winners=1 if win_by == "self_draw" else draw(st.integers(1, 3)),
        void=draw(st.none() | st.integers(0, 2)),
    )


_valid_contexts = valid_contexts()
_win_tiles = st.none() | kinds
_deltas = st.sampled_from([0, 0, 0, 1, -1, 3, 200])


@st.composite
def valid_hands(draw: st.DrawFn) -> mjr.Hand:
    """A hand the notation can write (not necessarily one a table could deal)."""
    declared = []
    for meld in draw(st.lists(melds, max_size=4)):
        kind, tile = meld["kind"], meld["tile"]
        if kind == "chow":
            tile = (tile % 27) // 9 * 9 + tile % 9 % 7
        concealed = meld["concealed"] and kind == KONG
        added = meld["added"] and kind == KONG and not concealed
        declared.append(mjr.Meld(kind, tile, concealed, None if concealed else meld["source"], added))
    size = 13 - 3 * len(declared)
    tiles = draw(st.lists(kinds, min_size=size, max_size=size))
    context = draw(_valid_contexts)
    if any(not meld.concealed for meld in declared):  # first_turn is before any claim
        context = replace(context, first_turn=False)
    return mjr.Hand(tuple(sorted(tiles)), tuple(declared), draw(_win_tiles), context)


# --------------------------------------------------------------------------- text mutation

NOTATION_WORDS = (*mjr.notation.KEYWORDS, *TILE_NAMES, "[", "]", "(", ")", "<", "+", "L", "O", "R", "0", "9z",
                  "1234567890", "ESWNPFC", "123m", "[555p<O]", "(1111z)", "[5555p<L+]", "\t", "\n", "\u4e2d")


@st.composite
def mutated(draw: st.DrawFn, text: str, words: tuple[str, ...]) -> str:
    """``text`` with a few edits: characters deleted, words inserted or replaced,
    a span duplicated."""
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        end = draw(st.integers(at, min(len(text), at + 12)))
        edit = draw(st.sampled_from(["delete", "insert", "replace", "duplicate", "character"]))
        if edit == "delete":
            text = text[:at] + text[end:]
        elif edit == "insert":
            text = text[:at] + draw(st.sampled_from(words)) + text[at:]
        elif edit == "replace":
            text = text[:at] + draw(st.sampled_from(words)) + text[end:]
        elif edit == "duplicate":
            text = text[:end] + text[at:end] + text[end:]
        else:
            text = text[:at] + draw(st.characters()) + text[end:]
    return text


@st.composite
def hand_texts(draw: st.DrawFn) -> str:
    """Hand strings: written hands mutated, word soup, any text, now and then a long one."""
    choice = draw(st.integers(0, 199))
    if choice < 120:
        return draw(mutated(mjr.format_hand(draw(valid_hands())), NOTATION_WORDS))
    if choice < 160:
        return " ".join(draw(st.lists(st.sampled_from(NOTATION_WORDS), max_size=20)))
    if choice < 199:
        return draw(st.text(max_size=40))
    return draw(st.sampled_from(["1m ", "[111m] ", "win 1m ", "é"])) * draw(st.integers(50, 2_000))


# --------------------------------------------------------------------------- JSON documents

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 2**64) | st.floats() | st.text(max_size=6)
    | st.sampled_from([*TILE_NAMES, "E", "C", "chow", "pung", "kong", "self_draw", "L", "m"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@st.composite
def json_documents(draw: st.DrawFn) -> Any:
    """JSON hands with one to three values replaced, keys dropped or added; or any JSON."""
    if draw(st.integers(0, 4)) == 0:
        return draw(json_values)
    document = mjr.hand_to_json(draw(valid_hands()))
    for _ in range(draw(st.integers(0, 3))):
        _mutate_json(draw, document)
    return document


def _mutate_json(draw: st.DrawFn, document: dict[str, Any]) -> None:
    """Replace, drop or add one value somewhere in ``document``."""
    parent: Any = document
    while True:
        keys = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
        if not keys:
            return
        key = draw(st.sampled_from(keys))
        child = parent[key]
        if isinstance(child, (dict, list)) and child and draw(st.booleans()):
            parent = child
            continue
        edit = draw(st.integers(0, 2))
        if edit == 0 or not isinstance(parent, dict):
            parent[key] = draw(json_values)
        elif edit == 1:
            del parent[key]
        else:
            parent[draw(st.sampled_from([*keys, "x", "tile", "kind", "from"]))] = draw(json_values)
        return


# --------------------------------------------------------------------------- batches


@st.composite
def batch_specs(draw: st.DrawFn) -> dict[str, Any]:
    """Batches of hands (real ones, some counts off), of odd layouts and item types."""
    rows = []
    for _ in range(draw(st.integers(0, 5))):
        hand = draw(valid_hands())
        counts = list(hand.concealed_counts())
        counts[draw(kinds)] += draw(_deltas)
        rows += [max(0, value) for value in counts]
    if draw(st.integers(0, 9)) == 0:
        rows = draw(st.lists(st.one_of(st.integers(-1, 300), odd_values), max_size=80))
    kind = draw(st.sampled_from(["bytes"] * 6 + ["bytearray", "list", "tuple", "matrix", "strided", "array",
                                                  "int", "str", "none"]))
    spec: dict[str, Any] = {"ruleset": draw(st.sampled_from(RULESET_IDS)), "kind": kind, "data": rows}
    if kind == "int":
        spec["data"] = draw(st.integers(-1, 2**40))
    elif kind == "str":
        spec["data"] = draw(st.text(max_size=40))
    elif kind == "none":
        spec["data"] = None
    elif kind == "matrix":
        spec["columns"] = draw(st.sampled_from([N_KINDS, N_KINDS, 33, 17, 1]))
    elif kind == "array":
        spec["typecode"] = draw(st.sampled_from(["B", "b", "h", "q", "d"]))
    context = draw(st.one_of(st.none(), st.builds(mjr.format_hand, valid_hands()), st.just("1m win 1m self_draw"),
                             st.sampled_from([5, "", [1]])))
    return {**spec, "context": context, "refused": draw(st.sampled_from(["mark", "mark", "raise", "skip"]))}


# --------------------------------------------------------------------------- .mjr text


@cache
def bundled_texts() -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8") for path in sorted(bundled_dir().glob("*.mjr")))


@cache
def grammar_words() -> tuple[str, ...]:
    """The language's words and punctuation (the quoted strings of the grammar), the
    names the bundled rulesets use, and numbers and strings of every size."""
    grammar = (Path(mjr.dsl.__file__).parent / "mjr.lark").read_text(encoding="utf-8")
    quoted = set(re.findall(r'"([^"\\\s]+)"', grammar))
    names = set(re.findall(r"\b[a-z_][a-z0-9_]+\b", "\n".join(bundled_texts())))
    extra = {"0", "1", "-1", "88", "9" * 30, str(2**63), '"x"', '""', '"\\n"', "\n", "#", "(", ")", "{", "}",
             "1m", "5z", "E", "extends guangdong.jipinghu", "\u4e2d", "\t"}
    return tuple(sorted(quoted | names | extra))


@st.composite
def deep_defines(draw: st.DrawFn) -> str:
    """A chain of defines, each using the one before once or twice: the checker must
    stay linear in it."""
    depth = draw(st.integers(1, 400))
    double = draw(st.booleans())
    lines = ["define d0: standard"]
    for level in range(1, depth):
        use = f"(d{level - 1} and d{level - 1})" if double else f"not d{level - 1}"
        lines.append(f"define d{level}: {use}")
    body = "\n    ".join(["tiles suits(m p s)", *lines, f'fan top "Top" 1 : d{depth - 1}'])
    return f'ruleset deep "Deep" {{\n    {body}\n}}\n'


@st.composite
def mjr_texts(draw: st.DrawFn) -> str:
    """A bundled ruleset with a few lines moved or edited and grammar words inserted;
    now and then a chain of defines or deep parentheses."""
    choice = draw(st.integers(0, 999))
    if choice == 0:
        return draw(deep_defines())
    if choice == 1:
        depth = draw(st.integers(1, 3000))
        return f'ruleset p "P" {{\n    tiles suits(m)\n    fan f "F" 1 : {"(" * depth}standard{")" * depth}\n}}\n'
    text = draw(st.sampled_from(bundled_texts()))
    lines = text.split("\n")
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        edit = draw(st.sampled_from(["delete", "duplicate", "move"]))
        line = lines.pop(at) if edit != "duplicate" else lines[at]
        if edit != "delete":
            lines.insert(draw(st.integers(0, len(lines))), line)
    return draw(mutated("\n".join(lines), grammar_words()))


STRATEGIES: dict[str, st.SearchStrategy[Any]] = {
    "mjr": mjr_texts(),
    "notation": hand_texts(),
    "json": json_documents(),
    "hand": hand_specs(),
    "batch": batch_specs(),
    "table": table_specs(),
}
