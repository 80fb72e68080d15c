"""The dealer's claims (rules §9, §7.6): statements only the rule can check.

Every dealer statement reduces to "this question about the main line has this answer": a play is
right, a "no play" hand holds no correct card, a named card is correct, a structured hint holds.
The main line only grows within a round, so a question records the line's length at the step it
was asked and is re-checked against that prefix when the rule opens. Claims are numbered in the
order made, identically in every state; the first false one (lowest number) is the evidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .erl import Facts, Rule, facts, hint_holds
from p2ptarot.i18n.message import tr

RUN_RIGHT = "run-right"  # the cards, in order, are each correct after the line so far (R7)
HAND_HAS_NONE = "hand-has-no-correct"  # no card of the shown hand is correct as a single play
CARD_CORRECT = "card-correct"  # this one card is correct
HINTS_HOLD = "hints-hold"  # every structured hint holds of the rule text


@dataclass(frozen=True, slots=True)
class Question:
    kind: str
    main_len: int
    cards: tuple[str, ...]

    def truth(self, rule: Rule, main: Sequence[Facts], text: str) -> bool:
        if self.kind == HINTS_HOLD:
            return all(hint_holds(text, h) for h in self.cards)
        line = list(main[:self.main_len])
        candidates = [facts(c) for c in self.cards]
        if self.kind == RUN_RIGHT:
            return rule.accepts_run(line, candidates)
        if self.kind == HAND_HAS_NONE:
            return not any(rule.accepts(line, c) for c in candidates)
        return rule.accepts(line, candidates[0])


@dataclass(frozen=True, slots=True)
class DealerClaim:
    """Claim number `id`: the dealer said that `question` has the answer `expected`."""

    id: int
    seat: int
    statement: str  # what the dealer did ("judged the run right", …)
    question: Question
    expected: bool
    where: str

    def detail(self) -> tuple[tuple[str, object], ...]:
        q = self.question
        return (("id", self.id), ("question", q.kind), ("main", q.main_len),
                ("cards", list(q.cards)), ("expected", "true" if self.expected else "false"))

    def reason(self) -> str:
        return inconsistency(self.statement)


def inconsistency(statement: str) -> str:
    """The fault's wording, the same whether found at once or when the rule opens."""
    return tr("the dealer's statement contradicts his rule: he {statement}", statement=statement)


def hint_statement(hints: Sequence[str]) -> str:
    return tr("gave the structured hints {hints}", hints=', '.join(hints))
