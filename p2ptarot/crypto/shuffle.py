"""Verifiable re-encryption shuffle: the Terelius–Wikström proof (CHVote GenShuffleProof /
CheckShuffleProof, Haenni et al. FC 2017), in additive notation over ristretto255.

Statement: ``out[i] = reencrypt(cts[perm[i]], H, rands[i])`` for some permutation ``perm`` and
scalars ``rands``. The proof shows (1) a Pedersen commitment ``com`` to a permutation matrix
(commitment j opens to generator h_{perm^-1(j)}) and (2) that ``out`` is the re-encryption of
``cts`` permuted by exactly that committed permutation.

Generators h_0..h_{N-1} are ``generators("p2ptarot/shuffle/h", N)`` and the chain base is
``generators("p2ptarot/shuffle/chain", 1)[0]``: hash-to-curve outputs, so no one knows any
discrete-log relation between them and G (which would let a prover open a commitment two ways).

Fiat–Shamir: the N challenges u_j and the main challenge c are derived from the *whole* statement
(context, H, every input and output ciphertext, every permutation commitment) and, for c, also
the commitment chain and every t value — spec/PROTOCOL.md §6.4 gives the exact byte layout, every
equation with its signs, and protocol/vectors/crypto.json works one proof through.

The proof carries its t values (not only the challenge) so that the verifier can say exactly
which equation failed ("shuffle: t3 mismatch"); it costs 8N+4 variable-base and N+4 fixed-base
multiplications to verify, 5N+1 and 3N+4 to prove.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from functools import lru_cache

from .elgamal import Ciphertext, reencrypt
from .encoding import transcript_hash
from .errors import InvalidEncoding, ProofError
from .group import (
    ORDER,
    POINT_BYTES,
    SCALAR_BYTES,
    Point,
    Scalar,
    base_mul,
    generators,
    hash_to_scalar,
    multi_mul,
    point_sum,
)
from p2ptarot.i18n.message import tr

LABEL_GENERATORS = "p2ptarot/shuffle/h"
LABEL_CHAIN_BASE = "p2ptarot/shuffle/chain"
LABEL_U = "p2ptarot/shuffle/u"
LABEL_U_I = "p2ptarot/shuffle/u_i"
LABEL_C = "p2ptarot/shuffle/c"


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """Terelius–Wikström proof for N ciphertexts.

    Wire layout (``encode``), all points/scalars 32 bytes, no header (N comes from the
    statement): com[N] | chain[N] | t1 | t2 | t3 | t41 | t42 | t_hat[N] | s1 | s2 | s3 | s4 |
    s_hat[N] | s_prime[N]  —  (3N+5) points then (2N+4) scalars.
    """

    com: tuple[Point, ...]
    chain: tuple[Point, ...]
    t1: Point
    t2: Point
    t3: Point
    t41: Point
    t42: Point
    t_hat: tuple[Point, ...]
    s1: Scalar
    s2: Scalar
    s3: Scalar
    s4: Scalar
    s_hat: tuple[Scalar, ...]
    s_prime: tuple[Scalar, ...]

    @property
    def n(self) -> int:
        return len(self.com)

    @staticmethod
    def size(n: int) -> int:
        return (3 * n + 5) * POINT_BYTES + (2 * n + 4) * SCALAR_BYTES

    def encode(self) -> bytes:
        pts = (*self.com, *self.chain, self.t1, self.t2, self.t3, self.t41, self.t42, *self.t_hat)
        scs = (self.s1, self.s2, self.s3, self.s4, *self.s_hat, *self.s_prime)
        return b"".join(p.encode() for p in pts) + b"".join(s.encode() for s in scs)

    @classmethod
    def decode(cls, data: bytes, n: int) -> ShuffleProof:
        """Strict: exact size for n, every point via Point.decode, every scalar via Scalar.decode."""
        if n < 1:
            raise InvalidEncoding(tr("shuffle proof: n must be >= 1"))
        if not isinstance(data, (bytes, bytearray)) or len(data) != cls.size(n):
            raise InvalidEncoding(tr("shuffle proof: expected {size} bytes for n={n}",
                                     size=cls.size(n), n=n))
        data = bytes(data)
        npts = 3 * n + 5
        pts = [Point.decode(data[i * 32:(i + 1) * 32]) for i in range(npts)]
        off = npts * 32
        scs = [Scalar.decode(data[off + i * 32: off + (i + 1) * 32]) for i in range(2 * n + 4)]
        return cls(
            com=tuple(pts[:n]), chain=tuple(pts[n:2 * n]),
            t1=pts[2 * n], t2=pts[2 * n + 1], t3=pts[2 * n + 2],
            t41=pts[2 * n + 3], t42=pts[2 * n + 4], t_hat=tuple(pts[2 * n + 5:]),
            s1=scs[0], s2=scs[1], s3=scs[2], s4=scs[3],
            s_hat=tuple(scs[4:4 + n]), s_prime=tuple(scs[4 + n:]),
        )


# --- public-parameter helpers ---------------------------------------------------------------

def _gens(n: int) -> list[Point]:
    return generators(LABEL_GENERATORS, n)


def _chain_base() -> Point:
    return generators(LABEL_CHAIN_BASE, 1)[0]


@lru_cache(maxsize=32)
def _gens_sum(n: int) -> Point:
    return point_sum(_gens(n))


def _statement_parts(context: bytes, H: Point, cts: list[Ciphertext], out: list[Ciphertext],
                     com: tuple[Point, ...] | list[Point]) -> list[bytes]:
    return [context, H.encode(), len(cts).to_bytes(8, "big"),
            b"".join(c.encode() for c in cts), b"".join(c.encode() for c in out),
            b"".join(p.encode() for p in com)]


def _u_challenges(statement: list[bytes], n: int) -> list[Scalar]:
    seed = transcript_hash(LABEL_U, *statement)
    return [hash_to_scalar(LABEL_U_I, seed, j.to_bytes(8, "big")) for j in range(n)]


def _main_challenge(statement: list[bytes], chain: tuple[Point, ...] | list[Point],
                    t: tuple[Point, ...], t_hat: tuple[Point, ...] | list[Point]) -> Scalar:
    return hash_to_scalar(LABEL_C, *statement,
                          b"".join(p.encode() for p in chain),
                          b"".join(p.encode() for p in t),
                          b"".join(p.encode() for p in t_hat))


# --- shuffle and prove ------------------------------------------------------------------------

def random_permutation(n: int) -> list[int]:
    """Uniform permutation of range(n) (Fisher–Yates over the OS CSPRNG)."""
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def shuffle(cts: list[Ciphertext], H: Point) -> tuple[list[Ciphertext], list[int], list[Scalar]]:
    """Re-encrypt and permute: ``out[i] = reencrypt(cts[perm[i]], H, rands[i])``."""
    perm = random_permutation(len(cts))
    rands = [Scalar.random() for _ in cts]
    out = [reencrypt(cts[perm[i]], H, rands[i]) for i in range(len(cts))]
    return out, perm, rands


def prove_shuffle(cts: list[Ciphertext], out: list[Ciphertext], perm: list[int],
                  rands: list[Scalar], H: Point, context: bytes,
                  nonce: Callable[[], Scalar] = Scalar.random) -> ShuffleProof:
    """Prove that ``out`` is ``cts`` re-encrypted with ``rands`` and permuted by ``perm``.

    ``nonce`` draws the prover's secret scalars, in this order: r[0..N-1] (permutation
    commitment), r_hat[0..N-1] (chain), w1, w2, w3, w4, w_hat[0..N-1], w_prime[0..N-1]."""
    n = len(cts)
    if n < 1 or len(out) != n or len(rands) != n or sorted(perm) != list(range(n)):
        raise ValueError("prove_shuffle: inconsistent sizes or not a permutation")
    hs = _gens(n)
    h0 = _chain_base()

    # Permutation commitment: com[perm[i]] = r[perm[i]]·G + h_i.
    r = [nonce() for _ in range(n)]
    com_list: list[Point | None] = [None] * n
    for i in range(n):
        j = perm[i]
        com_list[j] = base_mul(r[j]) + hs[i]
    com = tuple(p for p in com_list if p is not None)

    statement = _statement_parts(context, H, cts, out, com)
    u = _u_challenges(statement, n)
    u_t = [u[perm[i]] for i in range(n)]

    # The nonces in their fixed order, then the message and randomness halves (t41, t42: 2N of
    # the 5N variable-base multiplications, needing neither the chain nor the challenge) on a
    # second core while this thread builds the chain and the rest (libsodium drops the GIL).
    r_hat = [nonce() for _ in range(n)]
    w1, w2, w3, w4 = (nonce() for _ in range(4))
    w_hat = [nonce() for _ in range(n)]
    w_prime = [nonce() for _ in range(n)]

    def halves() -> tuple[Point, Point]:
        return (multi_mul([-w4, *w_prime], [H, *(c.b for c in out)]),
                base_mul(-w4) + multi_mul(w_prime, [c.a for c in out]))

    pending = _in_parallel(halves) if _parallel(n) else None

    # Commitment chain: chain[i] = r_hat[i]·G + u_t[i]·chain[i-1], chain[-1] = h0.
    chain: list[Point] = []
    prev = h0
    for i in range(n):
        prev = base_mul(r_hat[i]) + prev * u_t[i]
        chain.append(prev)

    t1 = base_mul(w1)
    t2 = base_mul(w2)
    t3 = base_mul(w3) + multi_mul(w_prime, hs)
    t_hat = [base_mul(w_hat[i]) + (chain[i - 1] if i else h0) * w_prime[i] for i in range(n)]
    t41, t42 = pending.result() if pending is not None else halves()

    c = _main_challenge(statement, chain, (t1, t2, t3, t41, t42), t_hat)

    r_bar = _scalar_sum(r)
    v = [Scalar(1)] * n
    for i in range(n - 1, 0, -1):
        v[i - 1] = u_t[i] * v[i]
    r_hat_sum = _scalar_sum([r_hat[i] * v[i] for i in range(n)])
    r_tilde = _scalar_sum([r[j] * u[j] for j in range(n)])
    r_prime = _scalar_sum([rands[i] * u_t[i] for i in range(n)])

    return ShuffleProof(
        com=com, chain=tuple(chain), t1=t1, t2=t2, t3=t3, t41=t41, t42=t42, t_hat=tuple(t_hat),
        s1=w1 - c * r_bar, s2=w2 - c * r_hat_sum, s3=w3 - c * r_tilde, s4=w4 - c * r_prime,
        s_hat=tuple(w_hat[i] - c * r_hat[i] for i in range(n)),
        s_prime=tuple(w_prime[i] - c * u_t[i] for i in range(n)),
    )


def _scalar_sum(xs: list[Scalar]) -> Scalar:
    return Scalar.from_int(sum(x.value for x in xs))


# --- verify -------------------------------------------------------------------------------------

def verify_shuffle(cts: list[Ciphertext], out: list[Ciphertext], H: Point, proof: ShuffleProof,
                   context: bytes) -> None:
    """Raise ProofError (naming the failed equation) unless ``out`` is a shuffle of ``cts``."""
    n = len(cts)
    if n < 1:
        raise ProofError(tr("shuffle: empty input"))
    if len(out) != n:
        raise ProofError(tr("shuffle: {out} outputs for {n} inputs", out=len(out), n=n))
    if not (len(proof.com) == len(proof.chain) == len(proof.t_hat) == len(proof.s_hat)
            == len(proof.s_prime) == n):
        raise ProofError(tr("shuffle: proof sized for another N (expected {n})", n=n))
    if H.is_identity:
        raise ProofError(tr("shuffle: public key is the identity"))
    hs = _gens(n)
    h0 = _chain_base()
    statement = _statement_parts(context, H, cts, out, proof.com)
    u = _u_challenges(statement, n)
    c = _main_challenge(statement, proof.chain,
                        (proof.t1, proof.t2, proof.t3, proof.t41, proof.t42), proof.t_hat)
    cu = [c * uj for uj in u]
    sp = list(proof.s_prime)

    # The message and randomness halves (t41, t42: 4N variable-base multiplications, half the
    # work) are summed on a second core while this thread does the rest: libsodium runs without
    # the GIL. The equations are then checked in their fixed order, so the same proof always
    # fails with the same message.
    def halves() -> tuple[Point, Point]:
        t41 = multi_mul([*cu, -proof.s4, *sp], [*(x.b for x in cts), H, *(y.b for y in out)])
        t42 = multi_mul([*cu, *sp], [*(x.a for x in cts), *(y.a for y in out)]) \
            + base_mul(-proof.s4)
        return t41, t42

    pending = _in_parallel(halves) if _parallel(n) else None

    # t1: c·(sum com - sum h) + s1·G  (permutation commitment opens to sum of generators)
    c_bar = point_sum(list(proof.com)) - _gens_sum(n)
    t1_ok = c_bar * c + base_mul(proof.s1) == proof.t1

    # t2: c·(chain[N-1] - (prod u)·h0) + s2·G  (chain ends at the product of the challenges)
    u_prod = 1
    for uj in u:
        u_prod = u_prod * uj.value % ORDER
    t2_ok = multi_mul([c, -c * Scalar(u_prod)], [proof.chain[-1], h0]) + base_mul(proof.s2) \
        == proof.t2

    # t3: sum (c·u_j)·com_j + s3·G + sum s'_i·h_i
    t3_ok = multi_mul([*cu, *sp], [*proof.com, *hs]) + base_mul(proof.s3) == proof.t3

    # t_hat_i: c·chain[i] + s_hat_i·G + s'_i·chain[i-1]
    t_hat_bad: int | None = None
    prev = h0
    for i in range(n):
        cur = proof.chain[i]
        if multi_mul([c, sp[i]], [cur, prev]) + base_mul(proof.s_hat[i]) != proof.t_hat[i]:
            t_hat_bad = i
            break
        prev = cur

    # t41: sum (c·u_j)·b_j - s4·H + sum s'_i·b'_i   (message halves)
    # t42: sum (c·u_j)·a_j - s4·G + sum s'_i·a'_i   (randomness halves)
    t41, t42 = pending.result() if pending is not None else halves()
    if not t1_ok:
        raise ProofError(tr("shuffle: {check} mismatch", check="t1"))
    if not t2_ok:
        raise ProofError(tr("shuffle: {check} mismatch", check="t2"))
    if not t3_ok:
        raise ProofError(tr("shuffle: {check} mismatch", check="t3"))
    if t41 != proof.t41:
        raise ProofError(tr("shuffle: {check} mismatch", check="t41"))
    if t42 != proof.t42:
        raise ProofError(tr("shuffle: {check} mismatch", check="t42"))
    if t_hat_bad is not None:
        raise ProofError(tr("shuffle: {check} mismatch", check=f"t_hat[{t_hat_bad}]"))


_CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
_PARALLEL_FROM = 8
"""Below this many cards a second thread costs more than it saves."""
_second_core = False


def use_second_core(on: bool = True) -> None:
    """Let shuffle proofs be made and checked on two threads in this process (when it may use
    two cores). For a process that has the machine to itself, such as ``p2ptarot verify``: it
    cuts the wall time, not the CPU. Off by default, because peers sharing the cores of one
    machine (the benchmarks' tables, 4 peers on 2 cores) spent 20-35 % more CPU over a whole game
    with it on (benchmarks/README.md, issue 35)."""
    global _second_core
    _second_core = on


def _parallel(n: int) -> bool:
    return _second_core and _CORES > 1 and n >= _PARALLEL_FROM


def _in_parallel(work: Callable[[], tuple[Point, Point]]) -> Future[tuple[Point, Point]]:
    """Run ``work`` on a short-lived daemon thread; its result (or exception) in a Future."""
    done: Future[tuple[Point, Point]] = Future()

    def run() -> None:
        try:
            done.set_result(work())
        except BaseException as exc:  # handed to the caller, raised by result()
            done.set_exception(exc)

    threading.Thread(target=run, name="shuffle-verify", daemon=True).start()
    return done
