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


# -- an each fan's id as a number --------------------------------------------------

COUNTED = """\
    fan chows "chows" 1 each : count(sets where chow)
    fan hog "hog" 1 each : count(kinds where copies == 4)
    fan many_chows "many chows" 2 : chows >= 4
    fan some_chows "some chows" 1 : chows
    fan no_hog "no hog" 1 : hog == 0 and not hog
    fan doubled "doubled" (chows * 2) : chows > 3
    require enough "enough" : (scored chows if self_draw else 0) == 4
"""


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_an_each_fans_id_is_its_count_where_a_number_is_expected(tmp_path: Path, backend: str) -> None:
    ruleset = load_on(write(tmp_path, COUNTED), backend)
    result = ruleset.evaluate(HAND)
    assert dict((line.id, line.value) for line in result.fans) == {
        "chows": 4, "many_chows": 2, "some_chows": 1, "no_hog": 1, "doubled": 8}
    assert not ruleset.evaluate(HAND.replace("self_draw", "from L")).is_win


def test_a_plain_fans_id_is_still_no_number(tmp_path: Path) -> None:
    text = problems(write(tmp_path, '    fan flag "flag" 1 : standard\n    fan use "use" 1 : flag > 0\n'))
    assert "4:23: expected a number here, found a condition" in text


# -- excludes on multipliers, as the reference shows it ----------------------------

DOCS = Path(__file__).resolve().parents[1] / "docs" / "language.rst"


def docs_block(after: str) -> str:
    """The first ``mjr`` code block of the language reference after the text ``after``."""
    page = DOCS.read_text(encoding="utf-8")
    rest = page[page.index(after):]
    block = rest[rest.index(".. code-block:: mjr\n\n") + len(".. code-block:: mjr\n\n"):]
    lines = []
    for line in block.split("\n"):
        if line and not line.startswith("   "):
            break
        lines.append(line[3:])
    return "\n".join(lines).strip() + "\n"


def test_the_reference_shows_multipliers_excluding_and_excluded(tmp_path: Path) -> None:
    body = "    wildcard fixed C\n" + "".join(f"    {line}\n" for line in docs_block("multipliers too").splitlines())
    ruleset = load_on(write(tmp_path, body), "python")
    plain = ruleset.evaluate(HAND)
    assert (plain.fan_ids, plain.multiplier) == (("hard", "clean"), 2)
    wild = ruleset.evaluate("123m 456m 345p CCC 5s win C self_draw")
    assert (wild.fan_ids, wild.multiplier) == (("four_wild",), 4)
