"""``formal_waits``: the kinds that complete the hand without its winning tile,
a kind counted even when every copy of it is already held or out of play (the
"formal" waits of a unique-wait rule); ``waits`` leaves those out.  Both backends,
single hands and batches."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_on

import mjr
from mjr.notation.parse import parse_hand

BACKENDS = ["compiled", "python"]

COUNTS = """ruleset w.formal "Formal waits" {
    tiles suits(m p s) winds dragons
    fact seen "Seen" tiles 0 to 3
    fan waits_n  "Waits"        (waits) : waits > 0
    fan formal_n "Formal waits" (100 * formal_waits) : formal_waits > 0
}
"""


def ruleset(tmp_path: Path, text: str, backend: str) -> mjr.Ruleset:
    path = tmp_path / f"{text.split()[1]}.mjr"
    path.write_text(text, encoding="utf-8")
    return load_on(path, backend, unoptimised=True)


def counted(result: mjr.Result) -> tuple[int, int]:
    values = {line.id: line.value for line in result.fans}
    return values.get("waits_n", 0), values.get("formal_n", 0) // 100


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("hand", "expected"), [
    ("4444666s 123m 789p win 5s discard", (1, 2)),  # 4s and 5s; no fifth 4s can come
    ("1111m 234m 567p 789p win 4m", (1, 2)),  # 4m, and 1m (111m 11m 234m ... with a fifth 1m)
    ("23m 456m 789m 111p 22p win 1m", (3, 3)),  # nothing held four times: the same count
    ("2345p 123m 456m 789m win 2p seen 5p5p5p", (1, 2)),  # 2p and 5p: the fact takes up the other three 5p
])
def test_formal_waits_counts_what_waits_leaves_out(tmp_path: Path, backend: str, hand: str,
                                                   expected: tuple[int, int]) -> None:
    rs = ruleset(tmp_path, COUNTS, backend)
    assert counted(rs.evaluate(hand)) == expected


@pytest.mark.parametrize("backend", BACKENDS)
def test_formal_waits_alone_and_in_a_batch(tmp_path: Path, backend: str) -> None:
    rs = ruleset(tmp_path, COUNTS.replace("    fan waits_n  \"Waits\"        (waits) : waits > 0\n", ""), backend)
    hands = [parse_hand(h) for h in ("4444666s 123m 789p win 5s", "23m 456m 789m 111p 22p win 1m")]
    counts = b"".join(bytes(h.concealed_counts()) for h in hands)
    fan = rs.evaluate_counts(counts, win_tiles=[h.win_tile or 0 for h in hands])[1]
    assert list(fan) == [200, 300]


def test_formal_waits_is_generated_with_the_waits_search(tmp_path: Path) -> None:
    module = ruleset(tmp_path, COUNTS.replace("    fan waits_n  \"Waits\"        (waits) : waits > 0\n", ""),
                     "python").module
    assert hasattr(module, "_count_waits") and module.USES_WIN_TILE is False


@pytest.mark.parametrize("backend", BACKENDS)
def test_formal_waits_counts_a_kind_the_flipped_indicator_takes_up(tmp_path: Path, backend: str) -> None:
    text = COUNTS.replace("w.formal", "w.indicator").replace(
        "fact seen", "wildcard indicator + 1\n    indicator out_of_play\n    fact seen")
    rs = ruleset(tmp_path, text, backend)
    # 999p 78p 55s waits on 6p, 9p, 5s and (the wildcard) 1p; the flipped 9p is out of play: no fourth 9p
    assert counted(rs.evaluate("999p 78p 123m 456m 55s win 6p from L indicator 9p")) == (3, 4)
