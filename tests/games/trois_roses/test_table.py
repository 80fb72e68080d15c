"""A trois roses deal at a live in-memory table (real mental poker, signed chained messages) at
five players: the set-aside card is never opened. (Every variant's game through a table —
agreement, identical logs, the verifier, no pending claim — is tests/table/test_every_game.py.)"""

from __future__ import annotations

from tests.table.harness import Table
from tests.table.helpers import verify


def test_five_players_the_set_aside_card_is_never_opened() -> None:
    """Rules §2.4, TR4: the 5-player set-aside card is never opened — not in play, and not by the
    audit, which opens only what a claim needs (PROTOCOL §6.3 step 7)."""
    t = Table("trois-roses", 5, seed=7, variant="single-deal")
    hidden_during_play: list[bool] = []

    def observe(k: int, session) -> None:
        game = session.game
        if game.surplus and not game.is_over():
            hidden_during_play.append(game.cards[game.surplus[0]] is None)
    t.observe = observe
    t.run()
    assert all(a is None for a in t.aborted) and all(f is not None for f in t.finished)
    assert hidden_during_play and all(hidden_during_play)
    assert all(s.game.cards[s.game.surplus[0]] is None for s in t.sessions)  # still hidden at the end
    deal = t.finished[0].outcome.to_json()["detail"]["deals"][0]
    assert sum(deal["points"]) <= 165  # the set-aside card's points, if any, belong to nobody
    verdict = verify(t, t.records[0])
    assert verdict.valid, verdict.reason
