"""Check a ruleset's AST (with its ``extends`` chain) and lower it to IR.

Every statement checks its own requirements and reports into one list; the list is
raised once, as a :class:`SourceError` naming every problem with its place.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial

from mjr.abi import ASIDE, PLACE_SOURCES, TABLE, ruleset_id_problem
from mjr.dsl import ast
from mjr.dsl.parser import misspelt_statement
from mjr.dsl.quoting import chain, cut, quoted
from mjr.errors import OptionError, Problem, SourceError, Span, did_you_mean
from mjr.options import Value, choose, describe
from mjr.tiles.kinds import N_KINDS

from ..front import options
from ..front.graph import walk
from ..front.places import id_span, in_order
from ..front.variants import apply_drop, wildcard_kinds
from ..model import ir
from ..model.vocabulary import ALL_WORDS, AMOUNT_NAMES, PAYER_WORDS
from . import principles
from .declared import lower_shapes, stand_in
from .examples import check_example
from .expressions import (
    AMOUNT,
    FAN_CONDITION,
    HOLDING,
    PAYMENT,
    RULE,
    SCORE,
    VALUE,
    ExpressionChecker,
    Names,
    check_defines,
)
from .facts import aside_collection, aside_kinds, check_facts
from .functions import FUNCTIONS, lower_table
from .keys import replaced_key, statement_key
from .play import PLAY_STATEMENTS, PlayStatements, held_amounts, lower_play, win_facts
from .ranges import check_numbers, check_ranges
from .tile_set import check_claims, check_shapes, deal_of, kinds_of, place_problem, seats_of, tile_kind
from .wildcards import check_jokers, check_wildcard_count, lower_derived, lower_wildcards

#: The claims, and the words that say whom each may be claimed from (none: anyone).
CLAIMS = {"chow": ("left", "any"), "pung": ("left", "opposite", "right"), "kong": ("left", "opposite", "right")}
WIN_METHODS = ("self_draw", "discard", "robbing_kong")
SHAPES = {"standard": ("knitted",), "seven_pairs": ("fours",), "thirteen_orphans": ()}
LIMIT_MODES = ("highest", "sum")
INDICATOR_PLAY = ("in_play", "out_of_play")

#: The statements a file keeps by id, and the field of ``_Merged`` that keeps each kind
#: (a variant's statement of the same kind and id replaces its parent's).
_KEPT_BY_ID = {ast.Define: "defines", ast.Shape: "shapes", ast.Fan: "fans", ast.Require: "requirements",
               ast.Floor: "floors", ast.Pay: "payments", ast.Fact: "facts", ast.Value: "values",
               ast.Table: "tables", ast.Derive: "derived"}

#: Loads a ruleset's AST by id, for ``extends``; returns None when there is none.
Resolver = Callable[[str], "ast.Ruleset | None"]
#: Lists the ruleset ids ``extends`` could name, for "did you mean".
Candidates = Callable[[], list[str]]


@dataclass
class _Merged:
    """A ruleset's statements after applying its ``extends`` chain."""

    settings: dict[str, ast.Statement] = field(default_factory=dict)
    wildcards: list[ast.Statement] = field(default_factory=list)
    defines: dict[str, ast.Define] = field(default_factory=dict)
    fans: dict[str, ast.Fan] = field(default_factory=dict)
    requirements: dict[str, ast.Require] = field(default_factory=dict)
    floors: dict[str, ast.Floor] = field(default_factory=dict)
    payments: dict[str, ast.Pay] = field(default_factory=dict)
    facts: dict[str, ast.Fact] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    examples: list[ast.Example] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    dropped: dict[str, Span] = field(default_factory=dict)
    wildcard_use: ast.WildcardUse | None = None
    stand_in: ast.WildcardStandIn | None = None
    shapes: dict[str, ast.Shape] = field(default_factory=dict)
    play: PlayStatements = field(default_factory=PlayStatements)
    values: dict[str, ast.Value] = field(default_factory=dict)
    tables: dict[str, ast.Table] = field(default_factory=dict)
    derived: dict[str, ast.Derive] = field(default_factory=dict)


class Checker:
    def __init__(self, root: ast.Ruleset, resolve: Resolver, candidates: Candidates = list,
                 given: Mapping[str, object] | None = None):
        self.root = root
        #: the table options asked for (the defaults for the rest)
        self.given = dict(given or {})
        self.options = options.Table()
        self.chosen: dict[str, Value] = {}
        self.example_options: set[tuple[tuple[str, Value], ...]] = set()
        self.resolve = resolve
        self.candidates = candidates
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []
        self._reported: set[Problem] = set()
        self.texts: dict[str, str] = {root.file: root.text}
        self._lines: dict[str, list[str]] = {}
        #: the expression checker, whose divisors, rounding steps and lookups are
        #: checked once the ruleset is lowered (their ranges are known only then)
        self.numbers: ExpressionChecker | None = None

    def lines(self, file: str) -> list[str]:
        """The lines of ``file``, split once (a file may hold thousands of problems)."""
        if file not in self._lines:
            self._lines[file] = self.texts.get(file, "").split("\n")
        return self._lines[file]

    def _problem(self, span: Span, message: str) -> Problem:
        lines = self.lines(span.file)
        line = lines[span.line - 1].removesuffix("\r") if 0 < span.line <= len(lines) else ""
        return Problem(span, message, line)

    def report(self, span: Span, message: str) -> None:
        problem = self._problem(span, message)
        if problem not in self._reported:
            self._reported.add(problem)
            self.problems.append(problem)

    def warn(self, span: Span, message: str) -> None:
        """Tell of something doubtful that is no error: ``mjr check`` shows it, a build goes on."""
        problem = self._problem(span, f"warning: {message}")
        if problem not in self._reported:
            self._reported.add(problem)
            self.warnings.append(problem)

    def check(self) -> ir.Ruleset:
        merged = self._merge(self.root)
        result = self._lower(merged)
        if result is not None and not self.problems:  # numbers are checked once the names are right
            score = merged.settings.get("score")
            check_ranges(result, self.report, score.span if score is not None else self.root.span)
            check_numbers(result, self.numbers, self.report)
        if self.problems:
            raise SourceError(in_order(self._misspelt_statements(self.problems)))
        assert result is not None
        return replace(result, warnings=tuple(in_order(self.warnings)), options=self.options.choosable,
                       chosen=tuple(self.chosen.items()), example_options=tuple(sorted(self.example_options,
                                                                                       key=describe)))

    def _misspelt_statements(self, problems: list[Problem]) -> list[Problem]:
        """``problems`` with those of a line that starts with a misspelt statement
        keyword, one of them at that word, made one: the parser read the line as
        more of the statement before (``sahpes standard`` as two more win methods
        after ``win self_draw``), so what it says of the words is beside the point."""
        typos: dict[tuple[str, int], Problem] = {}
        for problem in problems:
            span = problem.span
            typo = misspelt_statement(problem.source_line)
            if typo is not None and typo[0] == span.column and (span.file, span.line) not in typos:
                column, width, message = typo
                typos[span.file, span.line] = self._problem(Span(span.file, span.line, column, span.line,
                                                                 column + width), message)
        kept = [problem for problem in problems if (problem.span.file, problem.span.line) not in typos]
        return [*kept, *typos.values()]

    # -- extends ---------------------------------------------------------------

    def _merge(self, root: ast.Ruleset) -> _Merged:
        """``root`` over its ``extends`` chain, found by following the chain without
        recursion (a chain may be thousands of files long), applied from the top."""
        lineage = [root]
        ids = {root.id}
        node = root
        if too_long := ruleset_id_problem(root.id):
            self.report(id_span(self.lines(root.span.file), root.span, root.id), too_long)
        while node.extends is not None:
            parent_id, span = node.extends
            if too_long := ruleset_id_problem(parent_id):  # no file can be named for it
                self.broken_parent = True
                self.texts[node.file] = node.text
                self.report(span, f"{too_long}, in 'extends'")
                break
            if parent_id in ids:
                names = [n.id for n in lineage] + [parent_id]
                self.texts[node.file] = node.text
                self.report(span, f"'extends' makes a cycle: {chain(names)}")
                break
            parent = self.resolve(parent_id)
            if parent is None:  # the first cause: without its parent every name the file inherits is unknown
                self.texts[node.file] = node.text
                suggestion = did_you_mean(parent_id, self.candidates())
                self.report(span, f"unknown ruleset {quoted(parent_id)} in 'extends'{suggestion}")
                raise SourceError(self.problems)
            lineage.append(parent)
            ids.add(parent_id)
            node = parent
        for node in lineage:
            self.texts[node.file] = node.text
        settle = self._choose(list(reversed(lineage)))
        merged = _Merged()
        for node in reversed(lineage):
            merged.examples = []  # a parent's examples describe the parent
            merged.files.append(node.file)
            self._apply(replace(node, statements=settle.statements(node.statements)), merged)
        return merged

    def _choose(self, lineage: list[ast.Ruleset]) -> options.Settle:
        """The option table and the combination asked for (an OptionError if it is
        not one the table allows; the defaults while the table itself is wrong)."""
        before = len(self.problems)
        self.options = options.table(lineage, self.report)
        self.chosen = self.options.defaults()
        if len(self.problems) == before:
            self.chosen = choose(self.root.id, self.options.choosable, self.options.fixed, self.given)
            why = options.refusal(self.root.id, self.options, self.chosen, self.report)
            if why is not None:
                if self.given:
                    raise OptionError(why)
                first = self.options.refusals[0].span if self.options.refusals else self.root.span
                self.report(first, f"the default options are refused: {why}")
        return options.Settle(self.chosen, self.options, self.report, replaced_key)

    def _apply(self, node: ast.Ruleset, merged: _Merged) -> None:
        """Apply one file's statements over what it extends: a statement with the
        same id or keyword replaces the parent's; sources come first, then the
        parent's; wildcard derivations replace the parent's as a whole."""
        seen: dict[tuple[str, str], Span] = {}
        own_wildcards: list[ast.Statement] = []
        own_sources: list[str] = []
        for statement in node.statements:
            key = statement_key(statement)
            if key is not None and key[0] != "example":
                if key in seen:
                    first = seen[key]
                    self.report(statement.span, f"duplicate {key[0]} {quoted(key[1])} (first at line {first.line})")
                    continue
                seen[key] = statement.span
            if isinstance(statement, ast.Source):
                own_sources.append(statement.text)
            else:
                self._apply_statement(statement, merged, own_wildcards)
        merged.sources = own_sources + merged.sources
        if own_wildcards:
            merged.wildcards = own_wildcards
            none = [s for s in own_wildcards if isinstance(s, ast.WildcardNone)]
            if none and not any(isinstance(s, ast.WildcardUse) for s in node.statements):
                merged.wildcard_use = None  # no wildcards: the parent's restrictions on them go too
            if none and not any(isinstance(s, ast.WildcardStandIn) for s in node.statements):
                merged.stand_in = None
            if not any(isinstance(s, ast.WildcardIndicator) for s in own_wildcards) and "indicator" not in {
                    s.keyword for s in node.statements if isinstance(s, ast.Setting)}:
                merged.settings.pop("indicator", None)  # no indicator: the parent's reading of it goes too
            if none and len(own_wildcards) > 1:
                self.report(none[0].span, "'wildcard none' cannot stand beside other wildcard statements")

    def _apply_statement(self, statement: ast.Statement, merged: _Merged, wildcards: list[ast.Statement]) -> None:
        if isinstance(statement, ast.WildcardUse):
            merged.wildcard_use = statement
        elif isinstance(statement, ast.WildcardStandIn):
            if merged.stand_in is not None and merged.stand_in.span.file == statement.span.file:
                self.report(statement.span, f"a second 'wildcard stand_in' (first at line {merged.stand_in.span.line})")
            merged.stand_in = statement
        elif type(statement) in _KEPT_BY_ID:
            key = statement_key(statement)
            assert key is not None
            getattr(merged, _KEPT_BY_ID[type(statement)])[key[1]] = statement
        elif isinstance(statement, (ast.WildcardNone, ast.WildcardFixed, ast.WildcardIndicator)):
            wildcards.append(statement)
        elif isinstance(statement, PLAY_STATEMENTS):
            merged.play.add(statement)
        elif isinstance(statement, ast.Example):
            self._example(statement, merged)
        elif isinstance(statement, ast.Drop):
            apply_drop(statement, _droppable(merged), self.report)
            merged.dropped.update(statement.ids)
        else:
            key = statement_key(statement)
            assert key is not None
            merged.settings[key[1]] = statement

    def _example(self, example: ast.Example, merged: _Merged) -> None:
        """An example belongs to the build of the combination it is played under;
        every build knows every combination, so a test can load each.  A parent's
        examples describe the parent: they are neither kept nor checked here."""
        if example.span.file != self.root.file:
            return
        chosen = options.example_combination(example, self.options, self.report)
        if chosen != self.chosen:
            why = options.refusal(self.root.id, self.options, chosen, self.report)
            if why is not None:
                self.report(example.span, f"this example's options are refused: {why}")
        self.example_options.add(tuple(chosen.items()))
        if chosen == self.chosen:
            merged.examples.append(example)

    def _unknown(self, span: Span, name: str, candidates: list[str], what: str) -> None:
        self.report(span, f"unknown name {quoted(name)} {what}{did_you_mean(name, candidates)}")

    # -- lowering ----------------------------------------------------------------

    def _lower(self, merged: _Merged) -> ir.Ruleset | None:
        root = self.root
        tiles = merged.settings.get("tiles")
        kinds = kinds_of(tiles, self.report) if isinstance(tiles, ast.Tiles) else None
        aside: tuple[int, ...] = ()
        if isinstance(tiles, ast.Tiles) and kinds is not None and tiles.aside:
            aside = aside_kinds(tiles, kinds, self.report)
            kinds = tuple(kind for kind in kinds if kind not in aside)
        if kinds is None:
            self.report(root.span, "a ruleset needs a 'tiles' statement, e.g. tiles suits(m p s) winds dragons")
            kinds = tuple(range(N_KINDS))
        deal = deal_of(merged.settings.get("deal"), self.report)
        seats = seats_of(merged.settings.get("seats"), self.report)
        claims = self._options(merged.settings.get("claims"), CLAIMS, "claim")
        methods = self._options(merged.settings.get("win"), dict.fromkeys(WIN_METHODS, ()), "win method")
        win_methods = tuple(name for name, _ in methods)
        shapes = self._shapes(merged)
        check_shapes(merged.settings.get("shapes"), deal, kinds, self.report)
        check_claims(merged.settings.get("claims"), kinds, seats, self.report)
        facts = check_facts(merged.facts.values(), self.report)
        collections = {fact.id: fact for fact in facts}
        if aside:
            collections[ASIDE] = aside_collection(facts, aside, self.root.span if tiles is None else tiles.span)
        counted = frozenset(fid for fid, fan in merged.fans.items() if fan.each)
        tables = tuple(replace(lower_table(i, table, self.report), statement=self._statement_text(table.span))
                       for i, table in enumerate(merged.tables.values()))
        derived = lower_derived(list(merged.derived.values()), {fact.id: fact for fact in facts}, kinds, self.report)
        names = Names(dict(merged.defines), {fid: i for i, fid in enumerate(merged.fans)}, merged.dropped,
                      facts=collections, shapes={sid: i for i, sid in enumerate(merged.shapes)},
                      counted=counted, values={vid: i for i, vid in enumerate(merged.values)},
                      tables={table.id: table for table in tables}, derived={d.id: d for d in derived})
        self._check_names(merged)
        unusable = check_defines(names, self.report)
        checker = ExpressionChecker(names, self.report, unusable, self.warn, seats)
        self.numbers = checker
        fans, order = self._fans(merged, names, checker)
        principles.check_alone(fans, self.report)
        requirements = tuple(
            ir.Requirement(r.id, r.display, checker.check(r.condition, ir.BOOL, RULE), r.span,
                           self._wording(r.span, "", r.condition))
            for r in merged.requirements.values()
        )
        floors = tuple(
            ir.FloorRule(i, f.id, f.display, f.value, checker.check(f.condition, ir.BOOL, RULE), f.span,
                         self._wording(f.span, str(f.value), f.condition))
            for i, f in enumerate(merged.floors.values())
        )
        payments = tuple(self._payment(i, p, checker) for i, p in enumerate(merged.payments.values()))
        values = tuple(self._value(i, v, checker) for i, v in enumerate(merged.values.values()))
        prefer_fans, prefer_values = principles.prefer(merged.settings.get("prefer"), fans, values, self.report)
        score = self._score(merged.settings.get("score"), checker, fans)
        taken = {**dict.fromkeys(merged.defines, "define"), **dict.fromkeys(merged.fans, "fan"),
                 **dict.fromkeys(merged.values, "value"), **dict.fromkeys(merged.tables, "table"),
                 **dict.fromkeys(merged.derived, "derived kind")}
        declared = lower_shapes(merged.shapes, checker, taken, self.report, self._wording)
        jokers = check_jokers(tiles, self.report) if isinstance(tiles, ast.Tiles) else 0
        wildcards = lower_wildcards([*merged.wildcards, *filter(None, [merged.wildcard_use])],
                                    wildcard_kinds(merged.files, merged.settings.get("tiles"),
                                                   merged.wildcards, kinds, self.report), self.report,
                                    jokers or isinstance(tiles, ast.Tiles) and bool(tiles.joker_parts))
        wildcards = replace(wildcards, stand_in=stand_in(merged.stand_in, wildcards, kinds,
                                                         partial(tile_kind, report=self.report), self.report),
                            indicator_in_play=self._indicator_in_play(merged))
        check_wildcard_count(wildcards, jokers, kinds, self._wildcard_span(merged, tiles), self.report)
        return ir.Ruleset(
            id=root.id,
            title=root.title,
            native_title=root.native_title,
            sources=tuple(merged.sources),
            files=tuple(merged.files),
            kinds=kinds,
            flowers=isinstance(tiles, ast.Tiles) and tiles.flowers,
            red_fives=isinstance(tiles, ast.Tiles) and tiles.red_fives,
            aside=aside,
            deal=deal,
            seats=seats,
            claims=claims,
            win_methods=win_methods or WIN_METHODS,
            seven_pairs=(2 if "fours" in shapes["seven_pairs"] else 1) if "seven_pairs" in shapes else 0,
            thirteen_orphans="thirteen_orphans" in shapes,
            standard="standard" in shapes,
            knitted="knitted" in shapes.get("standard", ()),
            wildcards=wildcards,
            fans=fans,
            fan_order=order,
            requirements=requirements,
            floors=floors,
            payments=payments,
            score=score,
            cap=self._int_setting(merged, "cap"),
            limits=self._limits(merged.settings.get("limits")),
            minimum=self._int_setting(merged, "minimum"),
            minimum_without=principles.minimum_without(merged.settings.get("minimum"), fans, self.report),
            account_once=principles.account_once(merged.settings.get("account_once"), fans, self.report),
            base=self._base(merged),
            examples=tuple(check_example(e, fans, payments, values, self.report) for e in merged.examples),
            facts=facts,
            texts=tuple(self.texts[file] for file in merged.files),
            shapes=declared,
            play=lower_play(merged.play, merged.facts.values(), self.chosen, kinds, self.report,
                            self._span_text),
            holdings=self._holdings(merged, checker),
            defines=tuple((name, self._span_text(define.body.span)) for name, define in merged.defines.items()),
            tables=tables,
            values=values,
            derived=derived,
            prefer=prefer_fans,
            prefer_values=prefer_values,
            jokers=jokers,
        )

    def _check_names(self, merged: _Merged) -> None:
        """Fan ids, defines, values and tables are referred to by name: none may hide a
        built-in word, and no two kinds share one."""
        owner: dict[str, str] = {}
        for what, named in (("fan", merged.fans), ("define", merged.defines), ("value", merged.values),
                            ("table", merged.tables), ("derived kind", merged.derived)):
            for name, statement in named.items():
                span = id_span(self.lines(statement.span.file), statement.span, name)
                if name in ALL_WORDS or (what != "fan" and what != "define" and name in {*AMOUNT_NAMES, *FUNCTIONS}):
                    self.report(span, f"{what} {name!r} has the name of a built-in word; choose another name")
                elif name in owner:
                    self.report(span, f"{what} {quoted(name)} has the name of a {owner[name]}; choose another name")
                owner.setdefault(name, what)

    def _base(self, merged: _Merged) -> int:
        base = self._int_setting(merged, "base")
        if base == 0:
            self.report(merged.settings["base"].span, "base must be 1 or more")
        return base or 1

    def _shapes(self, merged: _Merged) -> dict[str, tuple[str, ...]]:
        """The built-in shapes and their arguments: ``standard`` where the file names
        none, and none at all for ``shapes none`` (a ruleset of its own shapes only)."""
        statement = merged.settings.get("shapes")
        shapes = dict(self._options(statement, {**SHAPES, "none": ()}, "shape"))
        if "none" not in shapes:
            return shapes or {"standard": ()}
        assert statement is not None
        if len(shapes) > 1:
            self.report(statement.span, "'shapes none' leaves out every built-in shape: it stands alone")
        elif not merged.shapes:
            self.report(statement.span, "'shapes none' leaves the ruleset no winning shape: declare one "
                                        "(shape ID \"Name\" : COND)")
        return {}

    def _options(
        self, statement: ast.Statement | None, allowed: dict[str, tuple[str, ...]], what: str
    ) -> tuple[tuple[str, tuple[str, ...]], ...]:
        if not isinstance(statement, ast.Options):
            return ()
        result = []
        for option in statement.options:
            if option.name not in allowed:
                self.report(option.span, f"unknown {what} {quoted(option.name)}{did_you_mean(option.name, allowed)}"
                                         f"; the {what}s are {', '.join(allowed)}")
                continue
            for argument in option.arguments:
                if argument not in allowed[option.name]:
                    known = f"known: {', '.join(allowed[option.name])}" if allowed[option.name] else \
                        f"{option.name} takes none"
                    self.report(option.span, f"{option.name}({cut(argument)}) is not an option ({known})")
            result.append((option.name, option.arguments))
        return tuple(result)

    @staticmethod
    def _wildcard_span(merged: _Merged, tiles: ast.Statement | None) -> Span | None:
        """Where too many wildcards are refused: the ``jokers N`` of the tile set,
        else the last ``wildcard fixed`` or ``wildcard indicator`` line."""
        if isinstance(tiles, ast.Tiles) and tiles.joker_parts:
            return tiles.joker_parts[0][1]
        lines = [s for s in merged.wildcards if isinstance(s, ast.WildcardFixed | ast.WildcardIndicator)]
        return lines[-1].span if lines else None

    def _indicator_in_play(self, merged: _Merged) -> bool:
        """``indicator in_play | out_of_play``: whether the flipped indicator tile goes
        back (no copy taken up); out of play when not written."""
        statement = merged.settings.get("indicator")
        if not isinstance(statement, ast.Setting) or not isinstance(statement.value, ast.Option):
            return False
        if not any(isinstance(s, ast.WildcardIndicator) for s in merged.wildcards):
            self.report(statement.span, "'indicator' says whether the flipped indicator tile stays out of play, "
                                        "and this ruleset has no 'wildcard indicator'")
        if statement.value.name not in INDICATOR_PLAY:
            self._unknown(statement.value.span, statement.value.name, list(INDICATOR_PLAY), "for 'indicator'")
        return statement.value.name == "in_play"

    def _fans(
        self, merged: _Merged, names: Names, checker: ExpressionChecker
    ) -> tuple[tuple[ir.Fan, ...], tuple[int, ...]]:
        fans = []
        depends: dict[int, set[int]] = {}
        index_of = names.fans
        for index, fan in enumerate(merged.fans.values()):
            expected = ir.INT if fan.each else ir.BOOL
            condition = checker.check(fan.condition, expected, FAN_CONDITION)
            refs = set(checker.fan_refs)
            value = checker.check(fan.value, ir.INT, FAN_CONDITION)
            depends[index] = refs | checker.fan_refs
            excludes = []
            for ident, span in fan.excludes:
                if ident not in index_of:
                    self._unknown(span, ident, list(index_of), "in 'excludes'")
                elif index_of[ident] == index:
                    self.report(span, f"fan {quoted(ident)} excludes itself")
                else:
                    excludes.append(index_of[ident])
            line = self._statement_text(fan.span)
            shown = self._span_text(fan.value.span)
            shown = f"{shown} each" if fan.each else shown if isinstance(fan.value, ast.Number) else f"({shown})"
            wording = ir.Wording(line, shown, self._span_text(fan.condition.span))
            fans.append(ir.Fan(index, fan.id, fan.display, fan.kind, value, condition, tuple(excludes), fan.span, line,
                               wording))
        return tuple(fans), self._order(fans, depends)

    def _statement_text(self, span: Span) -> str:
        """The lines of a statement, indented as written relative to its first line."""
        lines = self.lines(span.file)
        return textwrap.dedent("\n".join(lines[span.line - 1 : span.end_line or span.line])).strip()

    def _span_text(self, span: Span) -> str:
        """The text under ``span`` (an expression, which holds no string), its comments
        left out and its white space collapsed to single spaces."""
        lines = self.lines(span.file)[span.line - 1 : (span.end_line or span.line)]
        if not lines:
            return ""
        if span.end_line in (0, span.line):
            lines[0] = lines[0][: span.end_column - 1] if span.end_column else lines[0]
        else:
            lines[-1] = lines[-1][: span.end_column - 1]
        lines[0] = lines[0][span.column - 1 :]
        return " ".join(" ".join(line.split("#", 1)[0] for line in lines).split())

    def _wording(self, span: Span, value: str, condition: ast.Expr) -> ir.Wording:
        return ir.Wording(self._statement_text(span), value, self._span_text(condition.span))

    def _order(self, fans: list[ir.Fan], depends: dict[int, set[int]]) -> tuple[int, ...]:
        """Fans in an order where each fan's condition comes after those it uses."""
        edges = {index: sorted(used) for index, used in depends.items()}
        found = walk((fan.index for fan in fans), lambda index: edges.get(index, []), lambda index: index)
        for cycle, _ in found.cycles:
            names = chain([fans[i].id for i in cycle])
            self.report(fans[cycle[0]].span, f"fan conditions refer to each other in a cycle: {names}")
        return tuple(found.order)

    def _value(self, index: int, value: ast.Value, checker: ExpressionChecker) -> ir.NamedValue:
        checker.value_index = index
        try:
            body = checker.check(value.body, ir.INT, VALUE)
        finally:
            checker.value_index = -1
        return ir.NamedValue(index, value.id, value.display, body, value.span,
                             ir.Wording(self._statement_text(value.span), self._span_text(value.body.span)))

    def _holdings(self, merged: _Merged, checker: ExpressionChecker) -> tuple[ir.Holding, ...]:
        """The held amounts of the draw checks and end payments, in order; a fact a
        table sets only for a win refused in them."""
        checker.win_facts = win_facts(merged.play, merged.facts.values())
        return tuple(ir.Holding(check.id, checker.check(check.held, ir.INT, HOLDING), check.held.span)
                     for check, _ in held_amounts(merged.play) if check.held is not None)

    def _payment(self, index: int, pay: ast.Pay, checker: ExpressionChecker) -> ir.PayClause:
        condition = checker.check(pay.condition, ir.BOOL, PAYMENT)
        amount = checker.check(pay.amount, ir.INT, AMOUNT) if pay.amount is not None else None
        if pay.liable and pay.payer.kind == "each":
            self.report(pay.payer.span, "a liable clause moves the payment to one player: the discarder, "
                                        "the feeder of the last meld or of claimed meld N, or the left, "
                                        "opposite or right player")
        if pay.payer.kind == TABLE and pay.liable:
            self.report(pay.payer.span, "a liable clause moves the payment to one player; the table's "
                                        "deposits are taken with 'pay ... : table pays AMOUNT'")
        if pay.payer.kind == TABLE and pay.amount is not None and amount is not None:
            for word in sorted(ir.word_names([amount]) & set(PAYER_WORDS))[:1]:
                self.report(pay.amount.span, f"{word!r} is a word of a paying player: the table's deposits "
                                             "are no player's")
        problem = place_problem(pay.payer.kind, checker.seats) if pay.payer.kind in PLACE_SOURCES else None
        if problem is not None:
            self.report(pay.payer.span, problem)
        if pay.payer.kind == "claimed_meld" and not 1 <= pay.payer.index <= 5:
            self.report(pay.payer.span, f"claimed meld {pay.payer.index}: a hand has claimed melds 1 to 5")
        payer = self._span_text(pay.payer.span)
        pays = f"{payer} pays {self._span_text(pay.amount.span) if pay.amount is not None else 'all'}"
        return ir.PayClause(index, pay.id, pay.display, pay.liable, condition, pay.payer.kind,
                            pay.payer.index, amount, pay.span, self._wording(pay.span, pays, pay.condition))

    def _score(self, statement: ast.Statement | None, checker: ExpressionChecker, fans: tuple[ir.Fan, ...]) -> ir.Node:
        if not isinstance(statement, ast.Setting) or not isinstance(statement.value, ast.Expr):
            base, fan, mult = (ir.Word(ir.INT, "formula", name) for name in ("base", "fan", "mult"))
            return ir.Binary(ir.INT, "*", ir.Binary(ir.INT, "*", base, fan), mult)
        score = checker.check(statement.value, ir.INT, SCORE)
        if any(f.kind == "multiplier" for f in fans) and "mult" not in ir.word_names([score]):
            self.report(statement.span, "the ruleset has multipliers but the score formula does not use 'mult'")
        return score

    def _int_setting(self, merged: _Merged, key: str) -> int | None:
        statement = merged.settings.get(key)
        if isinstance(statement, ast.Setting) and isinstance(statement.value, int):
            return statement.value
        return None

    def _limits(self, statement: ast.Statement | None) -> str:
        if not isinstance(statement, ast.Setting) or not isinstance(statement.value, ast.Option):
            return "highest"
        mode = statement.value
        if mode.name not in LIMIT_MODES:
            self.report(mode.span, f"unknown mode {quoted(mode.name)} for 'limits'"
                                   f"{did_you_mean(mode.name, LIMIT_MODES)}; the modes are {', '.join(LIMIT_MODES)}")
            return "highest"
        return mode.name


def _droppable(merged: _Merged) -> tuple[dict[str, ast.Statement], ...]:
    tables = (merged.fans, merged.requirements, merged.floors, merged.payments, merged.defines, merged.shapes,
              merged.facts, merged.values, merged.tables, merged.derived)
    return (*tables, *merged.play.droppable())  # type: ignore[arg-type]


def check(root: ast.Ruleset, resolve: Resolver, candidates: Candidates = list,
          given: Mapping[str, object] | None = None) -> ir.Ruleset:
    """Check ``root`` (resolving ``extends`` through ``resolve``) under the table
    options ``given`` (the defaults for the rest) and return its IR."""
    return Checker(root, resolve, candidates, given).check()
