"""Protocol 7 (PROTOCOL §6.7): live peers compare every deck message's named lists with the
operation their own engine asked for. A seat that signs a `mental.shares` whose `targets`,
`owing` or `audit` are not the operation's — even with exactly the shares it owes — is convicted
at that message's step by every honest peer, with the message as evidence, and the offline
verifier agrees; an honest game's messages always name the engine's lists (every game of
tests/table/test_every_game.py and tests/protocol/test_honest_named_lists.py finishes)."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from tests.table.harness import Table
from tests.table.helpers import deep, resign, verify

from p2ptarot.table.envelope import Envelope, parse


def _forge(t: Table, seat: int, pick: Callable[[Envelope], bool],
           change: Callable[[dict[str, Any]], None]) -> list[Envelope]:
    """Make `seat` sign a changed body instead of the first own envelope `pick` selects."""
    forged: list[Envelope] = []

    def tamper(k: int, env: Envelope, data: bytes) -> bytes:
        if k == seat and not forged and pick(env):
            body = deep(env.body)
            change(body)
            new = resign(t.ids[seat], env, body=body)
            forged.append(parse(new))
            return new
        return data
    t.tamper = tamper
    return forged


def _last_target_to_self(body: dict[str, Any]) -> None:
    body["targets"][-1][2] = body["seat"]


CASES = {
    "targets": (lambda e: e.kind == "mental.shares" and len(e.body["targets"]) >= 2
                and e.body["targets"][-1][2] not in (None, e.seat), _last_target_to_self,
                "targets differ"),
    "owing": (lambda e: e.kind == "mental.shares" and len(e.body["owing"]) >= 2,
              lambda b: b.update(owing=[b["seat"]]), "owing seats"),
    "audit": (lambda e: e.kind == "mental.shares" and not e.body["audit"],
              lambda b: b.update(audit=True), "shares say audit true"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_seat_naming_other_lists_is_convicted_live_and_offline(case: str) -> None:
    pick, change, words = CASES[case]
    t = Table("sinople", 3, seed=4)
    forged = _forge(t, 1, lambda e: e.seat == 1 and pick(e), change)
    t.run()
    assert forged, "the seat never sent such a message"
    for k in (0, 2):
        abort = t.aborted[k]
        assert t.finished[k] is None and abort is not None, abort
        assert abort.blame == 1 and abort.step == forged[0].step, abort
        assert words in abort.reason, abort.reason
        assert abort.evidence[0] == forged[0]
    verdict = verify(t, t.records[0])
    assert (verdict.valid, verdict.seat, verdict.step) == (False, 1, forged[0].step)
    assert words in verdict.reason
