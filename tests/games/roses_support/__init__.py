"""Helpers shared by the trois roses and paris divins tests: record a game in omniscient mode,
replay it into any knowledge mode, and the list of those modes."""

from __future__ import annotations

from typing import Any, Sequence

from p2ptarot.engine import PUBLIC, GameState, Shuffle, TurnKind


def all_modes(players: int) -> list[dict[str, Any]]:
    """Keyword sets for create(): omniscient, every seat view, and the public observer."""
    return [{}] + [{"viewer": s} for s in range(players)] + [{"viewer": None, "omniscient": False}]


def record(state: GameState, agents: Sequence[Any], dealer: Any) -> list[tuple]:
    """Play like engine.local.play, recording chance results, reveals with values, and moves."""
    events: list[tuple] = []
    while True:
        turn = state.turn()
        kind = turn.kind
        if kind is TurnKind.OVER:
            return events
        if kind is TurnKind.CHANCE:
            result: Any = (dealer.shuffle(state, turn.chance) if isinstance(turn.chance, Shuffle)
                           else dealer.choice(turn.chance))
            events.append(("chance", result))
            state.resolve_chance(result)
        elif kind is TurnKind.REVEAL:
            events.append(("reveal", turn.reveals, {r.handle: state.cards[r.handle] for r in turn.reveals}))
            state.resolve_reveals()
        else:
            decided = []
            for seat in turn.seats:
                agent = agents[seat]
                view = state.view(seat) if agent.uses_view else None
                decided.append((seat, agent.choose(seat, view, state.legal_moves(seat))))
            for seat, move in decided:
                events.append(("move", seat, move))
                state.apply(seat, move)


def replay(events: Sequence[tuple], state: GameState, truth: GameState | None = None) -> GameState:
    """Feed recorded events to `state`, giving it only the values its mode may learn. Every move of
    the viewer's own seat must be among the legal moves its own state computes (and, given the
    omniscient `truth` at the same point, those legal moves must be the same)."""
    for ev in events:
        if ev[0] == "chance":
            result = ev[1]
            state.resolve_chance(result if state.omniscient or isinstance(result, int) else {})
        elif ev[0] == "reveal":
            reveals, values = ev[1], ev[2]
            assert state.turn().reveals == reveals
            state.resolve_reveals({r.handle: values[r.handle] for r in reveals
                                   if state.omniscient or r.to in (PUBLIC, state.viewer)})
        else:
            _, seat, move = ev
            if seat == state.viewer:
                assert move in state.legal_moves(seat)
            state.apply(seat, move)
    return state


def moves_of(events: Sequence[tuple]) -> list[tuple[int, Any]]:
    return [(ev[1], ev[2]) for ev in events if ev[0] == "move"]
