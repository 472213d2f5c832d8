"""Code for combinations of groups: ``count(N sets where ...)`` and ``account_once``.

A combination is N groups of the decomposition taken together (an unordered choice,
each group once).  Its condition sees each member as ``gk<i> gt<i> gf<i>``; the
words of the combination itself (``same_suit``, ``distinct_suits``, ``step``) are
written here for its size.  Under ``account_once`` the combinations a fan counts are
recorded as instances (the groups each uses, as a bit mask) for the generated
``_account_once``, which keeps the best forest of them (see docs/language.rst).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..model import ir
from .fusion import GROUP_MEMBERSHIP


def member_names(arity: int) -> tuple[str, ...]:
    """The element names of a combination of ``arity`` groups, member by member."""
    return tuple(f"{part}{i}" for i in range(arity) for part in ("gk", "gt", "gf"))


def word_code(name: str, element: tuple[str, ...]) -> str:
    """A word of the combination whose members are ``element`` (see member_names),
    each of its parts in brackets (a combination tests each part as soon as it can)."""
    firsts = element[1::3]
    if name == "same_suit":
        parts = [f"({firsts[0]} < 27)", *(f"({firsts[0]} // 9 == {t} // 9)" for t in firsts[1:])]
        return "(" + " and ".join(parts) + ")"
    if name == "distinct_suits":
        pairs = [f"({a} // 9 != {b} // 9)" for i, a in enumerate(firsts) for b in firsts[i + 1 :]]
        return "(" + " and ".join([*(f"({t} < 27)" for t in firsts), *pairs]) + ")"
    assert name == "step", name
    return f"_step{len(firsts)}({', '.join(f'_rank({t})' for t in firsts)})"


def split_members(element: ir.Node) -> tuple[list[ir.Node], ir.Node | None]:
    """The parts of a combination's condition said of every member (joined by
    ``and`` at the top), and what is left (None: nothing)."""
    parts = list(element.operands) if isinstance(element, ir.Nary) and element.op == "and" else [element]
    members = [part.operand for part in parts if isinstance(part, ir.Members)]
    rest = [part for part in parts if not isinstance(part, ir.Members)]
    if not rest:
        return members, None
    return members, rest[0] if len(rest) == 1 else ir.Nary(ir.BOOL, "and", tuple(rest))


def _membership(collection: str, i: int) -> str:
    """Whether group ``i`` of a combination belongs to ``collection``."""
    return re.sub(r"\b(gk|gt|gf)\b", lambda m: f"{m.group(1)}{i}", GROUP_MEMBERSHIP[collection])


@dataclass(frozen=True)
class CombinationHelper:
    """One ``count(N COLLECTION where ELEMENT)``, as a function that counts the
    combinations, and (for a fan under ``account_once``) one that records them."""

    name: str
    collection: str
    arity: int
    element: str
    record: bool = False
    #: what each member alone must meet (the condition's parts said of every member),
    #: written of the first (``gk0 gt0 gf0``): the pass that picks the members tests
    #: it, and most groups fail it ("": nothing)
    member_test: str = ""

    def source(self, max_groups: int) -> str:
        """The function(s), as module text, for decompositions of up to ``max_groups``
        groups: one walk; for a recorded combination the count is the same walk,
        recording nothing."""
        if not self.record:
            return self._function(False, max_groups)
        count = "\n".join([
            "@cython.cfunc", "@cython.nogil", "@cython.inline", "@cython.exceptval(check=False)",
            f"def {self.name}(s: _State) -> cython.longlong:",
            f"    return {self.name}_keep(s, -1, 0)",
        ])
        return self._function(True, max_groups) + "\n\n\n" + count

    def _function(self, record: bool, max_groups: int) -> str:
        """One pass picks the groups that may be members (the collection's and the
        tests said of every member); fewer than N of them count nothing.  The
        combinations of the picked groups are then walked in increasing order of
        groups, as choosing from all of them would walk them, each part of the
        condition tested as soon as the members it names are chosen, so a pair that
        fails it takes no third member.  ``record``: the walk also records each
        combination as an instance of ``fan`` (unless ``fan`` is -1)."""
        n = self.arity
        head = [
            "@cython.cfunc", "@cython.nogil", "@cython.exceptval(check=False)",
            f"def {self.name}_keep(s: _State, fan: cython.int, value: cython.longlong) -> cython.longlong:" if record
            else f"def {self.name}(s: _State) -> cython.longlong:",
            f'    """The combinations of {n} of the {self.collection} that meet the condition, counted'
            f'{" and, unless fan is -1, recorded as instances of fan" if record else ""}."""',
            "    n: cython.longlong = 0", "    m: cython.int = 0", "    g: cython.int",
            f"    picked = cython.declare(cython.int[{max_groups}])",
        ]
        test = _membership(self.collection, 0)
        if self.member_test:
            test = f"{test} and {self.member_test}"
        used = {field.group(0) for field in _MEMBER.finditer(self.element)}  # the members' fields it reads
        head += [f"    {v}: cython.int" for i in range(n)
                 for v in (f"a{i}", f"i{i}", *(f for f in (f"gk{i}", f"gt{i}", f"gf{i}") if f in used or i == 0))]
        lines = ["    for g in range(s.ng):", "        gk0 = s.gk[g]", "        gt0 = s.gt[g]", "        gf0 = s.gf[g]",
                 f"        if {test}:", "            picked[m] = g", "            m += 1",
                 f"    if m < {n}:", "        return 0"]
        levels = _by_last_member(self.element, n)
        for i in range(n):
            pad = "    " * (i + 1)
            start = "0" if i == 0 else f"a{i - 1} + 1"
            stop = "m" if i == n - 1 else f"m - {n - 1 - i}"
            lines += [f"{pad}for a{i} in range({start}, {stop}):", f"{pad}    i{i} = picked[a{i}]"]
            lines += [f"{pad}    {v}{i} = s.{v}[i{i}]" for v in ("gk", "gt", "gf") if f"{v}{i}" in used]
            if levels[i] and i < n - 1:
                lines += [f"{pad}    if not ({' and '.join(levels[i])}):", f"{pad}        continue"]
        pad = "    " * (n + 1)
        last = " and ".join(levels[n - 1]) or "True"
        lines += [f"{pad}if {last}:", f"{pad}    n += 1"]
        if record:
            mask = " | ".join(f"(1 << i{i})" for i in range(n))
            lines += [f"{pad}    if fan >= 0:", f"{pad}        _instance(s, fan, value, {mask})"]
        return "\n".join(head + lines + ["    return n"])


_MEMBER = re.compile(r"\b(?:gk|gt|gf)(\d+)\b")


def conjuncts(code: str) -> list[str]:
    """The parts of generated code joined by ``and`` at its top level, each written in
    brackets as the code writer writes every operation (nested ``and`` flattened); the
    code whole when any part is not one bracket (an ``or``, a ``not`` at the top)."""
    code = code.strip()
    parts: list[str] = []
    depth = start = index = 0
    while index < len(code):
        char = code[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif depth == 0 and code.startswith(" and ", index):
            parts.append(code[start:index])
            index += len(" and ")
            start = index
            continue
        index += 1
    parts.append(code[start:])
    if not all(part.startswith("(") and _closes_at_end(part) for part in parts):
        return [code]
    if len(parts) == 1:
        inner = conjuncts(code[1:-1])
        return inner if len(inner) > 1 else [code]
    return [piece for part in parts for piece in conjuncts(part)]


def _closes_at_end(code: str) -> bool:
    """Whether the bracket opening ``code`` closes at its last character."""
    depth = 0
    for index, char in enumerate(code):
        depth += char == "("
        depth -= char == ")"
        if depth == 0:
            return index == len(code) - 1
    return False


def _by_last_member(element: str, arity: int) -> list[list[str]]:
    """The parts of a combination's condition by the last member each names (a part
    that names none is tested with the first)."""
    levels: list[list[str]] = [[] for _ in range(arity)]
    if element != "True":
        for part in conjuncts(element):
            levels[max((int(i) for i in _MEMBER.findall(part)), default=0)].append(part)
    return levels


@dataclass(frozen=True)
class AccountOnce:
    """A fan under ``account_once``: its index, value per instance and recorder."""

    index: int
    unit: int
    helper: str


def most_instances(helpers: list[CombinationHelper], sets: int, max_groups: int) -> int:
    """Room for every instance the fans under ``account_once`` may record: the
    combinations of the most sets (or declared melds) a hand holds, of the most
    groups for the other collections."""
    return max(1, sum(math.comb(sets if h.collection in ("sets", "melds") else max_groups, h.arity)
                      for h in helpers))


__all__ = ["AccountOnce", "CombinationHelper", "conjuncts", "member_names", "most_instances", "split_members",
           "word_code"]
