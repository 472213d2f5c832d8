"""A ruleset's generated module, read once into a typed object (mjr.ruleset.module)."""

from __future__ import annotations

import dataclasses
from types import ModuleType

import pytest

import mjr
from mjr.ruleset.module import Example, GeneratedModule, read_module


@pytest.fixture(scope="module")
def ruleset() -> mjr.Ruleset:
    return mjr.load("guangdong.tuidaohu", backend="python")


def test_the_constants_are_read_once_into_their_python_types(ruleset: mjr.Ruleset) -> None:
    generated, module = ruleset.generated, ruleset.module
    assert isinstance(generated, GeneratedModule)
    assert generated.kinds == frozenset(module.KINDS) and ruleset.kinds is generated.kinds
    assert generated.claims == dict(module.CLAIMS) and generated.chosen == dict(module.CHOSEN)
    assert generated.wild_forbidden == tuple(module.WILD_FORBIDDEN)
    assert generated.file == str(module.__file__)
    first = generated.examples[0]
    assert isinstance(first, Example)
    assert (first.title, first.hand, first.file, first.line, first.column, first.checks) == module.EXAMPLES[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        generated.deal = 16  # type: ignore[misc]


def test_the_entry_points_are_the_modules_own(ruleset: mjr.Ruleset) -> None:
    generated, module = ruleset.generated, ruleset.module
    assert generated.evaluate_record is module.evaluate_record
    assert generated.evaluate_records is module.evaluate_records
    hand = ruleset.read_hand("123m 456m 789m 123p 4p win 4p self_draw")
    record = ruleset.records.record(hand)
    assert record is not None
    assert generated.evaluate_record(record)[0] == module.evaluate_record(record)[0]


def test_a_name_an_older_build_lacks_takes_its_default(ruleset: mjr.Ruleset) -> None:
    optional = ("MINIMUM_WITHOUT", "ACCOUNT_ONCE", "PREFER", "SCORE_TEXT")

    class Older(ModuleType):
        """The ruleset's module without the names an older build lacks."""

        def __getattr__(self, name: str) -> object:
            if name in optional:
                raise AttributeError(name)
            return getattr(ruleset.module, name)

    older = Older("older")
    older.__file__ = ruleset.module.__file__
    generated = read_module(older)
    assert (generated.minimum_without, generated.account_once, generated.prefer) == ((), (), ())
    assert generated.score_text == "?"


def test_a_ruleset_is_no_mixin() -> None:
    assert mjr.Ruleset.__bases__ == (object,)
