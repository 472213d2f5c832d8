"""The ``table`` target: a table of play driven by legal actions and by arbitrary calls.

An input names a bundled ruleset, a seed (and now and then an odd stake or
seating), and steps: a legal action taken by its index, or a call of
``Table.act`` with any values (a seat of any type, any action word, any tile, an
:class:`~mjr.table.actions.Action` with odd fields, or one whose field was changed after
it was made).  Each call is carried out or refused with an ``MjrError``, and a
refused call leaves the table exactly as it was.  The log of a hand that ended
(by its steps, or played out to its end by an input that says ``finish``, one in
four, where the ruleset is compiled: interpreted, a drawn hand's end takes
seconds) must replay to the table's own ledger; the log of a hand still in play must agree line by line,
wanting only its end.
"""

from __future__ import annotations

import copy
import io
from typing import Any

from hypothesis import strategies as st

import mjr
from mjr.errors import LogError
from mjr.table.actions import KINDS, Action
from mjr.table.log import replay
from mjr.table.referee import Seating, Table
from mjr.tiles.kinds import N_KINDS

from .checks import RULESET_IDS, answer, expect

#: Steps of an input that are played: enough for claims, kongs and a few refusals.
MAX_STEPS = 40


def _value(raw: Any) -> Any:
    """An input's value as the call gets it: ``{"numpy": n}`` stands for ``numpy.int64(n)``
    (JSON has no numpy ints), when numpy is installed."""
    if isinstance(raw, dict) and set(raw) == {"numpy"} and isinstance(raw["numpy"], int):
        try:
            import numpy  # an optional extra: the target runs without it
        except ImportError:
            return raw["numpy"]
        return numpy.int64(max(-(2**63), min(raw["numpy"], 2**63 - 1)))
    return raw


def table_state(table: Table) -> object:
    """What a refused call must leave as it was (the table tests compare it too)."""
    legal = {seat: list(actions) for seat, actions in table.legal().items()}
    return copy.deepcopy((table.events, table.phase, table.turn, table.players, table.payments, table.wall.head,
                          table.wall.tail, table.offer, table.options, table.answers, table.drawn, legal))


def _legal_pairs(table: Table) -> list[Action]:
    return [action for _, actions in sorted(table.legal().items()) for action in actions]


def _call(table: Table, step: list[Any]) -> None:
    """One arbitrary call: carried out, or refused with the table unchanged."""
    before = table_state(table)

    def call() -> None:
        kind, *args = step
        values = [_value(arg) for arg in args]
        if kind == "action":
            table.act(Action(*values[:3]))
        elif kind == "changed":
            choices = _legal_pairs(table)
            chosen = choices[values[0] % len(choices)] if isinstance(values[0], int) and choices else Action(0, "draw")
            action = copy.copy(chosen)  # the table's own legal() list stays as it is
            field = values[1] if values[1] in ("seat", "kind", "tile") else "tile"
            object.__setattr__(action, field, values[2])  # changed after it was checked
            table.act(action)
        else:
            table.act(*values[:2])

    outcome = answer(call)
    if isinstance(outcome, mjr.MjrError):
        expect(table_state(table) == before, f"a refused call {step!r} changed the table ({outcome})")


def _finish(table: Table) -> None:
    """Play the hand to its end: pass where one may, else the first legal action."""
    while not table.over:
        seat, actions = min(table.legal().items())
        table.act(next((action for action in actions if action.kind == "pass"), actions[0]))


def run_table(spec: dict[str, Any]) -> None:
    ruleset = mjr.load(spec["ruleset"])
    log = io.StringIO()
    settings = {key: _value(spec[key]) for key in ("seed", "stake") if key in spec}
    if "seating" in spec:
        seating = answer(Seating, *map(_value, spec["seating"]))
        if isinstance(seating, mjr.MjrError):
            return
        settings["seating"] = seating
    table = answer(Table, ruleset, log=log, **settings)
    if isinstance(table, mjr.MjrError):
        return
    for step in spec.get("steps", [])[:MAX_STEPS]:
        if table.over:
            break
        if isinstance(step, int):
            choices = _legal_pairs(table)
            expect(choices, f"the table is in phase {table.phase!r} with nothing legal")
            table.act(choices[step % len(choices)])
        elif isinstance(step, list) and step:
            _call(table, step)
    if spec.get("finish") and ruleset.backend == "compiled":
        _finish(table)  # interpreted, the end of a drawn hand alone (whose hands are ready) takes seconds
    _check_log(table, log.getvalue().splitlines())


def _check_log(table: Table, lines: list[str]) -> None:
    """The log of a finished hand replays to the table's ledger; a hand still in play
    has every line agree, and only its end missing."""
    report = answer(replay, lines)
    if table.over:
        expect(not isinstance(report, mjr.MjrError), f"the table's log does not replay: {report}")
        assert not isinstance(report, mjr.MjrError)
        expect(list(report.ledger) == table.net(), "the log replays to another ledger")
    else:
        expect(isinstance(report, LogError) and "truncated" in str(report),
               f"the log of a hand in play is refused for more than its missing end: {report}")


# --------------------------------------------------------------------------- inputs

_odd = st.one_of(
    st.integers(-3, 6), st.sampled_from([99, 2**63, -(2**70), 42, 35]), st.booleans(), st.none(),
    st.floats(allow_nan=True), st.text(max_size=4), st.lists(st.integers(-1, 4), max_size=2),
    st.builds(lambda n: {"numpy": n}, st.integers(-2, 5)),
)
_words = st.sampled_from([*KINDS, "discard 5m", "discard J", "chow 345m", "kong 1z", "void m", "pung 5m",
                          "discard 3f", "win win", "", " draw ", "discard 9z", "DRAW"])
_steps = st.one_of(
    *[st.integers(0, 40)] * 6,
    st.tuples(st.just("text"), st.one_of(_words, _odd), st.one_of(st.integers(0, 3), _odd)).map(list),
    st.tuples(st.just("action"), st.one_of(st.integers(0, 3), _odd), st.one_of(st.sampled_from(KINDS), _odd),
              st.one_of(st.none(), st.integers(0, N_KINDS + 9), _odd)).map(list),
    st.tuples(st.just("changed"), st.integers(0, 40), st.sampled_from(["seat", "kind", "tile"]), _odd).map(list),
)


@st.composite
def table_specs(draw: st.DrawFn) -> dict[str, Any]:
    """A bundled ruleset, a seed (now and then an odd one, or an odd stake or seating),
    and a mix of legal steps and arbitrary calls."""
    spec: dict[str, Any] = {"ruleset": draw(st.sampled_from(RULESET_IDS)),
                            "seed": draw(st.one_of(*[st.integers(0, 2**32)] * 9, _odd))}
    if draw(st.integers(0, 9)) == 0:
        spec["stake"] = draw(st.one_of(st.integers(1, 5), _odd))
    if draw(st.integers(0, 9)) == 0:
        spec["seating"] = [draw(st.one_of(st.integers(0, 3), _odd)) for _ in range(4)]
    spec["steps"] = draw(st.lists(_steps, max_size=MAX_STEPS))
    spec["finish"] = draw(st.integers(0, 3)) == 0
    return spec
