"""The batch path refuses what the single path refuses, hand by hand, and checks
its buffer; ``is_win`` checks its hand as ``evaluate`` does."""

from __future__ import annotations

import re
from array import array
from pathlib import Path

import pytest
from conftest import load_on

import mjr
from mjr import BatchError, HandError, MjrError
from mjr.ruleset.loaded import REFUSED


def counts(text: str) -> bytes:
    return bytes(mjr.parse_hand(text).concealed_counts())


WIN = counts("123m 456m 789m 234p 5p win 5p")


def test_fourteen_copies_of_a_tile_are_refused(jipinghu: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="^hand 1 of the batch: 14 copies of 1m: there are only 4$"):
        jipinghu.evaluate_counts(WIN + bytes([14] + [0] * 33))


def test_honours_are_refused_where_the_tile_set_has_none(sichuan: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="hand 0 of the batch: tile 1z is not in sichuan.xuezhan's tile set"):
        sichuan.evaluate_counts(counts("123m 456m 789m 11m 11z win 1z"))


def test_a_hand_of_the_wrong_size_is_refused(jipinghu: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="hand 0 of the batch: a winning hand has 14 tiles .*this one has 17"):
        jipinghu.evaluate_counts(counts("123m 456m 789m 234p 234s 5p win 5p"))
    with pytest.raises(HandError, match="hand 0 of the batch: 15 tiles is not a size for a winning hand"):
        jipinghu.evaluate_counts(counts("123m 456m 789m 234p 5p 5s win 5p"))
    with pytest.raises(HandError, match="hand 2 of the batch: a winning hand has 14 tiles .* this one has none"):
        jipinghu.evaluate_counts(WIN + WIN + bytes(34))


def test_the_indicator_is_a_copy(tmp_path: Path) -> None:
    ruleset = mjr.load("guangdong.tuidaohu")
    hand = counts("1111m 234p 567p 789s 5s")
    with pytest.raises(HandError, match="5 copies of 1m .with the indicator."):
        ruleset.evaluate_counts(hand, "1m win 1m self_draw indicator 1m")
    assert list(ruleset.evaluate_counts(hand, "1m win 1m self_draw indicator 2m")[0]) != [REFUSED]


def test_marking_refused_hands_scores_the_rest(jipinghu: mjr.Ruleset) -> None:
    points, fan = jipinghu.evaluate_counts(WIN + bytes([14] + [0] * 33) + WIN, refused="mark")
    single = jipinghu.evaluate("123m 456m 789m 234p 5p win 5p")
    assert list(points) == [single.points, REFUSED, single.points]
    assert list(fan) == [single.fan, REFUSED, single.fan]


def test_a_win_method_the_ruleset_lacks_wins_nothing(tmp_path: Path) -> None:
    path = tmp_path / "discard.only.mjr"
    path.write_text('ruleset discard.only "Discard only" {\n    tiles suits(m p s)\n    win discard\n'
                    '    fan plain "Plain" 1 : standard\n}\n', encoding="utf-8")
    ruleset = mjr.load(path)
    assert ruleset.evaluate_counts(WIN, "1m win 1m")[0].tolist() == [1]
    assert ruleset.evaluate_counts(WIN, "1m win 1m self_draw")[0].tolist() == [-1]
    assert not ruleset.evaluate("123m 456m 789m 234p 5p win 5p self_draw").is_win
    with pytest.raises(HandError, match="hand 0 of the batch"):  # still checked
        ruleset.evaluate_counts(bytes([14] + [0] * 33), "1m win 1m self_draw")


@pytest.mark.parametrize(("buffer", "message"), [
    (5, "not int"),
    ("1m", "not str"),
    (array("q", [0] * 34), "format 'q', 8 bytes each"),
    (array("h", [0] * 34), "format 'h', 2 bytes each"),
    (memoryview(bytearray(66)).cast("B", (2, 33)), "34 columns, one per tile kind; this one has 33"),
    (memoryview(bytearray(136))[::2], "C-contiguous"),
    (bytes(35), "34 bytes per hand; got 35 bytes"),
    ([0] * 33 + [300], r"counts item 33 \(hand 0, kind 33\) must be a count 0-4, not 300"),
    ([0] * 33 + ["x"], "not 'x'"),
    (object(), "not object"),
])
def test_a_buffer_of_the_wrong_type_or_shape_is_refused(jipinghu: mjr.Ruleset, buffer: object, message: str) -> None:
    with pytest.raises(BatchError, match=message):
        jipinghu.evaluate_counts(buffer)


def test_buffers_of_bytes_are_read_in_place(jipinghu: mjr.Ruleset) -> None:
    expected = jipinghu.evaluate_counts(WIN * 2)
    for buffer in (bytearray(WIN * 2), array("B", WIN * 2), memoryview(WIN * 2).cast("B", (2, 34)), list(WIN * 2),
                   memoryview(WIN * 2).cast("b")):
        assert jipinghu.evaluate_counts(buffer) == expected
    assert jipinghu.evaluate_counts(b"") == (array("q"), array("q"))


def test_refused_is_raise_or_mark(jipinghu: mjr.Ruleset) -> None:
    with pytest.raises(MjrError, match="refused must be 'raise' or 'mark', not 'skip'"):
        jipinghu.evaluate_counts(WIN, refused="skip")


def test_is_win_checks_the_tile_set(sichuan: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="tile 1z is not in sichuan.xuezhan's tile set"):
        sichuan.is_win("111z 123m 456m 789m 1m win 1m")
    with pytest.raises(HandError, match="tile 1z is not in sichuan.xuezhan's tile set"):
        sichuan.is_win("111z 123m 456m 789m 11m")  # no 'win': the last tile is the winning one


def test_is_win_names_impossible_hands(jipinghu: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="5 copies of 1m: there are only 4"):
        jipinghu.is_win(mjr.Hand((0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8), win_tile=0))
    with pytest.raises(HandError, match="has 14 tiles in guangdong.jipinghu.*this one has 17"):
        jipinghu.is_win("123m 456m 789m 234p 234s 5p win 5p")
    assert jipinghu.is_win("123m 456m 789m 234p 5p win 5p")
    assert jipinghu.is_win("123m 456m 789m 234p 55p")
    assert not jipinghu.is_win("123m 456m 789m 234p 56p")


def test_the_batch_context_is_checked_as_a_hand_is(jipinghu: mjr.Ruleset) -> None:
    with pytest.raises(HandError, match="the batch's context: guangdong.jipinghu has no wildcard from an indicator"):
        jipinghu.evaluate_counts(WIN, "1m win 1m indicator 5m")


@pytest.mark.parametrize("hand", [None, 123, ["1m"], b"123m"])
def test_a_hand_of_another_type_is_refused(jipinghu: mjr.Ruleset, hand: object) -> None:
    for call in (jipinghu.evaluate, jipinghu.is_win, jipinghu.waits):
        with pytest.raises(HandError, match=f"a hand must be a Hand or a hand string .*not {type(hand).__name__}"):
            call(hand)  # type: ignore[arg-type]


BACKENDS = ["compiled", "python"]


def refusal(rules: mjr.Ruleset, hand: str) -> str:
    """What ``evaluate`` says when it refuses ``hand``."""
    with pytest.raises(HandError) as refused:
        rules.evaluate(hand)
    return str(refused.value)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("ruleset", "context", "good", "bad", "why"), [
    ("guangdong.jipinghu", "robbing_kong from R",
     "123m 456p 789s 34s 55p win 5s", "123m 456p 789s 234s 5s win 5s", "robs a kong"),
    ("guangdong.tuidaohu", "from L indicator 5m",
     "111p 444p 777s 999m 5s win 5s", "123p 456p 789s 678m 5s win 6m", "a wildcard is never discarded"),
])
def test_a_batch_refuses_how_its_winning_tile_came_as_evaluate_does(
        backend: str, ruleset: str, context: str, good: str, bad: str, why: str) -> None:
    """A hand holding another copy of the tile it robbed, and a win on a discarded
    wildcard where a wildcard is never discarded: refused by index with
    ``evaluate``'s words; without the winning tiles the batch cannot tell."""
    rules = load_on(ruleset, backend)
    hands = [mjr.parse_hand(good + " " + context), mjr.parse_hand(bad + " " + context)]
    batch = b"".join(bytes(hand.concealed_counts()) for hand in hands)
    win_tiles = bytes(hand.win_tile or 0 for hand in hands)
    with pytest.raises(BatchError, match=f"{why}.*: pass win_tiles="):
        rules.evaluate_counts(batch, "1m win 1m " + context)
    message = re.escape(refusal(rules, bad + " " + context))
    with pytest.raises(HandError, match=f"^hand 1 of the batch: {message}$"):
        rules.evaluate_counts(batch, "1m win 1m " + context, win_tiles=win_tiles)
    points, _ = rules.evaluate_counts(batch, "1m win 1m " + context, win_tiles=win_tiles, refused="mark")
    assert list(points) == [rules.evaluate(good + " " + context).points, REFUSED]


def test_a_self_drawn_wildcard_needs_no_winning_tiles(tuidaohu: mjr.Ruleset) -> None:
    points, _ = tuidaohu.evaluate_counts(counts("123p 456p 789s 678m 5s win 6m"), "1m win 1m self_draw indicator 5m")
    assert points[0] > 0
