"""What the compiler says about a wrong ``.mjr`` file: every problem, its place, its words.

Bad-input cases live in ``language_cases/``: ``NAME.mjr`` is a small ruleset with one
or more mistakes, ``NAME.expected`` the exact text of the SourceError that
:func:`mjr.compiler.build.check_file` raises for it (every problem as
``FILE:LINE:COL: message``, the source line, a caret line), so a reviewer sees the
output as a user would.

Paths: each case is checked with the current directory set to the repository root
and the file given as the relative path ``tests/language_cases/NAME.mjr``, so that is
how messages name it (and a parent found through ``extends`` beside it).  MJR_PATH is
cleared, so ``extends`` finds only files beside the case and the bundled rulesets.
Files that extend each other are named after their ruleset id (``lc.cycle_a.mjr``)
because ``extends ID`` looks for ``ID.mjr`` beside the file.

Known bugs: a case named in ``KNOWN_BUGS`` holds, in its ``.expected``, the output
the compiler *should* give (a proposal: adjust the wording when fixing) and runs as a
strict xfail; remove it from ``KNOWN_BUGS`` once fixed.  Bugs that need odd bytes or
are better stated as a property are the xfail tests at the end of this module.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

import mjr
from mjr.compiler.build import check_file, check_options
from mjr.dsl.parser import _lark, parse
from mjr.dsl.recovery import statement_keywords
from mjr.errors import SourceError
from mjr.notation.parse import parse_hand

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(__file__).resolve().parents[1] / "language_cases"
CASES_REL = CASES.relative_to(ROOT)

KNOWN_BUGS: dict[str, str] = {}


def case_files() -> list[Path]:
    return sorted(CASES.glob("*.mjr"))


def case_params() -> list[object]:
    params: list[object] = []
    for path in case_files():
        marks = []
        if path.stem in KNOWN_BUGS:
            marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[path.stem]))
        params.append(pytest.param(path, marks=marks, id=path.stem))
    return params


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("MJR_PATH", raising=False)


def error_of(path: Path) -> SourceError:
    """The SourceError for a case, checked by its path relative to the repository root."""
    relative = CASES_REL / path.name
    with pytest.raises(SourceError) as info:
        check_file(relative)
    return info.value


def normalised(text: str) -> str:
    """Messages name files with the platform's separator; the .expected files use '/'."""
    return text.replace(str(CASES_REL), CASES_REL.as_posix())


# --------------------------------------------------------------------------- the case files


def test_there_are_enough_cases() -> None:
    assert len(case_files()) >= 25


def test_every_case_has_its_expected_output() -> None:
    sources = {p.stem for p in CASES.glob("*.mjr")}
    outputs = {p.stem for p in CASES.glob("*.expected")}
    assert sources == outputs
    assert set(KNOWN_BUGS) <= sources


@pytest.mark.usefixtures("at_root")
@pytest.mark.parametrize("path", case_params())
def test_case(path: Path) -> None:
    expected = path.with_suffix(".expected").read_text(encoding="utf-8")
    assert normalised(str(error_of(path))) == expected.removesuffix("\n")


@pytest.mark.usefixtures("at_root")
@pytest.mark.parametrize("path", case_files(), ids=lambda p: p.stem)
def test_case_raises_only_source_error(path: Path) -> None:
    try:
        check_file(CASES_REL / path.name)
    except SourceError as error:
        assert error.problems
    except Exception as error:  # the point: nothing but SourceError escapes
        pytest.fail(f"{path.name}: {type(error).__name__} instead of SourceError: {error}")
    else:
        pytest.fail(f"{path.name} was accepted")


@pytest.mark.usefixtures("at_root")
@pytest.mark.parametrize("path", case_files(), ids=lambda p: p.stem)
def test_every_problem_names_its_place(path: Path) -> None:
    """Each rendered problem starts with FILE:LINE:COL of a real place in that file,
    shows that file's line and puts the caret under the column; problems come in
    file order."""
    error = error_of(path)
    rendered = str(error).split("\n")
    cursor = 0
    for problem in error.problems:
        span = problem.span
        prefix = f"{span.file}:{span.line}:{span.column}: "
        assert rendered[cursor].startswith(prefix)
        assert rendered[cursor] == prefix + problem.message
        assert Path(span.file).parent == CASES_REL, span.file
        lines = (ROOT / span.file).read_text(encoding="utf-8").split("\n")
        assert 1 <= span.line <= len(lines)
        line = lines[span.line - 1]
        assert 1 <= span.column <= len(line) + 1
        assert problem.source_line == line
        assert rendered[cursor + 1] == "    " + line
        caret = rendered[cursor + 2]
        assert caret.startswith("    " + " " * (span.column - 1) + "^")
        assert set(caret.strip()) == {"^"}
        cursor += 3
    assert cursor == len(rendered)
    places = [(p.span.file, p.span.line, p.span.column) for p in error.problems]
    assert places == sorted(places)


@pytest.mark.usefixtures("at_root")
def test_several_problems_are_reported_together_in_file_order() -> None:
    error = error_of(CASES / "several_problems.mjr")
    lines = [p.span.line for p in error.problems]
    assert lines == sorted(lines)
    assert len(lines) >= 8
    assert {p.span.file for p in error.problems} == {f"{CASES_REL.as_posix()}/several_problems.mjr"}


@pytest.mark.usefixtures("at_root")
def test_extends_cycle_is_reported_from_either_side() -> None:
    for first, second in (("lc.cycle_a", "lc.cycle_b"), ("lc.cycle_b", "lc.cycle_a")):
        error = error_of(CASES / f"{first}.mjr")
        assert len(error.problems) == 1
        problem = error.problems[0]
        assert problem.span.file.endswith(f"/{second}.mjr")
        assert f"{first} -> {second} -> {first}" in problem.message


# --------------------------------------------------------------------------- known bugs
# Each test states what should happen; it fails today (strict xfail).

HEADER = 'ruleset t "Test" {\n    tiles suits(m p s) winds dragons\n'


def check_text(tmp_path: Path, text: str, name: str = "case.mjr") -> SourceError:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    with pytest.raises(SourceError) as info:
        check_file(path)
    return info.value


def messages(error: SourceError) -> list[str]:
    return [p.message for p in error.problems]


def test_stray_closing_brace_is_a_source_error(tmp_path: Path) -> None:
    text = HEADER + '    fan a "A" 1 : standard\n}\n}\n'
    error = check_text(tmp_path, text)
    assert (error.problems[0].span.line, error.problems[0].span.column) == (5, 1)
    assert error.problems[0].message.startswith("unexpected '}'")


def test_empty_file_says_end_of_file(tmp_path: Path) -> None:
    error = check_text(tmp_path, "# only a comment\n")
    assert error.problems[0].message.startswith("unexpected end of file")


def test_nul_character_in_a_string_is_a_source_error(tmp_path: Path) -> None:
    text = HEADER + '    fan a "A\x00B" 1 : standard\n}\n'
    error = check_text(tmp_path, text)
    assert error.problems[0].span.line == 3


def test_carriage_return_in_a_string_is_a_source_error() -> None:
    text = HEADER + '    fan a "A\rB" 1 : standard\n}\n'
    with pytest.raises(SourceError) as info:
        parse(text, "case.mjr")
    assert [(p.span.line, p.span.column, p.message) for p in info.value.problems] == [
        (3, 13, "control character U+000D in a string")]


def test_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.mjr"
    path.write_bytes(b"\xef\xbb\xbf" + (HEADER + '    fan a "A" 1 : standard\n}\n').encode("utf-8"))
    assert check_file(path).id == "t"


@pytest.mark.parametrize("separator", ["\u2028", "\x85", "\x0c"], ids=["U+2028", "U+0085", "form-feed"])
def test_line_separators_in_comments_keep_source_lines(tmp_path: Path, separator: str) -> None:
    text = HEADER + f"    # a comment {separator} with a separator\n    fan a \"A\" 1 : standrd\n}}\n"
    error = check_text(tmp_path, text)
    assert error.problems[0].span.line == 4
    assert error.problems[0].source_line == '    fan a "A" 1 : standrd'


def test_a_mistake_in_a_define_is_reported_once(tmp_path: Path) -> None:
    text = HEADER + (
        "    define bad: standrd\n"
        '    fan a "A" 1 : bad\n'
        '    fan b "B" 1 : bad and self_draw\n'
        '    fan c "C" 1 : discard and bad\n'
        "}\n"
    )
    error = check_text(tmp_path, text)
    assert len(error.problems) == 1


def test_an_unused_define_is_still_checked(tmp_path: Path) -> None:
    text = HEADER + (
        "    define typo: standrd\n"
        "    define loop: loop\n"
        '    fan a "A" 1 : standard\n'
        "}\n"
    )
    error = check_text(tmp_path, text)
    assert [p.span.line for p in error.problems] == [3, 4]


def test_a_define_named_like_a_word_is_reported(tmp_path: Path) -> None:
    text = HEADER + (
        "    define honor: dragon\n"
        '    fan a "A" 1 : standard and all tiles are honor\n'
        "}\n"
    )
    error = check_text(tmp_path, text)
    assert error.problems[0].span.line == 3
    assert "honor" in error.problems[0].message


def test_a_misused_define_is_reported_where_it_is_used(tmp_path: Path) -> None:
    text = HEADER + (
        "    define pungish: pung or kong\n"
        '    fan a "A" 1 : all sets are pungish\n'
        '    fan b "B" 1 : pungish\n'
        "}\n"
    )
    error = check_text(tmp_path, text)
    assert 5 in [p.span.line for p in error.problems]


def test_expect_clause_names_a_payment_clause(tmp_path: Path) -> None:
    text = HEADER + (
        '    fan a "A" 1 : standard\n'
        '    pay self_drawn "Self-drawn" when self_draw : each opponent pays points\n'
        '    example "x" {\n'
        '        hand "234m 567m 345p 678s 2s win 2s self_draw"\n'
        "        expect clause self_drawm\n"
        "    }\n"
        "}\n"
    )
    error = check_text(tmp_path, text)
    assert error.problems[0].span.line == 7
    assert "did you mean 'self_drawn'?" in error.problems[0].message


def test_unknown_extends_suggests_a_known_ruleset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MJR_PATH", raising=False)
    text = 'ruleset t "Test" extends guangdong.jipinhu {\n    tiles suits(m p s) winds dragons\n}\n'
    error = check_text(tmp_path, text)
    assert "did you mean 'guangdong.jipinghu'?" in error.problems[-1].message


def test_unknown_extends_has_no_follow_on_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MJR_PATH", raising=False)
    text = 'ruleset t "Test" extends nowhere.to_be_found {\n    fan a "A" 1 : standard\n}\n'
    error = check_text(tmp_path, text)
    assert messages(error) == ["unknown ruleset 'nowhere.to_be_found' in 'extends'"]


def test_a_dropped_fan_still_in_use_names_the_drop(tmp_path: Path) -> None:
    (tmp_path / "p.base.mjr").write_text(
        'ruleset p.base "Base" {\n    tiles suits(m p s) winds dragons\n'
        '    fan chicken "Chicken" 0 : standard\n    fan lucky "Lucky" 1 : chicken and self_draw\n}\n',
        encoding="utf-8")
    child = 'ruleset p.child "Child" extends p.base {\n    drop chicken\n}\n'
    error = check_text(tmp_path, child, "p.child.mjr")
    assert any("drop" in m for m in messages(error)), messages(error)


def test_scored_in_an_amount_reads_well(tmp_path: Path) -> None:
    text = HEADER + (
        '    fan a "A" 1 : standard\n'
        '    pay p "P" when self_draw : each opponent pays points * (2 if scored a else 1)\n'
        "}\n"
    )
    error = check_text(tmp_path, text)
    assert "not a amount" not in error.problems[0].message


def test_unknown_limits_mode_points_at_the_word(tmp_path: Path) -> None:
    text = HEADER + '    limits hihgest\n    fan a "A" 1 : standard\n}\n'
    error = check_text(tmp_path, text)
    span = error.problems[0].span
    assert (span.line, span.column, span.end_column) == (3, 12, 19)


def test_contains_after_are_is_explained(tmp_path: Path) -> None:
    text = HEADER + '    fan a "A" 1 : any tiles are contains terminal\n}\n'
    error = check_text(tmp_path, text)
    assert "unknown name" not in error.problems[0].message
    assert "set or pair" in error.problems[0].message


def test_misspelt_excludes_after_a_quality_gets_a_suggestion(tmp_path: Path) -> None:
    text = HEADER + (
        '    fan chicken "Chicken" 0 : standard\n'
        '    fan all_chows "All chows" 1 : all sets are chow excldues chicken\n'
        "}\n"
    )
    error = check_text(tmp_path, text)
    assert "did you mean 'excludes'?" in error.problems[0].message


def test_capitalised_id_names_the_whole_word(tmp_path: Path) -> None:
    text = HEADER + '    fan Chicken "Chicken" 0 : standard\n}\n'
    error = check_text(tmp_path, text)
    assert "Chicken" in error.problems[0].message


def display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text.expandtabs(8))


@pytest.mark.parametrize("line", [
    '    fan chicken "鸡胡" 0 : standrd',
    '\tfan chicken "Chicken" 0 : standrd',
], ids=["wide-characters", "tab"])
def test_caret_stands_under_the_mistake(tmp_path: Path, line: str) -> None:
    error = check_text(tmp_path, HEADER + line + "\n}\n")
    source, caret = str(error).split("\n")[1:3]
    column = error.problems[0].span.column
    assert display_width(caret[: caret.index("^")]) == display_width(source[: 4 + column - 1])


def test_negative_indicator_offset_is_honoured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``indicator -1`` makes the tile before the indicator wild (the sign is part of
    the language: see the wildcard section of the language reference)."""
    monkeypatch.setenv("MJR_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "minus.mjr"
    path.write_text(HEADER + "    wildcard indicator -1\n    fan a \"A\" 1 : standard\n}\n", encoding="utf-8")
    ruleset = mjr.load(path, backend="python")
    hand = parse_hand("234m 567m 345p 678s 2s win 2s indicator 5m")
    assert [kind for kind, wild in enumerate(ruleset.wildcard_kinds(hand)) if wild] == [3]  # 4m
    hand = parse_hand("234m 567m 345p 678s 2s win 2s indicator 1p")
    assert [kind for kind, wild in enumerate(ruleset.wildcard_kinds(hand)) if wild] == [17]  # 9p: wraps


def test_a_megabyte_line_is_shown_cut_around_the_place(tmp_path: Path) -> None:
    path = tmp_path / "long.line.mjr"
    path.write_text('ruleset long.line "L" {\n    tiles suits(m p s)\n    fan a "A" 1 : standrd  # '
                    + "x" * 900_000 + "\n}\n", encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        mjr.load(path)
    message = str(caught.value)
    assert "unknown name 'standrd' (did you mean 'standard'?)" in message
    assert len(message) < 600
    shown, caret = message.splitlines()[1:3]
    assert shown.endswith("...") and caret.strip() == "^" * len("standrd")
    assert shown[caret.index("^"):].startswith("standrd")


def statement_lines() -> list[tuple[str, int, str]]:
    """(file, line number, keyword) of the first line of each bundled ruleset that starts
    with each statement keyword of four letters or more."""
    found: dict[str, tuple[str, int, str]] = {}
    for path in sorted((ROOT / "rulesets").glob("*.mjr")):
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            word = line.split()[0] if line.split() else ""
            if word in statement_keywords(_lark()) and len(word) >= 4 and word not in found:
                found[word] = (path.name, number, word)
    return sorted(found.values(), key=lambda place: place[2])


@pytest.mark.parametrize(("name", "number", "keyword"), statement_lines(), ids=lambda value: str(value))
def test_a_misspelt_statement_keyword_is_named_at_its_place(tmp_path: Path, name: str, number: int,
                                                           keyword: str) -> None:
    """Any statement keyword with two letters swapped, on a line of a real ruleset:
    the one problem of that line is that word, with the keyword as its did-you-mean,
    whether the parser stops on the line or reads it as more of the statement before
    (``win self_draw discard`` then ``sahpes standard``: two more win methods)."""
    lines = (ROOT / "rulesets" / name).read_text(encoding="utf-8").split("\n")
    column = lines[number - 1].index(keyword) + 1
    at = next(i for i in range(1, len(keyword) - 1) if keyword[i] != keyword[i + 1])
    typo = keyword[:at] + keyword[at + 1] + keyword[at] + keyword[at + 2:]  # two letters swapped
    lines[number - 1] = lines[number - 1].replace(keyword, typo, 1)
    (tmp_path / name).write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        check_options(tmp_path / name)  # every branch of a 'when' block
    (problem,) = [p for p in caught.value.problems if p.span.line == number]
    assert (problem.span.column, problem.span.end_column) == (column, column + len(typo))
    assert problem.message == f"unexpected '{typo}'; expected a statement keyword (did you mean '{keyword}'?)"
