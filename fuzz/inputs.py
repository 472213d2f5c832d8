"""Hypothesis strategies for the inputs of each target: mostly near-valid (a valid
input with a few mutations, so it gets past the first check), sometimes anything.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

import mjr
from mjr.abi import SEATS, SOURCES, WIN_METHODS
from mjr.compiler.build import bundled_dir
from mjr.hand.model import KONG, MELD_KINDS
from mjr.table.bots import GreedyBot, RandomBot, play_out
from mjr.table.referee import Table
from mjr.table.session import Session
from mjr.tiles.kinds import N_KINDS, TILE_NAMES

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
    "seat": _often(st.integers(0, SEATS - 1)), "round": _often(st.integers(0, 3)),
    "source": _often(st.sampled_from([None, *SOURCES])), "indicator": _often(st.none() | kinds),
    "winners": _often(st.integers(1, SEATS - 1)), "void": _often(st.none() | st.integers(0, 2)),
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
        seat=draw(st.integers(0, SEATS - 1)),
        round=draw(st.integers(0, 3)),
        source=None if win_by == "self_draw" else draw(st.sampled_from([None, *SOURCES])),
        indicator=draw(st.none() | kinds),
        winners=1 if win_by == "self_draw" else draw(st.integers(1, SEATS - 1)),
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


# --------------------------------------------------------------------------- batch files


@st.composite
def batch_file_lines(draw: st.DrawFn) -> Any:
    """One line of a JSONL batch file: a hand as JSON or notation, one mutated, an
    empty or blank line, a number past Python's digits limit, bytes that are not
    UTF-8 (kept by ``surrogateescape``), or a line past the length bound."""
    hand = draw(valid_hands())
    line = json.dumps(mjr.hand_to_json(hand)) if draw(st.booleans()) else json.dumps(mjr.format_hand(hand))
    match draw(st.integers(0, 9)):
        case 0 | 1 | 2:
            return line
        case 3:
            return draw(mutated(line, ('"', "{", "}", "[", "]", ",", ":", "null", "1e999", "\\u0000", "\r", "\n")))
        case 4:
            return draw(st.sampled_from(["", " ", "\r", "\t", "{}", "[]", "null", '""']))
        case 5:
            return '{"tiles": [' + "9" * draw(st.integers(4000, 6000)) + "]}"
        case 6:
            return line[:draw(st.integers(0, len(line)))] + draw(st.sampled_from(["\udcff", "\udce9\udc80", "\udc80"]))
        case 7:
            if draw(st.booleans()):  # about the bound of 64 KiB, either side
                return [draw(st.sampled_from([" ", "x", "9"])), draw(st.integers(65_000, 66_000))]
            return [line, draw(st.integers(1, 200))]
        case _:
            return draw(st.text(max_size=30))


batch_file_specs = st.fixed_dictionaries({
    "ruleset": st.sampled_from(RULESET_IDS),
    "lines": st.lists(batch_file_lines(), max_size=8),
    "end": st.booleans(),
    "partition_size": st.integers(1, 4),
})


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


# --------------------------------------------------------------------------- event logs


@cache
def real_logs() -> tuple[tuple[str, ...], ...]:
    """Logs of real play, seeded and short (each input replays one): a session of
    two hands by greedy bots, its first hand alone (its hand line unnumbered), and
    a hand of random bots under a ruleset with other rules of play."""
    log = io.StringIO()
    Session(mjr.load("guangdong.tuidaohu"), seed=1, log=log).play([GreedyBot(seat) for seat in range(4)], hands=2)
    session = log.getvalue().splitlines()
    first = json.loads(session[0])
    del first["hand"]["session_hand"]
    end = next(index for index, line in enumerate(session) if line.startswith('{"end"'))
    log = io.StringIO()
    play_out(Table(mjr.load("sichuan.xuezhan"), seed=2, log=log), [RandomBot(seat) for seat in range(4)])
    return tuple(session), (json.dumps(first, ensure_ascii=False), *session[1:end + 1]), \
        tuple(log.getvalue().splitlines())


#: Words a log's lines never hold, or hold elsewhere: JSON of other types, numbers
#: too long or not finite, a lone surrogate (a byte that is not UTF-8 once encoded).
LOG_WORDS = ("true", "false", "null", "1.0", "-1", "0", "4", "9" * 5000, "1e400", "NaN", "-Infinity", '"x"',
             "[]", "{}", '"5m"', '"J"', '"win"', '"discard 5m"', "\udcff", "\u4e2d", "\x00", "[" * 50, ",")


@st.composite
def log_lines(draw: st.DrawFn) -> list[str]:
    """A real log with up to three edits: a value replaced somewhere, a line
    dropped, duplicated, moved or cut, the log cut, a key written twice (or one
    added) in an object at any depth, the text of a line mutated; or ones that
    change nothing (a blank line, keys in another order)."""
    lines = list(draw(st.sampled_from(real_logs())))
    for _ in range(draw(st.integers(0, 3))):
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        edit = draw(st.sampled_from(["value", "value", "drop", "duplicate", "move", "cut", "end", "key", "text",
                                     "blank", "order"]))
        if edit == "blank":
            lines.insert(at, draw(st.sampled_from(["", " ", "\t", "\r"])))
        elif edit in ("order", "value"):
            record = _parsed(lines[at])
            if isinstance(record, dict) and record:
                if edit == "value":
                    _mutate_json(draw, record)
                lines[at] = json.dumps(record, ensure_ascii=False, sort_keys=edit == "order")
        elif edit == "drop":
            del lines[at]
        elif edit == "duplicate":
            lines.insert(at, lines[at])
        elif edit == "move":
            lines.insert(draw(st.integers(0, len(lines) - 1)), lines.pop(at))
        elif edit == "cut":
            lines[at] = lines[at][:draw(st.integers(0, len(lines[at])))]
        elif edit == "end":
            del lines[at:]
        elif edit == "key":
            lines[at] = draw(_key_written_again(lines[at]))
        else:
            lines[at] = draw(mutated(lines[at], LOG_WORDS))
    return lines


def _parsed(line: str) -> Any:
    """The JSON of a line, or None where an edit before has broken it."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


@st.composite
def _key_written_again(draw: st.DrawFn, line: str) -> str:
    """``line`` with a key of it (or another) written at the start of one of its objects."""
    braces = [index for index, char in enumerate(line) if char == "{"]
    if not braces:
        return line
    at = draw(st.sampled_from(braces)) + 1
    key = draw(st.sampled_from([*re.findall(r'"(\w+)":', line), "x", "session_hand"]))
    value = draw(st.sampled_from(LOG_WORDS[:12]) | st.builds(json.dumps, json_values))
    return f'{line[:at]}"{key}": {value}, {line[at:]}'


STRATEGIES: dict[str, st.SearchStrategy[Any]] = {
    "mjr": mjr_texts(),
    "notation": hand_texts(),
    "json": json_documents(),
    "hand": hand_specs(),
    "batch": batch_specs(),
    "batchfile": batch_file_specs,
    "log": log_lines(),
    "table": table_specs(),
}
