"""A ruleset's rules of play spelled back as the ``.mjr`` language writes them: the
one description that ``mjr explain``, ``mjr diff`` and the region pages all show.

A loaded ruleset keeps its rules of play as data (:class:`mjr.ruleset.rules_of_play.PlayRules`),
not as the statements that made them, so each rule is spelled here from its data,
the same way wherever it is shown.  Every rule in force is spelled, a default one
too (``hand_ends first_win`` for a ruleset that states none), since a table plays by
it all the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ruleset.rules_of_play import (
    Abort,
    DealerRule,
    Declaration,
    DrawCheck,
    FalseWin,
    KongPayment,
    OpenKong,
    PlayerTest,
    PlayRules,
    Reveal,
)
from ..tiles.kinds import tile_text

#: The one-word settings, in the order shown.
SETTINGS = ("discard_win", "missed_win", "hand_ends", "dead_wall", "last_draw", "void_suit", "indicator_flip")
#: How ``kong_pay`` writes each payer.
KONG_PAYERS = {"discarder": "discarder", "each": "each opponent"}


@dataclass(frozen=True)
class PlayLine:
    """One rule of play: a setting (by keyword), a kong payment or draw check (by
    id), a fact's source, or the dealer rules as a whole (their order
    decides, so they are one rule of several statements).

    ``words`` is what each statement says after its keyword, id and name."""

    keyword: str  # a setting's keyword, open_kong, false_win, reveal, declare, abort, kong_pay, at_draw, fact,
    # next_dealer
    id: str
    name: str
    words: tuple[str, ...]

    @property
    def key(self) -> str:
        """What the rule is known by: ``hand_ends``, ``kong_pay xia_yu``, ``next_dealer``."""
        return f"{self.keyword} {self.id}" if self.id else self.keyword

    @property
    def statements(self) -> tuple[str, ...]:
        """The rule as the language writes it, one statement a line."""
        head = " ".join(part for part in (self.key, _quoted(self.name)) if part)
        return tuple(f"{head} {words}" for words in self.words)

    def as_json(self) -> dict[str, object]:
        return {"section": "play", "kind": self.keyword, "key": self.key, "id": self.id, "name": self.name,
                "statements": list(self.statements)}


def play_lines(rules: PlayRules) -> tuple[PlayLine, ...]:
    """Every rule of play of ``rules``: the settings, an open kong and a false win
    where stated, the kong payments, the draw checks, the facts a table fills, then
    the dealer rules."""
    ends = f"wins {rules.ends_after}" if rules.hand_ends == "wins" else rules.hand_ends
    dead = f"{rules.dead_wall} plus {rules.dead_per_kong} per kong" if rules.dead_per_kong else str(rules.dead_wall)
    missed = f"{rules.missed_win} own_discards" if rules.own_discards else rules.missed_win
    settings = {"discard_win": rules.discard_win, "missed_win": missed, "hand_ends": ends,
                "dead_wall": dead, "last_draw": rules.last_draw, "void_suit": rules.void_suit,
                "indicator_flip": rules.indicator_flip}
    stated = [_open_kong_line(rules.open_kong)] if rules.open_kong else []
    stated += [_false_win_line(rules.false_win)] if rules.false_win else []
    stated += [_reveal_line(rules.reveal)] if rules.reveal else []
    stated += [PlayLine("rob_concealed", "", "", (" ".join(rules.rob_concealed),))] if rules.rob_concealed else []
    stated += [_declare_line(declaration) for declaration in rules.declarations]
    stated += [_abort_line(abort) for abort in rules.aborts]
    return (*(PlayLine(keyword, "", "", (settings[keyword],)) for keyword in SETTINGS), *stated,
            *(PlayLine("kong_pay", k.id, k.name, (_kong_words(k),)) for k in rules.kong_payments),
            *(PlayLine(c.keyword, c.id, c.name, (_draw_words(c),)) for c in rules.draw_checks),
            *(PlayLine("fact", ident, "", (f"from {source}" + (f" {count}" if count else ""),))
              for ident, source, count in rules.fact_sources),
            PlayLine("next_dealer", "", "", tuple(_dealer_words(rule) for rule in rules.next_dealer)))


def _open_kong_line(rule: OpenKong) -> PlayLine:
    words = " ".join([rule.fact] + ["when_ready"] * rule.when_ready + ["locks"] * rule.locks)
    return PlayLine("open_kong", "", "", (words,))


def _false_win_line(rule: FalseWin) -> PlayLine:
    dead = " dead_hand" if rule.dead_hand else ""
    return PlayLine("false_win", rule.id, rule.name, (f": pays each opponent {rule.amount}{dead}",))


def _reveal_line(rule: Reveal) -> PlayLine:
    words = " ".join([str(rule.count)] + ["per_kong"] * rule.per_kong + [f"after {rule.after}"] * bool(rule.after))
    return PlayLine("reveal", "", "", (words,))


def _declare_line(rule: Declaration) -> PlayLine:
    words = [f"stake {rule.stake}"] + ["closed"] * rule.closed + [f"wall {rule.wall}"] * bool(rule.wall)
    words += ["locks"] * rule.locks + [f"first_turn({rule.first_turn})"] * bool(rule.first_turn)
    words += [f"next_turn({rule.next_turn})"] * bool(rule.next_turn) + ["missed_win_bars"] * rule.missed_win_bars
    return PlayLine("declare", rule.id, rule.name, (": " + " ".join(words),))


def _abort_line(rule: Abort) -> PlayLine:
    return PlayLine("abort", rule.id, rule.name, (f": {rule.word}" + (f" {rule.number}" if rule.number else ""),))


def _dealer_words(rule: DealerRule) -> str:
    words = [f"streak {rule.streak}" if word == "streak" else word for word in rule.conditions]
    return (f"when {' or '.join(words)} : " if words else ": ") + rule.target


def hand_end(rules: PlayRules) -> str:
    """How the hand ends, as the ``hand_ends`` statement says it: ``first_win``,
    ``wins 3``, ``wall``."""
    return next(line.words[0] for line in play_lines(rules) if line.keyword == "hand_ends")


def _quoted(name: str) -> str:
    if not name:
        return ""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _kong_words(payment: KongPayment) -> str:
    words = "".join(f" {word}" for word in payment.words)
    return f"on {payment.kind} : {KONG_PAYERS.get(payment.payer, payment.payer)} pays {payment.amount}{words}"


def _draw_words(check: DrawCheck) -> str:
    word = " shared" if check.shared else " dealer_double" if check.dealer_double else ""
    if check.holder:
        amount = f"({check.held_text}) of {check.holder}{word}"
    else:
        amount = "best" if check.amount < 0 else f"{check.amount}{word}"
    return f": {_player_words(check.payer)} pays {_player_words(check.payee)} {amount}"


def _player_words(test: PlayerTest) -> str:
    """``each player where ready and suits < 3 and not won``: the tests in one order
    (ready, suits, won), whatever order the file wrote them in."""
    tests = []
    if test.ready is not None:
        tests.append("ready" if test.ready else "not ready")
    if test.suits is not None:
        tests.append(f"suits {test.suits[0]} {test.suits[1]}")
    if test.won is not None:
        tests.append("won" if test.won else "not won")
    if test.discards_terminal is not None:
        tests.append("discards_terminal" if test.discards_terminal else "not discards_terminal")
    tests += [f"{'' if wanted else 'not '}{word} {tile_text(kind)}" for word, kind, wanted in test.history]
    return "each player" + (f" where {' and '.join(tests)}" if tests else "")


__all__ = ["PlayLine", "play_lines", "hand_end"]
