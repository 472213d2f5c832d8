"""A hostile ``.mjr`` file never runs code.

Text from a ``.mjr`` file may reach the generated module only as a validated
identifier or an escaped literal.  These tests write files whose display names,
``source`` strings, example titles, hand strings, ids and file names are crafted to
break out of a literal, a comment or a jinja template, and check that

(a) generation succeeds or fails with a SourceError, never anything else;
(b) the generated source is plain UTF-8 Python that parses with ``ast`` and uses no
    name that only a payload would (``__import__``, ``environ``, ...);
(c) loading it in pure-Python mode runs no injected code: every payload would set an
    environment variable and create a sentinel file if it ever ran;
(d) the display names come back exactly in the loaded module's metadata.

Only ``backend="python"`` is used (no C compiler), with a build cache of the test's
own, so every test generates afresh.  Known bugs are strict xfail tests at the end.
"""

from __future__ import annotations

import ast
import io
import os
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pytest

import mjr
from mjr import cli
from mjr.compiler.build import check_file, display_name, generate_file
from mjr.errors import SourceError

ENV = "MJR_HOSTILE_PAYLOAD_RAN"
#: Names the templates never use; a payload that escaped into code would.
PAYLOAD_NAMES = {"__import__", "environ", "__setitem__", "touch", "system", "exec", "eval", "open"}
WIN = "234m 567m 345p 678s 2s win 2s self_draw"


@dataclass
class Guard:
    """The payload and the traces it would leave if it ever ran."""

    sentinel: Path

    @property
    def payload(self) -> str:
        return (f"__import__('os').environ.__setitem__('{ENV}', '1') "
                f"or __import__('pathlib').Path('{self.sentinel.as_posix()}').touch()")

    def assert_not_run(self) -> None:
        assert ENV not in os.environ, "the payload ran: it set the environment variable"
        assert not self.sentinel.exists(), "the payload ran: it created the sentinel file"


@pytest.fixture
def guard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Guard:
    monkeypatch.setenv("MJR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MJR_PATH", raising=False)
    monkeypatch.delenv(ENV, raising=False)  # restored (removed) after the test even if set
    return Guard(tmp_path / "payload-ran")


def mjr_string(text: str) -> str:
    """``text`` as a .mjr string literal: the language escapes \\\\, \\" and \\n only."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def hostile_ruleset(text: str, ident: str = "hostile") -> str:
    """A ruleset with ``text`` in every string the language has."""
    s = mjr_string(text)
    return f"""# {text.replace(chr(10), ' ')}
ruleset {ident} {s} {s} {{
    source {s}
    tiles suits(m p s) winds dragons
    score base * 2 ^ fan * mult
    fan        plain   {s} 1 : standard
    limit      special {s} 6 : thirteen_orphans
    bonus      extra   {s} 1 : self_draw
    multiplier double  {s} 2 : after_kong
    require    needed  {s} : standard or thirteen_orphans
    floor      low     {s} 3 : last_tile
    pay        paid    {s} when self_draw : each opponent pays points
    liable     liable  {s} when robbing_kong : discarder pays all
    example {s} {{
        hand {s}
        expect not win {s}
    }}
}}
"""


def hostile_strings(payload: str) -> dict[str, str]:
    return {
        "double-quote": f'x" + {payload} + "',
        "single-quote": f"x' + {payload} + '",
        "triple-double": f'"""; {payload}; """',
        "triple-single": f"'''; {payload}; '''",
        "backslashes": "a \\ b \\\\ c \\' d \\\" e \\",
        "newline-escape": f"x\n{payload}\n# ",
        "newline-backslash": f"x\\\n{payload} #",
        "jinja-expression": "{{ " + payload + " }} {{ rs.id }}",
        "jinja-statement": "{% if true %}{{ " + payload + " }}{% endif %}{% raw %}{%- endfor %}",
        "jinja-comment": "{# " + payload + " #} {{",
        "hash": f"# {payload}",
        "python": payload,
        "percent-format": "%s %(x)s {0} {x} " + payload,
        "line-separators": f"a\u2028{payload}\u2029b\x85c\x0cd\x0be\x1cf\x1dg\x1eh",
        "bidi-and-zero-width": f"\u202e{payload}\u202c\u200b\ufeff",
        "control-characters": "a\x01b\x07c\x1bd\x7fe",
        "chinese": "鸡胡 平胡 「混一色」",
        "long": "长" * 10_000 + payload + "x" * 10_000,  # ten copies stay under the 1 MB file limit
    }


HOSTILE = hostile_strings("PAYLOAD")


def with_payload(name: str, guard: Guard) -> str:
    return hostile_strings(guard.payload)[name]


def assert_plain_module(text: str) -> None:
    """(b): UTF-8 Python whose meaning does not depend on how it is decoded, with no
    payload name anywhere in its code."""
    data = text.encode("utf-8")
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    assert encoding == "utf-8", f"the generated module declares the source encoding {encoding!r}"
    tree = ast.parse(text)
    assert ast.dump(ast.parse(data)) == ast.dump(tree)
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    used |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not used & PAYLOAD_NAMES


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")
    return path


# --------------------------------------------------------------------------- strings


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_strings_stay_literals(name: str, guard: Guard, tmp_path: Path) -> None:
    text = with_payload(name, guard)
    path = write(tmp_path / "hostile.mjr", hostile_ruleset(text))

    source = generate_file(path)                                    # (a) no exception at all
    assert_plain_module(source.text)                                # (b)
    ruleset = mjr.load(path, backend="python")                      # (c)
    guard.assert_not_run()
    module = ruleset.module                                         # (d)
    assert ruleset.backend == "python"
    assert ruleset.title == text
    assert ruleset.native_title == text
    assert ruleset.sources == (text,)
    assert [f.name for f in ruleset.fans] == [text] * 4
    assert [f.id for f in ruleset.fans] == ["plain", "special", "extra", "double"]
    assert [r[1] for r in module.REQUIREMENTS] == [text]
    assert [f[1] for f in module.FLOORS] == [text]
    assert [p[1] for p in module.PAYMENTS] == [text, text]
    (title, hand, file, *_, checks), = module.EXAMPLES
    assert (title, hand, file) == (text, text, display_name(path))
    assert checks[0][:2] == ("not_win", text)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_strings_in_a_parent_and_a_child(name: str, guard: Guard, tmp_path: Path) -> None:
    """The same strings arriving through ``extends`` are just as inert."""
    text = with_payload(name, guard)
    write(tmp_path / "evil.parent.mjr", hostile_ruleset(text, "evil.parent"))
    s = mjr_string(text)
    child = write(tmp_path / "evil.child.mjr",
                  f"ruleset evil.child {s} extends evil.parent {{\n    source {s}\n"
                  f"    fan more {s} 1 : discard\n}}\n")
    assert_plain_module(generate_file(child).text)
    ruleset = mjr.load(child, backend="python")
    guard.assert_not_run()
    assert ruleset.title == text
    assert ruleset.sources == (text, text)
    assert [f.name for f in ruleset.fans] == [text] * 5


@pytest.mark.parametrize("raw", [
    pytest.param('"', id="bare-quote"),
    pytest.param("\n", id="real-newline"),
    pytest.param("\r", id="carriage-return"),
    pytest.param("\\x41", id="unknown-escape"),
    pytest.param("\\", id="lone-backslash"),
    pytest.param("\\'", id="escaped-single-quote"),
    pytest.param("\\u2028", id="unicode-escape"),
])
def test_strings_the_language_rejects_are_source_errors(raw: str, guard: Guard, tmp_path: Path) -> None:
    """Raw text that is no .mjr string: a SourceError, never a traceback or a module."""
    path = write(tmp_path / "bad.mjr", f'ruleset bad "x{raw} {guard.payload}" {{\n'
                                       "    tiles suits(m p s) winds dragons\n"
                                       '    fan a "A" 1 : standard\n}\n')
    with pytest.raises(SourceError):
        generate_file(path)
    guard.assert_not_run()


def test_a_comment_cannot_reach_the_module(guard: Guard, tmp_path: Path) -> None:
    path = write(tmp_path / "comment.mjr", hostile_ruleset("x").replace(
        "# x", f"# \"\"\" {{{{ {guard.payload} }}}} \u2028 {guard.payload}"))
    source = generate_file(path)
    assert guard.payload not in source.text
    assert_plain_module(source.text)
    mjr.load(path, backend="python")
    guard.assert_not_run()


# --------------------------------------------------------------------------- ids


KEYWORD_RULESET = """\
ruleset import.class "Keywords" {
    tiles suits(m p s) winds dragons
    define __import__: standard
    define exec: self_draw
    fan def          "def"          1 : __import__
    fan class        "class"        1 : exec excludes def
    fan __init__     "__init__"     1 : discard
    fan print        "print"        1 : def and exec
    fan lambda       "lambda"       1 : robbing_kong
    fan _cond        "_cond"        1 : standard
    fan __builtins__ "__builtins__" 1 : last_tile
    fan none         "none"         1 : after_kong
    fan true         "true"         1 : first_turn
    require return "return" : standard
    floor yield "yield" 3 : after_kong
    pay global "global" when self_draw : each opponent pays points
    liable nonlocal "nonlocal" when robbing_kong : discarder pays all
    example "keywords" {
        hand "234m 567m 345p 678s 2s win 2s self_draw"
        expect fans class print _cond
    }
}
"""


def test_ids_that_look_like_python_stay_data(guard: Guard, tmp_path: Path) -> None:
    path = write(tmp_path / "import.class.mjr", KEYWORD_RULESET)
    assert_plain_module(generate_file(path).text)
    ruleset = mjr.load(path, backend="python")
    guard.assert_not_run()
    assert ruleset.id == "import.class"
    ids = ["def", "class", "__init__", "print", "lambda", "_cond", "__builtins__", "none", "true"]
    assert [f.id for f in ruleset.fans] == ids
    assert [f.name for f in ruleset.fans] == ids
    assert [p[0] for p in ruleset.generated.payments] == ["global", "nonlocal"]
    result = ruleset.evaluate(WIN)
    assert result.is_win
    assert set(result.fan_ids) == {"class", "print", "_cond"}  # class excludes def


@pytest.mark.parametrize("ident", ["None", "True", "False", "Import", "def()", "a-b", "1st", "é"])
def test_ids_outside_the_language_are_source_errors(ident: str, guard: Guard, tmp_path: Path) -> None:
    for text in (
        f'ruleset {ident} "x" {{\n    tiles winds\n    fan a "A" 1 : standard\n}}\n',
        f'ruleset ok "x" {{\n    tiles winds\n    fan {ident} "A" 1 : standard\n}}\n',
        f'ruleset ok "x" {{\n    tiles winds\n    define {ident}: standard\n}}\n',
    ):
        path = write(tmp_path / "ids.mjr", text)
        with pytest.raises(SourceError):
            generate_file(path)
    guard.assert_not_run()


# --------------------------------------------------------------------------- ids too long for a file name


LONG_ID = "a" * 150 + "." + "b" * 149  # 300 bytes: the module named for it could not be written


def test_an_id_too_long_to_name_a_file_is_a_source_error(guard: Guard, tmp_path: Path) -> None:
    path = write(tmp_path / "long.mjr", f'ruleset {LONG_ID} "x" {{\n    tiles winds\n    fan a "A" 1 : standard\n}}\n')
    with pytest.raises(SourceError) as info:
        mjr.load(path, backend="python")
    (problem,) = info.value.problems
    assert problem.message == "ruleset id is 300 bytes long; at most 200"
    assert (problem.span.line, problem.span.column, problem.span.end_column) == (1, 9, 309)


def test_extending_an_id_too_long_is_a_source_error(guard: Guard, tmp_path: Path) -> None:
    path = write(tmp_path / "child.mjr",
                 f'ruleset child "x" extends {LONG_ID} {{\n    tiles winds\n    fan a "A" 1 : standard\n}}\n')
    with pytest.raises(SourceError, match="ruleset id is 300 bytes long; at most 200, in 'extends'"):
        check_file(path)


def test_the_longest_id_builds(guard: Guard, tmp_path: Path) -> None:
    ident = "a" * 100 + "." + "b" * 99
    path = write(tmp_path / "longest.mjr", f'ruleset {ident} "x" {{\n    tiles winds\n    fan a "A" 1 : standard\n}}\n')
    assert mjr.load(path, backend="python").id == ident


@pytest.mark.parametrize("words", [["score", "-r", LONG_ID, "1z 1z 1z 2z 2z 2z 3z 3z 3z 4z 4z 4z 5z win 5z"],
                                   ["build", LONG_ID], ["test", LONG_ID], ["explain", "-r", LONG_ID]])
def test_a_name_too_long_is_refused_by_every_command(guard: Guard, words: list[str],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(words) == 2
    shown = capsys.readouterr()
    said = shown.err or shown.out  # ``mjr test`` lists the rulesets that failed to load in its summary
    assert "Traceback" not in said
    assert f"no ruleset can be named '{'a' * 36}...: ruleset id is 300 bytes long; at most 200\n" in said
    with pytest.raises(mjr.MjrError, match=r"^no ruleset can be named 'a+\.\.\.: ruleset id is 300 bytes long"):
        mjr.load(LONG_ID)


def test_a_path_too_long_is_named(guard: Guard, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / ("x" * 300 + ".mjr")
    with pytest.raises(mjr.MjrError, match=rf"^{path}: cannot read \(File name too long\)$"):
        mjr.load(path)
    assert cli.main(["check", str(path)]) == 2
    assert capsys.readouterr().err == f"mjr: error: {path}: cannot read (File name too long)\n"


# --------------------------------------------------------------------------- file names


@pytest.mark.parametrize("folder, name", [
    ("with spaces", "my rules.mjr"),
    ("it's a \"folder\"", "rules 'one' \"two\".mjr"),
    ("{{ x }} {% if %}", "#1 {{ y }} {# z #}.mjr"),
    ("back\\slash", "ends\\.mjr"),
    ("规则", "鸡平胡 🀄.mjr"),
    ("line", "break\nin the name.mjr"),
    ("sep", "u2028\u2028and\x85more.mjr"),
], ids=["spaces", "quotes", "jinja", "backslashes", "unicode", "newline", "line-separators"])
def test_hostile_file_names(folder: str, name: str, guard: Guard, tmp_path: Path) -> None:
    path = write(tmp_path / folder / name, hostile_ruleset(guard.payload))
    write(tmp_path / folder / "named.base.mjr", hostile_ruleset("base", "named.base"))
    child = write(tmp_path / folder / f"child {name}",
                  'ruleset named.child "Child" extends named.base {\n    fan more "More" 1 : discard\n}\n')
    for file in (path, child):
        assert_plain_module(generate_file(file).text)
        ruleset = mjr.load(file, backend="python")
        guard.assert_not_run()
        assert ruleset.generated.files[-1] == display_name(file)
        assert ruleset.fans[-1].file == display_name(file)
    assert ruleset.generated.files == (display_name(tmp_path / folder / "named.base.mjr"), display_name(child))


# --------------------------------------------------------------------------- known bugs


#: A title that makes line 2 of the generated module a PEP 263 encoding declaration:
#: decoded as unicode_escape, the escaped "\\\n" becomes a backslash and a real newline,
#: ending the comment; the payload then runs as the module's third line.
def cookie_title(guard: Guard) -> str:
    return "coding: unicode_escape\\\n" + guard.payload.replace("'", '"') + " #"


COOKIE_BUG = (
    "compiler/emit/templates/ruleset.py.j2 puts the ruleset title (line 2) and the file names "
    "(line 1) into the module's first two lines, where Python honours a PEP 263 encoding "
    "declaration; codegen.comment() escapes newlines but not 'coding:'.  A title such as "
    "'coding: unicode_escape\\\\\\n<code> #' makes the module decode as unicode_escape, the "
    "escaped newline becomes real and <code> runs on import (backend='python')"
)


def test_a_title_cannot_declare_the_source_encoding(guard: Guard, tmp_path: Path) -> None:
    text = cookie_title(guard)
    path = write(tmp_path / "cookie.mjr",
                 f'ruleset cookie {mjr_string(text)} {{\n    tiles suits(m p s) winds dragons\n'
                 '    fan a "A" 1 : standard\n}\n')
    assert_plain_module(generate_file(path).text)


def test_a_title_declaring_the_encoding_runs_no_code(guard: Guard, tmp_path: Path) -> None:
    text = cookie_title(guard)
    path = write(tmp_path / "cookie.mjr",
                 f'ruleset cookie {mjr_string(text)} {{\n    tiles suits(m p s) winds dragons\n'
                 '    fan a "A" 1 : standard\n}\n')
    try:
        ruleset = mjr.load(path, backend="python")
    finally:
        guard.assert_not_run()
    assert ruleset.title == text


def test_a_file_name_declaring_the_encoding_runs_no_code(guard: Guard, tmp_path: Path) -> None:
    payload = f"__import__('os').environ.__setitem__('{ENV}', '1')"  # no '/' in a file name
    # No fan: the file name then appears in no '# mjr:' comment inside a function.
    path = write(tmp_path / f"coding: unicode_escape\\\n{payload} #.mjr",
                 'ruleset named "Named" {\n    tiles suits(m p s) winds dragons\n}\n')
    try:
        mjr.load(path, backend="python")
    finally:
        guard.assert_not_run()


@pytest.mark.parametrize("expression, column", [
    ("not " * 1000 + "standard", 19 + 4 * 50),       # the 51st 'not'
    (" + ".join(["1"] * 1000) + " > 0", 19),          # '+' nests to the left: all start at the front
    (" ^ ".join(["1"] * 1000) + " > 0", 19 + 4 * 49),  # '^' nests to the right
], ids=["not", "plus", "power"])
def test_deep_nesting_is_a_source_error_not_a_crash(expression: str, column: int, guard: Guard,
                                                    tmp_path: Path) -> None:
    path = write(tmp_path / "deep.mjr", 'ruleset deep "Deep" {\n    tiles winds\n'
                                        f'    fan a "A" 1 : {expression}\n}}\n')
    with pytest.raises(SourceError) as info:
        generate_file(path)
    assert [(p.span.line, p.span.column, p.message) for p in info.value.problems] == [
        (3, column, "expression nested too deeply (more than 50 levels of operators)")]


@pytest.mark.parametrize("expression", [
    "not " * 50 + "standard",
    " + ".join(["1"] * 50) + " > 0",
    " ^ ".join(["1"] * 50) + " > 0",
], ids=["not", "plus", "power"])
def test_deep_expressions_generate_a_module_python_accepts(expression: str, guard: Guard,
                                                           tmp_path: Path) -> None:
    """The deepest expressions the parser accepts compile and run as Python."""
    path = write(tmp_path / "deep.mjr", 'ruleset deep "Deep" {\n    tiles suits(m p s) winds\n'
                                        f'    fan a "A" 1 : {expression}\n}}\n')
    compile(generate_file(path).text, "deep.py", "exec")
    assert mjr.load(path, backend="python").evaluate(WIN).fan_ids == ("a",)


def test_line_separators_in_a_display_name_keep_the_fan_source_lines(guard: Guard, tmp_path: Path) -> None:
    text = ('ruleset seps "Separators" {\n    tiles suits(m p s) winds dragons\n'
            '    fan a "A\u2028B" 1 : standard\n    fan b "B\x85C\x0cD" 1 : self_draw\n'
            '    fan c "C" 1 : discard\n}\n')
    ruleset = mjr.load(write(tmp_path / "seps.mjr", text), backend="python")
    assert [f.name for f in ruleset.fans] == ["A\u2028B", "B\x85C\x0cD", "C"]
    lines = text.split("\n")
    assert [f.source for f in ruleset.fans] == [lines[f.line - 1].strip() for f in ruleset.fans]


def test_a_huge_indicator_offset_cannot_stall_evaluation(guard: Guard, tmp_path: Path) -> None:
    path = write(tmp_path / "slow.mjr", 'ruleset slow "Slow" {\n    tiles suits(m p s) winds dragons\n'
                                        "    wildcard indicator +999999999999\n"
                                        '    fan a "A" 1 : standard\n}\n')
    with pytest.raises(SourceError) as info:
        check_file(path)
    assert [(p.span.line, p.message) for p in info.value.problems] == [
        (3, "an indicator offset is -8 to +8, not +999999999999")]
