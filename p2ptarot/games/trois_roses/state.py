"""The trois roses state machine (spec/games/roses.md, rules §2).

One class for the three modes of the engine contract. Every rule is written against `self._val`
(card index per handle, -1 when this state does not know it): in omniscient mode and for the
seat's own hand everything is known and checked at once; otherwise the obligations a play depends
on become claims (§2.10) that `ClaimBook` decides when the cards open — every dealt card is
played, so every claim is decided by the end of its deal.
"""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.engine.errors import EngineError, IllegalMove, NotYourTurn
from p2ptarot.engine.state import GameState
from p2ptarot.engine.types import (NOBODY, PUBLIC, Move, Outcome, RandomChoice, Reveal, Shuffle,
                                   Turn, TurnKind)
from p2ptarot.cards.roses_tables import DECK, DECK_IDS, ID, INDEX, IS_ROSE, POINTS

from . import scoring, trick
from .claims import ClaimBook
from .deal import deal_seats
from .moves import MOVES, Play
from .legal import Denial, demand, denials, legal_cards, threshold
from .rules import (DEAL, FIRST_DEALER, OVER, PHASE_NAMES, PLAY, SHUFFLE, TROIS_ROSES, VARIANTS,
                    Rules)
from .view import build_view
from p2ptarot.i18n.message import tr

_OVER_TURN = Turn(TurnKind.OVER)


class TroisRosesState(GameState):
    """A match of *le jeu des trois roses* for 3–5 players (one deal per player as dealer)."""

    NAME = "trois-roses"
    MOVES = MOVES

    def __init__(self, players: int, variant: str | None = None,
                 options: Mapping[str, Any] | None = None, omniscient: bool = True,
                 viewer: int | None = None) -> None:
        rules = VARIANTS[variant or TROIS_ROSES.name]  # checked by `create`
        super().__init__(players, variant, {}, omniscient, viewer)
        self.rules: Rules = rules
        n = players
        self.hand_size = rules.hand_size[n]
        self.target = rules.target[n]
        self.deal_count = rules.deal_count(n)
        self._val: list[int] = []  # handle -> card index, -1 unknown here
        self._holder: list[int] = []  # handle -> seat whose hand holds it, NOBODY otherwise
        self._handle_of: dict[int, int] = {}  # card index -> handle, this deal's known values
        self._book = ClaimBook(self)
        self._seat_turns = tuple(Turn(TurnKind.SEAT, (s,)) for s in range(n))
        self._plays: dict[int, Play] = {}
        # match state
        self.deal_no = 0  # 0-based
        self.dealer = NOBODY
        self.totals = [0] * n
        self.history: list[dict[str, Any]] = []
        # deal state
        self.deal_handles: tuple[int, ...] = ()
        self.surplus: tuple[int, ...] = ()
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.won: list[list[int]] = [[] for _ in range(n)]
        self.trick: list[tuple[int, int, int]] = []  # (seat, handle, card index)
        self.trick_no = 0
        self.leader = self.to_play = NOBODY
        self.last_trick: list[tuple[int, int, int]] = []
        self.last_winner = NOBODY
        self.last_excused: list[int] = []  # seats whose card was excused in the last trick
        self._enter(FIRST_DEALER)

    # ---- bookkeeping ---------------------------------------------------------------------------
    def _enter(self, phase: int) -> None:
        self.phase = phase
        if phase == FIRST_DEALER:
            self._turn = Turn(TurnKind.CHANCE, chance=RandomChoice(self.players, "first-dealer"))
        elif phase == SHUFFLE:
            self._turn = Turn(TurnKind.CHANCE, chance=Shuffle(DECK, self.deal_no, self.deal_handles, DECK_IDS))
        elif phase == DEAL:
            self._turn = Turn(TurnKind.REVEAL, reveals=tuple(
                Reveal(h, self._holder[h], NOBODY) for h in self.deal_handles if self._holder[h] >= 0))
        elif phase == PLAY:
            self._turn = self._seat_turns[self.to_play]
        else:
            self._turn = _OVER_TURN

    def _where(self) -> str:
        return tr("deal {deal}, trick {trick}", deal=self.deal_no + 1, trick=self.trick_no + 1)

    # ---- contract ------------------------------------------------------------------------------
    def turn(self) -> Turn:
        return self._turn

    def legal_moves(self, seat: int) -> list[Move]:
        if self.phase != PLAY or seat != self.to_play:
            return []
        val = self._val
        # the known cards only (RR5): exact for a fully known hand; with hidden cards, those a
        # known card already forbids are left out, the others may still turn out to be reneges
        known = [h for h in self.hands[seat] if val[h] >= 0]
        allowed = set(legal_cards([c for _, _, c in self.trick], [val[h] for h in known]))
        return [self._play(h) for h in known if val[h] in allowed]

    def _play(self, handle: int) -> Play:
        move = self._plays.get(handle)
        if move is None:
            move = self._plays[handle] = Play(handle, ID[self._val[handle]])
        return move

    def move_reveals(self, seat: int, move: Move) -> tuple[Reveal, ...]:
        if isinstance(move, Play):
            return (Reveal(move.handle, PUBLIC, seat),)
        return ()

    def _on_learn(self, handle: int, card: str) -> None:
        idx = INDEX.get(card)
        if idx is None:
            raise EngineError(tr("{card} is not a Tarot des Roses card", card=repr(card)))
        if self.deal_handles and self.deal_handles[0] <= handle <= self.deal_handles[-1]:
            other = self._handle_of.get(idx)
            if other is not None and other != handle:
                raise EngineError(tr("{idx} is already known at handle {other}",
                                     idx=card, other=other))
            self._handle_of[idx] = handle
        self._val[handle] = idx
        self._book.learnt(handle, idx)

    # ---- chance and reveals --------------------------------------------------------------------
    def _resolve_chance(self, result: Any) -> None:
        if self.phase == FIRST_DEALER:
            if isinstance(result, bool) or not isinstance(result, int) or not 0 <= result < self.players:
                raise EngineError(f"first dealer must be a seat in [0, {self.players}), got {result!r}")
            self.dealer = result
            self._start_deal()
            return
        self._take_shuffle(result)
        seats = deal_seats(self.players, self.dealer, self.hand_size)
        for h, seat in zip(self.deal_handles, seats):
            self._holder[h] = seat
            self.hands[seat].append(h)
        self.surplus = self.deal_handles[len(seats):]
        self._enter(DEAL)

    def _take_shuffle(self, result: Any) -> None:
        if not isinstance(result, Mapping):
            raise EngineError("a shuffle result is a mapping handle -> card")
        handles = self.deal_handles
        if self.omniscient:
            if set(result) != set(handles) or sorted(result.values()) != sorted(DECK_IDS):
                raise EngineError("an omniscient shuffle result must give every handle a distinct card")
            for h in handles:
                self.learn(h, result[h])
            return
        for h, c in result.items():
            if h not in handles or c not in INDEX:
                raise EngineError(f"shuffle value {h}->{c!r} does not belong to this shuffle")
            self.learn(h, c)

    def _resolve_reveals(self) -> None:
        self.leader = self.to_play = (self.dealer + 1) % self.players  # TR17
        self._enter(PLAY)

    def _start_deal(self) -> None:
        n = self.players
        self.deal_handles = self._new_handles(len(DECK_IDS))
        self._val.extend([-1] * len(DECK_IDS))
        self._holder.extend([NOBODY] * len(DECK_IDS))
        self._handle_of = {}
        self._plays = {}
        self.hands = [[] for _ in range(n)]
        self.won = [[] for _ in range(n)]
        self.trick, self.trick_no = [], 0
        self.last_trick, self.last_winner, self.last_excused = [], NOBODY, []
        self.leader = self.to_play = NOBODY
        self._enter(SHUFFLE)

    # ---- moves ---------------------------------------------------------------------------------
    def _judge(self, seat: int, move: Move) -> tuple[int, list[tuple[Denial, list[int]]]]:
        """Pure legality of `move` by `seat` from this state's knowledge: the card index played and
        the denials it makes with the hand handles each still has to be checked against."""
        if self.phase != PLAY:
            raise NotYourTurn(seat, tr("no card is played now"), self._where())
        if seat != self.to_play:
            raise NotYourTurn(seat, tr("the trick waits for seat {to_play}",
                                       to_play=self.to_play), self._where())
        if type(move) is not Play:
            raise IllegalMove(seat, tr("only a card may be played now, not {KIND}",
                                       KIND=move.KIND), self._where())
        idx = INDEX.get(move.card, -1) if isinstance(move.card, str) else -1
        if idx < 0:
            raise IllegalMove(seat, tr("{card} is not a Tarot des Roses card",
                                       card=repr(move.card)), self._where())
        handle = move.handle
        if (isinstance(handle, bool) or not isinstance(handle, int) or not 0 <= handle < len(self._holder)
                or self._holder[handle] != seat or handle not in self.hands[seat]):
            raise IllegalMove(seat, tr("does not hold handle {handle}",
                                       handle=repr(handle)), self._where())
        known = self._val[handle]
        if known >= 0 and known != idx:
            raise IllegalMove(seat, tr("handle {handle} holds {known}, not {idx}",
                                       handle=handle, known=ID[known], idx=ID[idx]), self._where())
        if known < 0:
            other = self._handle_of.get(idx)
            if other is not None and other != handle:
                raise IllegalMove(seat, tr("{idx} is known to be at handle {other}",
                                           idx=ID[idx], other=other), self._where())
        checks: list[tuple[Denial, list[int]]] = []
        for denial in denials([c for _, _, c in self.trick], idx):
            unknown = []
            for h in self.hands[seat]:
                if h == handle:
                    continue
                v = self._val[h]
                if v < 0:
                    unknown.append(h)
                elif denial.ruled_out(v):
                    raise IllegalMove(seat, tr("played {idx} while holding {v} (must hold "
                                               "{sentence})",
                                               idx=ID[idx], v=ID[v], sentence=denial.sentence()), self._where())
            if unknown:
                checks.append((denial, unknown))
        return idx, checks

    def _check(self, seat: int, move: Move) -> None:
        self._judge(seat, move)

    def _apply(self, seat: int, move: Move) -> None:
        idx, checks = self._judge(seat, move)
        assert isinstance(move, Play)
        handle = move.handle
        if self._val[handle] < 0:
            self.learn(handle, ID[idx])
        self.seen[handle] = {PUBLIC}
        if denials([c for _, _, c in self.trick], idx):  # public: the claims this play makes
            self._watch_for_audit(h for h in self.hands[seat]
                                  if h != handle and PUBLIC not in self.seen[h])
        for denial, unknown in checks:
            self._book.add(self._claim(seat, denial.kind, denial.detail(), self._where()), denial, unknown)
        self.hands[seat].remove(handle)
        self._holder[handle] = NOBODY
        self.trick.append((seat, handle, idx))
        if len(self.trick) < self.players:
            self.to_play = (seat + 1) % self.players
            self._turn = self._seat_turns[self.to_play]
            return
        self._close_trick()

    def _close_trick(self) -> None:
        """§2.6: excused cards go back to their players, the rest to the winner, who leads next."""
        cards = [c for _, _, c in self.trick]
        out = trick.excused(cards)
        win = self.trick[trick.winner(cards)][0]
        if len(out) > 2:  # §2.9 self-check: the World and one divine at most
            raise EngineError(f"{len(out)} excused cards in one trick")
        for pos, (seat, _, card) in enumerate(self.trick):
            self.won[seat if pos in out else win].append(card)
        self.last_trick, self.last_winner = self.trick, win
        self.last_excused = [self.trick[pos][0] for pos in out]
        self.trick = []
        self.trick_no += 1
        if self.trick_no == self.hand_size:
            self._score_deal()
        else:
            self.leader = self.to_play = win
            self._turn = self._seat_turns[win]

    # ---- scoring -------------------------------------------------------------------------------
    def deal_points(self) -> list[int]:
        return [scoring.pile_points(p) for p in self.won]

    def deal_roses(self) -> list[int]:
        return [scoring.pile_roses(p) for p in self.won]

    def _score_deal(self) -> None:
        points, roses = self.deal_points(), self.deal_roses()
        played = {c for pile in self.won for c in pile}
        set_aside = [c for c in range(len(DECK_IDS)) if c not in played]
        # §2.9 self-checks (every card value of the deal is public once played)
        if sum(points) + sum(POINTS[c] for c in set_aside) != 165 or len(set_aside) != len(self.surplus):
            raise EngineError("deal points do not add up to 165")
        if sum(roses) + sum(1 for c in set_aside if IS_ROSE[c]) != 3:
            raise EngineError("the three roses are not all accounted for")
        scores = [scoring.deal_score(p, r, self.target) for p, r in zip(points, roses)]
        for s in range(self.players):
            self.totals[s] += scores[s]
        self.history.append({"deal": self.deal_no + 1, "dealer": self.dealer, "points": points,
                             "roses": roses, "scores": scores, "totals": list(self.totals)})
        self.deal_no += 1
        if self.deal_no == self.deal_count:
            self._enter(OVER)
            return
        self.dealer = (self.dealer + 1) % self.players
        self._start_deal()

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        return Outcome(scores=tuple(self.totals), winners=scoring.winners(self.totals),
                       detail={"target": self.target, "deals": [dict(d) for d in self.history]})

    # ---- views ---------------------------------------------------------------------------------
    def demand(self) -> tuple[int, int]:
        return demand([c for _, _, c in self.trick])

    def threshold(self) -> int:
        return threshold(c for _, _, c in self.trick)

    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)
