"""A paris divins game at a live in-memory table (real mental poker): every seat agrees, the
verifier accepts, and the cards never opened by the rules stay hidden until the final audit."""

from __future__ import annotations

from tests.table.harness import Table
from tests.table.helpers import verify


def test_a_game_over_the_table_protocol() -> None:
    t = Table("paris-divins", 3, seed=6)
    seen_before_audit: list[int] = []

    def observe(k: int, session) -> None:
        if k == 0 and session.outcome is None and session.game.is_over():
            seen_before_audit.append(sum(c is not None for c in session.game.cards))
    t.observe = observe
    t.run()
    assert all(a is None for a in t.aborted)
    outcomes = [f.outcome.to_json() for f in t.finished]
    assert all(o == outcomes[0] for o in outcomes) and sum(outcomes[0]["scores"]) == 18
    game = t.sessions[0].game
    played = sum(1 for r in game.history if r.get("played") for _ in r["cards"])
    assert seen_before_audit  # own 8 cards + the played ones, nothing else, until the audit
    assert seen_before_audit[0] == 8 + played - sum(1 for r in game.history if r.get("played")
                                                    and "0" in r["cards"])
    verdict = verify(t, t.records[0])
    assert verdict.valid, verdict.reason
    assert verdict.outcome == outcomes[0]
