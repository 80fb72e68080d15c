"""Legality of moves (pure) and the dealer's statements as numbered claims (rules §7.6, §9).

`check` judges from this state's knowledge only: a card value it knows must match, and a dealer
statement is refused at once when this state knows the rule (the dealer's own peer, an omniscient
state); elsewhere the statement passes and becomes a claim, decided when the rule opens.
"""

from __future__ import annotations

from typing import Any, Mapping, TYPE_CHECKING

from p2ptarot.cards.errors import UnknownCardError
from p2ptarot.cards.standard52 import standard_card
from p2ptarot.engine.errors import IllegalMove
from p2ptarot.engine.types import Claim, Move, Pass

from .claims import (CARD_CORRECT, HAND_HAS_NONE, HINTS_HOLD, RUN_RIGHT, DealerClaim, Question,
                     hint_statement, inconsistency)
from .erl import HINTS, ErlError, check_hint_syntax, compile_rule
from .moves import (NO, RIGHT, SAID, WRONG, YES, Answer, Call, Commit, DeclareSage, Hint, Judge, NoPlay,
                    Open, Pick, Play)
from .rules import (ANSWER, ANSWER_PICK, CALL, DEALER_PICK, HINT, JUDGE, OPEN, PHASE_NAMES, PLAY,
                    RULE, SAGE_PICK, WINDOW)
from p2ptarot.i18n.message import tr

MAX_HINT_TEXT = 200

if TYPE_CHECKING:  # pragma: no cover
    from p2ptarot.engine.types import Open
    from .erl import Rule
    from .layout import Layout
    from .records import Pending
    from .rules import Rules


class MoveChecks:
    """Mixin of `EleusisState`: `_check` and the dealer's claims."""

    if TYPE_CHECKING:  # what the state class that inherits this mixin provides
        def _check_commit(self, seat: int, move: Commit) -> None: ...
        def _check_open(self, seat: int, move: Open) -> None: ...
        def _claim(self, seat: int, kind: str, detail: tuple[tuple[str, Any], ...] | Mapping[str, Any], where: str) -> Claim: ...
        def _false_claim(self, claim: Claim, reason: str) -> IllegalMove: ...
        _holder: list[int]
        _known_card: dict[str, int]
        _pending: dict[int, Claim]
        def _settle_claim(self, claim: Claim) -> None: ...
        cards: list[str | None]
        claim_log: list[Claim]
        dealer: int
        dealer_claims: list[DealerClaim]
        hands: list[list[int]]
        layout: Layout
        pending: Pending | None
        phase: int
        rule: Rule | None
        rule_text: str | None
        rules: Rules
        def secret_name(self) -> str: ...
        def where(self) -> str: ...


    def _fail(self, seat: int, reason: str) -> IllegalMove:
        return IllegalMove(seat, reason, self.where())

    def _check(self, seat: int, move: Move) -> None:
        """Whether `seat` may make `move` now, judged from this state's knowledge (pure)."""
        phase = self.phase
        kinds: dict[int, type | tuple[type, ...]] = {
            RULE: Commit, HINT: Hint, PLAY: (Play, NoPlay), JUDGE: Judge, CALL: Call, ANSWER: Answer,
            DEALER_PICK: Pick, SAGE_PICK: Pick, ANSWER_PICK: Answer, WINDOW: (DeclareSage, Pass),
            OPEN: Open,
        }
        expected_kind = kinds.get(phase)
        if expected_kind is None or not isinstance(move, expected_kind):
            raise self._fail(seat, tr("a {KIND} move is not expected in the {phase} step",
                                      KIND=move.KIND, phase=PHASE_NAMES[phase]))
        if isinstance(move, Commit):
            self._check_commit(seat, move)
            self._check_rule_commit(seat, move)
        elif isinstance(move, Hint):
            self._check_hint(seat, move)
        elif isinstance(move, (Play, NoPlay)):
            self._check_play(seat, move)
        elif isinstance(move, (Judge, Call)):
            if move.verdict not in (RIGHT, WRONG):
                raise self._fail(seat, tr("a verdict is 'right' or 'wrong', not {verdict}",
                                          verdict=repr(move.verdict)))
        elif isinstance(move, Answer):
            if move.answer not in (YES, NO):
                raise self._fail(seat, tr("an answer is 'yes' or 'no', not {answer}",
                                          answer=repr(move.answer)))
        elif isinstance(move, Pick):
            self._check_pick(seat, move)
        elif isinstance(move, Open):
            self._check_rule_open(seat, move)
            self._check_open(seat, move)
        if seat == self.dealer and isinstance(move, (Judge, Answer, Pick)) and phase != SAGE_PICK:
            question, expected, statement = self._statement(move)
            if self.rule is not None and self._truth(question) != expected:
                raise IllegalMove(seat, inconsistency(statement), self.where())

    def _check_rule_commit(self, seat: int, move: Commit) -> None:
        if move.name != self.secret_name():
            raise self._fail(seat, tr("the rule of this round is committed as {name}, not {other}",
                                      name=repr(self.secret_name()), other=repr(move.name)))
        if not isinstance(move.value, str):
            raise self._fail(seat, tr("a committed value is a text"))
        if move.value:
            try:
                compile_rule(move.value)
            except ErlError as exc:
                raise self._fail(seat, tr("invalid rule: {exc}", exc=exc)) from None

    def _check_hint(self, seat: int, move: Hint) -> None:
        if not isinstance(move.hints, tuple) or len(move.hints) > len(HINTS) or not all(
                isinstance(h, str) for h in move.hints):
            raise self._fail(seat, tr("structured hints are a list of at most {HINTS} texts",
                                      HINTS=len(HINTS)))
        if not isinstance(move.text, str) or len(move.text) > MAX_HINT_TEXT or not all(
                ch.isprintable() for ch in move.text):
            raise self._fail(seat, tr("a free-text hint is at most {TEXT} printable characters",
                                      TEXT=MAX_HINT_TEXT))
        for h in move.hints:
            try:
                check_hint_syntax(h)
            except ErlError as exc:
                raise self._fail(seat, str(exc)) from None
        if len(set(move.hints)) != len(move.hints):
            raise self._fail(seat, tr("a structured hint is given twice"))
        if move.hints and self.rule is not None:
            question = Question(HINTS_HOLD, 0, move.hints)
            if not self._truth(question):
                raise IllegalMove(seat, inconsistency(hint_statement(move.hints)), self.where())

    def _check_cards(self, seat: int, handles: Any, cards: Any, owner: int) -> None:
        """`handles` are distinct handles of `owner`'s hand and `cards` their values."""
        if not isinstance(handles, tuple) or not isinstance(cards, tuple) or len(handles) != len(cards):
            raise self._fail(seat, tr("handles and cards are two lists of one length"))
        if not all(isinstance(h, int) and not isinstance(h, bool) for h in handles):
            raise self._fail(seat, tr("handles are integers"))
        if not all(isinstance(c, str) for c in cards):
            raise self._fail(seat, tr("cards are card ids"))
        if len(set(handles)) != len(handles) or len(set(cards)) != len(cards):
            raise self._fail(seat, tr("a card is named twice"))
        for h, c in zip(handles, cards):
            if not 0 <= h < len(self._holder) or self._holder[h] != owner:
                raise self._fail(seat, tr("handle {h} is not in the hand", h=h))
            try:
                standard_card(c)
            except UnknownCardError:
                raise self._fail(seat, tr("{c} is not a standard card", c=repr(c))) from None
            known = self.cards[h]
            if known is not None and known != c:
                raise self._fail(seat, tr("handle {handle} holds {known}, not {idx}",
                                          handle=h, known=known, idx=c))
            if known is None and self._known_card.get(c, h) != h:
                raise self._fail(seat, tr("{c} is already known at another handle", c=c))

    def _check_play(self, seat: int, move: Play | NoPlay) -> None:
        size = len(move.handles) if isinstance(move.handles, tuple) else -1
        if isinstance(move, Play) and not 1 <= size <= self.rules.max_run:
            raise self._fail(seat, tr("a play is one card or a run of 2 to {run}",
                                      run=self.rules.max_run))
        if isinstance(move, NoPlay) and size != len(self.hands[seat]):
            raise self._fail(seat, tr('"no play" shows the whole hand'))
        self._check_cards(seat, move.handles, move.cards, seat)
        if isinstance(move, NoPlay) and set(move.handles) != set(self.hands[seat]):
            raise self._fail(seat, tr('"no play" shows the whole hand'))

    def _check_pick(self, seat: int, move: Pick) -> None:
        assert self.pending is not None
        if not isinstance(move.handle, int) or isinstance(move.handle, bool) or not isinstance(
                move.card, str):
            raise self._fail(seat, tr("a pick names a handle and its card"))
        owner = self.pending.seat
        if move.handle not in self.hands[owner] or self.cards[move.handle] != move.card:
            raise self._fail(seat, tr("{card} at handle {handle} is not a card of the shown hand",
                                      card=repr(move.card), handle=move.handle))

    def _check_rule_open(self, seat: int, move: Open) -> None:
        if move.name != self.secret_name():
            raise self._fail(seat, tr("the round's rule is {name}, not {other}",
                                      name=repr(self.secret_name()), other=repr(move.name)))
        if not isinstance(move.value, str):
            raise self._fail(seat, tr("an opened value is a text"))
        if self.rule_text is not None and move.value != self.rule_text:
            raise self._fail(seat, tr("the opened rule is not the committed one"))

    # ---- the dealer's statements ---------------------------------------------------------------
    def _statement(self, move: Move) -> tuple[Question, bool, str]:
        """The question a dealer's judge/answer/pick answers, the answer given, and in words."""
        p = self.pending
        assert p is not None
        main_len = len(self.layout.main)
        if isinstance(move, Pick):
            return (Question(CARD_CORRECT, main_len, (move.card,)), True,
                    tr("named {card} a correct card", card=move.card))
        if self.phase == ANSWER_PICK:
            card = self.cards[p.proposal] or ""
            yes = isinstance(move, Answer) and move.answer == YES
            return (Question(CARD_CORRECT, main_len, (card,)), yes,
                    tr("answered {answer} to the Sage's pick {card}", answer=SAID[YES if yes else NO],
                       card=card))
        if isinstance(move, Judge):
            right = move.verdict == RIGHT
            verdict = RIGHT if right else WRONG
            if p.no_play:
                return (Question(HAND_HAS_NONE, main_len, p.cards), right,
                        tr("judged {verdict} on the \"no play\" of {cards}", verdict=SAID[verdict],
                           cards=" ".join(p.cards)))
            return (Question(RUN_RIGHT, main_len, p.cards), right,
                    tr("judged {verdict} on {cards}",
                       verdict=SAID[verdict], cards=" ".join(p.cards)))
        else:
            assert isinstance(move, Answer)
            right = (p.call == RIGHT) == (move.answer == YES)
        if p.no_play:
            return (Question(HAND_HAS_NONE, main_len, p.cards), right, tr(
                "answered {answer} to the Sage's call {call} on the \"no play\" of {cards}",
                answer=SAID.get(move.answer, move.answer), call=repr(p.call),
                cards=" ".join(p.cards)))
        return (Question(RUN_RIGHT, main_len, p.cards), right, tr(
            "answered {answer} to the Sage's call {call} on {cards}",
            answer=SAID.get(move.answer, move.answer),
            call=repr(p.call), cards=" ".join(p.cards)))

    def _truth(self, question: Question) -> bool:
        assert self.rule is not None and self.rule_text is not None
        return question.truth(self.rule, self.layout.main_facts, self.rule_text)

    def _state_claim(self, seat: int, question: Question, expected: bool, statement: str) -> None:
        """Record the dealer's statement as a numbered claim; decide it at once when this state
        knows the rule (the same numbers are allocated in every state)."""
        where = self.where()
        draft = DealerClaim(len(self.claim_log), seat, statement, question, expected, where)
        claim = self._claim(seat, question.kind, draft.detail(), where)
        record = DealerClaim(claim.id, seat, statement, question, expected, where)
        if self.rule is not None:
            self._decide(claim, record)
            return
        self.dealer_claims.append(record)
        self._pending[claim.id] = claim

    def _decide(self, claim: Claim, record: DealerClaim) -> None:
        if self._truth(record.question) != record.expected:
            raise self._false_claim(claim, record.reason())
        self._settle_claim(claim)
