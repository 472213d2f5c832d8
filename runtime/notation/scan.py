"""The fast reader of hand notation: one pass over the words, counting the tiles.

:func:`mjr.notation.parse_hand` asks :func:`read_common` first.  It recognises the
common, valid shapes (tile words, bracketed melds, ``win T``, the context words and
declared facts of play, with flowers and red fives where the ruleset has them) and
builds the :class:`~mjr.hand.Hand` straight from the counts it keeps (which the Hand
keeps too, as its :meth:`~mjr.hand.Hand.concealed_counts`); anything it does not
fully recognise (jokers among them), every mistake included, gives ``None``, and the
full parser reads the text again and reports the mistake at its place.  So the
errors are the full parser's by construction; the tests check that the two readers
build equal hands from random hand texts and their mutations.

Written in Cython's pure-Python mode, as :mod:`mjr.ruleset.kernels` is: a tile word
is read character by character into the counts, which compiled (at install) costs
tens of nanoseconds and interpreted stays correct.  Meld words, contexts and
undeclared facts are kept in tables filled on first use, not at import, that hold
only words that read well, so hostile input cannot grow them past their bound.
"""

from __future__ import annotations

from collections.abc import Mapping

import cython

from ..abi import ASIDE, CONTEXT_WORDS, MAX_FACT_NUMBER, MAX_FACT_TILES, SEAT_NAMES, SEATS, SOURCES, WIN_METHODS
from ..errors import NotationError
from ..hand.model import FACT_NAME, RULED_OUT, Context, FactValue, Hand, Meld, conflict, trusted_context, trusted_hand
from ..tiles.flowers import FLOWER_LETTER, N_FLOWERS, flowers_of_mask
from ..tiles.kinds import COPIES, FIRST_HONOR, HONOR_LETTERS, N_KINDS, TILE_NAMES, WIND_LETTERS
from ..tiles.red import MOST_RED, RED_DIGIT, RED_KINDS
from .tiles import Tile, parse_meld
from .words import is_number, looks_like_tiles, misspelt_keyword

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import Any

#: A word of exactly one tile, as ``win`` and ``indicator`` take: ``5m``, ``7z``, ``C``.
_ONE_TILE = {name: kind for kind, name in enumerate(TILE_NAMES)} | {
    letter: FIRST_HONOR + index for index, letter in enumerate(HONOR_LETTERS)
}
#: Added to the kind of a red five written as the winning tile (``win 0p``).
_RED_WIN = 64
#: The words ``win`` takes: one tile, or a red five.
_WIN_TILE = _ONE_TILE | {RED_DIGIT + letter: _RED_WIN + kind for letter, kind in zip("mps", RED_KINDS, strict=True)}
#: The flowers of each set of them (bit ``n - 1`` for flower ``n``), as a hand keeps them.
_FLOWERS_OF_MASK = tuple(flowers_of_mask(mask) for mask in range(1 << N_FLOWERS))
_WINDS = {letter: index for index, letter in enumerate(WIND_LETTERS)}
_SEATS = {name: index for index, name in enumerate(SEAT_NAMES)}
#: Each hand keyword: the field it sets (``win`` its own), and either the value it
#: sets or, for a word that takes a value, the table of the words it takes.  A
#: ``dealer`` followed by a seat sets the dealer's seat, and by anything else the flag.
_KEYWORD_FIELDS: dict[str, tuple[str, object]] = {
    "win": ("win", _WIN_TILE),
    **{method: ("win_by", method) for method in WIN_METHODS},
    **{flag: (flag, True) for flag in ("after_kong", "last_tile", "first_turn")},
    "dealer": ("dealer", _SEATS),
    "seat": ("seat", _SEATS),
    "round": ("round", _WINDS),
    "from": ("source", {source: source for source in SOURCES}),
    "indicator": ("indicator", _ONE_TILE),
    "winners": ("winners", {str(count): count for count in range(1, SEATS)}),
    "void": ("void", {"m": 0, "p": 1, "s": 2}),
}
assert set(_KEYWORD_FIELDS) == set(CONTEXT_WORDS)
#: The fields some win method rules out (see :data:`mjr.hand.RULED_OUT`).
_RULED_OUT_FIELDS = frozenset(name for rules in RULED_OUT.values() for name, _ in rules)
_FACT_KINDS = frozenset({"flag", "number", "tiles"})
_DEFAULT_CONTEXT = Context()
#: How many entries each table below learns.
_LEARN_LIMIT = 4096
#: Each meld word read so far (``[123m]``, ``(5555p)``): its meld and the kinds of
#: its red fives.  Words are learnt on first use, and only those that read well.
_MELDS: dict[str, tuple[Meld, bytes]] = {}
#: The contexts made so far, by the fields their words set (in the order given).
_CONTEXTS: dict[tuple[tuple[str, object], ...], Context] = {}
#: Words read so far as facts of play when the caller declared none (see
#: ``mjr.notation._Parser.is_fact``), and whether each is one.
_UNDECLARED_FACTS: dict[str, bool] = {}
#: A tile count of one kind past which a word is left to the full parser (a count is a byte).
_MOST_COUNTED = cython.declare(cython.int, 255)
_KINDS = cython.declare(cython.int, N_KINDS)


def _remember(table: dict[Any, Any], key: object, value: object) -> None:
    if len(table) < _LEARN_LIMIT:
        table[key] = value


def _meld(word: str) -> tuple[Meld, bytes] | None:
    """The meld a meld word spells and the kinds of its red fives, or ``None`` when it
    does not read well."""
    known = _MELDS.get(word)
    if known is None:
        fives: list[Tile] = []
        try:
            meld = parse_meld(word, 0, len(word), fives)  # the full parser's own meld reader
        except NotationError:
            return None
        known = (meld, bytes(sorted(tile.kind for tile in fives)))
        _remember(_MELDS, word, known)
    return known


@cython.cfunc
@cython.exceptval(check=False)
def _count(counts: cython.p_uchar, kind: cython.int) -> cython.bint:
    """Count one more of ``kind``; False, counting nothing, where the count would pass a byte."""
    if counts[kind] == _MOST_COUNTED:
        return False
    counts[kind] += 1
    return True


@cython.cfunc
def _add_tiles(word: str, counts: cython.p_uchar, reds: bytearray) -> cython.int:
    """Count the tiles of a word of whole tile groups (``123m44pE``, ``0p``, ``1z``,
    ``12f``) into ``counts``, and its red fives into ``reds``; return its flowers
    (bit ``n - 1`` for flower ``n``), or -1 for any other word, or when a count would
    pass a byte.  A group is ranks and their letter (the digit 0 a red five of a
    suit, 1-7 before ``z``, 1-8 before ``f``), or an honour letter alone.  A word
    whose first character is no digit or honour letter (a keyword, a fact, a meld)
    is refused at that character, before anything is counted."""
    flowers: cython.int = 0
    start: cython.Py_ssize_t = 0  # where the ranks waiting for their letter begin
    at: cython.Py_ssize_t
    i: cython.Py_ssize_t
    group: cython.int
    digit: cython.int
    kind: cython.int
    ch: cython.Py_UCS4
    for at in range(len(word)):
        ch = word[at]
        if "0" <= ch <= "9":
            continue
        # the suits' letters in kind order (mjr.notation.words.SUITS), then the flowers':
        # comparisons, which cost a few instructions compiled
        group = 0 if ch == "m" else 1 if ch == "p" else 2 if ch == "s" else 3 if ch == "z" else \
            4 if ch == FLOWER_LETTER else -1
        if group < 0:  # an honour letter, with no ranks before it
            kind = HONOR_LETTERS.find(ch)
            if kind < 0 or start < at:
                return -1
            if not _count(counts, FIRST_HONOR + kind):
                return -1
            start = at + 1
            continue
        if start == at:  # a letter without ranks
            return -1
        for i in range(start, at):
            digit = ord(word[i]) - 48
            if group == 4:
                if digit == 0 or digit > N_FLOWERS or flowers >> (digit - 1) & 1:  # (a flower given twice)
                    return -1
                flowers |= 1 << (digit - 1)
                continue
            if digit == 0:
                if group == 3:
                    return -1
                kind = RED_KINDS[group]
                reds.append(kind)
            elif group == 3 and digit > N_KINDS - FIRST_HONOR:
                return -1
            else:
                kind = 9 * group + digit - 1
            if not _count(counts, kind):
                return -1
        start = at + 1
    if start < len(word):  # ranks without their letter
        return -1
    return flowers


@cython.cfunc
def _kinds_of(counts: cython.p_uchar) -> tuple[int, ...]:
    """The kinds ``counts`` hold, sorted, a kind once for each copy."""
    kinds = []
    kind: cython.int
    _n: cython.int
    for kind in range(_KINDS):
        for _n in range(counts[kind]):
            kinds.append(kind)
    return tuple(kinds)


def tile_kinds(word: str) -> tuple[int, ...] | None:
    """The kinds of a whole word of tiles (``123m44pEE``), sorted, or ``None`` (also for
    a word with red fives or flowers, which stand only among the hand's own tiles)."""
    tally = bytearray(N_KINDS)
    reds = bytearray()
    if _add_tiles(word, tally, reds) != 0 or reds:
        return None
    kinds: tuple[int, ...] = _kinds_of(tally)
    return kinds


def read_common(text: str, facts: Mapping[str, str] | None, flowers: bool = True, red: bool = True) -> Hand | None:
    """The hand ``text`` spells, when it has a common shape and reads well; else ``None``
    (the full parser then reads it, and names any mistake).  ``flowers`` and ``red``
    say whether the ruleset has flowers and red fives: a hand with one it lacks gives
    ``None``."""
    words = text.split()
    tally = bytearray(N_KINDS)  # the concealed tiles, counted as they are read
    counts: cython.p_uchar = tally
    reds = bytearray()
    melds: list[Meld] = []
    held: cython.int = 0  # the flowers, bit n - 1 for flower n
    got: cython.int
    index: cython.Py_ssize_t = 0
    for word in words:
        if word[0] == "[" or word[0] == "(":
            meld = _meld(word)
            if meld is None:
                return None
            melds.append(meld[0])
            reds += meld[1]
        else:
            got = _add_tiles(word, counts, reds)
            if got < 0:
                if word in _KEYWORD_FIELDS or word == ASIDE:
                    break  # the tail begins
                return None
            if got:
                if held & got or not looks_like_tiles(word):  # a flower twice; a misspelt keyword
                    return None
                held |= got
        index += 1
    fields: dict[str, object] = {}
    if index < len(words) and not _read_tail(words, index, facts, fields):
        return None
    win: int | None = fields.pop("win", None)  # type: ignore[assignment]
    aside = fields.pop(ASIDE, ())
    tiles = _kinds_of(counts)
    if not tiles and not melds and win is None:
        return None
    if win is not None and win >= _RED_WIN:
        win -= _RED_WIN
        reds.append(win)
    if reds and not (red and max(map(reds.count, RED_KINDS)) <= MOST_RED):
        return None  # a red five the ruleset lacks, or a fourth of a suit
    if held and not flowers:
        return None
    context = _DEFAULT_CONTEXT
    if fields:
        if fields.get("first_turn") and any(not meld.concealed for meld in melds):
            return None
        context = _context(fields)
    # the counts Hand.concealed_counts gives, the winning tile with them
    concealed = bytes(tally) if win is None or _count(counts, win) else None
    # (proven valid above: the tiles set aside are kinds, at most four of each)
    return trusted_hand(tiles, tuple(melds), win, context, _FLOWERS_OF_MASK[held],
                        tuple(sorted(reds)) if reds else (), aside, concealed)  # type: ignore[arg-type]


def _context(fields: dict[str, object]) -> Context:
    """The Context of fields the tail proved valid, in the form Context stores them.

    Hands share few contexts, so each is kept by the fields its words set and made
    once (but not with facts, whose flag True and number 1 a key would not tell apart).
    """
    if "facts" in fields:
        return _new_context(fields)
    key = tuple(fields.items())
    context = _CONTEXTS.get(key)
    if context is None:
        context = _new_context(fields)
        _remember(_CONTEXTS, key, context)
    return context


def _new_context(fields: dict[str, object]) -> Context:
    seat = fields.get("dealer_seat")
    if seat is not None and seat == fields.get("seat", 0):  # the winner deals
        del fields["dealer_seat"]
        fields["dealer"] = True
    return trusted_context(fields)


def _read_tail(words: list[str], index: int, facts: Mapping[str, str] | None, fields: dict[str, object]) -> bool:
    """Read ``win T``, the context words and the facts from ``words[index:]`` into
    ``fields`` (Context fields, and ``win``); False for anything unusual."""
    count = len(words)
    read_facts: dict[str, FactValue] | None = None
    while index < count:
        word = words[index]
        index += 1
        entry = _KEYWORD_FIELDS.get(word)
        if entry is None and word == ASIDE:  # the tiles set aside: no Context field of their own
            kinds = tile_kinds(words[index]) if index < count and ASIDE not in fields else None
            if kinds is None or max(kinds.count(kind) for kind in kinds) > COPIES:
                return False
            fields[ASIDE] = kinds
            index += 1
            continue
        if entry is None:
            read_facts = read_facts or {}
            fact = None if word in read_facts else _fact(word, words[index] if index < count else None, facts)
            if fact is None:
                return False
            read_facts[word] = fact[0]
            index += fact[1]
            continue
        field, value = entry
        if field in fields or (field == "dealer" and "dealer_seat" in fields):  # a repeat, a second method
            return False
        if type(value) is dict:
            value = value.get(words[index]) if index < count else None
            if value is not None:
                index += 1
                if field == "dealer":
                    field = "dealer_seat"
            elif field == "dealer":
                value = True
            else:
                return False
        fields[field] = value
    if read_facts:
        fields["facts"] = tuple(sorted(read_facts.items()))
    win_by = fields.get("win_by")
    return win_by is None or _RULED_OUT_FIELDS.isdisjoint(fields) or conflict(win_by, fields) is None  # type: ignore


def _fact(word: str, after: str | None, facts: Mapping[str, str] | None) -> tuple[FactValue, int] | None:
    """A fact of play's value and how many words it takes after its name, or ``None``."""
    if facts is not None:
        if word not in facts or not FACT_NAME.match(word):
            return None
        kind: str | None = facts.get(word)
        if kind not in _FACT_KINDS:
            return None
    elif _is_undeclared_fact(word):
        kind = _kind_by_look(after)
        if kind is None:
            return None
    else:
        return None
    if kind == "flag":
        return True, 0
    if after is None:
        return None
    if kind == "number":
        if not (is_number(after) and len(after) <= 7 and int(after) <= MAX_FACT_NUMBER):
            return None
        return int(after), 1
    found = tile_kinds(after)
    if found is None or len(found) > MAX_FACT_TILES:
        return None
    return found, 1


def _is_undeclared_fact(word: str) -> bool:
    """Whether, with no facts declared, the full parser reads ``word`` as a fact of play."""
    known = _UNDECLARED_FACTS.get(word)
    if known is None:
        known = bool(FACT_NAME.match(word)) and misspelt_keyword(word) is None
        _remember(_UNDECLARED_FACTS, word, known)
    return known


def _kind_by_look(after: str | None) -> str | None:
    """An undeclared fact's kind, by the word after it: ``None`` when the full parser
    may read that word in a way this reader does not follow."""
    if after is None or after in _KEYWORD_FIELDS:
        return "flag"
    if is_number(after):
        return "number"
    if tile_kinds(after) is not None:
        return "tiles"
    return None if looks_like_tiles(after) else "flag"
