"""Run the example hands written inside a ruleset against its built module.

The examples travel inside every generated module, so a built ruleset can check
itself with the runtime alone (``mjr test``, the pytest plugin, CI).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import cast

from ..abi import SEAT_NAMES, TABLE
from ..errors import MjrError, NotationError
from ..hand.model import Hand
from ..ruleset.loaded import Ruleset
from ..ruleset.result import Result


@dataclass(frozen=True)
class Outcome:
    ruleset: str
    title: str
    file: str
    line: int
    failures: tuple[str, ...]
    #: the options the example is played under, where they are not the defaults (``ghost=flip``)
    options: str = ""

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def place(self) -> str:
        return f"{self.file}:{self.line}"


def examples(ruleset: Ruleset) -> Iterator[tuple[str, str, int]]:
    """(title, file, line) of each example."""
    for example in ruleset.generated.examples:
        yield example.title, example.file, example.line


def combinations(ruleset: Ruleset, load_with: Callable[[dict[str, object]], Ruleset], workers: int = 1
                 ) -> Iterator[Ruleset]:
    """``ruleset``, then the build of every other combination of options its examples
    are played under (``load_with`` loads the ruleset under options), in order.

    With ``workers`` above 1 that many combinations are loaded at once: a compile
    runs as a process of its own, so new combinations build side by side."""
    yield ruleset
    wanted = other_options(ruleset)
    if workers <= 1 or len(wanted) <= 1:
        yield from map(load_with, wanted)
        return
    with ThreadPoolExecutor(max_workers=min(workers, len(wanted))) as pool:
        yield from pool.map(load_with, wanted)


def other_options(ruleset: Ruleset) -> list[dict[str, object]]:
    """The options of every combination other than ``ruleset``'s own that its
    examples are played under, in order."""
    table = {option.name for option in ruleset.option_table}
    return [{name: value for name, value in combination if name in table}
            for combination in ruleset.generated.example_options if dict(combination) != ruleset.options]


@dataclass(frozen=True)
class HandProblem:
    """Why an example's hand is one no game under the ruleset can hold: a bad hand
    string, an impossible hand, one outside the ruleset's tiles and claims."""

    title: str
    file: str
    line: int
    #: 1-based: the character a notation error is at, else the hand's first character
    column: int
    reason: str
    #: how many characters the problem spans: 1 at a notation error, else the whole hand
    width: int

    @property
    def place(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


def example_hand(ruleset: Ruleset, index: int) -> Hand | HandProblem:
    """The hand of the ``index``-th example, read and checked as :meth:`Ruleset.evaluate`
    checks a hand (:meth:`Ruleset.check_hand`), but not scored; or why it cannot be."""
    example = ruleset.generated.examples[index]
    title, text, file, line = example.title, example.hand, example.file, example.line
    start = example.column + 1  # the column of the hand's first character, after its quote
    try:
        hand = ruleset.read_hand(text)
    except NotationError as error:
        return HandProblem(title, file, line, start + error.column, error.reason, 1)
    if hand.win_tile is None:
        return HandProblem(title, file, line, start, "an example's hand needs its winning tile: add 'win T'",
                           len(text))
    try:
        ruleset.check_hand(hand, winning=True)
    except MjrError as error:
        return HandProblem(title, file, line, start, str(error), len(text))
    return hand


def hand_problems(ruleset: Ruleset) -> list[HandProblem]:
    """The examples of ``ruleset`` whose hands no game can hold, in file order."""
    found = (example_hand(ruleset, index) for index in range(len(ruleset.generated.examples)))
    return [problem for problem in found if isinstance(problem, HandProblem)]


def run_example(ruleset: Ruleset, index: int) -> Outcome:
    example = ruleset.generated.examples[index]
    title, file, line = example.title, example.file, example.line
    options = ruleset.chosen_text()
    hand = example_hand(ruleset, index)
    if isinstance(hand, HandProblem):
        return Outcome(ruleset.id, title, file, line, (f"{hand.place}: {hand.reason}",), options)
    try:
        result = ruleset.evaluate(hand)
    except MjrError as error:
        return Outcome(ruleset.id, title, file, line, (f"{file}:{line}: {error}",), options)
    failures = []
    for kind, expected, check_line in example.checks:
        problem = _check(ruleset, result, kind, expected)
        if problem:
            failures.append(f"{file}:{check_line}: {problem}")
    return Outcome(ruleset.id, title, file, line, tuple(failures), options)


def run_examples(ruleset: Ruleset) -> list[Outcome]:
    return [run_example(ruleset, i) for i in range(len(ruleset.generated.examples))]


def _check(ruleset: Ruleset, result: Result, kind: str, expected: object) -> str:
    """What is wrong with ``result`` against one ``expect`` line ("" when right)."""
    if kind == "not_win":
        if result.is_win:
            return f"expected not a win, but it wins: {_summary(result)}"
        if expected and str(expected) not in result.reason:
            return f"expected a reason mentioning {expected!r}, got {result.reason!r}"
        return ""
    if not result.is_win:
        return f"expected a win, but: {result.reason}"
    if kind == "fans":
        want, got = sorted(cast("tuple[str, ...]", expected)), sorted(result.fan_ids)
        return "" if want == got else f"expected fans {' '.join(want) or '(none)'}, got {' '.join(got) or '(none)'}"
    if kind in ("fan", "points"):
        value = result.fan if kind == "fan" else result.points
        return "" if value == expected else f"expected {kind} {expected}, got {value} ({_summary(result)})"
    if kind == "value":
        name, number = cast("tuple[str, int]", expected)
        found = dict(result.values).get(name)
        return "" if found == number else f"expected {name} {number}, got {found} ({_summary(result)})"
    try:
        settlement = ruleset.settle(result)
    except MjrError as error:
        return f"cannot settle: {error}"
    if kind == "payments":
        seated = SEAT_NAMES[:ruleset.seats]
        totals = {seat: 0 for seat in seated}
        totals.update(dict(cast("tuple[tuple[str, int], ...]", expected)))
        empty = [seat for seat in totals if seat not in seated and seat != TABLE]
        if empty:
            return f"expected payments name {empty[0]}, but the table seats {len(seated)} ({' '.join(seated)})"
        paid = settlement.totals()
        totals.setdefault(TABLE, 0)  # (the table's deposits: 0 unless a line takes from them)
        paid.setdefault(TABLE, 0)
        return "" if totals == paid else f"expected payments {_seats(totals)}, got {_seats(paid)}"
    clauses = {line.clause for line in settlement.lines}
    return "" if expected in clauses else f"expected clause {expected}, got {' '.join(sorted(clauses))}"


def _summary(result: Result) -> str:
    fans = " ".join(f"{line.id}={line.value}" for line in result.fans)
    return f"{fans or 'no fans'}; fan {result.fan}, points {result.points}"


def _seats(totals: dict[str, int]) -> str:
    return " ".join(f"{seat} {amount:+d}" for seat, amount in totals.items() if amount)
