"""Shared helpers for the arcanoïd tests: random agents, invariant checks, partial replay."""

from __future__ import annotations

import collections
import random
from typing import Any, Sequence

from p2ptarot.engine import PUBLIC, Move, RandomDealer, TurnKind, create, play
from p2ptarot.games.arcanoid import ArcanoidState
from p2ptarot.games.arcanoid.cardinfo import ALL_CARDS


class RandomAgent:
    uses_view = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, seat: int, view: Any, legal: Sequence[Move]) -> Move:
        return self.rng.choice(list(legal))


def check_conservation(state: ArcanoidState) -> None:
    """Every one of the 78 cards is in exactly one zone."""
    zones = state.zone_map()
    handles = [h for hs in zones.values() for h in hs]
    dup = [h for h, n in collections.Counter(handles).items() if n > 1]
    assert not dup, f"handles in two zones: {dup}"
    assert sorted(state.cards[h] for h in handles) == sorted(ALL_CARDS)


def random_game(players: int, seed: int, check: bool = False, **options: Any) -> ArcanoidState:
    state = create("arcanoid", players, options=options or None)
    rng = random.Random(seed)
    agents = [RandomAgent(rng) for _ in range(players)]

    def on_move(st: Any, seat: int, move: Move) -> None:
        check_conservation(st)

    play(state, agents, RandomDealer(random.Random(seed + 1)), on_move=on_move if check else None)
    assert isinstance(state, ArcanoidState)
    return state


def replay_partial(omni: ArcanoidState, viewer: int | None, audit: bool = True) -> ArcanoidState:
    """Replay an omniscient game's inputs into a partial-knowledge state for `viewer`, feeding it
    only the values that seat is shown; checks every turn matches; audits at the end."""
    shadow = create("arcanoid", omni.players, options=omni.options)
    part = create("arcanoid", omni.players, options=omni.options, viewer=viewer, omniscient=False)
    for entry in omni._log:
        assert part.turn() == shadow.turn()
        tag = entry[0]
        if tag == "m":
            part.apply(entry[1], entry[2])
            shadow.apply(entry[1], entry[2])
        elif tag == "c":
            result = entry[1]
            part.resolve_chance({} if isinstance(result, dict) else result)
            shadow.resolve_chance(result)
        elif tag == "r":
            turn = shadow.turn()
            assert turn.kind is TurnKind.REVEAL
            values = {r.handle: omni.cards[r.handle] for r in turn.reveals
                      if r.to == PUBLIC or r.to == viewer}
            part.resolve_reveals(values)
            shadow.resolve_reveals()
    if audit:
        for h, card in enumerate(omni.cards):
            part.learn(h, card)
    return part
