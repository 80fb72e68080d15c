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


def test_a_lying_dealer_is_blamed_by_every_peer_and_by_the_verifier() -> None:
    """The dealer's peer, blind to its own rule (as a cheater's would be), commits `accept true`
    and then judges a play "wrong": a lie. The honest peers refuse it (their engines know the
    rule at the opening, checked against the table's hash commitment) and blame the dealer with
    his signed judgment."""
    from p2ptarot.engine import Commit, Open
    from p2ptarot.games.eleusis.moves import Judge
    from p2ptarot.table.envelope import parse

    dealer = 0

    committed: list[str] = []

    def script(legal: list):
        if not legal and committed:  # its engine, blind to the rule, offers no opening
            return Open(committed[0], "accept true")
        first = legal[0]
        if isinstance(first, Commit):
            committed.append(first.name)
            return Commit(first.name, "accept true")
        if isinstance(first, Judge):
            return Judge("wrong")
        return None

    t = harness.Table("eleusis", 4, seed=9, bot="random", options={"rounds": 1, "first_dealer": dealer},
                      scripts={dealer: script})
    game = t.sessions[dealer].game
    learn_secret = game._on_learn_secret
    game._on_learn_secret = lambda name, value: None  # the cheater's engine does not hold the rule
    t.run()
    game._on_learn_secret = learn_secret
    for k in (1, 2, 3):
        abort = t.aborted[k]
        assert t.finished[k] is None and abort is not None and abort.blame == dealer, abort
        assert "contradicts his rule" in abort.reason
    lie = [parse(x) for x in t.records[1] if parse(x).kind == "move" and parse(x).seat == dealer
           and parse(x).body["move"]["kind"] == "judge"]
    assert lie and lie[0].body["move"]["verdict"] == "wrong"
    assert t.aborted[1].evidence[0] == lie[0]  # the claimant's own signed judgment
    verdict = helpers.verify(t, t.records[1])
    assert not verdict.valid and verdict.seat == dealer


def test_with_the_rule_hidden_from_the_peers_the_lie_is_caught_when_it_opens() -> None:
    """What the table's hash commitment will give (ENGINE v2 §2): the honest peers' engines are
    given the commitment without its value; they accept the lying judgment as claim 0, and when
    the rule opens they blame the dealer with his signed judgment as the evidence, at its step."""
    from dataclasses import replace

    from p2ptarot.engine import Commit, Open
    from p2ptarot.games.eleusis.moves import Judge
    from p2ptarot.table.envelope import parse

    dealer, rule = 0, "accept true"

    def script(legal: list):
        first = legal[0] if legal else None
        if isinstance(first, Commit):
            return Commit(first.name, rule)
        if isinstance(first, Judge):
            return Judge("wrong")
        return None

    t = harness.Table("eleusis", 4, seed=11, bot="random",
                      options={"rounds": 1, "first_dealer": dealer}, scripts={dealer: script})
    for k, session in enumerate(t.sessions):
        game = session.game
        if k == dealer:  # the cheater's engine neither knows nor checks his rule...
            game._on_learn_secret = lambda name, value: None
            legal = game.legal_moves
            game.legal_moves = (lambda g, orig: lambda seat: (  # ...but opens it when asked
                [Open(g.secret_name(), rule)] if g.phase_name() == "open" else orig(seat)))(game, legal)
        else:  # an honest peer sees the commitment, not the text
            record = game._record_commit
            game._record_commit = (lambda orig: lambda seat, move: orig(
                seat, replace(move, value="")))(record)
    t.run()
    judge_steps = [parse(x).step for x in t.records[1] if parse(x).kind == "move"
                   and parse(x).seat == dealer and parse(x).body["move"]["kind"] == "judge"]
    opened = [parse(x).step for x in t.records[1] if parse(x).kind == "move"
              and parse(x).seat == dealer and parse(x).body["move"]["kind"] == "open"]
    assert judge_steps and opened and opened[0] > judge_steps[0]  # the game ran on to the opening
    for k in (1, 2, 3):
        abort = t.aborted[k]
        assert abort is not None and abort.blame == dealer, abort
        assert "contradicts his rule" in abort.reason
        assert abort.step == judge_steps[0]  # the step of the lie, though found at the opening
    verdict = helpers.verify(t, t.records[1])
    assert not verdict.valid and verdict.seat == dealer and verdict.step == judge_steps[0]
