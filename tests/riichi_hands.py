"""Random legal winning hands of Japanese riichi mahjong, with the ``mahjong`` library's verdict.

Seeded and deterministic: ``generate(n, seed)`` gives the same hands on every
machine.  A *theme* picks the four sets and the pair (simples, all chows, one
suit, honours, terminals, chow and pung patterns, kongs, green tiles), or a
special shape (seven pairs, thirteen orphans, nine gates), weighted so that the
rare yaku and yakuman appear; the sets are then declared or kept concealed
(chows claimed from the left, pungs and kongs from anyone, added and concealed
kongs), one concealed tile is the winning tile, so every wait comes up, and a
context of play is drawn that a table could produce: seat and round wind, the
dealer (the East seat: ``dealer`` when East wins, else ``dealer E``), tsumo, ron or chankan, rinshan, haitei and houtei,
riichi, double riichi and ippatsu (closed hands only), tenhou and chiihou, renhou
(a first-turn ron by a non-dealer, no meld), honba 0 to 20, riichi sticks on the
table (kyoutaku, in a quarter of the hands, 1 to 6), one dora indicator
per kong plus one and as many ura indicators under riichi, all drawn from the
tiles left in the wall.  Red fives only with ``red=True``; no dora or ura
indicators with ``dora=False``.

A *focus* draws more of the hands an option of the rules changes (see
:data:`FOCUSES`): ``renhou`` first-turn rons, ``kazoe`` closed hands of many yaku
and dora, ``pinfu`` pinfu shapes, open or closed, won by tsumo or ron,
``daisharin`` seven pairs 2 to 8 of one suit.

A candidate is kept only if the library scores it without an error, with at
least one yaku (dora alone is none).  The library is called with one set-up
(:func:`options`), the library's defaults except where marked, unless ``rules``
changes some of its ``OptionalRules`` (and ``renhou=False`` leaves ``is_renhou``
unset: no renhou):

* ``has_open_tanyao=True`` (kuitan, tanyao on an open hand) -- not the default,
  the common rule of online and tournament play;
* ``has_aka_dora`` -- True exactly when the hands are made with ``red=True``
  (without red fives a fourth five is a plain tile);
* ``has_double_yakuman=True``: double yakuman (kokushi 13-wait, suuankou tanki,
  junsei chuuren, daisuushi) count twice, and yakuman add up;
* ``kazoe_limit=KAZOE_LIMITED``: 13 han or more of ordinary yaku is one yakuman;
* ``kiriage=False``: 4 han 30 fu and 3 han 60 fu are not rounded up to mangan;
* ``fu_for_open_pinfu=True``: an open hand of pinfu shape won by ron is 30 fu;
* ``fu_for_pinfu_tsumo=False``: pinfu tsumo is 20 fu;
* ``renhou_as_yakuman=False``: renhou (``is_renhou=True`` on a first-turn ron) is 5 han;
* ``has_daisharin``, ``has_daichisei``, ``has_sashikomi_yakuman`` off; no
  paarenchan, open riichi or nagashi mangan;
* ``limit_to_sextuple_yakuman=True``, three players off.

With ``is_three_player`` among ``rules`` the hands are three-player ones (三麻):
no 2m-8m (in the hand, the melds or the indicators, whose 1m points at 9m), no
open chow, seats E S W, a discard from the left or the right, the round East or
South (West rarely); the rest as above.

The notation (see docs/notation.rst) uses the hand words and these facts of
play: ``riichi``, ``double_riichi`` (written alone, it replaces riichi),
``ippatsu``, ``honba N`` and ``riichi_sticks N`` (left out when 0), ``dora_indicators TILES`` (the indicators),
``ura_indicators TILES`` (only under riichi), and ``first_turn`` for tenhou, chiihou and renhou.
Red fives are written ``0m`` ``0p`` ``0s``, in melds too (``[340m<L]``,
``[055p<O]``).  Needs the ``mahjong`` package (the ``riichi`` extra).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from hand_shapes import DRAGONS, GREEN, HONORS, TERMINALS, WINDS, SetSpec, Standard, any_pair, chow, kind, pung
from hand_shapes import any_set as _any_set

#: A set of the riichi themes: chows a little more often than the shared default.
any_set = functools.partial(_any_set, chows=0.6)

#: A declared set: (kind "chow" "pung" "kong", lowest kind, how: "open" "added" "closed", source L/O/R or "")
Declared = tuple[str, int, str, str]

MAN, PIN, SOU = 0, 1, 2
#: The kinds a three-player table leaves out: 2m to 8m.
SANMA_OUT = frozenset(range(1, 8))
ORPHANS = TERMINALS + HONORS
SIMPLES = tuple(9 * s + r for s in range(3) for r in range(1, 8))
FIVES = (4, 13, 22)
#: The red five's copy in the library's 136 format (kind * 4 + copy): copy 0 of each five.
RED_COPY = 0
#: Yaku the set-up never produces (off, or their context is never drawn); aka_dora too without red fives.
EXCLUDED_YAKU = frozenset({"open_riichi", "daburu_open_riichi", "nagashi_mangan", "renhou_yakuman",
                           "daisharin", "daichisei", "sashikomi", "paarenchan"})
#: What a focus draws more of, for the options that change it: the share of hands
#: of the focus's own kind (the rest are drawn as usual).
FOCUSES = ("", "renhou", "kazoe", "pinfu", "daisharin")
#: How often a closed ron by a non-dealer is a renhou: about 1.5% of all hands.
RENHOU_RATE = 0.12
WAIT_CLASSES = ("ryanmen", "kanchan", "penchan", "shanpon", "tanki", "kokushi", "kokushi_13", "chuuren_9")


@dataclass(frozen=True)
class Verdict:
    """The library's answer: han, fu, the payments (``main`` and ``additional``
    before honba, their honba bonuses, the riichi sticks taken), yaku by the library's attribute names
    (``dora``, ``aka_dora`` and ``ura_dora`` once per han), and ``error``."""

    han: int
    fu: int
    main: int
    additional: int
    main_bonus: int
    additional_bonus: int
    kyoutaku_bonus: int
    total: int
    level: str
    yaku: tuple[str, ...]
    yakuman: bool
    error: str | None = None


#: ``OptionalRules`` keywords that differ from the set-up of :func:`options`, as (keyword, value) pairs.
Rules = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class LibraryCall:
    """The arguments of ``HandCalculator.estimate_hand_value`` as plain data: tiles
    in 136 format (melds' tiles included), melds as (type, tiles, opened), the
    indicators, the ``HandConfig`` keywords and the ``OptionalRules`` that differ
    from the set-up."""

    tiles: tuple[int, ...]
    win_tile: int
    melds: tuple[tuple[str, tuple[int, ...], bool], ...]
    dora: tuple[int, ...]
    ura: tuple[int, ...]
    config: tuple[tuple[str, Any], ...]
    red: bool
    rules: Rules = ()


@dataclass(frozen=True)
class RiichiHand:
    """One generated winning hand: its notation, theme, possible waits, and the
    library's call and verdict."""

    text: str
    theme: str
    closed: bool
    waits: frozenset[str]
    reds: int
    call: LibraryCall
    verdict: Verdict


# --------------------------------------------------------------------------- themes of the standard shape


def theme_random(rng: random.Random) -> Standard:
    return [any_set(rng) for _ in range(4)], any_pair(rng)


def theme_simples(rng: random.Random) -> Standard:
    """Tiles 2-8 only (tanyao), chows and pungs."""
    sets = [chow(rng.randrange(3), rng.randint(2, 6)) if rng.random() < 0.7 else pung(rng.choice(SIMPLES))
            for _ in range(4)]
    return sets, rng.choice(SIMPLES)


def theme_chows(rng: random.Random) -> Standard:
    """Four chows and a pair that is no value tile: the pinfu shape, won on any wait."""
    return [chow(rng.randrange(3), rng.randint(1, 7)) for _ in range(4)], any_pair(rng, honors=rng.random() < 0.3)


def theme_flush(rng: random.Random) -> Standard:
    """One suit, with or without honours (chinitsu, honitsu)."""
    suit, honors = rng.randrange(3), rng.random() < 0.5
    return [any_set(rng, (suit,), honors) for _ in range(4)], any_pair(rng, (suit,), honors)


def theme_honors(rng: random.Random) -> Standard:
    """Value tiles: yakuhai, shosangen, daisangen, shosuushi, daisuushi, tsuisou."""
    group = list(rng.choice((WINDS, DRAGONS, HONORS)))
    rng.shuffle(group)
    n = rng.randint(1, min(4, len(group)))
    sets = [pung(k) for k in group[:n]]
    rest = [k for k in HONORS if k not in group[:n]]
    all_honors = rng.random() < 0.12
    while len(sets) < 4:
        if all_honors:
            k = rng.choice(rest)
            rest.remove(k)
            sets.append(pung(k))
        else:
            sets.append(any_set(rng))
    pair = rng.choice(rest) if all_honors or rng.random() < 0.6 else any_pair(rng)
    return sets, pair


def theme_outside(rng: random.Random) -> Standard:
    """Every set and the pair hold a terminal or honour: chanta, junchan, honroto, chinroto."""
    pool = TERMINALS + (HONORS if rng.random() < 0.6 else ())
    chows = rng.random() < 0.6
    sets = [chow(rng.randrange(3), rng.choice((1, 7))) if chows and rng.random() < 0.6 else pung(rng.choice(pool))
            for _ in range(4)]
    return sets, rng.choice(pool)


def theme_patterns(rng: random.Random) -> Standard:
    """A chow or pung pattern completed at random: ittsu, sanshoku, iipeiko,
    ryanpeiko, sanshoku douko."""
    a, b, c = rng.sample(range(3), 3)
    r = rng.randint(1, 7)
    patterns: list[list[SetSpec]] = [
        [chow(a, 1), chow(a, 4), chow(a, 7)],
        [chow(a, r), chow(b, r), chow(c, r)],
        [chow(a, r), chow(a, r)],
        [chow(a, r), chow(a, r), chow(b, rng.randint(1, 7)), chow(b, rng.randint(1, 7))],
        [pung(kind(a, r)), pung(kind(b, r)), pung(kind(c, r))],
    ]
    sets = list(rng.choice(patterns))
    while len(sets) < 4:
        sets.append(any_set(rng))
    return sets, any_pair(rng)


def theme_pungs(rng: random.Random) -> Standard:
    """Four pungs: toitoi, sanankou, suuankou, and kongs (sankantsu, suukantsu)."""
    return [pung(rng.randrange(34)) for _ in range(4)], any_pair(rng)


def theme_green(rng: random.Random) -> Standard:
    """Green tiles only (ryuisou)."""
    sets = [chow(SOU, 2) if rng.random() < 0.3 else pung(rng.choice(GREEN)) for _ in range(4)]
    return sets, rng.choice(GREEN)


STANDARD_THEMES: tuple[tuple[str, Callable[[random.Random], Standard], int], ...] = (
    ("random", theme_random, 20),
    ("simples", theme_simples, 14),
    ("chows", theme_chows, 14),
    ("flush", theme_flush, 9),
    ("honors", theme_honors, 12),
    ("outside", theme_outside, 8),
    ("patterns", theme_patterns, 12),
    ("pungs", theme_pungs, 8),
    ("green", theme_green, 2),
)


# --------------------------------------------------------------------------- declaring sets


def declare(rng: random.Random, sets: list[SetSpec], theme: str, closed: bool = False,
            closed_kongs: float = 0.0) -> tuple[list[Declared], list[int]]:
    """Which sets are declared, and how: the declared sets, and the concealed tiles
    of the rest.  When ``closed``, none is open: a pung is a concealed kong with
    chance ``closed_kongs``."""
    declared: list[Declared] = []
    concealed: list[int] = []
    if closed:
        for what, tile in sets:
            if what == "pung" and closed_kongs and rng.random() < closed_kongs:
                declared.append(("kong", tile, "closed", ""))
            else:
                concealed.extend(set_tiles(what, tile))
        return declared, concealed
    open_count = rng.choice((0, 0, 0, 0, 1, 1, 2, 3, 4))
    kong_rate = 0.45 if theme == "pungs" else 0.07
    order = list(range(4))
    rng.shuffle(order)
    for position, index in enumerate(order):
        what, tile = sets[index]
        if what == "pung" and rng.random() < kong_rate:
            how = rng.choice(("closed", "closed", "open", "added"))
            declared.append(("kong", tile, how, "" if how == "closed" else rng.choice("LOR")))
        elif position < open_count:
            declared.append((what, tile, "open", "L" if what == "chow" else rng.choice("LOR")))
        else:
            concealed.extend(set_tiles(what, tile))
    return declared, concealed


def set_tiles(what: str, tile: int) -> list[int]:
    if what == "chow":
        return [tile, tile + 1, tile + 2]
    return [tile] * (4 if what == "kong" else 3)


# --------------------------------------------------------------------------- the special shapes


def seven_pairs(rng: random.Random) -> list[int]:
    """Seven different pairs (four of a kind is not two pairs in riichi), from
    every tile, one suit with or without honours, simples, terminals and honours,
    or honours alone."""
    first = 9 * rng.randrange(3)
    suit = tuple(range(first, first + 9))
    pool = rng.choices((tuple(range(34)), suit + HONORS, suit, SIMPLES, ORPHANS, HONORS), (6, 3, 2, 2, 2, 1))[0]
    return [k for k in rng.sample(pool, 7) for _ in range(2)]


def daisharin(rng: random.Random) -> list[int]:
    """Every simple of one suit twice (大車輪 in pinzu, half the time; 大数隣, 大竹林)."""
    suit = PIN if rng.random() < 0.5 else rng.choice((MAN, SOU))
    return [kind(suit, r) for r in range(2, 9) for _ in range(2)]


#: The themes a focus draws from, closed, most of the time (the rest as usual).
FOCUS_THEMES = {"kazoe": ("flush", "patterns", "chows", "simples"), "pinfu": ("chows",)}


def shape(rng: random.Random, focus: str = "") -> tuple[str, list[int], list[Declared], int | None]:
    """(theme, the 14 concealed tiles with the winning tile, declared sets, the winning tile if fixed)."""
    if focus == "daisharin" and rng.random() < 0.5:
        return "daisharin", daisharin(rng), [], None
    names, makers, weights = zip(*STANDARD_THEMES, strict=True)
    if focus in FOCUS_THEMES and rng.random() < 0.8:
        theme = rng.choice(FOCUS_THEMES[focus])
        sets, pair = makers[names.index(theme)](rng)
        kazoe = focus == "kazoe"
        declared, concealed = declare(rng, sets, theme, kazoe or rng.random() < 0.5, 0.5 if kazoe else 0.0)
        return theme, concealed + [pair, pair], declared, None
    pick = rng.random()
    if pick < 0.08:
        return "seven_pairs", seven_pairs(rng), [], None
    if pick < 0.095:
        extra = rng.choice(ORPHANS)
        return "kokushi", list(ORPHANS) + [extra], [], extra if rng.random() < 0.5 else None
    if pick < 0.11:
        suit, extra = rng.randrange(3), rng.randint(1, 9)
        tiles = [kind(suit, r) for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, extra)]
        return "nine_gates", tiles, [], kind(suit, extra) if rng.random() < 0.5 else None
    index = rng.choices(range(len(names)), weights)[0]
    sets, pair = makers[index](rng)
    declared, concealed = declare(rng, sets, names[index], closed=focus == "renhou" and rng.random() < 0.7)
    return names[index], concealed + [pair, pair], declared, None


# --------------------------------------------------------------------------- the context of play


@dataclass(frozen=True)
class Play:
    """The context of one win, in the notation's terms."""

    seat: int
    round: int
    win_by: str  # self_draw, discard, robbing_kong
    source: str  # L O R for a discard or a robbed kong
    after_kong: bool
    last_tile: bool
    first_turn: bool
    riichi: str  # "", "riichi", "double_riichi"
    ippatsu: bool
    honba: int
    sticks: int  # riichi sticks on the table (供託), the library's kyoutaku_number


def play(rng: random.Random, declared: list[Declared], held_copies: int, focus: str = "",
         table: random.Random | None = None, seats: int = 4) -> Play:
    """A context a table could produce for a hand with these declared sets;
    ``held_copies`` of the winning tile are in the hand already (a robbed kong
    needs the other three in the robbed pung).  A first turn is tenhou or chiihou
    on a tsumo, renhou on a ron (a non-dealer's: the dealer's first tile is a draw).
    The riichi sticks on the table are drawn from ``table`` (``rng`` without it), so
    that drawing them leaves the rest of the hands as they were.  At a table of
    three (``seats``) nobody sits North, nor opposite."""
    closed = all(how == "closed" for _, _, how, _ in declared)
    has_kong = any(what == "kong" for what, _, _, _ in declared)
    tsumo_weight = {"kazoe": 70, "pinfu": 55, "renhou": 15}.get(focus, 45)
    win_by = rng.choices(("self_draw", "discard", "robbing_kong"), (tsumo_weight, 50, 6 if held_copies == 1 else 0))[0]
    after_kong = win_by == "self_draw" and has_kong and rng.random() < 0.3
    last_tile = win_by != "robbing_kong" and not after_kong and rng.random() < 0.07
    seat = rng.randrange(seats)
    if win_by == "discard" and focus == "renhou" and not declared:
        seat = rng.randrange(1, seats)
    first_turn = not declared and not last_tile and (
        rng.random() < 0.02 if win_by == "self_draw"
        else win_by == "discard" and seat != 0 and rng.random() < (0.9 if focus == "renhou" else RENHOU_RATE))
    riichi = ""
    if closed and not first_turn:
        weights = (10, 70, 20) if focus == "kazoe" else (50, 44, 6)
        riichi = rng.choices(("", "riichi", "double_riichi"), weights)[0]
    ippatsu = bool(riichi) and not after_kong and rng.random() < (0.5 if focus == "kazoe" else 0.2)
    honba = 0 if rng.random() < 0.6 else rng.choice((1, 1, 1, 2, 2, 3, 4, 5, 7, 10, 20))
    table = table or rng
    sticks = 0 if table.random() < 0.75 else table.choice((1, 1, 1, 2, 2, 3, 4, 6))
    round_wind = rng.choices(range(seats), (45, 45, 5, 5)[:seats])[0]
    source = rng.choice("LOR" if seats == 4 else "LR") if win_by != "self_draw" else ""
    return Play(seat, round_wind, win_by, source, after_kong, last_tile, first_turn, riichi, ippatsu, honba, sticks)


def config_keywords(p: Play) -> tuple[tuple[str, Any], ...]:
    """The ``HandConfig`` keywords of a context (winds as 34-kinds, East 27)."""
    return (
        ("is_tsumo", p.win_by == "self_draw"), ("is_riichi", p.riichi == "riichi"),
        ("is_daburu_riichi", p.riichi == "double_riichi"), ("is_ippatsu", p.ippatsu),
        ("is_rinshan", p.after_kong), ("is_chankan", p.win_by == "robbing_kong"),
        ("is_haitei", p.last_tile and p.win_by == "self_draw"), ("is_houtei", p.last_tile and p.win_by == "discard"),
        ("is_tenhou", p.first_turn and p.win_by == "self_draw" and p.seat == 0),
        ("is_chiihou", p.first_turn and p.win_by == "self_draw" and p.seat != 0),
        ("is_renhou", p.first_turn and p.win_by == "discard"),
        ("player_wind", 27 + p.seat), ("round_wind", 27 + p.round), ("tsumi_number", p.honba),
        ("kyoutaku_number", p.sticks),
    )


# --------------------------------------------------------------------------- tiles in the 136 format


class Wall:
    """The 136 tiles, each kind's copies handed out in a seeded random order, so that
    a red five (copy 0) turns up as often as it would at a table; at a table of
    three (``three``) none of 2m-8m."""

    def __init__(self, rng: random.Random, three: bool = False) -> None:
        self.rng = rng
        self.three = three
        self.taken: set[int] = {4 * k + c for k in SANMA_OUT for c in range(4)} if three else set()

    def take(self, k: int) -> int:
        """One copy of ``k`` not taken yet; ``IndexError`` if all four are out."""
        left = [4 * k + c for c in range(4) if 4 * k + c not in self.taken]
        if not left:
            raise IndexError(f"a fifth copy of kind {k}")
        tile = left[self.rng.randrange(len(left))]
        self.taken.add(tile)
        return tile

    def indicators(self, count: int, aim: list[int] | None = None) -> tuple[int, ...]:
        """``count`` tiles drawn from those left; with ``aim`` (kinds), each one, where
        a copy is left, the indicator of one of those kinds, so that it is a dora."""
        drawn: list[int] = []
        while len(drawn) < count:
            if aim:
                wanted = indicator_of(self.rng.choice(aim), self.three)
                left = [4 * wanted + c for c in range(4) if 4 * wanted + c not in self.taken]
                if left:
                    tile = left[self.rng.randrange(len(left))]
                    self.taken.add(tile)
                    drawn.append(tile)
                    continue
            tile = self.rng.randrange(136)
            if tile not in self.taken:
                self.taken.add(tile)
                drawn.append(tile)
        return tuple(sorted(drawn))


def indicator_of(k: int, three: bool = False) -> int:
    """The kind whose indicator makes ``k`` the dora: the one before it, 9 before 1
    in a suit, N before E among the winds, C before P among the dragons; at a table
    of three 1m before 9m."""
    if three and k in (0, 8):
        return 8 - k
    if k < 27:
        return k - 1 if k % 9 else k + 8
    if k < 31:
        return 27 + (k - 27 - 1) % 4
    return 31 + (k - 31 - 1) % 3


def digit(tile: int, red: bool) -> str:
    """The MPSZ digit of a 136-format tile: ``0`` for a red five."""
    k = tile // 4
    if red and k in FIVES and tile % 4 == RED_COPY:
        return "0"
    return str(k % 9 + 1)


def word(tiles: list[int], red: bool) -> str:
    """Tiles in MPSZ, one run of digits per suit (``234m055p1z``); a red five first among the fives."""
    parts = []
    for suit, letter in enumerate("mpsz"):
        mine = sorted((t for t in tiles if t // 36 == suit), key=lambda t: (t // 4, digit(t, red) != "0"))
        if mine:
            parts.append("".join(digit(t, red) for t in mine) + letter)
    return "".join(parts)


WIND_LETTERS = "ESWN"


def notation(concealed: list[int], win: int, sets: list[tuple[Declared, list[int]]], p: Play,
             indicators: tuple[tuple[int, ...], tuple[int, ...]], red: bool) -> str:
    """The hand in mjr's notation: tiles, melds, ``win``, the context and the facts of play."""
    words = [word(concealed, red)]
    for (_, _, how, source), tiles in sets:
        text = word(tiles, red)
        if how == "closed":
            words.append(f"({text})")
        else:
            words.append(f"[{text}<{source}{'+' if how == 'added' else ''}]")
    words += ["win", word([win], red)]
    words += {"self_draw": ["self_draw"], "discard": ["from", p.source],
              "robbing_kong": ["robbing_kong", "from", p.source]}[p.win_by]
    flags = (("after_kong", p.after_kong), ("last_tile", p.last_tile), ("first_turn", p.first_turn))
    words += [name for name, holds in flags if holds]
    words += ["dealer"] if p.seat == 0 else ["dealer", "E"]  # East deals: payments ask who
    words += ["seat", WIND_LETTERS[p.seat], "round", WIND_LETTERS[p.round]]
    words += [p.riichi] if p.riichi else []
    words += ["ippatsu"] if p.ippatsu else []
    words += ["honba", str(p.honba)] if p.honba else []
    words += ["riichi_sticks", str(p.sticks)] if p.sticks else []
    dora, ura = indicators
    words += ["dora_indicators", word(list(dora), False)] if dora else []
    words += ["ura_indicators", word(list(ura), False)] if ura else []
    return " ".join(words)


# --------------------------------------------------------------------------- the library


def options(red: bool, rules: Rules = ()) -> Any:
    """The library's rule set-up (see the module docstring), with ``rules`` in place of its keywords."""
    from mahjong.hand_calculating.hand_config import HandConstants, OptionalRules

    setup: dict[str, Any] = dict(has_open_tanyao=True, has_aka_dora=red, has_double_yakuman=True,
                                 kazoe_limit=HandConstants.KAZOE_LIMITED, kiriage=False, fu_for_open_pinfu=True,
                                 fu_for_pinfu_tsumo=False, renhou_as_yakuman=False)
    return OptionalRules(**{**setup, **dict(rules)})


def library_arguments(call: LibraryCall) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """``(args, kwargs)`` of ``HandCalculator.estimate_hand_value`` for ``call``."""
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld

    melds = [Meld(meld_type=kind_, tiles=list(tiles), opened=opened) for kind_, tiles, opened in call.melds]
    config = HandConfig(options=options(call.red, call.rules), **dict(call.config))
    return (list(call.tiles), call.win_tile), {"melds": melds, "dora_indicators": list(call.dora),
                                               "ura_dora_indicators": list(call.ura), "config": config}


@functools.lru_cache(maxsize=1)
def yaku_names() -> dict[int, str]:
    """The library's yaku ids to its attribute names (``seat_wind_east``, ``daburu_kokushi``)."""
    from mahjong.hand_calculating.yaku_config import YakuConfig

    return {yaku.yaku_id: name for name, yaku in vars(YakuConfig()).items()}


def allowed_yaku(red: bool = False, dora: bool = True) -> frozenset[str]:
    """Every yaku of the library's list that the set-up can produce."""
    excluded = set(EXCLUDED_YAKU) | ({"aka_dora"} if not red else set()) | ({"dora", "ura_dora"} if not dora else set())
    return frozenset(yaku_names().values()) - excluded


def library_verdict(call: LibraryCall) -> Verdict:
    """The library's answer to ``call``; on an error only ``error`` says anything."""
    from mahjong.hand_calculating.hand import HandCalculator

    args, kwargs = library_arguments(call)
    result = HandCalculator.estimate_hand_value(*args, **kwargs)
    if result.error:
        return Verdict(0, 0, 0, 0, 0, 0, 0, 0, "", (), False, result.error)
    cost, names = result.cost, yaku_names()
    yaku = tuple(names[y.yaku_id] for y in result.yaku)
    return Verdict(result.han, result.fu, cost["main"], cost["additional"], cost["main_bonus"],
                   cost["additional_bonus"], cost["kyoutaku_bonus"], cost["total"], cost["yaku_level"], yaku,
                   any(y.is_yakuman for y in result.yaku))


# --------------------------------------------------------------------------- waits


def chow_wait(low: int, win: int) -> str:
    if win == low + 1:
        return "kanchan"
    if (win == low and low % 9 == 6) or (win == low + 2 and low % 9 == 0):
        return "penchan"
    return "ryanmen"


def wait_classes(theme: str, concealed_kinds: list[int], win: int) -> frozenset[str]:
    """Every wait the winning tile can be read as, over the decompositions of the concealed tiles."""
    from mahjong.hand_calculating.divider import HandDivider

    others = sorted(concealed_kinds)
    others.remove(win)
    if theme == "kokushi":
        return frozenset({"kokushi_13" if len(set(others)) == 13 else "kokushi"})
    counts = [concealed_kinds.count(k) for k in range(34)]
    waits = set()
    for division in HandDivider.divide_hand(counts):
        for block in division:
            if win not in block:
                continue
            if len(block) == 2:
                waits.add("tanki")
            elif block[0] == block[1]:
                waits.add("shanpon")
            else:
                waits.add(chow_wait(block[0], win))
    if theme == "nine_gates":
        suit = win // 9
        if others == [kind(suit + 0, r) for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]:
            waits.add("chuuren_9")
    return frozenset(waits)


# --------------------------------------------------------------------------- a whole hand


def candidate(rng: random.Random, red: bool, dora: bool, rules: Rules = (), renhou: bool = True,
              focus: str = "", table: random.Random | None = None) -> RiichiHand | None:
    """One hand of a random shape and context, scored, or ``None`` if a table could
    not deal it (a fifth copy) or the library finds no win with a yaku; the riichi
    sticks drawn from ``table`` (see :func:`play`)."""
    theme, concealed_kinds, declared, win_kind = shape(rng, focus)
    if win_kind is None:
        win_kind = rng.choice(concealed_kinds)
    three = dict(rules).get("is_three_player", False)
    if three:  # no chii at a table of three, and nobody opposite
        if any(what == "chow" and how != "closed" for what, _, how, _ in declared):
            return None
        declared = [(what, tile, how, rng.choice("LR") if source == "O" else source)
                    for what, tile, how, source in declared]
    p = play(rng, declared, concealed_kinds.count(win_kind), focus, table, 3 if three else 4)
    wall = Wall(rng, three)
    try:
        concealed = [wall.take(k) for k in concealed_kinds]
        sets = [(d, [wall.take(k) for k in set_tiles(d[0], d[1])]) for d in declared]
        robbed = [wall.take(win_kind) for _ in range(3)] if p.win_by == "robbing_kong" else []
    except IndexError:
        return None
    del robbed  # out of the hand, in the robbed player's pung
    win = next(t for t in concealed if t // 4 == win_kind)
    kongs = sum(1 for d in declared if d[0] == "kong")
    held = concealed_kinds + [k for d in declared for k in set_tiles(d[0], d[1])]
    aim = held if focus == "kazoe" and rng.random() < 0.8 else None
    dora_tiles = wall.indicators(1 + kongs, aim) if dora else ()
    ura_tiles = wall.indicators(1 + kongs, aim) if dora and p.riichi else ()
    melds = tuple(({"chow": "chi", "pung": "pon"}.get(d[0], "shouminkan" if d[2] == "added" else "kan"),
                   tuple(tiles), d[2] != "closed") for d, tiles in sets)
    all_tiles = tuple(concealed + [t for _, tiles in sets for t in tiles])
    config = tuple((key, value and renhou) if key == "is_renhou" else (key, value) for key, value in config_keywords(p))
    call = LibraryCall(all_tiles, win, melds, dora_tiles, ura_tiles, config, red, rules)
    verdict = library_verdict(call)
    if verdict.error is not None or not set(verdict.yaku) - {"dora", "aka_dora", "ura_dora"}:
        return None
    rest = list(concealed)
    rest.remove(win)
    text = notation(rest, win, sets, p, (dora_tiles, ura_tiles), red)
    reds = sum(1 for t in all_tiles if digit(t, red) == "0")
    closed = all(d[2] == "closed" for d in declared)
    return RiichiHand(text, theme, closed, wait_classes(theme, concealed_kinds, win_kind), reds, call, verdict)


def hands(seed: int = 0, red: bool = False, dora: bool = True, rules: Rules = (), renhou: bool = True,
          focus: str = "") -> Iterator[RiichiHand]:
    """An endless stream of legal winning hands, the same for the same arguments:
    scored by the library under ``rules`` (with renhou unless ``renhou=False``),
    drawn with more of the hands of ``focus`` (one of :data:`FOCUSES`)."""
    if focus not in FOCUSES:
        raise ValueError(f"focus {focus!r}: expected one of {', '.join(map(repr, FOCUSES))}")
    rng = random.Random(seed)
    table = random.Random(f"riichi sticks {seed}")
    while True:
        made = candidate(rng, red, dora, rules, renhou, focus, table)
        if made is not None:
            yield made


@functools.lru_cache(maxsize=4)
def generate(n: int, seed: int = 0, red: bool = False, dora: bool = True, rules: Rules = (), renhou: bool = True,
             focus: str = "") -> tuple[RiichiHand, ...]:
    """The first ``n`` hands of :func:`hands`, kept for the next caller."""
    return tuple(itertools.islice(hands(seed, red, dora, rules, renhou, focus), n))


def yaku_counts(made: tuple[RiichiHand, ...]) -> Counter[str]:
    """How many hands hold each yaku."""
    return Counter(name for hand in made for name in set(hand.verdict.yaku))


def library_available() -> str | None:
    """Why the hands cannot be made (the ``mahjong`` package missing), or ``None``."""
    try:
        import mahjong.hand_calculating.hand  # noqa: F401
    except ImportError as error:
        return f"the riichi extra is not installed (pip install 'mahjong-rules[riichi]'): {error}"
    return None
