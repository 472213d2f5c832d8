"""Simple players for a :class:`~mjr.table.Table`: enough to play every seat of a
hand, for tests, simulations and a table that is one player short.

A bot is a callable ``bot(table, seat, actions) -> Action`` choosing among the legal
``actions``.  :class:`RandomBot` picks any; :class:`GreedyBot` wins whenever it can,
claims what brings its hand nearer a win, and discards to keep the best shape,
preferring, once ready, the discard that leaves the most winning tiles (by the
ruleset's own ``waits``), declares (``declare``) whenever that discard may, and
calls an abortive draw whenever it may.
Both are seeded, so a game with bots replays exactly.  A greedy bot keeps its
dedicated jokers: it discards one only when nothing else may go, and claims nothing
that would take one into a meld.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from ..tiles.kinds import FIRST_HONOR, N_KINDS, parse_tile
from .actions import Action, offered
from .close import is_ready
from .referee import Table
from .wall import WALL_JOKER
from .wild import claim_jokers

Bot = Callable[[Table, int, list[Action]], Action]


class RandomBot:
    """Any legal action, at random."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def __call__(self, table: Table, seat: int, actions: list[Action]) -> Action:
        return self.rng.choice(actions)


class GreedyBot:
    """Wins when it can; otherwise keeps the hand nearest a win."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def __call__(self, table: Table, seat: int, actions: list[Action]) -> Action:
        kinds = {action.kind for action in actions}
        if "win" in kinds:
            return offered(seat, "win")
        counts = table.players[seat].counts
        if actions[0].kind == "draw":
            return self._draw(table, seat, actions)
        if actions[0].kind == "void":  # 定缺: the suit it holds fewest of
            return min(actions, key=lambda action: (_suit_count(counts, action.tile), action.tile))
        if table.phase in ("claim", "rob"):
            return self._answer(table, seat, actions)
        if "abort" in kinds:
            return offered(seat, "abort")  # 九種九牌: a hand that many kinds from a win is not played on
        if "kong" in kinds:
            return next(action for action in actions if action.kind == "kong")
        choice = self._discard(table, seat, counts, [a for a in actions if a.kind == "discard"])
        declaring = offered(seat, "declare", choice.tile)
        # a declaration whenever the discard allows one
        return declaring if "declare" in kinds and declaring in actions else choice

    @staticmethod
    def _draw(table: Table, seat: int, actions: list[Action]) -> Action:
        """The plain draw; but open a kong only when ready (opening may lock the
        hand), and take a roaming last tile only when ready (taken unready, it can
        only be shown, for another player to win on)."""
        by_kind = {action.kind: action for action in actions}
        with table.lock:  # the state read as of one moment, as Table's own methods read it
            ready = len(actions) > 1 and is_ready(table.state, seat)
        if "open" in by_kind and ready:
            return by_kind["open"]
        if "pass" in by_kind and not ready:
            return by_kind["pass"]
        return by_kind["draw"]

    def _answer(self, table: Table, seat: int, actions: list[Action]) -> Action:
        """Claim a pung or kong, or a chow, when it brings the hand nearer a win."""
        assert table.offer is not None
        tile = table.offer[1]
        player = table.players[seat]
        counts, jokers = player.counts, player.jokers
        if _in_void(table, seat, tile):
            return offered(seat, "pass")  # never a tile of the declared void suit
        sets = _sets(table)
        now = distance(counts, len(player.melds), sets, jokers)
        best, best_distance = offered(seat, "pass"), now
        for action in actions:
            used = _claimed_tiles(action, tile)
            if used is None or claim_jokers(counts, jokers, action.kind, tile, action.tile):
                continue  # not a claim, or one that would take a joker: the bot keeps its jokers
            after = list(counts)
            for kind in used:
                after[kind] -= 1
            # after a claim the player discards: the best shape after its best discard
            left = min(distances_after_discard(after, len(player.melds) + 1, sets, jokers,
                                               [kind for kind in range(N_KINDS) if after[kind]]), default=now)
            if left < best_distance:
                best, best_distance = action, left
        return best

    def _discard(self, table: Table, seat: int, counts: list[int], discards: list[Action]) -> Action:
        # a joker stays unless nothing else may go; the declared void suit goes first: a hand holding it cannot win
        discards = [a for a in discards if a.tile != WALL_JOKER] or discards
        if len(discards) == 1:
            return discards[0]
        discards = [a for a in discards if a.tile is not None and _in_void(table, seat, a.tile)] or discards
        melds, sets, jokers = len(table.players[seat].melds), _sets(table), table.players[seat].jokers
        tiles = [a.tile for a in discards if a.tile is not None]
        after = distances_after_discard(counts, melds, sets, jokers, tiles)
        scored = sorted([(left, self.rng.random(), offered(seat, "discard", tile)) for left, tile in zip(after, tiles,
                                                                                                      strict=True)])
        best = [entry for entry in scored if entry[0] == scored[0][0]]
        if scored[0][0] > 0 or len(best) == 1:
            return best[0][2]
        # ready whichever way: keep the discard that leaves the most winning tiles
        return max(best, key=lambda entry: _live_waits(table, seat, entry[2]))[2]


def _sets(table: Table) -> int:
    """The sets of a standard win under the table's ruleset (4 for a 13-tile deal, 5 for 16)."""
    return (table.ruleset.deal - 1) // 3


def _in_void(table: Table, seat: int, tile: int) -> bool:
    """Whether ``tile`` is of the suit ``seat`` declared void (定缺); never without a declaration."""
    return tile < FIRST_HONOR and tile // 9 == table.players[seat].void


def _suit_count(counts: list[int], first: int | None) -> int:
    """Tiles held of the suit whose first kind is ``first``."""
    assert first is not None
    return sum(counts[first:first + 9])


def _claimed_tiles(action: Action, tile: int) -> tuple[int, ...] | None:
    """The held tiles a claim uses (the claimed tile not among them)."""
    if action.kind == "pung":
        return (tile, tile)
    if action.kind == "kong":
        return (tile, tile, tile)
    if action.kind == "chow" and action.tile is not None:
        return tuple(kind for kind in range(action.tile, action.tile + 3) if kind != tile)
    return None


def _without(counts: list[int], kind: int | None) -> list[int]:
    after = list(counts)
    if kind is not None:
        after[kind] -= 1
    return after


def _live_waits(table: Table, seat: int, action: Action) -> int:
    """How many winning tiles are left for ``seat``'s hand after ``action``, unseen by it."""
    player = table.players[seat]
    assert action.tile is not None
    waits = table.ruleset.waits(table.hand_of(seat, None, "self_draw", counts=_without(player.counts, action.tile)))
    return sum(4 - player.counts[parse_tile(wait.tile)] for wait in waits)



def distance(counts: list[int], melds: int, sets: int = 4, jokers: int = 0) -> int:
    """How far a hand of ``sets`` sets and a pair is from a standard win: 0 ready, 1
    one tile short of ready, and so on; a cheap estimate, counted suit by suit.  Each
    of ``jokers`` (dedicated jokers held beside ``counts``) is a tile of the hand's
    choosing, one step nearer."""
    return _distance(_suits_blocks(counts), _honor_blocks(counts[FIRST_HONOR:]), sets - melds, jokers)


def distances_after_discard(counts: list[int], melds: int, sets: int, jokers: int, tiles: list[int]) -> list[int]:
    """:func:`distance` of the hand after discarding each of ``tiles`` (kinds it
    holds), worked out from the hand's own blocks: a discard changes one suit's, or
    one honour's count."""
    suits, honors, needed = _suits_blocks(counts), _honor_blocks(counts[FIRST_HONOR:]), sets - melds
    found = []
    for tile in tiles:
        if tile >= FIRST_HONOR:
            held = counts[tile]  # a pung left as a pair, or a pair as a single
            after = (honors[0] - (held == 3), honors[1] + (held == 3) - (held == 2))
            found.append(_distance(suits, after, needed, jokers))
        else:
            suit, rank = divmod(tile, 9)
            ranks = counts[suit * 9:suit * 9 + 9]
            ranks[rank] -= 1
            blocks = list(suits)
            blocks[suit] = _suit_blocks(tuple(ranks))
            found.append(_distance(blocks, honors, needed, jokers))
    return found


def _suits_blocks(counts: list[int]) -> list[tuple[int, int, bool]]:
    """The best blocks of each suit of ``counts``."""
    return [_suit_blocks(tuple(counts[suit * 9:suit * 9 + 9])) for suit in range(3)]


def _honor_blocks(honors: list[int]) -> tuple[int, int]:
    """The honours' pungs (three or four of a kind) and pairs."""
    return sum(count >= 3 for count in honors), honors.count(2)


def _distance(suits: list[tuple[int, int, bool]], honors: tuple[int, int], sets_needed: int, jokers: int) -> int:
    """:func:`distance` from the blocks of the three suits and the honours' pungs and pairs."""
    pungs, pairs = honors
    blocks_sets = suits[0][0] + suits[1][0] + suits[2][0] + pungs
    blocks_partial = suits[0][1] + suits[1][1] + suits[2][1]
    pair = suits[0][2] or suits[1][2] or suits[2][2]
    if pairs:  # the first honour pair is the hand's pair where no suit has one; the others are partial sets
        blocks_partial += pairs - (not pair)
        pair = True
    blocks_sets = min(blocks_sets, sets_needed)
    blocks_partial = min(blocks_partial, sets_needed - blocks_sets)
    shape = 2 * (sets_needed - blocks_sets) - blocks_partial - (1 if pair else 0)
    return max(0, shape - jokers) if jokers else shape


@cache
def _suit_blocks(counts: tuple[int, ...]) -> tuple[int, int, bool]:
    """The best (sets, partial sets, pair) one suit's nine counts make, sets first."""
    first = next((i for i, count in enumerate(counts) if count), None)
    if first is None:
        return 0, 0, False
    options = []
    rest = list(counts)
    rest[first] -= 1
    options.append(_suit_blocks(tuple(rest)))  # the tile left alone
    for used, gain in (((first, first, first), (1, 0, False)), ((first, first + 1, first + 2), (1, 0, False)),
                       ((first, first), (0, 0, True)), ((first, first + 1), (0, 1, False)),
                       ((first, first + 2), (0, 1, False))):
        if max(used) > 8:
            continue
        rest = list(counts)
        if all(rest[i] >= used.count(i) for i in set(used)):
            for i in used:
                rest[i] -= 1
            sets, partial, pair = _suit_blocks(tuple(rest))
            if gain[2] and pair:
                options.append((sets, partial + 1, True))
            else:
                options.append((sets + gain[0], partial + gain[1], pair or gain[2]))
    return max(options, key=lambda o: (2 * o[0] + o[1] + o[2], o[0]))


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}


def play_out(table: Table, bots: list[Bot]) -> Table:
    """Play ``table`` to the end, each seat's ``bots[seat]`` choosing its actions."""
    while not table.over:
        for seat, actions in sorted(table.legal().items()):
            table.act(bots[seat](table, seat, actions))
            break
    return table
