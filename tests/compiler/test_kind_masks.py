"""Conditions on a kind alone become bits of kinds (mjr.compiler.emit.fusion.kind_mask),
and the aggregates over the tiles held test those bits instead of looping."""

from __future__ import annotations

import pytest

from mjr.compiler.emit.codegen import kinds_literal
from mjr.compiler.emit.fusion import ALL_KINDS, kind_mask
from mjr.compiler.model.vocabulary import TILE_WORDS


def kinds(mask: int) -> set[int]:
    return {k for k in range(34) if (mask >> k) & 1}


def word(name: str) -> str:
    return TILE_WORDS[name].code.format(k="k")


@pytest.mark.parametrize(("name", "expected"), [
    ("honor", set(range(27, 34))),
    ("wind", set(range(27, 31))),
    ("dragon", {31, 32, 33}),
    ("suited", set(range(27))),
    ("terminal", {0, 8, 9, 17, 18, 26}),
    ("simple", {k for k in range(27) if k % 9 not in (0, 8)}),
    ("m", set(range(9))),
    ("p", set(range(9, 18))),
    ("s", set(range(18, 27))),
])
def test_the_words_of_a_kind_give_their_kinds(name: str, expected: set[int]) -> None:
    mask = kind_mask(word(name))
    assert mask is not None and kinds(mask) == expected


def test_ranks_and_combinations() -> None:
    green = f"(({word('s')} and ({word('rank')} == 2 or {word('rank')} in (3, 4, 6, 8))) or (k == 32))"
    mask = kind_mask(green)
    assert mask is not None and kinds(mask) == {19, 20, 21, 23, 25, 32}
    assert kind_mask(f"not {word('honor')}") == (1 << 27) - 1
    assert kind_mask(None) == ALL_KINDS
    assert kind_mask("(1 if k < 9 else 0)") == (1 << 9) - 1


@pytest.mark.parametrize("code", [
    "(s.tc[k] == 4)",           # a count of the hand
    "(k == 27 + s.seat)",       # the context
    "(s.is_wild[k] != 0)",      # the hand's wildcards
    "_konged(s, k)",            # another function
    "_rank(k + 1) == 2",        # _rank of something else than the kind
    "((k - 30) // 9 == 0)",     # a division on which C and Python differ
    "((k - 30) % 9 == 0)",
    "(k // 0 == 1)",
    "(k == 'a')",
    "(k ==",                    # not code at all
])
def test_anything_but_the_kind_is_left_to_the_loop(code: str) -> None:
    assert kind_mask(code) is None


def test_wide_masks_are_c_numbers() -> None:
    assert kinds_literal(0x1FF) == "0x1ff"
    assert kinds_literal(1 << 33) == "cython.cast(cython.longlong, 0x200000000)"
