"""Protocol 7's named lists (PROTOCOL §6.7) never convict an honest seat: every game, played by
honest peers from several seeds (different deals, claims, shows, reshuffles and audits), runs to
its outcome on every peer, the reference verifier rates the log valid, and the verifier written
without any rules engine (stranger_verifier.py) checks every operation's `targets`, `owing` and
`audit` against the public record, every share owed, and every audit's listed handles, and finds
nothing wrong either. A wrong verdict is the worst bug: these are the games that would show one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.table.harness import Table
from tests.table.helpers import verify

from p2ptarot.engine import games
from p2ptarot.transcript import header_line

from . import stranger_verifier as sv

pytestmark = pytest.mark.slow  # a dozen whole games with real mental poker
SHORTEST: dict[str, dict[str, Any]] = {"arcanoid": {"rounds": 1}, "eleusis": {"rounds": 1},
                                       "arcanum": {"length": "short"}}
PLAYERS = {"arcanum": 3, "arcanoid": 3}
SEEDS = (21, 22)


def _cases() -> list[Any]:
    return [pytest.param(gi.name, seed, id=f"{gi.name}-{seed}") for gi in games()
            for seed in SEEDS]


@pytest.mark.parametrize(("game", "seed"), _cases())
def test_an_honest_game_is_valid_for_both_verifiers(game: str, seed: int, tmp_path: Path) -> None:
    gi = next(g for g in games() if g.name == game)
    players = PLAYERS.get(game, gi.min_players)
    t = Table(game, players, seed=seed, options=SHORTEST.get(game), shuffle_seed=seed)
    t.run()
    assert t.aborted == [None] * players, [a for a in t.aborted if a is not None]
    assert all(f is not None for f in t.finished)
    verdict = verify(t, t.records[0])
    assert verdict.valid, verdict.reason
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"\n".join([header_line(t.signed), *t.records[0]]) + b"\n")
    judged = sv.judge(path)
    assert judged["error"] is None, judged
    assert judged["counts"]["targets"] > 0 and judged["counts"]["shares"] > 0
