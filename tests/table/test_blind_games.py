"""The real games that need the table's commit/open machinery, at a networked in-memory table
(real mental poker, one partial-knowledge engine per seat, the offline verifier at the end):

* paris divins, 6 seats: every round's wager (a face-down hand card by handle, and a bet) is a
  blind SIMULTANEOUS turn — all six commit before any opens — and the chosen cards are revealed
  after the open round;
* an Eleusis round: the dealer's rule is a committed engine secret, hidden on the wire until the
  dealer opens it, and every judgment claim is decided against it then.
"""

from __future__ import annotations

from tests.table.helpers import verify
from tests.table.harness import Table

from p2ptarot.table.envelope import Envelope, parse


def _envs(t: Table, k: int = 0) -> list[Envelope]:
    return [parse(x) for x in t.records[k]]


def test_paris_divins_six_seats_wagers_are_blind() -> None:
    t = Table("paris-divins", 6, seed=12)
    t.run()
    assert all(a is None for a in t.aborted), t.aborted
    outcomes = [f.outcome.to_json() for f in t.finished if f is not None]
    assert len(outcomes) == 6 and all(o == outcomes[0] for o in outcomes)
    envs = _envs(t)
    assert not [e for e in envs if e.kind == "move"]  # every wager went through a blind round
    commits = [e for e in envs if e.kind == "move.commit"]
    openings = [e for e in envs if e.kind == "move.open"]
    assert commits and len(commits) == len(openings)
    by_step: dict[int, list[Envelope]] = {}
    for e in commits:
        by_step.setdefault(e.step, []).append(e)
    first = min(by_step)
    assert len(by_step[first]) == 6  # round 1: all six seats commit in one step...
    opened = [e for e in openings if e.step == first + 1]
    assert len(opened) == 6 and all(e.body["move"]["kind"] == "wager" for e in opened)
    # ...nothing about any choice is public before that: the commitments carry no move
    assert all(set(e.body) == {"digest", "sealed"} for e in commits)
    # the chosen cards open only after the open round, in the deck steps that follow
    reveal = next(e for e in envs if e.step > first + 1 and e.kind == "mental.shares")
    assert reveal.step > first + 1
    verdict = verify(t, t.records[0])
    assert verdict.valid and verdict.outcome == outcomes[0]


def test_an_eleusis_round_commits_the_rule_and_opens_it_at_the_end() -> None:
    t = Table("eleusis", 4, seed=7, bot="heuristic", options={"rounds": 1})
    t.run()
    assert all(a is None for a in t.aborted), t.aborted
    outcomes = [f.outcome.to_json() for f in t.finished if f is not None]
    assert len(outcomes) == 4 and all(o == outcomes[0] for o in outcomes)
    envs = _envs(t)
    commit = next(e for e in envs if e.kind == "move" and e.body["move"]["kind"] == "commit")
    opening = next(e for e in envs if e.kind == "move" and e.body["move"]["kind"] == "open")
    assert commit.body["move"]["value"] == "" and set(commit.body["secret"]) == {"digest", "sealed"}
    rule = opening.body["move"]["value"]
    assert rule and opening.seat == commit.seat and opening.step > commit.step
    assert all(rule.encode() not in e.encoded() for e in envs if e.step < opening.step)
    for k, s in enumerate(t.sessions):  # every peer learnt the rule, and every claim is decided
        assert s.game.secrets[commit.body["move"]["name"]].value == rule
        assert not s.game.claims
    verdict = verify(t, t.records[0])
    assert verdict.valid and verdict.outcome == outcomes[0]
