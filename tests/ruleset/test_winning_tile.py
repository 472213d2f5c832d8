"""The winning tile and the wait (group word ``winning``, hand words ``wait_*`` and
``waits``), and the per-group wildcard words ``wilds`` and ``substitutes``: on both
backends, in single hands and in batches."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

import mjr
from mjr import BatchError, HandError
from mjr.notation.parse import parse_hand
from mjr.ruleset.loaded import REFUSED

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
    return load_on(path, backend, unoptimised=True)


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


INDICATOR = """ruleset w.indicator "Indicator" {{
    tiles suits(m p s) winds dragons
    wildcard indicator + 1
    {reading}
    fan two   "Two waits"   2 : waits == 2
    fan three "Three waits" 3 : waits == 3
    fan four  "Four waits"  4 : waits == 4
}}
"""
# 999p 78p waits on 6p and 9p (and the wildcard 1p completes it): with the flipped
# 9p out of play, a fourth 9p in the hand would be a fifth copy.
WAITING = "999p 78p 123m 456m 55s from L indicator 9p"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("reading", "in_play"), [("indicator out_of_play", False), ("indicator in_play", True)])
def test_waits_leaves_out_a_copy_the_indicator_takes_up(tmp_path: Path, backend: str, reading: str,
                                                        in_play: bool) -> None:
    rs = ruleset(tmp_path, INDICATOR.format(reading=reading), backend)
    tiles = [wait.tile for wait in rs.waits(WAITING)]
    assert ("9p" in tiles) == in_play and "6p" in tiles
    hand = parse_hand(WAITING.replace(" from", " win 6p from"))
    assert rs.evaluate(hand).fan == len(tiles)
    batch = rs.evaluate_counts(bytes(hand.concealed_counts()), hand, win_tiles=[hand.win_tile or 0])
    assert list(batch[1]) == [len(tiles)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("rules", "hand", "winning"), [
    ("guangdong.jipinghu", "123m 456p 789s 234s 5m win 5m", ("pair", ("5m", "5m"))),
    ("guangdong.jipinghu", "23m 456p 789s 234s 55m win 1m from L", ("chow", ("1m", "2m", "3m"))),
    (WAITS, "12m 456m 789m 111p 22p win 3m", ("chow", ("1m", "2m", "3m"))),
    (WAITS, "123m 456m 789m 11p 22p win 2p", ("pung", ("2p", "2p", "2p"))),
])
def test_the_group_the_winning_tile_completed_is_marked(tmp_path: Path, backend: str, rules: str, hand: str,
                                                        winning: tuple[str, tuple[str, ...]]) -> None:
    rs = load_on(rules, backend) if rules.startswith("guangdong") else ruleset(tmp_path, rules, backend)
    groups = rs.evaluate(hand).groups
    assert [(g.kind, g.tiles) for g in groups if g.winning] == [winning]


def test_no_group_is_marked_for_thirteen_orphans(jipinghu: mjr.Ruleset) -> None:
    result = jipinghu.evaluate("19m19p19s1234567z win 1m")
    assert result.is_win and not result.groups
    groups = jipinghu.evaluate("123m 456p 789s 4s [234s<L] win 4s").groups
    assert [(g.kind, g.declared) for g in groups if g.winning] == [("pair", False)]
