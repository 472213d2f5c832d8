"""Payments at the end of a hand between any players (``at_end``), with amounts
worked out on one player's tiles (``(EXPR) of payer`` / ``of payee``): played from
arranged walls on both backends, the held amounts asked of hands directly, and the
statement checked where it is written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import load_on
from table_script import arranged_wall, play_script

import mjr
from mjr.table.actions import Action
from mjr.table.referee import Seating, Table

BACKENDS = ["compiled", "python"]

RULES = """ruleset t.chickens "Chickens" {{
    tiles suits(m p s) winds dragons
    claims pung kong
    win self_draw discard
    fact flipped "翻牌" tiles 0 to 1
    derive turned "翻鸡" from flipped + 1
    define chicken: 1s or 8p
    fan plain "Plain" 1 : standard
    pay discarded "D" when discard : discarder pays points
    pay self_drawn "S" when self_draw : each opponent pays points
    # the winner's chickens, from every other player
    at_end won_chickens "胡鸡" : each player pays each player where won (count(tiles where chicken)) of payee
    # a ready player's chickens, from those neither ready nor winners
    at_end ready_chickens "叫鸡" : each player where not ready and not won pays each player where ready
        (count(tiles where chicken)) of payee
    # those neither ready nor winners pay their own chickens twice over to each ready player
    at_end back "反赔" : each player where not ready and not won pays each player where ready
        (2 * count(tiles where chicken)) of payer
    at_draw drawn "流局" : each player where not ready pays each player where ready 5
    at_win won "胡" : each player where not won pays each player where won 1
    {extra}
}}
"""

#: seat 0 deals, far from ready, two chickens (1s 8p)
DEALER = "1s 8p 25m 258s 369m 369s"
#: seat 1 is ready on 8p and 9p, two chickens (88p)
READY = "234p 567p 88p 99p 456s"
#: seat 2 wins on its first draw, 9m, with three chickens (111s), where it is dealt this
WINNER = "234m 78m 111s WWW FF"
#: seat 3: far from ready, no chicken
PLAIN = "258m 258s 369m 369s S"


def _refused(tmp_path: Path, text: str) -> str:
    """The problems the checker finds in the ruleset ``text`` (it must find some)."""
    from mjr.compiler.build import check_file

    path = tmp_path / "refused.mjr"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(mjr.SourceError) as error:
        check_file(path)
    return str(error.value)


def _rules(tmp_path: Path, backend: str, extra: str = "") -> mjr.Ruleset:
    path = tmp_path / f"chickens_{len(extra)}.mjr"
    path.write_text(RULES.format(extra=extra), encoding="utf-8")
    return load_on(path, backend, unoptimised=True)


def _play(rules: mjr.Ruleset, win: bool) -> Table:
    """Seats 0 and 1 draw and discard a tile nobody wants; seat 2 wins on its first
    draw where ``win``, else the wall runs out."""
    hands = {0: DEALER, 1: READY, 2: WINNER if win else "258m 258s 147m 147s W", 3: PLAIN}
    wall = arranged_wall(rules, hands, draws=["N", "C", "9m" if win else "N"])
    table = Table(rules, wall=wall, seating=Seating(dealer=0))

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        return Action(2, "win") if Action(2, "win") in actions else None

    return play_script(table, policy)


def _paid(table: Table, clause: str) -> list[tuple[int, int, int]]:
    return sorted((p.payer, p.payee, p.amount) for p in table.payments if p.clause == clause)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_won_hand_pays_each_player_what_its_tiles_say(tmp_path: Path, backend: str) -> None:
    table = _play(_rules(tmp_path, backend), win=True)
    assert [win.seat for win in table.wins] == [2]
    # the winner's three chickens (its hand with the winning tile), from each of the three others
    assert _paid(table, "won_chickens") == [(0, 2, 3), (1, 2, 3), (3, 2, 3)]
    # the ready player's two, from the two neither ready nor winners (seat 3 pays too: of payee)
    assert _paid(table, "ready_chickens") == [(0, 1, 2), (3, 1, 2)]
    # twice the payer's own: seat 0 pays 4, seat 3 has no chicken and pays nothing
    assert _paid(table, "back") == [(0, 1, 4)]
    assert _paid(table, "drawn") == []  # at_draw waits for a wall run out
    assert _paid(table, "won") == [(0, 2, 1), (1, 2, 1), (3, 2, 1)]
    assert sum(table.net()) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_drawn_hand_pays_the_end_payments_and_the_draw_checks(tmp_path: Path, backend: str) -> None:
    table = _play(_rules(tmp_path, backend), win=False)
    assert not table.wins
    assert _paid(table, "won_chickens") == []  # nobody won
    assert _paid(table, "ready_chickens") == [(0, 1, 2), (2, 1, 2), (3, 1, 2)]
    assert _paid(table, "back") == [(0, 1, 4), (2, 1, 2)]  # seat 2 holds one 1s this time
    assert _paid(table, "drawn") == [(0, 1, 5), (2, 1, 5), (3, 1, 5)]
    assert _paid(table, "won") == []  # a drawn hand voids at_win
    assert sum(table.net()) == 0


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("hand", "amounts"), [
    # a waiting hand: its chickens (three held amounts), its own wind's tiles, the kinds turned
    ("111s 8p 234m 567m EE 9p seat E", (4, 4, 8, 2, 0)),
    # the melds' tiles count, a kong's four too, and the winning tile of a won hand
    ("234m 567m 8p [111s<L] (EEEE) win 8p self_draw seat E", (5, 5, 10, 4, 0)),
    ("234m 567m 8p [111s<L] (EEEE) win 8p self_draw seat S", (5, 5, 10, 0, 0)),
    # 翻鸡: the flipped 7p turns 8p, each copy of which counts once more
    ("111s 8p 234m 567m EE 9p flipped 7p", (4, 4, 8, 2, 1)),
])
def test_held_amounts_count_one_players_tiles_and_melds(tmp_path: Path, backend: str, hand: str,
                                                        amounts: tuple[int, ...]) -> None:
    extra = ("at_end winds \"风\" : each player pays each player (count(tiles where seat_wind)) of payee\n"
             "    at_end turned \"翻\" : each player pays each player (sum(tiles of turned)) of payee")
    rules = _rules(tmp_path, backend, extra)
    assert rules.held_amounts(hand) == amounts
    assert [c.keyword for c in rules.play.draw_checks] == ["at_end"] * 3 + ["at_draw", "at_win"] + ["at_end"] * 2


def test_an_end_payment_reads_back_as_written(tmp_path: Path) -> None:
    from mjr.authoring.play_text import play_lines

    lines = {line.id: line for line in play_lines(_rules(tmp_path, "python").play)}
    assert lines["back"].keyword == "at_end"
    assert lines["back"].words == (": each player where not ready and not won pays each player where ready "
                                   "(2 * count(tiles where chicken)) of payer",)
    assert lines["drawn"].keyword == "at_draw"


def test_a_held_amount_of_an_impossible_hand_is_refused(tmp_path: Path) -> None:
    rules = _rules(tmp_path, "python")
    with pytest.raises(mjr.HandError, match="5 copies of 1s"):
        rules.held_amounts("11111s 234m 567m 99p")


@pytest.mark.parametrize(("statement", "message"), [
    ("at_end x \"X\" : each player pays each player (count(sets where pung)) of payee",
     "'sets' cannot be used in a held amount: a player's tiles at the end of a hand have no decomposition"),
    ("at_end x \"X\" : each player pays each player (3 if self_draw else 1) of payee",
     "'self_draw' cannot be used in a held amount: it is a word of a win"),
    ("at_end x \"X\" : each player pays each player (count(tiles where winning_tile)) of payee",
     "'winning_tile' cannot be used in a held amount"),
    ("at_end x \"X\" : each player pays each player (2 if plain else 0) of payee",
     "'plain' cannot be used in a held amount: it is a fan of a win"),
    ("at_end x \"X\" : each player pays each player (count(tiles where chicken)) of payeee",
     "(EXPR) of payer or of payee: whose tiles the amount counts, not 'payeee' (did you mean 'payee'?)"),
    ("at_end x \"X\" : each player pays each player (count(tiles where chicken)) of payer shared",
     "'shared' follows a number (N shared), not an amount that counts one player's tiles"),
    ("at_end x \"X\" : each player pays each player fifty",
     "an end payment pays a number (1 or more), 'best' or (EXPR) of payer|payee, not 'fifty'"),
])
def test_the_statement_is_checked_where_it_is_written(tmp_path: Path, statement: str, message: str) -> None:
    problems = _refused(tmp_path, RULES.format(extra=statement))
    assert message in problems
    assert ":21:" in problems  # the line of the statement


HISTORY_RULES = """ruleset t.firsts "Firsts" {{
    tiles suits(m p s) winds dragons
    claims pung kong
    win self_draw discard
    fan plain "Plain" 1 : standard
    pay discarded "D" when discard : discarder pays points
    pay self_drawn "S" when self_draw : each opponent pays points
    # 冲锋鸡: the hand's first 1s, discarded and not claimed, earns its discarder 2 from each
    at_end charge "冲锋鸡" : each player pays each player where first_discard 1s and not fed_first 1s 2
    # 责任鸡: its discarder pays 3 to the player who claimed it
    at_end duty "责任鸡" : each player where fed_first 1s pays each player where claimed_first 1s 3
    {extra}
}}
"""


def _history_play(rules: mjr.Ruleset, claim: bool) -> Table:
    """The dealer discards 1s on its first turn (seat 1 pungs it where ``claim``), seat
    2 discards a second 1s later where nobody pungs; the wall then runs out."""
    hands = {0: "1s 258m 258p 369m 36p E", 1: "11s 258m 258p 369m 6s S", 2: "1s 258m 258p 369m 47s W",
             3: "147m 147p 258s 369s N"}
    wall = arranged_wall(rules, hands, draws=["C", "C", "C"])
    table = Table(rules, wall=wall, seating=Seating(dealer=0))
    discards = {0: "1s", 2: "1s"}

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        wanted = [a for a in actions if a.kind == "pung"] if claim and seat == 1 else []
        if seat in discards and any(a.kind == "discard" for a in actions):
            tile = mjr.parse_hand(discards.pop(seat)).tiles[0]
            wanted = [a for a in actions if a.kind == "discard" and a.tile == tile]
        return wanted[0] if wanted else None

    return play_script(table, policy)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("claim", "charge", "duty"), [
    (False, [(1, 0, 2), (2, 0, 2), (3, 0, 2)], []),  # the first 1s lies: 冲锋鸡 for its discarder
    (True, [], [(0, 1, 3)]),  # pung'd: its discarder owes the claimer, the second 1s counts for nothing
])
def test_the_first_discard_of_a_kind_and_its_claimer_are_tested(tmp_path: Path, backend: str, claim: bool,
                                                               charge: list[tuple[int, int, int]],
                                                               duty: list[tuple[int, int, int]]) -> None:
    path = tmp_path / "firsts.mjr"
    path.write_text(HISTORY_RULES.format(extra=""), encoding="utf-8")
    table = _history_play(load_on(path, backend, unoptimised=True), claim)
    assert table.state.players[2].discards.count(mjr.parse_hand("1s").tiles[0]) == 1
    assert _paid(table, "charge") == charge
    assert _paid(table, "duty") == duty
    assert sum(table.net()) == 0


@pytest.mark.parametrize(("test", "message"), [
    ("first_discard", "'first_discard' names the tile whose first discard it asks about: first_discard 1s"),
    ("ready 1s", "'ready' takes no tile (only the tests of the hand's history do: first_discard T, "
                  "claimed_first T, fed_first T)"),
    ("first_discard 1s and first_discard 1s", "'first_discard 1s' is tested twice on one side"),
    ("fed_frist 1s", "unknown test 'fed_frist' (did you mean 'fed_first'?)"),
])
def test_a_history_test_is_checked_where_it_is_written(tmp_path: Path, test: str, message: str) -> None:
    problems = _refused(tmp_path, HISTORY_RULES.format(extra=f"at_end x \"X\" : each player where {test} pays "
                                                             f"each player 1"))
    assert message in problems
    assert ":12:" in problems


@pytest.mark.parametrize(("drop", "left", "message"), [
    ("drop at_end back", {"won_chickens", "ready_chickens", "drawn", "won"}, ""),
    ("drop at_win won", {"won_chickens", "ready_chickens", "back", "drawn"}, ""),
    ("drop at_draw back", set(), "there is no draw check 'back' to drop: 'back' is an end payment"),
])
def test_an_end_payment_is_dropped_by_its_keyword(tmp_path: Path, drop: str, left: set[str], message: str) -> None:
    if message:
        assert re.search(message, _refused(tmp_path, RULES.format(extra=drop)))
        return
    path = tmp_path / "chickens.mjr"
    path.write_text(RULES.format(extra=drop), encoding="utf-8")
    assert {check.id for check in load_on(path, "python", unoptimised=True).play.draw_checks} == left


def _chickens(tmp_path: Path, backend: str, extra: str, ends: str = "") -> mjr.Ruleset:
    path = tmp_path / f"chickens_{abs(hash((extra, ends)))}.mjr"
    path.write_text(RULES.format(extra=f"{ends}\n    {extra}"), encoding="utf-8")
    return load_on(path, backend, unoptimised=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_winner_is_not_ready_when_the_wall_ends_a_hand_it_left(tmp_path: Path, backend: str) -> None:
    """Under hand_ends wins, seat 2 wins on its first draw and leaves; its 13 tiles
    left are ready, but a winner is not ready: it has won."""
    table = _play(_chickens(tmp_path, backend, "", "hand_ends wins 3"), win=True)
    assert [win.seat for win in table.wins] == [2] and table.state.players[2].out
    assert _paid(table, "ready_chickens") == [(0, 1, 2), (3, 1, 2)]  # seat 1 only, from those neither
    assert (2, 1, 5) in _paid(table, "drawn")  # the winner is not ready: it pays the ready one
    assert sum(table.net()) == 0


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("ends", "tiles"), [("", 14), ("hand_ends wall", 13)])
def test_a_winner_who_played_on_is_counted_on_the_tiles_it_holds(tmp_path: Path, backend: str, ends: str,
                                                                 tiles: int) -> None:
    """At a first win the winner's hand is the one it won with (14 tiles); under
    hand_ends wall it plays on, and the wall running out finds it holding 13."""
    rules = _chickens(tmp_path, backend, "at_end size \"张\" : each player pays each player where won "
                                         "(count(tiles)) of payee", ends)
    table = _play(rules, win=True)
    assert table.wins[0].seat == 2
    assert {amount for _, payee, amount in _paid(table, "size") if payee == 2} == {tiles}


@pytest.mark.parametrize("backend", BACKENDS)
def test_shared_is_split_among_the_pairs_that_pay(tmp_path: Path, backend: str) -> None:
    """A side without where takes every player; nobody pays himself, so 30 shared
    from everyone to the winner is 10 from each of the three others."""
    table = _play(_chickens(tmp_path, backend, "at_win split \"分\" : each player pays each player where won "
                                                "30 shared"), win=True)
    assert _paid(table, "split") == [(0, 2, 10), (1, 2, 10), (3, 2, 10)]


FLIP_RULES = """ruleset t.flip "Flip" {
    tiles suits(m p s) winds dragons
    claims pung kong
    win self_draw discard
    hand_ends wins 3
    fact flipped "翻牌" tiles 0 to 1 from wall_after_win 1
    derive turned "翻" from flipped + 0
    fan plain "Plain" 1 : standard
    pay discarded "D" when discard : discarder pays points
    pay self_drawn "S" when self_draw : each opponent pays points
    at_end seen "翻" : each player pays each player (sum(tiles of turned)) of payee
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_held_amounts_read_the_facts_of_the_close_for_winners_too(tmp_path: Path, backend: str) -> None:
    """At seat 2's win the next tile of the wall is a W, three of which it holds; at
    the close the wall is empty and no tile is turned, for the winner as for all."""
    path = tmp_path / "flip.mjr"
    path.write_text(FLIP_RULES, encoding="utf-8")
    rules = load_on(path, backend, unoptimised=True)
    hands = {0: DEALER, 1: READY, 2: WINNER, 3: PLAIN}
    table = Table(rules, wall=arranged_wall(rules, hands, draws=["N", "C", "9m", "W"]), seating=Seating(dealer=0))
    table = play_script(table, lambda table, seat, actions: Action(2, "win") if Action(2, "win") in actions else None)
    assert table.wins[0].seat == 2 and dict(table.wins[0].result.hand.context.facts)["flipped"] == (29,)
    assert _paid(table, "seen") == []


@pytest.mark.parametrize(("statement", "message"), [
    ("at_end big \"B\" : each player pays each player where won (2 ^ 70) of payee",
     "the held amount of 'big'"),
    ("at_end big \"B\" : each player pays each player where won (2 ^ (count(tiles where 1s) * 30)) of payee",
     "the held amount of 'big'"),
])
def test_a_held_amount_must_fit_64_bits(tmp_path: Path, statement: str, message: str) -> None:
    assert re.search(message, _refused(tmp_path, RULES.format(extra=statement)))


def test_a_fact_of_a_win_is_refused_in_a_held_amount(tmp_path: Path) -> None:
    problems = _refused(tmp_path, RULES.format(extra="fact last \"绝张\" flag from last_copy\n    at_end x \"X\" : "
                                                     "each player pays each player (2 if last else 0) of payee"))
    assert "fact 'last' cannot be used in a held amount: a table sets it for a win only ('from last_copy', a " \
           "fact of the winning tile)" in problems


def test_a_held_amount_reads_back_without_its_comments(tmp_path: Path) -> None:
    from mjr.authoring.play_text import play_lines

    rules = _chickens(tmp_path, "python", "at_end c \"C\" : each player pays each player where won (  chicken_count  "
                                          "# the chickens\n        + 1 ) of payee\n    define chicken_count: "
                                          "count(tiles where chicken)")
    lines = {line.id: line for line in play_lines(rules.play)}
    assert lines["c"].words == (": each player pays each player where won (chicken_count + 1) of payee",)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_later_claim_of_the_same_kind_is_not_the_first(tmp_path: Path, backend: str) -> None:
    """The dealer's first 1s is chowed by seat 1; its second 1s, its next discard, is
    punged by seat 2: the first 1s's claimer stays seat 1."""
    path = tmp_path / "firsts.mjr"
    path.write_text(HISTORY_RULES.replace("claims pung kong", "claims chow(left) pung kong").format(extra=""),
                    encoding="utf-8")
    rules = load_on(path, backend, unoptimised=True)
    hands = {0: "11s 258m 258p 369m 3p E", 1: "23s 258m 258p 369m 6p S", 2: "11s 147m 147p 469s W N",
             3: "47s 369p 258m 57s C F P"}
    table = Table(rules, wall=arranged_wall(rules, hands, draws=["N", "N", "N", "E", "E"]),
                  seating=Seating(dealer=0))
    one_s = mjr.parse_hand("1s").tiles[0]

    def policy(table: Table, seat: int, actions: list[Action]) -> Action | None:
        state = table.state
        if seat == 0 and Action(0, "discard", one_s) in actions:
            return Action(0, "discard", one_s)
        if seat == 1 and not state.players[1].melds:
            return next((a for a in actions if a.kind == "chow"), None)
        if seat == 2 and state.players[1].melds and not state.players[2].melds:
            return next((a for a in actions if a.kind == "pung"), None)
        return None

    table = play_script(table, policy)
    assert [len(table.state.players[seat].melds) for seat in (1, 2)] == [1, 1]
    assert table.state.first_discards[one_s][:2] == [0, 1]
    assert _paid(table, "duty") == [(0, 1, 3)]


CHICKEN_GAME = """ruleset t.chicken_game "A chicken game" {{
    tiles suits(m p s)
    claims pung kong
    win self_draw discard robbing_kong
    hand_ends {ends}
    fact flipped "翻牌" tiles 0 to 1 from wall_after_win 1
    derive turned "翻鸡" from flipped + 1
    define chickens: count(tiles where 1s or 8p) + sum(tiles of turned)
    fan plain "平胡" 1 : standard
    fan pairs "七对" 3 : seven_pairs
    shapes standard seven_pairs
    pay self_drawn "自摸" when self_draw : each opponent pays points
    pay discarded "点炮" when discard or robbing_kong : discarder pays points
    kong_pay men_dou "闷豆" on concealed : each opponent pays 3 refund_unless_ready_at_end refund_at_draw
    kong_pay dian_dou "点豆" on direct : discarder pays 3 refund_unless_ready_at_end refund_at_draw
    at_win won_chickens "胡鸡" : each player pays each player where won (chickens) of payee
    at_win ready_chickens "叫鸡" : each player where not ready and not won pays each player where ready
        (chickens) of payee
    at_win paid_back "包鸡" : each player where not ready and not won pays each player where ready
        (chickens) of payer
    at_win charge "冲锋鸡" : each player pays each player where first_discard 1s and not fed_first 1s
        and not won and not ready 1
    at_win duty "责任鸡" : each player where fed_first 1s pays each player where claimed_first 1s 2
    at_draw cha_jiao "查叫" : each player where not ready pays each player where ready best
}}
"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("ends", ["first_win", "wins 3", "wall"])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_chicken_game_played_by_bots_is_zero_sum(tmp_path: Path, backend: str, ends: str, bot: str) -> None:
    """The end payments, held amounts, history tests and kong refunds together, in
    60 hands played by bots under each way a hand ends: every hand zero-sum, every
    tile accounted for, and the greedy players' hands reach every chicken clause."""
    from mjr.simulate import run as simulate

    path = tmp_path / "chicken_game.mjr"
    path.write_text(CHICKEN_GAME.format(ends=ends), encoding="utf-8")
    load_on(path, backend, unoptimised=True)  # (built once, and skipped where it cannot be compiled)
    report = simulate.simulate(path, 60, workers=1, bot=bot, backend=backend).to_json(timings=False)
    assert report["zero_sum"]["ok"] and report["tile_count"]["ok"]
    paid = {clause["clause"] for clause in report["clauses"]}
    if bot == "greedy":  # (random players rarely win: their hands show the rest)
        assert {"won_chickens", "ready_chickens", "paid_back", "charge", "duty"} <= paid
