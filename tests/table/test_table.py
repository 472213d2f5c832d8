"""mjr.Table: hands of play under every bundled ruleset, played by bots.

Every step keeps the tiles whole; every win scores as ``evaluate`` scores its hand;
every hand's payments sum to zero; and the log of every hand replays to the same
ledger.  ``MJR_TABLE_HANDS`` sets how many hands each ruleset plays (the default, 120,
suits CI; ``MJR_TABLE_HANDS=100000 pytest tests/table/test_table.py -k every_ruleset``
is the long run).  A variant file (one that ``extends`` another) plays a quarter as
many: most of its rules of play are its parent's, which plays them in full.
Interpreted (no C compiler) every ruleset plays a sixth as many again.  With the
defaults CI plays 1,380 hands here compiled and 280 interpreted (9 rulesets of
their own, 10 variants).
"""

from __future__ import annotations

import ast
import io
import os
import random

import pytest

import mjr
from fuzz.table_target import table_state
from mjr.errors import LogError, MjrError
from mjr.table import IllegalAction, Seating, Table, unplayable
from mjr.table.actions import Action
from mjr.table.bots import GreedyBot, RandomBot, play_out
from mjr.table.log import replay
from mjr.table.session import Session, hand_seed
from mjr.table.state import Offer, Phase, TurnTile
from mjr.table.wall import full_set

HANDS = int(os.environ.get("MJR_TABLE_HANDS", "120"))


def hands_to_play(ruleset: mjr.Ruleset) -> int:
    """A variant (a file that ``extends`` another) plays a quarter as many hands as a
    ruleset of its own; interpreted (no C compiler), where a hand takes four to seven
    times as long, a sixth as many (at least 10)."""
    hands = HANDS // 4 if len(ruleset.generated.files) > 1 else HANDS
    return hands if ruleset.backend == "compiled" else max(10, hands // 6)


def _tiles_in_play(table: Table) -> int:
    """Every tile the table accounts for: hands, melds, flowers (and tiles set aside), discards, the wall,
    the indicator taken out of play and the flowers flipped before it, the tiles won
    on, an added kong's tile on offer, and the tiles ``reveal`` sets in the dead wall."""
    held = sum(p.held + sum(len(m.tiles) for m in p.melds) + len(p.flowers) + len(p.aside) + len(p.discards)
               for p in table.players)
    indicator_out = table.indicator is not None and not table.ruleset.indicator_in_play
    taken = round(sum(1 / win.winners for win in table.wins if win.method != "self_draw"))  # one tile, k winners
    self_drawn = sum(1 for win in table.wins if win.method == "self_draw")
    robbable = table.phase == "rob"  # the tile of an added kong, on offer to be robbed
    set_aside = len(table.set_aside) + len(table.state.revealable) + len(table.state.under)
    return held + (table.wall.tail - table.wall.head) + indicator_out + set_aside + taken + self_drawn + robbable


def _check_step(table: Table, total: int) -> None:
    assert _tiles_in_play(table) == total
    for seat, player in enumerate(table.players):
        size = player.held + 3 * len(player.melds)
        acting = table.phase == "discard" and seat == table.turn
        assert size == table.ruleset.deal + (1 if acting else 0), (seat, table.phase, size)
    if not table.over:
        assert table.legal() and all(table.legal().values())


def _play_checked(table: Table, bots: list) -> Table:
    total = len(full_set(table.ruleset.kinds | table.ruleset.aside_kinds, table.ruleset.has_flowers,
                         table.ruleset.jokers, table.ruleset.red_kinds))
    _check_step(table, total)
    while not table.over:
        seat, actions = min(table.legal().items())
        table.act(bots[seat](table, seat, actions))
        _check_step(table, total)
    return table


@pytest.mark.parametrize("ident", mjr.bundled_ids())
def test_every_ruleset_plays_whole_hands(ident: str) -> None:
    """Every bundled ruleset a table plays, every tile accounted for at every step,
    every hand zero-sum (the deposits on the table one of its parties) and replayed."""
    ruleset = mjr.load(ident)
    assert unplayable(ruleset) is None
    wins = 0
    for number in range(hands_to_play(ruleset)):
        log = io.StringIO()
        seed = hand_seed(7, number)
        bots = [GreedyBot(seed + seat) if number % 4 else RandomBot(seed + seat) for seat in range(ruleset.seats)]
        seating = Seating(dealer=number % ruleset.seats)
        table = _play_checked(Table(ruleset, seed=seed, seating=seating, log=log), bots)
        assert sum(table.net()) + table.deposits - seating.deposits == 0
        for win in table.wins:
            again = ruleset.evaluate(win.result.hand)
            assert (again.points, again.fans) == (win.result.points, win.result.fans)
            wins += 1
        report = replay(log.getvalue().splitlines())
        assert list(report.ledger) == table.net()
    assert wins > 0, f"{ident}: the bots never won in {number + 1} hands"


# -- illegal actions leave the table unchanged ---------------------------------------------


@pytest.fixture(scope="module")
def jipinghu() -> mjr.Ruleset:
    return mjr.load("guangdong.jipinghu")


def _refused(table: Table, action: Action | str, seat: int | None, reason: str) -> None:
    before = table_state(table)
    with pytest.raises(IllegalAction, match=reason):
        table.act(action, seat)
    assert table_state(table) == before


def test_acting_out_of_turn_is_refused(jipinghu: mjr.Ruleset) -> None:
    table = Table(jipinghu, seed=1)
    _refused(table, "draw", 2, "seat 2 may not act now: waiting for seat 0")


def test_a_tile_not_held_cannot_be_discarded(jipinghu: mjr.Ruleset) -> None:
    table = Table(jipinghu, seed=1)
    table.act("draw", 0)
    missing = next(kind for kind in range(34) if table.players[0].counts[kind] == 0)
    _refused(table, Action(0, "discard", missing), None, "may not discard .* now; it may: discard")


def test_an_unknown_tile_or_action_is_named(jipinghu: mjr.Ruleset) -> None:
    table = Table(jipinghu, seed=1)
    table.act("draw", 0)
    with pytest.raises(MjrError, match="unknown tile '5x'"):
        table.act("discard 5x", 0)
    with pytest.raises(MjrError, match="unknown action 'throw 5m'"):
        table.act("throw 5m", 0)
    with pytest.raises(MjrError, match="three tiles in a row, e.g. 'chow 345m', not '357m'"):
        table.act("chow 357m", 0)


def test_a_chow_is_only_open_to_the_next_player(jipinghu: mjr.Ruleset) -> None:
    """鸡平胡 §2.1: only the discarder's 下家 may chow."""
    for seed in range(200):
        table = Table(jipinghu, seed=seed)
        table.act("draw", 0)
        for action in table.legal()[0]:
            if action.kind != "discard":
                continue
            trial = Table(jipinghu, seed=seed)
            trial.act("draw", 0)
            trial.act(action)
            chows = {seat for seat, acts in trial.legal().items() if any(a.kind == "chow" for a in acts)}
            if chows:
                assert chows == {1}
                return
    pytest.fail("no chow came up")


def test_after_the_end_nothing_is_legal(jipinghu: mjr.Ruleset) -> None:
    table = play_out(Table(jipinghu, seed=3), [GreedyBot(seat) for seat in range(4)])
    assert table.legal() == {}
    with pytest.raises(IllegalAction, match="the hand is over"):
        table.act("draw", 0)


def test_a_given_wall_must_hold_the_tile_set(jipinghu: mjr.Ruleset) -> None:
    wall = full_set(jipinghu.kinds, False)
    wall[0] = wall[-1]
    with pytest.raises(MjrError, match=r"1 too many \(7z\); 1 missing \(1m\)"):
        Table(jipinghu, wall=wall)


def test_a_given_wall_deals_in_order(jipinghu: mjr.Ruleset) -> None:
    wall = full_set(jipinghu.kinds, False)
    table = Table(jipinghu, wall=wall)
    # four tiles round by round: seat 0 gets tiles 0, 4, 8, ...: 1m 2m 3m ...
    assert table.players[0].tiles()[:3] == (0, 1, 2)


# -- sessions --------------------------------------------------------------------------


def test_a_session_keeps_a_ledger_and_passes_the_deal(jipinghu: mjr.Ruleset) -> None:
    session = Session(jipinghu, seed=5)
    session.play([GreedyBot(seat) for seat in range(4)], hands=8)
    assert sum(session.ledger) == 0
    assert session.ledger == [sum(t.net()[seat] for t in session.hands) for seat in range(4)]
    for before, after in zip(session.hands, session.hands[1:], strict=False):
        assert after.seating == before.outcome.next_seating
        # 鸡平胡 §2.1: the dealer keeps the deal on a draw or his own win, else it passes to his 下家
        dealer = before.seating.dealer
        kept = not before.wins or any(win.seat == dealer for win in before.wins)
        assert after.seating.dealer == (dealer if kept else (dealer + 1) % 4)


def test_a_session_log_replays_with_its_ledger(jipinghu: mjr.Ruleset, tmp_path) -> None:
    log = io.StringIO()
    session = Session(jipinghu, seed=9, log=log)
    session.play([GreedyBot(seat) for seat in range(4)], hands=3)
    report = replay(log.getvalue().splitlines())
    assert (report.hands, list(report.ledger)) == (3, session.ledger)


# -- bad logs ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def one_log(jipinghu: mjr.Ruleset) -> list[str]:
    log = io.StringIO()
    play_out(Table(jipinghu, seed=11, log=log), [GreedyBot(seat) for seat in range(4)])
    return log.getvalue().splitlines()


def test_a_log_event_from_the_wrong_player_is_named(one_log: list[str]) -> None:
    bad = list(one_log)
    bad[1] = bad[1].replace('"seat": 0', '"seat": 2')
    with pytest.raises(LogError, match="line 2: seat 2 may not act now: waiting for seat 0"):
        replay(bad)


def test_a_log_with_an_unknown_tile_is_named(one_log: list[str]) -> None:
    index = next(i for i, line in enumerate(one_log) if '"discard ' in line)
    bad = list(one_log)
    bad[index] = bad[index].replace('"discard ', '"discard 9', 1)
    with pytest.raises(LogError, match=f"line {index + 1}: "):
        replay(bad)


def test_a_log_of_another_ruleset_is_refused(one_log: list[str]) -> None:
    with pytest.raises(LogError, match="line 1: the log is of ruleset 'guangdong.jipinghu', not 'mcr'"):
        replay(one_log, "mcr")


def test_a_truncated_log_is_refused(one_log: list[str]) -> None:
    with pytest.raises(LogError, match="truncated"):
        replay(one_log[:-5])
    with pytest.raises(LogError, match="not JSON"):
        replay([*one_log[:-1], one_log[-1][:20]])


def test_a_log_whose_payments_differ_is_refused(one_log: list[str]) -> None:
    bad = list(one_log)
    bad[-1] = bad[-1].replace('"amount": ', '"amount": 1', 1)
    with pytest.raises(LogError, match=f"line {len(bad)}: the log's payments"):
        replay(bad)


def test_a_session_deals_the_walls_a_simulation_deals() -> None:
    session = Session(mjr.load("guangdong.jipinghu"), seed=3)
    assert session.new_hand().wall.tiles == Table(session.ruleset, seed=hand_seed(3, 0)).wall.tiles


def test_the_greedy_shape_estimate_counts_the_rulesets_sets() -> None:
    """A 16-tile hand needs five sets and a pair: four sets and a single are far from ready."""
    from mjr.table.bots import distance

    def counts(text: str) -> list[int]:
        tally = [0] * 34
        for kind in mjr.parse_hand(text).tiles:
            tally[kind] += 1
        return tally

    assert distance(counts("123m 456m 789m 123p 7p"), 0, 4) == 0
    assert distance(counts("123m 456m 789m 123p 456p 7p"), 0, 5) == 0
    assert distance(counts("123m 456m 789m 123p 7p 1s 5s 9s"), 0, 5) > 0


def test_the_estimate_after_each_discard_is_the_estimate_of_the_hand_left() -> None:
    """The greedy bot's estimates after each discard, worked out suit by suit from
    the hand's own, are the estimates of the hands each discard leaves."""
    from mjr.table.bots import distance, distances_after_discard

    rng = random.Random(5)
    wall = [kind for kind in range(34) for _ in range(4)]
    for _ in range(500):
        counts = [0] * 34
        for kind in rng.sample(wall, 14):
            counts[kind] += 1
        melds, sets, jokers = rng.choice((0, 0, 1, 2)), rng.choice((4, 5)), rng.choice((0, 0, 1))
        held = [kind for kind in range(34) if counts[kind]]
        after = [distance([n - (kind == k) for k, n in enumerate(counts)], melds, sets, jokers) for kind in held]
        assert distances_after_discard(counts, melds, sets, jokers, held) == after


# -- the arguments of a table and of act are checked before anything changes ---------------


def _bad_calls() -> list[tuple[str, object]]:
    """act() calls that are no action at all, each with the words its refusal names."""
    np = pytest.importorskip("numpy")
    changed = Action(0, "draw")
    object.__setattr__(changed, "seat", 0.0)  # an Action whose field was changed after it was checked
    return [
        (lambda t: t.act("draw", "0"), "seat must be an int 0-3, not '0' \\(str\\)"),
        (lambda t: t.act("0", 0), "unknown action '0'"),
        (lambda t: t.act("draw", True), "seat must be an int 0-3, not True \\(bool\\)"),
        (lambda t: t.act("draw", 0.0), "seat must be an int 0-3, not 0.0 \\(float\\)"),
        (lambda t: t.act("draw", np.float64(0)), "seat must be an int 0-3, not .*float64"),
        (lambda t: t.act("draw", 5), "seat must be 0-3, not 5"),
        (lambda t: t.act("draw", 2**70), "seat must be 0-3, not "),
        (lambda t: t.act(5, 0), "an action is an Action or its text .*not int"),
        (lambda t: t.act(None), "an action is an Action or its text .*not NoneType"),
        (lambda t: t.act(["draw"], 0), "an action is an Action or its text .*not list"),
        (lambda t: t.act(Action(0, "draw"), 2), "seat 2 given with an action of seat 0"),
        (lambda t: t.act(changed), "Action.seat must be an int 0-7, not 0.0"),
        (lambda t: t.act(Action(0.0, "draw")), "Action.seat must be an int 0-7, not 0.0 \\(float\\)"),
        (lambda t: t.act(Action(True, "draw")), "Action.seat must be an int 0-7, not True"),
        (lambda t: t.act(Action(-1, "draw")), "Action.seat must be 0-7, not -1"),
        (lambda t: t.act(Action(0, "throw")), "Action.kind must be one of draw, discard"),
        (lambda t: t.act(Action(0, None)), "Action.kind must be one of .* not None"),  # type: ignore[arg-type]
        (lambda t: t.act(Action(0, "draw", 3)), "Action.tile: 'draw' takes no tile, not 3"),
        (lambda t: t.act(Action(0, "discard")), "Action.tile: 'discard' names its tile"),
        (lambda t: t.act(Action(0, "discard", 99)), "Action.tile must be 0-42, not 99"),
        (lambda t: t.act(Action(0, "discard", 35)), "Action.tile: 35 is no tile"),  # a flower
        (lambda t: t.act(Action(0, "discard", 1.0)), "Action.tile must be an int 0-42, not 1.0"),
        (lambda t: t.act(Action(0, "discard", "5m")), "Action.tile must be an int 0-42, not '5m'"),
        (lambda t: t.act(Action(0, "chow", 7)), "Action.tile: 7 is no chow's lowest tile"),
        (lambda t: t.act(Action(0, "void", 5)), "Action.tile: 5 is no suit"),
        (lambda t: t.act(Action(0, "kong", 42)), "Action.tile: 42 is no kong's kind"),
    ]


@pytest.mark.parametrize("number", range(26))
def test_a_call_that_is_no_action_is_refused_and_changes_nothing(jipinghu: mjr.Ruleset, number: int) -> None:
    """Every argument of act and Action is checked before anything changes: the
    refusal is an IllegalAction naming the argument, at the start of the hand and on
    a discard on offer alike, and the table is as it was (events, phase, hands, legal())."""
    calls = _bad_calls()
    assert len(calls) == 26
    call, reason = calls[number]
    table = Table(jipinghu, seed=1)
    for step in range(3):
        before = table_state(table)
        with pytest.raises(IllegalAction, match=reason):
            call(table)
        assert table_state(table) == before
        if step < 2:  # the dealer draws, then discards: the discard is on offer, or seat 1 draws
            seat, actions = min(table.legal().items())
            table.act(actions[0])


def test_a_numpy_seat_plays_a_whole_hand_whose_log_replays(jipinghu: mjr.Ruleset) -> None:
    """A seat given as a numpy int is taken as its int: the hand plays to its end
    (no table stuck in 'claim' with nothing legal), and its log is written and replays."""
    np = pytest.importorskip("numpy")
    for logged in (True, False):
        log = io.StringIO() if logged else None
        table = Table(jipinghu, seed=4, log=log)
        bots = [GreedyBot(seat) for seat in range(4)]
        while not table.over:
            assert table.legal(), table.phase
            seat, actions = min(table.legal().items())
            table.act(str(bots[seat](table, seat, actions)), np.int64(seat))
        assert all(type(event["seat"]) is int for event in table.events)
        if log is not None:
            assert list(replay(log.getvalue().splitlines()).ledger) == table.net()
    assert Action(np.int8(2), "discard", np.int64(5)) == Action(2, "discard", 5)
    assert type(Action(np.int8(2), "discard", np.int64(5)).tile) is int


def test_a_bool_seat_is_refused_not_logged(jipinghu: mjr.Ruleset) -> None:
    """True is no seat 1: it would be written to the log as ``true``, which replay refuses."""
    log = io.StringIO()
    table = Table(jipinghu, seed=1, log=log)
    while 1 not in table.legal():
        seat, actions = min(table.legal().items())
        table.act(actions[0])
    before = table_state(table)
    with pytest.raises(IllegalAction, match="seat must be an int 0-3, not True \\(bool\\)"):
        table.act(str(table.legal()[1][0]), True)
    with pytest.raises(IllegalAction, match="Action.seat must be an int 0-7, not True \\(bool\\)"):
        table.act(Action(True, table.legal()[1][0].kind, table.legal()[1][0].tile))
    assert table_state(table) == before
    assert '"seat": true' not in log.getvalue()


# -- the settings of a table ---------------------------------------------------------------


@pytest.mark.parametrize(("settings", "reason"), [
    ({"stake": -2}, "stake must be 1-2,147,483,647, not -2"),
    ({"stake": 0}, "stake must be 1-"),
    ({"stake": 1.5}, "stake must be an int 1-2,147,483,647, not 1.5 \\(float\\)"),
    ({"stake": True}, "stake must be an int .* not True \\(bool\\)"),
    ({"stake": "2"}, "stake must be an int .* not '2' \\(str\\)"),
    ({"stake": 2**31}, "stake must be 1-2,147,483,647, not 2147483648"),
    ({"seed": "x"}, "seed must be an int .* not 'x' \\(str\\)"),
    ({"seed": 1.5}, "seed must be an int .* not 1.5"),
    ({"seed": False}, "seed must be an int .* not False"),
    ({"seed": 2**64}, "seed must be .* not 18446744073709551616"),
    ({"seed": 10**5000}, "seed must be .* not an int of 16610 bits"),
    ({"seating": (0, 0, 0, None)}, "seating must be a mjr.table.Seating, not tuple"),
    ({"wall": "1m 2m"}, "wall must be a list of tiles \\(ints 0-45\\), not str"),
    ({"wall": [0] * 3 + [1.0]}, "wall\\[3\\] must be an int 0-45, not 1.0"),
    ({"log": "game.log"}, "log must be a text stream open for writing .* not 'game.log' \\(str\\)"),
])
def test_a_table_refuses_settings_it_cannot_play(jipinghu: mjr.Ruleset, settings: dict, reason: str) -> None:
    from mjr.errors import TableError

    with pytest.raises(TableError, match=reason):
        Table(jipinghu, **settings)
    if "wall" not in settings:  # a session deals its own walls
        with pytest.raises(TableError, match=reason):
            Session(jipinghu, **settings)


@pytest.mark.parametrize(("fields", "reason"), [
    ({"dealer": 8}, "Seating.dealer must be 0-7, not 8"),
    ({"dealer": -1}, "Seating.dealer must be 0-7, not -1"),
    ({"dealer": True}, "Seating.dealer must be an int 0-7, not True \\(bool\\)"),
    ({"round": 7}, "Seating.round must be 0-3, not 7"),
    ({"round": 1.0}, "Seating.round must be an int 0-3, not 1.0 \\(float\\)"),
    ({"streak": -1}, "Seating.streak must be 0-2,147,483,647, not -1"),
    ({"streak": "2"}, "Seating.streak must be an int"),
    ({"previous_winner": 8}, "Seating.previous_winner must be 0-7, not 8"),
    ({"previous_winner": False}, "Seating.previous_winner must be an int 0-7, not False"),
])
def test_a_seating_out_of_range_is_refused_when_made(fields: dict, reason: str) -> None:
    from mjr.errors import MjrError, TableError

    with pytest.raises(TableError, match=reason) as refused:
        Seating(**fields)
    assert isinstance(refused.value, MjrError)


def test_a_table_or_session_of_no_ruleset_is_refused_when_made() -> None:
    from mjr.errors import TableError

    for make in (Table, Session):
        with pytest.raises(TableError, match="ruleset must be a mjr.Ruleset \\(from mjr.load\\), not str"):
            make("guangdong.jipinghu")


@pytest.mark.parametrize(("number", "reason"), [
    (-1, "session_hand must be 0-9,223,372,036,854,775,807, not -1"),
    ("0", "session_hand must be an int .* not '0' \\(str\\)"),
    (True, "session_hand must be an int .* not True \\(bool\\)"),
])
def test_a_hand_number_that_is_no_hand_of_a_session_is_refused(jipinghu: mjr.Ruleset, number: object,
                                                               reason: str) -> None:
    from mjr.errors import TableError

    log = io.StringIO()
    with pytest.raises(TableError, match=reason):
        Table(jipinghu, log=log, session_hand=number)
    assert log.getvalue() == ""


def test_changing_the_actions_legal_returned_changes_nothing(jipinghu: mjr.Ruleset) -> None:
    table = Table(jipinghu, seed=1)
    table.legal().clear()
    table.act(Action(table.turn, "draw"))  # still legal: the dict cleared was the caller's
    seat = table.turn
    missing = next(kind for kind, count in enumerate(table.players[seat].counts) if count == 0)
    table.legal()[seat].append(Action(seat, "discard", missing))  # a bot adding to "its" list
    before = table_state(table)
    with pytest.raises(IllegalAction, match="may not discard"):
        table.act(Action(seat, "discard", missing))
    assert table_state(table) == before and table.players[seat].counts[missing] == 0


@pytest.mark.parametrize("call", [
    lambda table: table.hand_of(4, None, "self_draw"),
    lambda table: table.hand_of(-1, None, "self_draw"),
    lambda table: table.hand_of(0, 34, "self_draw"),
    lambda table: table.context(-1, "self_draw"),
    lambda table: table.context(True, "self_draw"),
    lambda table: table.may_declare_win("0"),
])
def test_a_question_about_no_seat_is_refused(jipinghu: mjr.Ruleset, call) -> None:
    table = Table(jipinghu, seed=1)
    with pytest.raises(IllegalAction, match="(seat|tile) must be"):  # not an IndexError, nor seat 3 for -1
        call(table)


def test_numpy_settings_are_taken_as_ints_and_the_log_replays(jipinghu: mjr.Ruleset) -> None:
    np = pytest.importorskip("numpy")
    seating = Seating(dealer=np.int64(2), round=np.int8(1), streak=np.uint16(3), previous_winner=np.int32(0))
    assert seating == Seating(2, 1, 3, 0) and type(seating.dealer) is int
    log = io.StringIO()
    table = play_out(Table(jipinghu, seed=np.int64(6), stake=np.int64(3), seating=seating, log=log),
                     [GreedyBot(seat) for seat in range(4)])
    assert (type(table.stake), type(table.seed)) == (int, int)
    assert all(payment.amount % 3 == 0 for payment in table.payments)
    assert list(replay(log.getvalue().splitlines()).ledger) == table.net()


def test_every_phase_but_the_last_has_what_an_action_does_in_it(jipinghu: mjr.Ruleset) -> None:
    """The table dispatches an action on its phase: each phase has its handler but
    ``over``, in which nothing is legal.  A phase is its word, as users compare it."""
    assert set(Table._ACTS) == set(Phase) - {Phase.OVER}
    table = Table(jipinghu, seed=1)
    assert table.phase == "draw" and table.phase is Phase.DRAW
    assert (str(table.phase), f"{table.phase}", repr(table.phase)) == ("draw", "draw", "'draw'")
    play_out(table, [GreedyBot(seat) for seat in range(4)])
    assert table.phase == "over" and table.legal() == {}


def test_a_step_of_play_sets_the_turns_tile_and_the_offer_whole() -> None:
    """The turn's tile and its flags change together: a discard carries how the tile
    before it came, a new turn clears them all; answering an offer makes a new offer."""
    drawn = TurnTile().drew(5, replacement=True, opened=True, last=False)
    assert drawn == TurnTile(drawn=5, after_kong=True, opened=True)
    assert drawn.discarded() == TurnTile(discard_after_kong=True, discard_opened=True)
    assert drawn.discarded().claimed() == TurnTile(discard_after_kong=True, discard_opened=True)
    assert drawn.konged() == TurnTile(after_kong=True, opened=True)
    offer = Offer(0, 5, {1: [Action(1, "pung"), Action(1, "pass")], 2: [Action(2, "win"), Action(2, "pass")]})
    answered = offer.answered(Action(1, "pass"))
    assert offer.answers == {} and answered.waiting == {2: offer.options[2]} and not answered.complete
    assert answered.answered(Action(2, "win")).complete


#: The modules of the table of play, each importing only modules before it here.
TABLE_LAYERS = ("seats", "state", "hands", "deal", "wild", "close", "record", "referee", "log", "session")


def _imports(module: str) -> tuple[set[str], list[str]]:
    """The mjr modules ``module`` imports anywhere (under TYPE_CHECKING too), and
    those it imports inside a function."""
    path = os.path.join(os.path.dirname(mjr.table.__file__), f"{module}.py")
    with open(path, encoding="utf-8") as file:
        tree = ast.parse(file.read())
    named: set[str] = set()
    inside: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside += [f"{node.name}: {ast.unparse(sub)}" for sub in ast.walk(node)
                       if isinstance(sub, ast.ImportFrom) and sub.level]
        if isinstance(node, ast.ImportFrom) and node.level == 1:  # a sibling in the room
            named |= {node.module} if node.module else {alias.name for alias in node.names}
    return named, inside


@pytest.mark.parametrize("module", TABLE_LAYERS)
def test_the_table_modules_import_downwards_only(module: str) -> None:
    """No circle among the modules of the table of play: the state and what is worked
    out from it lie below the referee, the replay of logs and sessions above it; and
    no import is hidden inside a function."""
    named, inside = _imports(module)
    above = set(TABLE_LAYERS[TABLE_LAYERS.index(module):])
    assert sorted(named & above) == [] and inside == []
