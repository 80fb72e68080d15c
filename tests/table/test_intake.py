"""`Intake`, the object that owns what a peer has stored: checks, duplicates, the window of steps
ahead, equivocation and abort records, tested on the signed messages of a finished game."""

from __future__ import annotations

import pytest

from p2ptarot.table.envelope import parse
from p2ptarot.table.errors import Violation
from p2ptarot.table.intake import MAX_STEPS_AHEAD, Intake

from helpers import resign, unsigned_edit


def _fresh(game) -> tuple[Intake, list[bytes]]:
    return Intake(game.signed.charter, 0), game.records[0]


def test_a_message_is_held_once_and_its_duplicate_is_nothing(game2) -> None:
    intake, lines = _fresh(game2)
    first = parse(lines[0])
    taken = intake.take(lines[0], step=0)
    assert taken.env == first and taken.notice is None
    assert intake.held(0) == {first.seat: first}
    assert intake.take(lines[0], step=0).env is None  # the same bytes again: nothing new


def test_a_forged_signature_is_a_notice_and_changes_nothing(game2) -> None:
    intake, lines = _fresh(game2)
    forged = unsigned_edit(lines[0], {"x": 1})
    taken = intake.take(forged, step=0)
    assert taken.env is None and taken.notice is not None and "signature" in taken.notice
    assert intake.held(0) == {}


def test_too_far_ahead_is_refused_now_and_taken_later(game2) -> None:
    intake, lines = _fresh(game2)
    far = next(x for x in lines if parse(x).step > MAX_STEPS_AHEAD)
    step = parse(far).step
    assert intake.take(far, step=0).notice is not None
    assert intake.take(far, step=step).env == parse(far)  # not "seen" by the refusal


def test_two_versions_of_one_step_message_convict_their_signer(game2) -> None:
    intake, lines = _fresh(game2)
    env = parse(lines[0])
    twin = resign(game2.ids[env.seat], env, body={**env.body, "extra": 1})
    intake.take(lines[0], step=0)
    with pytest.raises(Violation) as err:
        intake.take(twin, step=0)
    assert err.value.seat == env.seat and "equivocation" in err.value.reason
    assert {e.digest() for e in err.value.evidence} == {env.digest(), parse(twin).digest()}


def test_a_twin_of_a_logged_message_convicts_after_the_step_completed(game2) -> None:
    intake, lines = _fresh(game2)
    env = parse(lines[0])
    intake.take(lines[0], step=0)
    intake.complete(0, [env])
    assert intake.log == [env] and intake.held(0) == {}
    twin = resign(game2.ids[env.seat], env, body={**env.body, "extra": 1})
    with pytest.raises(Violation):
        intake.take(twin, step=1)
    assert intake.take(lines[0], step=1).env is None  # the logged one again: a duplicate
