"""What a new rule author met writing regions from the docs alone: words that meant
something else than they read, and messages that did not say enough."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import load_on

from mjr import cli
from mjr.compiler.build import check_file
from mjr.errors import SourceError

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
    assert out.rstrip().endswith(": ok (1 fan, 0 examples)")
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

DOCS = Path(__file__).resolve().parents[2] / "docs" / "language.rst"


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


# -- a variant that changes the tile set under inherited wildcard lines -------------

def test_a_variants_tiles_that_drop_an_inherited_wildcards_honours_is_one_error_at_the_variant(
        tmp_path: Path) -> None:
    path = write(tmp_path, "", header='ruleset v "V" extends guangdong.tuidaohu {\n    tiles suits(m p s)\n')
    with pytest.raises(SourceError) as info:
        check_file(path)
    [problem] = info.value.problems
    assert (problem.span.file, problem.span.line) == (str(path), 2)
    assert problem.message.startswith("this tile set leaves out E, S, W, N, C, F, P, which the inherited "
                                      "wildcard line at ")
    assert problem.message.endswith("guangdong.tuidaohu.mjr:19:5 names: restate the wildcard lines in this file "
                                    "with tiles of this set (or 'wildcard none')")


# -- drop says what kind of statement it drops ---------------------------------------

PARENT = """ruleset p.base "Base" {
    tiles suits(m p s) winds dragons
    fan chicken "chicken" 1 : standard
    floor triple "triple floor" 3 : discard and winners == 3
    liable triple "triple clause" when discard and winners == 3 : discarder pays all
    floor robbing "robbing" 3 : robbing_kong
}
"""


def variant(tmp_path: Path, drop: str) -> Path:
    (tmp_path / "p.base.mjr").write_text(PARENT, encoding="utf-8")
    return write(tmp_path, f"    {drop}\n", "p.child.mjr", 'ruleset p.child "Child" extends p.base {\n')


def test_a_bare_drop_of_an_id_two_kinds_share_is_refused_with_the_forms_to_use(tmp_path: Path) -> None:
    text = problems(variant(tmp_path, "drop robbing triple"))
    assert text.splitlines()[0].endswith("p.child.mjr:2:18: 'triple' names a floor and a liable clause: say which "
                                         "to drop: 'drop floor triple' or 'drop liable triple'")
    assert len(text.splitlines()) == 3


@pytest.mark.parametrize(("drop", "floors", "clauses"), [
    ("drop floor triple robbing", [], ["triple"]),
    ("drop liable triple", ["triple", "robbing"], []),
    ("drop robbing", ["triple"], ["triple"]),
])
def test_drop_with_a_kind_drops_that_kind_only(tmp_path: Path, drop: str, floors: list[str],
                                               clauses: list[str]) -> None:
    ruleset = check_file(variant(tmp_path, drop))
    assert ([f.id for f in ruleset.floors], [p.id for p in ruleset.payments]) == (floors, clauses)


@pytest.mark.parametrize(("drop", "message"), [
    ("drop fan robbing", "2:14: there is no fan 'robbing' to drop: 'robbing' is a floor ('drop floor robbing')"),
    ("drop pay triple", "2:14: there is no payment clause 'triple' to drop: 'triple' is a floor and a liable "
                        "clause ('drop floor triple' or 'drop liable triple')"),
    ("drop floor chiken", "2:16: unknown floor 'chiken' to drop"),
    ("drop fan chiken", "2:14: unknown fan 'chiken' to drop (did you mean 'chicken'?)"),
])
def test_drop_of_a_kind_that_is_not_there_says_what_is(tmp_path: Path, drop: str, message: str) -> None:
    assert message in problems(variant(tmp_path, drop))


def test_the_cap5_variant_keeps_the_three_winners_clause(tmp_path: Path) -> None:
    rules = Path(__file__).resolve().parents[2] / "rulesets" / "guangdong.jipinghu.cap5.mjr"
    ruleset = load_on(rules, "python")
    result = ruleset.evaluate("234m 567m 345p 678s 2s win 2s winners 3 from O")
    [line] = ruleset.settle(result).lines
    assert (line.payer, line.amount) == ("W", 12)
