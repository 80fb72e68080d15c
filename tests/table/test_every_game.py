"""Every registered game and every playable variant, played to the end through an in-memory table
with real mental poker (the sans-I/O sessions of p2ptarot.table, wired by a queue): every seat
finishes with the same outcome and byte-identical logs, and the offline verifier accepts the log
and finds that outcome. This is the table-level twin of tests/engine/test_contract.py; a seventh
game is covered by registering it.

Each game is played at its smallest table and, where the game has the option, its shortest
length (one round, a short game), so the suite pays for the protocol and not for long games.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.table.harness import Table
from tests.table.helpers import verify

from p2ptarot.engine import games

#: the shortest game each option allows (a game without such an option plays in full)
SHORTEST: dict[str, dict[str, Any]] = {"arcanoid": {"rounds": 1}, "eleusis": {"rounds": 1},
                                       "arcanum": {"length": "short"}}
#: arcanum's short game is the 3-player game (R3); every other game plays at its minimum
PLAYERS = {"arcanum": 3}


def _cases() -> list[Any]:
    out = []
    for gi in games():
        players = PLAYERS.get(gi.name, gi.min_players)
        for variant in gi.playable_variants() or (None,):
            out.append(pytest.param(gi.name, variant, players, id=f"{gi.name}-{variant}"))
    return out


@pytest.mark.parametrize(("game", "variant", "players"), _cases())
def test_every_game_and_variant_plays_through_a_table(game: str, variant: str | None,
                                                      players: int) -> None:
    t = Table(game, players, seed=7, variant=variant, options=SHORTEST.get(game))
    t.run()
    assert t.aborted == [None] * players, [a for a in t.aborted if a is not None]
    assert all(f is not None for f in t.finished)
    outcomes = [f.outcome.to_json() for f in t.finished]  # type: ignore[union-attr]
    assert all(o == outcomes[0] for o in outcomes)
    assert all(r == t.records[0] for r in t.records)
    for s in t.sessions:  # every claim was decided: by a card the rules opened, or the audit
        assert s.game.pending_claims() == []
    verdict = verify(t, t.records[0])
    assert verdict.valid, verdict.reason
    assert verdict.outcome == outcomes[0]


def test_every_registered_game_is_a_case() -> None:
    assert {c.values[0] for c in _cases()} == {gi.name for gi in games()}
    arcanoid = next(gi for gi in games() if gi.name == "arcanoid")
    assert len([c for c in _cases() if c.values[0] == "arcanoid"]) == len(arcanoid.playable_variants())
