"""A lie only a High Priestess's user could see at once, at a live arcanoïd table (real mental
poker; issue 24 item 5).

Seat 0 plays the High Priestess on seat 1 and so sees seat 1's hand, privately. Seat 1 then plays
one of those cards face up as the Justice (its engine is blind to that card, so it signs exactly
what a cheater would). Seat 0 must not refuse the move from what only it knows: it would convict
alone, before the card's opening, while seat 2 and the verifier could not. Seat 1's move obliges it
to open the card by its proven decryption share; once the table has it, every honest seat refuses
the move on the same reason, citing seat 1's signed move, and the offline verifier agrees on
every honest seat's transcript.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.table.harness import Table
from tests.table.helpers import verify

from p2ptarot.cards.arcanoid_tables import ALL_CARDS, JUSTICE, PRIESTESS
from p2ptarot.engine import create
from p2ptarot.games.arcanoid.moves import Play, Priestess
from p2ptarot.table.bodies import AbortBody
from p2ptarot.table.envelope import parse

SEATS, LOOKER, LIAR = 3, 0, 1
HIDDEN = "cups-5"


def _stack() -> list[str]:
    numeric = [c for c in ALL_CARDS if c.split("-")[-1].isdigit() and not c.startswith("trump")
               and c != HIDDEN]
    hands = [numeric[6 * k:6 * k + 6] for k in range(SEATS)]
    hands[LOOKER][0] = PRIESTESS
    hands[LIAR][0] = HIDDEN
    dealt = [hands[i % SEATS][i // SEATS] for i in range(6 * SEATS)]
    order = create("arcanoid", SEATS, options={"first_seat": 0}).turn().chance.cards
    return dealt + [c for c in order if c not in dealt]


def _looker(legal: list) -> Any:
    return next((m for m in legal if isinstance(m, Priestess) and m.target == LIAR), None)


def _liar(t: dict[str, Table]):
    done: list[Any] = []

    def script(legal: list) -> Any:
        if done or not any(m.KIND == "discard" for m in legal):
            return None
        game = t["table"].sessions[LIAR].game
        unknown = [h for h in game.parts[LIAR].hand if game.cards[h] is None]
        if len(unknown) != 1:
            return None
        done.append(Play(unknown[0], JUSTICE))
        return done[0]
    return script


@pytest.fixture(scope="module")
def caught() -> Table:
    holder: dict[str, Table] = {}
    t = Table("arcanoid", SEATS, seed=9, options={"first_seat": 0, "rounds": 1},
              blind={LIAR: {HIDDEN}}, scripts={LOOKER: _looker, LIAR: _liar(holder)},
              stack=_stack())
    holder["table"] = t
    t.run()
    return t


def _signed(t: Table, seat: int, kind: str) -> list[Any]:
    return [e for e in map(parse, t.records[2]) if e.kind == "move" and e.seat == seat
            and e.body["move"]["kind"] == kind]


def test_the_looker_saw_the_card_the_liar_played(caught) -> None:
    t = caught
    looks = _signed(t, LOOKER, "priestess")
    assert looks and looks[0].body["move"]["target"] == LIAR
    game = t.sessions[LOOKER].game
    lie = _signed(t, LIAR, "play")
    assert lie and lie[0].body["move"]["card"] == JUSTICE
    h = lie[0].body["move"]["handle"]
    assert game.cards[h] == HIDDEN  # the looker knew it before the move opened it


def test_every_honest_seat_and_the_verifier_convict_the_liar_together(caught) -> None:
    t = caught
    lie = _signed(t, LIAR, "play")[0]
    reasons = set()
    for k in (LOOKER, 2):
        assert t.finished[k] is None
        abort = t.aborted[k]
        assert abort is not None and abort.blame == LIAR, abort
        assert abort.step == lie.step
        record = parse(t.sessions[k].aborts[0].encoded())
        evidence = AbortBody.model_validate(record.body).envelopes()
        assert [e.body["move"] for e in evidence] == [lie.body["move"]]
        reasons.add(abort.reason)
        verdict = verify(t, t.records[k])
        assert not verdict.valid and verdict.seat == LIAR and verdict.step == lie.step, verdict
    assert len(reasons) == 1, reasons
    assert HIDDEN in reasons.pop()  # the card as its proven opening showed it
