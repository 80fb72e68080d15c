"""Eleusis under the table protocol's existing contract, in memory (no sockets): real mental
poker deals the hands and the penalty cards, every seat runs its own partial-knowledge engine,
and the offline verifier accepts the signed log with the same outcome. (Networked tables and the
rule's hash commitment on the wire are the table's work, not this package's.)"""

from __future__ import annotations

from tests.table import harness, helpers


def test_a_round_with_sages_and_runs_over_mental_poker() -> None:
    t = harness.Table("eleusis", 5, seed=7, bot="heuristic", options={"rounds": 1})
    t.run()
    assert all(a is None for a in t.aborted)
    outcomes = [f.outcome.to_json() for f in t.finished]
    assert all(o == outcomes[0] for o in outcomes)
    rounds = outcomes[0]["detail"]["rounds"]
    assert len(rounds) == 1 and rounds[0]["rule"].startswith("accept")
    assert all(r == t.records[0] for r in t.records)
    verdict = helpers.verify(t, t.records[0])
    assert verdict.valid, verdict
    assert verdict.outcome == outcomes[0]


def test_a_lying_dealer_voids_his_round_and_the_game_goes_on() -> None:
    """The dealer's peer, blind to its own rule until it opens it (as a cheater's would be),
    commits `accept true` and then judges a play "wrong": a lie. The honest peers accept it as a
    claim; when the rule opens (checked against the table's hash commitment) every peer finds the
    lie, the round is void (nobody scores, the dealer has dealt: rules §7.7, R35, T9) and the next
    dealer deals. Every peer and the verifier record the fault against the dealer at the step of
    his signed judgment, and the game ends with an outcome every seat signs."""
    from dataclasses import replace

    from p2ptarot.engine import Commit, Open
    from p2ptarot.games.eleusis.moves import Judge
    from p2ptarot.table.envelope import parse

    dealer, rule = 0, "accept true"
    lied: list[bool] = []

    def script(legal: list):
        first = legal[0] if legal else None
        if isinstance(first, Commit) and first.name == "rule-1":
            return Commit(first.name, rule)
        if isinstance(first, Judge) and not lied:
            lied.append(True)
            return Judge("wrong")
        return None

    t = harness.Table("eleusis", 4, seed=11, bot="random",
                      options={"rounds": 2, "first_dealer": dealer}, scripts={dealer: script})
    cheater = t.sessions[dealer].game
    record_commit = cheater._record_commit
    legal = cheater.legal_moves

    def cheater_commits(seat: int, move: Commit) -> None:  # blind to rule 1 until it opens
        record_commit(seat, replace(move, value="") if move.name == "rule-1" else move)

    def cheater_legal(seat: int) -> list:
        if cheater.phase_name() == "open" and cheater.round == 0:
            return [Open("rule-1", rule)]
        return legal(seat)

    cheater._record_commit = cheater_commits
    cheater.legal_moves = cheater_legal
    t.run()
    assert lied and all(a is None for a in t.aborted), t.aborted
    outcomes = [f.outcome.to_json() for f in t.finished]
    assert all(o == outcomes[0] for o in outcomes)
    rounds = outcomes[0]["detail"]["rounds"]
    assert len(rounds) == 2 and rounds[0]["void"]["seat"] == dealer and rounds[0]["scores"] == []
    assert rounds[1]["dealer"] == 1 and rounds[1]["void"] is None and rounds[1]["scores"]
    assert outcomes[0]["scores"] == [rounds[1]["scores"][s] + (0 if s < 2 else 10)
                                     for s in range(4)]
    judge_steps = [parse(x).step for x in t.records[1] if parse(x).kind == "move"
                   and parse(x).seat == dealer and parse(x).body["move"]["kind"] == "judge"]
    for k in range(4):
        (found,) = t.sessions[k].findings
        assert found.blame == dealer and "contradicts his rule" in found.reason
        assert found.step == judge_steps[0]  # the step of the lie, though found at the opening
        assert found.evidence[0].body["move"] == {"kind": "judge", "verdict": "wrong"}
    verdict = helpers.verify(t, t.records[1])
    assert verdict.valid and verdict.outcome == outcomes[0]
    (finding,) = verdict.findings
    assert finding["seat"] == dealer and finding["step"] == judge_steps[0]
    assert finding["evidence"][0]["step"] == judge_steps[0]
