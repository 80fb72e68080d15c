"""The hello handshake that authenticates one mesh link (pure functions, no I/O).

Each side sends ``{"hello": version, "key": <pub>, "nonce": <32 bytes>, "instance": <16 bytes>}``,
then ``{"proof": <signature>}`` over the *peer's* nonce, then ``{"ready": 1}`` once it has
verified the peer's proof (so a side whose proof was refused learns it from the close frame
instead of believing the link is up). Signing the peer's fresh nonce
proves possession of the identity key now (no replay of an old hello); binding both keys and
both nonces into the signed bytes stops a proof being reused on another link.  The
``instance`` id is random per running mesh so a peer restart can be told apart from a
duplicate concurrent dial (see ``linkset.LinkSet``).

This authenticates peers, it does not encrypt or bind the TCP channel: every table message is
signed on its own, so the link only needs to know *who* is on the other end.
"""

from __future__ import annotations

from p2ptarot.crypto.encoding import b64url, unb64url

import json
import os
import struct
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from p2ptarot.crypto.errors import CryptoError
from p2ptarot.crypto.signing import PUBLIC_BYTES, SIGNATURE_BYTES, verify_signature
from p2ptarot.net.errors import HandshakeError
from p2ptarot.i18n.message import tr

PUBLIC_KEY_SIZE = PUBLIC_BYTES
NONCE_SIZE = 32
INSTANCE_SIZE = 16
SIGNATURE_SIZE = SIGNATURE_BYTES
_PROOF_LABEL = b"p2ptarot/net/hello-proof/v1\x00"

# Application close codes (RFC 6455 reserves 4000-4999 for private use).
CLOSE_BAD_HELLO = 4001
CLOSE_VERSION = 4002
CLOSE_BAD_SIGNATURE = 4003
CLOSE_UNEXPECTED_KEY = 4004
CLOSE_SELF = 4005
CLOSE_REPLACED = 4006
CLOSE_DUPLICATE = 4007
CLOSE_TIMEOUT = 4008
CLOSE_BAD_FRAMES = 4009
CLOSE_FULL = 4010
CLOSE_FLOODED = 4011


@runtime_checkable
class Signer(Protocol):
    """What the mesh needs from a long-term identity; ``crypto.signing.Identity`` is one."""

    public_bytes: bytes

    def sign(self, data: bytes) -> bytes: ...


def public_key_of(identity: Signer) -> bytes:
    """The identity's raw Ed25519 public key, checked once up front."""
    value = identity.public_bytes
    if not isinstance(value, bytes) or len(value) != PUBLIC_KEY_SIZE:
        raise ValueError("identity.public_bytes must be 32 raw Ed25519 bytes")
    return value


b64u_encode = b64url


def b64u_decode(text: Any, size: int) -> bytes:
    """Strict unpadded base64url of exactly ``size`` bytes; canonical form only."""
    raw = unb64url(text)
    if len(raw) != size:
        raise ValueError(f"expected canonical base64url of {size} bytes")
    return raw


@dataclass(frozen=True)
class Hello:
    """One side's opening message."""

    version: int
    key: bytes
    nonce: bytes
    instance: bytes

    @classmethod
    def fresh(cls, version: int, key: bytes, instance: bytes) -> Hello:
        return cls(version=version, key=key, nonce=os.urandom(NONCE_SIZE), instance=instance)

    def encode(self) -> str:
        return _dumps(
            {
                "hello": self.version,
                "key": b64u_encode(self.key),
                "nonce": b64u_encode(self.nonce),
                "instance": b64u_encode(self.instance),
            }
        )


def parse_hello(text: str) -> Hello:
    """Decode a peer hello; raises ``HandshakeError`` (bad hello) on any malformation."""
    obj = _loads_object(text)
    try:
        version = obj["hello"]
        if type(version) is not int:
            raise ValueError("version must be an integer")
        return Hello(
            version=version,
            key=b64u_decode(obj["key"], PUBLIC_KEY_SIZE),
            nonce=b64u_decode(obj["nonce"], NONCE_SIZE),
            instance=b64u_decode(obj["instance"], INSTANCE_SIZE),
        )
    except (KeyError, ValueError) as exc:
        raise HandshakeError(CLOSE_BAD_HELLO, tr("bad hello: {exc}", exc=exc)) from exc


def proof_payload(signer_hello: Hello, verifier_hello: Hello) -> bytes:
    """Bytes the signer signs: label, version, the verifier's nonce first, then both keys."""
    return b"".join(
        (
            _PROOF_LABEL,
            struct.pack(">Q", signer_hello.version),
            verifier_hello.nonce,
            signer_hello.nonce,
            signer_hello.key,
            verifier_hello.key,
        )
    )


def make_proof(identity: Signer, mine: Hello, theirs: Hello) -> str:
    """Encode our ``{"proof": sig}`` answering the peer's hello."""
    signature = identity.sign(proof_payload(mine, theirs))
    return _dumps({"proof": b64u_encode(signature)})


def check_proof(text: str, mine: Hello, theirs: Hello) -> None:
    """Verify the peer's proof over our nonce; raises ``HandshakeError`` on failure."""
    obj = _loads_object(text)
    try:
        signature = b64u_decode(obj["proof"], SIGNATURE_SIZE)
    except (KeyError, ValueError) as exc:
        raise HandshakeError(CLOSE_BAD_HELLO, tr("bad proof message: {exc}", exc=exc)) from exc
    try:
        verify_signature(theirs.key, proof_payload(theirs, mine), signature)
    except CryptoError as exc:
        raise HandshakeError(CLOSE_BAD_SIGNATURE, tr("bad signature")) from exc


READY = '{"ready":1}'


def check_ready(text: str) -> None:
    """The peer accepted our proof; anything else is a protocol error."""
    if _loads_object(text) != {"ready": 1}:
        raise HandshakeError(CLOSE_BAD_HELLO, tr("expected ready"))


def _dumps(obj: dict[str, Any]) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _loads_object(text: str) -> dict[str, Any]:
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise HandshakeError(CLOSE_BAD_HELLO, tr("handshake frame is not JSON")) from exc
    if not isinstance(obj, dict):
        raise HandshakeError(CLOSE_BAD_HELLO, tr("handshake frame is not a JSON object"))
    return obj
