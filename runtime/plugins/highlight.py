"""Syntax highlighting for ``.mjr`` files: a Pygments lexer.

Pygments is no dependency of mjr: it comes with Sphinx (the ``docs`` and ``dev``
extras).  The package registers this lexer under the ``pygments.lexers`` entry
point, so any tool that highlights with Pygments (Sphinx, ``pygmentize``, editors'
previews) finds it by the name ``mjr`` or the file name ``*.mjr``.

The lexer follows the grammar's tokens: statement keywords, the words of
expressions, strings, tiles (``5m``, honour letters), integers, names and dotted
ruleset ids.  Anything the language has no token for is an ``Error`` token, so a
snippet that is not ``.mjr`` text shows up as such (Sphinx then warns).
"""

from __future__ import annotations

from ..errors import missing_extra

try:
    from pygments.lexer import RegexLexer, words
    from pygments.token import Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Whitespace
except ImportError:  # pragma: no cover - exercised in a subprocess without Pygments
    raise missing_extra("highlighting .mjr text needs Pygments, which is not installed", "docs") from None

#: words that start a statement or a part of one
STATEMENTS = (
    "ruleset", "extends", "source", "tiles", "deal", "claims", "win", "shapes", "wildcard", "indicator",
    "score", "cap", "limits", "minimum", "base", "define", "fact", "fan", "limit", "bonus", "multiplier",
    "require", "floor", "pay", "liable", "drop", "example", "hand", "expect", "shape",
    # table options
    "option", "options", "section", "default", "when", "else", "refuse", "fix",
    # combining fans
    "account_once", "prefer",
    # rules of play
    "discard_win", "missed_win", "hand_ends", "dead_wall", "kong_pay", "next_dealer", "at_draw", "at_end", "at_win",
    "last_draw", "void_suit", "indicator_flip", "open_kong", "false_win", "reveal", "declare", "seats", "abort",
    "rob_concealed",
    # named values and lookup tables
    "value", "table", "columns", "derive",
)
#: words that qualify a statement: tile sets, wildcard forms, fact and option kinds, payers
QUALIFIERS = (
    "suits", "winds", "dragons", "red_fives", "aside", "fixed", "stand_in", "may_not", "honors", "skip", "none", "flag",
    "number", "choice", "to", "each", "excludes", "pays", "discarder", "opponent", "feeder", "last", "claimed", "meld",
    "player", "left", "opposite", "right", "fans", "points", "payments", "clause", "without",
    "from", "refund_unless_ready", "refund_unless_ready_at_end", "refund_at_draw", "shared", "own_discards", "stake",
    "per_kong", "missed_win_bars", "payer", "payee", "dealer_double",
)
#: the words of expressions
EXPRESSION_WORDS = (
    "and", "or", "not", "if", "in", "of", "are", "is", "contain", "contains", "where", "count", "all", "any",
    "no", "scored", "sum",
    # functions of numbers
    "min", "max", "round_up", "round_down",
)
#: the two values of a flag option
CONSTANTS = ("on", "off")

_WORD_START = r"(?<![\w.])"
_WORD_END = r"(?![\w.])"


def _keywords(names: tuple[str, ...]) -> object:
    return words(names, prefix=_WORD_START, suffix=_WORD_END)


class MjrLexer(RegexLexer):  # type: ignore[misc]  # Pygments has no type information
    """Highlighting for the ``.mjr`` rules language."""

    name = "mjr"
    aliases = ["mjr"]
    filenames = ["*.mjr"]
    url = "https://pypi.org/project/mahjong-rules/"

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"([^"\\\n\r]|\\["\\n])*"', String.Double),
            (r"[a-z_][a-z0-9_]*(\.[a-z0-9_]+)+", Name.Namespace),  # a ruleset id
            (_keywords(STATEMENTS), Keyword),
            (_keywords(QUALIFIERS), Keyword.Type),
            (_keywords(EXPRESSION_WORDS), Operator.Word),
            (_keywords(CONSTANTS), Keyword.Constant),
            (r"[1-9][mpsz](?![\w])", Name.Constant),  # a tile: 5m, 7z
            (r"[ESWNPFC](?![\w])", Name.Constant),  # an honour: E S W N, P F C
            (r"[+-]?[0-9]+(?![\w])", Number.Integer),
            (r"[a-z_][a-z0-9_]*", Name),
            (r"==|!=|<=|>=|[<>+\-*/%^=]", Operator),
            (r"[(){}:,]", Punctuation),
            (r".", Error),
        ]
    }


__all__ = ["MjrLexer", "STATEMENTS", "QUALIFIERS", "EXPRESSION_WORDS", "CONSTANTS"]
