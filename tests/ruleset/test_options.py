"""Table options: declared in the language, chosen at load and on the command line,
refused with the valid values, each combination its own build."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import mjr
from mjr import cli
from mjr.compiler.build import check_file, check_options
from mjr.errors import SourceError

PY = {"backend": "python"}

RULES = """\
ruleset opt.test "Options test" {
    tiles suits(m p s) winds dragons
    win   self_draw discard
    claims chow(any) pung kong
    option ghost  "鬼牌" choice(none white flip) default none section "§3.2"
    option tiles  "牌数" choice(136 108)
    option horses "买马" number 0 to 8
    option open_required "禁止门前清" flag default off
    when tiles == 108 { tiles suits(m p s) }
    wildcard none
    when ghost == white {
        wildcard fixed P
    } else when ghost == flip {
        wildcard indicator + 1
    }
    refuse "白板做鬼 needs the honours" when ghost == white and tiles == 108
    fan chicken "鸡胡" (1 + horses) : standard
    bonus ghostly "鬼" 1 : ghost != none and wildcards > 0
    require open "禁止门前清" : not open_required or any melds are exposed
    example "the defaults" {
        hand "123m 456m 789m 123p 5p win 5p"
        expect fans chicken
        expect fan 1
    }
    example "白板 is the ghost" {
        options ghost = white
        hand "123m 456m 789m 12p 5p P win 5p"
        expect fans chicken ghostly
    }
    example "horses add to the chicken" {
        options horses = 3, open_required = on
        hand "123m 456m 789m [123p] 5p win 5p"
        expect fan 4
    }
}
"""

HAND = "123m 456m 789m 123p 5p win 5p"


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    path = tmp_path / "opt.test.mjr"
    path.write_text(RULES, encoding="utf-8")
    return path


def write(tmp_path: Path, body: str, name: str = "bad.mjr") -> Path:
    path = tmp_path / name
    path.write_text('ruleset bad "Bad" {\n    tiles suits(m p s) winds dragons\n' + body + "}\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------- choosing at load


def test_defaults_and_the_table(rules: Path) -> None:
    rs = mjr.load(rules, **PY)
    assert rs.options == {"ghost": "none", "tiles": 136, "horses": 0, "open_required": False}
    assert [o.name for o in rs.option_table] == ["ghost", "tiles", "horses", "open_required"]
    ghost = rs.option_table[0]
    assert (ghost.display, ghost.kind, ghost.values, ghost.default, ghost.section) == (
        "鬼牌", "choice", ("none", "white", "flip"), "none", "§3.2")
    assert rs.option_table[2].as_json()["values"] == {"low": 0, "high": 8}
    assert rs.chosen_text() == ""


def test_options_change_the_rules(rules: Path) -> None:
    plain = mjr.load(rules, **PY)
    assert not plain.evaluate("123m 456m 789m 12p 5p P win 5p").is_win
    white = mjr.load(rules, ghost="white", **PY)
    assert white.evaluate("123m 456m 789m 12p 5p P win 5p").fan_ids == ("chicken", "ghostly")
    assert mjr.load(rules, horses=5, **PY).evaluate(HAND).fan == 6
    small = mjr.load(rules, tiles=108, **PY)
    assert len(small.kinds) == 27
    strict = mjr.load(rules, open_required=True, **PY)
    assert not strict.evaluate(HAND).is_win
    assert strict.evaluate("123m 456m 789m [123p] 5p win 5p").is_win


def test_values_may_be_given_as_text(rules: Path) -> None:
    rs = mjr.load(rules, tiles="108", horses="2", open_required="on", **PY)
    assert rs.options == {"ghost": "none", "tiles": 108, "horses": 2, "open_required": True}
    assert rs.chosen_text() == "tiles=108 horses=2 open_required=on"


@pytest.mark.parametrize(("given", "message"), [
    ({"ghst": "white"}, "opt.test has no option 'ghst' (did you mean 'ghost'?) "
                        "(its options: ghost, tiles, horses, open_required)"),
    ({"ghost": "whte"}, "option 'ghost' cannot be 'whte': it takes none, white or flip (did you mean 'white'?)"),
    ({"tiles": 144}, "option 'tiles' cannot be 144: it takes 136 or 108"),
    ({"horses": 9}, "option 'horses' cannot be 9: it takes a whole number from 0 to 8"),
    ({"horses": "two"}, "option 'horses' cannot be 'two': it takes a whole number from 0 to 8"),
    ({"open_required": "maybe"}, "option 'open_required' cannot be 'maybe': it takes on or off"),
    ({"ghost": "white", "tiles": 108}, "opt.test refuses ghost=white tiles=108: 白板做鬼 needs the honours "
                                       "(ghost takes none, white or flip; tiles takes 136 or 108)"),
])
def test_bad_choices_name_the_option_and_the_valid_values(rules: Path, given: dict[str, object],
                                                          message: str) -> None:
    with pytest.raises(mjr.OptionError) as info:
        mjr.load(rules, **PY, **given)
    assert str(info.value) == message


@pytest.mark.parametrize(("raw", "shown"), [
    ("+-1", "'+-1'"), ("--2", "'--2'"), ("1_0", "'1_0'"), ("٣", "'٣'"), ("1e3", "'1e3'"), ("", "''"),
    ("9" * 5000, "'" + "9" * 36 + "..."), ("-" + "0" * 19, "'-" + "0" * 19 + "'"),
    (10 ** 5000, "an int of 16610 bits"), (2.0, "2.0"),
], ids=["sign-sign", "two-minus", "underscore", "arabic-digit", "exponent", "empty", "5000-digits",
        "19-digits", "huge-int", "float"])
def test_number_values_are_read_strictly(rules: Path, raw: object, shown: str) -> None:
    """An optional sign and at most 18 digits: anything else is refused by name,
    never a ValueError (``int('+-1')``, or the 4,300-digit limit of ``int``)."""
    with pytest.raises(mjr.OptionError) as info:
        mjr.load(rules, horses=raw, **PY)
    assert str(info.value) == f"option 'horses' cannot be {shown}: it takes a whole number from 0 to 8"
    with pytest.raises(mjr.OptionError, match=r"^option 'tiles' cannot be .*: it takes 136 or 108$"):
        mjr.load(rules, tiles=raw, **PY)


@pytest.mark.parametrize(("raw", "value"), [("+3", 3), ("-0", 0), (" 8 ", 8), ("0" * 18, 0)])
def test_number_values_may_carry_a_sign(rules: Path, raw: str, value: int) -> None:
    assert mjr.load(rules, horses=raw, **PY).options["horses"] == value


@pytest.mark.parametrize("value", ["+-1", "--2", "9" * 5000])
def test_the_command_line_refuses_a_malformed_number(rules: Path, capsys: pytest.CaptureFixture[str],
                                                     value: str) -> None:
    assert cli.main(["score", "-r", str(rules), "--backend", "python", "-o", f"horses={value}", HAND]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mjr: error: option 'horses' cannot be '{value[:36]}")
    assert err.endswith(": it takes a whole number from 0 to 8\n") and err.count("\n") == 1


def test_a_combination_is_built_once(rules: Path) -> None:
    first = check_file(rules, {"ghost": "flip"})
    again = check_file(rules, {"ghost": "flip"})
    other = check_file(rules, {"ghost": "white"})
    from mjr.compiler.build import build_key

    assert build_key(first) == build_key(again) != build_key(other)
    assert build_key(check_file(rules)) == build_key(check_file(rules, {"ghost": "none"}))


def test_a_bundled_combination_is_loaded_once_per_process(monkeypatch: pytest.MonkeyPatch, rules: Path) -> None:
    from mjr.ruleset import loader

    monkeypatch.setattr(loader, "_index", lambda: {"opt.test": {"module": "missing"}})
    default = mjr.load(rules, **PY)
    monkeypatch.setattr(loader, "_load_bundled", lambda ident, entry, backend: default)
    monkeypatch.setattr(sys.modules["mjr.compiler.build"], "find_source", lambda ident, near=None: rules)
    built = []
    real = loader._load_source

    def counting(path: Path, backend: str, options: object = None) -> mjr.Ruleset:
        built.append(options)
        return real(path, backend, options)  # type: ignore[arg-type]

    monkeypatch.setattr(loader, "_load_source", counting)
    monkeypatch.setattr(loader, "_combinations", {})
    assert mjr.load("opt.test", **PY) is default
    assert mjr.load("opt.test", ghost="none", **PY) is default  # the defaults, named
    one = mjr.load("opt.test", ghost="flip", **PY)
    assert mjr.load("opt.test", ghost="flip", **PY) is one
    assert len(built) == 1 and one.options["ghost"] == "flip"


# --------------------------------------------------------------------------- the language


@pytest.mark.parametrize(("body", "message"), [
    ('option a "A" choice(x y x)\n', "bad.mjr:3:1: option 'a' lists x twice"),
    ('option a "A" choice(x 1)\n', "bad.mjr:3:1: option 'a' mixes words and numbers"),
    ('option a "A" number 5 to 1\n', "bad.mjr:3:1: option 'a' runs from 5 to 1: the low end comes first"),
    ('option a "A" choice(x y) default z\n', "bad.mjr:3:34: the default: option 'a' cannot be 'z': it takes x or y"),
    ('option a "A" flag default maybe\n', "bad.mjr:3:27: the default: option 'a' cannot be 'maybe': it takes on"),
    ('option a "A" flag\noption a "B" flag\n', "bad.mjr:4:1: duplicate option 'a' (first at line 3)"),
    ('option dealer "A" flag\n', "bad.mjr:3:1: option 'dealer' has the name of a built-in word"),
    ('fix nothing = 1\n', "bad.mjr:3:1: unknown option 'nothing' to fix"),
    ('option a "A" choice(x y)\nfix a = z\n', "bad.mjr:4:9: option 'a' cannot be 'z'"),
    ('option a "A" choice(x y)\nfan f "F" 1 : a == z\n', "bad.mjr:4:20: 'z' is not a value of option 'a'"),
    ('option a "A" choice(x y)\nfan f "F" 1 : a\n', "bad.mjr:4:15: option 'a' is a choice of words: compare it"),
    ('option a "A" flag\nwhen a and standard { cap 3 }\n', "bad.mjr:4:6: a 'when' condition may name options"),
    ('option a "A" number 0 to 3\nwhen a { cap 3 }\n', "bad.mjr:4:6: a 'when' condition is true or false"),
    ('option a "A" flag\nwhen a { option b "B" flag }\n', "bad.mjr:4:10: an 'option' cannot stand inside 'when'"),
    ('option a "A" flag\nrefuse "never" when not a\n', "bad.mjr:4:1: the default options are refused: bad refuses "
                                                         "a=off: never (a takes on or off)"),
    ('example "e" { options b = 1 hand "123m 456m 789m 123p 5p win 5p" }\n',
     "bad.mjr:3:27: unknown option 'b'"),
])
def test_option_mistakes_are_positioned(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(SourceError) as info:
        check_file(write(tmp_path, body + 'fan f0 "F0" 1 : standard\n'))
    assert message in str(info.value)


def test_a_when_branch_replaces_the_statement_outside_it(tmp_path: Path) -> None:
    path = write(tmp_path, 'option big "B" flag\ncap 3\nwhen big { cap 5 }\nfan f "F" 1 : standard\n')
    assert check_file(path).cap == 3
    assert check_file(path, {"big": True}).cap == 5


def test_check_sweeps_each_option_value(tmp_path: Path) -> None:
    """A mistake in a branch only one value of an option reaches is still found."""
    path = write(tmp_path, 'option mode "M" choice(a b c)\nwhen mode == c { fan g "G" 1 : nonsense }\n'
                           'fan f "F" 1 : standard\n')
    check_file(path)  # the defaults do not reach it
    with pytest.raises(SourceError) as info:
        check_options(path)
    assert "unknown name 'nonsense'" in str(info.value)


def test_a_variant_fixes_an_option(tmp_path: Path, rules: Path) -> None:
    variant = tmp_path / "opt.white.mjr"
    variant.write_text('ruleset opt.white "White" extends opt.test {\n    fix ghost = white\n}\n', encoding="utf-8")
    rs = mjr.load(variant, **PY)
    assert rs.options["ghost"] == "white"
    assert "ghost" not in [o.name for o in rs.option_table]
    assert rs.evaluate("123m 456m 789m 12p 5p P win 5p").is_win
    with pytest.raises(mjr.OptionError, match="opt.white fixes option 'ghost' to white: it cannot be chosen"):
        mjr.load(variant, ghost="flip", **PY)


# --------------------------------------------------------------------------- examples, the command line


def test_test_runs_every_combination_the_examples_choose(rules: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["test", str(rules), "--backend", "python"]) == 0
    out = capsys.readouterr().out
    assert "opt.test .\n" in out and "opt.test ghost=white .\n" in out
    assert "opt.test horses=3 open_required=on .\n" in out and "3 passed, 0 failed" in out
    assert cli.main(["test", str(rules), "--backend", "python", "-o", "ghost=white"]) == 0
    assert "1 passed" in capsys.readouterr().out


def test_score_and_explain_take_options(rules: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["score", "-r", str(rules), "--backend", "python", "-o", "horses=2", "--json", HAND]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["fan"] == 3
    assert cli.main(["explain", "-r", str(rules), "--backend", "python", "--json", "-o", "tiles=108"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["chosen"]["tiles"] == 108
    assert doc["options"][0] == {"name": "ghost", "display": "鬼牌", "kind": "choice",
                                 "values": ["none", "white", "flip"], "default": "none", "section": "§3.2"}
    assert cli.main(["explain", "-r", str(rules), "--backend", "python"]) == 0
    assert "options (-o NAME=VALUE)" in capsys.readouterr().out


@pytest.mark.parametrize(("words", "message"), [
    (["-o", "ghost"], "option 'ghost' is not NAME=VALUE (e.g. -o ghost=white)"),
    (["-o", "ghost=white", "-o", "ghost=flip"], "option 'ghost' is given twice (white and flip)"),
    (["-o", "ghost=blue"], "option 'ghost' cannot be 'blue': it takes none, white or flip"),
])
def test_command_line_option_mistakes(rules: Path, capsys: pytest.CaptureFixture[str], words: list[str],
                                      message: str) -> None:
    assert cli.main(["score", "-r", str(rules), "--backend", "python", *words, HAND]) == 2
    assert f"mjr: error: {message}" in capsys.readouterr().err


def test_check_with_an_option(rules: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", str(rules), "-o", "ghost=flip"]) == 0
    assert cli.main(["check", str(rules), "-o", "ghost=white", "-o", "tiles=108"]) == 2
    assert "refuses ghost=white tiles=108" in capsys.readouterr().err


def test_a_cluster_worker_loads_the_options_chosen(rules: Path) -> None:
    """A worker of a batch run loads the ruleset by name, with the table options."""
    from mjr.jobs import score_file as batchfile

    line = json.dumps(mjr.hand_to_json(mjr.parse_hand(HAND))).encode()
    partition = batchfile.Partition("hands.jsonl", 0, [line])
    assert batchfile.score_partition_named(str(rules), "python", (("horses", 2),), partition)[0]["fan"] == 3
    assert batchfile.score_partition_named(str(rules), "python", (), partition)[0]["fan"] == 1


def test_a_bundled_variant_that_fixes_an_option_takes_the_others() -> None:
    """The fixed option is part of the build, never passed back as a choice."""
    rs = mjr.load("guangdong.jipinghu.guigang", multiple_winners=False, **PY)
    assert rs.options["multiple_winners"] is False and rs.options["minimum_fan"] == 0
    assert rs.choices == {"multiple_winners": False}
    assert not rs.evaluate("123m 555p 789s 234s E win E from L winners 2").is_win
