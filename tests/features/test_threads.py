"""Many threads, one loaded ruleset: every answer must be the single-threaded one.

Each evaluation keeps its state to itself (the generated module holds constants
only), so threads switching as often as the interpreter allows -- in the middle of
a search -- must not see each other's hands or contexts.  Both backends.  The
compiled search of a single call runs without the GIL, so other threads run
while it does.  And one table of play shared by a thread per seat does each
action whole.
"""

from __future__ import annotations

import io
import json
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from conftest import load_on
from hand_shapes import any_pair, any_set

import mjr
from mjr import HandError
from mjr.hand.model import Context, Hand
from mjr.table.bots import RandomBot
from mjr.table.log import hand_lines, replay
from mjr.table.referee import Table

THREADS = 8
#: Win contexts given to the batch path, one per thread in turn: they change the
#: points of the same tiles (self-draw, seat and round winds).
CONTEXTS = ["", "self_draw", "seat S round S", "self_draw seat W round E", "seat N", "robbing_kong"]


@contextmanager
def switching_often() -> Iterator[None]:
    """Let the interpreter switch threads every microsecond."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _example_hands(ruleset: mjr.Ruleset) -> list[str]:
    """The ruleset's own example hands that it scores (wins or not)."""
    hands = []
    for example in ruleset.generated.examples:
        text = example.hand
        try:
            ruleset.evaluate(text)
        except HandError:
            continue
        hands.append(text)
    return hands


def _answers(ruleset: mjr.Ruleset, text: str) -> list[Any]:
    """Everything a caller can ask of one hand, as plain data."""
    hand = mjr.parse_hand(text)
    answers: list[Any] = [ruleset.evaluate(hand).to_json(), ruleset.is_win(hand)]
    if not hand.melds:
        counts = bytes(hand.concealed_counts()) * 3
        wins = bytes([hand.win_tile or 0]) * 3
        for context in CONTEXTS:
            try:
                answers.append((context, *map(list, ruleset.evaluate_counts(counts, _with_context(text, context),
                                                                            win_tiles=wins))))
            except HandError:  # a context the notation or ruleset refuses
                answers.append((context, None))
    return answers


def _with_context(text: str, context: str) -> str:
    """The hand up to its winning tile, with the context words ``context``."""
    words = text.split()
    return " ".join([*words[:words.index("win") + 2], context])


def _run_in_threads(work: Callable[[int], list[Any]]) -> list[list[Any]]:
    outcomes: list[list[Any]] = [[] for _ in range(THREADS)]
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            outcomes[index] = work(index)
        except BaseException as error:  # noqa: BLE001 - reported to the test below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    with switching_often():
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not errors, errors[0]
    return outcomes


@pytest.mark.parametrize("backend", ["compiled", "python"])
@pytest.mark.parametrize("ident", ["guangdong.jipinghu", "guangdong.tuidaohu", "sichuan.xuezhan"])
def test_threads_get_the_single_threaded_answers(ident: str, backend: str) -> None:
    ruleset = load_on(ident, backend)
    hands = _example_hands(ruleset)
    if backend == "python":
        hands = hands[:12]  # interpreted evaluation is slow; the switching still interleaves searches
    expected = {text: _answers(ruleset, text) for text in hands}

    def work(index: int) -> list[Any]:
        # Each thread starts at a different hand, so neighbours evaluate different hands.
        start = index % len(hands)
        return [(text, _answers(ruleset, text)) for text in hands[start:] + hands[:start]]

    for outcome in _run_in_threads(work):
        assert len(outcome) == len(hands)
        for text, answers in outcome:
            assert answers == expected[text], text


def test_waits_in_threads() -> None:
    ruleset = mjr.load("guangdong.tuidaohu")
    hands = ["1112345678999m indicator 1p", "123m 456p 789s 11z 2s 3s", "2345678m 234p 55s 6s indicator 3s",
             "1122334455667m", "123m 456m 789m 1p 2p 3p 5s"]
    expected = [[(w.tile, w.result.points) for w in ruleset.waits(h)] for h in hands]

    def work(index: int) -> list[Any]:
        return [[(w.tile, w.result.points) for w in ruleset.waits(h)] for h in hands[index % 2:] + hands[:index % 2]]

    for index, outcome in enumerate(_run_in_threads(work)):
        assert outcome == expected[index % 2:] + expected[:index % 2]


def _distinct_hands(seed: int, n: int) -> list[str]:
    """``n`` different concealed hands as notation, seeded: most of them four sets
    and a pair (wins and near wins, every kind of wait), the rest 14 tiles drawn
    at random; won by discard or self-draw, at any seat and round."""
    rng = random.Random(seed)
    wall = [kind for kind in range(34) for _ in range(4)]
    seen: set[str] = set()
    while len(seen) < n:
        if rng.random() < 0.8:
            tiles = [any_pair(rng)] * 2
            for spec, low in (any_set(rng) for _ in range(4)):
                tiles += [low, low + 1, low + 2] if spec == "chow" else [low] * 3
        else:
            tiles = rng.sample(wall, 14)
        if max(tiles.count(kind) for kind in tiles) > 4:
            continue
        win = tiles.pop(rng.randrange(14))
        context = Context(win_by=rng.choice(("discard", "self_draw")), seat=rng.randrange(4), round=rng.randrange(4))
        seen.add(mjr.format_hand(Hand(tuple(sorted(tiles)), (), win, context)))
    return sorted(seen)


@pytest.mark.parametrize("backend", ["compiled", "python"])
@pytest.mark.parametrize("ident", ["guangdong.jipinghu", "mcr"])
def test_threads_sharing_distinct_hands_get_the_serial_answers(ident: str, backend: str) -> None:
    """The hands split among the threads, each evaluating its own share (the
    waits counted in mcr's wait fans included), then every thread all of them
    from its own starting place: every result is the serial one."""
    ruleset = load_on(ident, backend)
    hands = _distinct_hands(THREADS, 160 if backend == "compiled" else 16)
    expected = [ruleset.evaluate(text).to_json() for text in hands]
    assert 0 < sum(answer["is_win"] for answer in expected) < len(hands)  # wins and not

    def work(index: int) -> list[Any]:
        own = [(i, ruleset.evaluate(hands[i]).to_json()) for i in range(index, len(hands), THREADS)]
        start = index * len(hands) // THREADS
        order = [*range(start, len(hands)), *range(start)]
        return own + [(i, ruleset.evaluate(hands[i]).to_json()) for i in order]

    for outcome in _run_in_threads(work):
        assert len(outcome) == len(hands) // THREADS + len(hands)
        for i, answer in outcome:
            assert answer == expected[i], hands[i]


@pytest.mark.parametrize("ident", ["guangdong.jipinghu", "mcr"])
def test_one_call_lets_other_threads_run_while_it_searches(ident: str) -> None:
    """With no forced switching, another thread gets the GIL only when a call lets
    it go: a thread waiting for it runs while this one evaluates hands one by
    one (the search of each runs without the GIL)."""
    ruleset = load_on(ident, "compiled")
    hands = [ruleset.read_hand(text) for text in _distinct_hands(1, 200)]
    gate, ran = threading.Lock(), threading.Event()
    gate.acquire()

    def other() -> None:
        with gate:  # waits here, the GIL let go, until the gate opens; then needs the GIL
            ran.set()

    thread = threading.Thread(target=other)
    before = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        thread.start()
        gate.release()
        calls = 0
        while not ran.is_set() and calls < 20_000:  # a few tries suffice; an unreleased GIL never lets it
            ruleset.evaluate(hands[calls % len(hands)])
            calls += 1
        ran_during_calls = ran.is_set()
    finally:
        sys.setswitchinterval(before)
    thread.join()
    assert ran_during_calls, f"no other thread ran during {calls} calls of {ident}"


# -- one table, a thread per seat ------------------------------------------------------------

#: Hands a table shared by four threads plays (each a whole hand of random play).
SHARED_HANDS = 3


def _play_a_seat(table: Table, seat: int, bot: RandomBot, failed: threading.Event) -> None:
    """One player's thread: act whenever the table asks this seat, until the hand is
    over (or another seat's thread has failed)."""
    while not failed.is_set():
        legal = table.legal()
        if not legal:
            assert table.over, f"the table is stuck in phase {table.phase!r} with nothing legal"
            return
        if seat in legal:
            table.act(bot(table, seat, legal[seat]))
        else:
            time.sleep(0.0001)  # let the seat whose turn it is act


def test_a_table_shared_by_a_thread_per_seat_logs_each_action_once() -> None:
    """Four threads, one per seat, on one table, switching as often as the interpreter
    allows: every action is done whole (no assertion from the middle of another's),
    and the log holds each event once, in order, and replays."""
    ruleset = mjr.load("guangdong.jipinghu")
    for hand in range(SHARED_HANDS):
        log = io.StringIO()
        table = Table(ruleset, seed=hand, log=log)
        _run_seats(table, [RandomBot(hand * 4 + seat) for seat in range(4)])
        lines = log.getvalue().splitlines()
        assert [json.loads(line) for line in lines] == list(hand_lines(table))
        assert list(replay(lines).ledger) == table.net()


def _run_seats(table: Table, bots: list[RandomBot]) -> None:
    errors: list[BaseException] = []
    failed = threading.Event()

    def run(seat: int) -> None:
        try:
            _play_a_seat(table, seat, bots[seat], failed)
        except BaseException as error:  # noqa: BLE001 - reported to the test below
            errors.append(error)
            failed.set()

    threads = [threading.Thread(target=run, args=(seat,)) for seat in range(4)]
    with switching_often():
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not errors, repr(errors[0])
