"""Riichi played at a table, from the rules of play of japan.riichi.mjr: red fives
dealt, the tiles ``reveal`` turns up (dora and ura dora), a declaration with its
stake (``declare``: riichi, double riichi, ippatsu, the lock, riichi furiten), the
deposits on the table taken by the next winner, furiten on a player's own discards,
the shared payments of an exhaustive draw, and honba and sticks carried to the next
hand; then whole sessions of four and of three players, zero-sum and replayed."""

from __future__ import annotations

import io

import pytest
from conftest import load_on
from table_script import arranged_wall, play_script

import mjr
from mjr.errors import IllegalAction
from mjr.simulate import simulate
from mjr.table.actions import Action
from mjr.table.bots import GreedyBot
from mjr.table.log import replay
from mjr.table.referee import Table
from mjr.table.seats import Seating
from mjr.table.session import Session
from mjr.table.state import ON_TABLE, Payment
from mjr.tiles.kinds import parse_tile

BACKENDS = ("compiled", "python")
#: The dealer's hand: ready on 5p once it lets a tile go.
READY = "123m 456m 789m 234p 5p"
#: Four kong replacements kept at the back, then the dora indicator 1s with the ura
#: indicator 3m under it, then the indicators a kong would turn up.
BACK = ["9m", "9m", "8m", "8m", "1s", "3m", "7s", "7s"]


@pytest.fixture(scope="module", params=BACKENDS)
def riichi(request: pytest.FixtureRequest) -> mjr.Ruleset:
    return load_on("japan.riichi", request.param)


def table_of(ruleset: mjr.Ruleset, hands: dict[int, str], draws: list[str], seating: Seating | None = None,
             log: io.StringIO | None = None) -> Table:
    wall = arranged_wall(ruleset, hands, draws, BACK, seed=5)
    return Table(ruleset, wall=wall, seating=seating, log=log)


def declare_and_pass(table: Table, tile: str) -> None:
    """The dealer draws and declares with ``tile``; the others let it pass."""
    table.act(Action(0, "draw"))
    table.act(Action(0, "declare", parse_tile(tile)))
    while table.phase == "claim":
        seat = min(table.legal())
        table.act(Action(seat, "pass"))


# -- the declaration ------------------------------------------------------------------


def test_a_declaration_is_offered_only_with_a_discard_that_leaves_the_hand_ready(riichi: mjr.Ruleset) -> None:
    table = table_of(riichi, {0: READY}, ["9s"])
    table.act(Action(0, "draw"))
    declares = sorted(str(action) for action in table.legal()[0] if action.kind == "declare")
    assert declares == ["declare 2p", "declare 5p", "declare 9s"]  # 345p and 9s; 234p and 9s; 234p and 5p
    with pytest.raises(IllegalAction, match="may not declare 1m now"):
        table.act(Action(0, "declare", parse_tile("1m")))


def test_a_declaration_stands_once_its_discard_passes_and_puts_its_stake_on_the_table(riichi: mjr.Ruleset) -> None:
    table = table_of(riichi, {0: READY}, ["9s", "E", "S", "W", "5p"])
    declare_and_pass(table, "9s")
    player = table.players[0]
    assert player.declared is not None and player.locked
    assert player.declared_fact == "double_riichi"  # the dealer's first turn, no call before it
    assert table.payments == [Payment(0, ON_TABLE, 1000, "riichi", "立直")]
    assert table.deposits == 1000 and table.net() == [-1000, 0, 0, 0]
    play_script(table, lambda t, seat, actions: Action(seat, "win") if Action(seat, "win") in actions else None)
    (win,) = table.wins
    fans = {fan.id for fan in win.result.fans}
    assert {"double_win", "ippatsu_win", "menzen_tsumo"} <= fans and "riichi_win" not in fans
    facts = dict(win.result.hand.context.facts)
    assert facts["dora_indicators"] == (parse_tile("1s"),)
    assert facts["ura_indicators"] == (parse_tile("3m"),)  # under the dora indicator: the winner declared
    assert facts["riichi_sticks"] == 1
    # its own stick comes back from the table with the tsumo
    assert Payment(ON_TABLE, 0, 1000, "kyoutaku", "供託") in table.payments
    assert table.deposits == 0 and sum(table.net()) == 0
    assert table.outcome is not None and table.outcome.next_seating.repeats == 1  # the dealer won


def test_a_declared_hand_discards_what_it_draws(riichi: mjr.Ruleset) -> None:
    table = table_of(riichi, {0: READY}, ["9s", "E", "S", "W", "1p"])
    declare_and_pass(table, "9s")
    for seat in (1, 2, 3):
        table.act(Action(seat, "draw"))
        table.act(Action(seat, "discard", table.drawn))
        while table.phase == "claim":
            table.act(Action(min(table.legal()), "pass"))
    table.act(Action(0, "draw"))
    assert table.legal() == {0: [Action(0, "discard", parse_tile("1p"))]}


def test_a_ron_on_the_declaring_discard_voids_the_declaration(riichi: mjr.Ruleset) -> None:
    table = table_of(riichi, {0: READY, 1: "123m 456p 789p 234s 9s"}, ["9s"])
    table.act(Action(0, "draw"))
    table.act(Action(0, "declare", parse_tile("9s")))
    assert Action(1, "win") in table.legal()[1]
    table.act(Action(1, "win"))
    while not table.over:
        seat = min(table.legal())
        table.act(Action(seat, "pass"))
    assert table.players[0].declared is None
    assert all(payment.clause != "riichi" for payment in table.payments)
    assert table.deposits == 0


def test_a_declaration_on_a_later_turn_is_riichi_and_a_call_ends_ippatsu(riichi: mjr.Ruleset) -> None:
    table = table_of(riichi, {0: READY, 2: "9s9s 1p1p 2s2s 3s3s 6p6p 7p7p 8p"}, ["N", "E", "S", "W", "9s", "C", "5p"])
    nine = parse_tile("9s")

    def policy(t: Table, seat: int, actions: list[Action]) -> Action | None:
        wanted = [Action(0, "win"), Action(0, "declare", nine), Action(2, "pung"),
                  Action(2, "discard", parse_tile("8p"))]
        return next((action for action in wanted if action in actions and (action.seat != 2 or t.drawn is None)), None)

    play_script(table, policy)
    assert table.players[0].declared_fact == "riichi"  # not its first turn
    assert table.players[2].melds  # the pung of the declaring discard: the declaration stands all the same
    (win,) = table.wins
    fans = {fan.id for fan in win.result.fans}
    assert "riichi_win" in fans and "ippatsu_win" not in fans and "double_win" not in fans


# -- furiten -----------------------------------------------------------------------------


@pytest.mark.parametrize("let_go", ["8p", "C"])
def test_a_hand_waiting_on_its_own_discard_may_not_ron(riichi: mjr.Ruleset, let_go: str) -> None:
    # seat 1 waits on 5p-8p (pinfu, ittsu); having let an 8p go, a 5p discarded is no win for it
    table = table_of(riichi, {1: "123m 456m 789m 67p 8p8p", 2: "1z1z1z 2z2z2z 3z3z3z 4z4z 5z 5p"}, ["E", let_go, "S"])
    for seat, tile in ((0, "E"), (1, let_go), (2, "5p")):
        while table.phase == "claim":
            table.act(Action(min(table.legal()), "pass"))
        table.act(Action(seat, "draw"))
        table.act(Action(seat, "discard", parse_tile(tile)))
    offered = Action(1, "win") in table.legal().get(1, [])
    assert offered == (let_go != "8p")
    assert table.players[1].discarded == {parse_tile(let_go)}


def test_a_win_passed_up_after_a_declaration_bars_every_ron_but_not_a_tsumo(riichi: mjr.Ruleset) -> None:
    five = parse_tile("5p")
    table = table_of(riichi, {0: READY, 1: "1z1z1z 2z2z2z 3z3z3z 4z4z 5z 5p", 2: "1p1p1p 2s2s2s 3s3s3s 4s4s 5s 0p"},
                     ["9s", "E", "S", "W", "5p"])
    offered: list[int] = []

    def policy(t: Table, seat: int, actions: list[Action]) -> Action | None:
        if seat == 0 and t.phase == "claim" and Action(0, "win") in actions:
            offered.append(t.offer[0])  # type: ignore[index]
            return Action(0, "pass")
        wanted = [Action(0, "declare", parse_tile("9s")), Action(0, "win"), Action(seat, "discard", five)]
        return next((action for action in wanted if action in actions and action.seat == seat), None)

    play_script(table, policy)
    assert offered == [1]  # seat 1's 5p, passed up; seat 2's 5p was offered no more
    assert table.players[0].barred
    (win,) = table.wins
    assert win.seat == 0 and win.method == "self_draw"


def turn(table: Table, seat: int, tile: str) -> None:
    """Every answer to the tile on offer passes; then ``seat`` draws and lets ``tile`` go."""
    while table.phase in ("claim", "rob"):
        table.act(Action(min(table.legal()), "pass"))
    table.act(Action(seat, "draw"))
    table.act(Action(seat, "discard", parse_tile(tile)))


def test_furiten_counts_a_discarded_tile_that_would_score_nothing(riichi: mjr.Ruleset) -> None:
    # seat 1 waits on 6p (tanyao) and 9p (no yaku on a ron); having let a 9p go, it may not ron the 6p
    table = table_of(riichi, {1: "222m 567p 345s 66s 78p"}, ["E", "9p", "6p"])
    turn(table, 0, "E")
    turn(table, 1, "9p")
    turn(table, 2, "6p")
    assert 1 not in table.legal()


def test_passing_a_tile_that_would_score_nothing_is_furiten_until_the_next_discard(riichi: mjr.Ruleset) -> None:
    table = table_of(riichi, {1: "222m 567p 345s 66s 78p", 2: "1z1z1z 2z2z2z 3z3z3z 4z4z 9p 6p",
                              3: "5z5z5z 6z6z6z 7z7z 1s1s9s9s 6p"},
                     ["E", "N", "S", "W"])
    turn(table, 0, "E")
    turn(table, 1, "N")
    turn(table, 2, "9p")  # completes seat 1's hand with no yaku: no win offered, and seat 1 is furiten
    assert table.players[1].banned == set()
    turn(table, 3, "6p")
    assert 1 not in table.legal()  # a 6p would score (tanyao), but not before seat 1's next discard


def test_an_open_hand_ready_without_a_yaku_is_ready_at_the_draw(riichi: mjr.Ruleset) -> None:
    from mjr.table.close import is_ready

    table = table_of(riichi, {1: "23m 345p 789s 22s 67s E"}, ["1m"])
    table.act(Action(0, "draw"))
    table.act(Action(0, "discard", parse_tile("1m")))
    table.act(Action(1, "chow", parse_tile("1m")))
    while table.phase == "claim":
        table.act(Action(min(table.legal()), "pass"))
    table.act(Action(1, "discard", parse_tile("E")))
    assert not riichi.waits(table.hand_of(1, None, "self_draw"))  # no yaku on 5s or 8s ...
    assert is_ready(table.state, 1)  # ... and ready all the same (形式聴牌)
    assert [w.tile for w in riichi.ready_tiles(table.hand_of(1, None, "self_draw"))] == ["5s", "8s"]


def test_a_hand_has_at_most_four_kongs(riichi: mjr.Ruleset) -> None:
    back = ["4m", "4m", "4m", "9p", "1s", "2s", "7s", "7s", "6s", "6s", "5s", "5s", "8s", "8s"]
    wall = arranged_wall(riichi, {0: "1111m 2222m 3333m 4m", 1: "NNNN 123p 456p 78p 9s"}, ["C", "P"], back, seed=5)
    table = Table(riichi, wall=wall)
    table.act(Action(0, "draw"))
    for kind in ("1m", "2m", "3m", "4m"):
        table.act(Action(0, "kong", parse_tile(kind)))
    assert len(table.revealed) == 5
    table.act(Action(0, "discard", parse_tile("C")))
    while table.phase == "claim":
        table.act(Action(min(table.legal()), "pass"))
    table.act(Action(1, "draw"))
    assert Action(1, "kong", parse_tile("N")) not in table.legal()[1]  # four kongs made: no fifth


def test_a_kong_replacement_drawn_last_is_rinshan_not_haitei(riichi: mjr.Ruleset) -> None:
    result = riichi.evaluate("234m 456p 22s 34s (1111m) win 5s self_draw after_kong last_tile "
                             "seat S round E dealer E dora_indicators 9p")
    assert [fan.id for fan in result.fans if fan.id in ("rinshan", "haitei")] == ["rinshan"]


def test_the_rules_of_play_spell_the_new_statements(riichi: mjr.Ruleset) -> None:
    rules = riichi.play
    assert rules.own_discards and rules.missed_win == "any_tile"
    assert rules.reveal is not None and (rules.reveal.count, rules.reveal.per_kong, rules.reveal.after) == (1, True, 4)
    (declaration,) = rules.declarations
    assert (declaration.stake, declaration.closed, declaration.wall, declaration.locks) == (1000, True, 4, True)
    assert (declaration.first_turn, declaration.next_turn, declaration.missed_win_bars) == (
        "double_riichi", "ippatsu", True)
    (noten,) = rules.draw_checks
    assert noten.shared and noten.amount == 3000
    assert dict((ident, source) for ident, source, _ in rules.fact_sources) == {
        "honba": "repeats", "riichi_sticks": "deposits", "dora_indicators": "revealed",
        "ura_indicators": "under_revealed"}


# -- red fives and revealed tiles ------------------------------------------------------------


def test_red_fives_are_dealt_kept_last_and_scored(riichi: mjr.Ruleset) -> None:
    log = io.StringIO()
    table = table_of(riichi, {0: "123m 456m 789m 234p 0p"}, ["5p"], log=log)
    player = table.players[0]
    assert player.red == [parse_tile("5p")]
    table.act(Action(0, "draw"))
    assert '"tile": "5p"' in log.getvalue()
    table.act(Action(0, "discard", parse_tile("5p")))  # the plain copy goes; the red one stays
    assert player.red == [parse_tile("5p")] and player.counts[parse_tile("5p")] == 1
    hand = table.hand_of(0, parse_tile("5p"), "self_draw")
    assert hand.red == (parse_tile("5p"),)


def test_a_kong_reveals_one_more_tile(riichi: mjr.Ruleset) -> None:
    table = table_of(riichi, {0: "1111m 456m 789m 23p 5p"}, ["9s"])
    assert table.revealed == (parse_tile("1s"),)
    table.act(Action(0, "draw"))
    table.act(Action(0, "kong", parse_tile("1m")))
    assert table.revealed == (parse_tile("1s"), parse_tile("7s"))
    assert table.drawn == parse_tile("9m")  # the first replacement kept at the back


def test_a_full_wall_holds_one_red_five_of_each_suit_in_play() -> None:
    from mjr.table.wall import RED_BASE, full_set

    four, three = mjr.load("japan.riichi"), mjr.load("japan.riichi", players=3)
    tiles = full_set(four.kinds, False, 0, four.red_kinds)
    assert len(tiles) == 136 and [tile for tile in tiles if tile >= RED_BASE] == [RED_BASE, RED_BASE + 1,
                                                                                  RED_BASE + 2]
    assert three.red_kinds == {parse_tile("5p"), parse_tile("5s")}  # no 5m at a table of three


# -- the close of a hand --------------------------------------------------------------------


def test_an_exhaustive_draw_shares_3000_from_the_players_not_ready_to_those_ready(riichi: mjr.Ruleset) -> None:
    table = table_of(riichi, {0: READY}, [])
    play_script(table)  # everyone discards what they draw, passes every discard, never wins
    assert table.outcome is not None and table.outcome.drawn
    ready = table.outcome.ready
    assert ready[0]
    payers, payees = [s for s in range(4) if not ready[s]], [s for s in range(4) if ready[s]]
    noten = [p for p in table.payments if p.clause == "noten"]
    share = 3000 // (len(payers) * len(payees)) if payers else 0
    assert sorted((p.payer, p.payee, p.amount) for p in noten) == sorted(
        (payer, payee, share) for payer in payers for payee in payees)
    assert table.outcome.next_seating.repeats == 1 and table.outcome.next_seating.dealer == 0


def test_sticks_left_on_the_table_go_to_the_next_hand_and_its_winner(riichi: mjr.Ruleset) -> None:
    first = table_of(riichi, {0: READY}, ["9s"])
    declare_and_pass(first, "9s")
    play_script(first)  # never won: the hand is drawn, the stick stays on the table
    seating = first.outcome.next_seating  # type: ignore[union-attr]
    assert seating.deposits == 1000 and seating.repeats == 1
    second = table_of(riichi, {1: "123m 456m 789m 234p 5p"}, ["E", "5p"], seating=seating)
    assert second.deposits == 1000
    second.act(Action(0, "draw"))
    second.act(Action(0, "discard", parse_tile("E")))
    while second.phase == "claim":
        second.act(Action(min(second.legal()), "pass"))
    second.act(Action(1, "draw"))
    second.act(Action(1, "win"))
    (win,) = second.wins
    assert dict(win.result.hand.context.facts)["riichi_sticks"] == 1
    assert dict(win.result.hand.context.facts)["honba"] == 1
    assert Payment(ON_TABLE, 1, 1000, "kyoutaku", "供託") in second.payments
    assert second.deposits == 0
    assert second.outcome is not None and second.outcome.next_seating.repeats == 0  # a non-dealer won


# -- whole hands ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 3])
def test_a_riichi_session_is_zero_sum_and_replays(players: int) -> None:
    ruleset = mjr.load("japan.riichi", players=players)
    log = io.StringIO()
    session = Session(ruleset, seed=3, log=log)
    ledger = session.play([GreedyBot(seat) for seat in range(players)], 12)
    assert sum(ledger) + session.seating.deposits == 0
    assert '"action": "declare' in log.getvalue()
    assert replay(log.getvalue().splitlines()).ledger == tuple(ledger)


@pytest.mark.parametrize("players", [4, 3])
def test_simulating_riichi_is_deterministic_and_zero_sum(players: int) -> None:
    runs = [simulate("japan.riichi", 24, seed=7, workers=1, options={"players": players}) for _ in range(2)]
    assert runs[0].to_json(timings=False) == runs[1].to_json(timings=False)
    assert not runs[0].tally.zero_sum_failures and not runs[0].tally.tile_count_failures
    assert runs[0].tally.clause_hands["riichi"] > 0


# -- abortive draws (the option abortive) ---------------------------------------------------


@pytest.fixture(scope="module")
def aborting() -> mjr.Ruleset:
    return mjr.load("japan.riichi", abortive=True)


def test_nine_kinds_may_be_called_on_the_first_turn_and_end_the_hand(aborting: mjr.Ruleset) -> None:
    log = io.StringIO()
    table = table_of(aborting, {0: "19m 19p 19s E S W N 2m3m4m"}, ["5m"], seating=Seating(repeats=2), log=log)
    table.act(Action(0, "draw"))
    assert Action(0, "abort") in table.legal()[0]
    table.act(Action(0, "abort"))
    assert table.over and table.outcome is not None and table.outcome.aborted == "kyuushu"
    assert table.payments == [] and table.outcome.drawn
    seating = table.outcome.next_seating
    assert (seating.dealer, seating.repeats) == (0, 3)  # the dealer keeps the deal; one more honba
    assert '"aborted": "kyuushu"' in log.getvalue()
    assert replay(log.getvalue().splitlines()).hands == 1


def test_eight_kinds_call_no_abortive_draw(aborting: mjr.Ruleset) -> None:
    table = table_of(aborting, {0: "19m 19p 19s E S 2m3m4m 5m6m"}, ["7m"])
    table.act(Action(0, "draw"))
    assert Action(0, "abort") not in table.legal()[0]


def test_four_first_discards_of_one_wind_abort_the_hand(aborting: mjr.Ruleset) -> None:
    table = table_of(aborting, {0: READY, 1: "123m 456m 789s 22p 3p3p"}, ["E", "E", "E", "E"])
    for seat in range(4):
        while table.phase == "claim":
            table.act(Action(min(table.legal()), "pass"))
        table.act(Action(seat, "draw"))
        table.act(Action(seat, "discard", parse_tile("E")))
    while table.phase == "claim":
        table.act(Action(min(table.legal()), "pass"))
    assert table.outcome is not None and table.outcome.aborted == "suufon"


def test_every_riichi_and_four_kongs_by_two_players_abort_the_hand(aborting: mjr.Ruleset) -> None:
    from mjr.hand.model import Meld
    from mjr.table.close import abort_after_discard

    table = Table(aborting, seed=1)
    state = table.state
    for player in state.players:
        player.declared = aborting.play.declarations[0]
    assert abort_after_discard(state) == "suucha"
    for player in state.players:
        player.declared = None
    state.kongs = 4
    state.players[0].melds = [Meld("kong", parse_tile("1m"), concealed=True)] * 3
    assert abort_after_discard(state) == ""  # one player's four kongs go on (四槓子)
    state.players[1].melds = [Meld("kong", parse_tile("E"), concealed=True)]
    assert abort_after_discard(state) == "suukaikan"


def test_without_the_option_nothing_aborts(riichi: mjr.Ruleset) -> None:
    table = table_of(riichi, {0: "19m 19p 19s E S W N 2m3m4m"}, ["5m"])
    table.act(Action(0, "draw"))
    assert Action(0, "abort") not in table.legal()[0]


def test_nagashi_mangan_is_paid_as_a_tsumo_where_the_option_is_on() -> None:
    from mjr.table.close import close_hand

    table = Table(mjr.load("japan.riichi", nagashi=True), seed=1)
    state = table.state
    for seat, discards in enumerate(("2m 5p", "1m 9p E C", "3s 4s", "6m 7m")):
        state.players[seat].discards = [parse_tile(word) for word in discards.split()]
    nagashi = sorted((p.payer, p.payee, p.amount) for p in close_hand(state, drawn=True).closing
                     if p.clause == "nagashi")
    assert nagashi == [(0, 1, 4000), (2, 1, 2000), (3, 1, 2000)]  # the dealer pays double
    state.feeds.append((2, 1, 1))  # one of seat 1's discards was called: no nagashi
    assert not [p for p in close_hand(state, drawn=True).closing if p.clause == "nagashi"]


def test_thirteen_orphans_alone_may_rob_a_concealed_kong(riichi: mjr.Ruleset) -> None:
    table = table_of(riichi, {0: "1111m 456m 789m 23p 5p", 1: "9m 19p 19s ESWNPF CC", 2: "23m 456p 789p 234s 55s"},
                     ["9s"])
    table.act(Action(0, "draw"))
    table.act(Action(0, "kong", parse_tile("1m")))
    assert table.phase == "rob" and table.legal() == {1: [Action(1, "win"), Action(1, "pass")]}  # not seat 2
    table.act(Action(1, "win"))
    (win,) = table.wins
    assert win.method == "robbing_kong" and win.result.shape == "thirteen_orphans"


def test_a_concealed_kong_nobody_robs_stands(riichi: mjr.Ruleset) -> None:
    table = table_of(riichi, {0: "1111m 456m 789m 23p 5p", 1: "9m 19p 19s ESWNPF CC"}, ["9s"])
    table.act(Action(0, "draw"))
    table.act(Action(0, "kong", parse_tile("1m")))
    table.act(Action(1, "pass"))
    assert table.players[0].melds[-1].concealed and table.drawn == parse_tile("9m")
    assert table.players[1].banned is not None  # a passed win, as on a discard: furiten until its next discard
