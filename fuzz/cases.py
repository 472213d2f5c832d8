"""Running one input, classifying what happened, shrinking a failure and saving it
as a regression fixture under ``tests/fuzz_cases/``.

A failure is an exception other than MjrError, a broken contract (a bad message,
answers that disagree), a call slower than the target's budget, or a MemoryError.
Failures with the same signature (what went wrong, and where in mjr) are one.
"""

from __future__ import annotations

import hashlib
import json
import re
import signal
import time
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .checks import Broken
from .targets import Target

CASES_DIR = Path(__file__).resolve().parent.parent / "tests" / "fuzz_cases"
#: Runs, and seconds, one shrink may spend on a failure.
SHRINK_RUNS, SHRINK_SECONDS = 400, 30.0


class Hang(BaseException):
    """Raised by the alarm when one input runs far past its budget.  A BaseException,
    so no ``except Exception`` in the code under test swallows it."""


@dataclass(frozen=True)
class Failure:
    kind: str  # exception | contract | slow | memory
    detail: str  # the exception and its message, or the broken contract, cut short
    where: str  # the innermost frame in mjr: module:function

    @property
    def signature(self) -> str:
        detail = re.sub(r"\d+", "N", self.detail)  # not one signature per message length
        head = detail.split(":")[0] if self.kind in ("exception", "memory") else detail[:40]
        return f"{self.kind} {head} at {self.where}"


def _where(error: BaseException) -> str:
    """The innermost frame inside mjr (or the deepest frame, outside it)."""
    frames = traceback.extract_tb(error.__traceback__)
    inside = [frame for frame in frames if "/mjr/" in frame.filename.replace("\\", "/")]
    frame = (inside or frames or [None])[-1]
    if frame is None:
        return "?"
    path = frame.filename.replace("\\", "/")
    module = path.rsplit("/mjr/", 1)[-1] if "/mjr/" in path else path.rsplit("/", 1)[-1]
    return f"{module}:{frame.name}"


def _on_alarm(signum: int, frame: object) -> None:
    raise Hang()


def run_one(target: Target, value: Any) -> Failure | None:
    """Run ``target`` on ``value``: None when mjr kept its contract."""
    hard_stop = 1.5 * target.budget  # a hang is cut here; anything over the budget already fails
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, hard_stop)
    start = time.perf_counter()
    try:
        target.run(value)
    except Hang as error:
        # where the alarm struck is chance: the signature names the target only
        return Failure("slow", f"still running after {hard_stop:g} s (budget {target.budget:g} s), in "
                       f"{_where(error)}", target.name)
    except Broken as error:
        return Failure("contract", str(error)[:300], _where(error))
    except MemoryError as error:
        return Failure("memory", "MemoryError", _where(error))
    except Exception as error:  # noqa: BLE001 - any other exception is the finding
        return Failure("exception", f"{type(error).__name__}: {error}"[:300], _where(error))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - start
    if elapsed > target.budget:
        return Failure("slow", f"took {elapsed:.1f} s (budget {target.budget:g} s)", target.name)
    return None


# --------------------------------------------------------------------------- shrinking


def shrink(target: Target, value: Any, failure: Failure) -> Any:
    """A smaller input that fails the same way (same signature); greedy, bounded."""
    runs = [0]
    stop = time.monotonic() + SHRINK_SECONDS

    def still_fails(candidate: Any) -> bool:
        if runs[0] >= SHRINK_RUNS or time.monotonic() > stop:
            return False
        runs[0] += 1
        found = run_one(target, candidate)
        return found is not None and found.signature == failure.signature

    if failure.kind == "slow":  # each try costs a budget: keep the input as found
        return value
    return _shrink_value(value, still_fails)


def _shrink_value(value: Any, still_fails: Any) -> Any:
    if isinstance(value, str):
        if "\n" in value:  # whole lines first: far fewer runs on a long text
            value = _shrink_sequence(value.split("\n"), still_fails, "\n".join)
        return _shrink_sequence(value, still_fails, "".join)
    if isinstance(value, list):
        value = _shrink_sequence(value, still_fails, list)
        for index in range(len(value)):
            value = _shrink_item(value, index, still_fails)
        return value
    if isinstance(value, dict):
        for key in list(value):
            smaller = {k: v for k, v in value.items() if k != key}
            if still_fails(smaller):
                value = smaller
        for key in list(value):
            value = _shrink_item(value, key, still_fails)
        return value
    return value


def _shrink_item(container: Any, key: Any, still_fails: Any) -> Any:
    """``container`` with its item at ``key`` shrunk as far as the failure allows."""
    def with_item(item: Any) -> Any:
        copy = container.copy()
        copy[key] = item
        return copy

    return with_item(_shrink_value(container[key], lambda item: still_fails(with_item(item))))


def _shrink_sequence(items: Any, still_fails: Any, join: Any) -> Any:
    """Delta debugging: drop chunks, halving their size, while the failure stays."""
    items = list(items)
    chunk = max(len(items) // 2, 1)
    while chunk >= 1 and items:
        start, progress = 0, False
        while start < len(items):
            candidate = items[:start] + items[start + chunk:]
            if still_fails(join(candidate)):
                items, progress = candidate, True
            else:
                start += chunk
        if not progress:
            chunk //= 2
    return join(items)


# --------------------------------------------------------------------------- fixtures


def case_path(target: str, value: Any, folder: Path = CASES_DIR) -> Path:
    digest = hashlib.sha256(json.dumps(value, sort_keys=True, default=repr).encode()).hexdigest()[:10]
    return folder / f"{target}-{digest}.json"


def save_case(target: Target, value: Any, failure: Failure, folder: Path = CASES_DIR) -> Path:
    """Write the failing input as a fixture the replay test runs; ``open`` until mjr
    is fixed, then the replay test says so."""
    folder.mkdir(parents=True, exist_ok=True)
    path = case_path(target.name, value, folder)
    record = {"target": target.name, "input": value, "failure": asdict(failure), "status": "open"}
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def load_cases(folder: Path = CASES_DIR) -> list[tuple[Path, dict[str, Any]]]:
    return [(path, json.loads(path.read_text(encoding="utf-8"))) for path in sorted(folder.glob("*.json"))]
