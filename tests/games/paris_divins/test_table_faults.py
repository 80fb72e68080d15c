"""A paris divins seat that signs a wager naming a card it was not dealt (another seat's, or an
undealt one) is blamed as soon as the wager is opened by every honest seat, with its own signed
opening as evidence."""

from __future__ import annotations

import pytest
from tests.table.harness import Table
from tests.table.helpers import verify

from p2ptarot.games.paris_divins.moves import Wager
from p2ptarot.table.effects import Aborted
from p2ptarot.table.envelope import parse

CHEAT = 1


@pytest.mark.parametrize("handle,what", [(0, "seat 0's card"), (95, "an undealt card")])
def test_a_wager_on_a_card_not_dealt_to_the_seat_is_blamed_at_once(handle: int, what: str) -> None:
    """The cheat's engine checks nothing, so its session commits to the bad wager and opens it
    consistently (the wagers are a blind round: commit, then open); the honest engines refuse it
    when it is opened."""
    t = Table("paris-divins", 3, seed=8)
    played: list[Wager] = []

    def script(legal: list):
        if played or not legal:
            return None
        played.append(Wager(handle, legal[0].bet))
        return played[0]

    t.scripts[CHEAT] = script
    t.sessions[CHEAT].game.check = lambda seat, move: None  # type: ignore[method-assign]
    t.run()
    assert played, what
    forged = [e for e in map(parse, t.records[0]) if e.kind == "move.open" and e.seat == CHEAT]
    assert forged and forged[0].body["move"]["handle"] == handle
    step = forged[0].step
    for honest in (0, 2):
        aborted = t.aborted[honest]
        assert isinstance(aborted, Aborted) and aborted.blame == CHEAT, aborted
        assert aborted.step == step and "not a card of its hand" in aborted.reason
        assert aborted.evidence[0] == forged[0]
    assert t.finished[0] is None and t.finished[2] is None
    verdict = verify(t, t.records[0])
    assert not verdict.valid and verdict.seat == CHEAT and verdict.step == step
