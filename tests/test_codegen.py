"""The generated module's text: the templates read one ModuleContext per ruleset and
the names every module shares, nothing else, and every name given is read."""

from __future__ import annotations

import marshal
from dataclasses import fields

import jinja2
import jinja2.meta
import jinja2.nodes
import pytest

from mjr.compiler.build import check_file, find_source
from mjr.compiler.emit.codegen import (
    SHARED,
    ModuleContext,
    _environment,
    described,
    generate,
    hand_level,
    module_context,
)
from mjr.compiler.emit.tuples import CombinationHelper, conjuncts


def _read_and_set() -> tuple[set[str], set[str]]:
    """The variables the templates read from their context, and those they set themselves."""
    shared = _environment()
    plain = jinja2.Environment(loader=shared.loader)  # without the globals, which meta would leave out
    plain.filters.update(shared.filters)
    read: set[str] = set()
    assigned: set[str] = set()
    for name in plain.list_templates():
        tree = plain.parse(plain.loader.get_source(plain, name)[0])  # type: ignore[union-attr]
        read |= jinja2.meta.find_undeclared_variables(tree)
        assigned |= {target.name for node in tree.find_all(jinja2.nodes.Assign)
                     for target in node.find_all(jinja2.nodes.Name)}
    return read, assigned


def test_the_templates_read_the_module_context_and_the_shared_names_only() -> None:
    read, assigned = _read_and_set()
    given = {field.name for field in fields(ModuleContext)} | set(SHARED)
    assert read - assigned <= given, f"read but never given: {sorted(read - assigned - given)}"
    assert given - read == {"module_name"}, f"given but never read: {sorted(given - read - {'module_name'})}"
    assert not set(SHARED) & {field.name for field in fields(ModuleContext)}


def test_a_module_is_its_context_rendered() -> None:
    path = find_source("guangdong.jipinghu")
    assert path is not None
    ruleset = check_file(path)
    context = module_context(ruleset, "0" * 64)
    source = generate(ruleset, "0" * 64)
    assert source.module_name == context.module_name == "_mjr_guangdong_jipinghu_000000000000"
    assert source.text == _environment().get_template("ruleset.py.j2").render(context.variables())
    assert f"RULESET_ID = {ruleset.id!r}" in source.text


def test_the_description_is_its_values_marshalled_with_its_comments() -> None:
    text = "#: the fans\nFANS = (('a', '甲', 1, None, True),)\n#: the examples\nEXAMPLES = ()\n"
    code = described(text)
    assert "#: the fans" in code and "#: the examples" in code
    namespace: dict[str, object] = {"_marshal": marshal}
    exec(code, namespace)  # noqa: S102 - the module's own statement, as the module runs it
    assert namespace["FANS"] == (("a", "甲", 1, None, True),) and namespace["EXAMPLES"] == ()
    assert described(text) == code  # no back-references: the same values, the same bytes
    with pytest.raises(ValueError):
        described("FANS = len('x')")  # a literal only: ast.literal_eval refuses a call
    with pytest.raises(TypeError):
        described("import os")


@pytest.mark.parametrize(("code", "once"), [
    ("(_tile_fact3(s) != 0)", True),
    ("((s.ctx & 16) != 0) and (s.fv[0] > 2)", True),
    ("(_waits(s, 1) == 1) and (s.seat == 0)", True),
    ("(s.gagg[0] == 4)", False),  # a pass over the groups
    ("(s.wait == 1) and (_waits(s, 1) == 1)", False),  # the wait of a reading
    ("(s.shape == 3) and (_tile_fact17(s) == 7)", False),
    ("(_comb0(s) > 0)", False),  # a helper over the groups
    ("(s.cond[11] != 0)", False),  # another fan's condition
])
def test_a_condition_is_decided_once_a_hand_only_when_it_reads_the_hand_alone(code: str, once: bool) -> None:
    assert hand_level(code) is once


def test_mcr_decides_its_tile_and_context_conditions_once_a_hand() -> None:
    path = find_source("mcr")
    assert path is not None
    ruleset = check_file(path)
    context = module_context(ruleset, "0" * 64)
    ids = {ruleset.fans[i].id for i in context.hand_fans}
    assert {"all_simples", "full_flush", "half_flush", "all_types"} <= ids
    assert not ids & {"edge_wait", "all_pungs", "single_wait"}


@pytest.mark.parametrize(("code", "parts"), [
    ("True", ["True"]),
    ("(gt0 < 27)", ["(gt0 < 27)"]),
    ("((gt0 < 27) and (gt0 // 9 == gt1 // 9))", ["(gt0 < 27)", "(gt0 // 9 == gt1 // 9)"]),
    ("((a) and ((b) and (c)))", ["(a)", "(b)", "(c)"]),
    ("((a) or (b) and (c))", ["((a) or (b) and (c))"]),  # an or at the top: one part
    ("(not (a) and (b))", ["(not (a) and (b))"]),
    ("(f(x) and (y))", ["(f(x) and (y))"]),  # a call is no bracket of its own
])
def test_a_condition_splits_at_its_top_level_ands_only(code: str, parts: list[str]) -> None:
    assert conjuncts(code) == parts


def test_a_combination_tests_each_part_once_its_members_are_chosen() -> None:
    helper = CombinationHelper("_comb0", "sets", 3, "((gt0 < 27) and (gt0 // 9 == gt1 // 9) and (gt0 // 9 == gt2 // 9)"
                                                    " and (_step3(_rank(gt0), _rank(gt1), _rank(gt2)) == 1))",
                               member_test="(gk0 == 1)")
    text = helper.source(10)
    lines = [line.strip() for line in text.splitlines()]
    assert "if gk0 != 0 and gk0 != 4 and (gk0 == 1):" in lines  # the members picked in one pass
    assert "if m < 3:" in lines
    first, second = lines.index("for a0 in range(0, m - 2):"), lines.index("for a1 in range(a0 + 1, m - 1):")
    assert lines[first:second][-2:] == ["if not ((gt0 < 27)):", "continue"]
    assert "if not ((gt0 // 9 == gt1 // 9)):" in lines[second:]
    assert lines[-3] == "if (gt0 // 9 == gt2 // 9) and (_step3(_rank(gt0), _rank(gt1), _rank(gt2)) == 1):"
