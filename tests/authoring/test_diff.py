"""``mjr diff A B``: the differences between two rulesets, or one under two choices
of its table options, as text and as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

import mjr
from mjr.authoring import diff
from mjr.errors import MjrError

PY = ["--backend", "python"]
JA, JB = "guangdong.jipinghu", "guangdong.jipinghu.cap5"


pytestmark = pytest.mark.usefixtures("private_cache")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return run_cli(capsys, "diff", *PY, *argv)


def row_of(out: str, key: str) -> list[str]:
    """The cells of the text row for ``key`` (split on runs of two spaces or more)."""
    for line in out.splitlines():
        cells = [cell for cell in line.strip().split("  ") if cell.strip()]
        if cells and cells[0] == key:
            return [cell.strip() for cell in cells]
    raise AssertionError(f"no row {key!r} in:\n{out}")


def test_the_cap5_variant_against_its_parent(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, JA, JB)
    assert code == 1 and err == ""
    assert row_of(out, "cap") == ["cap", "3 fan", "5 fan"]
    assert row_of(out, "all_pungs") == ["all_pungs", "碰碰胡 fan 2", "碰碰胡 fan 3"]
    assert row_of(out, "nine_gates") == ["nine_gates", "九莲宝灯 limit 6", "(none)"]
    assert row_of(out, "concealed_hand") == ["concealed_hand", "(none)", "门前清 bonus 1"]
    assert row_of(out, "kong_bloom") == ["kong_bloom", "杠上开花 floor 3", "(none)"]
    assert "  chicken " not in out  # the same on both sides: not shown
    assert out.splitlines()[1].split() == [JA, JB]  # the header: the two sides
    assert [line for line in out.splitlines() if line and not line.startswith(" ")] == ["settings", "fans", "floors",
                                                                                         "options"]


def test_a_region_against_another_shows_settings_and_wildcards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "guangdong.tuidaohu", "wenzhou")
    assert code == 1
    assert row_of(out, "deal") == ["deal", "13", "16"]
    assert row_of(out, "wildcard") == ["wildcard", "indicator + 1 honors(E S W N C F P)", "indicator + 0"]
    assert row_of(out, "wildcard stand_in") == ["wildcard stand_in", "(none)", "P"]
    assert row_of(out, "score") == ["score", "base * fan * mult", "base * (streak + 1) * mult"]
    assert row_of(out, "base") == ["base", "1", "2"]
    assert "indicator " not in [line.strip()[:10] for line in out.splitlines()]  # both out of play


def test_the_tile_sets_and_payment_clauses(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, JA, "sichuan.xuezhan")
    assert row_of(out, "tiles") == ["tiles", "136: suits(m p s) winds dragons", "108: suits(m p s)"]
    assert row_of(out, "score") == ["score", "base * 2 ^ fan", "base * 2 ^ (fan - 1)"]
    assert "payment clauses" in out.splitlines()


def test_identical_rulesets(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, JB, JB)
    assert (code, out) == (0, f"no differences between {JB} and {JB}\n")
    code, out, _ = run(capsys, JB, JB, "--json")
    assert code == 0 and json.loads(out)["same"] is True and json.loads(out)["differences"] == []


def test_an_unknown_id_gives_the_loaders_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(MjrError) as raised:
        mjr.load("guangdong.jipinhu", backend="python")
    code, out, err = run(capsys, JA, "guangdong.jipinhu")
    assert (code, out, err) == (2, "", f"mjr: error: {raised.value}\n")


def test_json_has_the_same_content(capsys: pytest.CaptureFixture[str]) -> None:
    _, text, _ = run(capsys, JA, JB)
    code, out, _ = run(capsys, JA, JB, "--json")
    doc = json.loads(out)
    assert code == 1 and doc["same"] is False
    assert doc["left"]["ruleset"] == JA and doc["right"]["ruleset"] == JB
    rows = {(row["section"], row["key"]): row for row in doc["differences"]}
    cap = rows[("setting", "cap")]
    assert (cap["left"], cap["right"]) == ({"value": "3 fan"}, {"value": "5 fan"})
    assert rows[("fan", "all_pungs")]["left"]["value"] == "2" and rows[("fan", "all_pungs")]["right"]["value"] == "3"
    assert rows[("fan", "nine_gates")]["right"] is None and rows[("fan", "concealed_hand")]["left"] is None
    assert rows[("fan", "concealed_hand")]["right"]["name"] == "门前清"
    keys_in_text = [line.split()[0] for line in text.splitlines() if line.startswith("  ") and line[2] != " "]
    assert keys_in_text == [key for _, key in rows]


def test_an_unknown_option_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, JA, JA, "-a", "nosuch=1")
    assert code == 2 and out == ""
    assert err.startswith(f"mjr: error: {JA} has no option 'nosuch'")


def test_a_choice_must_be_name_equals_value(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, JA, JA, "-o", "ghost")
    assert code == 2
    assert err == "mjr: error: option 'ghost' is not NAME=VALUE (e.g. -o ghost=white)\n"


OPTIONED = """\
ruleset opt.diff "Options" {
    tiles suits(m p s) winds dragons
    option ghost "鬼牌" choice(none white)
    option no_concealed "禁止门前清" flag
    wildcard none
    when ghost == white { wildcard fixed P }
    fan chicken "鸡胡" 1 : standard
}
"""


def test_two_choices_of_options_differ_in_the_options_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    path = tmp_path / "opt.diff.mjr"
    path.write_text(OPTIONED, encoding="utf-8")
    left = diff.Side(mjr.load(path, backend="python"), {})
    right = diff.Side(mjr.load(path, backend="python", ghost="white"), {"ghost": "white"})
    found = diff.compare(left, right)
    assert [(row.section, row.key) for row in found.rows] == [("setting", "wildcard"), ("option", "ghost")]
    assert found.rows[1].left is not None and found.rows[1].left["chosen"] == "none"
    lines = diff.lines(found, lambda rows: [" | ".join(map(str, row)) for row in rows])
    assert lines[-3:] == ["options", " | opt.diff | opt.diff (ghost=white)",
                          "ghost | 鬼牌 (none or white) = none | 鬼牌 (none or white) = white"]
    assert found.to_json()["right"]["options"] == {"ghost": "white", "no_concealed": False}
    code, out, _ = run(capsys, str(path), str(path), "-b", "ghost=white", "-o", "no_concealed=on", "--json")
    assert code == 1
    assert json.loads(out)["right"]["chosen"] == {"no_concealed": "on", "ghost": "white"}


def test_a_choice_that_changes_how_the_hand_ends_is_a_rule_of_play(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sichuan.xuezhan", "sichuan.xuezhan", "-b", "bloody_flow=on")
    assert code == 1
    assert [line for line in out.splitlines() if line and not line.startswith(" ")] == ["rules of play", "options"]
    assert row_of(out, "hand_ends") == ["hand_ends", "wins 3", "wall"]
    code, out, _ = run(capsys, "sichuan.xuezhan", "sichuan.xuezhan", "-b", "bloody_flow=on", "--json")
    (play,) = [row for row in json.loads(out)["differences"] if row["section"] == "play"]
    assert play == {"section": "play", "key": "hand_ends", "left": {"name": "", "value": "wins 3"},
                    "right": {"name": "", "value": "wall"}}


def test_kong_payments_by_id_and_the_dealer_rules_as_one(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "guangdong.tuidaohu", "sichuan.xuezhan")
    assert row_of(out, "kong_pay dian_gang") == ["kong_pay dian_gang", "点杠 on direct : discarder pays 3", "(none)"]
    assert row_of(out, "kong_pay xia_yu") == [
        "kong_pay xia_yu", "(none)", "下雨(暗杠) on concealed : each opponent pays 2 refund_unless_ready"]
    assert row_of(out, "at_draw cha_hua_zhu")[1] == "(none)"
    assert row_of(out, "next_dealer") == ["next_dealer", "when drawn or dealer_won : dealer; : next", ": random"]
    assert row_of(out, "hand_ends") == ["hand_ends", "first_win", "wins 3"]
    assert "  discard_win " not in out  # all on both sides


def test_a_change_inside_a_define_is_a_difference(tmp_path: Path) -> None:
    """The fans name the define, so their conditions read the same: the define's
    own row shows what changed (and a define on one side only)."""
    text = """ruleset t.defined "Defined" {{
    tiles suits(m p s) winds dragons
    define chicken: {body}   # a comment is no part of it
    {extra}
    fan chickens "Chickens" 1 each : count(tiles where chicken)
}}
"""
    paths = []
    for name, body, extra in (("a", "1s or 8p", ""), ("b", "1s", "define spare: 2s")):
        paths.append(tmp_path / f"{name}.mjr")
        paths[-1].write_text(text.format(body=body, extra=extra), encoding="utf-8")
    left, right = (diff.Side(mjr.load(path, backend="python"), {}) for path in paths)
    found = diff.compare(left, right)
    assert [(row.section, row.key) for row in found.rows] == [("define", "chicken"), ("define", "spare")]
    lines = diff.lines(found, lambda rows: [" | ".join(map(str, row)) for row in rows])
    assert lines[:4] == ["defines", " | t.defined | t.defined", "chicken | 1s or 8p | 1s", "spare | (none) | 2s"]
