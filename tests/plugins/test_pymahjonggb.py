"""mjr.plugins.pymahjonggb: hands to PyMahjongGB's arguments and back.

The converter never imports the library; the tests that call the library with
converted hands are skipped, saying so, where it is not installed.
"""

from __future__ import annotations

import importlib.util
import pickle

import pytest

import mjr
from mjr.errors import ArgumentError, UnconvertibleError
from mjr.plugins.pymahjonggb import TILE_CODES, from_args, to_args

HAS_LIBRARY = importlib.util.find_spec("MahjongGB") is not None
needs_library = pytest.mark.skipif(not HAS_LIBRARY, reason="PyMahjongGB is not installed (pip install PyMahjongGB)")

#: Hands whose conversion comes back word for word: canonical text, sources given,
#: flowers numbered from 1, no added kong.
CANONICAL = (
    "123456789m1122z win 1z",
    "19m19p19s1234567z 12345678f win 1m self_draw",
    "5z [123m<L] [456p<L] [789s<L] [111z<R] win 5z",
    "123456p1789s [5555p<O] win 1s self_draw after_kong seat S round W last_copy",
    "1s [555p<O] [1111z<L] (7777z) [5555s<R] win 1s self_draw after_kong last_tile",
    "123m456p23789s55z 1234f win 1s robbing_kong seat N round N",
    "1112345678999m win 5m last_tile",
)


@pytest.mark.parametrize("text", CANONICAL)
def test_notation_comes_back(text: str) -> None:
    assert from_args(*to_args(text)) == text


@pytest.mark.parametrize("text", CANONICAL)
def test_arguments_come_back(text: str) -> None:
    args = to_args(text)
    assert to_args(from_args(*args)) == args
    assert to_args(mjr.parse_hand(text)) == args


def test_the_arguments_of_a_full_hand() -> None:
    args = to_args("123m1s 3f [555p<O] [7777z<R] (6666z) win 1s self_draw after_kong seat S round W last_copy")
    assert args == (
        (("PENG", "B5", 2), ("GANG", "J1", 3), ("GANG", "J2", 0)),  # 7z red J1, 6z green J2, concealed offer 0
        ("W1", "W2", "W3", "T1"), "T1", 1,
        True, True, True, False, 1, 2,
    )


def test_tile_codes() -> None:
    assert TILE_CODES[:10] == ("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "B1")
    assert TILE_CODES[18] == "T1" and TILE_CODES[27:] == ("F1", "F2", "F3", "F4", "J3", "J2", "J1")


def test_a_chow_is_passed_by_its_middle_tile() -> None:
    assert to_args("[789s<L] 123m 456m 789m 5p win 5p")[0] == (("CHI", "T8", 1),)
    assert from_args((("CHI", "T8", 3),), ("W1",), "W1", 0, False, False, False, False, 0, 0) == "1m [789s<L] win 1m"


def test_kong_related_is_after_kong_on_a_draw_and_robbing_otherwise() -> None:
    drawn = from_args((("GANG", "W1", 0),), ("W2",) * 10, "W2", 0, True, False, True, False, 0, 0)
    robbed = from_args((), ("W2",) * 13, "W3", 0, False, False, True, False, 0, 0)
    assert drawn.endswith("win 2m self_draw after_kong") and robbed.endswith("win 3m robbing_kong")
    # a discard after a kong (杠上炮) is no MCR fan and has no argument
    assert to_args("123m456m789m123p4p [7777s<L] win 4p after_kong")[6] is False


def test_unknown_source_and_added_kong() -> None:
    """The calculator needs an offer: a meld of unknown source is given 1 (left);
    an added kong is a melded kong of its source."""
    assert to_args("11s [555p] [1111z] [5555s<O+] (2222m) win 1s")[0] == (
        ("PENG", "B5", 1), ("GANG", "F1", 1), ("GANG", "T5", 2), ("GANG", "W2", 0))


@pytest.mark.parametrize(("text", "column", "reason"), [
    ("123m 456m 789m 123p 4p", 22, "a waiting hand"),
    ("123m 456m 789m 123p 4p win 4p first_turn", 30, "first-turn"),
    ("123m 456m 789m 123p 4p win 4p dealer S", 30, "dealer"),
    ("123m 456m 789m 123p 4p win 4p winners 2", 30, "one winner"),
    ("123m 456m 789m 123p 4p win 4p indicator 5m", 30, "indicator"),
    ("123m 456m 789m 4p [123p<O] win 4p", 18, "a chow is claimed from the left"),
    ("123m 456m 789m 123p 4p win 4p lastcopy", 30, "did you mean 'last_copy'"),
])
def test_a_hand_string_is_refused_at_its_word(text: str, column: int, reason: str) -> None:
    with pytest.raises(mjr.NotationError) as caught:
        to_args(text)
    assert caught.value.column == column and reason in caught.value.reason


def test_a_hand_object_is_refused_by_its_field() -> None:
    hand = mjr.parse_hand("123m 456m 789m 123p 4p win 4p void s")
    with pytest.raises(UnconvertibleError, match=r"Hand\.context\.void"):
        to_args(hand)
    with pytest.raises(UnconvertibleError, match=r"Hand\.context\.facts.*'last_copy'"):
        to_args(mjr.parse_hand("123m 456m 789m 123p 4p win 4p streak 3"))
    with pytest.raises(UnconvertibleError, match="a Hand or a hand string, not int"):
        to_args(3)  # type: ignore[arg-type]


GOOD = ((("PENG", "B5", 2),), ("W1", "W2", "W3", "B4", "B5", "B6", "T1", "T1", "T1", "T2"), "T2", 0,
        False, False, False, False, 0, 0)


@pytest.mark.parametrize(("index", "value", "where", "reason"), [
    (0, [("PENG", "B5", 0)], "pack[0][2]", "offer 0 is a concealed kong"),
    (0, [("PENG", "B5", 4)], "pack[0][2]", "an int 0-3"),
    (0, [("PENG", "B5", True)], "pack[0][2]", "an int 0-3"),
    (0, [("PONG", "B5", 1)], "pack[0][0]", "'CHI', 'PENG' or 'GANG'"),
    (0, [("CHI", "B9", 1)], "pack[0][1]", "middle tile"),
    (0, [("CHI", "F2", 1)], "pack[0][1]", "middle tile"),
    (0, [("PENG", "B0", 1)], "pack[0][1]", "not a tile code"),
    (0, [("PENG", "B5")], "pack[0]", "(type, tile, offer)"),
    (0, "PENG", "pack", "expected a tuple"),
    (1, ("W1", "5m"), "hand[1]", "not a tile code"),
    (2, "J4", "winTile", "not a tile code"),
    (3, 9, "flowerCount", "an int 0-8"),
    (4, 2, "isSelfDrawn", "True or False"),
    (8, 4, "seatWind", "an int 0-3"),
    (9, "E", "prevalentWind", "an int 0-3"),
])
def test_a_bad_argument_is_named(index: int, value: object, where: str, reason: str) -> None:
    args = list(GOOD)
    args[index] = value
    with pytest.raises(ArgumentError) as caught:
        from_args(*args)
    assert caught.value.where == where and reason in caught.value.reason
    assert str(caught.value).startswith(f"bad PyMahjongGB argument {where} = ")
    assert pickle.loads(pickle.dumps(caught.value)).where == where


@needs_library
def test_the_library_scores_converted_hands() -> None:
    from MahjongGB import MahjongFanCalculator

    assert MahjongFanCalculator(*to_args("19m19p19s1234567z 12345678f win 1m self_draw")) == (
        (88, "十三幺"), (1, "自摸"), (8, "花牌"))
    fans = dict((name, value) for value, name in MahjongFanCalculator(
        *to_args("123m1s 3f [555p<O] [7777z<R] (6666z) win 1s self_draw after_kong seat S round W last_copy")))
    # the concealed kong of green and the melded kong of red: 明暗杠 and 双箭刻; the kong replacement: 杠上开花
    assert fans == {"杠上开花": 8, "双箭刻": 6, "独听・单钓": 1, "花牌": 1, "明暗杠": 5}


@needs_library
@pytest.mark.parametrize("text", CANONICAL)
def test_the_library_reads_what_it_is_given(text: str) -> None:
    """Every canonical hand is a hand the library can score (no argument refused)."""
    from MahjongGB import MahjongFanCalculator

    assert MahjongFanCalculator(*to_args(text))


def test_the_api_page_shows_what_the_converter_gives() -> None:
    """The ``>>>`` lines of the converter's section of docs/api.rst give the line under them."""
    from pathlib import Path

    import mjr.plugins.pymahjonggb as module

    page = (Path(__file__).resolve().parents[2] / "docs" / "api.rst").read_text(encoding="utf-8")
    start = page.index(".. py:module:: mjr.plugins.pymahjonggb")
    section = page[start:page.index(".. autofunction:: mjr.plugins.pymahjonggb")]
    lines = [line.strip() for line in section.splitlines()]
    samples = [(line[4:], lines[i + 1]) for i, line in enumerate(lines)
               if line.startswith(">>> ") and "import" not in line]
    assert len(samples) == 2
    for code, shown in samples:
        assert repr(eval(code, vars(module))) == shown, code


@needs_library
def test_the_mcr_hands_of_the_notation_page_are_wins() -> None:
    """The examples of "MCR hands" (docs/notation.rst) are hands the library scores."""
    from pathlib import Path

    from MahjongGB import MahjongFanCalculator

    page = (Path(__file__).resolve().parents[2] / "docs" / "notation.rst").read_text(encoding="utf-8")
    section = page[page.index(".. _mcr-hands:"):page.index("Canonical form")]
    block = section[section.index(".. code-block:: text"):].split("\n\n")[1]
    examples = [line.strip() for line in block.splitlines()]
    assert len(examples) == 6
    for text in examples:
        assert sum(points for points, _ in MahjongFanCalculator(*to_args(text))) >= 8, text
