"""Issue 26: the engine's check is skipped for a move the engine itself listed as legal on the
state it is applied to (the simulator's bots), and kept for every other move."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from p2ptarot import bots
from p2ptarot.engine import GameState, IllegalMove, RandomDealer, TurnKind, create, play


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = GameState.check

    def check(self: GameState, seat: int, move: object) -> None:
        calls.append(seat)
        real(self, seat, move)  # type: ignore[arg-type]

    monkeypatch.setattr(GameState, "check", check)
    return calls


def test_a_simulated_game_never_rechecks_the_moves_its_bots_took_from_the_legal_list(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    kinds: list[TurnKind] = []
    state = create("sinople", 4, None, {}, omniscient=True)
    agents = [bots.make("heuristic", f"listed:{seat}") for seat in range(4)]
    play(state, agents, RandomDealer(random.Random("listed")),
         on_move=lambda s, seat, m: kinds.append(s.turn().kind))
    seat_turns = kinds.count(TurnKind.SEAT)
    assert seat_turns > 20  # a whole game was played
    # every seat turn's move was one of the listed objects; the interrupt answers (applied one
    # after the other to a changing state) are each checked
    assert len(calls) == len(kinds) - seat_turns


class _FirstSeatTurn(Exception):
    """Stops `play` at the first seat turn, before that move is applied."""


def test_a_move_from_outside_is_still_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    state = create("sinople", 4, None, {}, omniscient=True)

    def stop(s: GameState, seat: int, move: object) -> None:
        if s.turn().kind is TurnKind.SEAT:
            raise _FirstSeatTurn

    agents = [bots.make("heuristic", f"outside:{seat}") for seat in range(4)]
    with pytest.raises(_FirstSeatTurn):
        play(state, agents, RandomDealer(random.Random("outside")), on_move=stop)
    seat = state.turn().seats[0]
    other = (seat + 1) % 4
    calls = _counting(monkeypatch)
    listed = state.legal_moves(seat)[0]
    with pytest.raises(IllegalMove):  # the wrong seat: refused, the check ran
        state.apply(other, listed)
    equal_copy = replace(listed)  # equal to a listed move, but not the engine's own object
    assert equal_copy == listed and equal_copy is not listed
    state.apply(seat, equal_copy)
    assert calls == [other, seat]
