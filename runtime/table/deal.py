"""The deal of a table of play, and the taking of every tile.

:class:`TableDeal` deals a hand from the wall, flips the wildcard indicator where
the ruleset says (a flower, a kind set aside or a joker flipped there is set aside
and the next flipped), and gives each drawn tile to its player: a flower or a tile
of a kind the tile set sets aside (``aside(...)``) is set aside and replaced from
the back of the wall, a dedicated joker is kept beside the player's kinds.
:class:`~mjr.table.Table` is a :class:`TableDeal`, whose attributes it sets.
"""

from __future__ import annotations

from ..errors import MjrError
from ..hand.model import Context, Hand
from .wall import FLOWER_BASE, WALL_JOKER, is_flower, wall_tile_name

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from ..ruleset.loaded import Ruleset
    from ..ruleset.rules_of_play import PlayRules
    from .seats import Player, Seating
    from .wall import Wall


class TableDeal:
    """The deal and the taking of tiles of the table it is mixed into (see above)."""

    # Set by Table.__init__.
    ruleset: Ruleset
    rules: PlayRules
    seating: Seating
    wall: Wall
    players: list[Player]
    indicator: int | None
    set_aside: list[int]
    wild: frozenset[int]
    aside_kinds: frozenset[int]
    events: list[dict[str, object]]

    def _deal(self) -> None:
        flip = self.rules.indicator_flip if self.ruleset.generated.wild_derived else None
        if flip == "before_deal":
            self._flip_indicator(flip)
        for _ in range(self.ruleset.deal):
            for step in range(4):
                if self._take((self.seating.dealer + step) % 4, self.wall.draw()) is None:
                    raise MjrError("the wall ran out while replacing the flowers of the deal")
        if flip is not None and flip != "before_deal":
            self._flip_indicator(flip)
        self.wild = frozenset(kind for kind, flag in enumerate(self.ruleset.wildcard_kinds(
            Hand((), context=Context(indicator=self.indicator)))) if flag)
        if self.ruleset.jokers:
            self.wild |= {WALL_JOKER}

    def _flip_indicator(self, flip: str) -> None:
        """Flip the indicator where ``indicator_flip`` says: the wall's last tile, its
        first (before the deal), or the one after the dealer's first draw.  A flower
        there, a tile of a kind set aside as drawn, or a joker (no kind to name) is set
        aside and the next flipped; the indicator leaves the wall unless it stays in
        play."""
        wall = self.wall
        while True:
            position = wall.tail - 1 if flip == "back" else wall.head + (flip == "after_deal")
            tile = wall.tiles[position]
            aside = self._goes_aside(tile) or tile == WALL_JOKER
            if not aside and self.ruleset.indicator_in_play:
                break
            wall.take_out(position)
            if not aside:
                break
            self.set_aside.append(tile)
        self.indicator = tile

    def _goes_aside(self, tile: int) -> bool:
        """Whether ``tile`` is set aside as it is drawn: a flower, or of a kind the
        tile set sets aside (``aside(...)``)."""
        return is_flower(tile) or tile in self.aside_kinds

    def _take(self, seat: int, tile: int) -> int | None:
        """Give ``tile`` to ``seat``, setting flowers (and the kinds set aside) aside and
        replacing them from the back; ``None`` when the wall runs out before one is
        replaced."""
        player = self.players[seat]
        while self._goes_aside(tile):
            if is_flower(tile):
                player.flowers.append(tile - FLOWER_BASE + 1)
            else:
                player.aside.append(tile)
            if self.wall.live == 0:
                return None
            tile = self.wall.draw_back()
        if tile == WALL_JOKER:
            player.jokers += 1
        else:
            player.counts[tile] += 1
        return tile

    def _log_aside(self, tiles: list[int]) -> None:
        """Name in the last event the tiles of kinds set aside that a draw set aside."""
        if tiles:
            self.events[-1]["aside"] = [wall_tile_name(tile) for tile in tiles]
