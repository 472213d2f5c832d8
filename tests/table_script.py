"""Arranged walls and scripted play, for tests of whole hands with a known story."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import mjr
from mjr.table.actions import Action
from mjr.table.referee import Table
from mjr.table.wall import WALL_JOKER, full_set, parse_wall_tile, red_tile


def tiles(text: str) -> list[int]:
    """Tiles written one by one, ``1m 1m 2p E``, or as a hand, ``123m 456p``; ``J`` a
    joker, ``0m`` a red five."""
    hand = mjr.parse_hand(text)
    kinds = list(hand.tiles)
    for kind in hand.red:
        kinds[kinds.index(kind)] = red_tile(kind)
    return kinds + [WALL_JOKER] * hand.jokers


def arranged_wall(ruleset: mjr.Ruleset, hands: dict[int, str], draws: list[str], back: list[str] = (),
                  dealer: int = 0, seed: int = 0, indicator: str | None = None) -> list[int]:
    """A wall that deals ``hands`` (seat -> its tiles; the others get what is left),
    then has ``draws`` drawn in order from the front, and ``back`` taken first from
    the back (kong and flower replacements; under ``reveal ... after N``, the N
    replacements, then each revealed tile and the one under it); ``indicator``, where
    the ruleset flips one, is put where it flips it; the rest is shuffled by ``seed``."""
    deal, seats = ruleset.deal, ruleset.seats
    wanted = {seat: tiles(text) for seat, text in hands.items()}
    fixed = Counter(kind for hand in wanted.values() for kind in hand)
    fixed.update(parse_wall_tile(word) for word in [*draws, *back, *([indicator] if indicator else [])])
    every = full_set(ruleset.kinds, ruleset.has_flowers, ruleset.jokers, ruleset.red_kinds)
    rest = list((Counter(every) - fixed).elements())
    assert sum(fixed.values()) + len(rest) == len(every), "too many copies"
    random.Random(seed).shuffle(rest)
    dealt: list[int] = []
    for index in range(seats * deal):
        seat = (dealer + index % seats) % seats
        dealt.append(wanted[seat][index // seats] if seat in wanted else rest.pop())
    middle = [parse_wall_tile(word) for word in draws]
    tail = [parse_wall_tile(word) for word in reversed(back)]
    flipped = [] if indicator is None else [parse_wall_tile(indicator)]
    filler_count = len(every) - len(dealt) - len(middle) - len(tail) - len(flipped)
    wall = dealt + middle + rest[:filler_count] + tail
    at = {"before_deal": 0, "after_deal": seats * deal + 1, "back": len(wall)}[ruleset.play.indicator_flip]
    return wall[:at] + flipped + wall[at:]


Policy = Callable[[Table, int, list[Action]], Action | None]


def play_script(table: Table, policy: Policy | None = None) -> Table:
    """Play to the end: ``policy`` decides where it returns an action; elsewhere a
    player draws, discards what was just drawn, and passes on every discard."""
    while not table.over:
        seat, actions = min(table.legal().items())
        chosen = policy(table, seat, actions) if policy is not None else None
        if chosen is None:
            chosen = _plain(table, seat, actions)
        table.act(chosen)
    return table


def _plain(table: Table, seat: int, actions: list[Action]) -> Action:
    if actions[0].kind == "draw":
        return actions[0]
    if table.phase in ("claim", "rob"):
        return Action(seat, "pass")
    drawn = table.drawn  # None after a claim: no tile drawn to discard
    if drawn is not None and Action(seat, "discard", drawn) in actions:
        return Action(seat, "discard", drawn)
    return next(action for action in actions if action.kind == "discard")
