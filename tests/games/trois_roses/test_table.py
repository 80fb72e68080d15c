"""A trois roses deal at a live in-memory table (real mental poker, signed chained messages): every
seat agrees, the logs are identical and the offline verifier accepts the transcript."""

from __future__ import annotations

from roses_support.table import Table, verify


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
