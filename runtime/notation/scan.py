"""The fast reader of hand notation: one pass over the words, with lookup tables.

:func:`mjr.notation.parse_hand` asks :func:`read_common` first.  It recognises the
common, valid shapes (tile words, bracketed melds, ``win T``, the context words and
declared facts of play, with flowers and red fives where the ruleset has them) and
builds the :class:`~mjr.hand.Hand` straight from its tables; anything it does not
fully recognise (jokers among them), every mistake included, gives ``None``, and the
full parser reads the text again and reports the mistake at its place.  So the
errors are the full parser's by construction; the tests check that the two readers
build equal hands from random hand texts and their mutations.

The word tables are filled on first use of a word, not at import, and hold only
words that read well, so hostile input cannot grow them past their bound.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..abi import ASIDE, CONTEXT_WORDS, MAX_FACT_NUMBER, MAX_FACT_TILES, SOURCES, WIN_METHODS
from ..errors import NotationError
from ..hand.model import FACT_NAME, RULED_OUT, Context, FactValue, Hand, Meld, conflict, trusted_context, trusted_hand
from ..tiles.flowers import FLOWER_LETTER, N_FLOWERS, flowers_of_mask
from ..tiles.kinds import COPIES, FIRST_HONOR, HONOR_LETTERS, TILE_NAMES, WIND_LETTERS
from ..tiles.red import MOST_RED, RED_DIGIT, RED_KINDS
from .tiles import Tile, parse_meld
from .words import is_number, looks_like_tiles, misspelt_keyword

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import Any

#: One group of a tile word: ranks (0 a red five) and their suit letter, an honour
#: letter, or flower numbers and ``f``.
_GROUP = re.compile(r"[0-9]+[mps]|[1-7]+z|[1-8]+f|[ESWNPFC]")
#: Per group's last character, the byte table that turns its characters into kinds
#: (the suit letter itself is deleted; a red five is a 5 of its suit).
_KIND_TABLES = {
    **{
        letter: bytes.maketrans(b"0123456789", bytes([suit * 9 + 4, *range(suit * 9, suit * 9 + 9)]))
        for suit, letter in enumerate("mpsz")
    },
    **dict.fromkeys(HONOR_LETTERS, bytes.maketrans(HONOR_LETTERS.encode(), bytes(range(FIRST_HONOR, 34)))),
}
_SUIT_LETTERS = b"mpsz"
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
#: Each hand keyword: the field it sets (``win`` its own), and either the value it
#: sets or, for a word that takes a value, the table of the words it takes.  A
#: ``dealer`` followed by a wind sets the dealer's seat, and by anything else the flag.
_KEYWORD_FIELDS: dict[str, tuple[str, object]] = {
    "win": ("win", _WIN_TILE),
    **{method: ("win_by", method) for method in WIN_METHODS},
    **{flag: (flag, True) for flag in ("after_kong", "last_tile", "first_turn")},
    "dealer": ("dealer", _WINDS),
    "seat": ("seat", _WINDS),
    "round": ("round", _WINDS),
    "from": ("source", {source: source for source in SOURCES}),
    "indicator": ("indicator", _ONE_TILE),
    "winners": ("winners", {"1": 1, "2": 2, "3": 3}),
    "void": ("void", {"m": 0, "p": 1, "s": 2}),
}
assert set(_KEYWORD_FIELDS) == set(CONTEXT_WORDS)
#: The fields some win method rules out (see :data:`mjr.hand.RULED_OUT`).
_RULED_OUT_FIELDS = frozenset(name for rules in RULED_OUT.values() for name, _ in rules)
_FACT_KINDS = frozenset({"flag", "number", "tiles"})
_DEFAULT_CONTEXT = Context()
#: How many words the tables below learn.
_LEARN_LIMIT = 4096
#: What each word read so far says: a keyword's entry above, the kinds of a word of
#: tiles in text order (bytes), the meld of a meld word, or for a word with red fives
#: or flowers, a :class:`_Marked`.  Words are learnt on first use, and only those that
#: read well.
_WORDS: dict[str, object] = {**_KEYWORD_FIELDS, ASIDE: (ASIDE, None)}
#: The contexts made so far, by the fields their words set (in the order given).
_CONTEXTS: dict[tuple[tuple[str, object], ...], Context] = {}
#: Words read so far as facts of play when the caller declared none (see
#: ``mjr.notation._Parser.is_fact``), and whether each is one.
_UNDECLARED_FACTS: dict[str, bool] = {}



class _Marked:
    """A word of tiles or a meld word that holds red fives or flowers: its kinds (in
    text order) or its meld, the kinds of its red fives, and its flowers (bit ``n - 1``
    for flower ``n``)."""

    __slots__ = ("flowers", "kinds", "meld", "red")

    def __init__(self, kinds: bytes, meld: Meld | None, red: bytes, flowers: int) -> None:
        self.kinds = kinds
        self.meld = meld
        self.red = red
        self.flowers = flowers


def _remember(table: dict[Any, Any], key: object, value: object) -> None:
    if len(table) < _LEARN_LIMIT:
        table[key] = value


def _learn(word: str) -> bytes | Meld | _Marked | None:
    """What a word that is not yet in :data:`_WORDS` says, or ``None`` when it is no
    tiles and no meld that reads well."""
    if word[0] == "[" or word[0] == "(":
        fives: list[Tile] = []
        try:
            meld = parse_meld(word, 0, len(word), fives)  # the full parser's own meld reader
        except NotationError:
            return None
        item: Meld | _Marked = _Marked(b"", meld, bytes(sorted(tile.kind for tile in fives)), 0) if fives else meld
        _remember(_WORDS, word, item)
        return item
    # The groups cover the word exactly when it is groups and nothing else, which is
    # when the full parser reads it as tiles (one with a flower, when it looks like
    # tiles rather than a misspelt keyword).
    groups = _GROUP.findall(word)
    if sum(map(len, groups)) != len(word):
        return None
    if FLOWER_LETTER in word and not looks_like_tiles(word):
        return None
    flowers = 0
    for group in groups:
        if group[-1] == FLOWER_LETTER:
            for number in group[:-1]:
                bit = 1 << (int(number) - 1)
                if flowers & bit:  # a flower given twice
                    return None
                flowers |= bit
    kinds = b"".join([group.encode().translate(_KIND_TABLES[group[-1]], _SUIT_LETTERS) for group in groups
                      if group[-1] != FLOWER_LETTER])
    found: bytes | _Marked = kinds
    if flowers or RED_DIGIT in word:
        red = bytes(sorted(RED_KINDS["mps".index(group[-1])] for group in groups if group[-1] in "mps"
                           for rank in group if rank == RED_DIGIT))
        found = _Marked(kinds, None, red, flowers)
    _remember(_WORDS, word, found)
    return found


def tile_kinds(word: str) -> bytes | None:
    """The kinds of a whole word of tiles (``123m44pEE``) in text order, or ``None``
    (also for a word with red fives or flowers, which stand only among the hand's own
    tiles)."""
    kinds = _WORDS.get(word) or _learn(word)
    return kinds if type(kinds) is bytes else None


def read_common(text: str, facts: Mapping[str, str] | None, flowers: bool = True, red: bool = True) -> Hand | None:
    """The hand ``text`` spells, when it has a common shape and reads well; else ``None``
    (the full parser then reads it, and names any mistake).  ``flowers`` and ``red``
    say whether the ruleset has flowers and red fives: a hand with one it lacks gives
    ``None``."""
    words = text.split()
    known = _WORDS.get
    kinds = b""
    melds: list[Meld] = []
    reds = b""
    held = 0  # the flowers, bit n - 1 for flower n
    index = 0
    for word in words:
        item = known(word) or _learn(word)
        if type(item) is bytes:
            kinds += item
        elif type(item) is Meld:
            melds.append(item)
        elif item is None:
            return None
        elif type(item) is _Marked:
            if item.meld is None:
                kinds += item.kinds
            else:
                melds.append(item.meld)
            reds += item.red
            if held & item.flowers:  # a flower given twice
                return None
            held |= item.flowers
        else:
            break  # a keyword: the tail begins
        index += 1
    fields: dict[str, object] = {}
    if index < len(words) and not _read_tail(words, index, facts, fields):
        return None
    win: int | None = fields.pop("win", None)  # type: ignore[assignment]
    aside = fields.pop(ASIDE, ())
    if not kinds and not melds and win is None:
        return None
    if win is not None and win >= _RED_WIN:
        win -= _RED_WIN
        reds += bytes((win,))
    if reds and not (red and max(map(reds.count, RED_KINDS)) <= MOST_RED):
        return None  # a red five the ruleset lacks, or a fourth of a suit
    if held and not flowers:
        return None
    context = _DEFAULT_CONTEXT
    if fields:
        if fields.get("first_turn") and any(not meld.concealed for meld in melds):
            return None
        context = _context(fields)
    # (proven valid above: the tiles set aside are kinds, at most four of each)
    return trusted_hand(tuple(sorted(kinds)), tuple(melds), win, context, _FLOWERS_OF_MASK[held],
                        tuple(sorted(reds)) if reds else (), aside)  # type: ignore[arg-type]


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
            fields[ASIDE] = tuple(sorted(kinds))
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
    return tuple(sorted(found)), 1


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
