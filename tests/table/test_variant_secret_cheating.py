"""A lying secret engagement at a live arcanoïd table (KOBLENZ; MALTA+GAZA), real mental poker.

The liar lays `cups-2` and `coins-3` face down on cups: no transmuting Magician, so the content is
illegal. Nobody else can see it; the move is accepted, the `secret-legal` claim waits, and the
end-of-round reveal opens the cards: every honest seat aborts naming the liar with its own signed
secret engagement as evidence, and the offline verifier reaches the same verdict. (The liar's
engine is blind to `coins-3`, so it signs exactly what a cheater would.)
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.table.harness import Table
from tests.table.helpers import verify

from p2ptarot.cards.arcanoid_tables import ALL_CARDS, FOOL, MAGICIAN, TOWER
from p2ptarot.engine import create
from p2ptarot.games.arcanoid.secret import SecretEngage
from p2ptarot.games.arcanoid.variants.malta import MagicianSecret
from p2ptarot.table.bodies import AbortBody
from p2ptarot.table.envelope import parse

SEATS, LIAR = 4, 1
SECRET, HIDDEN = "cups-2", "coins-3"


def _stack(variant: str, usa: int) -> list[str]:
    """The liar holds the Magician, cups-2 and coins-3; the Fool and the Tower lie deep."""
    special = {MAGICIAN, SECRET, HIDDEN, FOOL, TOWER}
    numeric = [c for c in ALL_CARDS if c.split("-")[-1].isdigit() and not c.startswith("trump")
               and c not in special]
    n = SEATS + usa
    hands = [numeric[6 * k:6 * k + 6] for k in range(n)]
    hands[LIAR][:3] = [MAGICIAN, SECRET, HIDDEN]
    dealt = [hands[i % n][i // n] for i in range(6 * n)]
    order = create("arcanoid", SEATS, variant, options={"first_seat": 0}).turn().chance.cards
    rest = [c for c in order if c not in dealt and c not in (FOOL, TOWER)]
    return dealt + rest + [FOOL, TOWER]


def _script(t: dict[str, Table], variant: str):
    done: list[Any] = []

    def script(legal: list) -> Any:
        if done or not any(m.KIND == "discard" for m in legal):
            return None
        game = t["table"].sessions[LIAR].game
        hand = game.parts[LIAR].hand
        mine = {game.cards[h]: h for h in hand}
        unknown = [h for h in hand if game.cards[h] is None]
        if SECRET not in mine or len(unknown) != 1:
            return None
        handles = (mine[SECRET], unknown[0])
        move = (MagicianSecret(mine[MAGICIAN], MAGICIAN, "cups", handles) if "MALTA" in variant
                else SecretEngage("cups", handles))
        done.append(move)
        return move
    return script


def _play(variant: str, usa: int) -> Table:
    holder: dict[str, Table] = {}
    t = Table("arcanoid", SEATS, seed=5, variant=variant, options={"first_seat": 0, "rounds": 1},
              blind={LIAR: {HIDDEN}}, scripts={LIAR: _script(holder, variant)},
              stack=_stack(variant, usa))
    holder["table"] = t
    t.run()
    return t


def _signed(t: Table, seat: int, kind: str) -> list[dict]:
    moves = [parse(x) for x in t.records[0]]
    return [e.body["move"] for e in moves if e.kind == "move" and e.seat == seat
            and e.body["move"]["kind"] == kind]


@pytest.fixture(scope="module", params=[("KOBLENZ", 0, "secret-engage"),
                                        ("MALTA+GAZA", 1, "magician-secret")],
                ids=["KOBLENZ", "MALTA+GAZA"])
def caught(request) -> tuple[Table, str]:
    variant, usa, kind = request.param
    return _play(variant, usa), kind


def test_the_illegal_secret_engagement_is_blamed_on_the_liar(caught) -> None:
    t, kind = caught
    lie = _signed(t, LIAR, kind)
    assert lie and lie[0]["field"] == "cups" and "cards" not in lie[0]  # no values travelled
    for k in (0, 2, 3):
        assert t.finished[k] is None
        abort = t.aborted[k]
        assert abort is not None and abort.blame == LIAR, abort
        assert "secret engagement on cups" in abort.reason
        record = parse(t.sessions[k].aborts[0].encoded())
        evidence = AbortBody.model_validate(record.body).envelopes()
        assert len(evidence) == 1 and evidence[0].seat == LIAR
        assert evidence[0].body["move"]["kind"] == kind
        assert abort.step == evidence[0].step
    verdict = verify(t, t.records[0])
    assert not verdict.valid and verdict.seat == LIAR
    assert "secret engagement on cups" in (verdict.reason or "")


def test_the_lie_was_a_numbered_claim_of_the_liar(caught) -> None:
    t, kind = caught
    lie = _signed(t, LIAR, kind)[0]
    for k in (0, 2, 3):
        claims = [c for c in t.sessions[k].game.claim_log
                  if c.kind == "secret-legal" and c.seat == LIAR]
        assert claims and tuple(dict(claims[0].detail)["handles"]) == tuple(lie["handles"])
        assert claims[0] in t.sessions[k].game.claims  # never settled: it was false
