"""Groups made of wildcards alone are tried once per class of alike identities
(mjr.compiler.emit.identities): a pruning that must change no result.

Every ruleset with wildcards, bundled or in tests/rulesets, scores hands with 0-4
wildcards exactly as when every identity is tried -- points, fans, the groups
shown and the wildcards' assignment, ties included -- interpreted with and
without the pruning, and compiled (pruned, one pass over the groups) alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

import mjr
from mjr.compiler.build import check_file, find_source
from mjr.compiler.emit.identities import identity_classes
from mjr.compiler.model import ir
from mjr.errors import MjrError
from mjr.hand.model import Context, Hand
from mjr.tiles.kinds import N_KINDS

HERE = Path(__file__).parents[1]  # tests/
WILD_RULESETS = ("guangdong.tuidaohu", "hangzhou", "shanghai", "wenzhou", str(HERE / "rulesets" / "test.wildcards.mjr"))
ALL_INDICATORS = tuple(range(N_KINDS))


@pytest.fixture(scope="module", params=WILD_RULESETS)
def pair(request: pytest.FixtureRequest) -> tuple[mjr.Ruleset, mjr.Ruleset]:
    """The ruleset interpreted and compiled."""
    return load_on(request.param, "python"), load_on(request.param, "compiled", unoptimised=True)


@st.composite
def wild_hands(draw: st.DrawFn, rs: mjr.Ruleset) -> Hand:
    """A complete hand of the ruleset's kinds (sometimes one tile moved), with up to
    four of its tiles turned into the wildcard its indicator makes."""
    kinds = sorted(rs.kinds)
    counts = [0] * N_KINDS
    if draw(st.booleans()):
        for _ in range((rs.deal - 1) // 3):
            start = draw(st.sampled_from(kinds))
            if draw(st.booleans()) and start < 27 and start % 9 < 7 and {start + 1, start + 2} <= set(kinds):
                for kind in (start, start + 1, start + 2):
                    counts[kind] += 1
            else:
                counts[start] += 3
        counts[draw(st.sampled_from(kinds))] += 2
    else:
        for kind in draw(st.lists(st.sampled_from(kinds), min_size=7, max_size=7, unique=True)):
            counts[kind] += 2
    indicator = draw(st.sampled_from(kinds))
    probe = Hand((), (), None, Context(indicator=indicator))
    wild = [k for k in range(N_KINDS) if rs.wildcard_kinds(probe)[k]]
    if wild and draw(st.booleans()):  # a whole set of wildcards: groups made of wildcards alone
        held = [kind for kind in range(N_KINDS) for _ in range(counts[kind])]
        group = draw(st.sampled_from([k for k in range(N_KINDS) if counts[k] >= 3 and k not in wild] or [-1]))
        if group >= 0:
            counts[group] -= 3
            counts[wild[0]] += 3
    elif wild:
        held = [kind for kind in range(N_KINDS) for _ in range(counts[kind]) if kind not in wild]
        for kind in draw(st.permutations(held))[:draw(st.integers(0, 4))]:
            counts[kind] -= 1
            counts[wild[0]] += 1
    if draw(st.booleans()):  # one tile moved elsewhere, or into a wildcard
        held = [kind for kind in range(N_KINDS) if counts[kind]]
        counts[draw(st.sampled_from(held))] -= 1
        counts[draw(st.sampled_from(kinds + wild))] += 1
    tiles = [kind for kind in range(N_KINDS) for _ in range(counts[kind])]
    win = draw(st.sampled_from(tiles))
    tiles.remove(win)
    event(f"{sum(counts[k] for k in wild)} wildcards")
    return Hand(tuple(tiles), (), win, Context(indicator=indicator, win_by="self_draw", seat=1,
                                                dealer_seat=0))


def _ir(name: str) -> ir.Ruleset:
    path = Path(name) if name.endswith(".mjr") else find_source(name)
    assert path is not None
    return check_file(path)


def _evaluate(rs: mjr.Ruleset, hand: Hand) -> mjr.Result:
    try:
        return rs.evaluate(hand)
    except MjrError:  # not a hand of this ruleset (too many copies, say)
        assume(False)
        raise


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_pruned_scoring_equals_trying_every_identity(pair: tuple[mjr.Ruleset, mjr.Ruleset],
                                                     data: st.DataObject) -> None:
    interpreted, compiled = pair
    hand = data.draw(wild_hands(interpreted))
    module = interpreted.module
    assert module._ALIKE in (0, 1)
    pruned = _evaluate(interpreted, hand)
    module._ALIKE = 0
    try:
        every = _evaluate(interpreted, hand)
    finally:
        module._ALIKE = 1
    assert pruned == every
    assert pruned.groups == every.groups and pruned.wildcards == every.wildcards
    assert compiled.evaluate(hand) == every


def test_alike_identities_of_tuidaohu_are_found() -> None:
    """Tuidaohu reads suits, honours, terminals and copies: 2m-8m are alike (so
    are their pungs), 1m and 9m too, but no two honours differ in any rule either."""
    classes = identity_classes(_ir("guangdong.tuidaohu"), winning_tile=False)
    assert classes.enabled and classes.counts == 2
    assert classes.previous[2] == 1 and classes.previous[8] == 0 and classes.previous[9] == -1
    assert classes.previous[28] == 27 and classes.previous[33] == 32
    # chows: 234m (35)-678m (39) hold no terminal; 123m (34) and 789m (40) hold one,
    # in another place (a chow is compared place by place); 123p (41) has another suit
    assert classes.previous[36] == 35 and classes.previous[40] == -1 and classes.previous[41] == -1


def test_the_winning_tile_keeps_only_a_chows_edge_apart() -> None:
    """Shanghai reads the winning group (百搭单吊, 大吊车) but no rank: the pungs of a
    suit are alike, and of the chows only 1-2-3 and 7-8-9 stand apart (the wait a
    wildcard winning tile completes in them can be an edge).  Each pung kind was a
    class of its own while the winning tile kept every rank apart."""
    classes = identity_classes(_ir("shanghai"), winning_tile=True)
    assert classes.enabled
    assert classes.previous[1] == 0 and classes.previous[8] == 7 and classes.previous[9] == -1
    assert classes.previous[34] == -1 and classes.previous[36] == 35 and classes.previous[39] == 38
    assert classes.previous[40] == -1 and classes.previous[41] == -1
    assert sum(1 for ident in range(55) if classes.previous[ident] < 0) == 13
    # without the winning tile the chows of a suit are alike too
    plain = identity_classes(_ir("shanghai"), winning_tile=False)
    assert plain.previous[35] == 34 and plain.previous[40] == 39


def test_a_word_matching_groups_to_kinds_turns_the_pruning_off(tmp_path: Path) -> None:
    source = (HERE / "rulesets" / "test.wildcards.mjr").read_text(encoding="utf-8")
    source = source.replace("ruleset test.wildcards", "ruleset test.konged").replace(
        'fan pairs ', 'fan any_kong "any kong" 1 : any kinds are konged\n    fan pairs ')
    path = tmp_path / "test.konged.mjr"
    path.write_text(source, encoding="utf-8")
    classes = identity_classes(_ir(str(path)), winning_tile=False)
    assert not classes.enabled and set(classes.previous) == {-1}


@pytest.mark.parametrize("text", [
    # three wildcards (9s) left over: a pung of 9s stands as its own kind (no
    # substitute) and wins the tie over the alike pung of 1s met first
    "123m 456m 789m 5p 999s win 5p self_draw indicator 8s",
    # four wildcards: two pairs of seven, one of them making a four (豪华七对)
    "1122m 99m 33p 44s 999s win 9s self_draw indicator 8s",
])
def test_alike_identities_keep_the_tie_break(text: str) -> None:
    interpreted = load_on("guangdong.tuidaohu", "python")
    hand = mjr.parse_hand(text)
    pruned = interpreted.evaluate(hand)
    interpreted.module._ALIKE = 0
    try:
        every = interpreted.evaluate(hand)
    finally:
        interpreted.module._ALIKE = 1
    assert pruned.is_win and pruned == every
    assert load_on("guangdong.tuidaohu", "compiled").evaluate(hand) == every
