"""Tampering, equivocation and illegal moves are blamed on the right seat and step; silence
abandons the table and blames nobody."""

from __future__ import annotations

from collections import deque

import pytest
from tests.table.helpers import verify
from tests.table.harness import Table
from tests.table.helpers import cut, deep, resign, unsigned_edit

from p2ptarot.table import canonical
from p2ptarot.table.effects import Aborted, Send
from p2ptarot.table.envelope import parse
from p2ptarot.table.session import Session


def _index(envs, kind: str, nth: int = 0) -> int:
    return [k for k, e in enumerate(envs) if e.kind == kind][nth]


@pytest.mark.parametrize("kind,nth", [("mental.key", 0), ("mental.shuffle", 1),
                                      ("mental.shares", 3), ("move", 2), ("result", 1)])
def test_tampered_body_is_blamed_on_its_step_and_seat(game3, kind: str, nth: int) -> None:
    lines = list(game3.records[0])
    envs = [parse(x) for x in lines]
    i = _index(envs, kind, nth)
    body = deep(envs[i].body)
    body["tampered"] = 1
    lines[i] = unsigned_edit(lines[i], body)
    verdict = verify(game3, cut(lines, envs[i].step))
    assert not verdict.valid
    # only a valid signature implicates a seat: the line names one, but nobody signed it
    assert (verdict.step, verdict.seat) == (envs[i].step, None)
    assert "bad signature" in verdict.reason and f"seat {envs[i].seat}" in verdict.reason


def test_key_with_another_seats_proof_is_blamed_even_when_signed(game3) -> None:
    lines = list(game3.records[0])
    envs = [parse(x) for x in lines]
    a, b = envs[0], envs[1]  # step 0: every seat's key for the first deck epoch
    assert a.kind == b.kind == "mental.key" and a.step == b.step
    lines[0] = resign(game3.ids[a.seat], a, body={**a.body, "proof": b.body["proof"]})
    verdict = verify(game3, cut(lines, a.step))
    assert not verdict.valid and (verdict.step, verdict.seat) == (a.step, a.seat)


def test_result_with_another_outcome_is_blamed_on_its_signer(game3) -> None:
    lines = list(game3.records[0])
    envs = [parse(x) for x in lines]
    i = _index(envs, "result", 2)
    body = deep(envs[i].body)
    body["outcome"]["other"] = 1
    lines[i] = resign(game3.ids[envs[i].seat], envs[i], body=body)
    verdict = verify(game3, lines)
    assert not verdict.valid
    assert (verdict.step, verdict.seat) == (envs[i].step, envs[i].seat)
    assert "different outcome" in verdict.reason


def test_equivocation_is_detected_and_blamed() -> None:
    t = Table("sinople", 3, seed=5)
    sent = []

    def tamper(k, env, data):
        if len(sent) == 1:
            t.queue.append((0, sent[0]))  # later, seat 0 gets a second, different signed message
            sent.append(b"")
        if k == 2 and env.kind == "mental.key" and not sent:
            sent.append(resign(t.ids[2], env, body={**env.body, "twin": 1}))
        return data

    t.tamper = tamper
    t.run()
    assert sent
    assert t.aborted[0] is not None and t.aborted[0].blame == 2
    assert "equivocation" in t.aborted[0].reason
    assert t.aborted[0].step >= parse(sent[0]).step  # the step at which it was detected


def _first_unknown_handle(session) -> int:
    """A handle whose card this seat does not know, hence does not hold."""
    return next(h for h, c in enumerate(session.game.cards) if c is None)


def test_illegal_move_is_blamed_by_every_honest_seat() -> None:
    t = Table("sinople", 3, seed=6)
    forged = []

    def tamper(k, env, data):
        if k == 1 and env.kind == "move" and env.body["move"]["kind"] == "play" and not forged:
            h = _first_unknown_handle(t.sessions[1])
            body = {"move": {"kind": "play", "handle": h, "card": "num-a-0"}, "shares": []}
            forged.append(resign(t.ids[1], env, body=body))
            return forged[0]
        return data

    t.tamper = tamper
    t.run()
    assert forged
    step = parse(forged[0]).step
    for honest in (0, 2):
        aborted = t.aborted[honest]
        assert isinstance(aborted, Aborted) and aborted.blame == 1
        assert step <= aborted.step <= step + 1
        aborts = [parse(x) for x in t.records[honest] if parse(x).kind == "abort"]
        mine = [a for a in aborts if a.seat == honest]
        assert mine and mine[0].body["blame"] == 1
        assert parse(canonical_evidence(mine[0])).seat == 1
    assert t.finished == [None, None, None]


def canonical_evidence(abort_env) -> bytes:
    return canonical.unb64(abort_env.body["evidence"][0])  # the quoted envelope's signed bytes


def test_silence_abandons_the_table_naming_the_awaited_seat_and_blaming_nobody() -> None:
    t = Table("sinople", 3, seed=7)
    for k in (0, 1):  # seat 2 never starts and never speaks
        t.handle(k, t.sessions[k].start())
    queue: deque = t.queue
    while queue:
        j, item = queue.popleft()
        if j == 2:
            continue
        t.deliver(j, item)
    assert t.sessions[0].pending_seats() == (2,)
    effects = t.sessions[0].abandon(since="21:04 UTC")
    aborted = [e for e in effects if isinstance(e, Aborted)]
    assert aborted and aborted[0].blame is None
    assert "abandoned" in aborted[0].reason and "waiting on seat 2 since 21:04 UTC" in aborted[0].reason
    record = [e.envelope for e in effects if isinstance(e, Send)]
    assert record and record[0].kind == "abort" and record[0].body["blame"] is None
    assert t.sessions[0].abandon() == []  # once


@pytest.mark.parametrize("handle", [-1, 10**6])
def test_move_naming_a_handle_that_does_not_exist_is_blamed_not_a_crash(game2, handle: int) -> None:
    """A signed move with an out-of-range card handle must blame its author. (It once
    raised KeyError from the session's handle map, which escaped Session.receive — a malicious
    seat could crash every honest peer and the verifier.)"""
    lines = list(game2.records[0])
    envs = [parse(x) for x in lines]
    i = next(k for k, e in enumerate(envs) if e.kind == "move" and e.body["move"]["kind"] == "play")
    move = {**envs[i].body["move"], "handle": handle}
    lines[i] = resign(game2.ids[envs[i].seat], envs[i], body={**envs[i].body, "move": move})
    verdict = verify(game2, cut(lines, envs[i].step))
    assert not verdict.valid
    assert verdict.seat == envs[i].seat


def test_two_bad_shares_in_one_step_blame_the_first_seat_whatever_came_first(game3) -> None:
    """Shares are checked as they come (`MentalTable.precheck`), but a step's faults are still
    judged in seat order: seat 2's bad shares, arriving before seat 1's, do not take the blame."""
    lines = list(game3.records[0])
    envs = [parse(x) for x in lines]
    by_step: dict[int, dict[int, int]] = {}
    for k, e in enumerate(envs):
        if e.kind == "mental.shares" and len(e.body["items"]) >= 2:
            by_step.setdefault(e.step, {})[e.seat] = k
    step, at = next((s, seats) for s, seats in by_step.items() if {1, 2} <= seats.keys())
    for seat in (1, 2):
        env = envs[at[seat]]
        body = deep(env.body)
        body["items"][0]["share"] = body["items"][1]["share"]
        lines[at[seat]] = resign(game3.ids[seat], env, body=body)
    lines[at[1]], lines[at[2]] = lines[at[2]], lines[at[1]]  # seat 2's comes first
    watcher = Session(game3.signed, seat=None)  # a live peer takes them as they come
    watcher.start()
    aborted = [e for line in cut(lines, step) for e in watcher.receive(line)
               if isinstance(e, Aborted)]
    assert [(a.step, a.blame) for a in aborted] == [(step, 1)], aborted


def test_shares_are_checked_as_they_come_not_all_when_the_step_ends(game3) -> None:
    """The proofs of a shares message that leaves its step waiting are checked on arrival; the
    step, once the last message comes, checks only that last one's."""
    from p2ptarot.crypto.group import count_ops

    lines = list(game3.records[0])
    envs = [parse(x) for x in lines]
    firsts = [k for k, e in enumerate(envs) if e.kind == "mental.shares"
              and len(e.body["items"]) >= 2 and k + 1 < len(envs) and envs[k + 1].step == e.step
              and envs[k + 1].kind == "mental.shares" and (k == 0 or envs[k - 1].step != e.step)]
    k = firsts[0]
    watcher = Session(game3.signed, seat=None)
    watcher.start()
    for line in lines[:k]:
        watcher.receive(line)
    step = envs[k].step
    with count_ops() as first:
        watcher.receive(lines[k])
    assert watcher.step == step and first.var_mul >= 3 * len(envs[k].body["items"])
    rest = [j for j in range(k + 1, len(envs)) if envs[j].step == step]
    with count_ops() as others:
        for j in rest:
            watcher.receive(lines[j])
    assert watcher.step > step
    # the first message's proofs are not checked a second time when the step completes
    assert others.var_mul == sum(3 * len(envs[j].body["items"]) for j in rest)
