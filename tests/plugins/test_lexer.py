"""The ``.mjr`` Pygments lexer: every bundled file and every ``mjr`` snippet of the
docs lexes without an error token (Sphinx, run with -W, would fail on one), and the
parts of a statement get the token types a theme colours."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygments")

from pygments.lexers import get_lexer_by_name, get_lexer_for_filename  # noqa: E402
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, String, Token  # noqa: E402

from mjr.errors import MjrError  # noqa: E402
from mjr.plugins.highlight import MjrLexer  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted((ROOT / "rulesets").glob("*.mjr"))
TUTORIAL = sorted((ROOT / "docs" / "tutorial").glob("*.mjr"))
SNIPPET_START = re.compile(r"^(\s*)\.\. code-block:: mjr\s*$")


def tokens(text: str) -> list[tuple[object, str]]:
    return [(kind, value) for kind, value in MjrLexer().get_tokens(text) if value.strip()]


def errors(text: str) -> list[tuple[int, str]]:
    return [(at, value) for at, kind, value in MjrLexer().get_tokens_unprocessed(text) if kind in Error]


def doc_snippets() -> list[tuple[str, str]]:
    """(place, text) of every ``.. code-block:: mjr`` of the docs."""
    found = []
    for page in sorted((ROOT / "docs").rglob("*.rst")):
        lines = page.read_text(encoding="utf-8").split("\n")
        for number, line in enumerate(lines):
            start = SNIPPET_START.match(line)
            if start is None:
                continue
            body = []
            for following in lines[number + 1 :]:
                if following.strip() and len(following) - len(following.lstrip()) <= len(start.group(1)):
                    break
                body.append(following)
            found.append((f"{page.relative_to(ROOT)}:{number + 1}", "\n".join(body)))
    return found


SNIPPETS = doc_snippets()


@pytest.mark.parametrize("path", BUNDLED + TUTORIAL, ids=lambda p: p.name)
def test_every_bundled_file_lexes_without_errors(path: Path) -> None:
    assert errors(path.read_text(encoding="utf-8")) == []


def test_the_docs_have_mjr_snippets() -> None:
    assert len(SNIPPETS) > 10


@pytest.mark.parametrize(("place", "text"), SNIPPETS, ids=[place for place, _ in SNIPPETS])
def test_every_docs_snippet_lexes_without_errors(place: str, text: str) -> None:
    assert errors(text) == [], place


def test_text_that_is_no_mjr_gives_error_tokens() -> None:
    assert errors("fan x 'y' 1 : $ready") == [(6, "'"), (8, "'"), (14, "$")]


def test_a_fan_statement_gets_its_token_types() -> None:
    line = 'fan all_pungs "碰碰胡" 3 : standard and all sets are pung excludes chicken  # §2.3'
    assert tokens(line) == [
        (Keyword, "fan"), (Name, "all_pungs"), (String.Double, '"碰碰胡"'), (Number.Integer, "3"),
        (Token.Punctuation, ":"), (Name, "standard"), (Operator.Word, "and"), (Operator.Word, "all"),
        (Name, "sets"), (Operator.Word, "are"), (Name, "pung"),
        (Keyword.Type, "excludes"), (Name, "chicken"), (Comment.Single, "# §2.3"),
    ]


def test_tiles_honours_and_ruleset_ids() -> None:
    shown = tokens("ruleset a.b \"T\" extends guangdong.jipinghu { wildcard indicator + 1 honors(E S W N) skip(C) }")
    assert (Name.Namespace, "guangdong.jipinghu") in shown
    assert (Name.Namespace, "a.b") in shown
    assert [value for kind, value in shown if kind is Name.Constant] == ["E", "S", "W", "N", "C"]
    assert (Name.Constant, "5m") in tokens('expect payments E +12 W -12\nwildcard fixed 5m')
    assert (Number.Integer, "+12") in tokens("expect payments E +12 W -12")


def test_the_table_option_keywords() -> None:
    text = """
        option ghost "鬼牌" choice(none white flip) default none section "§3.2"
        option horses "买马" number 0 to 8 default 0
        option no_concealed "禁止门前清" flag default off
        when ghost == flip { cap 5 } else when tiles == 108 { tiles suits(m p s) } else { wildcard none }
        refuse "no" when ghost == white and tiles == 108
        fix ghost = flip
        example "x" { options ghost = flip, tiles = 136 hand "1m" }
    """
    shown = tokens(text)
    assert errors(text) == []
    kinds = {value: kind for kind, value in shown}
    for word in ("option", "default", "section", "when", "else", "refuse", "fix", "options"):
        assert kinds[word] is Keyword, word
    for word in ("choice", "number", "to", "flag"):
        assert kinds[word] is Keyword.Type, word
    assert kinds["off"] is Keyword.Constant
    assert kinds["="] is Operator


def test_the_rules_of_play_keywords() -> None:
    text = """
        hand_ends wins 3
        kong_pay xia_yu "下雨" on concealed : each opponent pays 2 refund_unless_ready
        at_draw pig "查花猪" : each player where suits == 3 pays each player where suits < 3 16
        next_dealer when streak 3 or konged : next
        fact birds "扎鸟" tiles 0 to 1 from wall_after_win 1
    """
    kinds = {value: kind for kind, value in tokens(text)}
    assert errors(text) == []
    for word in ("hand_ends", "kong_pay", "at_draw", "next_dealer", "fact"):
        assert kinds[word] is Keyword, word
    for word in ("from", "refund_unless_ready", "pays", "each", "player"):
        assert kinds[word] is Keyword.Type, word


def test_the_entry_point_names_the_lexer() -> None:
    assert isinstance(get_lexer_by_name("mjr"), MjrLexer)
    assert isinstance(get_lexer_for_filename("sichuan.xuezhan.mjr"), MjrLexer)


def test_without_pygments_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name == "pygments" or name.startswith("pygments.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pygments", None)
    monkeypatch.delitem(sys.modules, "mjr.plugins.highlight")
    with pytest.raises(MjrError) as raised:
        importlib.import_module("mjr.plugins.highlight")
    assert str(raised.value) == ("highlighting .mjr text needs Pygments, which is not installed; "
                                 "install it with: pip install 'mahjong-rules[docs]'")
