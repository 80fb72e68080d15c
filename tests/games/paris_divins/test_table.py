"""A paris divins game at a live in-memory table (real mental poker): the stakes are conserved
and the cards the rules never open stay hidden from a seat's session until the final audit.
Seat agreement and the verifier are tests/table/test_every_game.py's."""

from __future__ import annotations

from tests.table.harness import Table


def test_unopened_cards_stay_hidden_until_the_audit() -> None:
    t = Table("paris-divins", 3, seed=6)
    seen_before_audit: list[int] = []

    def observe(k: int, session) -> None:
        if k == 0 and session.outcome is None and session.game.is_over():
            seen_before_audit.append(sum(c is not None for c in session.game.cards))
    t.observe = observe
    t.run()
    assert all(a is None for a in t.aborted)
    assert sum(t.finished[0].outcome.scores) == 18  # 6 chips a seat, conserved
    game = t.sessions[0].game
    played = sum(1 for r in game.history if r.get("played") for _ in r["cards"])
    assert seen_before_audit  # own 8 cards + the played ones, nothing else, until the audit
    assert seen_before_audit[0] == 8 + played - sum(1 for r in game.history if r.get("played")
                                                    and "0" in r["cards"])
