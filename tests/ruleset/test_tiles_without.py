"""``tiles ... without(...)``: kinds left out of the tile set are in no hand, meld
or chow, not even one a wildcard fills, and an indicator passes over them."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

from mjr.errors import HandError
from mjr.simulate import simulate

BACKENDS = ("compiled", "python")

GAPS = """ruleset t.gaps "Gaps" {
    tiles suits(m p s) without(2m 5m 8m)
    claims chow pung kong
    wildcard fixed 9s
    fan chicken "Chicken" 0 : standard
    fan manzu_chow "Manzu chow" 1 : any sets are (chow and m)
}
"""


@pytest.fixture(scope="module", params=BACKENDS)
def gaps(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - a Ruleset
    path = tmp_path_factory.mktemp("gaps") / "gaps.mjr"
    path.write_text(GAPS, encoding="utf-8")
    return load_on(path, request.param, unoptimised=True)


def test_no_chow_of_the_suit_can_be_made(gaps) -> None:  # noqa: ANN001
    """Every run of three manzu crosses a kind left out: three wildcards make a
    set, never a manzu chow."""
    assert len(gaps.kinds) == 24
    result = gaps.evaluate("9s9s9s 111p 222p 333p 4p win 4p self_draw")
    assert result.is_win and "manzu_chow" not in result.fan_ids
    assert not any(group.kind == "chow" and group.tiles[0].endswith("m") for group in result.groups)


@pytest.mark.parametrize(("hand", "why"), [
    ("22m 111p 222p 333p 44p win 2m self_draw", "tile 2m is not in t.gaps's tile set"),
    ("4p 111p 222p 333p [123m] win 4p self_draw", "tile 2m is not in t.gaps's tile set"),
    ("4p 111p 222p 333p [555m] win 4p self_draw", "tile 5m is not in t.gaps's tile set"),
])
def test_a_hand_holding_a_kind_left_out_is_refused(gaps, hand: str, why: str) -> None:  # noqa: ANN001
    with pytest.raises(HandError, match=why):
        gaps.evaluate(hand)


def test_three_player_riichi_points_past_the_kinds_left_out() -> None:
    """An indicator 1m makes 9m the dora, and 9m makes 1m; a red 5m is a 5m, no
    tile of the set."""
    rules = load_on("japan.riichi", "compiled", players=3)
    base = "111m999m123p456s E win E self_draw dealer E seat S round E riichi dora_indicators"
    assert dict((line.id, line.value) for line in rules.evaluate(f"{base} 1m").fans)["dora_han"] == 3
    assert dict((line.id, line.value) for line in rules.evaluate(f"{base} 9m").fans)["dora_han"] == 3
    with pytest.raises(HandError, match="tile 5m is not in japan.riichi's tile set"):
        rules.evaluate("111m999m123p456s E win 0m self_draw dealer E seat S round E dora_indicators 1m")


JOKERS = """ruleset t.holes "Holes and jokers" {
    tiles suits(m p s) jokers 8 without(2m 5m 8m 2p 5p 8p 2s 5s 8s)
    claims chow(left) pung kong
    win self_draw discard
    fan chicken "Chicken" 1 : standard
    fan fivem "Holds 5m" 100 : any tiles are 5m
    pay self_drawn "Self-drawn" when self_draw : each opponent pays points
    pay discarded "Discard" when discard : discarder pays points
}
"""


@pytest.fixture(scope="module")
def holes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("holes") / "holes.mjr"
    path.write_text(JOKERS, encoding="utf-8")
    return path


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_joker_stands_for_no_kind_left_out(holes: Path, backend: str) -> None:
    """Not in a claimed chow (which the kernel checks as the hand check does), nor
    in the shape that is_win and near_misses look for."""
    rules = load_on(holes, backend, unoptimised=True)
    with pytest.raises(HandError, match="tile 5m is not in t.holes's tile set"):
        rules.evaluate("111p 333p 444p [4J6m<L] 9p win 9p self_draw")
    assert not rules.is_win("46mJ 111p 333p 444p 9p win 9p self_draw")
    assert rules.near_misses("46mJ 111p 333p 444p 9p") == []


def test_a_table_offers_no_meld_of_a_kind_left_out(holes: Path) -> None:
    report = simulate(holes, 40, seed=3, bot="random", workers=1)
    assert not report.tally.zero_sum_failures and not report.tally.tile_count_failures
