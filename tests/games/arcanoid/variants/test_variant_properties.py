"""Properties of every playable arcanoïd variant at 2 and 10 players: the 78 cards are conserved
at every step, the game ends with a winner or a documented USA lead, and a seat's partial state
and an observer, fed only what they are shown, then audited, reach the omniscient outcome with
every claim decided."""

from __future__ import annotations

import random

import pytest

from p2ptarot.engine import PUBLIC, RandomDealer, TurnKind, create, info, play

from ..support import RandomAgent, check_conservation

VARIANTS = [v for v in info("arcanoid").playable_variants() if v != "DRESDEN"]


def _replay(omni, viewer):
    shadow = create("arcanoid", omni.players, omni.variant, options=omni.options)
    part = create("arcanoid", omni.players, omni.variant, options=omni.options, viewer=viewer,
                  omniscient=False)
    for entry in omni._log:
        assert part.turn() == shadow.turn()
        tag = entry[0]
        if tag == "m":
            part.apply(entry[1], entry[2])
            shadow.apply(entry[1], entry[2])
        elif tag == "c":
            part.resolve_chance({} if isinstance(entry[1], dict) else entry[1])
            shadow.resolve_chance(entry[1])
        elif tag == "r":
            turn = shadow.turn()
            assert turn.kind is TurnKind.REVEAL
            part.resolve_reveals({r.handle: omni.cards[r.handle] for r in turn.reveals
                                  if r.to == PUBLIC or r.to == viewer})
            shadow.resolve_reveals()
    for h in sorted(part.audit_opens()):  # as the table's audit: what claims need, to everyone
        part.audited(h, omni.cards[h])  # type: ignore[arg-type]
    return part


@pytest.mark.parametrize("players", [2, 10])
@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_game_properties(variant: str, players: int) -> None:
    seed = 7 * players + len(variant)
    state = create("arcanoid", players, variant, options={"rounds": 2})
    rng = random.Random(seed)

    def on_move(st, seat, move) -> None:
        check_conservation(st)

    play(state, [RandomAgent(rng) for _ in range(players)], RandomDealer(random.Random(seed + 1)),
         on_move=on_move)
    out = state.outcome()
    assert out is not None and len(state.round_winners) == 2
    assert out.winners or out.detail.get("usa_fields", 0) > 0
    assert not state.claims
    for viewer in (0, None):
        part = _replay(state, viewer)
        assert part.outcome() == out and not part.claims
