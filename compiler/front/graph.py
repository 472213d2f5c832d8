"""Depth-first walk of a dependency graph, with a stack of its own.

Defines use defines and fan conditions use fans; a file may chain thousands of
them, deeper than Python's recursion allows, so the walk keeps its own stack.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

Node = TypeVar("Node", bound=Hashable)
Edge = TypeVar("Edge")

_OPEN, _DONE = 1, 2


@dataclass
class Walk(Generic[Node, Edge]):
    """The nodes in post-order (each after those it depends on, a cycle cut
    somewhere), and each cycle once: its chain (first == last) and the edge taken
    out of its first node."""

    order: list[Node] = field(default_factory=list)
    cycles: list[tuple[list[Node], Edge]] = field(default_factory=list)


def walk(roots: Iterable[Node], edges: Callable[[Node], Sequence[Edge]],
         target: Callable[[Edge], Node]) -> Walk[Node, Edge]:
    """Visit every node reachable from ``roots``, in the order given, depth first."""
    result: Walk[Node, Edge] = Walk()
    state: dict[Node, int] = {}
    seen_cycles: set[frozenset[Node]] = set()
    for root in roots:
        if root in state:
            continue
        stack: list[tuple[Node, int]] = [(root, 0)]  # a node, and the next of its edges to take
        position = {root: 0}
        state[root] = _OPEN
        while stack:
            node, next_edge = stack[-1]
            out = edges(node)
            if next_edge == len(out):
                state[node] = _DONE
                result.order.append(node)
                del position[node]
                stack.pop()
                continue
            stack[-1] = (node, next_edge + 1)
            used = target(out[next_edge])
            if used not in state:
                state[used] = _OPEN
                position[used] = len(stack)
                stack.append((used, 0))
            elif state[used] == _OPEN:
                start = position[used]
                chain = [entry[0] for entry in stack[start:]] + [used]
                if frozenset(chain) not in seen_cycles:
                    seen_cycles.add(frozenset(chain))
                    first, taken = stack[start]
                    result.cycles.append((chain, edges(first)[taken - 1]))
    return result
