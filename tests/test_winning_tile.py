"""The winning tile and the wait (group word ``winning``, hand words ``wait_*`` and
``waits``), and the per-group wildcard words ``wilds`` and ``substitutes``: on both
backends, in single hands and in batches."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

import mjr
from mjr import BatchError, HandError
from mjr.notation import parse_hand
from mjr.ruleset import REFUSED

BACKENDS = ["compiled", "python"]

WAITS = """ruleset w.waits "Waits" {
    tiles suits(m p s) winds dragons
    fan edge     "Edge"     1  : wait_edge
    fan closed   "Closed"   2  : wait_closed
    fan open     "Open"     4  : wait_open
    fan single   "Single"   8  : wait_pair
    fan double   "Double"   16 : wait_pung
    fan one_wait "One wait" 32 : waits == 1
    fan by_chow  "By chow"  64 : any sets are (winning and chow)
}
"""

WILDS = """ruleset w.wilds "Wilds" {
    tiles suits(m p s) winds dragons
    wildcard fixed C
    fan wild_pair  "Wild pair"  2 : any pairs are (wilds == 2)
    fan subst_chow "Subst chow" 4 : any sets are (chow and substitutes == 1)
    fan home       "Home"       8 : wildcards > 0 and substituted == 0
    fan closed     "Closed"     1 : wait_closed
    fan held_wild  "Held wild"  16 : any pairs are (winning and wilds == 1 and not winning_wildcard)
    fan drawn_wild "Drawn wild" 32 : winning_wildcard
}
"""

PLAIN = """ruleset w.plain "Plain" {
    tiles suits(m p s) winds dragons
    fan chicken "Chicken" 1 : standard
}
"""


def ruleset(tmp_path: Path, text: str, backend: str) -> mjr.Ruleset:
    ident = text.split()[1]
    path = tmp_path / f"{ident}.mjr"
    path.write_text(text, encoding="utf-8")
    return load_on(path, backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("hand", "fans"), [
    ("12m 456m 789m 111p 22p win 3m", ("edge", "one_wait", "by_chow")),  # 12-3
    ("13m 456m 789m 111p 22p win 2m", ("closed", "one_wait", "by_chow")),  # 1-3
    ("23m 456m 789m 111p 22p win 1m", ("open", "by_chow")),  # 23 on 1 or 4 (and 7: three waits)
    ("123m 456m 789m 111p 2p win 2p", ("single",)),  # 2p, or 3p as 11p 123p: two waits
    ("123m 456m 789m 11p 22p win 2p", ("double",)),
    # 4p completes the open 23p (4 + 64) or the pair (8): the better place is kept
    ("123m 456m 789m 234p 4p win 4p", ("open", "by_chow")),
    ("123m 456m 789m 222p 4p win 4p", ("single",)),
])
def test_the_wait_of_the_winning_tile(tmp_path: Path, backend: str, hand: str, fans: tuple[str, ...]) -> None:
    result = ruleset(tmp_path, WAITS, backend).evaluate(hand)
    assert result.is_win
    assert result.fan_ids == fans


@pytest.mark.parametrize("backend", BACKENDS)
def test_waits_counts_the_kinds_the_hand_waits_on(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, WAITS.replace("waits == 1", "waits == 3"), backend)
    assert rs.evaluate("23m 456m 789m 111p 22p win 1m").fan_ids == ("open", "one_wait", "by_chow")
    assert [w.tile for w in rs.waits("23m 456m 789m 111p 22p")] == ["1m", "4m", "7m"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_waits_skips_a_kind_held_four_times(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, WAITS.replace("waits == 1", "waits == 1 and wait_pair"), backend)
    # 1111m 234m waits on 4m (111m 123m 44m); a fifth 1m would complete it too, but there is none
    assert rs.evaluate("1111m 234m 567p 789p win 4m").fan_ids == ("single", "one_wait")


@pytest.mark.parametrize("backend", BACKENDS)
def test_group_wildcard_words(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, WILDS, backend)
    pair = rs.evaluate("123m 456m 789m 111p C win C")
    assert pair.fan_ids == ("wild_pair", "home", "drawn_wild")  # two wildcards, each standing as its own kind
    # the wildcard fills 2m, the middle of the chow: one substitute, a closed wait on a wild winning tile
    chow = rs.evaluate("13m 456m 789m 111p 22p win C")
    assert chow.fan_ids == ("subst_chow", "closed", "drawn_wild")
    assert chow.substituted == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_wildcard_held_or_drawn_onto_the_pair(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, WILDS, backend)
    # the wildcard was held: the drawn 5s pairs with it
    assert "held_wild" in rs.evaluate("123m 456m 789m 111p C win 5s").fan_ids
    # the wildcard was drawn onto a single 5s: the same tiles, the other tile won
    drawn = rs.evaluate("123m 456m 789m 111p 5s win C")
    assert "drawn_wild" in drawn.fan_ids and "held_wild" not in drawn.fan_ids


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_batch_of_a_ruleset_using_the_winning_tile(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, WAITS, backend)
    hands = ["12m 456m 789m 111p 22p win 3m", "123m 456m 789m 234p 4p win 4p"]
    parsed = [parse_hand(h) for h in hands]
    counts = b"".join(bytes(h.concealed_counts()) for h in parsed)
    with pytest.raises(BatchError, match=r"w\.waits scores the winning tile .* pass win_tiles="):
        rs.evaluate_counts(counts)
    points, fan = rs.evaluate_counts(counts, win_tiles=bytes(h.win_tile or 0 for h in parsed))
    assert list(fan) == [rs.evaluate(h).fan for h in hands]
    assert list(points) == [rs.evaluate(h).points for h in hands]
    with pytest.raises(BatchError, match="one tile per hand: 2 hands, 1 win_tiles"):
        rs.evaluate_counts(counts, win_tiles=b"\x02")
    with pytest.raises(HandError, match="hand 1 of the batch: its winning tile 1s is not among its tiles"):
        rs.evaluate_counts(counts, win_tiles=[2, 18])
    with pytest.raises(HandError, match="hand 0 of the batch: its winning tile 40 is not a tile kind"):
        rs.evaluate_counts(counts, win_tiles=[40, 12])
    assert list(rs.evaluate_counts(counts, win_tiles=[2, 18], refused="mark")[0]) == [points[0], REFUSED]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_ruleset_without_winning_tile_words_takes_a_batch_without_them(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, PLAIN, backend)
    hand = parse_hand("12m 456m 789m 111p 22p win 3m")
    assert list(rs.evaluate_counts(bytes(hand.concealed_counts()))[1]) == [1]
    assert not rs.uses_win_tile and ruleset(tmp_path, WAITS, backend).uses_win_tile


def test_the_extra_work_is_generated_only_for_rulesets_that_use_it(tmp_path: Path) -> None:
    plain = ruleset(tmp_path, PLAIN, "python").module
    waits = ruleset(tmp_path, WAITS, "python").module
    assert not hasattr(plain, "_winning_places") and not hasattr(plain, "_count_waits")
    assert hasattr(waits, "_winning_places") and hasattr(waits, "_count_waits")
    assert not hasattr(waits, "_place_substitutes")
