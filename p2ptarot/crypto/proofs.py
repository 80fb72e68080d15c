"""Sigma proofs made non-interactive by Fiat–Shamir: Schnorr (key knowledge) and Chaum–Pedersen
(equality of discrete logs), plus the two uses of the latter the deck protocol needs:
decryption shares and re-encryptions.

Every challenge is ``hash_to_scalar(label, context, <every statement point>, <commitments>)`` with
a distinct label per use, so a proof can never be replayed for another statement, another use, or
another (table, epoch, step, seat) — the caller puts those into ``context`` ("Frozen Heart" and
copied-key attacks are closed here). Proofs travel as (c, s): 64 bytes. The verifier recomputes
the commitments from (c, s) and the statement and checks that they hash back to c; that single
check is the whole verification, so its failure message is exact.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Self

from .elgamal import Ciphertext
from .errors import InvalidEncoding, ProofError
from .group import G, SCALAR_BYTES, Point, Scalar, base_mul, hash_to_scalar
from p2ptarot.i18n.message import tr

LABEL_SCHNORR = "p2ptarot/schnorr"
LABEL_DLEQ = "p2ptarot/dleq"
LABEL_SHARE = "p2ptarot/share"
LABEL_REENC = "p2ptarot/reenc"


@dataclass(frozen=True, slots=True)
class _ChallengeResponse:
    """(c, s) with c the Fiat–Shamir challenge and s = k + c·x."""

    c: Scalar
    s: Scalar

    def encode(self) -> bytes:
        """64 bytes: c then s, each 32-byte little-endian < l."""
        return self.c.encode() + self.s.encode()

    @classmethod
    def decode(cls, data: bytes) -> Self:
        """Strict: exactly 64 bytes, both scalars reduced."""
        if not isinstance(data, (bytes, bytearray)) or len(data) != 2 * SCALAR_BYTES:
            raise InvalidEncoding(tr("{what}: expected {size} bytes", what=cls.__name__, size=64))
        return cls(Scalar.decode(bytes(data[:32])), Scalar.decode(bytes(data[32:])))


class SchnorrProof(_ChallengeResponse):
    """Proof of knowledge of x with h = x·G."""

    __slots__ = ()


class DleqProof(_ChallengeResponse):
    """Chaum–Pedersen proof that log_g1 h1 == log_g2 h2."""

    __slots__ = ()


def _require_nonidentity(name: str, **points: Point) -> None:
    for key, p in points.items():
        if p.is_identity:
            raise ProofError(tr("{name}: statement point {key} is the identity",
                                name=name, key=key))


# --- Schnorr -------------------------------------------------------------------------------

def _schnorr_challenge(h: Point, t: Point, context: bytes) -> Scalar:
    return hash_to_scalar(LABEL_SCHNORR, context, G.encode(), h.encode(), t.encode())


#: where a prover's secret nonces come from: the OS CSPRNG (conformance vectors pass a fixed list)
Nonces = Callable[[], Scalar]


def prove_key(x: Scalar, h: Point, context: bytes,
              nonce: Nonces = Scalar.random) -> SchnorrProof:
    """Prove knowledge of x = log_G h, bound to ``context`` (table id, epoch, seat...)."""
    if base_mul(x) != h:
        raise ValueError("prove_key: h != x·G")
    k = nonce()
    c = _schnorr_challenge(h, base_mul(k), context)
    return SchnorrProof(c, k + c * x)


def verify_key(h: Point, proof: SchnorrProof, context: bytes) -> None:
    """Raise ProofError unless ``proof`` shows knowledge of log_G h for this context."""
    _require_nonidentity("schnorr", h=h)
    t = base_mul(proof.s) - h * proof.c
    if _schnorr_challenge(h, t, context) != proof.c:
        raise ProofError(tr("schnorr: challenge mismatch (no knowledge of log_G h for this context)"))


# --- Chaum–Pedersen ---------------------------------------------------------------------------

def _dleq_challenge(label: str, context: bytes, statement: tuple[Point, ...],
                    t1: Point, t2: Point) -> Scalar:
    return hash_to_scalar(label, context, *(p.encode() for p in statement),
                          t1.encode(), t2.encode())


def _prove(label: str, x: Scalar, g1: Point, g2: Point, statement: tuple[Point, ...],
           context: bytes, nonce: Nonces = Scalar.random) -> DleqProof:
    k = nonce()
    c = _dleq_challenge(label, context, statement, g1 * k, g2 * k)
    return DleqProof(c, k + c * x)


def _verify(label: str, what: str, g1: Point, h1: Point, g2: Point, h2: Point,
            statement: tuple[Point, ...], proof: DleqProof, context: bytes) -> None:
    _require_nonidentity(what, g1=g1, h1=h1, g2=g2, h2=h2)
    t1 = g1 * proof.s - h1 * proof.c
    t2 = g2 * proof.s - h2 * proof.c
    if _dleq_challenge(label, context, statement, t1, t2) != proof.c:
        raise ProofError(tr("{what}: challenge mismatch (log_g1 h1 != log_g2 h2 for this statement)",
                            what=what))


def prove_dleq(x: Scalar, g1: Point, h1: Point, g2: Point, h2: Point,
               context: bytes) -> DleqProof:
    """Prove h1 = x·g1 and h2 = x·g2 (statement hashed in the order g1, h1, g2, h2)."""
    if g1 * x != h1 or g2 * x != h2:
        raise ValueError("prove_dleq: statement is false")
    return _prove(LABEL_DLEQ, x, g1, g2, (g1, h1, g2, h2), context)


def verify_dleq(g1: Point, h1: Point, g2: Point, h2: Point, proof: DleqProof,
                context: bytes) -> None:
    _verify(LABEL_DLEQ, "dleq", g1, h1, g2, h2, (g1, h1, g2, h2), proof, context)


# --- decryption shares -----------------------------------------------------------------------

def make_share(x: Scalar, h: Point, c: Ciphertext, context: bytes,
               nonce: Nonces = Scalar.random) -> tuple[Point, DleqProof]:
    """d = x·a with a proof that log_G h == log_a d (statement: G, h, a, d, b)."""
    d = c.a * x
    return d, _prove(LABEL_SHARE, x, G, c.a, (G, h, c.a, d, c.b), context, nonce)


def verify_share(h: Point, c: Ciphertext, d: Point, proof: DleqProof, context: bytes) -> None:
    """Raise ProofError unless d is the share of the key holder of h for ciphertext c."""
    _verify(LABEL_SHARE, "share", G, h, c.a, d, (G, h, c.a, d, c.b), proof, context)


# --- re-encryption ------------------------------------------------------------------------------

def prove_reencryption(r: Scalar, c: Ciphertext, c2: Ciphertext, H: Point,
                       context: bytes, nonce: Nonces = Scalar.random) -> DleqProof:
    """Prove c2 - c = (r·G, r·H), i.e. c2 re-encrypts c under H (statement: G, H, c, c2)."""
    da, db = c2.a - c.a, c2.b - c.b
    if base_mul(r) != da or H * r != db:
        raise ValueError("prove_reencryption: c2 is not c re-encrypted with r")
    return _prove(LABEL_REENC, r, G, H, _reenc_statement(c, c2, H), context, nonce)


def verify_reencryption(c: Ciphertext, c2: Ciphertext, H: Point, proof: DleqProof,
                        context: bytes) -> None:
    da, db = c2.a - c.a, c2.b - c.b
    _verify(LABEL_REENC, "reencryption", G, da, H, db, _reenc_statement(c, c2, H), proof, context)


def _reenc_statement(c: Ciphertext, c2: Ciphertext, H: Point) -> tuple[Point, ...]:
    return (G, H, c.a, c.b, c2.a, c2.b)
