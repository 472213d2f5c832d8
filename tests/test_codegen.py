"""The generated module's text: the templates read one ModuleContext per ruleset and
the names every module shares, nothing else, and every name given is read."""

from __future__ import annotations

from dataclasses import fields

import jinja2
import jinja2.meta
import jinja2.nodes

from mjr.compiler.build import check_file, find_source
from mjr.compiler.emit.codegen import SHARED, ModuleContext, _environment, generate, module_context


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
