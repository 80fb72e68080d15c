"""The stand-in marker on the wire: `by: "bot"` on a move body is signed with the move, travels
in plain moves and in blind openings, is refused in any other form (blamed on its signer, never
a crash), and changes no verdict: it is the seat's own, unverifiable word."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from p2ptarot.crypto.signing import Identity
from p2ptarot.table.bodies import MoveBody, MoveOpenBody
from p2ptarot.table.charter import Charter
from p2ptarot.table.envelope import parse
from p2ptarot.table.errors import TableUsageError
from p2ptarot.table.lobby import make_charter
from p2ptarot.table.session import Session

from tests.table.harness import Table
from tests.table.helpers import resign, verify


def _mark(table: Table, seat: int, numbers: range) -> None:
    """Seat `seat`'s moves number `numbers` (1-based) are played by its stand-in bot."""
    session = table.sessions[seat]
    count = {"n": 0}

    def act(move: Any) -> Any:
        count["n"] += 1
        return Session.act(session, move, by="bot" if count["n"] in numbers else None)
    session.act = act  # type: ignore[method-assign]


def _moves(lines: list[bytes], kinds: tuple[str, ...] = ("move", "move.open")) -> list[Any]:
    return [e for e in map(parse, lines) if e.kind in kinds]


#: a short whole game with plain moves (one round of arcanoïd), played twice: marked and not
SHORT = {"game": "arcanoid", "n": 2, "seed": 6, "shuffle_seed": 6, "options": {"rounds": 1}}


def test_marked_moves_are_signed_logged_and_change_no_verdict() -> None:
    plain = Table(**SHORT)
    plain.run()
    marked = Table(**SHORT)
    _mark(marked, 1, range(3, 8))
    marked.run()
    assert all(f is not None for f in marked.finished) and all(a is None for a in marked.aborted)
    assert marked.records[0] == marked.records[1]  # both seats logged the very same bytes
    bots = [e for e in _moves(marked.records[0]) if e.body.get("by") == "bot"]
    assert len(bots) == 5 and {e.seat for e in bots} == {1}
    assert all("by" not in e.body for e in _moves(plain.records[0]))  # absent for a human
    # the same game, move for move: only the marker differs, and the verdict not at all
    assert [e.body["move"] for e in _moves(marked.records[0])] == \
        [e.body["move"] for e in _moves(plain.records[0])]
    v_plain, v_marked = verify(plain, plain.records[0]), verify(marked, marked.records[0])
    assert v_plain.valid and v_marked.valid
    assert v_marked.outcome == v_plain.outcome and v_marked.steps == v_plain.steps


def test_a_blind_opening_carries_the_marker_under_its_commitment() -> None:
    table = Table("paris-divins", 2, seed=7, shuffle_seed=7)
    _mark(table, 0, range(1, 3))
    table.run()
    assert all(f is not None for f in table.finished)
    opened = [e for e in _moves(table.records[1], ("move.open",)) if e.body.get("by") == "bot"]
    assert len(opened) == 2 and {e.seat for e in opened} == {0}
    commits = _moves(table.records[1], ("move.commit",))
    assert all(set(e.body) == {"digest", "sealed"} for e in commits)  # nothing leaks before
    assert verify(table, table.records[1]).valid


@pytest.mark.parametrize("by", ["human", "BOT", "", None, 1, True, ["bot"], {"bot": 1}])
def test_a_forged_marker_is_a_malformed_body_blamed_on_its_signer(by: object) -> None:
    table = Table("sinople", 2, seed=8, shuffle_seed=8)
    forged: list[int] = []

    def tamper(sender: int, env: Any, data: bytes) -> bytes:
        if env.kind == "move" and sender == 0 and not forged:
            forged.append(env.step)
            return resign(table.ids[0], env, body={**env.body, "by": by})
        return data
    table.tamper = tamper
    table.run()
    aborted = table.aborted[1]
    assert forged and aborted is not None
    assert aborted.blame == 0 and aborted.step == forged[0]
    assert "malformed move body" in aborted.reason


def test_act_refuses_any_marker_but_bot() -> None:
    table = Table("sinople", 2, seed=9)
    session = table.sessions[0]
    for k, s in enumerate(table.sessions):
        table.handle(k, s.start())
    move = None
    while move is None:  # deliver until seat 0 is asked for its first move
        j, item = table.queue.popleft()
        if j == -1:
            move = item
        else:
            table.deliver(j, item)
    with pytest.raises(TableUsageError, match="marked by 'bot'"):
        session.act(move, by="human")
    effects = session.act(move, by="bot")
    sent = [e.envelope for e in effects if type(e).__name__ == "Send"]
    assert sent and sent[0].body["by"] == "bot"


def test_the_body_models_accept_only_bot_or_absent() -> None:
    body = {"move": {"kind": "pass"}, "shares": []}
    assert MoveBody.model_validate(body).by is None
    assert MoveBody.model_validate({**body, "by": "bot"}).wire()["by"] == "bot"
    assert "by" not in MoveBody.model_validate(body).wire()
    for bad in ("human", 1, True, ["bot"]):
        with pytest.raises(ValidationError):
            MoveBody.model_validate({**body, "by": bad})
    salt = "A" * 43
    assert MoveOpenBody.model_validate({**body, "by": "bot", "salt": salt}).by == "bot"


def _seats() -> list[tuple[bytes, str, str]]:
    return [(Identity.from_seed(bytes([k]) * 32).public_bytes, f"p{k}", "") for k in range(2)]


def test_the_charter_writes_the_stand_in_policy_strictly_bounded() -> None:
    charter = make_charter("sinople", _seats(), timeout=300, stand_in_after=60)
    assert charter.to_json()["stand_in_after"] == 60
    other = make_charter("sinople", _seats(), timeout=300, stand_in_after=61,
                         nonce=bytes(32))
    same = make_charter("sinople", _seats(), timeout=300, stand_in_after=60, nonce=bytes(32))
    assert other.table_id != same.table_id  # the policy is part of what every seat signs
    assert make_charter("sinople", _seats()).stand_in_after == 0  # never, unless the host says
    for bad in (-1, 3601, 300, 301, 60.0, "60", True, None):
        with pytest.raises(ValidationError):
            Charter.model_validate({**charter.to_json(), "stand_in_after": bad})
