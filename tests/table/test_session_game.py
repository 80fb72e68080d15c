"""Full in-memory games: every seat agrees, every log is identical, the verifier accepts it."""

from __future__ import annotations

from collections import Counter

import pytest
from tests.table.helpers import verify

from p2ptarot.table.envelope import parse


@pytest.mark.parametrize("name", ["game2", "game3"])
def test_game_finishes_with_one_outcome_on_every_seat(name: str, request) -> None:
    t = request.getfixturevalue(name)
    assert all(a is None for a in t.aborted)
    assert all(f is not None for f in t.finished)
    outcomes = [f.outcome.to_json() for f in t.finished]
    assert all(o == outcomes[0] for o in outcomes)


@pytest.mark.parametrize("name", ["game2", "game3"])
def test_every_seat_logs_the_same_bytes(name: str, request) -> None:
    t = request.getfixturevalue(name)
    assert all(r == t.records[0] for r in t.records)
    assert all(s.log == t.sessions[0].log for s in t.sessions)


@pytest.mark.parametrize("name", ["game2", "game3"])
def test_verifier_accepts_the_log_and_finds_the_same_outcome(name: str, request) -> None:
    t = request.getfixturevalue(name)
    verdict = verify(t, t.records[0])  # the logs are byte-identical, so this covers every seat
    assert verdict.valid, verdict.reason
    assert verdict.outcome == t.finished[0].outcome.to_json()
    assert verdict.steps == t.sessions[0].step


def test_log_is_in_step_then_seat_order_with_one_chain(game3) -> None:
    envs = [parse(x) for x in game3.records[0]]
    keys = [(e.step, e.seat) for e in envs]
    # steps in order; inside a step the order is the step's seat list (engine order for a move
    # window, ascending otherwise), the same on every peer
    assert [k[0] for k in keys] == sorted(k[0] for k in keys) and len(set(keys)) == len(keys)
    by_step = Counter(e.step for e in envs)
    assert set(by_step) == set(range(game3.sessions[0].step))
    for step in by_step:
        assert len({e.prev for e in envs if e.step == step}) == 1
    kinds = Counter(e.kind for e in envs)
    assert kinds["result"] == 3 and "mental.reveal-key" not in kinds and kinds["abort"] == 0


def test_reordering_one_step_in_a_transcript_is_rejected(game2) -> None:
    """A transcript is the log: inside a step the lines are in seat order, so one game has exactly
    one transcript. (Fails today: the verifier re-sorts a step's lines itself.)"""
    lines = list(game2.records[0])
    envs = [parse(x) for x in lines]
    i = next(k for k in range(len(envs) - 1) if envs[k].step == envs[k + 1].step)
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    verdict = verify(game2, lines)
    assert not verdict.valid
    assert verdict.step == envs[i].step
