"""What a new rule author met writing regions from the docs alone: words that meant
something else than they read, and messages that did not say enough."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mjr import cli
from mjr.compiler.build import check_file
from mjr.errors import SourceError

from conftest import load_on

HEADER = 'ruleset t "Test" {\n    tiles suits(m p s) winds dragons\n'
#: a chow 123m, chows 456m 345p 678s, pair 2s
HAND = "123m 456m 345p 678s 2s win 2s self_draw"


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MJR_PATH", raising=False)


def write(tmp_path: Path, body: str, name: str = "t.mjr", header: str = HEADER) -> Path:
    path = tmp_path / name
    path.write_text(header + body + "}\n", encoding="utf-8")
    return path


def problems(path: Path) -> str:
    with pytest.raises(SourceError) as info:
        check_file(path)
    return str(info.value)


# -- rank inside a group -----------------------------------------------------------

RANK_FANS = """\
    fan low_chow "low" 1 : any sets are (chow and m and rank == 1)
    fan counted "counted" 1 each : count(sets where chow and rank == 1)
    fan member "member" 1 : any sets are (chow and rank in (1))
    fan pair_rank "pair" 1 : all pairs are (rank == 2)
    fan low_bare "bare" 1 : any sets are (rank in (1))
    fan not_there "none" 1 : any sets are (chow and rank == 2)
"""


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_rank_in_a_group_is_the_lowest_tiles(tmp_path: Path, backend: str) -> None:
    ruleset = load_on(write(tmp_path, RANK_FANS), backend)
    result = ruleset.evaluate(HAND)
    assert sorted(result.fan_ids) == ["counted", "low_bare", "low_chow", "member", "pair_rank"]


# -- conditions proven never or always true ---------------------------------------

CONSTANT = """\
    fan ten "ten" 1 : any sets are (chow and rank == 10)
    fan four_suits "four suits" 1 : suits > 3
    fan many "many" 1 : count(sets) > 10
    fan listed "listed" 1 : any tiles are (rank in (10, 11))
    fan anyone "anyone" 1 : winners >= 1
    fan fine "fine" 1 : suits == 1 and any tiles are (rank in (1, 9))
"""


def test_conditions_never_or_always_true_are_warned_at_their_place(tmp_path: Path) -> None:
    ruleset = check_file(write(tmp_path, CONSTANT))
    places = [(w.span.line, w.span.column, w.message) for w in ruleset.warnings]
    assert places == [
        (3, 46, "warning: this comparison is never true: its left side is 0 to 9 and its right side 10"),
        (4, 37, "warning: this comparison is never true: its left side is 0 to 3 and its right side 3"),
        (5, 25, "warning: this comparison is never true: its left side is 0 to 10 and its right side 10"),
        (6, 44, "warning: this condition is never true: the value is 0 to 9, and none of the listed values"),
        (7, 29, "warning: this comparison is always true: its left side is 1 to 3 and its right side 1"),
    ]
    assert ruleset.warnings[0].render().endswith("                                 ^^^^^^^^^^")


def test_mjr_check_shows_warnings_and_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, '    fan four_suits "four suits" 1 : suits > 3\n')
    assert cli.main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}:3:37: warning: this comparison is never true" in out
    assert "    fan four_suits" in out and "^^^^^^^^^" in out
    assert out.rstrip().endswith(": ok (1 fans, 0 examples)")
    assert cli.main(["check", "--json", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [w["line"] for w in doc["files"][0]["warnings"]] == [3]
