"""What every answer of mjr must satisfy, checked call by call.

Every public entry point answers a hand (or a batch) with a valid value or an
:class:`~mjr.MjrError` whose message is non-empty and short; and where two entry
points answer the same question they agree.  The fuzz targets and the robustness
tests share these checks, so a failure found by one is phrased as the other
would phrase it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import mjr
from mjr import Hand, MjrError, Result, SourceError
from mjr.ruleset.loaded import OVERFLOWED, REFUSED
from mjr.tiles.kinds import N_KINDS

#: The longest error message a user should have to read.
MESSAGE_LIMIT = 500
#: The bundled rulesets that differ in tile set, wildcards and claims.
RULESET_IDS = ("guangdong.jipinghu", "guangdong.tuidaohu", "sichuan.xuezhan")

T = TypeVar("T")


class Broken(AssertionError):
    """An answer of mjr breaks its contract: the message says which part."""


def expect(condition: object, what: str) -> None:
    if not condition:
        raise Broken(what)


def check_message(error: MjrError) -> None:
    """An error a user reads: not empty, not a wall of text.  A SourceError lists every
    problem of a file, so the limit is per problem."""
    texts = [problem.render() for problem in error.problems] if isinstance(error, SourceError) else [str(error)]
    expect(texts and all(text.strip() for text in texts), f"{type(error).__name__} with an empty message")
    longest = max(len(text) for text in texts)
    expect(longest <= MESSAGE_LIMIT, f"{type(error).__name__} message of {longest} characters (> {MESSAGE_LIMIT})")


def answer(call: Callable[..., T], *args: Any, **kwargs: Any) -> T | MjrError:
    """What ``call`` returns, or the MjrError it raises (its message checked).

    Any other exception propagates: that is the failure being looked for."""
    try:
        return call(*args, **kwargs)
    except MjrError as error:
        check_message(error)
        return error


def is_kind(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < N_KINDS


def rulesets() -> list[mjr.Ruleset]:
    """The rulesets every hand is tried on (loaded once per process by mjr)."""
    return [mjr.load(ident) for ident in RULESET_IDS]


def check_json(data: object, what: str) -> None:
    """``data`` survives a trip through JSON text unchanged (a tuple reads back as the
    list it was written as)."""
    expect(json.loads(json.dumps(data)) == _as_json(data), f"{what} changes through JSON")


def _as_json(data: object) -> object:
    if isinstance(data, dict):
        return {key: _as_json(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [_as_json(value) for value in data]
    return data


def check_result(ruleset: mjr.Ruleset, result: Result) -> None:
    """A Result says why it does not win, writes itself as JSON, and settles to zero."""
    expect(isinstance(result, Result), f"evaluate returned {type(result).__name__}, not a Result")
    expect(result.is_win or result.reason, "a Result that does not win gives no reason")
    check_json(result.to_json(), "Result.to_json()")
    if not result.is_win:
        return
    expect(result.points >= 0 and result.fan >= 0, f"a win of {result.points} points, {result.fan} fan")
    settlement = answer(ruleset.settle, result)
    if not isinstance(settlement, MjrError):
        expect(sum(settlement.totals().values()) == 0, "a settlement that is not zero-sum")
        check_json(settlement.to_json(), "Settlement.to_json()")


def exercise_hand(ruleset: mjr.Ruleset, hand: Hand) -> None:
    """Ask ``ruleset`` everything about ``hand`` and check the answers agree."""
    if hand.win_tile is None:
        exercise_waiting(ruleset, hand)
    else:
        exercise_winning(ruleset, hand)


def exercise_winning(ruleset: mjr.Ruleset, hand: Hand) -> None:
    result = answer(ruleset.evaluate, hand)
    won = answer(ruleset.is_win, hand)
    if isinstance(won, MjrError):
        expect(isinstance(result, MjrError), f"is_win refuses a hand evaluate answers ({won})")
    elif not isinstance(result, MjrError):
        expect(isinstance(won, bool), f"is_win returned {type(won).__name__}")
        expect(won or not result.is_win, "evaluate wins a hand is_win says is incomplete")
    if not isinstance(result, MjrError):
        check_result(ruleset, result)
    if not hand.melds:
        compare_with_batch(ruleset, hand, result)


def compare_with_batch(ruleset: mjr.Ruleset, hand: Hand, single: Result | MjrError) -> None:
    """``evaluate_counts`` of the concealed tiles, with the hand as context, answers as
    ``evaluate`` does: refused (-2) or overflowed (-3) exactly where evaluate raises,
    no win (-1) where it does not win, the same points and fan where it does."""
    tiles = (*hand.tiles, hand.win_tile)
    if not all(is_kind(kind) for kind in tiles) or len(tiles) > 4 * N_KINDS:
        return  # no buffer of counts can hold these (evaluate must refuse them, checked above)
    counts = bytearray(N_KINDS)
    for kind in tiles:
        counts[kind] = min(counts[kind] + 1, 255)
    win_tiles = bytes([hand.win_tile or 0])  # a kind (checked above): the batch checks how it came
    batch = answer(ruleset.evaluate_counts, bytes(counts), hand, refused="mark", win_tiles=win_tiles)
    if isinstance(batch, MjrError):
        expect(isinstance(single, MjrError), f"evaluate_counts refuses the context of a hand evaluate takes ({batch})")
        return
    compare_row(batch[0][0], batch[1][0], single, "the hand")


def compare_row(points: int, fan: int, single: Result | MjrError, what: str) -> None:
    """One hand of a batch (``refused="mark"``) against ``evaluate`` of the same hand."""
    if isinstance(single, MjrError):
        expect(points in (REFUSED, OVERFLOWED), f"evaluate_counts scores {what} {points}; evaluate refuses: {single}")
        return
    expect(points not in (REFUSED, OVERFLOWED), f"evaluate_counts marks {what} {points}; evaluate answers it")
    if not single.is_win:
        expect(points == fan == -1, f"evaluate_counts scores {what} {points}; evaluate: {single.reason}")
    else:
        expect((points, fan) == (single.points, single.fan),
               f"evaluate_counts scores {what} {points} points {fan} fan, evaluate {single.points} and {single.fan}")


def exercise_waiting(ruleset: mjr.Ruleset, hand: Hand) -> None:
    """``waits`` names exactly the tiles with which ``evaluate`` wins, with its results."""
    waits = answer(ruleset.waits, hand)
    won = answer(ruleset.is_win, hand)
    if isinstance(waits, MjrError):
        return
    expect(all(isinstance(wait.result, Result) and wait.result.is_win for wait in waits), "a wait that does not win")
    by_tile = {wait.tile: wait.result for wait in waits}
    expect(len(by_tile) == len(waits), "waits names a tile twice")
    for kind in sorted(ruleset.kinds):
        result = answer(ruleset.evaluate, hand.with_win(kind))
        name = mjr.tiles.tile_name(kind)
        if isinstance(result, MjrError) or not result.is_win:
            expect(name not in by_tile, f"waits names {name}, with which evaluate does not win")
        else:
            expect(by_tile.get(name) == result, f"waits and evaluate disagree on {name}")
    for wait in waits:
        check_json(wait.to_json(), "Wait.to_json()")
    del won  # answered (or refused with a short message): a waiting hand has no winning tile to compare


def exercise_everywhere(hand: Hand) -> None:
    """:func:`exercise_hand` on every ruleset of :data:`RULESET_IDS`."""
    for ruleset in rulesets():
        exercise_hand(ruleset, hand)
