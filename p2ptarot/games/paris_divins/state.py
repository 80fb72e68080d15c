"""The paris divins state machine (spec/games/roses.md, rules §3).

One shuffle of the whole deck, 8 cards dealt privately to each player; the undealt cards and the
hands of eliminated players are never revealed (they open only at the final audit). Each round:
the forced stakes, one SIMULTANEOUS turn where every active player names a hand card by handle
and a bet, then one REVEAL of the chosen cards to everyone. There are no claims: every check (the
handle is the player's and unplayed, the bet is a category) is decidable when the move arrives.
"""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.engine.errors import EngineError, IllegalMove, NotYourTurn
from p2ptarot.engine.state import GameState
from p2ptarot.engine.types import NOBODY, PUBLIC, Move, Outcome, Reveal, Shuffle, Turn, TurnKind
from p2ptarot.cards.roses_tables import CATEGORY_NAMES, DECK, DECK_IDS, ID, INDEX

from . import transfers
from .moves import BETS, MOVES, Wager
from .rules import (CHOOSE, DEAL, OPEN, OVER, PARIS_DIVINS, PHASE_NAMES, SHUFFLE, VARIANTS,
                    Rules)
from .legal import stake_check
from .view import build_view
from .scoring import round_winner
from p2ptarot.i18n.message import tr

_OVER_TURN = Turn(TurnKind.OVER)


class ParisDivinsState(GameState):
    """A game of *les paris divins* for 2–12 players."""

    NAME = "paris-divins"
    MOVES = MOVES

    def __init__(self, players: int, variant: str | None = None,
                 options: Mapping[str, Any] | None = None, omniscient: bool = True,
                 viewer: int | None = None) -> None:
        rules = VARIANTS[variant or PARIS_DIVINS.name]  # checked by `create`
        super().__init__(players, variant, {}, omniscient, viewer)
        self.rules: Rules = rules
        n = players
        self.handles = self._new_handles(len(DECK_IDS))
        self._holder = [NOBODY] * len(DECK_IDS)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.active: list[int] = list(range(n))
        self.eliminated: list[int] = []
        self.rounds_won = [0] * n
        self.supply = [rules.supply] * n
        self.reserve = [0] * n
        self.round_no = 0  # rounds played
        self.stakes: dict[int, int] = {}  # on the table this round
        self.chosen: dict[int, Wager] = {}
        self.discard: list[int] = []  # handles played, face up
        self.history: list[dict[str, Any]] = []
        self._out_this_round: list[int] = []
        self._round_supply = list(self.supply)
        self._enter(SHUFFLE)

    def _enter(self, phase: int) -> None:
        self.phase = phase
        if phase == SHUFFLE:
            self._turn = Turn(TurnKind.CHANCE, chance=Shuffle(DECK, 0, self.handles, DECK_IDS))
        elif phase == DEAL:
            self._turn = Turn(TurnKind.REVEAL, reveals=tuple(
                Reveal(h, self._holder[h], NOBODY) for h in self.handles if self._holder[h] >= 0))
        elif phase == CHOOSE:
            self._turn = Turn(TurnKind.SIMULTANEOUS, tuple(self.active))
        elif phase == OPEN:
            self._turn = Turn(TurnKind.REVEAL, reveals=tuple(
                Reveal(self.chosen[s].handle, PUBLIC, s) for s in self.active))
        else:
            self._turn = _OVER_TURN

    def _where(self) -> str:
        return tr("round {round}", round=self.round_no + 1)

    # ---- contract ------------------------------------------------------------------------------
    def turn(self) -> Turn:
        return self._turn

    def legal_moves(self, seat: int) -> list[Move]:
        if self.phase != CHOOSE or seat not in self.active or seat in self.chosen:
            return []
        return [Wager(h, bet) for h in self.hands[seat] for bet in BETS]

    def _on_learn(self, handle: int, card: str) -> None:
        if card not in INDEX:
            raise EngineError(tr("{card} is not a Tarot des Roses card", card=repr(card)))

    # ---- chance and reveals --------------------------------------------------------------------
    def _resolve_chance(self, result: Any) -> None:
        if not isinstance(result, Mapping):
            raise EngineError("a shuffle result is a mapping handle -> card")
        if self.omniscient and (set(result) != set(self.handles) or sorted(result.values()) != sorted(DECK_IDS)):
            raise EngineError("an omniscient shuffle result must give every handle a distinct card")
        for h, c in result.items():
            if h not in self.handles or c not in INDEX:
                raise EngineError(f"shuffle value {h}->{c!r} does not belong to this shuffle")
            self.learn(h, c)
        n = self.players
        for i in range(n * self.rules.hand_size):  # PD1: one at a time, in seat order
            h = self.handles[i]
            self._holder[h] = i % n
            self.hands[i % n].append(h)
        self._enter(DEAL)

    def _resolve_reveals(self) -> None:
        if self.phase == DEAL:
            self._start_round()
            return
        cards: dict[int, int] = {}
        for seat in self.active:
            card = self.cards[self.chosen[seat].handle]
            if card is None:
                raise EngineError("a chosen card is opened to everyone: its value must be given")
            cards[seat] = INDEX[card]
        self._settle(cards)

    # ---- a round -------------------------------------------------------------------------------
    def _start_round(self) -> None:
        """§3.3 steps 1–2: stake check (PD5), the end if one or no player is left (PD6), stakes."""
        self.stakes, out = stake_check(self.rules, self.active, self.supply, self.rounds_won)
        self._out_this_round = out
        for seat in out:
            self.active.remove(seat)
            self.eliminated.append(seat)
        if len(self.active) <= 1:
            if out:
                self.history.append({"round": self.round_no + 1, "out": out, "played": False})
            self.stakes = {}
            self._finish()
            return
        self._round_supply = list(self.supply)
        for seat, amount in self.stakes.items():
            self.supply[seat] -= amount
        self.chosen = {}
        self._enter(CHOOSE)

    def _judge(self, seat: int, move: Move) -> Wager:
        if self.phase != CHOOSE:
            raise NotYourTurn(seat, tr("no card is chosen now"), self._where())
        if seat not in self.active:
            raise NotYourTurn(seat, tr("is not an active player"), self._where())
        if seat in self.chosen:
            raise IllegalMove(seat, tr("has already chosen this round"), self._where())
        if type(move) is not Wager:
            raise IllegalMove(seat, tr("only a wager is made now, not {KIND}",
                                       KIND=move.KIND), self._where())
        h = move.handle
        if isinstance(h, bool) or not isinstance(h, int) or h not in self.hands[seat]:
            raise IllegalMove(seat, tr("handle {h} is not a card of its hand still to play",
                                       h=repr(h)), self._where())
        if move.bet not in BETS:
            raise IllegalMove(seat, tr("bet {bet} is not one of {BETS}",
                                       bet=repr(move.bet), BETS=', '.join(BETS)), self._where())
        return move

    def _check(self, seat: int, move: Move) -> None:
        self._judge(seat, move)

    def _apply(self, seat: int, move: Move) -> None:
        wager = self._judge(seat, move)
        self.chosen[seat] = wager
        self.hands[seat].remove(wager.handle)
        self._holder[wager.handle] = NOBODY
        if len(self.chosen) == len(self.active):
            self._enter(OPEN)

    def _settle(self, cards: dict[int, int]) -> None:
        """§3.3 steps 5–8: winning category, round winner, transfers, discard, next round."""
        bets = {s: BETS.index(self.chosen[s].bet) for s in self.active}
        category, win = round_winner(cards, bets)
        reserve_before = list(self.reserve)
        transfers.transfer(self.stakes, win, self.supply, self.reserve)
        if win is not None:
            self.rounds_won[win] += 1
        self.discard.extend(self.chosen[s].handle for s in self.active)
        self.history.append({
            "round": self.round_no + 1, "out": self._out_this_round, "played": True,
            "stakes": {str(s): a for s, a in self.stakes.items()},
            "cards": {str(s): ID[c] for s, c in cards.items()},
            "bets": {str(s): self.chosen[s].bet for s in self.active},
            "category": CATEGORY_NAMES[category], "winner": win,
            "supply": list(self.supply), "reserve": list(self.reserve),
        })
        self.stakes = {}
        self.round_no += 1
        self._self_check(reserve_before)
        if not self.hands[self.active[0]]:
            self._finish()
        else:
            self._start_round()

    def _self_check(self, reserve_before: list[int]) -> None:
        """§3.8 invariants (a failure is an engine bug, never a player's fault)."""
        n = self.players
        if sum(self.supply) + sum(self.reserve) != self.rules.supply * n:
            raise EngineError("tokens are not conserved")
        for s in range(n):
            if self.reserve[s] < reserve_before[s] or self.supply[s] > self._round_supply[s]:
                raise EngineError(f"seat {s}'s supply grew or reserve shrank")
        if len({len(self.hands[s]) for s in self.active}) > 1:
            raise EngineError("active players hold different numbers of cards")

    def _finish(self) -> None:
        transfers.final_count(self.supply, self.reserve)
        self._enter(OVER)

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        return Outcome(scores=tuple(self.reserve), winners=transfers.winners(self.reserve),
                       detail={"rounds": [dict(r) for r in self.history], "eliminated": list(self.eliminated),
                               "rounds_won": list(self.rounds_won)})

    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)
