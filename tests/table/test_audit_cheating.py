"""Lying seats at a live arcanoïd table (real mental poker, signed and chained messages).

A false "not me" to a Star call, or a Pope showing that leaves a card out, cannot be checked when
it is made: no honest peer sees the liar's hand. The lie is accepted, and the audit that closes the
round opens every card: every honest seat then aborts naming the liar, with the liar's own signed
answer as evidence, and the offline verifier reaches the same verdict from the transcript.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.table.harness import Table, once
from tests.table.helpers import verify

from p2ptarot.cards.arcanoid_tables import ALL_CARDS, POPE, STAR
from p2ptarot.engine import create
from p2ptarot.games.arcanoid.moves import Call, Pope
from p2ptarot.table.bodies import AbortBody
from p2ptarot.table.envelope import parse

SEATS = 4
CALLER, POPE_VICTIM, HOLDER = 0, 2, 3
CALLED, HIDDEN_BY_POPE = "cups-queen", "cups-9"


def _stack() -> list[str]:
    """Seat 0 holds the Star and the Pope; seat 3 holds cups-queen, seat 2 holds cups-9.
    Hands are dealt round-robin (handle i to seat i mod 4), the pile follows."""
    special = {STAR, POPE, CALLED, HIDDEN_BY_POPE}
    numeric = [c for c in ALL_CARDS if c.split("-")[-1].isdigit() and not c.startswith("trump")
               and c not in special and not c.endswith("-1")]
    hands = [numeric[6 * k:6 * k + 6] for k in range(SEATS)]
    hands[CALLER][:2] = [STAR, POPE]
    hands[HOLDER][0] = CALLED
    hands[POPE_VICTIM][0] = HIDDEN_BY_POPE
    dealt = [hands[i % SEATS][i // SEATS] for i in range(6 * SEATS)]
    order = create("arcanoid", SEATS, options={"first_seat": 0}).turn().chance.cards
    return dealt + [c for c in order if c not in dealt]


def _star_call(legal: list) -> Any:
    return next((m for m in legal if isinstance(m, Call) and m.card == STAR and m.called == CALLED), None)


def _pope_cups(legal: list) -> Any:
    return next((m for m in legal if isinstance(m, Pope) and m.category == "cups"), None)


def _table(script, blind: dict[int, set[str]], rounds: int) -> Table:
    t = Table("arcanoid", SEATS, seed=9, options={"first_seat": 0, "rounds": rounds},
              blind=blind, scripts={CALLER: once(script)}, stack=_stack())
    t.run()
    return t


def _answers(t: Table, seat: int, kind: str) -> list[dict]:
    """The moves of `kind` that `seat` signed, as every peer logged them."""
    moves = [parse(x) for x in t.records[0]]
    return [e.body["move"] for e in moves if e.kind in ("move", "move.open") and e.seat == seat
            and e.body["move"]["kind"] == kind]


def _assert_caught(t: Table, liar: int, lie: str, card: str) -> None:
    honest = [k for k in range(SEATS) if k != liar]
    for k in honest:
        assert t.finished[k] is None
        abort = t.aborted[k]
        assert abort is not None and abort.blame == liar, abort
        assert card in abort.reason
        session = t.sessions[k]
        # caught by the audit of the first deal (epoch 0), not earlier
        assert session.mental.epoch("tarot-78/arcanoid", 0).closed
        record = parse(session.aborts[0].encoded())
        evidence = AbortBody.model_validate(record.body).envelopes()
        assert len(evidence) == 1 and evidence[0].seat == liar
        assert evidence[0].body["move"]["kind"] == lie
        assert abort.step == evidence[0].step  # the abort names the step of the lie
        assert session.step > abort.step  # ...though it was found later, at the audit
    verdict = verify(t, t.records[honest[0]])
    assert not verdict.valid
    assert verdict.seat == liar
    assert card in (verdict.reason or "")
    assert verdict.step == t.aborted[honest[0]].step  # the step of the signed lie
    players = verdict.aborted_by_players  # what that seat concluded at the table, signed
    assert players and all(a["blame"] == liar for a in players)


@pytest.fixture(scope="module")
def false_not_me() -> Table:
    return _table(_star_call, blind={HOLDER: {CALLED}}, rounds=2)


def test_a_hidden_called_card_is_accepted_then_caught_at_the_audit(false_not_me: Table) -> None:
    t = false_not_me
    assert _answers(t, CALLER, "call")[0]["called"] == CALLED
    assert _answers(t, HOLDER, "pass"), "the holder answered the call with 'not me'"
    honest = t.sessions[1]
    lie = [c for c in honest.game.claims if c.kind == "not-held" and c.seat == HOLDER]
    assert lie and dict(lie[0].detail)["card"] == CALLED
    _assert_caught(t, HOLDER, "pass", CALLED)


def test_the_liar_own_session_also_convicts_itself(false_not_me: Table) -> None:
    abort = false_not_me.aborted[HOLDER]
    assert abort is not None and abort.blame == HOLDER


@pytest.fixture(scope="module")
def pope_withheld() -> Table:
    return _table(_pope_cups, blind={POPE_VICTIM: {HIDDEN_BY_POPE}}, rounds=2)


def test_an_incomplete_pope_showing_is_caught_at_the_audit(pope_withheld: Table) -> None:
    t = pope_withheld
    assert _answers(t, CALLER, "pope")[0]["category"] == "cups"
    shows = _answers(t, POPE_VICTIM, "show")
    assert shows and HIDDEN_BY_POPE not in shows[0]["cards"]
    holder_show = _answers(t, HOLDER, "show")[0]
    assert CALLED in holder_show["cards"]  # the honest seat showed its cups
    _assert_caught(t, POPE_VICTIM, "show", HIDDEN_BY_POPE)


def test_the_same_scene_played_honestly_finishes_and_verifies() -> None:
    t = _table(_star_call, blind={}, rounds=1)
    assert all(a is None for a in t.aborted)
    gives = _answers(t, HOLDER, "give")
    assert gives and gives[0]["card"] == CALLED
    verdict = verify(t, t.records[0])
    assert verdict.valid, verdict.reason
