"""Wildcards and dedicated jokers at a table of play: what a claim takes from a
player's tiles, and why ``wildcard may_not`` refuses an action.

A claim takes the held tiles it needs, real tiles first; a dedicated joker
(:data:`mjr.table.wall.WALL_JOKER`) fills only a place no real tile held can, so a
player keeps its jokers where it can.  A meld keeps at least one real tile,
which names its kind: the claimed tile, never a joker (a discarded joker may be
won on, not claimed into a meld).  A chow holds at most one joker (with two, its
one real tile would name a pung: see :mod:`mjr.tiles.jokers`).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..tiles.kinds import FIRST_HONOR
from .actions import Action
from .state import Phase, TableState
from .wall import WALL_JOKER, wall_tile_name

#: What each use of a wildcard is called in a reason.
_USES = {"discard": "discarded", "chow": "used to chow", "pung": "used to pung", "kong": "used to kong",
         "claim": "used in a claimed meld"}


def claim_jokers(counts: list[int], jokers: int, kind: str, tile: int, start: int | None = None
                 ) -> tuple[int, ...] | None:
    """The kinds the held jokers stand for in a claim of ``tile`` (``pung``,
    ``kong``, or ``chow`` from ``start``), real tiles taken first; ``None`` when the
    tiles and jokers held cannot make it."""
    if tile == WALL_JOKER:
        return None
    if kind == "chow":
        assert start is not None
        needed = [other for other in range(start, start + 3) if other != tile]
        most = 1
    else:
        needed = [tile] * (2 if kind == "pung" else 3)
        most = len(needed)
    left = list(counts)
    stand_for = []
    for other in needed:
        if left[other]:
            left[other] -= 1
        else:
            stand_for.append(other)
    if len(stand_for) > min(jokers, most):
        return None
    return tuple(stand_for)


def chow_starts(counts: list[int], jokers: int, tile: int) -> list[int]:
    """The lowest tiles of the chows ``tile`` completes with tiles held (a joker
    for at most one of them)."""
    if tile >= FIRST_HONOR:
        return []
    rank, base = tile % 9, tile - tile % 9
    return [base + low for low in (rank - 2, rank - 1, rank)
            if 0 <= low <= 6 and claim_jokers(counts, jokers, "chow", tile, base + low) is not None]


def may_meld(state: TableState, seat: int, claim: str, tile: int, start: int | None = None) -> bool:
    """Whether ``seat``'s tiles make ``claim`` of ``tile`` (jokers filling what real
    tiles cannot), every kind of it in play (a joker stands for no kind the tile set
    leaves out), and ``wildcard may_not`` lets each wildcard in it be used so."""
    player = state.players[seat]
    stand_for = claim_jokers(player.counts, player.jokers, claim, tile, start)
    if stand_for is None:
        return False
    kinds = range(start, start + 3) if start is not None else (tile,)
    if any(kind not in state.ruleset.kinds for kind in kinds):
        return False
    return all(state.may_use(kind, claim, "claim") for kind in kinds) and \
        (not stand_for or state.may_use(WALL_JOKER, claim, "claim"))


def held_tiles(counts: list[int], jokers: int) -> Iterable[int]:
    """The kinds held, then the joker where one is: what a player may discard."""
    yield from (kind for kind, count in enumerate(counts) if count)
    if jokers:
        yield WALL_JOKER


def forbidden_why(state: TableState, action: Action) -> str | None:
    """Why ``wildcard may_not`` (or a joker's having no kind) keeps ``action`` from
    the player, where that is what does; ``None`` otherwise."""
    seat, player = action.seat, state.players[action.seat]
    if action.kind == "discard" and action.tile is not None and state.phase is Phase.DISCARD and seat == state.turn:
        held = player.jokers if action.tile == WALL_JOKER else player.counts[action.tile]
        if held and not state.may_use(action.tile, "discard"):
            return _wild_use(state, action.tile, "discard")
    if action.kind not in ("chow", "pung", "kong") or state.phase is not Phase.CLAIM or state.offer is None:
        return None
    discarder, tile = state.offer.seat, state.offer.tile
    if seat == discarder or player.out:
        return None
    if tile == WALL_JOKER:
        return "a discarded joker (J) names no kind: it may be won on, never claimed into a meld"
    if action.kind == "chow" and (action.tile is None or not action.tile <= tile < action.tile + 3):
        return None
    stand_for = claim_jokers(player.counts, player.jokers, action.kind, tile, action.tile)
    if stand_for is None:
        return None  # the tiles held do not make it: no wildcard rule's doing
    for use in (action.kind, "claim"):
        if not state.may_use(tile, use):
            return _wild_use(state, tile, use)
    if stand_for:
        for use in (action.kind, "claim"):
            if not state.may_use(WALL_JOKER, use):
                return (f"the {action.kind} would take a joker (J) for {wall_tile_name(stand_for[0])}, and "
                        f"{_may_not(state, use)}")
    return None


def _wild_use(state: TableState, tile: int, use: str) -> str:
    what = "a joker (J) is a wildcard" if tile == WALL_JOKER else f"{wall_tile_name(tile)} is a wildcard this hand"
    return f"{what}, and {_may_not(state, use)}"


def _may_not(state: TableState, use: str) -> str:
    return f"in {state.ruleset.id} a wildcard may not be {_USES[use]} (wildcard may_not {use})"


__all__ = ["chow_starts", "claim_jokers", "forbidden_why", "held_tiles", "may_meld"]
