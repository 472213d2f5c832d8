"""Declared winning shapes (``shape ID "name" : COND``) and ``wildcard stand_in``:
on both backends, through evaluate, is_win and waits."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import complete_by_the_module, completed_by_a_tile, load_on

import mjr

BACKENDS = ["compiled", "python"]

SHAPES = """ruleset d.shapes "Shapes" {
    tiles suits(m p s) winds dragons
    wildcard fixed C
    shape four_kind   "四喜"   : any kinds are (copies == 4)
    shape three_wilds "三财神" : wildcards >= 3
    fan by_four  "By four"  10 : four_kind
    fan by_wilds "By wilds" 20 : three_wilds
    fan chicken  "Chicken"  1  : standard
}
"""

STAND_IN = """ruleset d.stand_in "Stand-in" {
    tiles suits(m p s) winds dragons
    claims pung kong
    wildcard indicator + 1
    wildcard stand_in P
    fan plain  "Plain"  1 : standard
    fan wild   "Wild"   2 : wildcards > 0
    fan m_pung "M pung" 4 : any sets are (pung and m)
    fan closed "Closed" 8 : wait_closed
}
"""


def ruleset(tmp_path: Path, text: str, backend: str) -> mjr.Ruleset:
    path = tmp_path / f"{text.split()[1]}.mjr"
    path.write_text(text, encoding="utf-8")
    return load_on(path, backend, unoptimised=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_hand_wins_by_a_declared_shape(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, SHAPES, backend)
    four = rs.evaluate("1111m 2m 3m 5p 7p 9s E S W N win P")
    assert (four.is_win, four.shape, four.fan_ids, four.groups) == (True, "four_kind", ("by_four",), ())
    wilds = rs.evaluate("CCC 1m 5m 9m 1p 5p 9p 1s 5s 9s E win W")
    assert (wilds.shape, wilds.fan_ids, wilds.substituted) == ("three_wilds", ("by_wilds",), 0)
    assert not rs.evaluate("111m 2m 3m 4m 5p 7p 9s E S W N win P").is_win


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_declared_shape_beside_a_standard_one_scores_the_better(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, SHAPES, backend)
    both = rs.evaluate("1111m 23m 567m 789m 5p win 5p")  # also 111m 123m 567m 789m 55p
    assert (both.shape, both.fan_ids) == ("four_kind", ("by_four",))
    cheap = ruleset(tmp_path, SHAPES.replace("by_four  \"By four\"  10", "by_four  \"By four\"  0"), backend)
    assert cheap.evaluate("1111m 23m 567m 789m 5p win 5p").shape == "standard"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_declared_shape_keeps_the_declared_melds(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, SHAPES, backend)
    result = rs.evaluate("(1111m) 2m 3m 5p 7p 9s E S W N P win F")
    assert result.shape == "four_kind"
    assert [(g.kind, g.declared) for g in result.groups] == [("kong", True)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_is_win_and_waits_see_declared_shapes(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, SHAPES, backend)
    assert rs.is_win("1111m 2m 3m 5p 7p 9s E S W N win P")
    waits = rs.waits("1111m 2m 3m 5p 7p 9s E S W N")
    assert len(waits) == 33 and "1m" not in [w.tile for w in waits]  # four 1m held: every other kind


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_stand_in_plays_as_the_wildcard_kind(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, STAND_IN, backend)
    # indicator 4m: 5m is wild, and P plays as a (real) 5m
    result = rs.evaluate("123m 4m P 6m 789m 111p 2p win 2p indicator 4m")
    assert (result.is_win, result.fan_ids) == (True, ("plain",))
    assert [g.tiles for g in result.groups if g.kind == "chow"][1] == ("4m", "5m", "6m")
    # indicator N: P is the wildcard itself
    wild = rs.evaluate("123m 4m P 6m 789m 111p 2p win 2p indicator N")
    assert wild.fan_ids == ("plain", "wild")
    # without the line, P is only itself
    plain = ruleset(tmp_path, STAND_IN.replace("wildcard stand_in P", "").replace("d.stand_in", "d.plain"), backend)
    assert not plain.evaluate("123m 4m P 6m 789m 111p 2p win 2p indicator 4m").is_win


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_stand_in_in_a_meld_and_as_the_winning_tile(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, STAND_IN, backend)
    meld = rs.evaluate("123m 789m 234s [PPP<L] 2p win 2p indicator 4m")
    assert meld.fan_ids == ("plain", "m_pung")
    assert meld.groups[0].tiles == ("5m", "5m", "5m")
    # a stand-in winning tile is a real tile of the kind it plays: it closes 4m-6m
    assert rs.evaluate("123m 4m 6m 789m 111p 22p win P indicator 4m").fan_ids == ("plain", "closed")
    suited = ruleset(tmp_path, STAND_IN.replace("stand_in P", "stand_in 5p").replace("claims", "claims chow")
                     .replace("d.stand_in", "d.suited"), backend)
    with pytest.raises(mjr.HandError, match=r"the chow \[456p<L\] holds 5p, which plays as 5m this hand: no chow"):
        suited.evaluate("123m 456m 789m [456p<L] 2p win 2p indicator 4m")


# -- a declared shape told from the tiles held -----------------------------------------

#: shapes read from the tiles alone (one only with no meld), and two that read more:
#: the seat (known only to a whole hand), and the tiles of a meld
HELD = """ruleset d.held "Held tiles" {
    tiles suits(m p s) winds dragons
    claims chow pung kong
    wildcard indicator + 1
    wildcard stand_in P
    define knit: all tiles are (honor or (m and rank % 3 == 1) or (p and rank % 3 == 2) or (s and rank % 3 == 0))
    shape knitted_honors "Knitted" : count(melds) == 0 and count(kinds) == 14 and knit
    shape four_kind      "Four"    : any kinds are (copies == 4)
    shape seat_winds     "Seat"    : 1 > count(melds) and count(tiles where wind) >= 7 and any tiles are seat_wind
    shape meld_and_pairs "Melds"   : any melds are pung and count(kinds where copies == 2) >= 5
    fan plain "Plain" 1 : standard
}
"""

KNIT = [k for k in range(27) if (k // 9, k % 9 % 3) in ((0, 0), (1, 1), (2, 2))] + list(range(27, 34))


def test_the_compiler_marks_what_a_shape_reads(tmp_path: Path) -> None:
    from mjr.compiler.build import check_file
    from mjr.compiler.emit.codegen import needs_no_melds, reads_held_tiles

    path = tmp_path / "held.mjr"
    path.write_text(HELD, encoding="utf-8")
    shapes = {shape.id: shape.condition for shape in check_file(path).shapes}
    marks = {ident: (needs_no_melds(condition), reads_held_tiles(condition)) for ident, condition in shapes.items()}
    assert marks == {"knitted_honors": (True, True), "four_kind": (False, True), "seat_winds": (True, False),
                     "meld_and_pairs": (False, True)}


def _hand_text(tiles: list[int], meld: int | None, indicator: int | None) -> str:
    """Notation for concealed ``tiles`` (the last one the winning tile), a pung
    claimed from the left of ``meld`` and a flipped ``indicator``."""
    from mjr.tiles.kinds import tile_name

    text = " ".join(tile_name(k) for k in tiles[:-1])
    if meld is not None:
        name = tile_name(meld)
        text += f" [{name[0] * 3 + name[1:]}<L]"
    text += f" win {tile_name(tiles[-1])}"
    return text + (f" indicator {tile_name(indicator)}" if indicator is not None else "")


def _near_shapes(rng: random.Random, size: int) -> list[int]:
    """``size`` tiles near one of HELD's shapes: knitted and honours, four of a kind,
    winds, pairs."""
    wall = [k for k in range(34) for _ in range(4)]
    pick = rng.randrange(4)
    if pick == 0:
        tiles = rng.sample(KNIT, min(size, len(KNIT)))
    elif pick == 1:
        kind = rng.randrange(34)
        tiles = [kind] * 4
    elif pick == 2:
        tiles = rng.sample([k for k in wall if 27 <= k <= 30], 7)
    else:
        tiles = [k for kind in rng.sample(range(34), 6) for k in (kind, kind)]
    tiles = tiles[:size]
    rest = list(wall)
    for kind in tiles:
        rest.remove(kind)
    tiles += rng.sample(rest, size - len(tiles))
    rng.shuffle(tiles)
    return tiles


#: HELD with the shapes of the tiles held alone
TILES_ONLY = "\n".join(line for line in HELD.splitlines() if "seat_winds" not in line and "meld_and" not in line)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("text", [HELD, TILES_ONLY], ids=["held", "tiles_only"])
def test_a_shape_of_the_tiles_held_is_told_from_counts_exactly(tmp_path: Path, backend: str, text: str) -> None:
    """shape_completes answers for the declared shapes from counts where they read
    only the tiles held (and the melds' number where a shape needs none), and its
    answer is the module's on the whole hand (and is_win's); shape_may_wait is false
    only where no tile completes the hand by the module's reckoning."""
    rs = ruleset(tmp_path, text.replace("d.held", "d.tiles_only") if text is TILES_ONLY else text, backend)
    rng = random.Random(7)
    told = {True: 0, False: 0, None: 0}
    for _ in range(600):
        meld = rng.choice([None, None, rng.randrange(34)])
        size = rs.deal + 1 - (3 if meld is not None else 0)
        tiles = _near_shapes(rng, size)
        if meld is not None and tiles.count(meld) > 1:
            continue
        indicator = rng.choice([None, rng.randrange(34)])
        counts = bytearray(34)
        for kind in tiles:
            counts[kind] += 1
        melds = 0 if meld is None else 1
        hand = mjr.parse_hand(_hand_text(tiles, meld, indicator))
        complete = complete_by_the_module(rs, hand)
        if complete is None:
            continue
        answer = rs.shape_completes(counts, 0, melds, indicator)
        told[answer] += 1
        if answer is not None:
            assert answer == complete == rs.is_win(hand), _hand_text(tiles, meld, indicator)
        else:  # a shape reading the seat leaves it open with no meld; one reading the melds' tiles, with one
            assert text is HELD or melds, _hand_text(tiles, meld, indicator)
        counts[tiles[-1]] -= 1
        if not rs.shape_may_wait(counts, 0, melds, indicator):
            short = replace(hand, win_tile=None)
            assert not completed_by_a_tile(rs, short), _hand_text(tiles, meld, indicator)
            assert not rs.waits(short) and not rs.near_misses(short), _hand_text(tiles, meld, indicator)
    assert told[True] > 50 and told[None] > 50 and (text is HELD or told[False] > 50), told


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_dedicated_joker_in_a_declared_shape_counts_as_substituted(tmp_path: Path, backend: str) -> None:
    """A wildcard of a kind stands as that kind in a declared shape; a dedicated joker
    has no kind of its own, so each counts in ``substituted``."""
    text = SHAPES.replace("d.shapes", "d.joker_shapes").replace("wildcard fixed C", "").replace(
        "winds dragons", "winds dragons jokers 4")
    rs = ruleset(tmp_path, text, backend)
    assert rs.evaluate("1111m 2m 3m 5p 7p 9s E S W J win P").substituted == 1
    assert rs.evaluate("1111m 2m 3m 5p 7p 9s E S J J win P").substituted == 2


# -- shapes none: a ruleset of its own shapes only ------------------------------------

LIKE_NUMBERS = """ruleset d.like "Like numbers" {
    tiles suits(m p s) winds dragons
    claims pung kong
    shapes none
    define one_rank: all tiles are (wind or rank == 2) or all tiles are (wind or rank == 5)
                     or all tiles are (wind or rank == 8)
    shape like_numbers "Like numbers" : one_rank and count(kinds where suited) == 3
    fan like "Like" 2 : like_numbers
    fan concealed_hand "Concealed" 1 : count(melds) == 0
    pay discarded "D" when discard : discarder pays points
    pay self_drawn "S" when self_draw : each opponent pays points
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_shapes_none_wins_by_the_declared_shapes_alone(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, LIKE_NUMBERS, backend)
    result = rs.evaluate("555m 555p 55s EEE SS win S")
    assert (result.shape, result.fan_ids) == ("like_numbers", ("like", "concealed_hand"))
    assert rs.evaluate("555m [555p<L] 55s EEE SS win S").fan_ids == ("like",)
    assert not rs.evaluate("123m 456m 789m 123p 5s win 5s").is_win  # a standard hand is no win here
    assert not rs.evaluate("11m 22m 33m 44m 55m 66m 7m win 7m").is_win  # nor seven pairs
    # any five or wind keeps every tile of one number or a wind
    assert [wait.tile for wait in rs.waits("555m 555p 55s EEE SS")] == ["5m", "5p", "5s", "1z", "2z", "3z", "4z"]
    assert rs.shape_completes(mjr.parse_hand("555m 555p 55s EEE SSS").concealed_counts(), 0, 0, None) is True


@pytest.mark.parametrize("backend", BACKENDS)
def test_shapes_none_plays_at_a_table(tmp_path: Path, backend: str) -> None:
    """The dealer, dealt a like-numbers hand one tile short, is offered the win on
    its first draw, and wins by its declared shape."""
    from table_script import arranged_wall

    from mjr.table import Action, Table

    rs = ruleset(tmp_path, LIKE_NUMBERS, backend)
    table = Table(rs, wall=arranged_wall(rs, {0: "555m 555p 55s EEE SS"}, ["S"], seed=3))
    table.act(Action(0, "draw"))
    assert Action(0, "win") in table.legal()[0]
    table.act(Action(0, "win"))
    assert table.over and [(win.seat, win.result.shape) for win in table.wins] == [(0, "like_numbers")]


@pytest.mark.parametrize(("shapes", "declared", "message"), [
    ("none seven_pairs", True, "'shapes none' leaves out every built-in shape: it stands alone"),
    ("none", False, "'shapes none' leaves the ruleset no winning shape: declare one"),
])
def test_shapes_none_is_refused_beside_a_shape_or_with_no_shape_of_its_own(
        tmp_path: Path, shapes: str, declared: bool, message: str) -> None:
    from mjr.compiler.build import check_file

    text = LIKE_NUMBERS.replace("shapes none", f"shapes {shapes}")
    if not declared:
        text = text.replace("    shape like_numbers", "    define like_numbers:").replace(
            '"Like numbers" : one_rank', "one_rank")
    path = tmp_path / "like.mjr"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(mjr.SourceError, match=re.escape(message)):
        check_file(path)


SELF_DRAW_ONLY = """ruleset d.self_draw_only "Self-draw only" {
    tiles suits(m p s) winds dragons
    win self_draw
    shape seat_pair "Seat pair" : count(kinds where copies == 2) == 7 and any tiles are seat_wind
    fan plain "Plain" 1 : standard
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_win_method_not_allowed_does_not_make_a_hand_complete(tmp_path: Path, backend: str) -> None:
    """The module looks at the shape before the way a hand was won: a hand won on a
    discard where only self-draws win is complete only where its tiles are."""
    rs = ruleset(tmp_path, SELF_DRAW_ONLY, backend)
    assert not rs.is_win("1m 4m 7m 2p 9p 3s 5s 8s 1p 3p 6m 9m 2s win 5p")  # a discard (the default): no shape
    assert rs.is_win("11m 22m 33p 44p 55s 66s E win E")  # seven pairs with the seat wind: complete
    result = rs.evaluate("1m 4m 7m 2p 9p 3s 5s 8s 1p 3p 6m 9m 2s win 5p")
    assert not result.is_win and "complete" in result.reason
    assert [wait.tile for wait in rs.near_misses("11m 22m 33p 44p 55s 66s E")] == ["1z"]
