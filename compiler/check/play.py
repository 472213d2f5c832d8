"""The rules of a hand of play: ``discard_win``, ``missed_win``, ``hand_ends``,
``dead_wall``, ``last_draw``, ``void_suit``, ``indicator_flip``, ``open_kong``, ``false_win``,
``reveal``, ``declare``, ``abort``, ``rob_concealed``, ``kong_pay``, ``next_dealer`` and ``at_draw``, and the
sources of the facts of play a table fills (``fact ... from SOURCE``).

They do not score a hand; the generated module lists them in ``PLAY`` for
:class:`mjr.ruleset.rules_of_play.PlayRules`, whose word lists are the allowed words here, so a
word the runtime would not know is refused where it is written.  A later statement of
the same keyword replaces the earlier (a variant's, a chosen ``when`` branch's); the
list statements accumulate in file order, ``declare``, ``abort``, ``kong_pay`` and ``at_draw`` by
id (a variant may ``drop`` one) and ``next_dealer`` as a whole per file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from mjr.abi import (
    ABORT_WORDS,
    DEALER_CONDITIONS,
    DEALER_TARGETS,
    DECLARE_WORDS,
    FACT_SOURCES,
    KONG_KINDS,
    OPEN_KONG_WORDS,
    REVEAL_WORDS,
    SEATS,
    SHAPES,
)
from mjr.dsl import ast
from mjr.dsl.quoting import quoted
from mjr.errors import Span, did_you_mean
from mjr.options import Value
from mjr.tiles.kinds import parse_tile

from ..model import ir

Report = Callable[[Span, str], None]

#: The words of each one-word statement.
SETTING_WORDS = {"discard_win": ("all", "nearest"), "missed_win": ("none", "same_tile", "any_tile"),
                 "hand_ends": ("first_win", "wins", "wall"), "last_draw": ("ordinary", "roams"),
                 "void_suit": ("none", "declared"), "indicator_flip": ("back", "before_deal", "after_deal")}
#: The statements that are rules of play; of them, those a later one replaces by keyword.
PLAY_STATEMENTS = (ast.PlaySetting, ast.OpenKong, ast.FalseWin, ast.Reveal, ast.RobConcealed, ast.Declare, ast.Abort,
                   ast.KongPay, ast.NextDealer, ast.AtDraw)
SETTING_STATEMENTS = (ast.PlaySetting, ast.OpenKong, ast.FalseWin, ast.Reveal, ast.RobConcealed)
#: The second word ``missed_win`` may take.
MISSED_ALSO = ("own_discards",)
#: The most tiles ``reveal`` turns up at the deal, and the most it keeps before them.
REVEAL_MOST = 5
REVEAL_AFTER_MOST = 8
#: The most tiles ``declare ... wall N`` may ask to be left.
DECLARE_WALL_MOST = 40
DEAD_WALL_MOST = 40
DEAD_PER_KONG_MOST = 4
#: How many players ``hand_ends wins N`` may wait for: all but one at the largest table
#: (at any table the hand ends too when one player is left, with nobody to win from).
WINS_MOST = SEATS - 1
DRAW_TESTS = ("ready", "won", "suits", "discards_terminal")
#: The tests of a hand's history, each of a tile T: the player discarded the hand's
#: first T; claimed it; discarded it and another player claimed it.
HISTORY_TESTS = ("first_discard", "claimed_first", "fed_first")
#: The words that may follow a draw check's number: shared among payers and payees, or
#: doubled where the payer or the payee deals.
DRAW_AMOUNT_WORDS = ("shared", "dealer_double")
#: Whose tiles a held amount (``(EXPR) of payer|payee``) counts.
HOLDERS = ("payer", "payee")
#: The kind of fact each source of ``mjr.ruleset.rules_of_play.FACT_SOURCES`` gives, and the
#: values a number source gives (the fact's range must hold them).
FACT_SOURCE_KINDS = dict(zip(FACT_SOURCES, ("tiles", "number", "number", "flag", "flag", "tiles", "tiles", "number",
                                            "number", "flag"), strict=True))
FACT_SOURCE_RANGES = {"dealer_streak": (0, 1), "previous_winner": (0, 3), "deposits": (0, 1), "repeats": (0, 1)}
#: The sources that take a number: how many tiles, which claimed meld (1 to 5).
NUMBERED_SOURCES = {"wall_after_win": "how many tiles, e.g. from wall_after_win 1",
                    "fed_before": "which claimed meld, e.g. from fed_before 4"}
CLAIMED_MELDS_MOST = 5


@dataclass
class PlayStatements:
    """A ruleset's rules of play after its ``extends`` chain and its options."""

    settings: dict[str, ast.PlaySetting | ast.OpenKong | ast.FalseWin | ast.Reveal | ast.RobConcealed] = field(
        default_factory=dict)
    declarations: dict[str, ast.Declare] = field(default_factory=dict)
    aborts: dict[str, ast.Abort] = field(default_factory=dict)
    kong_payments: dict[str, ast.KongPay] = field(default_factory=dict)
    dealer: list[ast.NextDealer] = field(default_factory=list)
    draw_checks: dict[str, ast.AtDraw] = field(default_factory=dict)

    def add(self, statement: ast.Statement) -> None:
        """Take ``statement`` over what came before it (see the module's docstring)."""
        if isinstance(statement, SETTING_STATEMENTS):
            self.settings[statement.keyword] = statement
        elif isinstance(statement, ast.KongPay):
            self.kong_payments[statement.id] = statement
        elif isinstance(statement, ast.Declare):
            self.declarations[statement.id] = statement
        elif isinstance(statement, ast.Abort):
            self.aborts[statement.id] = statement
        elif isinstance(statement, ast.AtDraw):
            self.draw_checks[statement.id] = statement
        elif isinstance(statement, ast.NextDealer):
            if self.dealer and self.dealer[0].span.file != statement.span.file:
                self.dealer = []  # a variant's dealer rules replace its parent's as a whole
            self.dealer.append(statement)

    def droppable(self) -> tuple[dict[str, ast.Statement], ...]:
        """The statements ``drop`` may remove by id."""
        return (self.kong_payments, self.draw_checks, self.declarations, self.aborts)  # type: ignore[return-value]


def held_amounts(statements: PlayStatements) -> list[tuple[ast.AtDraw, int]]:
    """The draw checks and end payments, each with the index of its held amount among
    them (``(EXPR) of payer|payee``; -1 for none): the order of the ruleset's held
    amounts, which the checker checks and the module works out."""
    found, held = [], 0
    for check in statements.draw_checks.values():
        found.append((check, held if check.held is not None else -1))
        held += check.held is not None
    return found


def win_facts(statements: PlayStatements, facts: Iterable[ast.Fact]) -> dict[str, str]:
    """The facts a table sets for a win only, each with what sets it: a held amount,
    worked out on every player at the close, may not read them."""
    found = {fact.id: f"'from {fact.source.name}', a fact of the winning tile" for fact in facts
             if fact.source is not None and fact.source.name in ("last_copy", "unseen")}
    for declaration in statements.declarations.values():
        for word in declaration.words:
            if word.name == "next_turn" and word.arguments:
                found[word.arguments[0]] = f"the next_turn(...) of declare {declaration.id}, a fact of a win's turn"
    open_kong = statements.settings.get("open_kong")
    if isinstance(open_kong, ast.OpenKong):
        found[open_kong.fact.name] = "open_kong, a fact of a win on a kong's replacement"
    return found


def statement_key(statement: ast.Statement) -> tuple[str, str] | None:
    """The kind and id (or keyword) a rule of play is replaced by; None for
    ``next_dealer``, whose rules are many and have no id."""
    if isinstance(statement, SETTING_STATEMENTS):
        return ("setting", statement.keyword)
    if isinstance(statement, ast.KongPay):
        return ("kong payment", statement.id)
    if isinstance(statement, ast.Declare):
        return ("declaration", statement.id)
    if isinstance(statement, ast.Abort):
        return ("abortive draw", statement.id)
    if isinstance(statement, ast.AtDraw):
        return ("draw check or end payment", statement.id)  # at_draw, at_end and at_win share their ids
    return None


def lower_play(statements: PlayStatements, facts: Iterable[ast.Fact], chosen: Mapping[str, Value],
               kinds: tuple[int, ...], report: Report, span_text: Callable[[Span], str]) -> ir.Play:
    """The checked rules of play, as the rows ``PlayRules.from_module`` reads (``kinds``:
    the tile set's; ``span_text``: the text of the file under a span, for a held
    amount's spelling)."""
    settings = statements.settings
    words = {keyword: _setting_word(settings[keyword], report)  # type: ignore[arg-type]
             for keyword in SETTING_WORDS if keyword in settings}
    ends, dead_wall = settings.get("hand_ends"), settings.get("dead_wall")
    open_kong, false_win, reveal = settings.get("open_kong"), settings.get("false_win"), settings.get("reveal")
    missed, robbed = settings.get("missed_win"), settings.get("rob_concealed")
    facts = tuple(facts)
    dead = _dead_wall(dead_wall, report) if isinstance(dead_wall, ast.PlaySetting) else None
    revealed = _reveal(reveal, dead or 0, report) if isinstance(reveal, ast.Reveal) else None
    declarations = tuple(row for row in (_declaration(d, facts, report) for d in statements.declarations.values())
                         if row is not None)
    if isinstance(open_kong, ast.OpenKong) and any(open_kong.fact.name in (row[0], row[6], row[7])
                                                   for row in declarations):
        report(open_kong.fact.span, f"open_kong sets {quoted(open_kong.fact.name)}, which the declaration sets: "
                                    f"each needs a flag fact of its own")
    for extra in list(statements.declarations.values())[1:]:
        first = next(iter(statements.declarations.values()))
        report(extra.span, f"a ruleset has one declaration, and {quoted(first.id)} is declared at line "
                           f"{first.span.line}: a player's declare action names no id")
    return ir.Play(
        discard_win=words.get("discard_win"),
        missed_win=words.get("missed_win"),
        own_discards=_own_discards(missed, report) if isinstance(missed, ast.PlaySetting) else None,
        hand_ends=words.get("hand_ends"),
        ends_after=_ends_after(ends, report) if isinstance(ends, ast.PlaySetting) and words.get("hand_ends") else None,
        dead_wall=dead,
        dead_per_kong=_dead_per_kong(dead_wall) if isinstance(dead_wall, ast.PlaySetting) else None,
        last_draw=words.get("last_draw"),
        void_suit=words.get("void_suit"),
        indicator_flip=words.get("indicator_flip"),
        open_kong=_open_kong(open_kong, facts, report) if isinstance(open_kong, ast.OpenKong) else None,
        false_win=_false_win(false_win, report) if isinstance(false_win, ast.FalseWin) else None,
        reveal=revealed,
        rob_concealed=_rob_concealed(robbed, report) if isinstance(robbed, ast.RobConcealed) else None,
        declarations=declarations,
        aborts=tuple(row for row in (_abort(a, bool(statements.declarations), report)
                                     for a in statements.aborts.values()) if row is not None),
        kong_payments=tuple(_kong_payment(k, report) for k in statements.kong_payments.values()),
        next_dealer=_dealer_rules(statements.dealer, report),
        draw_checks=tuple(_draw_check(c, held, kinds, report, span_text) for c, held in held_amounts(statements)),
        fact_sources=_fact_sources(facts, chosen, report, reveal is not None, bool(statements.declarations),
                                   revealed),
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
        report(span, f"hand_ends wins {value}: the hand ends after 1 to {WINS_MOST} players have won "
                     "(all but one at the largest table)")
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


def _own_flag(name: str, span: Span, facts: Iterable[ast.Fact], what: str, report: Report) -> bool:
    """Whether ``name`` is a flag fact no source fills, which the table sets for
    ``what`` (``open_kong``, ``declare``); else reported."""
    facts = tuple(facts)
    fact = next((f for f in facts if f.id == name), None)
    if fact is None:
        flags = [f.id for f in facts if f.kind == "flag"]
        report(span, f"{what} sets a flag fact, and there is no fact {quoted(name)}"
                     f"{did_you_mean(name, flags)}; declare it: fact {name} \"...\" flag")
        return False
    if fact.kind != "flag" or fact.source is not None:
        why = f"a {fact.kind} fact" if fact.kind != "flag" else f"filled from {fact.source.name}"  # type: ignore[union-attr]
        report(span, f"{what} sets a flag fact of its own, and {quoted(name)} is {why}")
        return False
    return True


def _open_kong(statement: ast.OpenKong, facts: Iterable[ast.Fact], report: Report) -> ir.OpenKongRow | None:
    """``open_kong FACT [when_ready] [locks]``: FACT is a flag fact the table sets, so
    one no other source fills; each word at most once."""
    name = statement.fact.name
    if not _own_flag(name, statement.fact.span, facts, "open_kong", report):
        return None
    seen: set[str] = set()
    for word in statement.words:
        if _word(word, OPEN_KONG_WORDS, "word of open_kong", report) and word.name in seen:
            report(word.span, f"{quoted(word.name)} is written twice")
        seen.add(word.name)
    return (name, "when_ready" in seen, "locks" in seen)


def _own_discards(statement: ast.PlaySetting, report: Report) -> bool | None:
    """``missed_win WORD own_discards``: True, or None without the second word."""
    if statement.also is None:
        return None
    return _word(statement.also, MISSED_ALSO, "second word of missed_win", report) is not None


#: What the words of ``declare`` and ``reveal`` take (a number, shown here as its
#: example, or a fact in brackets); the others take nothing.
_WORD_TAKES = {"stake": "1000", "wall": "4", "after": "4", "first_turn": "fact", "next_turn": "fact"}


def _play_words(words: tuple[ast.Option, ...], allowed: tuple[str, ...], what: str,
                report: Report) -> tuple[dict[str, str], bool]:
    """The words of a ``declare`` or ``reveal``, each with its argument ("" for
    none): each an ``allowed`` word, written once, with what it takes; and whether
    every one was (the others are reported)."""
    found: dict[str, str] = {}
    ok = True
    for word in words:
        if _word(word, allowed, f"word of {what}", report) is None:
            ok = False
            continue
        takes = _WORD_TAKES.get(word.name)
        argument = word.arguments[0] if len(word.arguments) == 1 else None
        if word.name in found:
            report(word.span, f"{quoted(word.name)} is written twice")
        elif takes == "fact" and (argument is None or argument.isdigit()):
            report(word.span, f"{quoted(word.name)} names the flag fact it sets, in brackets, and nothing else: "
                              f"{word.name}(FACT)")
        elif takes is not None and takes != "fact" and (argument is None or not argument.isdigit()):
            report(word.span, f"{quoted(word.name)} takes a number and nothing else, e.g. {word.name} {takes}")
        elif takes is None and word.arguments:
            report(word.span, f"{quoted(word.name)} takes no number or fact")
        else:
            found[word.name] = argument or ""
            continue
        ok = False
    return found, ok


def _declaration(statement: ast.Declare, facts: Iterable[ast.Fact], report: Report) -> ir.DeclareRow | None:
    """``declare ID "name" : WORDS``: ID and the facts named in brackets are flag
    facts the table sets; each word once, with what it takes."""
    facts = tuple(facts)
    ok = _own_flag(statement.id, statement.span, facts, f"declare {statement.id}", report)
    found, words_ok = _play_words(statement.words, DECLARE_WORDS, "declare", report)
    set_already = {statement.id: f"declare {statement.id}"}
    for word in statement.words:
        fact = found.get(word.name) if _WORD_TAKES.get(word.name) == "fact" else None
        if not fact:
            continue
        if fact in set_already:
            report(word.span, f"{word.name}({fact}) sets the fact {set_already[fact]} sets: each needs a flag "
                              f"fact of its own")
            ok = False
        else:
            ok = _own_flag(fact, word.span, facts, f"{word.name}(...)", report) and ok
            set_already[fact] = f"{word.name}(...)"
    wall = int(found.get("wall") or 0)
    if wall > DECLARE_WALL_MOST:
        report(statement.span, f"wall {wall}: a declaration may ask for 0 to {DECLARE_WALL_MOST} tiles left to draw")
        ok = False
    if not (ok and words_ok):
        return None
    return (statement.id, statement.display, int(found.get("stake") or 0), "closed" in found, wall,
            "locks" in found, found.get("first_turn", ""), found.get("next_turn", ""), "missed_win_bars" in found)


def _rob_concealed(statement: ast.RobConcealed, report: Report) -> tuple[str, ...]:
    """``rob_concealed SHAPE...``: built-in shapes, each once."""
    shapes: list[str] = []
    for word in statement.shapes:
        if _word(word, SHAPES, "shape of rob_concealed", report) is None:
            continue
        if word.name in shapes:
            report(word.span, f"{quoted(word.name)} is written twice")
            continue
        shapes.append(word.name)
    return tuple(shapes)


#: The number each word of ``abort`` takes (its example), where it takes one.
_ABORT_TAKES = {"nine_kinds": "9", "kongs": "4"}


def _abort(statement: ast.Abort, declares: bool, report: Report) -> ir.AbortRow | None:
    """``abort ID "name" : WORD [N]``: a word of ABORT_WORDS, with its number where it
    takes one (``nine_kinds`` 1 to 13 kinds, ``kongs`` 2 to 4); ``all_declared``
    needs a declaration to count."""
    word = statement.word
    if _word(word, ABORT_WORDS, "word of abort", report) is None:
        return None
    example = _ABORT_TAKES.get(word.name)
    number = word.arguments[0] if len(word.arguments) == 1 else ""
    if example is None:
        if word.arguments:
            report(word.span, f"{quoted(word.name)} takes no number or fact")
            return None
        if word.name == "all_declared" and not declares:
            report(word.span, "all_declared aborts the hand once every player's declaration stands, and the "
                              "ruleset has no declaration (declare ID \"name\" : stake N ...)")
            return None
        return (statement.id, statement.display, word.name, 0)
    low, high = (1, 13) if word.name == "nine_kinds" else (2, 4)
    if not number.isdigit() or not low <= int(number) <= high:
        report(word.span, f"{quoted(word.name)} takes a number {low} to {high} and nothing else, e.g. "
                          f"{word.name} {example}")
        return None
    return (statement.id, statement.display, word.name, int(number))


def _reveal(statement: ast.Reveal, dead_wall: int, report: Report) -> ir.RevealRow | None:
    """``reveal N [per_kong] [after M]``: N tiles (1 to REVEAL_MOST) turned up at the
    deal, each on a tile of its own, past the M (0 to REVEAL_AFTER_MOST) kept for
    replacements, one more after each kong (as many as M); every one in the dead wall."""
    count, span = statement.count
    ok = 1 <= count <= REVEAL_MOST
    if not ok:
        report(span, f"reveal {count}: a deal reveals 1 to {REVEAL_MOST} tiles")
    words, words_ok = _play_words(statement.words, REVEAL_WORDS, "reveal", report)
    ok = ok and words_ok
    after, per_kong = int(words.get("after") or 0), "per_kong" in words
    if after > REVEAL_AFTER_MOST:
        report(statement.span, f"after {after}: the tiles kept at the back for replacements are 0 to "
                               f"{REVEAL_AFTER_MOST}")
        ok = False
    if ok and per_kong and after == 0:
        report(statement.span, "reveal ... per_kong reveals one more tile per kong, as many as the replacement "
                               "tiles kept: add after N (4 where a hand has at most four kongs)")
        ok = False
    needed = after + 2 * (count + (after if per_kong else 0))
    if ok and dead_wall < needed:
        report(statement.span, f"the revealed tiles, the tiles under them and the {after} kept for replacements "
                               f"need a dead_wall of {needed} or more (it is {dead_wall})")
        ok = False
    return (count, per_kong, after) if ok else None


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


#: When a kong payment is given back at the close of a hand (see mjr.ruleset.rules_of_play.KongPayment).
KONG_REFUNDS = ("refund_unless_ready", "refund_unless_ready_at_end", "refund_at_draw")


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
    words: dict[str, ast.Option] = {}
    for word in statement.refunds:
        name = _word(word, KONG_REFUNDS, "word after the amount", report)
        if name in words:
            report(word.span, f"{name} is written twice")
        elif name is not None:
            words[name] = word
    if "refund_unless_ready" in words and "refund_unless_ready_at_end" in words:
        report(words["refund_unless_ready"].span, "refund_unless_ready_at_end gives the payment back at a drawn "
                                                  "hand too: write one of them")
    return (statement.id, statement.display, kind or "", payer, amount, "refund_unless_ready" in words,
            "refund_at_draw" in words, "refund_unless_ready_at_end" in words)


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


def _fact_sources(facts: Iterable[ast.Fact], chosen: Mapping[str, Value], report: Report,
                  reveals: bool = False, declares: bool = False,
                  reveal: ir.RevealRow | None = None) -> tuple[ir.FactSourceRow, ...]:
    """``fact ... from SOURCE [N]``: the facts a table of play fills, each from a
    source that gives a value of its kind and range, and that the rules of play
    give something to (the revealed tiles need ``reveal``, those under them and
    the deposits a ``declare``)."""
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
        if source in ("revealed", "under_revealed") and not reveals:
            report(fact.source.span, f"from {source}: the ruleset reveals no tiles; say how many: reveal N")
            continue
        if source in ("revealed", "under_revealed") and reveal is not None and \
                not _holds_revealed(fact, source, reveal, report):
            continue
        if source in ("under_revealed", "deposits") and not declares:
            what = "the tiles under the revealed ones go to a winner who" if source == "under_revealed" else \
                "the deposits are the stakes of players who"
            report(fact.source.span, f"from {source}: {what} declared, and the ruleset has no declaration "
                                     f"(declare ID \"name\" : stake N ...)")
            continue
        rows.append((fact.id, source, _fact_count(fact, source, chosen, report)))
    return tuple(rows)


def _holds_revealed(fact: ast.Fact, source: str, reveal: ir.RevealRow, report: Report) -> bool:
    """Whether a fact's range holds every count of tiles ``revealed`` (the deal's N,
    up to one more per kong) or ``under_revealed`` (none, for a winner who has not
    declared, up to as many) gives; else reported."""
    count, per_kong, after = reveal
    most = count + (after if per_kong else 0)
    low = count if source == "revealed" else 0
    if fact.low <= low and most <= fact.high:
        return True
    assert fact.source is not None
    report(fact.source.span, f"from {source}: the table gives {low} to {most} tiles (reveal {count}"
                             f"{' per_kong after ' + str(after) if per_kong else ''}), and {quoted(fact.id)} holds "
                             f"{fact.low} to {fact.high}")
    return False


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


def _draw_check(statement: ast.AtDraw, holding: int, kinds: tuple[int, ...], report: Report,
                span_text: Callable[[Span], str]) -> ir.DrawCheckRow:
    """``... AMOUNT``: a number (each payer to each payee), ``N shared`` (N from the
    payers together to the payees together, in equal parts), ``best``, or ``(EXPR) of
    payer|payee``: the ruleset's held amount ``holding``, worked out on that player's
    tiles (the expression is checked with the others: mjr.compiler.check.checker)."""
    amount = statement.amount
    what = {"at_draw": "a draw check", "at_end": "an end payment", "at_win": "a win payment"}[statement.keyword]
    value, holder = -1, ""
    if statement.held is not None:
        if amount.name in HOLDERS:
            holder = amount.name
        else:
            report(amount.span, f"(EXPR) of payer or of payee: whose tiles the amount counts, not "
                                f"{quoted(amount.name)}{did_you_mean(amount.name, HOLDERS)}")
    elif amount.name == "best":
        pass
    elif amount.name.isdigit() and int(amount.name) > 0:
        value = int(amount.name)
    else:
        report(amount.span, f"{what} pays a number (1 or more), 'best' or (EXPR) of payer|payee, not "
                            f"{quoted(amount.name)}")
    word = amount.arguments[0] if amount.arguments else ""
    if word and (len(amount.arguments) > 1 or word not in DRAW_AMOUNT_WORDS):
        report(amount.span, f"after {what}'s amount only 'shared' (N shared: N from the payers together to the "
                            f"payees together) or 'dealer_double' (N, twice N where the payer or the payee deals) "
                            f"may follow, not {quoted(' '.join(amount.arguments))}")
    elif word and amount.name == "best" and not holder:
        report(amount.span, f"{quoted(word)} follows a number (N {word}), not 'best', which each payee works "
                            f"out for itself")
    elif word == "shared" and holder:
        report(amount.span, "'shared' follows a number (N shared), not an amount that counts one player's tiles")
    return (statement.id, statement.display, _player_test(statement.payer, kinds, report),
            _player_test(statement.payee, kinds, report), value, word == "shared", word == "dealer_double",
            statement.keyword, holder, holding if holder else -1,
            span_text(statement.held.span) if statement.held is not None else "")


def _player_test(tests: tuple[ast.DrawTest, ...], kinds: tuple[int, ...], report: Report) -> ir.PlayerTestRow:
    """(ready, won, suits, discards_terminal, history) of one side: None where the side
    does not test it; ``history`` the tests of the hand's history, (word, kind, wanted)."""
    found: dict[str, object] = {}
    history: dict[tuple[str, int], bool] = {}
    for test in tests:
        if test.word in HISTORY_TESTS:
            _history_test(test, kinds, history, report)
            continue
        if test.word not in DRAW_TESTS or (test.word == "suits" and test.negated):
            allowed = ("ready, not ready, won, not won, discards_terminal, not discards_terminal, "
                       "suits == N (or != < <= > >=), and of the hand's history first_discard T, "
                       "claimed_first T, fed_first T")
            report(test.span, f"unknown test {quoted(test.word)}"
                              f"{did_you_mean(test.word, (*DRAW_TESTS, *HISTORY_TESTS))}; the tests are {allowed}")
            continue
        if test.tile:
            report(test.span, f"{quoted(test.word)} takes no tile (only the tests of the hand's history do: "
                              f"{', '.join(f'{word} T' for word in HISTORY_TESTS)})")
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
    ready, won, suits, terminal = (found.get(word) for word in DRAW_TESTS)
    return (ready, won, suits, terminal,  # type: ignore[return-value]
            tuple((word, kind, wanted) for (word, kind), wanted in history.items()))


def _history_test(test: ast.DrawTest, kinds: tuple[int, ...], history: dict[tuple[str, int], bool],
                  report: Report) -> None:
    """``first_discard T``, ``claimed_first T``, ``fed_first T``, or ``not`` one of
    them, into ``history``: T a tile of the tile set, each test once a side."""
    if not test.tile:
        report(test.span, f"{quoted(test.word)} names the tile whose first discard it asks about: "
                          f"{test.word} 1s")
        return
    kind = parse_tile(test.tile)
    if kind not in kinds:
        report(test.span, f"tile {test.tile} is not in this ruleset's tile set")
    elif (test.word, kind) in history:
        report(test.span, f"{quoted(f'{test.word} {test.tile}')} is tested twice on one side")
    else:
        history[(test.word, kind)] = not test.negated
