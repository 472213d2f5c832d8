"""Hand records and the batch API: the compiled checks refuse exactly the hands
check_hand refuses, a batch scores exactly as evaluate does, on any number of
threads, and a batch arrives as hands, a buffer of records, a NumPy record array
(read in place) or an Arrow table."""

from __future__ import annotations

import dataclasses
import random

import pytest
from conftest import load_on
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjr
from fuzz.inputs import valid_hands
from mjr.abi import (
    SEATS,
    SOURCES,
    STATUS_IMPOSSIBLE,
    STATUS_MALFORMED,
    STATUS_NAMES,
    STATUS_OUTSIDE_RULES,
    STATUS_REFUSED,
    STATUS_WIN,
    seat_steps,
)
from mjr.errors import BatchError, HandError, HandFieldError, MjrError, RecordError
from mjr.hand.model import impossibility
from mjr.tiles.kinds import N_KINDS

#: Bundled rulesets, one at a table of six (seats past the winds, steps on by number).
BUNDLED = ("guangdong.jipinghu", "guangdong.tuidaohu", "sichuan.xuezhan", "changsha", "hangzhou", "wenzhou", "taiwan",
           "taiwan.thirteen", "hongkong", "japan.riichi", "shanghai", "fuzhou", "sichuan.xuezhan players=6")
BACKENDS = ("compiled", "python")


def load(ident: str, backend: str) -> mjr.Ruleset:
    """A ruleset of BUNDLED: an id, and the options after it."""
    name, *options = ident.split()
    return load_on(name, backend, **{key: int(value) for key, value in (o.split("=") for o in options)})


def deal(ruleset: mjr.Ruleset, rng: random.Random) -> mjr.Hand:
    """A hand drawn from a wall of the ruleset's tiles (sometimes of all 34 kinds),
    melds and all, with a context and the ruleset's facts of play: most pass the
    checks, some do not."""
    kinds = sorted(ruleset.kinds) if rng.randrange(5) else list(range(N_KINDS))
    wall = [kind for kind in kinds for _ in range(4)]
    rng.shuffle(wall)
    melds = []
    for _ in range(rng.choice((0, 0, 1, 2))):
        kind = rng.choice(("chow", "pung", "kong"))
        tile = wall.pop()
        if kind == "chow":
            tile = min(tile, 26) // 9 * 9 + min(tile % 9, 6)
        concealed = kind == "kong" and rng.random() < 0.5
        source = None if concealed else _source(ruleset, rng)
        melds.append(mjr.Meld(kind, tile, concealed, source, kind == "kong" and not concealed and rng.random() < 0.3))
    size = ruleset.deal + 1 - 3 * len(melds) + rng.choice((0, 0, 0, 0, 1, -1, 3))
    tiles = sorted(wall[:max(size, 0)])
    win = rng.choice(tiles) if tiles and rng.randrange(10) else wall[-1]
    if win in tiles:
        tiles.remove(win)
    return mjr.Hand(tuple(tiles), tuple(melds), win, _context(ruleset, rng, melds, wall), _flowers(ruleset, rng),
                    aside=_aside(ruleset, rng))


def _source(ruleset: mjr.Ruleset, rng: random.Random) -> str | None:
    """A claimed tile's source: mostly one the table has, now and then any."""
    return rng.choice((None, *seat_steps(ruleset.seats), *seat_steps(ruleset.seats), *SOURCES))


def _aside(ruleset: mjr.Ruleset, rng: random.Random) -> tuple[int, ...]:
    """Tiles set aside: up to four of each kind the ruleset sets aside, now and then
    a kind it does not (which both checks refuse); none in a ruleset setting none
    aside (it refuses them before a record is made: see test_aside)."""
    if not ruleset.aside_kinds:
        return ()
    kinds = sorted(ruleset.aside_kinds)
    extra = rng.randrange(N_KINDS)
    if rng.randrange(20) == 0 and extra not in kinds:
        kinds.append(extra)
    return tuple(kind for kind in kinds for _ in range(rng.choice((0, 0, 1, 2, 4))))


def _flowers(ruleset: mjr.Ruleset, rng: random.Random) -> tuple[int, ...]:
    """Flowers set aside: some of the eight, in a ruleset with flowers (one without
    refuses them before a record is made: see test_flowers)."""
    if not ruleset.has_flowers:
        return ()
    return tuple(sorted(rng.sample(range(1, 9), rng.choice((0, 1, 2, 4, 8)))))


def _context(ruleset: mjr.Ruleset, rng: random.Random, melds: list[mjr.Meld], wall: list[int]) -> mjr.Context:
    win_by = rng.choice(("self_draw", "discard", "discard", "robbing_kong"))
    facts: list[tuple[str, mjr.hand.FactValue]] = []
    for fact in ruleset.facts.by_id.values():
        if rng.randrange(3) == 0:
            continue
        if fact.kind == "flag":
            facts.append((fact.id, True))
        elif fact.kind == "number":
            facts.append((fact.id, rng.randint(max(0, fact.low - 1), fact.high + 1)))
        else:
            facts.append((fact.id, tuple(wall[-rng.randint(1, min(fact.high + 1, 16)):])))
    dealer = rng.choice((None, *range(ruleset.seats + 1)))  # (now and then a seat past the table)
    fields = dict(
        win_by=win_by, after_kong=win_by != "robbing_kong" and rng.random() < 0.2, last_tile=rng.random() < 0.2,
        first_turn=all(meld.concealed for meld in melds) and rng.random() < 0.1,
        seat=rng.randrange(min(ruleset.seats + 1, SEATS)), round=rng.randrange(4),
        source=None if win_by == "self_draw" else _source(ruleset, rng),
        indicator=rng.choice(sorted(ruleset.kinds)) if ruleset.has_wildcards and rng.random() < 0.7 else
        (rng.randrange(N_KINDS) if rng.random() < 0.05 else None),
        winners=1 if win_by == "self_draw" else rng.choice((1, 1, *range(1, ruleset.seats))),
        void=rng.choice((None, 0, 1, 2)), dealer_seat=dealer, facts=tuple(facts),
    )
    try:
        return mjr.Context(**fields)  # type: ignore[arg-type]
    except HandFieldError:  # a number past what any fact holds
        return mjr.Context(**{**fields, "facts": ()})  # type: ignore[arg-type]


def dealt_hands(ruleset: mjr.Ruleset) -> st.SearchStrategy[mjr.Hand]:
    return st.integers(0, 2**32).map(lambda seed: deal(ruleset, random.Random(seed)))


def _check_status(ruleset: mjr.Ruleset, hand: mjr.Hand) -> int:
    """The refusal status check_hand gives a hand, or 0 when it accepts it."""
    if impossibility(hand, ruleset.indicator_in_play) is not None:
        return STATUS_IMPOSSIBLE
    try:
        ruleset.check_hand(hand, winning=True)
    except HandError:
        return STATUS_OUTSIDE_RULES
    return 0


@pytest.mark.parametrize("ident", BUNDLED)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_compiled_checks_refuse_what_check_hand_refuses(ident: str, data: st.DataObject) -> None:
    _refuses_what_check_hand_refuses(load(ident, "compiled"), data)


# The same generated checks run by the interpreter, on hands drawn alike: a hundred of
# each ruleset, where the compiled module's three hundred explore the checks (the hands'
# making and check_hand take most of the time, on either backend).
@pytest.mark.parametrize("ident", BUNDLED)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_interpreted_checks_refuse_what_check_hand_refuses(ident: str, data: st.DataObject) -> None:
    _refuses_what_check_hand_refuses(load(ident, "python"), data)


def _refuses_what_check_hand_refuses(ruleset: mjr.Ruleset, data: st.DataObject) -> None:
    hand = data.draw(dealt_hands(ruleset) | valid_hands().filter(lambda h: h.win_tile is not None))
    expected = _check_status(ruleset, hand)
    record = ruleset.records.record(hand)
    if record is None:  # more melds than sets, an undeclared fact: refused before the kernel
        assert expected
        return
    status = ruleset.generated.evaluate_record(record)[0]
    refused = status if status >= STATUS_REFUSED else 0
    assert refused == expected, (mjr.format_hand(hand), STATUS_NAMES.get(refused), STATUS_NAMES.get(expected))
    assert ruleset.records.record(ruleset.records.hand(record)) == record  # it reads back as the hand it holds


@pytest.mark.parametrize("ident", BUNDLED)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_record_reads_back_as_the_hand_it_was_written_from(ident: str, data: st.DataObject) -> None:
    """The writer (compiled at install) against the reader, a separate piece of code:
    every field of the hand comes back, facts of play as the ruleset keeps them (a
    number at its low end is left out)."""
    ruleset = load(ident, "compiled")
    hand = data.draw(dealt_hands(ruleset) | valid_hands().filter(lambda h: h.win_tile is not None))
    record = ruleset.records.record(hand)
    if record is None:  # refused before the kernel: the test above says why
        return
    assert len(record) == ruleset.records.size
    read = ruleset.records.hand(record)
    facts = ruleset.facts.by_id
    kept = tuple((name, value) for name, value in hand.context.facts
                 if not (facts[name].kind == "number" and value == facts[name].low))
    assert read == dataclasses.replace(hand, context=dataclasses.replace(hand.context, facts=kept))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("ident", BUNDLED)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_damaged_record_is_refused_as_the_hand_it_reads_as(ident: str, backend: str, data: st.DataObject) -> None:
    """Any byte of a record set to any value: the kernel refuses it as malformed
    exactly when it reads back as no hand, and otherwise as evaluate would."""
    ruleset = load(ident, backend)
    record = bytearray(ruleset.records.record(data.draw(dealt_hands(ruleset))) or b"")
    if not record:
        return
    for _ in range(data.draw(st.integers(1, 3))):
        record[data.draw(st.integers(0, len(record) - 1))] = data.draw(st.sampled_from([0, 1, 2, 3, 4, 5, 7, 8,
                                                                                         15, 16, 33, 34, 128, 255]))
    status = ruleset.generated.evaluate_record(bytes(record))[0]
    try:
        hand = ruleset.records.hand(bytes(record))
    except RecordError:
        assert status == STATUS_MALFORMED
        return
    assert status != STATUS_MALFORMED, mjr.format_hand(hand)
    expected = _check_status(ruleset, hand)
    assert (status if status >= STATUS_REFUSED else 0) == expected, mjr.format_hand(hand)


def _mixed_hands(ruleset: mjr.Ruleset, n: int, seed: int) -> list[mjr.Hand]:
    rng = random.Random(seed)
    return [deal(ruleset, rng) for _ in range(n)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("ident", BUNDLED)
def test_a_batch_scores_each_hand_as_evaluate_does(ident: str, backend: str) -> None:
    ruleset = load(ident, backend)
    hands = _mixed_hands(ruleset, 300, seed=7)
    scores = ruleset.evaluate_batch(hands, fans=True, workers=1)
    for index, hand in enumerate(hands):
        try:
            result = ruleset.evaluate(hand)
        except HandError as error:
            assert scores.status[index] >= STATUS_REFUSED
            assert scores.points[index] in (-2, -3)
            assert scores.reason(index) == str(error)
            continue
        assert scores.reason(index) == ""
        if result.is_win:
            assert scores.status[index] == STATUS_WIN
            assert (scores.points[index], scores.fan[index]) == (result.points, result.fan)
            assert set(scores.fan_ids(index)) == set(result.fan_ids)
        else:
            assert STATUS_WIN < scores.status[index] < STATUS_REFUSED
            assert (scores.points[index], scores.fan[index]) == (-1, -1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_threads_score_as_one_thread_does(backend: str) -> None:
    ruleset = load_on("guangdong.tuidaohu", backend)
    hands = _mixed_hands(ruleset, 3000 if backend == "compiled" else 400, seed=3)
    records, _ = mjr.ruleset.batches.record_view(ruleset, hands)
    one = ruleset.evaluate_batch(records, fans=True, workers=1)
    for workers in (2, 3, 8):
        many = ruleset.evaluate_batch(records, fans=True, workers=workers)
        assert (many.points, many.fan, many.status, many.fans) == (one.points, one.fan, one.status, one.fans)


def test_a_numpy_record_array_is_read_in_place(tuidaohu: mjr.Ruleset) -> None:
    numpy = pytest.importorskip("numpy")
    hands = _mixed_hands(tuidaohu, 200, seed=5)
    records, n = mjr.ruleset.batches.record_view(tuidaohu, hands)
    array = numpy.frombuffer(bytes(records), dtype=tuidaohu.record_dtype()).copy()
    view, m = mjr.ruleset.batches.record_view(tuidaohu, array)
    assert m == n and numpy.shares_memory(numpy.asarray(view), array)
    assert tuidaohu.evaluate_batch(array).points == tuidaohu.evaluate_batch(hands).points
    hand = mjr.parse_hand("123m 456m 789m 123p 4p win 4p self_draw")
    row = numpy.zeros(1, dtype=tuidaohu.record_dtype())
    row["counts"][0] = list(hand.concealed_counts())
    row["win"], row["method"], row["winners"], row["dealer"], row["indicator"], row["void"] = 12, 0, 1, 255, 255, 255
    assert tuidaohu.evaluate_batch(row).points.tolist() == [tuidaohu.evaluate(hand).points]


def test_an_arrow_table_is_read_by_its_columns(tuidaohu: mjr.Ruleset) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    hand = mjr.parse_hand("123m 456m 789m [222p<L] 4p win 4p self_draw")
    assert tuidaohu.evaluate(hand).points > 0
    table = pyarrow.table({
        "counts": [list(hand.concealed_counts())], "win": [12], "method": [0],
        "melds": [[[2, 10, 3 << 2], [0, 0, 0], [0, 0, 0], [0, 0, 0]]],
    })
    assert tuidaohu.evaluate_batch(table).points.tolist() == [tuidaohu.evaluate(hand).points]
    with pytest.raises(BatchError, match="no column 'win'"):
        tuidaohu.evaluate_batch(pyarrow.table({"counts": [list(hand.concealed_counts())]}))
    counts = [list(hand.concealed_counts())] * 2
    for column, values, why in (
        ("seat", [0, 261], r"'seat' holds 261 in row 1: a uint8 field holds 0-255"),  # not seat 5, wrapped
        ("source", [-1, 0], r"'source' holds -1 in row 0"),
        ("seat", [0.5, 0], r"'seat' holds float64 values"),
        ("seat", [None, 0], r"'seat' holds .* values \(nulls, fractions or text\)"),
    ):
        table = pyarrow.table({"counts": counts, "win": [12, 12], "method": [0, 0], column: values})
        with pytest.raises(BatchError, match=why):
            tuidaohu.evaluate_batch(table)


def test_refused_hands_are_named_by_index(jipinghu: mjr.Ruleset) -> None:
    hands = ["123m 456m 789m 123p 4p win 4p", "1111m 456m 789m 123p 4p win 1m", "123m 456m 789m 123p 4p win 5p"]
    scores = jipinghu.evaluate_batch(hands)
    assert scores.counts() == {"win": 1, "shape": 1, "impossible": 1}
    assert scores.reason(1) == "5 copies of 1m: there are only 4"
    with pytest.raises(HandError, match=r"^hand 1 of the batch: 5 copies of 1m"):
        jipinghu.evaluate_batch(hands, refused="raise")
    with pytest.raises(HandError, match="^hand 0 of the batch: .*win T"):
        jipinghu.evaluate_batch(["123m 456m 789m 123p 44p"], refused="raise")
    with pytest.raises(HandError, match="^hand 1 of the batch: bad hand at column 4: .x. is not part of a tile"):
        jipinghu.evaluate_batch([hands[0], "123x"], refused="raise")


def test_a_hand_that_cannot_be_packed_is_marked_like_any_refused_hand(jipinghu: mjr.Ruleset) -> None:
    """Bad notation, no winning tile, not a hand, a fact of play the ruleset lacks:
    marked -2 by its index (refused="mark" is the default), the rest scored."""
    win = "123m 456m 789m 123p 4p win 4p"
    hands = [win, "234m 5x7m", "123m 456m 789m 123p 44p", None, mjr.parse_hand(win), "1111m 456m 789m 123p 4p win 1m"]
    scores = jipinghu.evaluate_batch(hands, fans=True)
    single = jipinghu.evaluate(win)
    assert list(scores.points) == [single.points, -2, -2, -2, single.points, -2]
    assert list(scores.fan) == [single.fan, -2, -2, -2, single.fan, -2]
    assert scores.counts() == {"win": 2, "malformed": 3, "impossible": 1}
    assert scores.fan_ids(1) == () and scores.fan_ids(4) == single.fan_ids
    assert scores.first_refused == 1 and scores.reason(0) == ""
    assert scores.reason(1).startswith("bad hand at column 7: 'x' is not part of a tile")
    assert scores.reason(2) == "a hand to evaluate needs its winning tile: add 'win T'"
    assert scores.reason(3).startswith("a hand must be a Hand or a hand string such as ")
    assert scores.reason(5) == "5 copies of 1m: there are only 4"
    with pytest.raises(HandError, match="^hand 1 of the batch: bad hand at column 7: 'x' is not part of a tile"):
        jipinghu.evaluate_batch(hands, refused="raise")
    with pytest.raises(HandError, match="^hand 3 of the batch: a hand must be a Hand or a hand string .*NoneType$"):
        jipinghu.evaluate_batch([win, win, win, None], refused="raise")


@pytest.mark.parametrize(("batch", "message"), [
    (b"\0" * 10, "whole records"),
    (3.5, "not float"),
    (memoryview(bytes(112))[::2], "C-contiguous"),
])
def test_a_batch_that_is_no_records_is_refused(jipinghu: mjr.Ruleset, batch: object, message: str) -> None:
    with pytest.raises(BatchError, match=message):
        jipinghu.evaluate_batch(batch)


def test_workers_must_be_a_count(jipinghu: mjr.Ruleset) -> None:
    for workers in (0, -1, 1.5, True):
        with pytest.raises(MjrError, match="workers must be"):
            jipinghu.evaluate_batch(["123m 456m 789m 123p 4p win 4p"], workers=workers)  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_result_pickles_with_its_lazy_fields_computed(backend):
    """A winning result keeps the evaluation's state for its lazy fields; pickled or
    copied, it carries the fields themselves (the state is never pickled: the
    compiled module has no pickling of it)."""
    import copy
    import pickle

    rules = load_on("japan.riichi", backend)
    result = rules.evaluate("234m 567p 789s 2z 345s win 2z self_draw dealer riichi dora_indicators 1z")
    assert "_lazy" in vars(result) and "fans" not in vars(result)
    for twin in (pickle.loads(pickle.dumps(result)), copy.deepcopy(result)):
        assert "_lazy" not in vars(twin)
        assert twin == result and twin.fans == result.fans and twin.values == result.values
        assert twin.amounts == result.amounts and twin.groups == result.groups


def test_a_winning_result_keeps_only_its_best_reading():
    """A result's lazy fields read a copy of the best reading, not the evaluation's
    whole state (its search scratch and its waits' state): thousands of results
    kept cost a little each."""
    import tracemalloc

    from mcr_hands import generate

    rules = load_on("mcr", "compiled")
    texts = [hand.text for hand in generate(500, seed=3)]
    kept = [rules.evaluate(texts[0])]  # the module's first call warms what it keeps for good
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept += [rules.evaluate(text) for text in texts]
        per_result = (tracemalloc.get_traced_memory()[0] - before) / len(texts)
    finally:
        tracemalloc.stop()
    assert all(result.is_win for result in kept)
    assert per_result < 4000, f"a winning result holds {per_result:.0f} bytes"
    assert kept[1].fans and kept[1].groups


@pytest.mark.parametrize("text", ["1m" * 300 + " win 1m", "123m " + "E" * 256 + " win E"])
def test_more_copies_than_a_count_holds_are_impossible(text: str) -> None:
    """A hand holding a kind more than 255 times has no record (a count is a byte):
    it is refused as impossible, alone, not with a ValueError for the whole call."""
    ruleset = mjr.load("guangdong.jipinghu")
    with pytest.raises(HandError, match="copies of"):
        ruleset.evaluate(text)
    scores = ruleset.evaluate_batch([text, "123m 456m 789m 123p 5s win 5s self_draw"])
    assert scores.counts() == {"win": 1, "impossible": 1}
    assert "copies of" in scores.reason(0)
