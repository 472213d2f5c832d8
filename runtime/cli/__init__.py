"""The ``mjr`` command line: list, check, build, test, score, waits, explain, diff and simulate.

Every subcommand takes ``--json`` for one machine-readable JSON document on stdout
(``score --batch`` writes its rows to ``--out`` then).  Exit status: 0 ok; 1 when a
check or example fails, a hand does not win (``score``), a hand of a file is refused
(``score --batch``; one that does not win is no refusal), has no waits (``waits``),
two rulesets differ (``diff``) or a simulated hand fails a check (``simulate``); 2
for a usage or user error, a file that cannot be read or a missing optional extra;
3 when ``score --batch`` started and did not finish (a worker lost, a damaged part
of the file, a full disk), its ``--out`` not written.
A user's mistake is printed as ``mjr: error: ...`` (a ``.mjr`` problem with its
place and a caret), never as a traceback; with ``--json`` it is ``{"error": "..."}``
on stdout.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from .._version import __version__
from ..authoring.diff import add_arguments as diff_arguments
from ..errors import MjrError, Problem, SourceError, Span, UnfinishedRunError, problem_at
from ..notation.parse import format_hand
from ..options import describe, parse_settings
from ..ruleset import loader
from ..ruleset.loaded import Ruleset
from ..ruleset.result import Group, Result, Wait
from . import score as batch_options
from .output import counted as _counted
from .output import dump as _dump
from .output import note as _note
from .output import say as _say
from .output import table as _table
from .play import add_play_arguments, add_replay_arguments, run_play, run_replay
from .simulate import add_arguments as simulate_arguments
from .simulate import cmd_simulate

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers take it as true)
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from mjr.compiler.model import ir

    from ..authoring.examples import Outcome

# --------------------------------------------------------------------------- loading


def _compiling(name: str, options: dict[str, object]) -> str | None:
    """The ruleset id when loading ``name`` compiles it (for a progress note)."""
    if loader.is_installed(name) and not options:
        return None
    from mjr.compiler.build import find_source, will_compile

    path = Path(name) if name.endswith(".mjr") or "/" in name else find_source(name)
    return will_compile(path, options) if path is not None else None


def _options(args: argparse.Namespace) -> dict[str, object]:
    """The table options of the command line's ``-o NAME=VALUE``."""
    return dict(parse_settings(getattr(args, "option", None) or ()))


def _load(name: str, backend: str = "auto", quiet: bool = False, options: dict[str, object] | None = None) -> Ruleset:
    """Load a ruleset under ``options``, with a note on stderr while it compiles and
    its warnings as ``mjr: warning:`` lines rather than Python's warning format."""
    options = options or {}
    ident = _compiling(name, options) if backend != "python" and not quiet else None
    if ident is not None:
        _note(f"compiling {ident} {describe(options.items())}".rstrip() + " ...")
    with _warnings_as_notes():
        return loader.load(name, backend, **options)


@contextmanager
def _warnings_as_notes() -> Iterator[None]:
    """The warnings raised inside, each shown as a ``mjr: warning:`` line once it is
    done rather than in Python's warning format."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for warning in caught:
        _note(f"mjr: warning: {str(warning.message).removeprefix('mjr: ')}")


# --------------------------------------------------------------------------- list, check, build


def cmd_list(args: argparse.Namespace) -> int:
    rows, code = [], 0
    for ident in loader.bundled_ids():
        try:
            ruleset = _load(ident, "python")  # titles only: no need to compile
        except MjrError as error:
            rows.append({"id": ident, "error": str(error).splitlines()[0]})
            code = 1
            continue
        rows.append({"id": ident, "title": ruleset.title, "native_title": ruleset.native_title})
    if args.json:
        _dump({"rulesets": rows})
    else:
        table = [[r["id"], r.get("title", f"(cannot load: {r.get('error')})"), r.get("native_title", "")] for r in rows]
        _say(*_table(table))
    return code


def _check_one(name: str, options: dict[str, object]) -> dict[str, Any]:
    from mjr.compiler.build import check_file, check_options, find_source

    path = Path(name)
    if not os.path.exists(path) and not name.endswith(".mjr"):  # False, not OSError, for a name too long
        path = find_source(name) or path  # a ruleset id
    try:
        ruleset = check_file(path, options) if options else check_options(path)
        examples = _check_hands(path, ruleset, options)
    except SourceError as error:
        problems = [_problem(p) for p in error.problems]
        return {"file": name, "ok": False, "problems": problems, "text": str(error)}
    except MjrError as error:
        return {"file": name, "ok": False, "error": str(error)}
    return {
        "file": name,
        "ok": True,
        "id": ruleset.id,
        "fans": len(ruleset.fans),
        "examples": examples,
        "warnings": [_problem(w) for w in ruleset.warnings],
        "rendered": [w.render() for w in ruleset.warnings],
    }


def _check_hands(path: Path, checked: ir.Ruleset, options: dict[str, object]) -> int:
    """Raise SourceError naming every example whose hand no game under the ruleset
    can hold, under the options it is played with: each hand read and checked by the
    interpreted build, as 'mjr test' reads it, but neither compiled nor scored.
    Returns how many examples there are, under every combination of options they
    are played with (``options`` alone where given), each counted once."""
    from ..authoring.examples import combinations, hand_problems  # each command imports what it alone needs

    if not checked.examples and (options or not checked.example_options):
        return 0  # nothing to build
    load_with = partial(_load, str(path), "python", True)
    first = load_with(options)
    every = [first] if options else combinations(first, load_with)
    texts = dict(zip(checked.files, checked.texts, strict=True))
    found: dict[Span, Problem] = {}
    examples: set[tuple[str, int, int]] = set()
    for ruleset in every:
        examples.update((example.file, example.line, example.column) for example in ruleset.generated.examples)
        for hand in hand_problems(ruleset):
            span = Span(hand.file, hand.line, hand.column, hand.line, hand.column + hand.width)
            found[span] = problem_at(texts.get(hand.file, ""), span, f"example {hand.title!r}: {hand.reason}")
    if found:
        raise SourceError(sorted(found.values(), key=lambda problem: (problem.span.line, problem.span.column)))
    return len(examples)


def _problem(problem: Problem) -> dict[str, Any]:
    span = problem.span
    return {
        "file": span.file,
        "line": span.line,
        "column": span.column,
        "message": problem.message,
        "source_line": problem.source_line,
    }


def _in_folders(names: list[str]) -> list[tuple[str, str]]:
    """The names of files and rulesets to run, each with its error ("" for none): a
    folder is replaced by the ``.mjr`` files directly in it, sorted, each named as
    the folder joined with the file's name; a folder without any is an error."""
    found: list[tuple[str, str]] = []
    for name in names:
        folder = Path(name)
        if not os.path.isdir(folder):  # False for a name no file can have (too long): loading it says why
            found.append((name, ""))
            continue
        files = sorted(path.name for path in folder.glob("*.mjr") if path.is_file())
        found.extend((str(folder / file), "") for file in files)
        if not files:
            found.append((name, f"{name}: a folder with no .mjr files in it"))
    return found


def cmd_check(args: argparse.Namespace) -> int:
    reports: list[dict[str, Any]] = [
        _check_one(name, _options(args)) if not error else {"file": name, "ok": False, "error": error}
        for name, error in _in_folders(args.files)
    ]
    warnings = [report.pop("rendered", []) for report in reports]  # as text: file:line:col, line and caret
    errors = [r["error"] for r in reports if "error" in r]
    if args.json:
        doc: dict[str, Any] = {"ok": all(r["ok"] for r in reports), "files": reports}
        if errors:
            doc["error"] = errors[0]
        _dump(doc)
    else:
        for report, shown in zip(reports, warnings, strict=True):
            if report["ok"]:
                _say(*shown, f"{report['file']}: ok ({_counted(report['fans'], 'fan')}, "
                             f"{_counted(report['examples'], 'example')})")
            elif "problems" in report:
                _say(report["text"])
            else:
                _note(f"mjr: error: {report['error']}")
    return 2 if errors else 0 if all(r["ok"] for r in reports) else 1


def cmd_build(args: argparse.Namespace) -> int:
    ruleset = _load(args.ruleset, args.backend, options=_options(args))
    doc = {"id": ruleset.id, "backend": ruleset.backend, "module": ruleset.generated.file}
    if args.json:
        _dump(doc)
    else:
        _say(*_table([["ruleset", doc["id"]], ["backend", doc["backend"]], ["module", doc["module"]]]))
    return 0


def _amount(size: int) -> str:
    """A size in bytes as a person reads it."""
    if size < 1000:
        return f"{size} B"
    return f"{size / 1000:.1f} kB" if size < 1_000_000 else f"{size / 1_000_000:.1f} MB"


def _age(seconds: int) -> str:
    """An age in seconds in its largest whole unit."""
    for unit, span in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= span:
            return f"{seconds // span} {unit}"
    return f"{seconds} s"


def cmd_cache(args: argparse.Namespace) -> int:
    """``mjr cache [info]``: where builds are kept and what each entry is;
    ``mjr cache clear``: remove them all."""
    from mjr.compiler.build import cache

    if args.action == "clear":
        done = cache.clear()
        if args.json:
            _dump(done)
        else:
            foreign = ""
            if done["foreign"]:
                foreign = f" and {done['foreign']} foreign (a link or a file in an entry's place)"
            _say(f"{done['cache']}: removed {done['removed']} entries{foreign} ({_amount(done['bytes'])})")
        return 0
    doc = cache.info()
    if args.json:
        _dump(doc)
        return 0
    entries = doc["entries"]
    _say(f"{doc['cache']}: {len(entries)} entries, {_amount(doc['bytes'])}")
    rows = [["ruleset", "backend", "size", "age", "file"]]
    rows += [
        [e["ruleset"] or "?", e["backend"], _amount(e["bytes"]), _age(e["age_seconds"]), e["file"] or "?"]
        for e in entries
    ]
    _say(*(_table(rows, right=[2, 3], indent="  ") if entries else []))
    return 0


# --------------------------------------------------------------------------- test


def cmd_test(args: argparse.Namespace) -> int:
    from ..authoring.examples import combinations, run_examples  # each command imports what it alone needs

    start = time.perf_counter()
    runs: list[tuple[Ruleset, list[Outcome]]] = []
    broken: list[tuple[str, MjrError]] = []
    chosen = _options(args)
    for name, error in _in_folders(args.rulesets) if args.rulesets else [(n, "") for n in loader.bundled_ids()]:
        try:
            if error:
                raise MjrError(error)  # reported as a file that cannot be read is
            first = _load(name, args.backend, args.quiet, chosen)
            workers = (os.cpu_count() or 1) if args.backend == "compiled" else 1  # compiles run side by side
            every = [first] if chosen else combinations(first, partial(_load, name, args.backend, args.quiet), workers)
            for ruleset in every:
                outcomes = run_examples(ruleset)
                runs.append((ruleset, outcomes))
                if not args.quiet and not args.json:
                    label = f"{ruleset.id} {ruleset.chosen_text()}".rstrip()
                    _say(f"{label} {''.join('.' if o.passed else 'F' for o in outcomes)}".rstrip())
        except MjrError as error:  # reported with the others; the run goes on
            broken.append((name, error))
            if not args.quiet and not args.json:
                _say(f"{name} E")
    outcomes = [o for _, results in runs for o in results]
    passed = sum(o.passed for o in outcomes)
    failed = len(outcomes) - passed
    elapsed = time.perf_counter() - start
    if args.json:
        _dump(
            {
                "passed": passed,
                "failed": failed,
                "seconds": round(elapsed, 3),
                "rulesets": [
                    {
                        "id": rs.id,
                        "backend": rs.backend,
                        "options": rs.options,
                        "examples": [_outcome(o) for o in results],
                    }
                    for rs, results in runs
                ],
                "load_errors": [_load_error(name, error) for name, error in broken],
            }
        )
    else:
        _show_load_errors(broken)
        _show_failures([o for o in outcomes if not o.passed])
        not_loaded = f", {len(broken)} failed to load" if broken else ""
        _say(f"{passed} passed, {failed} failed{not_loaded} in {elapsed:.2f}s")
    if any(not isinstance(error, SourceError) for _, error in broken):
        return 2  # a name that is no ruleset, a missing file: a user's mistake, as in 'check'
    return 1 if failed or broken else 0


def _load_error(name: str, error: MjrError) -> dict[str, Any]:
    doc: dict[str, Any] = {"ruleset": name, "error": str(error)}
    if isinstance(error, SourceError):
        doc["problems"] = [_problem(p) for p in error.problems]
    return doc


def _show_load_errors(broken: list[tuple[str, MjrError]]) -> None:
    if not broken:
        return
    _say("", f"{'=' * 20} ERRORS {'=' * 20}")
    for name, error in broken:
        _say(f"{'_' * 8} {name} {'_' * 8}", str(error))
    _say("")


def _outcome(outcome: Outcome) -> dict[str, Any]:
    return {
        "title": outcome.title,
        "place": outcome.place,
        "passed": outcome.passed,
        "failures": list(outcome.failures),
    }


def _show_failures(failures: list[Outcome]) -> None:
    if not failures:
        return
    _say("", f"{'=' * 20} FAILURES {'=' * 20}")
    for outcome in failures:
        options = f" [{outcome.options}]" if outcome.options else ""
        _say(f"{'_' * 8} {outcome.ruleset}{options}: {outcome.title} {'_' * 8}", outcome.place)
        _say(*(f"    {message}" for message in outcome.failures))
    _say("")


# --------------------------------------------------------------------------- score, waits, explain


def _group_text(group: Group) -> str:
    """A group in hand notation: ``234m``, ``[555p]`` claimed, ``(7777p)`` concealed
    kong, ``147m258p369s`` a knitted straight (each suit letter after its ranks)."""
    text = ""
    for i, tile in enumerate(group.tiles):
        follows = i + 1 < len(group.tiles) and group.tiles[i + 1][1] == tile[1]
        text += tile[0] if follows else tile
    if group.declared:
        return f"({text})" if group.concealed else f"[{text}]"
    return text


def _fan_rows(result: Result) -> list[list[object]]:
    header: list[object] = ["fan", "name", "kind", "value"]
    return [header, *([f.id, f.name, f.kind, f.value] for f in result.fans)]


def _totals(ruleset: Ruleset, result: Result) -> list[list[object]]:
    rows: list[list[object]] = [["fan", result.fan]]
    if result.multiplier != 1:
        rows.append(["multiplier", f"x{result.multiplier}"])
    if result.limit:
        rows.append(["limit", "yes"])
    if result.floor is not None:
        names = {row[0]: row[1] for row in ruleset.generated.floors}
        rows.append(["floor", f"{result.floor} {names.get(result.floor, '')}".rstrip()])
    displays = dict(ruleset.generated.values)
    rows.extend([f"{name} {displays.get(name, '')}".rstrip(), value] for name, value in result.values)
    rows.append(["points", result.points])
    rows.append(["shape", result.shape])
    rows.append(["groups", " ".join(_group_text(g) for g in result.groups)])
    rows.extend(["winning group", _group_text(g)] for g in result.groups if g.winning)
    if result.wildcards:
        rows.append(["wildcards", "as " + " ".join(f"{tile} x{n}" for tile, n in result.wildcards)])
    return rows


def cmd_score(args: argparse.Namespace) -> int:
    ruleset = _load(args.ruleset, args.backend, options=_options(args))
    if args.batch is not None:
        return _score_batch(args, ruleset)
    result = ruleset.evaluate(ruleset.read_hand(" ".join(args.hand)))
    settlement, why = None, ""
    if result.is_win:
        try:
            settlement = ruleset.settle(result)
        except MjrError as error:
            why = str(error)
    if args.json:
        _dump(
            {
                "ruleset": ruleset.id,
                "result": result.to_json(),
                "settlement": settlement.to_json() if settlement else None,
                "settlement_error": why or None,
            }
        )
        return 0 if result.is_win else 1
    if result.hand is not None:
        _say(f"hand  {format_hand(result.hand)}")
    if not result.is_win:
        _say(f"not a win: {result.reason}")
        return 1
    _say("", *(_table(_fan_rows(result), right=[3]) if result.fans else ["(no fans)"]), "")
    _say(*_table(_totals(ruleset, result)), "")
    if settlement is None:
        _say(f"settlement: not shown: {why}")
    else:
        rows = [[f"{p.payer} -> {p.payee}", p.amount, p.clause, p.name] for p in settlement.lines]
        _say("settlement", *_table(rows, right=[1], indent="  "))
    return 0


#: The exit status of a ``score --batch`` run that started and did not finish.
UNFINISHED = 3


def _score_batch(args: argparse.Namespace, ruleset: Ruleset) -> int:
    """``mjr score --batch FILE``: a row per hand to ``--out`` (or stdout), the summary
    on stderr (or as the JSON document with ``--json``); 1 when any hand was refused,
    :data:`UNFINISHED` when the run stopped before its end."""
    from ..jobs.score_file import score_file

    start = time.perf_counter()
    try:
        summary = score_file(batch_options.job(args, ruleset))
    except UnfinishedRunError as error:
        seconds = round(time.perf_counter() - start, 3)
        _fail(str(error), args.json, {"ruleset": ruleset.id, "out": args.out, "finished": False, "seconds": seconds})
        return UNFINISHED
    elapsed = time.perf_counter() - start
    if args.json:
        _dump(
            {
                "ruleset": ruleset.id,
                "out": args.out,
                "finished": True,
                **summary.to_json(),
                "seconds": round(elapsed, 3),
            }
        )
    else:
        _note(f"{summary.line()} in {elapsed:.2f}s")
    return 1 if summary.refused else 0


def cmd_waits(args: argparse.Namespace) -> int:
    ruleset = _load(args.ruleset, args.backend, options=_options(args))
    hand = ruleset.read_hand(" ".join(args.hand))
    waits, misses = ruleset.waits(hand), ruleset.near_misses(hand)
    if args.json:
        _dump(
            {
                "ruleset": ruleset.id,
                "hand": format_hand(hand),
                "waits": [w.to_json() for w in waits],
                "near_misses": [m.to_json() for m in misses],
            }
        )
        return 0 if waits else 1
    if waits:
        rows: list[list[object]] = [["tile", "fan", "points", "fans"]]
        for wait in waits:
            result = wait.result
            rows.append([wait.tile, result.fan, result.points, " ".join(f.id for f in result.fans)])
        _say(*_table(rows, right=[1, 2]))
    elif not misses:
        _say("not ready: no tile completes the hand")
    if misses:
        _say(*_near_miss_lines(misses, bool(waits)))
    return 0 if waits else 1


def cmd_play(args: argparse.Namespace) -> int:
    return run_play(_load(args.ruleset, args.backend, options=_options(args)), args)


def cmd_replay(args: argparse.Namespace) -> int:
    with _warnings_as_notes():  # the ruleset the log names is loaded in the replay
        return run_replay(args)


def _near_miss_lines(misses: list[Wait], has_waits: bool) -> list[str]:
    """Why the tiles that complete the shape do not win: one line for one tile, else
    a line per tile under a heading."""
    if len(misses) == 1 and not has_waits:
        return [f"no waits: {misses[0].tile} completes the hand but {misses[0].result.reason}"]
    rows = _table([[m.tile, m.result.reason] for m in misses], indent="  ")
    if has_waits:
        return ["", "these tiles complete the hand but do not win:", *rows]
    return ["no waits: these tiles complete the hand but do not win:", *rows]


def cmd_explain(args: argparse.Namespace) -> int:
    from ..authoring import explain  # each command imports what it alone needs
    from .explain import explain_ruleset, item_json, item_lines, rule_lines

    ruleset = _load(args.ruleset, args.backend, options=_options(args))
    if args.item is None:
        return explain_ruleset(ruleset, args.json)
    chosen = explain.find(ruleset, args.item, _explain_listing(args))
    rules = explain.find_rules(ruleset, args.item)
    applying = explain.examples_applying(ruleset, chosen)
    if args.json:
        _dump(
            {
                "ruleset": ruleset.id,
                "query": args.item,
                "items": [
                    *(
                        {
                            **item_json(item),
                            "examples": [{"title": title, "place": where.shown} for title, where in found],
                        }
                        for item, found in zip(chosen, applying, strict=True)
                    ),
                    *(rule.as_json() for rule in rules),
                ],
            }
        )
        return 0
    blocks = [
        *(item_lines(item, found) for item, found in zip(chosen, applying, strict=True)),
        *(rule_lines(rule) for rule in rules),
    ]
    for number, block in enumerate(blocks):
        _say(*([""] if number else []), *block)
    return 0


def _explain_listing(args: argparse.Namespace) -> str:
    """The command that lists the whole table of the ruleset ``mjr explain`` was
    asked about: the ruleset as the user named it (an id, or the path they gave) and
    the options they chose, quoted for a shell where a word needs it."""
    chosen = [word for setting in args.option or () for word in ("-o", setting)]
    named = ["-r", args.ruleset] if not args.ruleset.startswith("-") else [f"--ruleset={args.ruleset}"]  # -r -x.mjr
    return shlex.join(["mjr", "explain", *named, *chosen])


def cmd_diff(args: argparse.Namespace) -> int:
    """``mjr diff A B``: exit 0 when the two are the same, 1 when they differ."""
    from ..authoring import diff  # each command imports what it alone needs

    both = _options(args)
    chosen = [{**both, **parse_settings(own)} for own in (args.left_options, args.right_options)]
    sides = [
        diff.Side(_load(name, args.backend, options=options), options)
        for name, options in zip((args.left, args.right), chosen, strict=True)
    ]
    found = diff.compare(*sides)
    if args.json:
        _dump(found.to_json())
    else:
        _say(*diff.lines(found, lambda rows: _table(rows, indent="  ")))
    return 0 if found.same else 1


# --------------------------------------------------------------------------- arguments


class _UsageError(Exception):
    def __init__(self, usage: str, message: str):
        super().__init__(message)
        self.usage = usage
        self.message = message


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _UsageError(self.format_usage(), f"{self.prog}: error: {message}")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mjr", description="Chinese regional mahjong rules: check, build, test and score.")
    parser.add_argument("--version", action="version", version=f"mjr {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    common = _Parser(add_help=False)
    common.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    backend = _Parser(add_help=False)
    backend.add_argument(
        "--backend",
        choices=loader.BACKENDS,
        default="auto",
        help="compiled where possible (auto), compiled only, or interpreted (python)",
    )
    backend.add_argument(
        "-o",
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="choose a table option of the ruleset (repeatable), e.g. -o ghost=white",
    )
    ruleset = _Parser(add_help=False)
    ruleset.add_argument(
        "-r", "--ruleset", required=True, metavar="ID|FILE", help="a bundled ruleset id or a .mjr file"
    )

    def add(
        name: str, run: Callable[[argparse.Namespace], int], help: str, *parents: _Parser
    ) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help, parents=[common, *parents])
        sub.set_defaults(run=run)
        return sub

    add("list", cmd_list, "list the bundled rulesets")
    sub = add("check", cmd_check, "parse and check .mjr files without compiling")
    sub.add_argument(
        "files", nargs="+", metavar="FILE|ID|FOLDER", help="a .mjr file, a ruleset id, or a folder: its .mjr files"
    )
    sub.add_argument(
        "-o",
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="check one combination of table options (default: each option's values in turn)",
    )
    add("build", cmd_build, "compile a ruleset and show its module", backend).add_argument("ruleset", metavar="FILE|ID")
    add("cache", cmd_cache, "show where the build cache is and what it holds, or clear it").add_argument(
        "action", nargs="?", choices=("info", "clear"), default="info", help="info (default) or clear"
    )
    sub = add("test", cmd_test, "run the example hands of rulesets (all bundled ones by default)", backend)
    sub.add_argument(
        "rulesets", nargs="*", metavar="FILE|ID|FOLDER", help="a .mjr file, a ruleset id, or a folder: its .mjr files"
    )
    sub.add_argument("-q", "--quiet", action="store_true", help="only failures and the summary")
    batch_options.add_arguments(add("score", cmd_score, "score a winning hand, or a file of hands", backend, ruleset))
    add("waits", cmd_waits, "the tiles a 13-tile hand waits on", backend, ruleset).add_argument(
        "hand", nargs="+", metavar="HAND", help='e.g. "234m 567m 345p 678s 2s"'
    )
    add(
        "explain",
        cmd_explain,
        "explain a fan, requirement, floor, clause or rule of play, or list them all",
        backend,
        ruleset,
    ).add_argument("item", nargs="?", metavar="ITEM", help="an id or a display name; none: the whole table")
    add_play_arguments(add("play", cmd_play, "play hands at a table, any seat you or a bot", backend, ruleset))
    add_replay_arguments(add("replay", cmd_replay, "replay a log of hands and check it against the rules", backend))
    diff_arguments(add("diff", cmd_diff, "what differs between two rulesets, or two choices of table options", backend))
    simulate_arguments(
        add(
            "simulate",
            cmd_simulate,
            "play many hands with bots and count the fans, clauses and points",
            backend,
            ruleset,
        )
    )
    return parser


# --------------------------------------------------------------------------- main


def _fail(message: str, as_json: bool, extra: dict[str, Any] | None = None, plain: str | None = None) -> int:
    if as_json:
        _dump({"error": message, **(extra or {})})
    else:
        print(plain if plain is not None else f"mjr: error: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    """Run the ``mjr`` command line with ``argv`` (default: the process arguments)."""
    words = sys.argv[1:] if argv is None else list(argv)
    as_json = "--json" in words
    try:
        args = _parser().parse_args(words)
        if hasattr(args, "check"):
            args.check(args, args.parser)
    except _UsageError as error:
        return _fail(error.message, as_json, {"usage": error.usage}, plain=error.usage + error.message)
    except SystemExit as done:  # --help, --version
        return done.code if isinstance(done.code, int) else 0
    try:
        return int(args.run(args))
    except SourceError as error:
        problems = [_problem(p) for p in error.problems]
        return _fail(str(error), as_json, {"problems": problems}, plain=str(error))
    except MjrError as error:
        return _fail(str(error), as_json)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`mjr score ... | head`)
        sys.stdout = None  # nothing more to flush at exit
        return 0
