"""A paris divins seat that signs a wager naming a card it was not dealt (another seat's, or an
undealt one) is blamed at once by every honest seat, with its own signed wager as evidence."""

from __future__ import annotations

import pytest
from roses_support.table import Table, resign, verify

from p2ptarot.table.effects import Aborted
from p2ptarot.table.envelope import parse

CHEAT = 1


@pytest.mark.parametrize("handle,what", [(0, "seat 0's card"), (95, "an undealt card")])
def test_a_wager_on_a_card_not_dealt_to_the_seat_is_blamed_at_once(handle: int, what: str) -> None:
    t = Table("paris-divins", 3, seed=8)
    forged: list[bytes] = []

    def tamper(k, env, data):
        if k == CHEAT and env.kind == "move" and not forged:
            move = {**env.body["move"], "handle": handle}
            forged.append(resign(t.ids[CHEAT], env, body={**env.body, "move": move}))
            return forged[0]
        return data

    t.tamper = tamper
    t.run()
    assert forged, what
    step = parse(forged[0]).step
    for honest in (0, 2):
        aborted = t.aborted[honest]
        assert isinstance(aborted, Aborted) and aborted.blame == CHEAT, aborted
        assert aborted.step == step and "not a card of its hand" in aborted.reason
    assert t.finished == [None, None, None]
    verdict = verify(t, t.records[0])
    assert not verdict.valid and verdict.seat == CHEAT and verdict.step == step
