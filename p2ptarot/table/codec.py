"""The move-body codec: pure functions between engine moves and signed bodies (PROTOCOL §4, §7).

Making a body (the local seat): a move as sent (`wire_move`), sealed into a blind commitment
(`seal_move`), and opened again from that signed commitment (`open_move`); the joint draw's
commit and open bodies (`coin_bodies`). Reading one (any seat's message): `decode_move` turns a
move body into the `ApplyMove` the engine will see; `check_move_opening`, `check_secret_opening`
and `coin_opening` check an opening against its commitment.

Nothing here holds state: the seat's secrets, the engine's parser and the commitments are passed
in. A malformed or mismatched body raises `Violation` against its author; a local body that
cannot be made raises `TableUsageError` (nothing was sent)."""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.crypto.commitment import check_commitment, commit
from p2ptarot.crypto.errors import CryptoError
from p2ptarot.engine import Commit, EngineError, GameState, Move, Open, Turn
from pydantic import BaseModel, ValidationError

from . import canonical, rounds
from .bodies import (CommitBody, MoveBody, MoveOpenBody, OpenBody, SealedCommitment, SecretSalt)
from .bridge import CommittedSecret
from .envelope import Envelope
from .errors import TableUsageError, Violation
from .rounds import SeatSecrets
from .steps import ApplyMove
from p2ptarot.i18n.message import tr


# ---- reading fields: a malformed one is its author's fault ---------------------------------------
def body_of(model: type[BaseModel], env: Envelope, body: Any = None) -> Any:
    """`env`'s body (or `body`, part of it) validated against `model`."""
    try:
        return model.model_validate(env.body if body is None else body)
    except ValidationError as exc:
        raise Violation(env.seat, tr("malformed {kind} body: {msg}",
                                     kind=env.kind, msg=exc.errors()[0]['msg']),
                        (env,)) from exc


def field_bytes(env: Envelope, text: str, what: str, size: int | None = None) -> bytes:
    """A base64url field of `env`'s body; a non-canonical one is its author's fault."""
    try:
        return canonical.unb64(text, what, size)
    except canonical.CanonicalError as exc:
        raise Violation(env.seat, tr("malformed {kind} body: {msg}",
                                     kind=env.kind, msg=exc), (env,)) from exc


# ---- the local seat's bodies -------------------------------------------------------------------
def _sealed_commitment(secrets: SeatSecrets, label: str, plain: bytes,
                       what: str) -> SealedCommitment:
    digest, _ = commit(label, plain, secrets.salt(label))
    try:
        sealed = secrets.seal(label, plain)
    except ValueError as exc:
        raise TableUsageError(tr("{what} is too large to commit: {exc}",
                                 what=what, exc=exc)) from exc
    return SealedCommitment(digest=canonical.b64(digest), sealed=canonical.b64(sealed))


def wire_move(move: Move, by: str | None, secrets: SeatSecrets, table_id: bytes, step: int,
              seat: int, committed: Mapping[str, CommittedSecret]) -> dict[str, Any]:
    """The body of a local move: an engine secret is committed (its value replaced by "" and
    sealed to this seat) or opened (with the salt of its commitment, found in `committed`)."""
    secret: SealedCommitment | SecretSalt | None = None
    if isinstance(move, Commit):
        if not move.value:
            raise TableUsageError(tr("a secret value is never empty"))
        label = rounds.secret_label(table_id, step, seat, move.name)
        secret = _sealed_commitment(secrets, label, move.value.encode("utf-8"),
                                    f"secret {move.name!r}")
        move = Commit(move.name, "")
    elif isinstance(move, Open):
        known = committed.get(move.name)
        if known is None or known.owner != seat:
            raise TableUsageError(tr("this seat committed no secret {name}", name=repr(move.name)))
        secret = SecretSalt(salt=canonical.b64(secrets.salt(known.label)))
    return MoveBody(move=move.to_json(), shares=[], secret=secret, by=by).wire()


def seal_move(body: dict[str, Any], secrets: SeatSecrets, table_id: bytes, step: int,
              seat: int) -> dict[str, Any]:
    """A blind move's `move.commit` body: the move body committed and sealed to its author."""
    label = rounds.move_label(table_id, step, seat)
    return _sealed_commitment(secrets, label, canonical.encode(body), "this move").model_dump()


def open_move(committed: Envelope, secrets: SeatSecrets, table_id: bytes,
              step: int) -> dict[str, Any]:
    """The `move.open` body of the local seat's blind move, read back from its own signed
    commitment of `step` (so a restarted seat opens exactly what it committed)."""
    label = rounds.move_label(table_id, step, committed.seat)
    sealed = SealedCommitment.model_validate(committed.body).sealed
    content = canonical.decode(secrets.unseal(label, canonical.unb64(sealed, "sealed")))
    return {**content, "salt": canonical.b64(secrets.salt(label))}


def coin_bodies(secrets: SeatSecrets, table_id: bytes, purpose: str,
                index: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The local seat's `coin.commit` and `coin.open` bodies for joint draw `index`."""
    value, salt = secrets.coin(index)
    digest, _ = commit(rounds.coin_label(table_id, purpose, index), value, salt)
    return (CommitBody(purpose=purpose, digest=canonical.b64(digest)).model_dump(),
            OpenBody(purpose=purpose, value=canonical.b64(value),
                     salt=canonical.b64(salt)).model_dump())


# ---- any seat's bodies -------------------------------------------------------------------------
def decode_move(env: Envelope, content: dict[str, Any], game: GameState, turn: Turn, origin: int,
                table_id: bytes, own: SeatSecrets | None = None) -> ApplyMove:
    """A move body as the engine will see it. A `commit` must hide its value and carry its
    commitment (`own`, given for the local seat's own message, unseals the value for its own
    engine); an `open` carries its salt; no other move carries a `secret`."""
    body = body_of(MoveBody, env, content)
    try:
        move = game.move_from_json(body.move)
    except (EngineError, TypeError, ValueError) as exc:
        raise Violation(env.seat, tr("unreadable move: {exc}", exc=exc), (env,)) from exc
    if "secret" in content and content["secret"] is None:
        raise Violation(env.seat, tr("malformed move body: a null secret"), (env,))
    if "by" in content and content["by"] is None:  # one byte form: absent, never null
        raise Violation(env.seat, tr("malformed move body: a null by"), (env,))
    digest = salt = None
    if isinstance(move, Commit):
        if move.value != "":
            raise Violation(env.seat, tr("committed secret {name} with its value in the clear",
                                         name=repr(move.name)), (env,))
        if not isinstance(body.secret, SealedCommitment):
            raise Violation(env.seat, tr("committed secret {name} without its commitment",
                                         name=repr(move.name)), (env,))
        digest = field_bytes(env, body.secret.digest, "digest", 32)
        if own is not None:
            label = rounds.secret_label(table_id, origin, env.seat, move.name)
            try:
                value = own.unseal(label, field_bytes(env, body.secret.sealed,
                                                      "sealed")).decode("utf-8")
            except ValueError as exc:  # UnicodeDecodeError is a ValueError
                raise Violation(env.seat, tr("its own sealed secret {name} cannot be read back: "
                                             "{exc}",
                                             name=repr(move.name), exc=exc), (env,)) from exc
            move = Commit(move.name, value)  # this seat's own secret
    elif isinstance(move, Open):
        if not isinstance(body.secret, SecretSalt):
            raise Violation(env.seat, tr("opened secret {name} without its salt",
                                         name=repr(move.name)), (env,))
        salt = field_bytes(env, body.secret.salt, "salt", 32)
    elif body.secret is not None:
        raise Violation(env.seat, tr("a {KIND} move carries a secret", KIND=move.KIND), (env,))
    return ApplyMove(env.seat, move, env, turn, origin, digest=digest, salt=salt)


def commitment_digest(env: Envelope) -> bytes:
    """The digest of a `move.commit` body."""
    return field_bytes(env, body_of(SealedCommitment, env).digest, "digest", 32)


def check_move_opening(env: Envelope, committed: Envelope, digest: bytes, table_id: bytes,
                       step: int) -> dict[str, Any]:
    """A `move.open` body must open its seat's commitment of `step` (a mismatch blames the
    opener, its opening and its commitment as evidence); returns the move body it opens."""
    body = body_of(MoveOpenBody, env)
    content = {k: v for k, v in env.body.items() if k != "salt"}
    try:
        check_commitment(rounds.move_label(table_id, step, env.seat), digest,
                         canonical.encode(content), field_bytes(env, body.salt, "salt", 32))
    except CryptoError as exc:
        raise Violation(env.seat, tr("its move does not match the commitment it signed in step "
                                     "{step}: {exc}",
                                     step=step, exc=exc), (env, committed)) from exc
    return content


def check_secret_opening(item: ApplyMove, committed: CommittedSecret) -> None:
    """An `Open` of the opener's own secret must match the commitment it signed, before the
    engine sees it: its opening and its commitment are the evidence of a mismatch."""
    move = item.move
    assert isinstance(move, Open) and item.salt is not None
    try:
        check_commitment(committed.label, committed.digest, move.value.encode("utf-8"), item.salt)
    except (CryptoError, UnicodeEncodeError) as exc:
        raise Violation(item.seat, tr("opened secret {name} to a value that does not match its "
                                      "commitment of step {step}",
                                      name=repr(move.name), step=committed.envelope.step),
                        (item.env, committed.envelope)) from exc


def coin_digest(env: Envelope, purpose: str) -> bytes:
    """The digest of a `coin.commit` body for the draw of `purpose`."""
    body = body_of(CommitBody, env)
    if body.purpose != purpose:
        raise Violation(env.seat, tr("commitment for another draw"), (env,))
    return field_bytes(env, body.digest, "digest", 32)


def coin_opening(env: Envelope, purpose: str, label: str, digest: bytes) -> bytes:
    """The value of a `coin.open` body, which must repeat its draw's `purpose` (the one its
    commitment named: PROTOCOL §6.6) and open `digest` under `label`."""
    body = body_of(OpenBody, env)
    if body.purpose != purpose:
        raise Violation(env.seat, tr("opening for another draw: purpose {purpose} where its "
                                     "commitment named {named}",
                                     purpose=repr(body.purpose), named=repr(purpose)), (env,))
    value = field_bytes(env, body.value, "value", 32)
    try:
        check_commitment(label, digest, value, field_bytes(env, body.salt, "salt", 32))
    except CryptoError as exc:
        raise Violation(env.seat, tr("opening does not match its commitment: {exc}",
                                     exc=exc), (env,)) from exc
    return value
