"""A hand-written recursive-descent parser for ERL (rules §6.3), bounded in depth and size.

The recursion is guarded: every construct that can nest (a parenthesis, `let`, `if`, `not`,
unary minus, the right side of `implies`) counts one level, and more than MAX_DEPTH levels are
refused at the offending token, long before Python's own recursion limit. The finished tree is
then measured (MAX_NODES nodes, height MAX_DEPTH).
"""

from __future__ import annotations

from .errors import ErlError
from .lexer import END, INT, NAME, SYM, WORD, Token, tokenize
from .nodes import (Abs, Aggregate, And, Arith, Attr, BoolLit, Compare, Const, Group, If, Implies,
                    In, IntLit, Let, Neg, Node, Not, Or, Position, Var, size_and_height)
from p2ptarot.i18n.message import tr

MAX_NODES = 512
MAX_DEPTH = 64

CARDS = frozenset({"c", "p1", "p2", "p3"})
ATTRIBUTES = frozenset({"rank", "suit", "suitnum", "color", "odd", "even", "face", "prime"})
INT_ATTRIBUTES = frozenset({"rank", "suitnum"})
AGGREGATES = frozenset({"sum", "prod", "min", "max"})
CONSTANTS = frozenset({"red", "black", "clubs", "diamonds", "hearts", "spades"})
RELOPS = frozenset({"==", "!=", "<", "<=", ">", ">="})
WINDOWS = {"1": 1, "2": 2, "3": 3}


def _describe(tok: Token) -> str:
    if tok.kind == END:
        return tr("the end of the rule")
    if tok.kind == INT:
        return tr("number {n}", n=tok.text)
    if tok.kind == NAME:
        return tr("name '{name}'", name=tok.text)
    return f"'{tok.text}'"


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0

    # ---- token helpers -------------------------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def at(self, kind: str, text: str | None = None) -> bool:
        t = self.tokens[self.pos]
        return t.kind == kind and (text is None or t.text == text)

    def take(self) -> Token:
        t = self.tokens[self.pos]
        if t.kind != END:
            self.pos += 1
        return t

    def error(self, message: str, tok: Token | None = None) -> ErlError:
        t = tok or self.tok
        return ErlError(message, t.line, t.column)

    def expect(self, kind: str, text: str, what: str | None = None) -> Token:
        if not self.at(kind, text):
            raise self.error(tr("expected {what}, found {found}",
                                what=what or repr(text), found=_describe(self.tok)))
        return self.take()

    def enter(self, tok: Token) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(tr("the rule nests more than {max} levels deep", max=MAX_DEPTH), tok)

    def leave(self) -> None:
        self.depth -= 1

    # ---- grammar -------------------------------------------------------------------------------
    def rule(self) -> Node:
        self.expect(WORD, "accept", "'accept' at the start of the rule")
        node = self.expr()
        if not self.at(END):
            t = self.tok
            if t.kind == SYM and t.text in RELOPS or t.kind == WORD and t.text == "in":
                raise self.error(tr("comparisons do not chain; combine them with 'and'"))
            if t.kind == WORD and t.text in ("let", "if"):
                raise self.error(tr("'{word}' inside an operator must be in parentheses",
                                    word=t.text))
            raise self.error(tr("unexpected {found} after a complete expression",
                                found=_describe(t)))
        return node

    def expr(self) -> Node:
        start = self.tok
        self.enter(start)
        try:
            if self.at(WORD, "let"):
                return self.let_expr()
            if self.at(WORD, "if"):
                return self.if_expr()
            return self.implication()
        finally:
            self.leave()

    def let_expr(self) -> Node:
        start = self.take()
        name = self.tok
        if name.kind == WORD:
            raise self.error(tr("'{name}' is a reserved word and cannot be a let name",
                                name=name.text))
        if name.kind != NAME:
            raise self.error(tr("expected a name after 'let', found {found}",
                                found=_describe(name)))
        self.take()
        self.expect(SYM, "=")
        value = self.expr()
        self.expect(SYM, ";", "';' ending the let binding")
        body = self.expr()
        return Let(name.text, value, body, start.line, start.column)

    def if_expr(self) -> Node:
        start = self.take()
        cond = self.expr()
        self.expect(WORD, "then")
        then = self.expr()
        self.expect(WORD, "else", "'else' (every 'if' needs one)")
        orelse = self.expr()
        return If(cond, then, orelse, start.line, start.column)

    def implication(self) -> Node:
        left = self.disjunction()
        if self.at(WORD, "implies"):
            op = self.take()
            self.enter(op)
            try:
                right = self.implication()
            finally:
                self.leave()
            return Implies(left, right, left.line, left.column)
        return left

    def disjunction(self) -> Node:
        first = self.conjunction()
        items = [first]
        while self.at(WORD, "or"):
            self.take()
            items.append(self.conjunction())
        return first if len(items) == 1 else Or(tuple(items), first.line, first.column)

    def conjunction(self) -> Node:
        first = self.negation()
        items = [first]
        while self.at(WORD, "and"):
            self.take()
            items.append(self.negation())
        return first if len(items) == 1 else And(tuple(items), first.line, first.column)

    def negation(self) -> Node:
        if self.at(WORD, "not"):
            op = self.take()
            self.enter(op)
            try:
                return Not(self.negation(), op.line, op.column)
            finally:
                self.leave()
        return self.comparison()

    def comparison(self) -> Node:
        left = self.sum_expr()
        if self.tok.kind == SYM and self.tok.text in RELOPS:
            op = self.take()
            right = self.sum_expr()
            node: Node = Compare(op.text, left, right, op.line, op.column)
        elif self.at(WORD, "in"):
            self.take()
            node = In(left, self.set_literal(), left.line, left.column)
        else:
            return left
        t = self.tok
        if t.kind == SYM and t.text in RELOPS or t.kind == WORD and t.text == "in":
            raise self.error(tr("comparisons do not chain; combine them with 'and'"))
        return node

    def set_literal(self) -> tuple[Node, ...]:
        self.expect(SYM, "{", "'{' opening a set")
        elements = [self.sum_expr()]
        while self.at(SYM, ","):
            self.take()
            elements.append(self.sum_expr())
        self.expect(SYM, "}", "',' or '}' in a set")
        return tuple(elements)

    def sum_expr(self) -> Node:
        first = self.product()
        rest = []
        while self.tok.kind == SYM and self.tok.text in ("+", "-"):
            op = self.take().text
            rest.append((op, self.product()))
        return Arith(first, tuple(rest), first.line, first.column) if rest else first

    def product(self) -> Node:
        first = self.unary()
        rest = []
        while self.tok.kind == SYM and self.tok.text in ("*", "/", "%"):
            op = self.take().text
            rest.append((op, self.unary()))
        return Arith(first, tuple(rest), first.line, first.column) if rest else first

    def unary(self) -> Node:
        if self.at(SYM, "-"):
            op = self.take()
            self.enter(op)
            try:
                return Neg(self.unary(), op.line, op.column)
            finally:
                self.leave()
        return self.primary()

    def primary(self) -> Node:
        t = self.tok
        if t.kind == INT:
            self.take()
            return IntLit(t.value, t.line, t.column)
        if t.kind == NAME:
            self.take()
            if self.at(SYM, "."):
                raise self.error(tr("'{name}' is not a card: the cards are c, p1, p2 and p3",
                                    name=t.text), t)
            return Var(t.text, t.line, t.column)
        if t.kind == SYM and t.text == "(":
            self.take()
            inner = self.expr()
            self.expect(SYM, ")", "')'")
            return Group(inner, t.line, t.column)
        if t.kind != WORD:
            raise self.error(tr("expected a value, found {found}", found=_describe(t)))
        word = t.text
        if word in ("true", "false"):
            self.take()
            return BoolLit(word == "true", t.line, t.column)
        if word in CONSTANTS:
            self.take()
            return Const(word, t.line, t.column)
        if word == "n":
            self.take()
            return Position(t.line, t.column)
        if word in CARDS:
            return self.attribute()
        if word in AGGREGATES:
            return self.aggregate()
        if word == "abs":
            self.take()
            self.expect(SYM, "(", "'(' after abs")
            arg = self.sum_expr()
            self.expect(SYM, ")", "')'")
            return Abs(arg, t.line, t.column)
        if word in ("let", "if"):
            raise self.error(tr("'{word}' inside an operator must be in parentheses", word=word))
        if word in ATTRIBUTES:
            raise self.error(tr("'{word}' is an attribute: write it after a card, as in c.{word}",
                                word=word))
        raise self.error(tr("expected a value, found {found}", found=_describe(t)))

    def attribute(self) -> Node:
        card = self.take()
        if not self.at(SYM, "."):
            raise self.error(tr("a card is used through an attribute: write {card}.rank, "
                                "{card}.suit, …",
                                card=card.text), card)
        self.take()
        attr = self.tok
        if attr.kind != WORD or attr.text not in ATTRIBUTES:
            raise self.error(tr("expected an attribute ({attributes}), found {found}",
                                attributes=', '.join(sorted(ATTRIBUTES)), found=_describe(attr)))
        self.take()
        return Attr(card.text, attr.text, card.line, card.column)

    def aggregate(self) -> Node:
        func = self.take()
        self.expect(SYM, "(", f"'(' after {func.text}")
        attr = self.tok
        if attr.kind != WORD or attr.text not in INT_ATTRIBUTES:
            raise self.error(tr("{function} takes 'rank' or 'suitnum', found {found}",
                                function=func.text, found=_describe(attr)))
        self.take()
        self.expect(SYM, ",")
        self.expect(WORD, "last", "'last'")
        window = self.tok
        if window.kind != INT or window.text not in WINDOWS:
            raise self.error(tr("the window after 'last' is 1, 2 or 3, found {found}",
                                found=_describe(window)))
        self.take()
        self.expect(SYM, ")", "')'")
        return Aggregate(func.text, attr.text, WINDOWS[window.text], func.line, func.column)


def parse(text: str) -> Node:
    """The syntax tree of a rule text; ErlError (with a position) when it does not parse or is
    larger than the limits of §6.7."""
    node = _Parser(tokenize(text)).rule()
    count, height = size_and_height(node)
    if count > MAX_NODES:
        raise ErlError(tr("the rule has {count} syntax-tree nodes, more than {max}",
                          count=count, max=MAX_NODES))
    if height > MAX_DEPTH:
        raise ErlError(tr("the rule nests {height} levels deep, more than {max}",
                          height=height, max=MAX_DEPTH))
    return node
