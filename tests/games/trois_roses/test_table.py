"""A trois roses deal at a live in-memory table (real mental poker, signed chained messages): every
seat agrees, the logs are identical and the offline verifier accepts the transcript."""

from __future__ import annotations

from tests.table.harness import Table
from tests.table.helpers import verify

from p2ptarot.games.roses_common.tables import INDEX, POINTS


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


def test_five_players_the_set_aside_card_opens_only_at_the_audit() -> None:
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
    surplus = [s.game.cards[s.game.surplus[0]] for s in t.sessions]
    assert surplus[0] is not None and all(c == surplus[0] for c in surplus)  # opened by the audit
    game = t.sessions[0].game
    assert surplus[0] not in {game.cards[h] for h in game.deal_handles[:95]}  # never dealt nor played
    deal = t.finished[0].outcome.to_json()["detail"]["deals"][0]
    assert sum(deal["points"]) == 165 - POINTS[INDEX[surplus[0]]]
    verdict = verify(t, t.records[0])
    assert verdict.valid, verdict.reason
