"""Hostile moves: any field value of the right type, however absurd, gets a clear IllegalMove (or
passes as a legal move) and never crashes the engine or changes it (check is pure)."""

from __future__ import annotations

import random
from dataclasses import fields

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2ptarot.engine import EngineError, IllegalMove, RandomDealer, TurnKind, create
from p2ptarot.games.arcanum.moves import MOVES

INTS = st.integers(-5, 400)
STRS = st.sampled_from(["", "major-0", "major-13", "cups-queen", "fig-cups-queen", "fig-x-y",
                        "swords", "draw", "keep", "hide", "joker", "minors", "major", "\x00", "é"])


def _mutant(draw, cls):
    args = {}
    for f in fields(cls):
        ann = str(f.type)
        if ann == "int":
            args[f.name] = draw(INTS)
        elif ann == "str":
            args[f.name] = draw(STRS)
        elif "int" in ann:
            args[f.name] = tuple(draw(st.lists(INTS, max_size=4)))
        else:
            args[f.name] = tuple(draw(st.lists(STRS, max_size=4)))
    return cls(**args)


def _states(seed: int, stops: int = 25):
    """Omniscient states at `stops` random decision points of one game."""
    g = create("arcanum", 4)
    rng = random.Random(seed)
    dealer = RandomDealer(random.Random(seed))
    out = []
    while g.turn().kind is not TurnKind.OVER and len(out) < stops:
        turn = g.turn()
        if turn.kind is TurnKind.CHANCE:
            c = turn.chance
            g.resolve_chance(dealer.shuffle(g, c) if hasattr(c, "handles") else dealer.choice(c))
        elif turn.kind is TurnKind.REVEAL:
            g.resolve_reveals()
        else:
            ctx = g.ctx()
            seat = next(s for s in turn.seats if s not in ctx.answers)
            if rng.random() < 0.2:
                out.append((g.clone(), seat))
            g.apply(seat, rng.choice(g.legal_moves(seat)))
    return out


STATES = _states(3)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_absurd_moves_are_refused_cleanly(data) -> None:
    g, seat = STATES[data.draw(st.integers(0, len(STATES) - 1))]
    cls = MOVES[data.draw(st.sampled_from(sorted(MOVES)))]
    move = _mutant(data.draw, cls)
    before = g.view(None)
    legal = g.legal_moves(seat)
    try:
        g.check(seat, move)
    except IllegalMove:
        assert move not in legal
    else:  # a legal move (perhaps listed in another order): applying it works
        g.clone().apply(seat, move)
    assert g.view(None) == before


def test_strict_json_parsing_refuses_wrong_types() -> None:
    g = STATES[0][0]
    for bad in ({"kind": "play-minor", "handle": "1", "card": "cups-1", "figure": "", "dest": 0},
                {"kind": "play-minor", "handle": True, "card": "cups-1", "figure": "", "dest": 0},
                {"kind": "hide", "handles": [1, "2"]}, {"kind": "fields", "changes": 3},
                {"kind": "nope"}, {"kind": "pass", "extra": 1}):
        try:
            move = g.move_from_json(bad)
        except EngineError:
            continue
        seat = g.turn().seats[0]
        try:
            g.check(seat, move)
        except IllegalMove:
            continue
        raise AssertionError(f"{bad} was accepted")
