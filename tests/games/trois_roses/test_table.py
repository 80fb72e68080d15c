"""A trois roses deal at a live in-memory table (real mental poker, signed chained messages): every
seat agrees, the logs are identical and the offline verifier accepts the transcript."""

from __future__ import annotations

from tests.table.harness import Table
from tests.table.helpers import verify



def test_a_single_deal_over_the_table_protocol() -> None:
    t = Table("trois-roses", 3, seed=5, variant="single-deal")
    t.run()
    assert all(a is None for a in t.aborted)
    outcomes = [f.outcome.to_json() for f in t.finished]
    assert all(o == outcomes[0] for o in outcomes)
    assert sum(outcomes[0]["detail"]["deals"][0]["points"]) == 165
    assert all(r == t.records[0] for r in t.records)
    verdict = verify(t, t.records[0])
    assert verdict.valid, verdict.reason
    assert verdict.outcome == outcomes[0]
    for s in t.sessions:  # every claim a seat's play made was settled when the cards opened
        assert s.game.pending_claims() == []


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
