"""The move-body codec: pure functions from a move to its signed bodies and back."""

from __future__ import annotations

import pytest

from p2ptarot.engine import Commit, Open, Turn, TurnKind
from p2ptarot.table import canonical
from p2ptarot.table.codec import (check_move_opening, coin_bodies, coin_digest, coin_opening,
                                  decode_move, open_move, seal_move, wire_move)
from p2ptarot.table.envelope import chain_start, seal
from p2ptarot.table.errors import TableUsageError, Violation
from p2ptarot.table.rounds import SeatSecrets, coin_label

from tests.table.secret_game import secret_vote  # noqa: F401  (fixture)
from tests.table.harness import Table

TABLE = bytes(range(32))


@pytest.fixture(scope="module")
def table() -> Table:
    return Table("sinople", 2, seed=5)


def _env(table: Table, kind: str, body: dict, step: int = 3, seat: int = 0):
    return seal(table.ids[seat], TABLE, step, seat, chain_start(TABLE), kind, body)


def test_a_blind_move_opens_to_exactly_what_was_sealed(table: Table) -> None:
    secrets = SeatSecrets(table.seeds[0], TABLE)
    body = {"move": {"kind": "pass"}, "shares": []}
    committed = _env(table, "move.commit", seal_move(body, secrets, TABLE, 3, 0))
    opened = _env(table, "move.open", open_move(committed, secrets, TABLE, 3), step=4)
    digest = canonical.unb64(committed.body["digest"], "digest", 32)
    assert check_move_opening(opened, committed, digest, TABLE, 3) == body
    other = _env(table, "move.open", {**opened.body, "move": {"kind": "other"}}, step=4)
    with pytest.raises(Violation) as err:  # another move than the one committed
        check_move_opening(other, committed, digest, TABLE, 3)
    assert err.value.seat == 0 and err.value.evidence == (other, committed)


def test_a_secret_is_committed_hidden_and_read_back_only_by_its_owner(secret_vote: str) -> None:
    t = Table(secret_vote, 3, seed=5)
    secrets = SeatSecrets(t.seeds[0], TABLE)
    body = wire_move(Commit("word", "red"), None, secrets, TABLE, 3, 0, {})
    assert body["move"]["value"] == "" and set(body["secret"]) == {"digest", "sealed"}
    game, env, turn = t.sessions[1].game, _env(t, "move", body), Turn(TurnKind.SEAT, (0,))
    theirs = decode_move(env, body, game, turn, 3, TABLE)
    assert theirs.move == Commit("word", "") and theirs.digest is not None
    mine = decode_move(env, body, game, turn, 3, TABLE, own=secrets)
    assert mine.move == Commit("word", "red") and mine.digest == theirs.digest
    clear = {**body, "move": {**body["move"], "value": "red"}}
    with pytest.raises(Violation, match="in the clear"):
        decode_move(_env(t, "move", clear), clear, game, turn, 3, TABLE)


def test_local_misuse_is_a_usage_error(table: Table) -> None:
    secrets = SeatSecrets(table.seeds[0], TABLE)
    with pytest.raises(TableUsageError):
        wire_move(Commit("rule", ""), None, secrets, TABLE, 3, 0, {})
    with pytest.raises(TableUsageError):
        wire_move(Open("rule", "x"), None, secrets, TABLE, 3, 0, {})


def test_a_coin_opening_must_match_its_commitment(table: Table) -> None:
    secrets = SeatSecrets(table.seeds[0], TABLE)
    commit_body, open_body = coin_bodies(secrets, TABLE, "deal", 0)
    digest = coin_digest(_env(table, "coin.commit", commit_body), "deal")
    value = coin_opening(_env(table, "coin.open", open_body), "deal", coin_label(TABLE, "deal", 0),
                         digest)
    assert value == secrets.coin(0)[0]
    with pytest.raises(Violation):
        coin_digest(_env(table, "coin.commit", commit_body), "another draw")
    _, other = coin_bodies(secrets, TABLE, "deal", 1)
    with pytest.raises(Violation):
        coin_opening(_env(table, "coin.open", other), "deal", coin_label(TABLE, "deal", 0), digest)


def test_a_coin_opening_under_another_purpose_is_convicted(table: Table) -> None:
    """The opening repeats its commitment's purpose (PROTOCOL §6.6): value and salt right, the
    purpose changed, the opener is convicted even though the digest still opens."""
    secrets = SeatSecrets(table.seeds[0], TABLE)
    commit_body, open_body = coin_bodies(secrets, TABLE, "deal", 0)
    digest = coin_digest(_env(table, "coin.commit", commit_body), "deal")
    env = _env(table, "coin.open", {**open_body, "purpose": "dealer"})
    with pytest.raises(Violation, match="another draw") as caught:
        coin_opening(env, "deal", coin_label(TABLE, "deal", 0), digest)
    assert caught.value.seat == env.seat
