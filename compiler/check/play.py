"""The rules of a hand of play: ``discard_win``, ``missed_win``, ``hand_ends``,
``dead_wall``, ``last_draw``, ``void_suit``, ``indicator_flip``, ``open_kong``, ``false_win``, ``kong_pay``,
``next_dealer`` and ``at_draw``, and the sources of the facts of play a table fills
(``fact ... from SOURCE``).

They do not score a hand; the generated module lists them in ``PLAY`` for
:class:`mjr.ruleset.rules_of_play.PlayRules`, whose word lists are the allowed words here, so a
word the runtime would not know is refused where it is written.  A later statement of
the same keyword replaces the earlier (a variant's, a chosen ``when`` branch's); the
list statements accumulate in file order, ``kong_pay`` and ``at_draw`` by
id (a variant may ``drop`` one) and ``next_dealer`` as a whole per file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from mjr.abi import DEALER_CONDITIONS, DEALER_TARGETS, FACT_SOURCES, KONG_KINDS, OPEN_KONG_WORDS
from mjr.dsl import ast
from mjr.dsl.quoting import quoted
from mjr.errors import Span, did_you_mean
from mjr.options import Value

from ..model import ir

Report = Callable[[Span, str], None]

#: The words of each one-word statement.
SETTING_WORDS = {"discard_win": ("all", "nearest"), "missed_win": ("none", "same_tile", "any_tile"),
                 "hand_ends": ("first_win", "wins", "wall"), "last_draw": ("ordinary", "roams"),
                 "void_suit": ("none", "declared"), "indicator_flip": ("back", "before_deal", "after_deal")}
#: The statements that are rules of play; of them, those a later one replaces by keyword.
PLAY_STATEMENTS = (ast.PlaySetting, ast.OpenKong, ast.FalseWin, ast.KongPay, ast.NextDealer, ast.AtDraw)
SETTING_STATEMENTS = (ast.PlaySetting, ast.OpenKong, ast.FalseWin)
DEAD_WALL_MOST = 40
DEAD_PER_KONG_MOST = 4
#: How many players ``hand_ends wins N`` may wait for (the fourth has nobody left to win from).
WINS_MOST = 3
DRAW_TESTS = ("ready", "won", "suits")
#: The kind of fact each source of ``mjr.ruleset.rules_of_play.FACT_SOURCES`` gives, and the
#: values a number source gives (the fact's range must hold them).
FACT_SOURCE_KINDS = dict(zip(FACT_SOURCES, ("tiles", "number", "number", "flag", "flag"), strict=True))
FACT_SOURCE_RANGES = {"dealer_streak": (0, 1), "previous_winner": (0, 3)}
#: The sources that take a number: how many tiles, which claimed meld (1 to 5).
NUMBERED_SOURCES = {"wall_after_win": "how many tiles, e.g. from wall_after_win 1",
                    "fed_before": "which claimed meld, e.g. from fed_before 4"}
CLAIMED_MELDS_MOST = 5


@dataclass
class PlayStatements:
    """A ruleset's rules of play after its ``extends`` chain and its options."""

    settings: dict[str, ast.PlaySetting | ast.OpenKong | ast.FalseWin] = field(default_factory=dict)
    kong_payments: dict[str, ast.KongPay] = field(default_factory=dict)
    dealer: list[ast.NextDealer] = field(default_factory=list)
    draw_checks: dict[str, ast.AtDraw] = field(default_factory=dict)

    def add(self, statement: ast.Statement) -> None:
        """Take ``statement`` over what came before it (see the module's docstring)."""
        if isinstance(statement, SETTING_STATEMENTS):
            self.settings[statement.keyword] = statement
        elif isinstance(statement, ast.KongPay):
            self.kong_payments[statement.id] = statement
        elif isinstance(statement, ast.AtDraw):
            self.draw_checks[statement.id] = statement
        elif isinstance(statement, ast.NextDealer):
            if self.dealer and self.dealer[0].span.file != statement.span.file:
                self.dealer = []  # a variant's dealer rules replace its parent's as a whole
            self.dealer.append(statement)

    def droppable(self) -> tuple[dict[str, ast.Statement], ...]:
        """The statements ``drop`` may remove by id."""
        return (self.kong_payments, self.draw_checks)  # type: ignore[return-value]


def statement_key(statement: ast.Statement) -> tuple[str, str] | None:
    """The kind and id (or keyword) a rule of play is replaced by; None for
    ``next_dealer``, whose rules are many and have no id."""
    if isinstance(statement, SETTING_STATEMENTS):
        return ("setting", statement.keyword)
    if isinstance(statement, ast.KongPay):
        return ("kong payment", statement.id)
    if isinstance(statement, ast.AtDraw):
        return ("draw check", statement.id)
    return None


def lower_play(statements: PlayStatements, facts: Iterable[ast.Fact], chosen: Mapping[str, Value],
               report: Report) -> ir.Play:
    """The checked rules of play, as the rows ``PlayRules.from_module`` reads."""
    settings = statements.settings
    words = {keyword: _setting_word(settings[keyword], report)  # type: ignore[arg-type]
             for keyword in SETTING_WORDS if keyword in settings}
    ends, dead_wall = settings.get("hand_ends"), settings.get("dead_wall")
    open_kong, false_win = settings.get("open_kong"), settings.get("false_win")
    facts = tuple(facts)
    return ir.Play(
        discard_win=words.get("discard_win"),
        missed_win=words.get("missed_win"),
        hand_ends=words.get("hand_ends"),
        ends_after=_ends_after(ends, report) if isinstance(ends, ast.PlaySetting) and words.get("hand_ends") else None,
        dead_wall=_dead_wall(dead_wall, report) if isinstance(dead_wall, ast.PlaySetting) else None,
        dead_per_kong=_dead_per_kong(dead_wall) if isinstance(dead_wall, ast.PlaySetting) else None,
        last_draw=words.get("last_draw"),
        void_suit=words.get("void_suit"),
        indicator_flip=words.get("indicator_flip"),
        open_kong=_open_kong(open_kong, facts, report) if isinstance(open_kong, ast.OpenKong) else None,
        false_win=_false_win(false_win, report) if isinstance(false_win, ast.FalseWin) else None,
        kong_payments=tuple(_kong_payment(k, report) for k in statements.kong_payments.values()),
        next_dealer=_dealer_rules(statements.dealer, report),
        draw_checks=tuple(_draw_check(c, report) for c in statements.draw_checks.values()),
        fact_sources=_fact_sources(facts, chosen, report),
    )


def _word(word: ast.Option, allowed: tuple[str, ...], what: str, report: Report) -> str | None:
    """``word`` when ``allowed`` holds it, else reported naming the allowed words."""
    if word.name in allowed:
        return word.name
    report(word.span, f"unknown {what} {quoted(word.name)}{did_you_mean(word.name, allowed)}; "
                      f"the words are {', '.join(allowed)}")
    return None


def _setting_word(statement: ast.PlaySetting, report: Report) -> str | None:
    assert statement.word is not None
    return _word(statement.word, SETTING_WORDS[statement.keyword], f"word for {quoted(statement.keyword)}", report)


def _ends_after(statement: ast.PlaySetting, report: Report) -> int | None:
    """``hand_ends wins N`` ends the hand once N players have won; the others take no number."""
    assert statement.word is not None
    if statement.word.name != "wins":
        if statement.number is not None:
            report(statement.number[1], f"'hand_ends {statement.word.name}' takes no number "
                                        f"(only 'hand_ends wins N' does)")
        return None
    if statement.number is None:
        report(statement.word.span, f"'hand_ends wins' needs how many players win before the hand ends "
                                    f"(1 to {WINS_MOST}), e.g. hand_ends wins 3")
        return None
    value, span = statement.number
    if not 1 <= value <= WINS_MOST:
        report(span, f"hand_ends wins {value}: the hand ends after 1 to {WINS_MOST} players have won")
        return None
    return value


def _dead_wall(statement: ast.PlaySetting, report: Report) -> int | None:
    assert statement.number is not None
    value, span = statement.number
    if value > DEAD_WALL_MOST:
        report(span, f"dead_wall {value}: the tiles never drawn are 0 to {DEAD_WALL_MOST}")
        return None
    if statement.per_kong is not None and not 1 <= statement.per_kong[0] <= DEAD_PER_KONG_MOST:
        report(statement.per_kong[1], f"plus {statement.per_kong[0]} per kong: a kong leaves 1 to "
                                      f"{DEAD_PER_KONG_MOST} more tiles undrawn")
    return value


def _dead_per_kong(statement: ast.PlaySetting) -> int | None:
    """``dead_wall N plus M per kong``: M, or None for a file that says no more."""
    return statement.per_kong[0] if statement.per_kong is not None else None


def _open_kong(statement: ast.OpenKong, facts: Iterable[ast.Fact], report: Report) -> ir.OpenKongRow | None:
    """``open_kong FACT [when_ready] [locks]``: FACT is a flag fact the table sets, so
    one no other source fills; each word at most once."""
    fact = next((f for f in facts if f.id == statement.fact.name), None)
    name = statement.fact.name
    if fact is None:
        flags = [f.id for f in facts if f.kind == "flag"]
        report(statement.fact.span, f"open_kong sets a flag fact, and there is no fact {quoted(name)}"
                                    f"{did_you_mean(name, flags)}; declare it: fact {name} \"...\" flag")
        return None
    if fact.kind != "flag" or fact.source is not None:
        why = f"a {fact.kind} fact" if fact.kind != "flag" else f"filled from {fact.source.name}"  # type: ignore[union-attr]
        report(statement.fact.span, f"open_kong sets a flag fact of its own, and {quoted(name)} is {why}")
        return None
    seen: set[str] = set()
    for word in statement.words:
        if _word(word, OPEN_KONG_WORDS, "word of open_kong", report) and word.name in seen:
            report(word.span, f"{quoted(word.name)} is written twice")
        seen.add(word.name)
    return (name, "when_ready" in seen, "locks" in seen)


def _false_win(statement: ast.FalseWin, report: Report) -> ir.FalseWinRow:
    if statement.payer.kind != "each":
        report(statement.payer.span, "a false win is paid by its declarer to each opponent: "
                                     "'pays each opponent N'")
    amount, span = statement.amount
    if amount < 1:
        report(span, "a false win's penalty is 1 or more")
    if statement.word is not None:
        _word(statement.word, ("dead_hand",), "word after the amount", report)
    return (statement.id, statement.display, amount, statement.word is not None)


def _kong_payment(statement: ast.KongPay, report: Report) -> ir.KongPayRow:
    kind = _word(statement.kind, KONG_KINDS, "kind of kong", report)
    payer = statement.payer.kind
    if payer not in ("discarder", "each"):
        report(statement.payer.span, "a kong payment is paid by the discarder or by each opponent")
    elif payer == "discarder" and kind not in ("direct", None):
        report(statement.payer.span, f"an {kind} kong has no discarder (its tile was drawn): "
                                     f"it is paid by each opponent")
    amount, span = statement.amount
    if amount < 1:
        report(span, "a kong payment is 1 or more")
    refund = statement.refund
    if refund is not None:
        _word(refund, ("refund_unless_ready",), "word after the amount", report)
    return (statement.id, statement.display, kind or "", payer, amount, refund is not None)


def _dealer_rules(rules: list[ast.NextDealer], report: Report) -> tuple[ir.DealerRow, ...]:
    """The rules in file order; one after an unconditional rule could never apply."""
    rows: list[ir.DealerRow] = []
    always: ast.NextDealer | None = None
    for rule in rules:
        if always is not None:
            report(rule.span, f"this next_dealer rule can never apply: the rule at line {always.span.line} "
                              f"has no 'when' and always decides")
        words = tuple(_word(word, DEALER_CONDITIONS, "dealer condition", report) or "" for word in rule.conditions)
        target = _word(rule.target, DEALER_TARGETS, "next dealer", report) or ""
        rows.append((words, target, _streak(rule.conditions, report)))
        if not rule.conditions and always is None:
            always = rule
    return tuple(rows)


def _streak(conditions: tuple[ast.Option, ...], report: Report) -> int:
    """The N of ``streak N`` among a rule's conditions (0 without one); only
    ``streak`` takes a number, and it must be 1 or more."""
    streak = 0
    for word in conditions:
        if word.name == "streak":
            if not word.arguments or int(word.arguments[0]) < 1:
                report(word.span, "'streak' takes the number of hands the dealer has kept the deal, 1 or more: "
                                  "'streak 3'")
            else:
                streak = int(word.arguments[0])
        elif word.arguments:
            report(word.span, f"{quoted(word.name)} takes no number (only 'streak N' does)")
    return streak


def _fact_sources(facts: Iterable[ast.Fact], chosen: Mapping[str, Value],
                  report: Report) -> tuple[ir.FactSourceRow, ...]:
    """``fact ... from SOURCE [N]``: the facts a table of play fills, each from a
    source that gives a value of its kind and range."""
    rows: list[ir.FactSourceRow] = []
    for fact in facts:
        if fact.source is None:
            continue
        source = _word(fact.source, tuple(FACT_SOURCE_KINDS), "fact source", report)
        if source is None:
            continue
        kind = FACT_SOURCE_KINDS[source]
        if fact.kind != kind:
            report(fact.source.span, f"{source} gives a {kind} fact, and {quoted(fact.id)} is a {fact.kind} fact")
            continue
        rows.append((fact.id, source, _fact_count(fact, source, chosen, report)))
    return tuple(rows)


def _fact_count(fact: ast.Fact, source: str, chosen: Mapping[str, Value], report: Report) -> int:
    """The number a source takes: how many tiles ``wall_after_win`` draws (within
    the fact's range), which claimed meld ``fed_before`` looks at (a number or a
    number option's value either way); 0 for the sources that take none."""
    count, (low, high) = fact.count, FACT_SOURCE_RANGES.get(source, (fact.low, fact.high))
    assert fact.source is not None
    if source not in NUMBERED_SOURCES:
        if count is not None:
            report(count.span, f"'from {source}' takes no number (only 'from wall_after_win N' and "
                               f"'from fed_before N' do)")
        if not fact.low <= low <= high <= fact.high:
            report(fact.source.span, f"{source} needs the fact's range to hold {low} to {high}, "
                                     f"not {fact.low} to {fact.high}")
        return 0
    if count is None:
        report(fact.source.span, f"'from {source}' needs {NUMBERED_SOURCES[source]}")
        return 0
    value = count.value if isinstance(count, ast.Number | ast.OptionValue) else None
    if not isinstance(value, int) or isinstance(value, bool):
        options = [name for name, v in chosen.items() if isinstance(v, int) and not isinstance(v, bool)]
        written = count.name if isinstance(count, ast.Name) else "this"
        report(count.span, f"the number after {source} is a number or a number option's name, not "
                           f"{quoted(written)}{did_you_mean(written, options)}")
        return 0
    if source == "fed_before":
        if not 1 <= value <= CLAIMED_MELDS_MOST:
            report(count.span, f"from fed_before {value}: a hand's claimed melds are counted 1 to "
                               f"{CLAIMED_MELDS_MOST}")
        return value
    if not max(low, 1) <= value <= high:
        report(count.span, f"from wall_after_win {value}: the fact holds {fact.low} to {fact.high} tiles, "
                           f"and a table draws 1 or more")
    return value


def _draw_check(statement: ast.AtDraw, report: Report) -> ir.DrawCheckRow:
    amount = statement.amount
    value = -1
    if amount.name == "best":
        pass
    elif amount.name.isdigit() and int(amount.name) > 0:
        value = int(amount.name)
    else:
        report(amount.span, f"a draw check pays a number (1 or more) or 'best', not {quoted(amount.name)}")
    return (statement.id, statement.display, _player_test(statement.payer, report),
            _player_test(statement.payee, report), value)


def _player_test(tests: tuple[ast.DrawTest, ...], report: Report) -> ir.PlayerTestRow:
    """(ready, won, suits) of one side: None where the side does not test it."""
    found: dict[str, object] = {}
    for test in tests:
        if test.word not in DRAW_TESTS or (test.word == "suits" and test.negated):
            allowed = "ready, not ready, won, not won, suits == N (or != < <= > >=)"
            report(test.span, f"unknown test {quoted(test.word)}{did_you_mean(test.word, DRAW_TESTS)}; "
                              f"the tests are {allowed}")
            continue
        if test.word in found:
            report(test.span, f"{quoted(test.word)} is tested twice on one side")
            continue
        if test.word == "suits":
            if not 0 <= test.value <= 3:
                report(test.span, f"suits {test.compare} {test.value}: a hand holds 0 to 3 suits")
            found["suits"] = (test.compare, test.value)
        else:
            found[test.word] = not test.negated
    ready, won, suits = (found.get(word) for word in DRAW_TESTS)
    return (ready, won, suits)  # type: ignore[return-value]
