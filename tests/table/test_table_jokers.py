"""Dedicated jokers at a table of play: the wall holds them, they are dealt, drawn,
won with and on, discarded and claimed into melds as ``wildcard may_not`` lets
them, bots keep them, and logs of them replay."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from conftest import load_on, write_rulesets
from table_script import arranged_wall, play_script

import mjr
from mjr.errors import MjrError
from mjr.simulate.run import play_hand, simulate
from mjr.table.actions import Action
from mjr.table.bots import GreedyBot, distance
from mjr.table.log import replay, write_hand
from mjr.table.referee import IllegalAction, Seating, Table, unplayable
from mjr.table.wall import WALL_JOKER, Wall, full_set, parse_wall_tile, wall_tile_name

BACKENDS = ["compiled", "python"]

HEAD = """\
    claims chow pung kong
    win self_draw discard
    shapes standard
    score 2 ^ fan
    fan plain "Plain" 1 : standard
    fan wild  "Wild"  1 each : wildcards
    pay self_drawn "Self" when self_draw : each opponent pays points
    pay discarded "Discard" when discard : discarder pays points
"""
#: four jokers, no restriction on them
FREE = 'ruleset t.free "Free jokers" {\n    tiles suits(m p s) winds dragons jokers 4\n' + HEAD + "}\n"
#: two jokers that may not be discarded, punged or claimed
STRICT = ('ruleset t.strict "Strict jokers" {\n    tiles suits(m p s) winds dragons jokers 2\n'
          "    wildcard may_not discard pung claim\n" + HEAD + "}\n")
#: jokers beside a flipped wildcard (the tile after the indicator, flipped at the back)
FLIPPED = ('ruleset t.flip "Jokers and a flip" {\n    tiles suits(m p s) winds dragons jokers 4\n'
           "    wildcard indicator + 1\n    indicator_flip back\n" + HEAD + "}\n")


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_rulesets(tmp_path_factory.mktemp("table_jokers"), {"free": FREE, "strict": STRICT, "flip": FLIPPED})


def _rules(paths: dict[str, Path], name: str) -> mjr.Ruleset:
    return mjr.load(paths[name], backend="python")


def _replays(table: Table, path: Path | None = None) -> None:
    """The hand's log replays (under the file at ``path``, for a ruleset not bundled)."""
    log = io.StringIO()
    write_hand(table, log)
    assert list(replay(log.getvalue().splitlines(), None if path is None else str(path)).ledger) == table.net()


def _winner(seat: int):
    def policy(table: Table, who: int, actions: list[Action]) -> Action | None:
        return Action(who, "win") if who == seat and Action(who, "win") in actions else None
    return policy


# -- the wall ---------------------------------------------------------------------------


def test_the_wall_holds_the_jokers_written_J() -> None:
    assert parse_wall_tile("J") == WALL_JOKER and wall_tile_name(WALL_JOKER) == "J"
    assert full_set(range(34), True, 4).count(WALL_JOKER) == 4
    assert full_set(range(34), True).count(WALL_JOKER) == 0  # none unless the tile set has them
    wall = Wall.shuffled(range(34), True, 5, 0, 4)
    assert len(wall.tiles) == 148 and wall.tiles.count(WALL_JOKER) == 4


def test_a_given_wall_must_hold_the_jokers(paths: dict[str, Path]) -> None:
    rules = _rules(paths, "free")
    tiles = full_set(rules.kinds, False, 4)
    with pytest.raises(MjrError, match=r"1 missing \(J\)"):
        Table(rules, wall=tiles[:-1] + [0])
    with pytest.raises(MjrError, match=r"the wall does not hold the ruleset's tiles: 1 too many \(J\)$"):
        Table(_rules(paths, "strict"), wall=full_set(rules.kinds, False, 3))


def test_a_ruleset_with_jokers_is_playable(paths: dict[str, Path]) -> None:
    rules = mjr.load("shanghai", baida="dedicated")
    assert unplayable(rules) is None and unplayable(_rules(paths, "free")) is None
    table = Table(rules, seed=3)
    dealt = sum(player.jokers for player in table.players) + table.wall.tiles[table.wall.head:].count(WALL_JOKER)
    assert dealt == 4


# -- winning with jokers ----------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_lone_joker_wins_on_the_tile_drawn(backend: str) -> None:
    """The dealer (seat 1) is dealt four sets and a 百搭 and draws 9p: 百搭单吊,
    self-drawn, as the ruleset's example scores it (16 from each)."""
    rules = load_on("shanghai", backend, baida="dedicated")
    wall = arranged_wall(rules, {1: "234m 567m 345s 678s J"}, draws=["9p"], dealer=1)
    table = play_script(Table(rules, wall=wall, seating=Seating(dealer=1)), _winner(1))
    (win,) = table.wins
    assert (win.seat, win.method, win.tile) == (1, "self_draw", parse_wall_tile("9p"))
    assert win.result.hand.jokers == 1
    assert win.result.fan_ids == ("self_drawn", "concealed_hand", "wild_single")
    assert win.result.points == 16 and table.net() == [-16, 48, -16, -16]
    _replays(table)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_drawn_joker_is_the_winning_tile(backend: str) -> None:
    rules = load_on("shanghai", backend, baida="dedicated")
    wall = arranged_wall(rules, {1: "234m 567m 345s 678s 9p"}, draws=["1m", "J"])
    log = io.StringIO()
    table = play_script(Table(rules, wall=wall, seating=Seating(dealer=0), log=log), _winner(1))
    (win,) = table.wins
    assert (win.seat, win.method, wall_tile_name(win.tile)) == (1, "self_draw", "J")
    assert win.result.hand.win_tile == mjr.tiles.JOKER and win.result.fan_ids == ("self_drawn", "concealed_hand")
    lines = log.getvalue().splitlines()
    assert '{"seat": 1, "action": "draw", "tile": "J"}' in lines
    assert '"tile": "J"' in lines[-1]
    assert list(replay(lines).ledger) == table.net()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_discarded_joker_is_won_on(backend: str) -> None:
    """shanghai lets a 百搭 be discarded (its reading): seat 1 wins on it."""
    rules = load_on("shanghai", backend, baida="dedicated")
    wall = arranged_wall(rules, {1: "234m 567m 345s 678s 9p"}, draws=["J"])
    table = Table(rules, wall=wall, seating=Seating(dealer=0))
    table.act("draw", 0)
    assert Action(0, "discard", WALL_JOKER) in table.legal()[0]
    table.act("discard J", 0)
    assert table.legal()[1] == [Action(1, "win"), Action(1, "pass")]  # never claimed into a meld
    table.act("win", 1)
    (win,) = table.wins
    assert (win.seat, win.method, win.source, wall_tile_name(win.tile)) == (1, "discard", 0, "J")
    assert table.players[0].discards == []
    _replays(table)


# -- discards and claims under wildcard may_not -------------------------------------------


def test_a_joker_may_not_be_discarded_where_the_rules_say_so(paths: dict[str, Path]) -> None:
    rules = _rules(paths, "strict")
    wall = arranged_wall(rules, {0: "J 123m 456m 789p 11s 2s"}, draws=["E"])
    table = Table(rules, wall=wall)
    table.act("draw", 0)
    assert all(action.tile != WALL_JOKER for action in table.legal()[0])
    with pytest.raises(IllegalAction, match=r"a joker \(J\) is a wildcard, and in t.strict a wildcard may not be "
                                            r"discarded \(wildcard may_not discard\)"):
        table.act("discard J", 0)
    assert table.players[0].jokers == 1 and table.phase == "discard"


#: the dealer and two others whom a discarded 5m gives nothing to claim or win
QUIET = {0: "1m 2m 8m 3p 9p 5p 6p 2s 8s 3s 5s 6s P", 2: "1m 9m 2p 8p 3s 9s E S W N P F C",
         3: "1m 9m 2p 8p 3s 9s E S W N P F C"}


def _five_discarded(rules: mjr.Ruleset, hand: str, **others: str) -> Table:
    """Seat 1 holds ``hand``; the dealer draws a 5m and discards it."""
    hands = {**QUIET, 1: hand, **{int(seat[-1]): text for seat, text in others.items()}}
    table = Table(rules, wall=arranged_wall(rules, hands, draws=["5m"]))
    table.act("draw", 0)
    table.act("discard 5m", 0)
    return table


def test_a_joker_fills_a_claim_real_tiles_cannot(paths: dict[str, Path]) -> None:
    """Seat 1 holds one 5m and a joker: it may pung the 5m discarded, and the meld
    holds the joker in the place of a 5m."""
    table = _five_discarded(_rules(paths, "free"), "5m J 1p 4p 7p 1s 4s 7s E S W N C")
    assert table.legal() == {1: [Action(1, "pung"), Action(1, "pass")]}  # no kong: two jokers short
    table.act("pung", 1)
    (meld,) = table.players[1].melds
    assert (meld.kind, meld.tile, meld.jokers, meld.source) == ("pung", 4, (4,), "L")
    assert table.players[1].jokers == 0 and table.players[1].counts[4] == 0
    assert mjr.format_hand(mjr.Hand((), (meld,))) == "[55Jm<L]"
    _replays(play_script(table), paths["free"])


def test_real_tiles_go_into_a_claim_before_a_joker(paths: dict[str, Path]) -> None:
    table = _five_discarded(_rules(paths, "free"), "5m 5m J 4p 7p 1s 4s 7s E S W N C")
    assert table.legal() == {1: [Action(1, "pung"), Action(1, "kong"), Action(1, "pass")]}
    table.act("pung", 1)
    (meld,) = table.players[1].melds
    assert meld.jokers == () and table.players[1].jokers == 1


def test_a_chow_takes_one_joker(paths: dict[str, Path]) -> None:
    """4m and a joker chow a 5m discarded as 345m (the joker a 3m) or 456m (a 6m);
    567m would take two jokers."""
    table = _five_discarded(_rules(paths, "free"), "4m J 1p 4p 7p 1s 4s 7s E S W N C")
    assert [str(action) for action in table.legal()[1]] == ["chow 345m", "chow 456m", "pass"]
    table.act("chow 456m", 1)
    (meld,) = table.players[1].melds
    assert (meld.kind, meld.tile, meld.jokers) == ("chow", 3, (5,))
    assert table.players[1].counts[3] == 0 and table.players[1].jokers == 0
    _replays(play_script(table), paths["free"])


def test_a_claim_that_needs_a_forbidden_joker_is_not_offered(paths: dict[str, Path]) -> None:
    """wildcard may_not pung claim: a pung that would hold a joker is neither
    offered nor taken, saying why; one of real tiles is."""
    table = _five_discarded(_rules(paths, "strict"), "5m J 1p 4p 7p 1s 4s 7s E S W N C",
                            seat2="5m 5m 2p 8p 3s 9s E S W N P F C")
    assert table.legal() == {2: [Action(2, "pung"), Action(2, "pass")]}
    with pytest.raises(IllegalAction, match=r"seat 1 may not pung: the pung would take a joker \(J\) for 5m, and in "
                                            r"t.strict a wildcard may not be used to pung \(wildcard may_not pung\)"):
        table.act("pung", 1)
    table.act("pung", 2)
    assert table.players[2].melds[0].jokers == ()


def test_shanghai_never_melds_a_joker() -> None:
    """wildcard may_not chow pung kong: one 5m and a 百搭 make no pung of a 5m."""
    rules = mjr.load("shanghai", baida="dedicated")
    table = _five_discarded(rules, "5m J 1p 4p 7p 1s 4s 7s E S W N C")
    assert (table.phase, table.turn) == ("draw", 1)  # nobody was asked
    table = _five_discarded(rules, "5m J 1p 4p 7p 1s 4s 7s E S W N C", seat2="5m 5m 2p 8p 3s 9s E S W N P F C")
    assert table.legal() == {2: [Action(2, "pung"), Action(2, "pass")]}
    with pytest.raises(IllegalAction, match="in shanghai a wildcard may not be used to pung"):
        table.act("pung", 1)


def test_a_discarded_joker_is_not_claimed(paths: dict[str, Path]) -> None:
    rules = _rules(paths, "free")
    hands = {**QUIET, 1: "J J 1p 4p 7p 1s 4s 7s E S W N C", 2: "123m 456m 789m 123p 9s"}
    table = Table(rules, wall=arranged_wall(rules, hands, draws=["J"]))
    table.act("draw", 0)
    table.act("discard J", 0)
    assert table.legal() == {2: [Action(2, "win"), Action(2, "pass")]}  # a win on it, no claim
    with pytest.raises(IllegalAction, match=r"a discarded joker \(J\) names no kind: it may be won on, never "
                                            r"claimed into a meld"):
        table.act("pung", 1)


def test_a_joker_is_named_in_actions() -> None:
    assert str(Action.parse(2, "discard J")) == "discard J"
    with pytest.raises(MjrError, match="a joker has no kind of its own; a kong names the kind of its real tiles"):
        Action.parse(2, "kong J")


def test_an_added_kong_keeps_the_pungs_joker(paths: dict[str, Path]) -> None:
    rules = _rules(paths, "free")
    wall = arranged_wall(rules, {1: "5m J 1p 4p 7p 1s 4s 7s E S W N C"}, draws=["5m", "9s", "9s", "9s", "5m"])

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        wanted = [Action(1, "pung"), Action(1, "kong", parse_wall_tile("5m")), Action(1, "discard", 33)]
        return next((action for action in wanted if seat == 1 and action in actions), None)

    table = Table(rules, wall=wall)
    while not table.players[1].melds or table.players[1].melds[0].kind != "kong":
        seat, actions = min(table.legal().items())
        table.act(policy(table, seat, actions) or next(a for a in actions if a.kind in ("draw", "pass", "discard")))
    (meld,) = table.players[1].melds
    assert (meld.kind, meld.added, meld.jokers) == ("kong", True, (4,))
    _replays(play_script(table), paths["free"])


# -- a flipped wildcard beside jokers -------------------------------------------------------


def test_a_joker_flipped_as_the_indicator_is_set_aside(paths: dict[str, Path]) -> None:
    """A joker names no kind: where the indicator is flipped it is set aside, as a
    flower is, and the next tile flipped."""
    rules = _rules(paths, "flip")
    wall = arranged_wall(rules, {}, draws=[], back=["J", "4p"])
    assert wall[-2:] == [parse_wall_tile("4p"), WALL_JOKER]
    table = Table(rules, wall=wall)
    assert table.set_aside == [WALL_JOKER] and table.indicator == parse_wall_tile("4p")
    assert table.wild == frozenset({parse_wall_tile("5p"), WALL_JOKER})
    _replays(play_script(table), paths["flip"])


# -- bots and simulations ---------------------------------------------------------------------


def test_the_greedy_bot_keeps_its_jokers(paths: dict[str, Path]) -> None:
    rules = _rules(paths, "free")
    wall = arranged_wall(rules, {0: "J 19m 19p 19s E S W N P F"}, draws=["C"])
    table = Table(rules, wall=wall)
    table.act("draw", 0)
    bot = GreedyBot(1)
    choice = bot(table, 0, table.legal()[0])
    assert choice.kind == "discard" and choice.tile != WALL_JOKER


def test_a_joker_counts_a_step_nearer_a_win() -> None:
    hand = mjr.parse_hand("123m 456m 789m 1p 5s 9s J")
    counts = list(hand.concealed_counts())
    assert distance(counts, 0) == 2  # three sets and three lone tiles
    assert distance(counts, 0, jokers=hand.jokers) == 1  # the joker pairs a lone tile: one step from ready


def _check_tiles(table: Table) -> None:
    for seat, player in enumerate(table.players):
        size = player.held + 3 * len(player.melds)
        acting = table.phase == "discard" and seat == table.turn
        assert size == table.ruleset.deal + (1 if acting else 0)
        assert player.jokers >= 0


@pytest.mark.parametrize("name", ["free", "strict", "flip"])
def test_whole_hands_with_jokers_replay(paths: dict[str, Path], name: str) -> None:
    """Bots, random and greedy, play hands with jokers; every log replays and
    every seat always holds its tiles."""
    rules = _rules(paths, name)
    from mjr.table.bots import RandomBot

    jokers_melded = 0
    for number in range(12):
        bots = [RandomBot(number * 4 + seat) if number % 2 else GreedyBot(number * 4 + seat) for seat in range(4)]
        table = Table(rules, seed=number, seating=Seating(dealer=number % 4))
        while not table.over:
            seat, actions = min(table.legal().items())
            table.act(bots[seat](table, seat, actions))
            _check_tiles(table)
        jokers_melded += sum(len(meld.jokers) for player in table.players for meld in player.melds)
        assert sum(table.net()) == 0
        _replays(table, paths[name])
    if name == "free":
        assert jokers_melded > 0  # random players claim with jokers
    if name == "strict":
        assert jokers_melded == 0


def test_a_simulation_of_dedicated_jokers_replays_hand_by_hand() -> None:
    report = simulate("shanghai", 24, seed=5, options={"baida": "dedicated"}, workers=1)
    assert report.tally.hands == 24 and not report.tally.zero_sum_failures and not report.tally.tile_count_failures
    rules = mjr.load("shanghai", baida="dedicated")
    for index in range(24):
        _replays(play_hand(rules, "greedy", 5, index))


ROBBING = """ruleset t.robbing "Jokers in a robbed pung" {
    tiles suits(m p s) jokers 8
    claims chow(left) pung kong
    fan chicken "Chicken" 1 : standard
    pay self_drawn "Self-drawn" when self_draw : each opponent pays points
    pay discarded "Discard" when discard or robbing_kong : discarder pays points
}
"""


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_a_robbed_pung_may_hold_jokers(tmp_path: Path, backend: str) -> None:
    """Where jokers may fill a claimed pung, the robbed player's pung may hold one
    real copy of the robbed tile: the robber may hold the other two.  Without
    wildcards the pung holds three, and a hand holding two more is impossible."""
    path = tmp_path / "robbing.mjr"
    path.write_text(ROBBING, encoding="utf-8")
    rules = load_on(path, backend, unoptimised=True)
    hand = "77p 123m 456m 789m 99p win 7p robbing_kong from L"
    assert rules.evaluate(hand).is_win
    with pytest.raises(mjr.HandError, match=r"5 copies of 7p \(with the one in the robbed player's pung"):
        rules.evaluate("777p 123m 456m 789m 9p win 7p robbing_kong from L")
    with pytest.raises(mjr.HandError, match=r"6 copies of 7p \(with the three in the robbed player's pung\)"):
        load_on("guangdong.jipinghu", backend).evaluate(hand)
    report = simulate(path, 200, seed=3, bot="random", workers=1)  # (a table once offered such a rob, and failed)
    assert report.tally.hands == 200 and not report.tally.zero_sum_failures
