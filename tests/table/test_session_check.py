"""`Session.act` gates the local seat's move with the engine's `check` (contract v2): an illegal
or mistyped move is refused with the engine's reason and changes nothing; play then goes on."""

from __future__ import annotations

import pytest

from p2ptarot.games.sinople.moves import Play, Show
from p2ptarot.table.errors import MoveRefused

from tests.table.harness import Table


def test_act_refuses_an_illegal_move_with_the_engines_reason() -> None:
    t = Table("sinople", 2, seed=3)
    refused: list[str] = []

    def script(legal: list) -> None:
        session = t.sessions[0]
        if refused or session.game.view(0)["phase"] != "opener-search":
            return None
        step = session.step
        for bad in (Play(legal_handle(session), "num-a-0"), Show("seven", "num-a-0")):  # type: ignore[arg-type]
            with pytest.raises(MoveRefused) as err:
                session.act(bad)
            refused.append(err.value.reason)
        assert session.step == step and not session.finished
        return None

    def legal_handle(session) -> int:
        return session.game.hands[0][0]

    t.scripts[0] = script
    t.run()
    assert refused[0] == "the opener search takes only show or pass"
    assert refused[1] == "show field 'handle' has a value of the wrong type"
    assert all(f is not None for f in t.finished) and t.aborted == [None, None]
