"""The deal of a table of play, and the taking of every tile.

:func:`deal` deals a hand from the wall, flips the wildcard indicator where the
ruleset says (a flower, a kind set aside or a joker flipped there is set aside and
the next flipped), and :func:`take` gives each drawn tile to its player: a flower or
a tile of a kind the tile set sets aside (``aside(...)``) is set aside and replaced
from the back of the wall, a dedicated joker is kept beside the player's kinds.
Both change a :class:`~mjr.table.state.TableState`.
"""

from __future__ import annotations

from ..errors import MjrError
from ..hand.model import Context, Hand
from .state import TableState
from .wall import FLOWER_BASE, WALL_JOKER, is_flower, is_red, kind_of


def deal(state: TableState) -> None:
    """Deal the hand: the tiles ``reveal`` sets in the dead wall, each player's
    tiles, the indicator, and the wildcards it makes."""
    ruleset = state.ruleset
    reveal = state.rules.reveal
    if reveal is not None:
        tiles = [kind_of(tile) for tile in state.wall.set_back(reveal.after, 2 * reveal.slots)]
        state.revealable, state.under = tiles[0::2], tiles[1::2]
    flip = state.rules.indicator_flip if ruleset.generated.wild_derived else None
    if flip == "before_deal":
        _flip_indicator(state, flip)
    for _ in range(ruleset.deal):
        for step in range(state.seats):
            if take(state, (state.seating.dealer + step) % state.seats, state.wall.draw()) is None:
                raise MjrError("the wall ran out while replacing the flowers of the deal")
    if flip is not None and flip != "before_deal":
        _flip_indicator(state, flip)
    state.wild = frozenset(kind for kind, flag in enumerate(ruleset.wildcard_kinds(
        Hand((), context=Context(indicator=state.indicator)))) if flag)
    if ruleset.jokers:
        state.wild |= {WALL_JOKER}


def _flip_indicator(state: TableState, flip: str) -> None:
    """Flip the indicator where ``indicator_flip`` says: the wall's last tile, its
    first (before the deal), or the one after the dealer's first draw.  A flower
    there, a tile of a kind set aside as drawn, or a joker (no kind to name) is set
    aside and the next flipped; the indicator leaves the wall unless it stays in
    play."""
    wall = state.wall
    while True:
        position = wall.tail - 1 if flip == "back" else wall.head + (flip == "after_deal")
        tile = wall.tiles[position]
        aside = _goes_aside(state, tile) or tile == WALL_JOKER
        if not aside and state.ruleset.indicator_in_play:
            break
        wall.take_out(position)
        if not aside:
            break
        state.set_aside.append(tile)
    state.indicator = kind_of(tile)


def _goes_aside(state: TableState, tile: int) -> bool:
    """Whether ``tile`` is set aside as it is drawn: a flower, or of a kind the
    tile set sets aside (``aside(...)``)."""
    return is_flower(tile) or tile in state.aside_kinds


def take(state: TableState, seat: int, tile: int) -> int | None:
    """Give ``tile`` to ``seat``, setting flowers (and the kinds set aside) aside and
    replacing them from the back; the wall tile given (a red five's own number), or
    ``None`` when the wall runs out before one is replaced."""
    player = state.players[seat]
    while _goes_aside(state, tile):
        if is_flower(tile):
            player.flowers.append(tile - FLOWER_BASE + 1)
        else:
            player.aside.append(tile)
        if state.wall.live == 0:
            return None
        tile = state.wall.draw_back()
    if tile == WALL_JOKER:
        player.jokers += 1
    else:
        player.counts[kind_of(tile)] += 1
        if is_red(tile):
            player.red.append(kind_of(tile))
    return tile


__all__ = ["deal", "take"]
