"""The worked cryptographic conformance vector, protocol/vectors/crypto.json (PROTOCOL §6.4).

One small deck epoch at a real, signed 2-seat charter, carried through every primitive with every
intermediate value: the charter hash, both epoch keys (derived from their seeds) and their
Schnorr proofs, the joint key, card points and the open deck, seat 0's shuffle of it with the
whole Terelius–Wikström proof (permutation commitment, challenges, chain, t values, aggregates,
responses), a decryption share and a re-encryption with their Chaum–Pedersen proofs, the
decryption, a hash commitment, a joint draw, a sealed value, a signed envelope and the chain.

Every secret a prover draws comes from a fixed list (`nonces`, written out in draw order), so the
file is byte-identical on every run. `make_vectors.py` writes it; `tests/protocol/
test_crypto_vector.py` recomputes every value from the spec's equations with its own code (only
libsodium's group operations in common) and checks the reference verifiers accept every proof.
"""

from __future__ import annotations

import hashlib
from typing import Any

import nacl.secret

from p2ptarot.crypto import shuffle as shuf
from p2ptarot.crypto.commitment import commit
from p2ptarot.crypto.elgamal import Ciphertext, combine, reencrypt
from p2ptarot.crypto.encoding import lp
from p2ptarot.crypto.group import G, ORDER, Point, Scalar, base_mul, generators, point_sum
from p2ptarot.crypto.proofs import make_share, prove_key, prove_reencryption
from p2ptarot.crypto.signing import Identity
from p2ptarot.mental import binding
from p2ptarot.mental.epoch import card_point
from p2ptarot.mental.randomness import random_scalar
from p2ptarot.table import canonical, rounds
from p2ptarot.table.envelope import chain_next, chain_start, seal
from p2ptarot.table.lobby import make_charter, signed_locally
from p2ptarot.table.secrets import EpochKeySource

DECK = "vector-deck"
EPOCH = 1
CARDS = ("c0", "c1", "c2", "c3")
PERM = (2, 0, 3, 1)  # out[i] re-encrypts in[PERM[i]]


def _hex(b: bytes) -> str:
    return b.hex()


def _pt(p: Point) -> str:
    return p.encode().hex()


def _sc(s: Scalar) -> str:
    return s.encode().hex()


def _ct(c: Ciphertext) -> str:
    return c.encode().hex()


class _Nonces:
    """Fixed prover secrets: n_k = int_le(SHA-512("p2ptarot/vector-nonce" ‖ u64be(k))) mod l."""

    def __init__(self) -> None:
        self.drawn: list[Scalar] = []

    def __call__(self) -> Scalar:
        k = len(self.drawn)
        digest = hashlib.sha512(b"p2ptarot/vector-nonce" + k.to_bytes(8, "big")).digest()
        s = Scalar.from_int(int.from_bytes(digest, "little"))
        self.drawn.append(s)
        return s

    def take(self, n: int) -> list[Scalar]:
        return [self() for _ in range(n)]


def identities() -> list[Identity]:
    return [Identity.from_seed(hashlib.sha256(b"p2ptarot/crypto-vector-identity/%d" % k).digest())
            for k in range(2)]


def build() -> dict[str, Any]:
    ids = identities()
    charter = make_charter("sinople", [(i.public_bytes, f"p{k}", "") for k, i in enumerate(ids)],
                           nonce=hashlib.sha256(b"p2ptarot/crypto-vector-nonce").digest(),
                           timeout=300)
    signed = signed_locally(charter, ids)
    table_id = charter.table_id
    seeds = [hashlib.sha256(b"p2ptarot/crypto-vector-seed/%d" % k).digest() for k in range(2)]
    out: dict[str, Any] = {
        "description": "one deck epoch worked through every primitive (PROTOCOL §6.4); hex "
                       "unless said otherwise; scalars 32-byte little-endian, points canonical "
                       "ristretto255 encodings; 'nonces' are the provers' secret draws in order",
        "group": {"l": str(ORDER), "G": _pt(G)},
        "charter": {"canonical": _hex(charter.encoded()), "table_id": _hex(table_id),
                    "signatures": list(signed.signatures),
                    "identity_seeds": [_hex(i.seed()) for i in ids]},
        "deck": DECK, "epoch": EPOCH, "cards": list(CARDS),
    }
    nonces = _Nonces()

    # ---- keys (op 0): x_i from the seat's seed (§11), Schnorr proofs --------------------------
    keys = []
    xs: list[Scalar] = []
    for seat in range(2):
        src = EpochKeySource(seeds[seat], table_id)
        src.arm(DECK, EPOCH)
        info = lp(b"p2ptarot/epoch-key", table_id, DECK.encode(), EPOCH.to_bytes(8, "big"))
        x = random_scalar(src)
        h = base_mul(x)
        ctx = binding.key_context(table_id, DECK, EPOCH, seat)
        start = len(nonces.drawn)
        proof = prove_key(x, h, ctx, nonces)
        (k,) = nonces.drawn[start:]
        xs.append(x)
        keys.append({"seat": seat, "seed": _hex(seeds[seat]), "hkdf_info": _hex(info),
                     "x": _sc(x), "h": _pt(h), "ctx": _hex(ctx), "k": _sc(k),
                     "t": _pt(base_mul(k)), "c": _sc(proof.c), "s": _sc(proof.s),
                     "proof": _hex(proof.encode())})
    hs = [base_mul(x) for x in xs]
    H = point_sum(hs)
    out["keys"] = keys
    out["joint_key"] = _pt(H)

    # ---- open deck -------------------------------------------------------------------------------
    points = [card_point(DECK, c) for c in CARDS]
    open_deck = [Ciphertext(G, m + H) for m in points]
    out["card_points"] = {c: _pt(m) for c, m in zip(CARDS, points)}
    out["open_deck"] = [_ct(c) for c in open_deck]

    # ---- seat 0's shuffle (op 1) -------------------------------------------------------------
    n = len(CARDS)
    rands = nonces.take(n)
    shuffled = [reencrypt(open_deck[PERM[i]], H, rands[i]) for i in range(n)]
    ctx = binding.shuffle_context(table_id, DECK, EPOCH, 1, 0)
    start = len(nonces.drawn)
    proof = shuf.prove_shuffle(open_deck, shuffled, list(PERM), rands, H, ctx, nonces)
    drawn = nonces.drawn[start:]
    r, r_hat = drawn[:n], drawn[n:2 * n]
    w1, w2, w3, w4 = drawn[2 * n:2 * n + 4]
    w_hat, w_prime = drawn[2 * n + 4:3 * n + 4], drawn[3 * n + 4:4 * n + 4]
    statement = shuf._statement_parts(ctx, H, open_deck, shuffled, proof.com)
    u = shuf._u_challenges(statement, n)
    c = shuf._main_challenge(statement, proof.chain,
                             (proof.t1, proof.t2, proof.t3, proof.t41, proof.t42), proof.t_hat)
    u_t = [u[PERM[i]] for i in range(n)]
    v = [Scalar(1)] * n
    for i in range(n - 1, 0, -1):
        v[i - 1] = u_t[i] * v[i]
    out["shuffle"] = {
        "op": 1, "seat": 0, "ctx": _hex(ctx), "perm": list(PERM),
        "rho": [_sc(x) for x in rands], "outputs": [_ct(x) for x in shuffled],
        "generators_h": [_pt(p) for p in generators(shuf.LABEL_GENERATORS, n)],
        "chain_base": _pt(generators(shuf.LABEL_CHAIN_BASE, 1)[0]),
        "r": [_sc(x) for x in r], "com": [_pt(p) for p in proof.com],
        "u_seed": _hex(shuf.transcript_hash(shuf.LABEL_U, *statement)),
        "u": [_sc(x) for x in u], "u_tilde": [_sc(x) for x in u_t],
        "r_hat": [_sc(x) for x in r_hat], "chain": [_pt(p) for p in proof.chain],
        "w": [_sc(x) for x in (w1, w2, w3, w4)], "w_hat": [_sc(x) for x in w_hat],
        "w_prime": [_sc(x) for x in w_prime],
        "t": [_pt(p) for p in (proof.t1, proof.t2, proof.t3, proof.t41, proof.t42)],
        "t_hat": [_pt(p) for p in proof.t_hat], "c": _sc(c),
        "r_bar": _sc(Scalar.from_int(sum(x.value for x in r))),
        "v": [_sc(x) for x in v],
        "r_hat_sum": _sc(Scalar.from_int(sum(a.value * b.value for a, b in zip(r_hat, v)))),
        "r_tilde": _sc(Scalar.from_int(sum(a.value * b.value for a, b in zip(r, u)))),
        "r_prime": _sc(Scalar.from_int(sum(a.value * b.value for a, b in zip(rands, u_t)))),
        "s": [_sc(x) for x in (proof.s1, proof.s2, proof.s3, proof.s4)],
        "s_hat": [_sc(x) for x in proof.s_hat], "s_prime": [_sc(x) for x in proof.s_prime],
        "proof": _hex(proof.encode()),
    }

    # ---- a decryption share: seat 1's share of handle 0 (version 0, to seat 0) ------------------
    ct0 = shuffled[0]
    ctx = binding.share_context(table_id, DECK, EPOCH, 0, 0, 1)
    start = len(nonces.drawn)
    d1, sproof = make_share(xs[1], hs[1], ct0, ctx, nonces)
    (k,) = nonces.drawn[start:]
    out["share"] = {"handle": 0, "version": 0, "seat": 1, "ctx": _hex(ctx), "ciphertext": _ct(ct0),
                    "d": _pt(d1), "k": _sc(k), "t1": _pt(base_mul(k)), "t2": _pt(ct0.a * k),
                    "c": _sc(sproof.c), "s": _sc(sproof.s), "proof": _hex(sproof.encode())}
    d0 = ct0.a * xs[0]
    m = combine(ct0, [d0, d1])
    out["decryption"] = {"handle": 0, "own_share_seat_0": _pt(d0), "M": _pt(m),
                         "card": CARDS[PERM[0]]}
    assert m == points[PERM[0]]

    # ---- a re-encryption: seat 0 re-encrypts handle 1 into version 1 ----------------------------
    ct1 = shuffled[1]
    (rr,) = nonces.take(1)
    new = reencrypt(ct1, H, rr)
    ctx = binding.reencryption_context(table_id, DECK, EPOCH, 1, 1, 0)
    start = len(nonces.drawn)
    rproof = prove_reencryption(rr, ct1, new, H, ctx, nonces)
    (k,) = nonces.drawn[start:]
    out["reencryption"] = {"handle": 1, "version": 1, "seat": 0, "ctx": _hex(ctx),
                           "old": _ct(ct1), "r": _sc(rr), "new": _ct(new), "k": _sc(k),
                           "t1": _pt(base_mul(k)), "t2": _pt(H * k), "c": _sc(rproof.c),
                           "s": _sc(rproof.s), "proof": _hex(rproof.encode())}
    out["nonces"] = [_sc(x) for x in nonces.drawn]

    # ---- commitments, joint draw, sealed value ----------------------------------------------------
    secrets0 = rounds.SeatSecrets(seeds[0], table_id)
    label = rounds.coin_label(table_id, "first-dealer", 0)
    value, salt = secrets0.coin(0)
    digest, _ = commit(label, value, salt)
    value1, _ = rounds.SeatSecrets(seeds[1], table_id).coin(0)
    context = table_id + b"first-dealer"
    out["commitment"] = {"label": label, "value": _hex(value), "salt": _hex(salt),
                         "digest": _hex(digest)}
    out["draw"] = {"purpose": "first-dealer", "n": 2, "openings": [_hex(value), _hex(value1)],
                   "result": rounds.draw([value, value1], 2, context)}
    move_label = rounds.move_label(table_id, 7, 0)
    plaintext = canonical.encode({"move": {"kind": "pass"}, "shares": []})
    sealed = secrets0.seal(move_label, plaintext)
    out["sealed"] = {"label": move_label, "plaintext": _hex(plaintext),
                     "salt": _hex(secrets0.salt(move_label)),
                     "key": _hex(rounds._derive(seeds[0], lp(b"p2ptarot/keep", table_id), 32)),
                     "nonce": _hex(secrets0._nonce(move_label)),
                     "padded": _hex(rounds._pad(plaintext)), "sealed": _hex(sealed)}
    assert len(sealed) in rounds.SEALED_SIZES and nacl.secret.SecretBox.MACBYTES == 16

    # ---- a signed envelope and the chain ---------------------------------------------------------
    body = {"kind": "mental.key", "deck": DECK, "epoch": EPOCH, "op": 0, "seat": 0,
            "key": canonical.b64(hs[0].encode()),
            "proof": canonical.b64(bytes.fromhex(keys[0]["proof"]))}
    env = seal(ids[0], table_id, 0, 0, chain_start(table_id), "mental.key", body)
    top = bytearray(G.encode())
    top[31] |= 0x80
    out["strict"] = {
        "description": "byte strings a decoder MUST refuse (PROTOCOL §6.1, §7.3)",
        "points": [
            {"hex": _hex(bytes(top)), "why": "G with bit 255 set (RFC 9496 §4.3.1)"},
            {"hex": _hex(bytes(32)), "why": "the identity"},
            {"hex": "ed" + "ff" * 30 + "7f", "why": "s = p, not reduced"},
            {"hex": "01" + "00" * 31, "why": "s = 1, negative (odd)"},
            {"hex": "26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371",
             "why": "not a square (RFC 9496 A.2)"},
        ],
        "scalars": [{"hex": _hex(ORDER.to_bytes(32, "little")), "why": "l"},
                    {"hex": "ff" * 32, "why": "2^256 - 1"}],
        "sealed_sizes": list(rounds.SEALED_SIZES),
    }
    out["envelope"] = {"line": env.encoded().decode("utf-8"),
                       "signing_bytes": _hex(env.signing_bytes()), "digest": _hex(env.digest()),
                       "chain_0": _hex(chain_start(table_id)),
                       "chain_1_if_alone": _hex(chain_next(chain_start(table_id), [env]))}
    return out
