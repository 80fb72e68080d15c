"""The sinople tarot state machine (spec/games/sinople.md).

One class for the three modes of the engine contract. Every rule is written against `self._val`
(card index per handle, -1 when this state does not know it): in omniscient mode everything is
known and checks run at once; in a seat's or an observer's state, unknown hand cards turn the
opener-search and following checks into claims (rules §9) that `ClaimBook` decides when the cards
show. Hot-path data are plain ints and lists; turns are cached and rebuilt only on transitions.
"""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.engine.errors import EngineError, IllegalMove, NotYourTurn
from p2ptarot.engine.state import GameState
from p2ptarot.engine.types import (NOBODY, PUBLIC, Move, Outcome, Pass, RandomChoice, Reveal,
                                   Shuffle, Turn, TurnKind)

from . import scoring
from .claims import NOT_HOLDING, VOID_IN, ClaimBook
from .moves import MOVES, Play, Show
from .rules import (CLASS_NAMES, CLS, DEAL, FIGURE_DECK, FIGURE_IDS, FIG_SHUFFLE, FIRST_DEALER,
                    HAND_SIZE, ID, INDEX, MAX_OPENER_VALUE, NUMERIC_DECK, NUMERIC_IDS, NUM_SHUFFLE,
                    OPENER, OVER, PHASE_NAMES, PLAY, ROLE, ROUNDS, TURN_UP, VAL, VOID, numeric)
from .view import build_view
from p2ptarot.i18n.message import tr

_OVER_TURN = Turn(TurnKind.OVER)


class SinopleState(GameState):
    """A game of sinople tarot for 2–5 players, 9 rounds."""

    NAME = "sinople"
    MOVES = MOVES

    def __init__(self, players: int, variant: str | None = None,
                 options: Mapping[str, Any] | None = None, omniscient: bool = True,
                 viewer: int | None = None) -> None:
        super().__init__(players, variant, options or {}, omniscient, viewer)
        n = players
        self.hand_size = HAND_SIZE[n]
        self._val: list[int] = []  # handle -> card index, -1 unknown here
        self._holder: list[int] = []  # handle -> seat whose hand holds it, NOBODY otherwise
        self._book = ClaimBook(self)
        self._plays: dict[int, Play] = {}
        self._seat_turns = tuple(Turn(TurnKind.SEAT, (s,)) for s in range(n))
        # game-long state
        self.round = 0  # 0-based round index
        self.dealer = NOBODY
        self.fig_handles = self._alloc(len(FIGURE_IDS))
        self.figures_won: list[list[int]] = [[] for _ in range(n)]
        self.removed: list[int] = []
        self.history: list[dict[str, Any]] = []
        # round state
        self.figure = -1
        self.num_handles: tuple[int, ...] = ()
        self.surplus: tuple[int, ...] = ()
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self._known_at: dict[int, int] = {}  # card index -> handle, this round's numeric handles
        self.search_value = 0
        self._order: tuple[int, ...] = ()
        self._pos = 0
        self.opener = NOBODY
        self.shown = NOBODY
        self.leader = NOBODY
        self.to_play = NOBODY
        self.trick: list[tuple[int, int, int]] = []  # (seat, handle, card index)
        self.led = -1
        self.trick_no = 0
        self.won: list[list[int]] = [[] for _ in range(n)]
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.last_trick: list[tuple[int, int, int]] = []
        self.last_winner = NOBODY
        self._liars: list[IllegalMove] = []  # VOID: the search's claims the audit proved false
        self._enter(FIG_SHUFFLE)

    # ---- bookkeeping ---------------------------------------------------------------------------
    def _alloc(self, count: int) -> tuple[int, ...]:
        handles = self._new_handles(count)
        self._val.extend([-1] * count)
        self._holder.extend([NOBODY] * count)
        return handles

    def _enter(self, phase: int) -> None:
        """Switch phase and rebuild the cached turn."""
        self.phase = phase
        if phase == FIG_SHUFFLE:
            self._turn = Turn(TurnKind.CHANCE, chance=Shuffle(FIGURE_DECK, 0, self.fig_handles, FIGURE_IDS))
        elif phase == FIRST_DEALER:
            self._turn = Turn(TurnKind.CHANCE, chance=RandomChoice(self.players, "first-dealer"))
        elif phase == TURN_UP:
            self._turn = Turn(TurnKind.REVEAL,
                              reveals=(Reveal(self.fig_handles[self.round], PUBLIC, NOBODY),))
        elif phase == NUM_SHUFFLE:
            self._turn = Turn(TurnKind.CHANCE,
                              chance=Shuffle(NUMERIC_DECK, self.round, self.num_handles, NUMERIC_IDS))
        elif phase == DEAL:
            self._turn = Turn(TurnKind.REVEAL, reveals=tuple(
                Reveal(h, self._holder[h], NOBODY) for h in self.num_handles[:self.players * self.hand_size]))
        elif phase == OPENER:
            self._turn = Turn(TurnKind.INTERRUPT, seats=self._order)
        elif phase == PLAY:
            self._turn = self._seat_turns[self.to_play]
        else:  # OVER, or VOID: the game stops and the audit decides (spec ruling S2)
            self._turn = _OVER_TURN

    def _where(self) -> str:
        if self.phase == OPENER:
            return tr("round {round}, opener search for {card}",
                      round=self.round + 1, card=ID[self._target()])
        return tr("round {round}, trick {trick}", round=self.round + 1, trick=self.trick_no + 1)

    def _target(self) -> int:
        return numeric(CLS[self.figure], self.search_value)

    # ---- contract ------------------------------------------------------------------------------
    def turn(self) -> Turn:
        return self._turn

    def legal_moves(self, seat: int) -> list[Move]:
        phase = self.phase
        if phase == PLAY:
            if seat != self.to_play:
                return []
            val = self._val
            hand = self.hands[seat]
            if self.led >= 0:
                led = self.led
                follow = [h for h in hand if val[h] >= 0 and CLS[val[h]] == led]
                if follow:
                    return [self._play(h) for h in follow]
            return [self._play(h) for h in hand if val[h] >= 0]
        if phase == OPENER and 0 <= seat < self.players:
            target = self._target()
            for h in self.hands[seat]:
                if self._val[h] == target:
                    return [Show(h, ID[target])]
            return [Pass()]
        return []

    def _play(self, handle: int) -> Play:
        move = self._plays.get(handle)
        if move is None:
            move = self._plays[handle] = Play(handle, ID[self._val[handle]])
        return move

    def move_reveals(self, seat: int, move: Move) -> tuple[Reveal, ...]:
        if isinstance(move, (Play, Show)):
            return (Reveal(move.handle, PUBLIC, seat),)
        return ()

    def _on_learn(self, handle: int, card: str) -> None:
        idx = INDEX.get(card)
        if idx is None:
            raise EngineError(f"{card!r} is not a sinople card")
        self._val[handle] = idx
        if self.num_handles and self.num_handles[0] <= handle <= self.num_handles[-1]:
            self._known_at[idx] = handle
        if self.phase != VOID:
            self._book.learnt(handle, idx)
            return
        self._book.learnt(handle, idx, self._liars)
        if self._liars and not self.claims:
            self._convict_liars()

    def _convict_liars(self) -> None:
        """VOID (ruling S2): every seat denied every card of the round class, so someone lied;
        the audit has now decided every denial. Blame the first seat proven to have denied a card
        it held, naming every other one."""
        first = self._liars[0]
        others = sorted({e.seat for e in self._liars} - {first.seat})
        also = tr("; seat(s) {seats} also denied a card they held",
                  seats=", ".join(map(str, others))) \
            if others else ""
        raise IllegalMove(first.seat, tr("{reason} (the opener search found no opener){also}",
                                         reason=first.reason, also=also),
                          first.where, claim=first.claim)

    # ---- chance and reveals --------------------------------------------------------------------
    def _resolve_chance(self, result: Any) -> None:
        phase = self.phase
        if phase == FIRST_DEALER:
            if isinstance(result, bool) or not isinstance(result, int) or not 0 <= result < self.players:
                raise EngineError(f"first dealer must be a seat in [0, {self.players}), got {result!r}")
            self.dealer = result
            self._enter(TURN_UP)
        elif phase == FIG_SHUFFLE:
            self._take_shuffle(self.fig_handles, FIGURE_IDS, result)
            self._enter(FIRST_DEALER)
        else:
            self._take_shuffle(self.num_handles, NUMERIC_IDS, result)
            n = self.players
            dealt = n * self.hand_size
            for i, h in enumerate(self.num_handles[:dealt]):  # R9: position i -> dealer + 1 + i
                seat = (self.dealer + 1 + i) % n
                self._holder[h] = seat
                self.hands[seat].append(h)
            self.surplus = self.num_handles[dealt:]
            self._enter(DEAL)

    def _take_shuffle(self, handles: tuple[int, ...], cards: tuple[str, ...], result: Any) -> None:
        if not isinstance(result, Mapping):
            raise EngineError("a shuffle result is a mapping handle -> card")
        if self.omniscient:
            if set(result) != set(handles) or sorted(result.values()) != sorted(cards):
                raise EngineError("an omniscient shuffle result must give every handle a distinct card")
            for h, c in result.items():
                self.cards[h] = c
                idx = INDEX[c]
                self._val[h] = idx
                if idx < 30:
                    self._known_at[idx] = h
            return
        allowed = set(cards)
        for h, c in result.items():
            if h not in handles or c not in allowed:
                raise EngineError(f"shuffle value {h}->{c!r} does not belong to this shuffle")
            self.learn(h, c)

    def _resolve_reveals(self) -> None:
        if self.phase == TURN_UP:
            handle = self.fig_handles[self.round]
            if self._val[handle] < 0:
                raise EngineError("the turned-up figure is public: its value must be given")
            self.figure = self._val[handle]
            self._start_deal()
        else:  # DEAL
            self.search_value = 0
            self._order = tuple((self.dealer + 1 + i) % self.players for i in range(self.players))
            self._pos = 0
            self._enter(OPENER)

    def _start_deal(self) -> None:
        n = self.players
        self.num_handles = self._alloc(len(NUMERIC_IDS))
        self.hands = [[] for _ in range(n)]
        self._known_at = {}
        self._plays = {}
        self.won = [[] for _ in range(n)]
        self.played = [[] for _ in range(n)]
        self.trick, self.led, self.trick_no = [], -1, 0
        self.opener = self.shown = self.leader = self.to_play = NOBODY
        self._enter(NUM_SHUFFLE)

    # ---- moves ---------------------------------------------------------------------------------
    def _check(self, seat: int, move: Move) -> None:
        """Pure legality from this state's knowledge; unknown hand cards are left to claims."""
        if self.phase == PLAY:
            if type(move) is not Play:
                raise IllegalMove(seat, tr("only a card may be played now, not {KIND}",
                                           KIND=move.KIND), self._where())
            self._check_play(seat, move)
            return
        if type(move) not in (Pass, Show):
            raise IllegalMove(seat, tr("the opener search takes only show or pass"), self._where())
        if seat not in self._order[self._pos:]:
            raise NotYourTurn(seat, tr("this seat already answered in this opener search"),
                              self._where())
        target = self._target()
        if type(move) is Pass:
            if any(self._val[h] == target for h in self.hands[seat]):
                raise IllegalMove(seat, tr("passed while holding {target} (false not-holding claim)",
                                           target=ID[target]),
                                  self._where())
            return
        assert isinstance(move, Show)
        if move.card != ID[target]:
            raise IllegalMove(seat, tr("showed {card}; the search asks for {target}",
                                       card=repr(move.card), target=ID[target]), self._where())
        self._check_public(seat, move.handle, target)

    def _check_play(self, seat: int, move: Play) -> None:
        idx = INDEX.get(move.card, 99)
        if idx >= 30:
            raise IllegalMove(seat, tr("{card} is not a numeric sinople card",
                                       card=repr(move.card)), self._where())
        self._check_public(seat, move.handle, idx)
        led = self.led
        if led >= 0 and CLS[idx] != led:
            for h in self.hands[seat]:
                v = self._val[h]
                if v >= 0 and CLS[v] == led and h != move.handle:
                    raise IllegalMove(seat, tr("must follow class {upper}: holds {v}",
                                               upper='abc'[led].upper(), v=ID[v]),
                                      self._where())

    def _apply(self, seat: int, move: Move) -> None:
        if type(move) is Play:
            self._apply_play(seat, move)
        elif type(move) is Pass:
            self._apply_search_pass(seat)
        else:
            assert isinstance(move, Show)
            self._apply_show(seat, move)

    def _check_search_seat(self, seat: int) -> None:
        """Answers in one search window are decided together (INTERRUPT) but applied in seat
        order: the order is enforced when applying."""
        expected = self._order[self._pos]
        if seat != expected:
            raise NotYourTurn(seat, tr("the opener search waits for seat {expected}",
                                       expected=expected), self._where())

    def _apply_search_pass(self, seat: int) -> None:
        self._check_search_seat(seat)
        target = self._target()
        self._watch_for_audit(h for h in self.hands[seat] if PUBLIC not in self.seen[h])
        unknown = [h for h in self.hands[seat] if self._val[h] < 0]
        if unknown:
            self._book.add_not_holding(self._claim(seat, NOT_HOLDING, (("card", ID[target]),),
                                                   self._where()), target, unknown)
        self._pos += 1
        if self._pos == self.players:
            self._pos = 0
            self.search_value += 1
            if self.search_value > MAX_OPENER_VALUE:  # spec S2: only reachable if someone lied
                self._enter(VOID)  # which seat lied only the audit can tell: it decides

    def _apply_show(self, seat: int, move: Show) -> None:
        self._check_search_seat(seat)
        target = self._target()
        self._take_public(move.handle, target)
        self.opener = self.leader = self.to_play = seat
        self.shown = move.handle
        self._enter(PLAY)

    def _check_public(self, seat: int, handle: int, idx: int) -> None:
        """A card of `seat`'s hand may go face up as card `idx`: ownership and known value."""
        if not 0 <= handle < len(self._holder) or self._holder[handle] != seat:
            raise IllegalMove(seat, tr("does not hold handle {handle}",
                                       handle=handle), self._where())
        known = self._val[handle]
        if known < 0:
            other = self._known_at.get(idx)
            if other is not None and other != handle:
                raise IllegalMove(seat, tr("{idx} is already known at handle {other}",
                                           idx=ID[idx], other=other), self._where())
        elif known != idx:
            raise IllegalMove(seat, tr("handle {handle} holds {known}, not {idx}",
                                       handle=handle, known=ID[known], idx=ID[idx]), self._where())

    def _take_public(self, handle: int, idx: int) -> None:
        """A checked card goes face up: learn it."""
        if self._val[handle] < 0:
            self.learn(handle, ID[idx])
        self.seen[handle] = {PUBLIC}

    def _apply_play(self, seat: int, move: Play) -> None:
        idx = INDEX[move.card]
        self._take_public(move.handle, idx)
        hand = self.hands[seat]
        led = self.led
        if led >= 0 and CLS[idx] != led:
            self._watch_for_audit(h for h in hand if PUBLIC not in self.seen[h])
            unknown = [h for h in hand if self._val[h] < 0]
            if unknown:
                self._book.add_void_in(self._claim(seat, VOID_IN, (("class", CLASS_NAMES[led]),),
                                                   self._where()), led, unknown)
        hand.remove(move.handle)
        self._holder[move.handle] = NOBODY
        self.played[seat].append(idx)
        trick = self.trick
        trick.append((seat, move.handle, idx))
        if led < 0:
            self.led = CLS[idx]
        if len(trick) < self.players:
            self.to_play = (seat + 1) % self.players
            self._turn = self._seat_turns[self.to_play]
            return
        winner = trick[scoring.trick_winner([VAL[c] for _, _, c in trick])][0]
        self.won[winner].extend(c for _, _, c in trick)
        self.last_trick, self.last_winner = trick, winner
        self.trick, self.led = [], -1
        self.trick_no += 1
        if self.trick_no == self.hand_size:
            self._score_round()
        else:
            self.leader = self.to_play = winner
            self._turn = self._seat_turns[winner]

    # ---- scoring -------------------------------------------------------------------------------
    def round_points(self) -> list[int]:
        """pts(p) so far this round: values of round-class cards in each won pile (R3)."""
        k = CLS[self.figure] if self.figure >= 0 else -1
        return [sum(VAL[c] for c in pile if CLS[c] == k) for pile in self.won]

    def _score_round(self) -> None:
        k = CLS[self.figure]
        points = self.round_points()
        dealt = [[VAL[c] for c in cards if CLS[c] == k] for cards in self.played]
        winner = scoring.award(ROLE[self.figure], points, dealt, self.players)
        self.history.append({
            "round": self.round + 1, "figure": ID[self.figure], "dealer": self.dealer,
            "opener": self.opener, "points": points, "winner": winner,
            "won": [[ID[c] for c in pile] for pile in self.won],
        })
        if winner is None:
            self.removed.append(self.figure)
        else:
            self.figures_won[winner].append(self.figure)
            self.dealer = winner  # R15; otherwise the same dealer deals again
        self.round += 1
        if self.round == ROUNDS:
            self._enter(OVER)
        else:
            self._enter(TURN_UP)

    def keys(self) -> list[tuple[int, int, int, int]]:
        return [scoring.rank_key([ROLE[f] for f in figs]) for figs in self.figures_won]

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        keys = self.keys()
        return Outcome(
            scores=tuple(len(f) for f in self.figures_won),
            winners=scoring.winners(keys),
            detail={"keys": [list(k) for k in keys],
                    "figures": [[ID[f] for f in figs] for figs in self.figures_won],
                    "removed": [ID[f] for f in self.removed],
                    "rounds": [dict(r) for r in self.history]},
        )

    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)
