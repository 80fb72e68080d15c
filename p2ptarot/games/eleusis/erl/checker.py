"""Static checks of an ERL tree: types (rules §6.4), the history guard (§6.6), binding limits (§6.7).

The checker walks the tree once, carrying the set of names bound on the current path and B, the
known lower bound on n. A reference to pK is allowed only where B ≥ K; conditions raise B for
the sub-expressions they guard, exactly as short-circuit evaluation would.
"""

from __future__ import annotations

from p2ptarot.i18n.message import tr, ntr

from .errors import ErlError
from .nodes import (Abs, Aggregate, And, Arith, Attr, BoolLit, Compare, Const, Group, If, Implies,
                    In, IntLit, Let, Neg, Node, Not, Or, Position, Var)

INT, BOOL, SUIT, COLOUR = "int", "bool", "suit", "colour"
MAX_LETS = 16
MAX_SET_ELEMENTS = 52

ATTRIBUTE_TYPES = {"rank": INT, "suitnum": INT, "suit": SUIT, "color": COLOUR,
                   "odd": BOOL, "even": BOOL, "face": BOOL, "prime": BOOL}
CONSTANT_TYPES = {"red": COLOUR, "black": COLOUR, "clubs": SUIT, "diamonds": SUIT,
                  "hearts": SUIT, "spades": SUIT}
CARD_NEEDS = {"c": 1, "p1": 1, "p2": 2, "p3": 3}
#: `k OP n` means `n MIRROR[OP] k`
MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_TYPE_NAMES = {INT: tr("an int"), BOOL: tr("a bool"), SUIT: tr("a suit"), COLOUR: tr("a colour")}


def _err(node: Node, message: str) -> ErlError:
    return ErlError(message, node.line, node.column)


def _n_bound(node: Compare, value: bool) -> int:
    """lb for a comparison `n OP k` (or `k OP n`) with k an integer literal; 1 otherwise."""
    left, right, op = node.left, node.right, node.op
    if isinstance(left, IntLit) and isinstance(right, Position):
        left, right, op = right, left, MIRROR[op]
    if not (isinstance(left, Position) and isinstance(right, IntLit)):
        return 1
    k = right.value
    if value:
        return {">=": k, ">": k + 1, "==": k}.get(op, 1)
    return {"<": k, "<=": k + 1, "!=": k}.get(op, 1)


def lower_bound(node: Node, value: bool) -> int:
    """lb(G, v): the bound on n that `node` evaluating to `value` guarantees (§6.6 table)."""
    if isinstance(node, Compare):
        return _n_bound(node, value)
    if isinstance(node, And):
        bounds = [lower_bound(x, value) for x in node.items]
        return max(bounds) if value else min(bounds)
    if isinstance(node, Or):
        bounds = [lower_bound(x, value) for x in node.items]
        return min(bounds) if value else max(bounds)
    if isinstance(node, Not):
        return lower_bound(node.arg, not value)
    if isinstance(node, Group):
        return lower_bound(node.inner, value)
    return 1


class _Checker:
    def __init__(self) -> None:
        self.lets = 0
        self.set_elements = 0

    def want(self, node: Node, expected: str, bound: int, scope: dict[str, str], role: str) -> None:
        got = self.check(node, bound, scope)
        if got != expected:
            raise _err(node, tr("{role} must be {expected}, not {got}",
                                role=role, expected=_TYPE_NAMES[expected], got=_TYPE_NAMES[got]))

    def check(self, node: Node, bound: int, scope: dict[str, str]) -> str:
        """The type of `node`, checked under the lower bound `bound` on n."""
        if isinstance(node, IntLit):
            return INT
        if isinstance(node, BoolLit):
            return BOOL
        if isinstance(node, Const):
            return CONSTANT_TYPES[node.word]
        if isinstance(node, Position):
            return INT
        if isinstance(node, Var):
            if node.name not in scope:
                raise _err(node, tr("name '{name}' is not bound by an enclosing let",
                                    name=node.name))
            return scope[node.name]
        if isinstance(node, Attr):
            need = CARD_NEEDS[node.card]
            if bound < need:
                raise _err(node, ntr(
                    "{card} may not exist here: guard it with n >= {need} (the main line may hold "
                    "only {bound} card)", "{card} may not exist here: guard it with n >= {need} "
                    "(the main line may hold only {bound} cards)", bound, card=node.card, need=need,
                    bound=bound))
            return ATTRIBUTE_TYPES[node.attr]
        if isinstance(node, Aggregate):
            return INT
        if isinstance(node, (Abs, Neg)):
            self.want(node.arg, INT, bound, scope, tr("an arithmetic operand"))
            return INT
        if isinstance(node, Arith):
            self.want(node.first, INT, bound, scope, tr("the operand of '{op}'",
                                                        op=node.rest[0][0]))
            for op, x in node.rest:
                self.want(x, INT, bound, scope, tr("the operand of '{op}'", op=op))
            return INT
        if isinstance(node, Compare):
            left = self.check(node.left, bound, scope)
            right = self.check(node.right, bound, scope)
            if node.op in ("==", "!="):
                if left != right:
                    raise _err(node, tr("'{op}' compares {left} with {right}",
                                        op=node.op, left=_TYPE_NAMES[left],
                                        right=_TYPE_NAMES[right]))
            elif left != INT or right != INT:
                bad = left if left != INT else right
                raise _err(node, tr("'{op}' orders ints only, not {got}",
                                    op=node.op, got=_TYPE_NAMES[bad]))
            return BOOL
        if isinstance(node, In):
            item = self.check(node.item, bound, scope)
            self.set_elements += len(node.elements)
            if self.set_elements > MAX_SET_ELEMENTS:
                raise _err(node, tr("the rule's sets hold more than {max} elements",
                                    max=MAX_SET_ELEMENTS))
            for x in node.elements:
                got = self.check(x, bound, scope)
                if got != item:
                    raise _err(x, tr("a set element must be {expected} like the value tested, not "
                                     "{got}",
                                     expected=_TYPE_NAMES[item], got=_TYPE_NAMES[got]))
            return BOOL
        if isinstance(node, And):
            b = bound
            for x in node.items:
                self.want(x, BOOL, b, scope, tr("an operand of 'and'"))
                b = max(b, lower_bound(x, True))
            return BOOL
        if isinstance(node, Or):
            b = bound
            for x in node.items:
                self.want(x, BOOL, b, scope, tr("an operand of 'or'"))
                b = max(b, lower_bound(x, False))
            return BOOL
        if isinstance(node, Implies):
            self.want(node.left, BOOL, bound, scope, tr("the left side of 'implies'"))
            self.want(node.right, BOOL, max(bound, lower_bound(node.left, True)), scope,
                      tr("the right side of 'implies'"))
            return BOOL
        if isinstance(node, Not):
            self.want(node.arg, BOOL, bound, scope, tr("the operand of 'not'"))
            return BOOL
        if isinstance(node, If):
            self.want(node.cond, BOOL, bound, scope, tr("an 'if' condition"))
            then = self.check(node.then, max(bound, lower_bound(node.cond, True)), scope)
            orelse = self.check(node.orelse, max(bound, lower_bound(node.cond, False)), scope)
            if then != orelse:
                raise _err(node, tr("the branches of 'if' differ: {then} and {orelse}",
                                    then=_TYPE_NAMES[then], orelse=_TYPE_NAMES[orelse]))
            return then
        if isinstance(node, Let):
            self.lets += 1
            if self.lets > MAX_LETS:
                raise _err(node, tr("the rule has more than {max} let bindings", max=MAX_LETS))
            if node.name in scope:
                raise _err(node, tr("name '{name}' is already bound here", name=node.name))
            value = self.check(node.value, bound, scope)
            return self.check(node.body, bound, {**scope, node.name: value})
        if isinstance(node, Group):
            return self.check(node.inner, bound, scope)
        raise TypeError(f"not an ERL node: {node!r}")


def check_rule(root: Node) -> None:
    """Raise ErlError unless the tree is a well-typed bool rule that passes the history guard."""
    checker = _Checker()
    got = checker.check(root, 1, {})
    if got != BOOL:
        raise _err(root, tr("the rule after 'accept' must be a bool, not {got}",
                            got=_TYPE_NAMES[got]))
