"""Hands as text and as JSON.

Text notation
-------------
A hand is whitespace-separated words, in this order:

1. Concealed tiles and declared melds, in any mix.

   * Tiles in MPSZ: ranks then a suit letter, ``123m456p789s1122z``; several
     groups may share a word.  ``1z``-``7z`` are E S W N, white, green, red, and
     the honour letters ``E S W N P F C`` (``P`` white, ``F`` green, ``C`` red)
     may stand anywhere a tile may: ``EEE``, ``123mEE``.
   * One meld per word: ``[345p]`` chow (digits in any order), ``[555p]`` pung,
     ``[5555p]`` exposed kong, ``(5555p)`` concealed kong.  An exposed meld may
     name who the claimed tile came from, ``[555p<O]`` (L left, O opposite,
     R right); an exposed kong made by adding a drawn fourth tile to a pung ends
     in ``+``: ``[5555p<L+]`` or ``[5555p+]``.  A concealed kong takes neither.
   * Flowers set aside (see :mod:`mjr.tiles.flowers`): numbers 1-8 then ``f``, in a
     tile word or a word of their own (``123m15f``, ``1f 5f``), each at most
     once.  Given ``flowers=False`` (a ruleset without them), one is refused at
     its character.

2. ``win T``: the winning tile, exactly one tile.

3. Context words, in any order, each at most once, mixed freely with ``win``:
   ``self_draw`` / ``discard`` / ``robbing_kong`` (one win method; ``discard`` is
   the default), the flags ``after_kong last_tile first_turn dealer``, and
   ``seat X`` / ``round X`` (X in E S W N), ``from X`` (X in L O R: who discarded
   the winning tile or whose kong was robbed), ``indicator T``, ``winners N``
   (1-3) and ``void X`` (X in m p s).  ``dealer`` says the winner deals;
   ``dealer X`` (X in E S W N) names the dealer's seat.  Words the win method rules out are
   refused at whichever comes second: ``self_draw`` with ``from X`` or with
   ``winners 2``/``3``, ``robbing_kong`` with ``after_kong``
   (:data:`mjr.hand.RULED_OUT`).  ``first_turn`` (before any claim) is refused
   beside an exposed meld, at ``first_turn``.

4. Facts of play a ruleset declares, after the context words: ``name`` for a
   flag, ``name N`` for a number, ``name T...`` for tiles (one MPSZ word, such as
   ``birds 3m5p``).  Given a ruleset's facts (:func:`parse_hand`'s ``facts``), an
   undeclared one is refused at its word with a suggestion; without them, any
   word that is no misspelt keyword is read as a fact, its value by its look.

Reading checks the shape of every word and meld but not whether a table could
deal the hand (a fifth copy, a bad tile count): that is
:func:`mjr.hand.impossibility`.  Every mistake raises :class:`NotationError`
pointing at the offending character; its message quotes at most 80 characters
around the caret.  Text longer than :data:`MAX_HAND_TEXT` characters is refused
before it is read.

The characters of a tile word and a meld word are read by
:mod:`mjr.notation.tiles`.  :func:`format_hand` writes the canonical text (see
:mod:`mjr.notation.format`);
``parse_hand(format_hand(h)) == h`` for every hand it accepts.

JSON
----
The JSON form of a hand is :mod:`mjr.notation.json`.

Both readers reject a hand with no tile at all, so whatever they return can be
written back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..abi import JOKER, MAX_FACT_TILES, MAX_JOKERS, SEAT_NAMES, SEATS, SOURCES, WIN_METHODS
from ..errors import NotationError, clip, closest
from ..hand.model import FACT_NAME, FIRST_TURN_CLAIM, Context, FactValue, Hand, Meld, conflict, first_turn_claim
from ..tiles.aside import ASIDE
from ..tiles.flowers import N_FLOWERS, flower_name
from ..tiles.kinds import COPIES, WIND_LETTERS, tile_name
from ..tiles.red import MOST_RED
from .format import CLOSER_OF, DEFAULT_CONTEXT, VOID_LETTERS, format_hand, format_meld
from .scan import read_common
from .tiles import Tile, parse_meld, scan_tiles
from .words import FLAG_WORDS, KEYWORDS, is_number, looks_like_tiles, misspelt_keyword

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import Any, NoReturn

__all__ = [
    "KEYWORDS",
    "MAX_HAND_TEXT",
    "NotationError",
    "format_hand",
    "format_meld",
    "parse_hand",
]

WINNER_COUNTS = "".join(str(count) for count in range(1, SEATS))
#: What ``from`` takes: the letters, then the steps on by number (mjr.abi.SOURCES).
_FROM_CHOICES = "LOR" + "".join(source for source in SOURCES if source.isdigit())
_EXAMPLES = {
    ASIDE: "aside 1z7z",
    "win": "win 5m",
    "seat": "seat S",
    "round": "round E",
    "from": "from L",
    "indicator": "indicator 5m",
    "winners": "winners 2",
    "void": "void m",
}
#: The longest hand text read, in characters: a real hand needs well under 100.
#: Longer text is refused before it is read, so hostile input costs no time.
MAX_HAND_TEXT = 4096
#: The Context field each context word sets, where the names differ.
_FIELD_OF_WORD = {"from": "source", **{method: "win_by" for method in WIN_METHODS}}


# --------------------------------------------------------------------------- words


@dataclass(frozen=True)
class _Word:
    text: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


class _Parser:
    """Walks the words of one hand string; keeps the text so errors can show it."""

    def __init__(self, text: str, facts: Mapping[str, str] | None = None, flowers: bool = True,
                 red: bool = True, jokers: int = MAX_JOKERS, aside: frozenset[int] | None = None) -> None:
        self.text = text
        #: the jokers the tile set has, and those read (concealed, in melds, winning), with where
        self.max_jokers = jokers
        self.jokers: list[Tile] = []
        self.concealed_jokers = 0
        #: the kinds the ruleset sets aside when drawn (None: any, as no ruleset is asked)
        self.aside_kinds = aside
        #: the tiles written after ``aside``
        self.aside: tuple[int, ...] = ()
        #: whether the hand may hold flowers, and red fives (a ruleset without them says no)
        self.flowers = flowers
        self.red = red
        #: the red fives read, with where
        self.reds: list[Tile] = []
        self.words = [_Word(m.group(), m.start()) for m in re.finditer(r"\S+", text)]
        self.index = 0
        #: the declared facts of play (name -> flag | number | tiles), or None: any
        self.facts = facts
        #: the word of each meld read, and of each context field set, for errors
        #: about a combination
        self.meld_words: list[_Word] = []
        self.phrases: dict[str, _Word] = {}

    def fail(self, column: int, reason: str) -> NoReturn:
        raise NotationError(self.text, column, reason)

    def peek(self) -> _Word | None:
        return self.words[self.index] if self.index < len(self.words) else None

    def take(self) -> _Word | None:
        word = self.peek()
        if word is not None:
            self.index += 1
        return word

    def unknown(self, word: _Word) -> NoReturn:
        """Fail on a word that is neither tiles nor a keyword, suggesting the nearest keyword."""
        known = (*KEYWORDS, *(self.facts or ()))
        guess = next(iter(closest(word.text, known)), None)
        hint = f"did you mean '{guess}'?" if guess else "expected tiles, a [meld], 'win' or a context word"
        if not guess and self.facts is not None:
            declared = ", ".join(sorted(self.facts)) or "none"
            hint += f" (this ruleset's facts of play: {declared})"
        self.fail(word.start, f"unknown word '{clip(word.text, 30)}'; {hint}")

    def is_fact(self, word: _Word) -> bool:
        """A fact of play: declared, or (no declarations given) a plain word that is
        no misspelt keyword."""
        if self.facts is not None:
            return word.text in self.facts
        return bool(FACT_NAME.match(word.text)) and misspelt_keyword(word.text) is None

    # ----------------------------------------------------------------- the tiles

    def read_body(self) -> tuple[list[int], list[Meld], tuple[int, ...]]:
        """Tiles, melds and flowers, up to the first keyword or declared fact of play
        (a waiting hand states its facts with no ``win`` before them)."""
        tiles: list[int] = []
        melds: list[Meld] = []
        flowers: list[Tile] = []
        while ((word := self.peek()) is not None and word.text not in KEYWORDS
               and not (self.facts is not None and word.text in self.facts)):
            self.index += 1
            if word.text[0] in CLOSER_OF:
                melds.append(parse_meld(self.text, word.start, word.end, self.reds, self.jokers))
                self.meld_words.append(word)
                self.check_in_play(melds[-1].tiles, word.start)
            elif looks_like_tiles(word.text):
                read = scan_tiles(self.text, word.start, word.end, flowers=flowers, red=True, jokers=True)[0]
                for tile in read:
                    if tile.kind != JOKER:
                        self.check_in_play((tile.kind,), tile.column)
                tiles += [t.kind for t in read if t.kind != JOKER]
                self.reds += [t for t in read if t.red]
                held = [t for t in read if t.kind == JOKER]
                self.jokers += held
                self.concealed_jokers += len(held)
            else:
                self.unknown(word)
        return tiles, melds, self.check_flowers(flowers)

    def check_flowers(self, flowers: list[Tile]) -> tuple[int, ...]:
        """The flowers read, sorted: each at most once, and only where the ruleset
        has them."""
        seen: set[int] = set()
        for flower in flowers:
            if not self.flowers:
                self.fail(flower.column, f"'{flower_name(flower.kind)}' is a flower, and this ruleset's tile set "
                                         "has none (its tiles statement names no flowers)")
            if flower.kind in seen:
                extra = f"a ninth flower: there are only {N_FLOWERS}" if len(seen) == N_FLOWERS else "given twice"
                self.fail(flower.column, f"flower {flower_name(flower.kind)} is {extra}; each flower is held once")
            seen.add(flower.kind)
        return tuple(sorted(seen))

    def check_in_play(self, kinds: tuple[int, ...], column: int) -> None:
        """Refuse a tile of a kind the ruleset sets aside when drawn where a tile in
        play stands (concealed, in a meld, the winning tile)."""
        if self.aside_kinds:
            for kind in kinds:
                if kind in self.aside_kinds:
                    name = tile_name(kind)
                    self.fail(column, f"'{name}' is set aside when drawn in this ruleset (its tiles statement "
                                      f"has aside(...)), never held: write it after 'aside', as in 'aside {name}'")

    def read_aside(self, word: _Word) -> tuple[int, ...]:
        """The tiles after ``aside``: kinds the ruleset sets aside, four copies at most."""
        if not looks_like_tiles(word.text):
            self.fail(word.start, f"'{ASIDE}' takes tiles, as in '{_EXAMPLES[ASIDE]}'")
        tiles, _ = scan_tiles(self.text, word.start, word.end)
        kinds: list[int] = []
        for tile in tiles:
            if self.aside_kinds is not None and tile.kind not in self.aside_kinds:
                listed = " ".join(tile_name(kind) for kind in sorted(self.aside_kinds))
                why = (f"this ruleset sets aside only {listed}" if listed else
                       "this ruleset sets no tiles aside (its tiles statement has no aside(...))")
                self.fail(tile.column, f"'{tile_name(tile.kind)}' is not a tile set aside: {why}")
            kinds.append(tile.kind)
            if kinds.count(tile.kind) > COPIES:
                self.fail(tile.column, f"a fifth {tile_name(tile.kind)} set aside: there are only {COPIES}")
        return tuple(sorted(kinds))

    # ----------------------------------------------------------------- the tail

    def read_tail(self) -> tuple[int | None, Context]:
        """``win T`` and the context words, in any order, each at most once."""
        win: int | None = None
        fields: dict[str, Any] = {}
        phrases = self.phrases
        seen: set[str] = set()
        facts: list[tuple[str, FactValue]] = []
        while (word := self.take()) is not None:
            if word.text not in KEYWORDS and word.text not in seen and self.is_fact(word):
                seen.add(word.text)
                facts.append((word.text, self.fact_value(word)))
                continue
            self.check_new(word, seen)
            if word.text == "win":
                value = self.value_of(word)
                win = self.one_tile(value, "win")
                self.check_in_play((win,), value.start)
            elif word.text == ASIDE:
                self.aside = self.read_aside(self.value_of(word))
            elif word.text == "dealer" and self.next_is_seat():
                fields["dealer_seat"] = SEAT_NAMES.index(self.letter(self.value_of(word), SEAT_NAMES, "dealer"))
            else:
                name = _FIELD_OF_WORD.get(word.text, word.text)
                fields[name] = self.context_value(word)
                phrases[name] = _Word(self.text[word.start:self.words[self.index - 1].end], word.start)
        self.check_conflicts(fields, phrases)
        return win, Context(**fields, facts=tuple(facts))

    def next_is_seat(self) -> bool:
        """Is the next word a seat (``dealer S``, or a number meant as one) rather
        than another word?"""
        after = self.peek()
        return after is not None and (after.text in SEAT_NAMES or after.text.isdecimal())

    def fact_value(self, word: _Word) -> FactValue:
        """A fact's value: the word after it for a number or tiles (by its declared
        kind, or by its look when none is declared); nothing for a flag."""
        after = self.peek()
        kind = self.facts.get(word.text) if self.facts is not None else None
        if kind is None and after is not None and after.text not in KEYWORDS:
            kind = "number" if is_number(after.text) else "tiles" if looks_like_tiles(after.text) else None
        if kind == "number":
            value = self.value_of(word, f"{word.text} 2")
            if not is_number(value.text) or len(value.text) > 7:
                self.fail(value.start, f"'{word.text}' takes a whole number, as in '{word.text} 2'")
            return int(value.text)
        if kind == "tiles":
            value = self.value_of(word, f"{word.text} 3m5p")
            if not looks_like_tiles(value.text):
                self.fail(value.start, f"'{word.text}' takes tiles, as in '{word.text} 3m5p'")
            tiles, _ = scan_tiles(self.text, value.start, value.end)
            if len(tiles) > MAX_FACT_TILES:
                self.fail(tiles[MAX_FACT_TILES].column, f"'{word.text}' takes at most {MAX_FACT_TILES} tiles")
            return tuple(sorted(tile.kind for tile in tiles))
        return True

    def check_conflicts(self, fields: dict[str, Any], phrases: dict[str, _Word]) -> None:
        """Refuse context words the win method rules out, at whichever came second."""
        found = conflict(fields.get("win_by", DEFAULT_CONTEXT.win_by), fields)
        if found is not None:
            name, why = found
            first, second = sorted((phrases[name], phrases["win_by"]), key=lambda phrase: phrase.start)
            self.fail(second.start, f"'{second.text}' contradicts '{first.text}': {why}")

    def check_first_turn(self, melds: list[Meld], context: Context) -> None:
        """Refuse ``first_turn`` beside an exposed meld, at ``first_turn`` (context
        words come after the melds)."""
        index = first_turn_claim(tuple(melds), context.first_turn)
        if index is not None:
            meld = self.meld_words[index].text
            self.fail(self.phrases["first_turn"].start, f"'first_turn' contradicts '{meld}': {FIRST_TURN_CLAIM}")

    def check_new(self, word: _Word, seen: set[str]) -> None:
        """Reject repeats, a second win method, and anything not a keyword."""
        if word.text not in KEYWORDS:
            if word.text[0] in CLOSER_OF or looks_like_tiles(word.text):
                self.fail(word.start, "tiles and melds must come before 'win' and context words")
            self.unknown(word)
        if word.text in seen:
            self.fail(word.start, f"'{word.text}' is repeated: each word may appear once")
        if word.text in WIN_METHODS:
            earlier = seen.intersection(WIN_METHODS)
            if earlier:
                self.fail(word.start, f"two win methods: '{earlier.pop()}' was already given")
        seen.add(word.text)

    def value_of(self, keyword: _Word, example: str = "") -> _Word:
        """The word after a keyword that takes a value."""
        value = self.take()
        if value is None:
            example = example or _EXAMPLES[keyword.text]
            self.fail(len(self.text), f"'{keyword.text}' needs a value after it, as in '{example}'")
        return value

    def one_tile(self, word: _Word, keyword: str) -> int:
        """Exactly one tile, as ``win`` and ``indicator`` take (the winning tile may be red)."""
        if not looks_like_tiles(word.text):
            self.fail(word.start, f"expected a tile after '{keyword}', as in '{_EXAMPLES[keyword]}'")
        tiles, _ = scan_tiles(self.text, word.start, word.end, red=keyword == "win", jokers=keyword == "win")
        if len(tiles) != 1:
            self.fail(tiles[1].column, f"'{keyword}' takes exactly one tile")
        self.reds += [tile for tile in tiles if tile.red]
        self.jokers += [tile for tile in tiles if tile.kind == JOKER]
        return tiles[0].kind

    def check_jokers(self) -> int:
        """The jokers among the concealed tiles: every joker read is refused where
        the ruleset has none, and the first past its count."""
        for index, tile in enumerate(sorted(self.jokers, key=lambda t: t.column)):
            if not self.max_jokers:
                self.fail(tile.column, "J writes a joker, and this ruleset's tile set has none (its tiles "
                                       "statement names no jokers)")
            if index >= self.max_jokers:
                self.fail(tile.column, f"joker {index + 1}: this tile set has {self.max_jokers}")
        return self.concealed_jokers

    def check_red(self) -> tuple[int, ...]:
        """The kinds of the red fives read, sorted: only where the ruleset has them,
        at most three of a suit."""
        kinds: list[int] = []
        for tile in self.reds:
            if not self.red:
                self.fail(tile.column, "0 writes a red five, and this ruleset's tile set has none (its tiles "
                                       "statement names no red_fives): write 5")
            kinds.append(tile.kind)
            if kinds.count(tile.kind) > MOST_RED:
                self.fail(tile.column, "a fourth red five of a suit: at most three")
        return tuple(sorted(kinds))

    def letter(self, word: _Word, choices: str, keyword: str) -> str:
        """A one-letter value from ``choices``."""
        if word.text[0] not in choices:
            self.fail(word.start, f"'{keyword}' takes one of {', '.join(choices)}")
        if len(word.text) > 1:
            self.fail(word.start + 1, f"'{keyword}' takes a single character, as in '{_EXAMPLES[keyword]}'")
        return word.text

    def context_value(self, word: _Word) -> Any:
        """The value a context keyword (and the word after it, if it takes one) gives
        its Context field."""
        if word.text in WIN_METHODS:
            return word.text
        if word.text in FLAG_WORDS:
            return True
        value = self.value_of(word)
        match word.text:
            case "seat":
                return SEAT_NAMES.index(self.letter(value, SEAT_NAMES, "seat"))
            case "round":
                return WIND_LETTERS.index(self.letter(value, WIND_LETTERS, "round"))
            case "from":
                return self.letter(value, _FROM_CHOICES, "from")
            case "indicator":
                return self.one_tile(value, "indicator")
            case "winners":
                return int(self.letter(value, WINNER_COUNTS, "winners"))
            case _:
                return VOID_LETTERS.index(self.letter(value, VOID_LETTERS, "void"))


def parse_hand(text: str, facts: Mapping[str, str] | None = None, flowers: bool = True, red: bool = True,
               jokers: int = MAX_JOKERS, aside: frozenset[int] | None = None) -> Hand:
    """Read a hand in the notation above.

    Checks the shape of every word but not whether the hand could be dealt; call
    :func:`mjr.hand.impossibility` for that.  Raises :class:`NotationError`, also for
    text longer than :data:`MAX_HAND_TEXT` characters (before reading any of it).
    ``facts`` maps the facts of play a ruleset declares to their kinds (``flag``,
    ``number``, ``tiles``); a ruleset passes its own, and ``flowers=False`` when its
    tile set has none (a flower is then refused at its character), ``red=False``
    when it has no red fives (``0m`` is then refused), ``jokers``, the jokers its
    tile set has (0: ``J`` is refused; the first past the count is too), and
    ``aside``, the kinds it sets aside when drawn (a tile after ``aside`` of another
    kind, or one of them held, is then refused at its character; None: any, nothing
    refused).
    """
    if not isinstance(text, str):
        raise NotationError("", 0, f"a hand is text (str), not {type(text).__name__}")
    if len(text) > MAX_HAND_TEXT:
        raise NotationError(text, MAX_HAND_TEXT, f"hand text longer than {MAX_HAND_TEXT} characters ({len(text)})")
    hand = read_common(text, facts, flowers, red)
    if hand is not None and aside is not None and (
            not aside.issuperset(hand.aside) or any(hand.all_counts()[kind] for kind in aside)):
        hand = None  # a kind set aside held, or one set aside that is not: the full parser points at it
    return hand or _parse_hand_full(text, facts, flowers, red, jokers, aside)


def _parse_hand_full(text: str, facts: Mapping[str, str] | None = None, flowers: bool = True,
                     red: bool = True, jokers: int = MAX_JOKERS, aside: frozenset[int] | None = None) -> Hand:
    """:func:`parse_hand` by the full parser, which reads any text and names the
    place of a mistake; :func:`mjr.notation.scan.read_common` reads the common
    valid hands faster and leaves it the rest."""
    parser = _Parser(text, facts, flowers, red, jokers, aside)
    if not parser.words:
        parser.fail(len(text), "empty hand: expected tiles such as 123m456p")
    tiles, melds, held = parser.read_body()
    win, context = parser.read_tail()
    parser.check_first_turn(melds, context)
    if not tiles and not melds and win is None and not parser.concealed_jokers:
        parser.fail(parser.words[0].start, "no tiles: tiles and melds come first, as in '123m dealer'")
    return Hand(tuple(sorted(tiles)), tuple(melds), win, context, held, parser.check_red(), parser.check_jokers(),
                parser.aside)
