"""The Eleusis state machine (spec/games/eleusis.md).

One class for the three modes of the engine contract. The dealer's rule is a secret committed
before the shuffle (`Commit`) and opened at the round's end (`Open`); every statement the dealer
makes before that is a numbered claim (claims.py). A state that knows the rule (omniscient, or the
dealer's own peer) decides each claim at once, so a false one is refused as it is made; any other
state decides them all, in order, when the rule opens: a false one makes the round void and is
recorded as a finding against the dealer, at his first inconsistent statement, and the game goes
on with the next dealer (rules §7.7, R35; L1).

Hidden information (§8): hands are revealed to their owners only, penalty cards to their receiver
only, the dealer sees no hand; every played or shown card is public. The stock is one list of
handles from one or more deck epochs (R12 adds decks), dealt from the front.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from p2ptarot.cards.errors import UnknownCardError
from p2ptarot.cards.standard52 import STANDARD_52X2, standard_card
from p2ptarot.engine.errors import EngineError
from p2ptarot.engine.state import GameState
from p2ptarot.engine.types import (NOBODY, PUBLIC, Claim, Move, Outcome, Pass, RandomChoice, Reveal,
                                   Shuffle, Turn, TurnKind)

from . import sage as sage_rules
from . import scoring
from .legal import MoveChecks
from .claims import HINTS_HOLD, DealerClaim, Question, hint_statement
from .erl import ErlError, Rule, compile_rule, true_hints
from .layout import Layout
from .library import LIBRARY
from .moves import (MOVES, NO, RIGHT, SAID, WRONG, YES, Answer, Call, Commit, DeclareSage, Hint, Judge,
                    NoPlay, Open, Pick, Play)
from .records import Effect, Pending, RoundRecord
from .rules import (ANSWER, ANSWER_PICK, CALL, DEAL, DEALER_PICK, FIRST_DEALER, HINT, JUDGE, OPEN,
                    OVER, PHASE_NAMES, PLAY, RULE, SAGE_PICK, SHUFFLE, STANDARD, WINDOW, Rules)
from .stock import StockEffects
from .view import build_view
from p2ptarot.i18n.message import tr

BASE_DECK = STANDARD_52X2.name
_OVER = Turn(TurnKind.OVER)


class EleusisState(MoveChecks, StockEffects, GameState):
    """A game of Eleusis: 4–8 participants, one round per dealer (R27)."""

    NAME = "eleusis"
    MOVES = MOVES

    def __init__(self, players: int, variant: str | None = None,
                 options: Mapping[str, Any] | None = None, omniscient: bool = True,
                 viewer: int | None = None) -> None:
        options = dict(options or {})  # checked by `create` against rules.OPTIONS
        rounds = options.get("rounds", players)
        basis = options.get("dealer_cap_basis", "before")
        first = options.get("first_dealer")
        super().__init__(players, variant or STANDARD.name, options, omniscient, viewer)
        #: the game's numbers (not to be confused with `rule`, the dealer's secret rule)
        self.rules: Rules = replace(STANDARD, dealer_cap_basis=basis)
        self.rounds = rounds
        self.round = -1
        self.dealer = NOBODY
        self.dealt = [False] * players
        self.records: list[RoundRecord] = []
        self._holder: list[int] = []
        self._pending: dict[int, Claim] = {}
        self._start_round_state()
        if first is None:
            self._enter(FIRST_DEALER)
        else:
            self._begin_round(first)

    # ---- round bookkeeping ---------------------------------------------------------------------
    def _start_round_state(self) -> None:
        n = self.players
        self.rule_text: str | None = None
        self.rule: Rule | None = None
        self.committed = False
        self.hints: tuple[str, ...] = ()
        self.hint_text = ""
        self.dealer_claims: list[DealerClaim] = []
        self.order: tuple[int, ...] = ()
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.stock: list[int] = []
        self._group: dict[int, tuple[str, int]] = {}
        self.next_copy = self.rules.base_copies + 1
        self._deck_order: dict[str, int] = {BASE_DECK: 0}
        self._first_handle = len(self.cards)
        self.layout = Layout()
        self.sage = NOBODY
        self.was_sage = [False] * n
        self.eliminated = [False] * n
        self.cap_cards = 0
        self.current = NOBODY
        self.pending: Pending | None = None
        self.effects: list[Effect] = []
        self.turn_no = 0
        self.ended = False
        self.round_handles: tuple[int, ...] = ()
        self._known_card: dict[str, int] = {}
        self.last_event = ""

    def _begin_round(self, dealer: int) -> None:
        self.round += 1
        self.dealer = dealer
        self._start_round_state()
        self.order = tuple((dealer + 1 + i) % self.players for i in range(self.players - 1))
        self.records.append(RoundRecord(dealer))
        self._enter(RULE)

    def secret_name(self) -> str:
        return f"rule-{self.round + 1}"

    def _alloc(self, count: int, group: tuple[str, int]) -> tuple[int, ...]:
        handles = self._new_handles(count)
        self._holder.extend([NOBODY] * count)
        for h in handles:
            self._group[h] = group
        return handles

    def _enter(self, phase: int) -> None:
        self.phase = phase
        if phase == FIRST_DEALER:
            self._turn = Turn(TurnKind.CHANCE, chance=RandomChoice(self.players, "first-dealer"))
        elif phase in (RULE, HINT, JUDGE, ANSWER, DEALER_PICK, ANSWER_PICK, OPEN):
            self._turn = Turn(TurnKind.SEAT, (self.dealer,))
        elif phase in (CALL, SAGE_PICK):
            self._turn = Turn(TurnKind.SEAT, (self.sage,))
        elif phase == PLAY:
            self._turn = Turn(TurnKind.SEAT, (self.current,))
        elif phase == WINDOW:
            assert self.pending is not None
            self._turn = Turn(TurnKind.SEAT, (self.pending.seat,))
        elif phase == OVER:
            self._turn = _OVER
        # SHUFFLE, DEAL and EFFECTS set their own CHANCE / REVEAL turns

    def where(self) -> str:
        if self.phase in (RULE, HINT, SHUFFLE, DEAL, FIRST_DEALER):
            return tr("round {round}, before the deal", round=self.round + 1)
        if self.phase == OPEN or self.ended:
            return tr("round {round}, rule opening", round=self.round + 1)
        return tr("round {round}, play {play}", round=self.round + 1, play=self.turn_no)

    # ---- contract ------------------------------------------------------------------------------
    def turn(self) -> Turn:
        return self._turn

    def legal_moves(self, seat: int) -> list[Move]:
        turn = self._turn
        if turn.kind is not TurnKind.SEAT or seat not in turn.seats:
            return []
        phase = self.phase
        if phase == RULE:
            return [Commit(self.secret_name(), r.text) for r in LIBRARY]
        if phase == HINT:
            moves: list[Move] = [Hint((), "")]
            if self.rule_text is not None:
                moves.extend(Hint((h,), "") for h in true_hints(self.rule_text))
            return moves
        if phase == PLAY:
            return self._play_moves(seat)
        if phase in (JUDGE, CALL):
            cls = Judge if phase == JUDGE else Call
            options: list[Move] = [cls(RIGHT), cls(WRONG)]
            return self._only_true(seat, options) if phase == JUDGE else options
        if phase in (ANSWER, ANSWER_PICK):
            return self._only_true(seat, [Answer(YES), Answer(NO)])
        if phase == DEALER_PICK:
            assert self.pending is not None
            picks: list[Move] = [Pick(h, self.cards[h] or "") for h in self.hands[self.pending.seat]]
            return self._only_true(seat, picks)
        if phase == SAGE_PICK:
            assert self.pending is not None
            return [Pick(h, self.cards[h] or "") for h in self.hands[self.pending.seat]]
        if phase == WINDOW:
            return [DeclareSage(), Pass()]
        if phase == OPEN:
            return [Open(self.secret_name(), self.rule_text)] if self.rule_text is not None else []
        return []

    def _only_true(self, seat: int, options: list[Move]) -> list[Move]:
        """The dealer's peer judges from the rule (R34): only true statements when it is known."""
        if self.rule is None:
            return options
        out = []
        for move in options:
            question, expected, _ = self._statement(move)
            if self._truth(question) == expected:
                out.append(move)
        return out

    def _play_moves(self, seat: int) -> list[Move]:
        """Every single card and "no play", from the cards this state knows: the listed part of
        the move space (runs of 2–4 are legal through check(); bots and the terminal compose them)."""
        hand = [(h, self.cards[h]) for h in self.hands[seat]]
        known = [(h, c) for h, c in hand if c is not None]
        moves: list[Move] = [Play((h,), (c,)) for h, c in known]
        if len(known) == len(hand):
            moves.append(NoPlay(tuple(h for h, _ in hand), tuple(c for _, c in known)))
        return moves

    def move_reveals(self, seat: int, move: Move) -> tuple[Reveal, ...]:
        if isinstance(move, (Play, NoPlay)) and self.phase == PLAY and seat == self.current:
            return tuple(Reveal(h, PUBLIC, seat) for h in move.handles
                         if isinstance(h, int) and 0 <= h < len(self.seen) and PUBLIC not in self.seen[h])
        return ()

    def _on_learn(self, handle: int, card: str) -> None:
        try:
            standard_card(card)
        except UnknownCardError:
            raise EngineError(tr("{c} is not a standard card", c=repr(card))) from None
        if handle >= self._first_handle:  # the audit also feeds values of past rounds
            self._known_card[card] = handle

    # ---- chance and reveals --------------------------------------------------------------------
    def _resolve_chance(self, result: Any) -> None:
        if self.phase == FIRST_DEALER:
            if isinstance(result, bool) or not isinstance(result, int) or not 0 <= result < self.players:
                raise EngineError(f"the first dealer is a seat in [0, {self.players}), not {result!r}")
            self._begin_round(result)
            return
        chance = self._turn.chance
        assert isinstance(chance, Shuffle)
        if not isinstance(result, Mapping):
            raise EngineError("a shuffle result is a mapping handle -> card")
        if chance.cards:
            expected = sorted(chance.cards)
        elif self.omniscient:
            expected = sorted(self.cards[h] or "" for h in chance.source)
        else:
            expected = []
        if self.omniscient:
            if set(result) != set(chance.handles) or sorted(result.values()) != expected:
                raise EngineError("an omniscient shuffle result gives every handle one of the cards")
        for h, c in result.items():
            if h not in chance.handles or (chance.cards and c not in chance.cards):
                raise EngineError(f"shuffle value {h}->{c!r} does not belong to this shuffle")
            self.learn(h, c)
        if self.phase == SHUFFLE:
            self._deal_round()
        else:
            self._after_effect_chance(chance)

    def _resolve_reveals(self) -> None:
        if self.phase == DEAL:
            self._start_play()
        else:
            self._run_effects()

    # ---- setup ---------------------------------------------------------------------------------
    def _shuffle_round(self) -> None:
        self.phase = SHUFFLE
        self.round_handles = self._alloc(len(STANDARD_52X2), (BASE_DECK, self.round))
        self._turn = Turn(TurnKind.CHANCE, chance=Shuffle(BASE_DECK, self.round, self.round_handles,
                                                          STANDARD_52X2.ids))

    def _deal_round(self) -> None:
        """14 cards to each player, one at a time from the dealer's left; then the starter."""
        players = len(self.order)
        size = self.rules.hand_size
        reveals = []
        for i, h in enumerate(self.round_handles[:players * size]):
            seat = self.order[i % players]
            self._holder[h] = seat
            self.hands[seat].append(h)
            reveals.append(Reveal(h, seat, NOBODY))
        self.starter = self.round_handles[players * size]
        reveals.append(Reveal(self.starter, PUBLIC, NOBODY))
        self.stock = list(self.round_handles[players * size + 1:])
        self.phase = DEAL
        self._turn = Turn(TurnKind.REVEAL, reveals=tuple(reveals))

    def _start_play(self) -> None:
        card = self.cards[self.starter]
        if card is None:
            raise EngineError("the starter is public: its value must be given")
        self.layout.extend_main(self.starter, card)
        rank = standard_card(card).rank
        self.current = self.order[(rank - 1) % len(self.order)]  # §4.2, R6
        self.turn_no = 1
        self._enter(PLAY)

    # ---- moves ---------------------------------------------------------------------------------
    def _apply(self, seat: int, move: Move) -> None:
        if isinstance(move, Commit):
            self.committed = True
            self._record_commit(seat, move)  # learns the rule where the value is known
            self.dealt[seat] = True
            self._enter(HINT)
        elif isinstance(move, Hint):
            self.hints, self.hint_text = move.hints, move.text
            self.records[-1].hints = move.hints
            if move.hints:
                self._state_claim(seat, Question(HINTS_HOLD, 0, move.hints), True,
                            hint_statement(move.hints))
            self._shuffle_round()
        elif isinstance(move, (Play, NoPlay)):
            self._apply_play(seat, move)
        elif isinstance(move, Judge):
            self._apply_judge(seat, move)
        elif isinstance(move, Call):
            assert self.pending is not None
            self.pending.call = move.verdict
            self.last_event = tr("the Sage calls {verdict}",
                                 verdict=SAID.get(move.verdict, move.verdict))
            self._enter(ANSWER)
        elif isinstance(move, Answer):
            self._apply_answer(seat, move)
        elif isinstance(move, Pick):
            self._apply_pick(seat, move)
        elif isinstance(move, DeclareSage):
            self._apply_declare(seat)
        elif isinstance(move, Pass):
            self._next_player()
        elif isinstance(move, Open):
            self._apply_open(seat, move)

    def _learn_rule(self, text: str) -> None:
        self.rule = compile_rule(text)
        self.rule_text = text

    def _on_learn_secret(self, name: str, value: str) -> None:
        """The rule became known: at its commitment (the dealer's own state, an omniscient one)
        or at its opening, when every pending statement is decided in the order made (§7.6)."""
        if name != self.secret_name():
            return
        try:
            self._learn_rule(value)
        except ErlError as exc:
            self._void_round(None, f"the rule is not valid ERL: {exc}", self.where())
            return
        for record in self.dealer_claims:
            claim = self._pending.pop(record.id)
            if self._truth(record.question) != record.expected:
                self._void_round(claim, record.reason(), record.where)
                return
            self._settle_claim(claim)
        self.dealer_claims = []

    def _void_round(self, claim: Claim | None, reason: str, where: str) -> None:
        """The dealer is at fault (§7.7, R35, L1): the finding is recorded against him (his first
        false statement, or the invalid rule he opened), the round is void — nobody scores, he
        has dealt — and the game goes on. His other statements no longer matter."""
        finding = self._record_finding(claim, self.dealer, reason, where)
        for pending in self._pending.values():
            self._settle_claim(pending)
        self._pending.clear()
        self.dealer_claims = []
        self.records[-1].void = finding.to_json()

    def _sudden(self) -> bool:
        """Sudden death for a play made now (§4.13, R20)."""
        if self.sage >= 0:
            return self.layout.size - self.layout.marker >= self.rules.sudden_death_after_marker
        return self.layout.size >= self.rules.sudden_death_layout

    def _apply_play(self, seat: int, move: Play | NoPlay) -> None:
        for h, c in zip(move.handles, move.cards):
            if self.cards[h] is None:
                self.learn(h, c)
            self.seen[h] = {PUBLIC}
        no_play = isinstance(move, NoPlay)
        if not no_play:
            for h in move.handles:
                self.hands[seat].remove(h)
                self._holder[h] = NOBODY
        self.pending = Pending(seat, move.handles, move.cards, no_play, self._sudden(),
                               len(self.layout.main))
        who = f"seat {seat}"
        self.last_event = tr("{who} declares \"no play\"", who=who) if no_play else \
            tr("{who} plays {cards}", who=who, cards=" ".join(move.cards))
        self._enter(CALL if self.sage >= 0 else JUDGE)

    def _apply_judge(self, seat: int, move: Judge) -> None:
        p = self.pending
        assert p is not None
        question, expected, statement = self._statement(move)
        self._state_claim(seat, question, expected, statement)
        right = move.verdict == RIGHT
        self.last_event = tr("the dealer says {verdict}",
                             verdict=SAID.get(move.verdict, move.verdict))
        if not p.no_play:
            self._settle_cards(right)
        elif right:
            self._settle_no_play_right()
        else:
            self._enter(DEALER_PICK)

    def _apply_answer(self, seat: int, move: Answer) -> None:
        p = self.pending
        assert p is not None
        question, expected, statement = self._statement(move)
        self._state_claim(seat, question, expected, statement)
        yes = move.answer == YES
        self.last_event = tr("the dealer answers {answer}",
                             answer=SAID.get(move.answer, move.answer))
        if self.phase == ANSWER_PICK:
            if yes:
                self._take_from_hand(p.proposal)
            else:
                p.proposal = NOBODY
                self._depose()
                self._enter(DEALER_PICK)
            return
        if not yes:
            self._depose()
        if not p.no_play:
            self._settle_cards(expected)
        elif expected:  # the player truly holds no correct card (cases 1 and 3 of §4.11)
            self._settle_no_play_right()
        elif yes:  # case 4: the Sage names the correct card
            self._enter(SAGE_PICK)
        else:  # case 2: the dealer takes a correct card
            self._enter(DEALER_PICK)

    def _apply_pick(self, seat: int, move: Pick) -> None:
        p = self.pending
        assert p is not None
        if self.phase == SAGE_PICK:
            p.proposal = move.handle
            self.last_event = tr("the Sage names {card}", card=move.card)
            self._enter(ANSWER_PICK)
            return
        question, expected, statement = self._statement(move)
        self._state_claim(seat, question, expected, statement)
        self._take_from_hand(move.handle)

    def _depose(self) -> None:
        """The Sage is a false prophet (R18): marker removed, 5 cards, never Sage again."""
        deposed = self.sage
        assert deposed >= 0 and self.pending is not None
        self.sage = NOBODY
        self.layout.marker = 0
        self.cap_cards = 0
        self.pending.penalise = False  # R19
        self.effects.append(Effect("deal", deposed, self.rules.penalty_false_prophet))
        self.last_event = tr("{who} is a false prophet", who=f"seat {deposed}")

    # ---- settling a play -----------------------------------------------------------------------
    def _settle_cards(self, right: bool) -> None:
        p = self.pending
        assert p is not None
        if right:
            for h, c in zip(p.handles, p.cards):
                placed = self.layout.extend_main(h, c)
        else:
            placed = self.layout.add_side(list(zip(p.handles, p.cards)))[-1]
            if p.penalise:
                self.effects.append(Effect("deal", p.seat, self.rules.penalty_per_card * len(p.handles)))
                p.eliminate = p.sudden
        p.marker_at = placed.number
        self.effects.append(Effect("finish"))
        self._run_effects()

    def _take_from_hand(self, handle: int) -> None:
        """A correct card of a wrong "no play" hand goes to the main line (§4.8, R10, R17)."""
        p = self.pending
        assert p is not None
        self.hands[p.seat].remove(handle)
        self._holder[handle] = NOBODY
        placed = self.layout.extend_main(handle, self.cards[handle] or "")
        p.marker_at = placed.number
        if p.penalise:
            self.effects.append(Effect("deal", p.seat, self.rules.penalty_no_play))
            p.eliminate = p.sudden
        self.effects.append(Effect("finish"))
        self._run_effects()

    def _settle_no_play_right(self) -> None:
        """The hand goes back to the stock: a new hand of k − 4, or the round ends (§4.8, R9, R11)."""
        p = self.pending
        assert p is not None
        hand = self.hands[p.seat]
        k = len(hand)
        for h in hand:
            self._holder[h] = NOBODY
        self.hands[p.seat] = []
        if k > self.rules.no_play_shrink:
            groups: dict[tuple[str, int], list[int]] = {}
            for h in hand:
                groups.setdefault(self._group[h], []).append(h)
            for group in sorted(groups, key=self._group_key):
                self.effects.append(Effect("reshuffle", group=group, returned=tuple(groups[group])))
            self.effects.append(Effect("deal", p.seat, k - self.rules.no_play_shrink))
        p.marker_at = -1  # on the most recently placed card (R14), known only at the window
        self.effects.append(Effect("finish"))
        self._run_effects()

    # ---- after a play is resolved ----------------------------------------------------------------
    def _finish(self) -> None:
        p = self.pending
        assert p is not None
        seat = p.seat
        if p.eliminate:
            self.eliminated[seat] = True
            self.last_event = tr("{who} is eliminated", who=f"seat {seat}")
        if not self.hands[seat]:
            self._end_round()
            return
        if all(self.eliminated[s] for s in self.order if s != self.sage):
            self._end_round()
            return
        if not self.eliminated[seat] and sage_rules.may_declare(
                seat, self.sage, self.eliminated, self.was_sage, self.order):
            if p.marker_at < 0:
                p.marker_at = self.layout.size
            self._enter(WINDOW)
            return
        self._next_player()

    def _apply_declare(self, seat: int) -> None:
        p = self.pending
        assert p is not None
        self.sage = seat
        self.was_sage[seat] = True
        self.layout.marker = p.marker_at
        self.cap_cards = p.marker_at  # C: the layout size when he declared, marked card included
        self.last_event = tr("{who} declares himself Sage", who=f"seat {seat}")
        self._next_player()

    def _next_player(self) -> None:
        """Clockwise from the player who just played, skipping the Sage and eliminated players."""
        p = self.pending
        assert p is not None
        self.pending = None
        k = len(self.order)
        start = self.order.index(p.seat)
        for step in range(1, k + 1):
            seat = self.order[(start + step) % k]
            if seat != self.sage and not self.eliminated[seat]:
                self.current = seat
                self.turn_no += 1
                self._enter(PLAY)
                return
        self._end_round()

    # ---- the round's end -------------------------------------------------------------------------
    def _end_round(self) -> None:
        self.ended = True
        self.pending = None
        self._enter(OPEN)

    def _apply_open(self, seat: int, move: Open) -> None:
        self._record_open(seat, move)  # decides every pending claim (_on_learn_secret): may void
        self._score_round()

    def _score_round(self) -> None:
        rec = self.records[-1]
        if rec.void is not None:  # L18: the scores of a void round are never computed
            rec.rule = self.secrets[self.secret_name()].value or ""
            rec.sage, rec.layout = self.sage, self.layout.size
            self._next_round()
            return
        hands: list[int | None] = [None if s == self.dealer else len(self.hands[s])
                                   for s in range(self.players)]
        bonus = sage_rules.bonus(self.layout) if self.sage >= 0 else 0
        if self.rules.dealer_cap_basis == "before":
            cap = self.cap_cards
        else:
            cap = self.layout.size - self.layout.marker
        rec.scores = scoring.round_scores(self.rules, hands, self.sage, bonus, cap)
        rec.rule = self.rule_text or ""
        rec.sage = self.sage
        rec.layout = self.layout.size
        self._next_round()

    def _next_round(self) -> None:
        if self.round + 1 >= self.rounds:
            self._enter(OVER)
        else:
            self._begin_round((self.dealer + 1) % self.players)  # R27: the deal passes left

    def totals(self) -> list[int]:
        done = [r.scores for r in self.records if r.scores]
        return scoring.totals(self.rules, done, self.dealt)

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        totals = self.totals()
        return Outcome(scores=tuple(totals), winners=scoring.winners(totals),
                       detail={"rounds": [r.to_json() for r in self.records],
                               "dealt": list(self.dealt)})

    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def card_of(self, handle: int) -> str:
        card = self.cards[handle]
        return card if card is not None else ""

    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]
