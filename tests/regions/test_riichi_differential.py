"""The ``japan.riichi`` ruleset beside the ``mahjong`` library, on the same random legal wins.

Hands of every yaku, wait and context (tests/riichi_hands.py), with dora and ura
indicators and red fives.  For each hand the han
(the ruleset's fan total), the fu (its value ``fu``, on hands below yakuman) and
what each player pays (honba included) and what the winner takes from the
riichi sticks on the table must be the library's.  The test reports
the agreement and the first disagreements with both verdicts.  Each option of
the ruleset that the library also has is compared the same way, under each of
its values, on hands drawn to exercise it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

pytest.importorskip("mahjong", reason="the riichi extra is not installed: pip install 'mahjong-rules[riichi]'")

from conftest import load_on  # noqa: E402 - after the skip above
from hand_counts import hands_wanted  # noqa: E402
from riichi_hands import RiichiHand, Verdict, generate, library_verdict  # noqa: E402

import mjr  # noqa: E402
from mjr.abi import TABLE  # noqa: E402

pytestmark = pytest.mark.xdist_group("riichi_hands")

#: How many hands: 10,000 in CI; the long run sets it (docs/development.rst).
HANDS_VARIABLE = "MJR_RIICHI_HANDS"
AGREEMENT = 0.999
SEATS = "ESWN"


def library_payments(hand: RiichiHand) -> dict[str, int]:
    """What each seat pays the winner, by the library's ``main`` and ``additional``,
    and what the winner takes from the table (its ``kyoutaku_bonus``, the riichi sticks)."""
    config, v = dict(hand.call.config), hand.verdict
    seats = 3 if dict(hand.call.rules).get("is_three_player") else 4
    winner = config["player_wind"] - 27
    table = {TABLE: v.kyoutaku_bonus} if v.kyoutaku_bonus else {}
    if not config["is_tsumo"]:
        source = hand.text.split(" from ")[1][0]  # R the next seat, L the one before, O half way round
        step = {"R": 1, "O": seats // 2, "L": seats - 1}[source]
        return {SEATS[(winner + step) % seats]: v.main + v.main_bonus, **table}
    payers = [seat for seat in range(seats) if seat != winner]
    return {**{SEATS[seat]: v.main + v.main_bonus if seat == 0 or winner == 0 else v.additional + v.additional_bonus
               for seat in payers}, **table}


def disagreement(rs: mjr.Ruleset, hand: RiichiHand) -> str | None:
    """Why the ruleset's verdict on ``hand`` is not the library's, or ``None``."""
    v: Verdict = hand.verdict
    result = rs.evaluate(hand.text)
    if not result.is_win:
        return f"not a win: {result.reason}"
    mine = {line.payer: line.amount for line in rs.settle(result).lines}
    problems = []
    if result.fan != v.han:
        problems.append(f"han {result.fan} (library {v.han})")
    if not v.yakuman and result.value("fu") != v.fu:
        problems.append(f"fu {result.value('fu')} (library {v.fu})")
    if mine != library_payments(hand):
        problems.append(f"payments {mine} (library {library_payments(hand)})")
    if sum(mine.values()) != v.total:
        problems.append(f"the winner takes {sum(mine.values())} (library total {v.total})")
    if not problems:
        return None
    return "; ".join(problems) + f" -- fans {result.fan_ids}, library yaku {v.yaku}"


def compare(rs: mjr.Ruleset, made: tuple[RiichiHand, ...]) -> tuple[float, list[str]]:
    """The share of hands agreeing, and each disagreement with its hand."""
    differences = []
    for hand in made:
        why = disagreement(rs, hand)
        if why is not None:
            differences.append(f"{hand.text}: {why}")
    return 1 - len(differences) / len(made), differences


@pytest.fixture(scope="module")
def ruleset() -> mjr.Ruleset:
    return mjr.load("japan.riichi")


def test_japan_riichi_scores_as_the_library(ruleset: mjr.Ruleset) -> None:
    """Han, fu (below yakuman) and every payment agree; MJR_RIICHI_HANDS=1000000
    runs the long comparison."""
    n = hands_wanted(HANDS_VARIABLE)
    agreement, differences = compare(ruleset, generate(n, seed=11, red=True))
    print(f"japan.riichi agrees with the mahjong library on {agreement:.2%} of {n} hands")
    assert agreement >= AGREEMENT, "\n".join([f"agreement {agreement:.3%}", *differences[:10]])
    assert differences == [], "\n".join(differences[:10])


@pytest.mark.parametrize("backend", ["compiled", "python"])
@pytest.mark.parametrize("text", [
    "4405666777888m win 5m self_draw dealer E seat S round S riichi dora_indicators 7m ura_indicators 9m",
    "1122233388p (0555p) win 1p self_draw dealer seat E round W riichi ippatsu dora_indicators 5m9p "
    "ura_indicators 1s5z",
    "1144455666p (9999p) win 0p self_draw dealer E seat W round S riichi dora_indicators 68m ura_indicators 8p5z",
])
def test_a_yakuman_is_kept_over_a_counted_thirteen_han_of_the_same_points(backend: str, text: str) -> None:
    """Four concealed pungs read also as iipeikou, chinitsu and dora, 14 han counted
    (kazoe): both pay one yakuman, and the yakuman is the reading kept (13 han, as the
    library has it), not the count.  Found by the 1,000,000-hand run."""
    result = load_on("japan.riichi", backend).evaluate(text)
    assert result.limit and result.fan == 13 and "suuankou" in result.fan_ids


def test_a_batch_scores_each_hand_as_its_own_call(ruleset: mjr.Ruleset) -> None:
    """One batch of hands whose indicators differ hand to hand: each hand's points
    and han are its own call's (nothing of one hand's indicators is left for the next)."""
    made = generate(400, seed=5, red=True)
    hands = [ruleset.read_hand(hand.text) for hand in made]
    scores = ruleset.evaluate_batch(b"".join(ruleset.records.record(hand) or b"" for hand in hands), workers=1)
    assert len(scores.points) == len(hands)
    for i, hand in enumerate(hands):
        result = ruleset.evaluate(hand)
        assert (scores.points[i], scores.fan[i]) == (result.points, result.fan), made[i].text


#: Each option value of japan.riichi that the library has, beside the library's
#: reading of it: (the options as loaded, the ``OptionalRules`` keywords, whether
#: the library is told of a renhou, the focus of the hands drawn, how many).  The
#: set-up's own values are the main test's; 人和 as a mangan has no reading in the
#: library (the ruleset's examples check it).
OPTION_CASES = [
    pytest.param({"renhou": "han5"}, {}, True, "renhou", 800, id="renhou=han5"),
    pytest.param({"renhou": "yakuman"}, {"renhou_as_yakuman": True}, True, "renhou", 800, id="renhou=yakuman"),
    pytest.param({"renhou": "off"}, {}, False, "renhou", 800, id="renhou=off"),
    pytest.param({"kazoe": "sanbaiman"}, {"kazoe_limit": 1}, True, "kazoe", 1000, id="kazoe=sanbaiman"),
    pytest.param({"kazoe": "unlimited"}, {"kazoe_limit": 2}, True, "kazoe", 1500, id="kazoe=unlimited"),
    pytest.param({"pinfu_tsumo_fu": True}, {"fu_for_pinfu_tsumo": True}, True, "pinfu", 1000,
                 id="pinfu_tsumo_fu=on"),
    pytest.param({"open_pinfu_fu": False}, {"fu_for_open_pinfu": False}, True, "pinfu", 1000,
                 id="open_pinfu_fu=off"),
    pytest.param({"open_pinfu_fu": False, "pinfu_tsumo_fu": True},
                 {"fu_for_open_pinfu": False, "fu_for_pinfu_tsumo": True}, True, "pinfu", 1000,
                 id="open_pinfu_fu=off,pinfu_tsumo_fu=on"),
    pytest.param({"daisharin": "pinzu"}, {"has_daisharin": True}, True, "daisharin", 600, id="daisharin=pinzu"),
    pytest.param({"daisharin": "any_suit"}, {"has_daisharin_other_suits": True}, True, "daisharin", 600,
                 id="daisharin=any_suit"),
    pytest.param({"players": 3}, {"is_three_player": True}, True, "", 1500, id="players=3"),
]
#: At least this many hands of each case score otherwise under the set-up (the option matters there).
EXERCISED = 8


def setup_verdict(hand: RiichiHand) -> Verdict:
    """The library's verdict on ``hand`` under the set-up of the main test: its
    rules, and renhou told on a first-turn ron."""
    config = dict(hand.call.config)
    config["is_renhou"] = " first_turn" in hand.text and not config["is_tsumo"]
    return library_verdict(dataclasses.replace(hand.call, rules=(), config=tuple(config.items())))


@pytest.mark.parametrize(("options", "rules", "renhou", "focus", "n"), OPTION_CASES)
def test_each_option_scores_as_the_library_under_its_reading(options: dict[str, Any], rules: dict[str, Any],
                                                             renhou: bool, focus: str, n: int) -> None:
    """japan.riichi loaded with an option's value agrees with the library run with
    the matching ``OptionalRules``, on hands of which enough score otherwise under
    the set-up (for renhou=han5, the set-up itself: enough renhou)."""
    made = generate(n, seed=31, red=True, rules=tuple(sorted(rules.items())), renhou=renhou, focus=focus)
    agreement, differences = compare(mjr.load("japan.riichi", **options), made)
    print(f"japan.riichi {options} agrees with the library {rules} on {agreement:.2%} of {n} hands")
    assert differences == [], "\n".join(differences[:10])
    if rules or not renhou:
        exercised = sum(1 for hand in made if setup_verdict(hand) != hand.verdict)
    else:
        exercised = sum(1 for hand in made if "renhou" in hand.verdict.yaku)
    print(f"{exercised} of {n} hands exercise it")
    assert exercised >= EXERCISED, f"only {exercised} of {n} hands exercise {options}"
