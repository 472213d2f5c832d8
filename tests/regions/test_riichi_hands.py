"""The riichi hand generator: legal wins of every yaku, wait and context, read by mjr's notation.

The hands are what the riichi differential test compares with the ``mahjong``
library, so these tests check that they are worth comparing: each is a hand a
table can deal and a win the library scores with a yaku, 10,000 of them show
every yaku of the set-up and every wait, and mjr reads every one.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

pytest.importorskip("mahjong", reason="the riichi extra is not installed: pip install 'mahjong-rules[riichi]'")

from riichi_hands import (  # noqa: E402 - after the skip above
    WAIT_CLASSES,
    RiichiHand,
    allowed_yaku,
    generate,
    library_verdict,
    yaku_counts,
)

import mjr  # noqa: E402
from mjr.hand.model import impossibility  # noqa: E402

# one worker makes the hands once for every test here
pytestmark = pytest.mark.xdist_group("riichi_hands")

N = 10_000
DORA_YAKU = {"dora", "aka_dora", "ura_dora"}


@pytest.fixture(scope="module")
def hands() -> tuple[RiichiHand, ...]:
    return generate(N)


def test_every_yaku_of_the_set_up_appears_in_ten_thousand_hands(hands: tuple[RiichiHand, ...]) -> None:
    seen = yaku_counts(hands)
    assert allowed_yaku() - seen.keys() == set()
    assert seen.keys() <= allowed_yaku()
    assert len(allowed_yaku()) == 54 and "aka_dora" not in allowed_yaku() and "renhou" in allowed_yaku()


def red_digits(text: str) -> int:
    """The ``0`` digits of the tile words (melds, ``win``, indicators) of a hand's notation."""
    return sum(tiles.count("0") for tiles in re.findall(r"[0-9]+(?=[mpsz])", text))


def test_red_fives_only_when_asked_and_then_scored_as_aka_dora() -> None:
    red = generate(1500, seed=3, red=True)
    assert "aka_dora" in yaku_counts(red) and any(hand.reds > 1 for hand in red)
    for hand in red:
        assert ("aka_dora" in hand.verdict.yaku) == (hand.reds > 0 and not hand.verdict.yakuman), hand.text
        assert red_digits(hand.text) == hand.reds, hand.text
    assert all(hand.reds == 0 and red_digits(hand.text) == 0 for hand in generate(1500, seed=3))


def test_the_same_seed_gives_the_same_hands() -> None:
    first = [hand.text for hand in generate(300, seed=7)]
    generate.cache_clear()
    assert [hand.text for hand in generate(300, seed=7)] == first
    assert [hand.text for hand in generate(300, seed=8)] != first


def test_the_library_scores_every_hand_with_a_yaku(hands: tuple[RiichiHand, ...]) -> None:
    for hand in hands:
        assert hand.verdict.error is None and set(hand.verdict.yaku) - DORA_YAKU, hand.text
        assert hand.verdict.han >= 1 and hand.verdict.main > 0, hand.text
    for hand in hands[:1000]:  # the verdict is the library's, called again
        assert library_verdict(hand.call) == hand.verdict, hand.text


def test_every_wait_shape_and_context_is_drawn(hands: tuple[RiichiHand, ...]) -> None:
    assert Counter(w for hand in hands for w in hand.waits).keys() == set(WAIT_CLASSES)
    assert {"seven_pairs", "kokushi", "nine_gates", "pungs", "chows", "green"} <= {hand.theme for hand in hands}
    assert {hand.closed for hand in hands} == {True, False}
    melds = Counter(kind for hand in hands for kind, _, _ in hand.call.melds)
    assert melds.keys() == {"chi", "pon", "kan", "shouminkan"}
    assert any(not opened for hand in hands for kind, _, opened in hand.call.melds if kind == "kan")
    config = [dict(hand.call.config) for hand in hands]
    for flag in ("is_tsumo", "is_riichi", "is_daburu_riichi", "is_ippatsu", "is_rinshan", "is_chankan",
                 "is_haitei", "is_houtei", "is_tenhou", "is_chiihou", "is_renhou"):
        assert {c[flag] for c in config} == {True, False}, flag
    assert {c["player_wind"] for c in config} == {c["round_wind"] for c in config} == {27, 28, 29, 30}
    assert {c["tsumi_number"] for c in config} >= {0, 1, 20}
    assert {len(hand.call.dora) for hand in hands} == {1, 2, 3, 4, 5}
    assert {len(hand.call.ura) for hand in hands} == {0, 1, 2, 3, 4, 5}


def test_mjr_reads_every_hand(hands: tuple[RiichiHand, ...]) -> None:
    """Read with japan.riichi's facts of play (a plain reader takes ``dora_indicators`` for a misspelt keyword)."""
    declared = mjr.load("japan.riichi", backend="python").facts.kinds
    for made in hands:
        hand = mjr.parse_hand(made.text, declared)
        call, config = made.call, dict(made.call.config)
        assert impossibility(hand) is None, made.text
        assert hand.all_counts() == [sorted(t // 4 for t in call.tiles).count(k) for k in range(34)], made.text
        assert hand.win_tile == call.win_tile // 4 and len(hand.melds) == len(call.melds), made.text
        assert [m.concealed for m in hand.melds] == [not opened for _, _, opened in call.melds], made.text
        assert [m.added for m in hand.melds] == [kind == "shouminkan" for kind, _, _ in call.melds], made.text
        context = hand.context
        assert context.self_draw == config["is_tsumo"] and context.dealer == (config["player_wind"] == 27)
        assert context.dealer or context.dealer_seat == 0, made.text
        assert (context.seat, context.round) == (config["player_wind"] - 27, config["round_wind"] - 27)
        assert context.after_kong == config["is_rinshan"]
        assert context.last_tile == (config["is_haitei"] or config["is_houtei"])
        assert (context.win_by == "robbing_kong") == config["is_chankan"]
        assert context.first_turn == (config["is_tenhou"] or config["is_chiihou"] or config["is_renhou"])
        facts = dict(context.facts)
        assert facts.get("riichi", False) == config["is_riichi"], made.text
        assert facts.get("double_riichi", False) == config["is_daburu_riichi"], made.text
        assert facts.get("ippatsu", False) == config["is_ippatsu"], made.text
        assert facts.get("honba", 0) == config["tsumi_number"], made.text
        assert facts.get("riichi_sticks", 0) == config["kyoutaku_number"], made.text
        assert facts["dora_indicators"] == tuple(sorted(t // 4 for t in call.dora)), made.text
        assert facts.get("ura_indicators", ()) == tuple(sorted(t // 4 for t in call.ura)), made.text
