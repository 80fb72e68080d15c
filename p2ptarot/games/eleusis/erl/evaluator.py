"""ERL evaluation (rules §6.5): the checked tree compiled once into nested Python closures.

No `eval`: each node becomes a small function of the context. Integers wrap as 64-bit two's
complement; `/` and `%` are floor division and modulo, and dividing by 0 gives 0, so every valid
rule is total. Evaluation is left to right and short-circuit, which the history guard relies on.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from .nodes import (Abs, Aggregate, And, Arith, Attr, BoolLit, Compare, Const, Group, If, Implies,
                    In, IntLit, Let, Neg, Node, Not, Or, Position, Var)

#: A card as a rule sees it: (rank 1…13, suitnum 1…4). The deck copy is invisible (R29).
Facts = tuple[int, int]
#: (n, candidate, last cards newest first (at most three), let environment)
Fn = Callable[[int, Facts, Sequence[Facts], Mapping[str, Any]], Any]

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
PRIMES = frozenset({2, 3, 5, 7, 11, 13})
_MASK = (1 << 64) - 1
_SIGN = 1 << 63


def wrap(x: int) -> int:
    """`x` as a 64-bit two's-complement integer."""
    x &= _MASK
    return x - (1 << 64) if x & _SIGN else x


def floor_div(a: int, b: int) -> int:
    return 0 if b == 0 else wrap(a // b)


def floor_mod(a: int, b: int) -> int:
    return 0 if b == 0 else wrap(a % b)


_ATTR: dict[str, Callable[[Facts], Any]] = {
    "rank": lambda f: f[0],
    "suitnum": lambda f: f[1],
    "suit": lambda f: SUIT_NAMES[f[1] - 1],
    "color": lambda f: "red" if f[1] in (2, 3) else "black",
    "odd": lambda f: f[0] % 2 == 1,
    "even": lambda f: f[0] % 2 == 0,
    "face": lambda f: f[0] >= 11,
    "prime": lambda f: f[0] in PRIMES,
}
_ARITH: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: wrap(a + b), "-": lambda a, b: wrap(a - b), "*": lambda a, b: wrap(a * b),
    "/": floor_div, "%": floor_mod,
}
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def _aggregate(func: str, values: list[int]) -> int:
    if func == "sum":
        return wrap(sum(values))
    if func == "prod":
        out = 1
        for v in values:
            out = wrap(out * v)
        return out
    return min(values) if func == "min" else max(values)


def compile_node(node: Node) -> Fn:  # noqa: C901 - one branch per node kind
    """A closure evaluating `node`; the tree must have passed the checker."""
    if isinstance(node, IntLit):
        v = node.value
        return lambda n, c, last, env: v
    if isinstance(node, BoolLit):
        b = node.value
        return lambda n, c, last, env: b
    if isinstance(node, Const):
        w = node.word
        return lambda n, c, last, env: w
    if isinstance(node, Position):
        return lambda n, c, last, env: n
    if isinstance(node, Var):
        name = node.name
        return lambda n, c, last, env: env[name]
    if isinstance(node, Attr):
        get = _ATTR[node.attr]
        if node.card == "c":
            return lambda n, c, last, env: get(c)
        k = int(node.card[1]) - 1
        return lambda n, c, last, env: get(last[k])
    if isinstance(node, Aggregate):
        func, index, window = node.func, 0 if node.attr == "rank" else 1, node.window
        return lambda n, c, last, env: _aggregate(func, [f[index] for f in last[:window]])
    if isinstance(node, Abs):
        arg = compile_node(node.arg)
        return lambda n, c, last, env: wrap(abs(arg(n, c, last, env)))
    if isinstance(node, Neg):
        arg = compile_node(node.arg)
        return lambda n, c, last, env: wrap(-arg(n, c, last, env))
    if isinstance(node, Not):
        arg = compile_node(node.arg)
        return lambda n, c, last, env: not arg(n, c, last, env)
    if isinstance(node, Arith):
        first = compile_node(node.first)
        rest = tuple((_ARITH[op], compile_node(x)) for op, x in node.rest)

        def arith(n: int, c: Facts, last: Sequence[Facts], env: Mapping[str, Any]) -> int:
            acc = first(n, c, last, env)
            for op, x in rest:
                acc = op(acc, x(n, c, last, env))
            return acc
        return arith
    if isinstance(node, Compare):
        cmp, left, right = _COMPARE[node.op], compile_node(node.left), compile_node(node.right)
        return lambda n, c, last, env: cmp(left(n, c, last, env), right(n, c, last, env))
    if isinstance(node, In):
        item = compile_node(node.item)
        elements = tuple(compile_node(x) for x in node.elements)

        def member(n: int, c: Facts, last: Sequence[Facts], env: Mapping[str, Any]) -> bool:
            v = item(n, c, last, env)
            return any(e(n, c, last, env) == v for e in elements)
        return member
    if isinstance(node, And):
        items = tuple(compile_node(x) for x in node.items)
        return lambda n, c, last, env: all(f(n, c, last, env) for f in items)
    if isinstance(node, Or):
        items = tuple(compile_node(x) for x in node.items)
        return lambda n, c, last, env: any(f(n, c, last, env) for f in items)
    if isinstance(node, Implies):
        left, right = compile_node(node.left), compile_node(node.right)
        return lambda n, c, last, env: (not left(n, c, last, env)) or right(n, c, last, env)
    if isinstance(node, If):
        cond, then, orelse = compile_node(node.cond), compile_node(node.then), compile_node(node.orelse)
        return lambda n, c, last, env: (then(n, c, last, env) if cond(n, c, last, env)
                                        else orelse(n, c, last, env))
    if isinstance(node, Let):
        name, value, body = node.name, compile_node(node.value), compile_node(node.body)
        return lambda n, c, last, env: body(n, c, last, {**env, name: value(n, c, last, env)})
    if isinstance(node, Group):
        return compile_node(node.inner)
    raise TypeError(f"not an ERL node: {node!r}")
