"""The chaos game (issue 21 item 2): four hosts on a namespace LAN with 5 % loss on every card,
200 ± 50 ms delay and stalls on every connection, and one host's switch port down 10 s in every
20 (long enough for the heartbeat to drop links: they must heal). The game finishes, every peer
agrees, every transcript verifies, nobody is blamed. Times go to benchmarks/chaos.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from chaos_game import Chaos, play

pytestmark = [pytest.mark.network, pytest.mark.slow]


def test_a_game_on_a_lossy_slow_flapping_lan_finishes_and_verifies(tmp_path: Path) -> None:
    result = play(Chaos(limit=1200), chaos=True, work=tmp_path)
    detail = {k: result[k] for k in ("exit_codes", "outcomes", "flaps_at_seconds", "proxy")}
    assert result["flaps_at_seconds"] and result["proxy"]["stalls"] > 0, detail
    assert result["completed"] and result["all_peers_agree"], detail
    assert result["all_verified"], detail
    assert all(o.get("blame") is None for o in result["outcomes"].values()), detail
