"""The rules of a hand of play in the language: each statement (and each fact's
``from SOURCE``) read into the module's ``PLAY`` and so into ``Ruleset.play``, their
defaults, options and variants, and every misuse refused at its place with the
allowed words."""

from __future__ import annotations

from pathlib import Path

import pytest

import mjr
from mjr.compiler.build import check_file
from mjr.errors import SourceError
from mjr.ruleset.rules_of_play import DealerRule, DrawCheck, FalseWin, KongPayment, OpenKong, PlayerTest, PlayRules

PY = {"backend": "python"}

HEAD = """\
ruleset play.test "Play test" {
    tiles suits(m p s) winds dragons
    fan chicken "鸡胡" 1 : standard
"""

ALL_STATEMENTS = HEAD + """\
    discard_win all
    missed_win same_tile
    hand_ends wins 3
    dead_wall 14 plus 1 per kong
    last_draw roams
    void_suit declared
    indicator_flip after_deal
    open_kong opened when_ready locks
    false_win zha_hu "诈胡" : pays each opponent 8 dead_hand
    kong_pay direct "点杠" on direct : discarder pays 3 refund_unless_ready
    kong_pay added "补杠" on added : each opponent pays 1
    next_dealer when drawn or dealer_won : dealer
    next_dealer : next
    fact birds "扎鸟" tiles 0 to 2 from wall_after_win 2
    fact streak "连庄" number 0 to 9 from dealer_streak
    fact last_winner "上局胡牌人" number 0 to 3 from previous_winner
    fact last_copy "和绝张" flag from last_copy
    fact fed_before "包先不包后" flag from fed_before 4
    fact plain "平" flag
    fact opened "开杠" flag
    at_draw pig "查花猪" : each player where suits == 3 and not won pays each player where suits < 3 16
    at_draw dajiao "查大叫" : each player where not ready and not won pays each player where ready and not won best
}
"""


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJR_CACHE_DIR", str(tmp_path / "cache"))


def write(tmp_path: Path, text: str, name: str = "play.test.mjr") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def play_of(tmp_path: Path, text: str, **options: object) -> PlayRules:
    return mjr.load(write(tmp_path, text), **PY, **options).play


def error_of(tmp_path: Path, body: str, head: str = HEAD) -> str:
    """The rendered error for a ruleset of ``head``, ``body`` and a closing brace."""
    path = write(tmp_path, head + body + "}\n")
    with pytest.raises(SourceError) as info:
        check_file(path)
    return str(info.value)


# -- each statement into PLAY ----------------------------------------------------------


def test_every_statement_reaches_the_rulesets_play(tmp_path: Path) -> None:
    play = play_of(tmp_path, ALL_STATEMENTS)
    assert (play.discard_win, play.missed_win, play.hand_ends, play.ends_after, play.dead_wall, play.last_draw) == \
        ("all", "same_tile", "wins", 3, 14, "roams")
    assert (play.dead_per_kong, play.void_suit, play.indicator_flip) == (1, "declared", "after_deal")
    assert play.open_kong == OpenKong("opened", when_ready=True, locks=True)
    assert play.false_win == FalseWin("zha_hu", "诈胡", 8, dead_hand=True)
    assert play.kong_payments == (KongPayment("direct", "点杠", "direct", "discarder", 3, True),
                                  KongPayment("added", "补杠", "added", "each", 1, False))
    assert play.next_dealer == (DealerRule(("drawn", "dealer_won"), "dealer"), DealerRule((), "next"))
    assert play.fact_sources == (("birds", "wall_after_win", 2), ("streak", "dealer_streak", 0),
                                 ("last_winner", "previous_winner", 0), ("last_copy", "last_copy", 0),
                                 ("fed_before", "fed_before", 4))
    assert play.draw_checks == (
        DrawCheck("pig", "查花猪", PlayerTest(None, False, ("==", 3)), PlayerTest(None, None, ("<", 3)), 16),
        DrawCheck("dajiao", "查大叫", PlayerTest(False, False, None), PlayerTest(True, False, None), -1))


def test_a_ruleset_without_them_plays_by_the_defaults(tmp_path: Path) -> None:
    assert play_of(tmp_path, HEAD + "}\n") == PlayRules()


def test_the_other_words(tmp_path: Path) -> None:
    text = HEAD + "    discard_win nearest\n    missed_win any_tile\n    hand_ends wall\n" \
                  "    next_dealer when several_winners : discarder\n    next_dealer : winner\n}\n"
    play = play_of(tmp_path, text)
    assert (play.discard_win, play.missed_win, play.hand_ends, play.ends_after) == ("nearest", "any_tile", "wall", 1)
    assert play.next_dealer == (DealerRule(("several_winners",), "discarder"), DealerRule((), "winner"))


def test_an_open_kong_and_a_false_win_take_their_words_or_none(tmp_path: Path) -> None:
    text = HEAD + '    fact opened "开杠" flag\n    open_kong opened\n    last_draw ordinary\n' \
                  '    false_win f "诈胡" : pays each opponent 3\n    next_dealer when drawn : last_drawer\n}\n'
    play = play_of(tmp_path, text)
    assert (play.open_kong, play.last_draw) == (OpenKong("opened", when_ready=False, locks=False), "ordinary")
    assert play.false_win == FalseWin("f", "诈胡", 3, dead_hand=False)
    assert play.next_dealer == (DealerRule(("drawn",), "last_drawer"),)


# -- options and variants ------------------------------------------------------------


OPTIONS = HEAD + """\
    option one_winner "截胡" flag default off
    option horses "买马" number 0 to 8 default 2
    discard_win all
    when one_winner { discard_win nearest }
    when horses > 0 {
        fact horse_tiles "马牌" tiles 1 to 8 from wall_after_win horses
    }
    next_dealer : next
    when one_winner {
        next_dealer when dealer_won : dealer
        next_dealer : previous
    }
}
"""


def test_options_choose_the_statements_and_the_number_of_horses(tmp_path: Path) -> None:
    usual = play_of(tmp_path, OPTIONS)
    assert usual.discard_win == "all"
    assert usual.fact_sources == (("horse_tiles", "wall_after_win", 2),)
    assert usual.next_dealer == (DealerRule((), "next"),)
    chosen = play_of(tmp_path, OPTIONS, one_winner=True, horses=5)
    assert chosen.discard_win == "nearest"
    assert chosen.fact_sources == (("horse_tiles", "wall_after_win", 5),)
    assert chosen.next_dealer == (DealerRule(("dealer_won",), "dealer"), DealerRule((), "previous"))
    assert play_of(tmp_path, OPTIONS, horses=0).fact_sources == ()


PARENT = ALL_STATEMENTS.replace('ruleset play.test "Play test"', 'ruleset play.base "Play base"')


def test_a_variant_replaces_settings_and_adds_to_the_lists(tmp_path: Path) -> None:
    write(tmp_path, PARENT, "play.base.mjr")
    variant = """\
ruleset play.variant "Play variant" extends play.base {
    discard_win nearest
    kong_pay concealed "暗杠" on concealed : each opponent pays 2
    kong_pay direct "点杠" on direct : discarder pays 1
    next_dealer : random
}
"""
    play = play_of(tmp_path, variant)
    assert play.discard_win == "nearest" and play.missed_win == "same_tile"
    assert [(k.id, k.amount) for k in play.kong_payments] == [("direct", 1), ("added", 1), ("concealed", 2)]
    assert play.next_dealer == (DealerRule((), "random"),)  # a variant's dealer rules replace the parent's
    assert [c.id for c in play.draw_checks] == ["pig", "dajiao"]


def test_a_variant_drops_kong_payments_and_draw_checks_by_id(tmp_path: Path) -> None:
    write(tmp_path, PARENT, "play.base.mjr")
    variant = """\
ruleset play.variant "Play variant" extends play.base {
    drop added birds
    drop at_draw pig
}
"""
    play = play_of(tmp_path, variant)
    assert [k.id for k in play.kong_payments] == ["direct"]
    assert [c.id for c in play.draw_checks] == ["dajiao"]
    assert [row[0] for row in play.fact_sources] == ["streak", "last_winner", "last_copy", "fed_before"]


def test_drop_names_the_kind_a_play_id_is(tmp_path: Path) -> None:
    write(tmp_path, PARENT, "play.base.mjr")
    text = 'ruleset play.variant "Play variant" extends play.base {\n    drop kong_pay pig\n}\n'
    path = write(tmp_path, text)
    with pytest.raises(SourceError) as info:
        check_file(path)
    assert "2:19: there is no kong payment 'pig' to drop: 'pig' is a draw check ('drop at_draw pig')" \
        in str(info.value)


# -- misuses, each at its place --------------------------------------------------------

MISUSES = [
    ("    discard_win first\n",
     "4:17: unknown word for 'discard_win' 'first'; the words are all, nearest", "discard_win first"),
    ("    missed_win same\n",
     "4:16: unknown word for 'missed_win' 'same' (did you mean 'same_tile'?); the words are none, same_tile, "
     "any_tile", "^^^^"),
    ("    hand_ends win 3\n",
     "4:15: unknown word for 'hand_ends' 'win' (did you mean 'wins'?); the words are first_win, wins, wall", "^^^"),
    ("    hand_ends wins\n", "4:15: 'hand_ends wins' needs how many players win before the hand ends (1 to 7)",
     "^^^^"),
    ("    hand_ends wins 8\n", "4:20: hand_ends wins 8: the hand ends after 1 to 7 players have won (all but one "
                              "at the largest table)", "^"),
    ("    hand_ends wall 2\n", "4:20: 'hand_ends wall' takes no number (only 'hand_ends wins N' does)", "^"),
    ("    dead_wall 41\n", "4:15: dead_wall 41: the tiles never drawn are 0 to 40", "^^"),
    ("    kong_pay k \"杠\" on open : each opponent pays 1\n",
     "4:23: unknown kind of kong 'open'; the words are direct, added, concealed", "^^^^"),
    ("    kong_pay k \"杠\" on added : discarder pays 1\n",
     "4:31: an added kong has no discarder (its tile was drawn): it is paid by each opponent", "^^^^^^^^^"),
    ("    kong_pay k \"杠\" on direct : left player pays 1\n",
     "4:32: a kong payment is paid by the discarder or by each opponent", "^^^^^^^^^^^"),
    ("    kong_pay k \"杠\" on direct : discarder pays 0\n", "4:47: a kong payment is 1 or more", "^"),
    ("    kong_pay k \"杠\" on direct : discarder pays 1 refund\n",
     "4:49: unknown word after the amount 'refund' (did you mean 'refund_at_draw'?); the words are "
     "refund_unless_ready, refund_unless_ready_at_end, refund_at_draw", "^^^^^^"),
    ("    next_dealer when drawn or won : dealer\n",
     "4:31: unknown dealer condition 'won'; the words are drawn, dealer_won, dealer_ready, several_winners, self_draw",
     "^^^"),
    ("    next_dealer : nex\n",
     "4:19: unknown next dealer 'nex' (did you mean 'next'?); the words are dealer, next, previous, winner, "
     "discarder, random, last_drawer", "^^^"),
    ("    next_dealer : next\n    next_dealer when drawn : dealer\n",
     "5:5: this next_dealer rule can never apply: the rule at line 4 has no 'when' and always decides",
     "next_dealer when drawn : dealer"),
    ("    fact birds \"鸟\" tiles 0 to 1 from wall 1\n",
     "4:38: unknown fact source 'wall'; the words are wall_after_win, dealer_streak, previous_winner, last_copy, "
     "fed_before",
     "^^^^"),
    ("    fact birds \"鸟\" number 0 to 1 from wall_after_win 1\n",
     "4:39: wall_after_win gives a tiles fact, and 'birds' is a number fact", "^^^^^^^^^^^^^^"),
    ("    fact streak \"连庄\" flag from dealer_streak\n",
     "4:32: dealer_streak gives a number fact, and 'streak' is a flag fact", "^^^^^^^^^^^^^"),
    ("    fact birds \"鸟\" tiles 0 to 1 from wall_after_win\n",
     "4:38: 'from wall_after_win' needs how many tiles, e.g. from wall_after_win 1", "^^^^^^^^^^^^^^"),
    ("    fact birds \"鸟\" tiles 0 to 1 from wall_after_win 2\n",
     "4:53: from wall_after_win 2: the fact holds 0 to 1 tiles, and a table draws 1 or more", "^"),
    ("    fact birds \"鸟\" tiles 0 to 1 from wall_after_win many\n",
     "4:53: the number after wall_after_win is a number or a number option's name, not 'many'", "^^^^"),
    ("    fact f \"包\" flag from fed_before\n",
     "4:26: 'from fed_before' needs which claimed meld, e.g. from fed_before 4", "^^^^^^^^^^"),
    ("    fact f \"包\" flag from fed_before 6\n",
     "4:37: from fed_before 6: a hand's claimed melds are counted 1 to 5", "^"),
    ("    fact streak \"连庄\" number 0 to 9 from dealer_streak 2\n",
     "4:55: 'from dealer_streak' takes no number (only 'from wall_after_win N' and 'from fed_before N' do)",
     "^"),
    ("    fact last \"上局\" number 0 to 2 from previous_winner\n",
     "4:39: previous_winner needs the fact's range to hold 0 to 3, not 0 to 2", "^^^^^^^^^^^^^^^"),
    ("    at_draw c \"查\" : each player where rich pays each player where ready 2\n",
     "4:39: unknown test 'rich'; the tests are ready, not ready, won, not won, discards_terminal, "
     "not discards_terminal, suits == N (or != < <= > >=), and of the hand's history first_discard T, "
     "claimed_first T, fed_first T", "^^^^"),
    ("    at_draw c \"查\" : each player where ready and not ready pays each player where won 2\n",
     "4:49: 'ready' is tested twice on one side", "^^^^^^^^^"),
    ("    at_draw c \"查\" : each player where suits > 4 pays each player where won 2\n",
     "4:39: suits > 4: a hand holds 0 to 3 suits", "^^^^^^^^^"),
    ("    at_draw c \"查\" : each player where ready pays each player where won 0\n",
     "4:72: a draw check pays a number (1 or more), 'best' or (EXPR) of payer|payee, not '0'", "^"),
    ("    at_draw c \"查\" : each player where ready pays each player where won most\n",
     "4:72: a draw check pays a number (1 or more), 'best' or (EXPR) of payer|payee, not 'most'", "^^^^"),
    ("    next_dealer when streak : next\n",
     "4:22: 'streak' takes the number of hands the dealer has kept the deal, 1 or more: 'streak 3'", "^^^^^^"),
    ("    next_dealer when drawn 2 : dealer\n",
     "4:22: 'drawn' takes no number (only 'streak N' does)", "^^^^^^^"),
    ("    dead_wall 16 plus 0 per kong\n", "4:23: plus 0 per kong: a kong leaves 1 to 4 more tiles undrawn", "^"),
    ("    void_suit declare\n",
     "4:15: unknown word for 'void_suit' 'declare' (did you mean 'declared'?); the words are none, declared",
     "^^^^^^^"),
    ("    indicator_flip first\n",
     "4:20: unknown word for 'indicator_flip' 'first'; the words are back, before_deal, after_deal", "^^^^^"),
    ("    last_draw roam\n",
     "4:15: unknown word for 'last_draw' 'roam' (did you mean 'roams'?); the words are ordinary, roams", "^^^^"),
    ("    open_kong opend\n",
     "4:15: open_kong sets a flag fact, and there is no fact 'opend'; declare it: fact opend \"...\" flag", "^^^^^"),
    ("    fact opened \"开\" flag\n    open_kong opend\n",
     "5:15: open_kong sets a flag fact, and there is no fact 'opend' (did you mean 'opened'?)", "^^^^^"),
    ("    fact n \"数\" number 0 to 3\n    open_kong n\n",
     "5:15: open_kong sets a flag fact of its own, and 'n' is a number fact", "^"),
    ("    fact c \"绝张\" flag from last_copy\n    open_kong c\n",
     "5:15: open_kong sets a flag fact of its own, and 'c' is filled from last_copy", "^"),
    ("    fact o \"开\" flag\n    open_kong o when_ready lock\n",
     "5:28: unknown word of open_kong 'lock' (did you mean 'locks'?); the words are when_ready, locks", "^^^^"),
    ("    fact o \"开\" flag\n    open_kong o locks locks\n",
     "5:23: 'locks' is written twice", "^^^^^"),
    ("    false_win f \"诈\" : pays discarder 3\n",
     "4:28: a false win is paid by its declarer to each opponent: 'pays each opponent N'", "^^^^^^^^^"),
    ("    false_win f \"诈\" : pays each opponent 0\n", "4:42: a false win's penalty is 1 or more", "^"),
    ("    false_win f \"诈\" : pays each opponent 3 dead\n",
     "4:44: unknown word after the amount 'dead' (did you mean 'dead_hand'?); the words are dead_hand", "^^^^"),
    ("    discard_win all\n    discard_win nearest\n",
     "5:5: duplicate setting 'discard_win' (first at line 4)", "discard_win nearest"),
]


@pytest.mark.parametrize(("body", "message", "shown"), MISUSES, ids=[m[1].split(": ", 1)[1][:40] for m in MISUSES])
def test_a_misuse_is_refused_at_its_place(tmp_path: Path, body: str, message: str, shown: str) -> None:
    error = error_of(tmp_path, body)
    assert f"play.test.mjr:{message}" in error
    assert shown in error  # the source line or the caret under the word


def test_a_dealer_rule_may_name_a_streak_and_a_kong(tmp_path: Path) -> None:
    play = play_of(tmp_path, HEAD + "    next_dealer when streak 3 or konged : next\n    next_dealer : dealer\n}\n")
    assert play.next_dealer == (DealerRule(("streak", "konged"), "next", 3), DealerRule((), "dealer"))


# -- the bundled rulesets ----------------------------------------------------------------


BUNDLED = Path(mjr.__file__).parent / "rulesets"


@pytest.mark.parametrize("ident", mjr.bundled_ids())
def test_every_bundled_ruleset_states_its_rules_of_play(ident: str) -> None:
    """Each file (or the base it extends) says who wins a discard and who deals next."""
    play = check_file(BUNDLED / f"{ident}.mjr").play
    assert play.discard_win in ("all", "nearest") and play.next_dealer, ident
    assert mjr.load(ident).play.next_dealer == tuple(DealerRule(*row) for row in play.next_dealer)


def test_sichuan_plays_bloody_battle() -> None:
    play = mjr.load("sichuan.xuezhan").play
    assert (play.hand_ends, play.ends_after, play.discard_win) == ("wins", 3, "all")
    assert [(k.kind, k.payer, k.amount, k.refund_unless_ready) for k in play.kong_payments] == [
        ("direct", "discarder", 1, True), ("added", "each", 1, True), ("concealed", "each", 2, True)]
    assert [c.id for c in play.draw_checks] == ["cha_hua_zhu", "cha_da_jiao"]
    assert play.next_dealer == (DealerRule((), "random"),)


def test_changsha_draws_one_bird_roams_the_last_tile_and_opens_kongs() -> None:
    play = mjr.load("changsha").play
    assert play.fact_sources == (("birds", "wall_after_win", 1),)
    assert play.discard_win == "all"
    assert play.next_dealer == (DealerRule(("drawn",), "last_drawer"),
                                DealerRule(("several_winners",), "discarder"), DealerRule((), "winner"))
    assert (play.last_draw, play.open_kong) == ("roams", OpenKong("opened", when_ready=True, locks=True))


def test_tuidaohu_pays_kongs_and_draws_its_horses() -> None:
    play = mjr.load("guangdong.tuidaohu", horses=3, horse_mapping="h2").play
    assert [(k.kind, k.payer, k.amount) for k in play.kong_payments] == [
        ("direct", "discarder", 3), ("added", "each", 1), ("concealed", "each", 2)]
    assert play.fact_sources == (("horse_tiles", "wall_after_win", 3), ("last_winner", "previous_winner", 0))
