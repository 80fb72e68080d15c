"""A deck-less toy game for the table's commit/open machinery (registered only inside tests).

Seat 0 commits a secret word (`Commit`), then states whether it starts with a vowel (`Hint`: a
claim only the opened word can decide); every seat then votes blind (`Vote`, a SIMULTANEOUS turn);
seat 0 finally opens the word (`Open`). The outcome names the word and the votes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Iterator

import pytest

from p2ptarot.engine import (Commit, EngineError, GameInfo, GameState, IllegalMove, Move,
                             NotYourTurn, Open, Outcome, Turn, TurnKind)
from p2ptarot.engine import registry

NAME = "secret-vote"
WORDS = ("apple", "tarot", "oak")
COMMIT, HINT, VOTE, OPEN, OVER = range(5)


@dataclass(frozen=True, slots=True)
class Hint(Move):
    KIND: ClassVar[str] = "hint"
    vowel: bool


@dataclass(frozen=True, slots=True)
class Vote(Move):
    KIND: ClassVar[str] = "vote"
    choice: str


class SecretVote(GameState):
    NAME = NAME
    MOVES = {"commit": Commit, "open": Open, "hint": Hint, "vote": Vote}

    def __init__(self, players: int, variant: str | None, options: dict[str, Any],
                 omniscient: bool, viewer: int | None) -> None:
        super().__init__(players, variant, options, omniscient, viewer)
        self.phase = COMMIT
        self.votes: dict[int, str] = {}
        #: a cheating seat's engine may be told not to decide claims against the known word
        self.decide_claims = True

    def turn(self) -> Turn:
        if self.phase == VOTE:
            return Turn(TurnKind.SIMULTANEOUS, tuple(range(self.players)))
        if self.phase == OVER:
            return Turn(TurnKind.OVER)
        return Turn(TurnKind.SEAT, (0,))

    def legal_moves(self, seat: int) -> list[Move]:
        word = self.secret_for("word", seat)
        if self.phase == COMMIT:
            return [Commit("word", w) for w in WORDS]
        if self.phase == HINT:
            return [Hint(word[0] in "aeiou")] if word else [Hint(True), Hint(False)]
        if self.phase == VOTE:
            return [] if seat in self.votes else [Vote("a"), Vote("b")]
        if self.phase == OPEN and word:
            return [Open("word", word)]
        return []

    def _check(self, seat: int, move: Move) -> None:
        if self.phase == COMMIT and isinstance(move, Commit) and move.name == "word":
            self._check_commit(seat, move)
        elif self.phase == HINT and isinstance(move, Hint):
            pass  # a claim: decided by the word
        elif self.phase == VOTE and isinstance(move, Vote):
            if seat in self.votes:
                raise NotYourTurn(seat, "already voted")
            if move.choice not in ("a", "b"):
                raise IllegalMove(seat, f"no such choice {move.choice!r}")
        elif self.phase == OPEN and isinstance(move, Open):
            self._check_open(seat, move)
        else:
            raise IllegalMove(seat, f"{move.KIND} is not expected now")

    def _apply(self, seat: int, move: Move) -> None:
        if isinstance(move, Commit):
            self._record_commit(seat, move)
            self.phase = HINT
        elif isinstance(move, Hint):
            self._claim(seat, "vowel", {"vowel": move.vowel}, "the hint")
            self._decide()
            self.phase = VOTE
        elif isinstance(move, Vote):
            self.votes[seat] = move.choice
            if len(self.votes) == self.players:
                self.phase = OPEN
        else:
            assert isinstance(move, Open)
            self._record_open(seat, move)
            self.phase = OVER

    def _on_learn_secret(self, name: str, value: str) -> None:
        self._decide()

    def _decide(self) -> None:
        word = self.secrets["word"].value if "word" in self.secrets else None
        if word is None or not self.decide_claims:
            return
        for claim in list(self.claims):
            if dict(claim.detail)["vowel"] != (word[0] in "aeiou"):
                raise self._false_claim(claim, f"the word {word!r} contradicts the hint")
            self._settle_claim(claim)

    def _resolve_chance(self, result: Any) -> None:
        raise EngineError("no chance in this game")

    def _resolve_reveals(self) -> None:
        raise EngineError("no reveals in this game")

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"phase": self.phase, "word": self.secret_for("word", seat),
                "voted": sorted(self.votes)}

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = tuple(int(self.votes[s] == "a") for s in range(self.players))
        return Outcome(scores, (), {"word": self.secrets["word"].value,
                                    "votes": [self.votes[s] for s in range(self.players)]})


INFO = GameInfo(name=NAME, title="secret vote (test toy)", min_players=2, max_players=6,
                state=SecretVote)


@pytest.fixture
def secret_vote() -> Iterator[str]:
    """Register the toy game for one test only (the contract test never sees it)."""
    registry._load_all()
    registry._REGISTRY[NAME] = INFO
    try:
        yield NAME
    finally:
        del registry._REGISTRY[NAME]
