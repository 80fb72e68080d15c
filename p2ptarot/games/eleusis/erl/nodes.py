"""The frozen ERL syntax tree (rules §6.3). Every node records where its text starts.

`and`, `or` and the arithmetic chains are n-ary nodes, so a long flat list of alternatives is
shallow; parentheses are kept as `Group` nodes because the history guard (§6.6) and the depth
limit see them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Union


@dataclass(frozen=True, slots=True)
class IntLit:
    value: int
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class BoolLit:
    value: bool
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Const:
    """A suit (`clubs` … `spades`) or colour (`red`, `black`) constant."""

    word: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Position:
    """`n`: the number of main-line cards before the candidate."""

    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Var:
    name: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Attr:
    """`card.attribute` with card in c, p1, p2, p3."""

    card: str
    attr: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Aggregate:
    """`func(attr, last window)`: over the last min(window, n) main-line cards."""

    func: str
    attr: str
    window: int
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Abs:
    arg: "Node"
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Neg:
    arg: "Node"
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Not:
    arg: "Node"
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Arith:
    """`first op1 x1 op2 x2 …` with all ops of one precedence level (+ - or * / %)."""

    first: "Node"
    rest: tuple[tuple[str, "Node"], ...]
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Compare:
    op: str
    left: "Node"
    right: "Node"
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class In:
    item: "Node"
    elements: tuple["Node", ...]
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class And:
    items: tuple["Node", ...]
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Or:
    items: tuple["Node", ...]
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Implies:
    left: "Node"
    right: "Node"
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class If:
    cond: "Node"
    then: "Node"
    orelse: "Node"
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Let:
    name: str
    value: "Node"
    body: "Node"
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Group:
    """`( inner )`."""

    inner: "Node"
    line: int
    column: int


Node = Union[IntLit, BoolLit, Const, Position, Var, Attr, Aggregate, Abs, Neg, Not, Arith, Compare,
             In, And, Or, Implies, If, Let, Group]


def children(node: Node) -> Iterator[Node]:
    """The direct sub-expressions of `node`, left to right."""
    if isinstance(node, (Abs, Neg, Not)):
        yield node.arg
    elif isinstance(node, Arith):
        yield node.first
        for _, x in node.rest:
            yield x
    elif isinstance(node, Compare):
        yield node.left
        yield node.right
    elif isinstance(node, In):
        yield node.item
        yield from node.elements
    elif isinstance(node, (And, Or)):
        yield from node.items
    elif isinstance(node, Implies):
        yield node.left
        yield node.right
    elif isinstance(node, If):
        yield node.cond
        yield node.then
        yield node.orelse
    elif isinstance(node, Let):
        yield node.value
        yield node.body
    elif isinstance(node, Group):
        yield node.inner


def size_and_height(root: Node) -> tuple[int, int]:
    """(number of nodes, height) of the tree, iteratively (no recursion on hostile input)."""
    count, height = 0, 0
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        height = max(height, depth)
        stack.extend((child, depth + 1) for child in children(node))
    return count, height
