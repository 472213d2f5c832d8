"""Ways to make inputs for a target, all feeding one :class:`Campaign`.

``hypothesis`` draws structured inputs from :mod:`fuzz.inputs`; ``atheris`` mutates
bytes under coverage guidance (the text parsers, JSON, raw batch buffers);
``mutate`` is a plain random mutation loop over the same seeds, for machines
without atheris.
"""

from __future__ import annotations

import json
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings

import mjr
from mjr.tiles.kinds import N_KINDS

from .cases import CASES_DIR, Failure, load_cases, run_one, save_case, shrink
from .checks import RULESET_IDS, answer
from .inputs import STRATEGIES, bundled_texts, grammar_words
from .targets import Target

#: Inputs per hypothesis run: its memory of what it tried grows with each one.
HYPOTHESIS_CHUNK = 5_000
ENGINES = ("hypothesis", "atheris", "mutate")
BYTE_TARGETS = ("mjr", "notation", "json", "batch")
#: How much slower code runs under atheris's coverage instrumentation: its time
#: budgets are this much longer, so a slow input is slow for mjr, not for the tracer.
ATHERIS_SLOWDOWN = 5


@dataclass
class Campaign:
    """Counts inputs per target and keeps the first (shrunk) input of each distinct failure."""

    save: bool = True
    folder: Path = CASES_DIR
    deadline: float = float("inf")
    log: Callable[[str], None] = print
    tried: dict[str, int] = field(default_factory=dict)
    found: dict[str, tuple[Failure, Any]] = field(default_factory=dict)
    known: set[str] = field(default_factory=set)
    stats: Path | None = None

    def __post_init__(self) -> None:
        self.known = {Failure(**record["failure"]).signature
                      for _, record in load_cases(self.folder) if record.get("status") == "open"}

    @property
    def out_of_time(self) -> bool:
        return time.monotonic() > self.deadline

    def record(self, target: Target, value: Any) -> None:
        self.tried[target.name] = self.tried.get(target.name, 0) + 1
        failure = run_one(target, value)
        if failure is None or failure.signature in self.found:
            return
        if failure.kind == "slow" and run_one(target, value) is None:
            return  # slow once only: the machine was busy, not mjr
        small = shrink(target, value, failure)
        self.found[failure.signature] = (failure, small)
        state = "known" if failure.signature in self.known else "NEW"
        where = ""
        if self.save and state == "NEW":
            where = f" -> {save_case(target, small, failure, self.folder)}"
        self.log(f"[{target.name}] {state} {failure.signature}: {json.dumps(small, default=repr)[:200]}{where}")

    def progress(self, name: str) -> None:
        """A line of counts, and the stats file brought up to date (libFuzzer ends the
        process without returning, so the counts are written as they go)."""
        self.log(f"[{name}] {self.tried.get(name, 0)} inputs, {len(self.found)} distinct failures")
        if self.stats is not None:
            self.stats.write_text(json.dumps({"tried": self.tried, "failures": sorted(self.found)}, indent=1))

    @property
    def new(self) -> list[str]:
        return [signature for signature in self.found if signature not in self.known]


# --------------------------------------------------------------------------- hypothesis


def run_hypothesis(target: Target, inputs: int, campaign: Campaign, seed: int | None) -> None:
    strategy = STRATEGIES[target.name]
    done = 0
    while done < inputs and not campaign.out_of_time:
        chunk = min(HYPOTHESIS_CHUNK, inputs - done)

        @settings(max_examples=chunk, database=None, phases=[Phase.generate], deadline=None,
                  suppress_health_check=list(HealthCheck))
        @given(strategy)
        def one(value: Any) -> None:
            if campaign.out_of_time:
                raise _OutOfTime()  # not an Exception: hypothesis stops without shrinking
            campaign.record(target, value)

        if seed is not None:
            one = _seeded(one, seed + done)
        before = campaign.tried.get(target.name, 0)
        try:
            one()
        except _OutOfTime:
            return
        done += max(campaign.tried.get(target.name, 0) - before, 1)
        campaign.progress(target.name)


class _OutOfTime(BaseException):
    """Ends a hypothesis run when the campaign's time is up."""


def _seeded(test: Any, seed: int) -> Any:
    from hypothesis import seed as hypothesis_seed

    return hypothesis_seed(seed)(test)


# --------------------------------------------------------------------------- seeds and bytes


def example_hands() -> list[str]:
    """The example hands of the bundled rulesets that the notation reads."""
    found = [match for text in bundled_texts() for match in re.findall(r'hand "([^"]*)"', text)]
    return [hand for hand in found if not isinstance(answer(mjr.parse_hand, hand), mjr.MjrError)]


def seeds(target: str) -> list[bytes]:
    if target == "mjr":
        return [text.encode() for text in bundled_texts()]
    hands = example_hands()
    if target == "notation":
        return [hand.encode() for hand in hands]
    if target == "json":
        return [json.dumps(mjr.hand_to_json(mjr.parse_hand(hand))).encode() for hand in hands]
    return [bytes([i]) + bytes(mjr.parse_hand(hand).concealed_counts()) for i, hand in enumerate(hands)]


def from_bytes(target: str, data: bytes) -> Any:
    """The input of ``target`` that ``data`` stands for, or None when it stands for none."""
    if target in ("mjr", "notation"):
        return data.decode("utf-8", "replace")
    if target == "json":
        try:
            return json.loads(data)
        except (ValueError, RecursionError):
            return None
    if not data:
        return None
    head = data[0]
    return {"ruleset": RULESET_IDS[head % len(RULESET_IDS)], "kind": "bytes", "data": list(data[1:]),
            "context": None if head & 8 else "1m win 1m self_draw", "refused": "raise" if head & 16 else "mark"}


def run_atheris(target: Target, inputs: int, campaign: Campaign, seed: int | None) -> None:
    """Coverage-guided: libFuzzer mutates bytes, :func:`from_bytes` reads them.  Runs in
    this process and ends it (libFuzzer exits when done)."""
    try:
        import atheris  # type: ignore[import-not-found]
    except ImportError:
        sys.exit("atheris is not installed: pip install 'mahjong-rules[fuzz]' (or use --engine mutate)")
    target = replace(target, budget=target.budget * ATHERIS_SLOWDOWN)
    corpus = Path(tempfile.mkdtemp(prefix=f"mjr-fuzz-{target.name}-"))
    for index, data in enumerate(seeds(target.name)):
        (corpus / f"seed{index}").write_bytes(data)

    calls = [0]

    def one(data: bytes) -> None:
        calls[0] += 1
        value = from_bytes(target.name, data)
        if value is not None:
            campaign.record(target, value)
        if calls[0] % 10_000 == 0 or calls[0] == inputs:
            campaign.log(f"[{target.name}] {calls[0]} byte strings, of which {campaign.tried.get(target.name, 0)} "
                         "were inputs of the target")
            campaign.progress(target.name)

    atheris.instrument_all()
    args = [sys.argv[0], f"-runs={inputs}", "-timeout=0", f"-seed={seed or 0}", "-print_final_stats=1", str(corpus)]
    atheris.Setup(args, one)
    atheris.Fuzz()


def run_mutate(target: Target, inputs: int, campaign: Campaign, seed: int | None) -> None:
    """Random edits of the seeds: bytes flipped, dropped, repeated, grammar words inserted."""
    rng = random.Random(seed)
    corpus = seeds(target.name)
    words = [word.encode() for word in grammar_words()] + [b"[", b"]", b"win", b"\xff", b"\x00"]
    for _ in range(inputs):
        if campaign.out_of_time:
            return
        data = bytearray(rng.choice(corpus))
        for _ in range(rng.randint(1, 6)):
            at = rng.randint(0, len(data))
            end = min(len(data), at + rng.randint(0, 16))
            edit = rng.randrange(4)
            if edit == 0:
                data[at:end] = b""
            elif edit == 1:
                data[at:at] = rng.choice(words)
            elif edit == 2:
                data[at:at] = data[at:end] * rng.randint(1, 4)
            elif data:
                data[min(at, len(data) - 1)] = rng.randrange(256)
        value = from_bytes(target.name, bytes(data))
        if value is not None:
            campaign.record(target, value)


RUNNERS = {"hypothesis": run_hypothesis, "atheris": run_atheris, "mutate": run_mutate}
__all__ = ["BYTE_TARGETS", "Campaign", "ENGINES", "RUNNERS", "N_KINDS"]
