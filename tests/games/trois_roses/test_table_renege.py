"""A renege at a live trois roses table (real mental poker, signed chained messages).

Seat L's engine is kept blind to its own `minor-cup-god` (it signs exactly what a liar would):
on a cup lead it trumps, which says "I hold no cup". No honest peer can check that when it is
played; it becomes a numbered claim. When L later plays the cup it denied, the card opens, every
honest seat aborts naming L with L's own signed trump as evidence, and the offline verifier
reaches the same verdict from the transcript.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.table.harness import Table, once
from tests.table.helpers import verify

from p2ptarot.cards.roses_tables import DECK_IDS
from p2ptarot.games.trois_roses.moves import Play
from p2ptarot.table.bodies import AbortBody
from p2ptarot.table.envelope import parse

from .support import deal_order, fill_hands

SEED = 5
GOD, TRUMP = "minor-cup-god", "major-role-2"


class _Stop(Exception):
    pass


def _first_dealer() -> int:
    """The joint draw depends only on the seats' seeds: play a table until it is known."""
    t = Table("trois-roses", 3, seed=SEED, variant="single-deal")

    def observe(k: int, session: Any) -> None:
        if session.game.dealer >= 0:
            raise _Stop(session.game.dealer)
    t.observe = observe
    with pytest.raises(_Stop) as stop:
        t.run()
    return stop.value.args[0]


def _card(name: str):
    return lambda legal: next((m for m in legal if m.card == name), None)


@pytest.fixture(scope="module")
def renege() -> tuple[Table, int]:
    dealer = _first_dealer()
    leader, liar, third = (dealer + 1) % 3, (dealer + 2) % 3, dealer
    hands = fill_hands(3, {leader: ["minor-cup-3"], liar: [GOD, TRUMP], third: ["minor-cup-1"]},
                       avoid={liar: {"cup"}})
    order = deal_order(hands, dealer)
    god_handle = order.index(GOD)  # the first deal's handles are 0–95, in deck order
    asked = {"n": 0}

    def liar_script(legal: list) -> Any:
        asked["n"] += 1
        if asked["n"] == 1:  # trick 1, on the cup lead: trump while holding the god of cups
            return next(m for m in legal if m.card == TRUMP)
        if asked["n"] == 2:  # trick 2, leading: play the cup it denied (its engine cannot list it)
            return Play(god_handle, GOD)
        return None

    # the deal opens after the first-dealer draw, so the stack names the shuffle's open order
    t = Table("trois-roses", 3, seed=SEED, variant="single-deal", blind={liar: {GOD}},
              scripts={leader: once(_card("minor-cup-3")), third: once(_card("minor-cup-1")),
                       liar: liar_script}, stack=order, stack_cards=DECK_IDS)
    t.run()
    return t, liar


def test_the_lie_is_a_claim_then_caught_when_the_card_opens(renege) -> None:
    t, liar = renege
    honest = [k for k in range(3) if k != liar]
    for k in honest:
        assert t.finished[k] is None
        abort = t.aborted[k]
        assert abort is not None and abort.blame == liar, abort
        assert "false claim" in abort.reason and GOD in abort.reason
        session = t.sessions[k]
        claim = next(c for c in session.game.claim_log if c.seat == liar)
        assert claim.kind == "no-family" and dict(claim.detail) == {"family": "cup"}
        assert claim.where == "deal 1, trick 1"
        record = parse(session.aborts[0].encoded())
        evidence = AbortBody.model_validate(record.body).envelopes()
        assert len(evidence) == 1 and evidence[0].seat == liar
        move = evidence[0].body["move"]
        assert move["kind"] == "play" and move["card"] == TRUMP  # the liar's own signed trump
        assert abort.step == evidence[0].step < session.step  # the step of the lie, found later
    verdict = verify(t, t.records[honest[0]])
    assert not verdict.valid and verdict.seat == liar
    assert GOD in (verdict.reason or "")


def test_the_liar_own_session_also_convicts_itself(renege) -> None:
    t, liar = renege
    assert t.aborted[liar] is not None and t.aborted[liar].blame == liar
