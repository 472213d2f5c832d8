"""The seeds' worked payment examples, played out at a table from arranged walls."""

from __future__ import annotations

import io

import pytest
from table_script import arranged_wall, play_script

import mjr
from mjr.table.actions import Action
from mjr.table.bots import GreedyBot, play_out
from mjr.table.log import replay
from mjr.table.referee import IllegalAction, Seating, Table


def test_changsha_sea_bottom_taker_pays_the_whole_lot() -> None:
    """§4.5 大包干: the 海底 taker cannot win with it and another player wins on it;
    the taker pays the winner's whole self-draw amount: 6 from each of three, and
    the 海底 itself is the bird (§4.4 "以海底为牌为鸟"): 7s lands on seat 2 (7 counts
    to the third seat from the dealer), whose share doubles: 6 + 12 + 6 = 24."""
    rules = mjr.load("changsha")
    winner, taker = 1, 3  # 56 tiles after the deal: the 56th draw is seat 3's
    # the 海底 (the last tile of the wall) is the fourth 7s; seat 0 holds two of them
    wall = arranged_wall(rules, {winner: "123m 456m 789p 234s 7s", 0: "77s 111m 999p 555m 33p"}, draws=[],
                         back=["7s"])
    table = Table(rules, wall=wall, seating=Seating(dealer=0))

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        if seat == winner and Action(seat, "win") in actions:
            return Action(seat, "win")
        return None

    play_script(table, policy)
    (win,) = table.wins
    assert (win.seat, win.method, win.source) == (winner, "discard", taker)
    assert [line.id for line in win.result.fans] == ["sea_bottom_discard"]
    assert win.result.hand.context.fact("birds") is None  # no tile left to draw: the 海底 is the bird
    assert [(p.payer, p.payee, p.amount, p.clause) for p in win.lines] == [(taker, winner, 24, "whole_lot")]
    assert table.net() == [0, 24, 0, -24]


H2_VARIANT = """
ruleset test.h2_units "H2 units" extends guangdong.tuidaohu {
    # every win worth one unit, as in the worked example's 10元20元 table
    score base * mult / mult
}
"""


@pytest.mark.parametrize(("horses", "each_pays"), [("1m 1p", 20), ("3m 1p", 40), ("3m W", 60)])
def test_guangdong_h2_horses_add_a_unit_per_hit(tmp_path, horses: str, each_pays: int) -> None:
    """§3.4 H2: A won the last hand, C (opposite) wins this one; C's horses, drawn
    after the win and counted from A, hit on 3, 7, 西 and 发: "中一只加上胡牌，每人给你
    40元，中2只加上胡牌每人给你60元" at a 20 a unit table."""
    path = tmp_path / "h2.mjr"
    path.write_text(H2_VARIANT, encoding="utf-8")
    rules = mjr.load(path, horses=2, horse_mapping="h2")
    winner = 2
    # the indicator 9s makes 1s wild, a tile nobody needs
    wall = arranged_wall(rules, {winner: "234m 567m 345p 678p 2s"}, draws=["9m", "9p", "2s", *horses.split()],
                         indicator="9s")
    table = Table(rules, wall=wall, seating=Seating(dealer=0, previous_winner=0), stake=20)

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        return Action(seat, "win") if Action(seat, "win") in actions else None

    play_script(table, policy)
    (win,) = table.wins
    assert (win.seat, win.method) == (winner, "self_draw")
    assert win.result.hand.context.fact("last_winner") == 2
    assert sorted(p.amount for p in win.lines) == [each_pays] * 3
    assert table.net()[winner] == 3 * each_pays


SICHUAN_OTHERS = {0: "258m 258s 369m 369s 4m", 2: "258m 258s 369m 369s 4s", 3: "258m 258s 369m 369s 7m"}


def _sichuan_rain(kong_maker_rest: str, first_draw: str) -> Table:
    """Seat 1 holds 1111m and konges it on its first turn (下雨); every other hand is
    dealt far from ready and in two suits, and nobody wins: the wall runs out."""
    rules = mjr.load("sichuan.xuezhan")
    hands = {**SICHUAN_OTHERS, 1: f"1111m {kong_maker_rest}"}
    wall = arranged_wall(rules, hands, draws=["1s", first_draw], back=["9s"])
    table = Table(rules, wall=wall, seating=Seating(dealer=0))

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        return Action(1, "kong", 0) if Action(1, "kong", 0) in actions else None

    return play_script(table, policy)


def _lines(table: Table, *clauses: str) -> list[tuple[int, int, int, str]]:
    return sorted((p.payer, p.payee, p.amount, p.clause) for p in table.payments if p.clause in clauses)


def test_sichuan_rain_is_kept_by_a_ready_maker() -> None:
    """§5.5 下雨: a concealed kong takes 2 from each other player at once; the maker
    is ready when the wall runs out, so keeps it, and §5.6 查大叫 has each player who
    is not ready pay him the most his waits (2p, 5p) could score."""
    table = _sichuan_rain("234p 567p 789p", "5p")
    assert table.outcome.drawn and not table.wins
    assert _lines(table, "xia_yu") == [(0, 1, 2, "xia_yu"), (2, 1, 2, "xia_yu"), (3, 1, 2, "xia_yu")]
    assert not [p for p in table.payments if p.name.endswith("refunded")]
    best = [p.amount for p in table.payments if p.clause == "cha_da_jiao"]
    assert len(best) == 3 and best[0] > 0
    assert table.net() == [-2 - best[0], 6 + 3 * best[0], -2 - best[0], -2 - best[0]]


def test_sichuan_rain_is_refunded_by_a_maker_not_ready() -> None:
    """§5.5: "如果流局时玩家还未叫牌，则须退回全部刮风下雨所得"."""
    table = _sichuan_rain("224p 567p 789p", "9m")
    assert table.outcome.drawn and table.outcome.ready[1] is False
    assert _lines(table, "xia_yu") == [(0, 1, 2, "xia_yu"), (1, 0, 2, "xia_yu"), (1, 2, 2, "xia_yu"),
                                       (1, 3, 2, "xia_yu"), (2, 1, 2, "xia_yu"), (3, 1, 2, "xia_yu")]
    assert table.net() == [0, 0, 0, 0]


def test_sichuan_a_three_suit_hand_pays_the_flower_pig() -> None:
    """§5.6 查花猪: a player still holding three suits when the wall runs out pays 16
    to each player who does not (to each: §11 row 25)."""
    rules = mjr.load("sichuan.xuezhan")
    hands = {**SICHUAN_OTHERS, 1: "1m 5m 9m 1p 5p 9p 1s 5s 7s 2p 4p 6p 8p"}
    table = play_script(Table(rules, wall=arranged_wall(rules, hands, draws=[]), seating=Seating(dealer=0)))
    assert _lines(table, "cha_hua_zhu") == [(1, 0, 16, "cha_hua_zhu"), (1, 2, 16, "cha_hua_zhu"),
                                            (1, 3, 16, "cha_hua_zhu")]


@pytest.mark.parametrize(("streak", "next_dealer", "next_streak"), [(0, 2, 1), (2, 2, 3), (3, 3, 0)])
def test_wenzhou_a_dealer_keeps_a_drawn_hand_four_hands_at_most(streak: int, next_dealer: int,
                                                                 next_streak: int) -> None:
    """§7.7: a draw without a kong keeps the dealer, "庄家连庄4把之后由庄家下家继续坐庄"."""
    rules = mjr.load("wenzhou")
    table = play_script(Table(rules, seed=5, seating=Seating(dealer=2, streak=streak)))
    assert table.outcome.drawn and not any(m.kind == "kong" for p in table.players for m in p.melds)
    assert (table.outcome.next_seating.dealer, table.outcome.next_seating.streak) == (next_dealer, next_streak)


# -- Changsha: the roaming 海底 (§4.5) and 补张 / 开杠 (§4.6) ------------------------


def test_changsha_all_passing_the_sea_bottom_draws_the_hand() -> None:
    """"海底牌可漫游": the last tile, and only it, is offered to each player in turn
    with a pass; all four pass it (流庄), and "第一个可以选择海底牌的玩家" deals
    next (§4.8 case 2)."""
    rules = mjr.load("changsha")
    table = Table(rules, wall=arranged_wall(rules, {}, draws=[]), seating=Seating(dealer=0))
    offered: list[tuple[int, list[Action]]] = []

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        if table.phase == "draw":
            offered.append((table.wall.live, actions))
        return Action(seat, "pass") if Action(seat, "pass") in actions else None

    play_script(table, policy)
    assert all(actions == [Action(actions[0].seat, "draw")] for live, actions in offered if live > 1)
    # the 56th tile is seat 3's draw: 3 is offered it first
    assert [actions for live, actions in offered if live == 1] == [
        [Action(seat, "draw"), Action(seat, "pass")] for seat in (3, 0, 1, 2)]
    assert table.outcome.drawn and table.wall.live == 1
    assert (table.last_drawer, table.outcome.next_seating.dealer) == (3, 3)


def test_changsha_the_sea_bottom_taker_must_show_it_and_then_deals() -> None:
    """The taker of the 海底 wins with it or shows it ("另外三家都没抢和" → 流局); nobody
    robbing it, the hand is drawn and the taker deals (§4.8 case 1)."""
    rules = mjr.load("changsha")
    table = Table(rules, wall=arranged_wall(rules, {}, draws=[]), seating=Seating(dealer=0))
    shown: list[list[Action]] = []

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        if table.phase == "discard" and table.last_draw:
            shown.append(actions)
        return None

    play_script(table, policy)
    assert shown == [[Action(3, "discard", table.players[3].discards[-1])]]
    assert table.outcome.drawn and table.outcome.next_seating.dealer == 3


CHANGSHA_KONG = "1111m 234p 567p 88s 9s"  # the dealer's deal: after konging 1m it waits on 9s (999s and the 8s pair)


def _changsha_kong(back: str, other: dict[int, str], draws: list[str], opens: bool = True,
                   winner: int | None = None) -> tuple[Table, list[tuple[str, list[Action]]]]:
    """The dealer konges 1m on its first draw (9s), opens the kong when it may, and
    ``winner`` wins when it can; each choice the dealer is given is recorded."""
    rules = mjr.load("changsha")
    wall = arranged_wall(rules, {0: CHANGSHA_KONG, **other}, draws=["9s", *draws], back=[back])
    table = Table(rules, wall=wall, seating=Seating(dealer=0))
    seen: list[tuple[str, list[Action]]] = []

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        if seat == 0:
            seen.append((table.phase, actions))
        for wanted in (Action(0, "kong", 0), Action(0, "open") if opens else None, Action(winner or 0, "win")):
            if wanted in actions:
                return wanted
        return None

    return play_script(table, policy), seen


def test_changsha_opening_a_ready_kong_blooms_on_its_replacement() -> None:
    """开杠 (allowed when ready) and the replacement wins: 杠上开花, a big win."""
    table, seen = _changsha_kong("9s", {}, [])
    assert ("replace", [Action(0, "draw"), Action(0, "open")]) in seen
    (win,) = table.wins
    assert win.method == "self_draw" and "kong_bloom" in [fan.id for fan in win.result.fans]
    assert win.result.hand.context.fact("opened") is True


def test_changsha_a_plain_replacement_wins_without_the_kong_fan() -> None:
    """补张: "补张可和" as a self-draw scored by its hand, with no 杠上开花 (§4.6 reading)."""
    table, _ = _changsha_kong("9s", {}, [], opens=False)
    (win,) = table.wins
    assert "kong_bloom" not in [fan.id for fan in win.result.fans]
    assert win.result.hand.context.after_kong and win.result.hand.context.fact("opened") is None


def test_changsha_an_opened_kong_locks_the_hand() -> None:
    """After 开杠 the dealer must show every tile drawn that does not win, and claims
    nothing: its 88s pair is not offered the 8s seat 1 discards."""
    table, seen = _changsha_kong("5s", {1: "234m 456m 789p 234s 6s"}, ["8s", "2m", "3m", "4p"])
    turns = [actions for phase, actions in seen if phase == "discard"]
    assert turns[1] == [Action(0, "discard", 18 + 4)]  # the replacement 5s: show it, no win
    assert turns[2] == [Action(0, "discard", 9 + 3)]  # the next draw, 4p: show it
    assert table.players[0].locked
    assert {"seat": 1, "action": "discard 8s"} in table.events
    assert not [a for phase, actions in seen if phase == "claim" for a in actions if a.kind in ("pung", "kong", "chow")]


def test_changsha_a_win_on_the_opened_kongs_discard_is_kong_discard() -> None:
    """杠上炮: the replacement shown after 开杠 is won on by another player."""
    table, _ = _changsha_kong("5s", {1: "234m 456m 789p 234s 5s"}, [], winner=1)
    (win,) = table.wins
    assert (win.seat, win.method, win.source) == (1, "discard", 0)
    assert "kong_discard" in [fan.id for fan in win.result.fans]


def test_changsha_an_unready_hand_may_not_open_its_kong() -> None:
    rules = mjr.load("changsha")
    wall = arranged_wall(rules, {0: "1111m 234p 567p 8s 3s 5p"}, draws=["9m"])
    table = Table(rules, wall=wall, seating=Seating(dealer=0))
    table.act("draw", 0)
    table.act("kong 1m", 0)
    assert table.legal() == {0: [Action(0, "draw")]}
    with pytest.raises(IllegalAction, match="may not open now; it may: draw"):
        table.act("open", 0)


# -- Taiwan: 流局 and 诈胡 (§9.8) -------------------------------------------------------


def test_taiwan_each_kong_leaves_one_more_tile_undrawn() -> None:
    """"最后必须留下八垛（16张）不能摸", "牌局中每杠一次，则再多留一张"."""
    rules = mjr.load("taiwan")
    wall = arranged_wall(rules, {0: "1111m 234p 567p 234s 567s"}, draws=["9m"], back=["9p"])
    table = Table(rules, wall=wall, seating=Seating(dealer=0))
    table.act("draw", 0)
    live = table.wall.live
    table.act("kong 1m", 0)
    assert (table.wall.dead, table.wall.live) == (17, live - 2)  # the replacement, and one more left undrawn




def test_taiwan_a_false_win_pays_each_opponent_and_play_goes_on() -> None:
    """"诈胡者赔其他三家它所胡的台数": a win declared that the rules refuse costs
    the declarer 30 (the 底, the file's reading) to each of the three; the hand
    goes on where it was, and its log replays."""
    rules = mjr.load("taiwan")
    log = io.StringIO()
    table = Table(rules, seed=3, stake=2, log=log)
    table.act("draw", 0)
    before = table.legal()
    assert Action(0, "win") not in before[0]
    table.act("win", 0)
    assert [(p.payer, p.payee, p.amount, p.clause) for p in table.payments] == [
        (0, 1, 60, "zha_hu"), (0, 2, 60, "zha_hu"), (0, 3, 60, "zha_hu")]
    assert table.events[-1] == {"seat": 0, "action": "win", "false": True}
    assert table.legal() == before and not table.players[0].dead
    with pytest.raises(IllegalAction, match="seat 1 may not act now"):
        table.act("win", 1)  # a player not asked to act declares nothing
    play_out(table, [GreedyBot(seed) for seed in range(4)])
    assert replay(io.StringIO(log.getvalue())).ledger == tuple(table.net())


def test_a_false_win_on_a_discard_counts_as_a_pass_and_dead_hand_bars_a_win(tmp_path) -> None:
    path = tmp_path / "dead.mjr"
    path.write_text('ruleset test.dead "Dead hand" extends taiwan {\n'
                    '    false_win zha_hu "诈胡" : pays each opponent 5 dead_hand\n}\n', encoding="utf-8")
    rules = mjr.load(path)
    table = Table(rules, seed=11)
    while table.phase != "claim":
        seat, actions = min(table.legal().items())
        table.act(actions[0] if table.phase == "draw" else next(a for a in actions if a.kind == "discard"))
    seat = min(table.options)
    assert Action(seat, "win") not in table.options[seat]
    table.act("win", seat)
    assert [p.amount for p in table.payments] == [5, 5, 5] and table.players[seat].dead
    assert seat not in table.legal() or table.phase != "claim"


@pytest.mark.parametrize(("dead", "offered"), [(" dead_hand", False), ("", True)])
def test_a_dead_hand_is_not_offered_a_standing_win(tmp_path, dead: str, offered: bool) -> None:
    """The dealer, waiting on 5p, declares a false win on its first draw (9s); seat
    1 then discards 5p.  Under ``dead_hand`` the dealer is not offered that win;
    without it, it is."""
    path = tmp_path / "dead.mjr"
    path.write_text('ruleset test.dead "Dead hand" extends guangdong.jipinghu {\n'
                    f'    false_win zha_hu "诈胡" : pays each opponent 5{dead}\n}}\n', encoding="utf-8")
    rules = mjr.load(path, backend="python")
    wall = arranged_wall(rules, {0: "123m 456m 789m 234p 5p"}, draws=["9s", "5p"])
    table = Table(rules, wall=wall, seating=Seating(dealer=0))
    table.act("draw", 0)
    table.act("win", 0)
    table.act("discard 9s", 0)
    while table.phase == "claim":
        seat = min(table.legal())
        table.act("pass", seat)
    table.act("draw", 1)
    table.act("discard 5p", 1)
    assert (Action(0, "win") in table.options.get(0, [])) is offered
    assert table.players[0].dead is not offered


def test_without_a_false_win_rule_a_refused_win_is_illegal() -> None:
    table = Table(mjr.load("guangdong.jipinghu"), seed=3)
    table.act("draw", 0)
    with pytest.raises(IllegalAction, match="seat 0 may not win now"):
        table.act("win", 0)
    assert table.payments == [] and table.events == [{"seat": 0, "action": "draw", "tile": table.events[0]["tile"]}]


# -- Sichuan: 定缺 declared before play (§5.1, the 003 reading) ------------------------


def test_sichuan_each_player_declares_a_void_suit_before_play() -> None:
    """"起牌后打牌前需每人定缺的门": under ``void = declared`` all four declare after
    the deal, the dealer draws only then, and a win carries its player's void."""
    rules = mjr.load("sichuan.xuezhan", void="declared")
    table = Table(rules, seed=2, seating=Seating(dealer=1))
    voids = [Action(seat, "void", suit) for seat in (1, 2, 3, 0) for suit in (0, 9, 18)]
    assert [a for actions in table.legal().values() for a in actions] == voids
    with pytest.raises(IllegalAction, match="seat 1 may not draw now; it may: void m, void p, void s"):
        table.act("draw", 1)
    for seat, suit in ((2, "p"), (1, "m"), (0, "s"), (3, "m")):
        table.act(f"void {suit}", seat)
    assert [player.void for player in table.players] == [2, 0, 1, 0]
    assert table.legal() == {1: [Action(1, "draw")]}
    assert table.hand_of(0, None, "self_draw").context.void == 2


def test_sichuan_greedy_bots_play_their_declared_voids() -> None:
    """Bots declare the suit they hold fewest of and let it go first; no win holds a
    tile of its player's void, and each hand's log replays to its ledger."""
    rules = mjr.load("sichuan.xuezhan", void="declared")
    wins = 0
    for seed in range(12):
        log = io.StringIO()
        table = play_out(Table(rules, seed=seed, log=log), [GreedyBot(seed + seat) for seat in range(4)])
        for win in table.wins:
            hand = win.result.hand
            held = (*hand.tiles, hand.win_tile, *(t for meld in hand.melds for t in meld.tiles))
            assert hand.context.void is not None and not [t for t in held if t // 9 == hand.context.void]
            wins += 1
        assert replay(io.StringIO(log.getvalue())).ledger == tuple(table.net())
    assert wins >= 12


def test_a_void_names_a_suit() -> None:
    with pytest.raises(mjr.MjrError, match="'void' names a suit, m, p or s"):
        Action.parse(0, "void z")
    with pytest.raises(mjr.MjrError, match="'void' names its suit, e.g. 'void m'"):
        Action.parse(0, "void")
    assert str(Action.parse(3, "void p")) == "void p"


# -- where the indicator is flipped (indicator_flip) ------------------------------------


@pytest.mark.parametrize(("ident", "options", "place"), [
    ("guangdong.tuidaohu", {}, "first"),  # §3.1 "每局开始前翻出牌墙中的第一张牌"
    ("guangdong.tuidaohu.t2", {"ghost": "flip"}, "after the dealer's 14th"),  # §3.2 翻鬼
    ("hangzhou", {}, "after the dealer's 14th"),  # §6.2
    ("wenzhou", {}, "last"),  # §7.2, NOT STATED: the file's reading
])
def test_the_indicator_is_flipped_where_the_region_says(ident: str, options: dict[str, str], place: str) -> None:
    """Out of play each time: the tiles dealt and drawn pass over it, and the log's
    wall (as shuffled) replays to the same indicator."""
    rules = mjr.load(ident, **options)
    log = io.StringIO()
    table = Table(rules, seed=8, seating=Seating(dealer=1), log=log)
    wall = table.wall.original
    dealt = 4 * rules.deal
    at = {"first": 0, "after the dealer's 14th": dealt + 1, "last": len(wall) - 1}[place]
    assert table.indicator == wall[at]
    first_tiles = list(wall[1:dealt + 1] if place == "first" else wall[:dealt])
    assert sorted(t for p in table.players for t in p.tiles()) == sorted(first_tiles)
    table.act("draw", 1)
    assert table.events[-1]["tile"] == mjr.tiles.tile_name(wall[dealt + (place == "first")])
    play_out(table, [GreedyBot(seat) for seat in range(4)])
    assert replay(io.StringIO(log.getvalue())).ledger == tuple(table.net())


def test_guangdong_a_feeder_is_liable_for_the_first_twelve_exposed_only() -> None:
    """§2.9 包先不包后: seat 0 fed seat 1's fourth claimed set, then seat 2's; a
    self-draw by seat 2 finds ``fed_before`` (each pays its own share), one by seat 1
    does not (seat 0 pays for all)."""
    table = Table(mjr.load("guangdong.jipinghu"), seed=1)
    table.feeds = [(1, 0, 1), (1, 3, 2), (1, 2, 3), (1, 0, 4), (2, 3, 3), (2, 0, 4), (3, 2, 4)]
    facts = {seat: dict(table.context(seat, "self_draw").facts) for seat in (1, 2, 3)}
    assert facts == {1: {}, 2: {"fed_before": True}, 3: {}}


TENPAI_KEEPS = """
ruleset test.tenpai_keeps "A ready dealer keeps a drawn hand" extends simple {
    next_dealer when dealer_won or dealer_ready : dealer
    next_dealer : next
}
"""


@pytest.mark.parametrize(("dealer_hand", "ready", "next_dealer"), [
    ("123m 456m 789m 123p 5s", True, 0),            # waits on 5s: keeps the deal
    ("1m 3m 5m 7m 9m 2p 4p 6p 8p 1s 3s 5s 7s", False, 1),  # far from ready: the deal passes
])
def test_a_drawn_hand_keeps_a_ready_dealer(tmp_path, dealer_hand: str, ready: bool, next_dealer: int) -> None:
    """``dealer_ready`` (riichi's 連荘 on tenpai): nobody wins, and the dealer keeps
    the deal only with a ready hand; the other players' hands do not count."""
    path = tmp_path / "tenpai.mjr"
    path.write_text(TENPAI_KEEPS, encoding="utf-8")
    rules = mjr.load(path, backend="python")
    table = play_script(Table(rules, wall=arranged_wall(rules, {0: dealer_hand}, draws=[]), seating=Seating(dealer=0)))
    assert table.outcome.drawn and table.outcome.ready[0] is ready
    assert (table.outcome.next_seating.dealer, table.outcome.next_seating.streak) == (next_dealer, int(ready))
