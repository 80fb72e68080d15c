"""protocol/vectors/crypto.json recomputed from PROTOCOL §6 alone.

This file does not import p2ptarot's crypto to compute anything: `lp`, TH, HS, HP, the contexts,
every proof's challenge and response and every verification equation are written again here
from the spec's formulas, over libsodium's ristretto255 operations (rbcl), hashlib, `cryptography`
(HKDF, Ed25519) and PyNaCl (SecretBox). Only at the end are the vector's proofs also handed to
p2ptarot's own verifiers, which must accept them (and refuse a one-bit change)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import nacl.secret
import pytest
import rbcl
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

ROOT = Path(__file__).resolve().parents[2]
V = json.loads((ROOT / "protocol" / "vectors" / "crypto.json").read_text(encoding="utf-8"))

L = 2**252 + 27742317777372353535851937790883648493
ZERO = bytes(32)


# ---- the spec's primitives, written again (§6.2) ---------------------------------------------
def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def lp(*parts: bytes) -> bytes:
    return b"".join(u64(len(p)) + p for p in parts)


def TH(label: str, *parts: bytes) -> bytes:
    return hashlib.sha512(lp(label.encode(), *parts)).digest()


def HS(label: str, *parts: bytes) -> int:
    return int.from_bytes(TH(label, *parts), "little") % L


def HP(label: str, *parts: bytes) -> bytes:
    ctr = 0
    while True:
        p = rbcl.crypto_core_ristretto255_from_hash(TH(label, u64(ctr), *parts))
        if p != ZERO:
            return p
        ctr += 1


def gens(label: str, n: int) -> list[bytes]:
    return [HP(label, u64(i)) for i in range(n)]


def le(k: int) -> bytes:
    return (k % L).to_bytes(32, "little")


def sc(hexed: str) -> int:
    v = int.from_bytes(bytes.fromhex(hexed), "little")
    assert v < L
    return v


def mul(k: int, p: bytes) -> bytes:
    k %= L
    if k == 0 or p == ZERO:
        return ZERO
    return rbcl.crypto_scalarmult_ristretto255(le(k), p)


def base(k: int) -> bytes:
    return ZERO if k % L == 0 else rbcl.crypto_scalarmult_ristretto255_base(le(k))


def add(*ps: bytes) -> bytes:
    acc = ZERO
    for p in ps:
        acc = rbcl.crypto_core_ristretto255_add(acc, p)
    return acc


def sub(p: bytes, q: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_sub(p, q)


def msum(pairs: list[tuple[int, bytes]]) -> bytes:
    return add(*(mul(k, p) for k, p in pairs))


def H(hexed: str) -> bytes:
    return bytes.fromhex(hexed)


def ctx(step: str, *numbers: int) -> bytes:
    return lp(b"p2ptarot/mental/v1", TABLE, V["deck"].encode(), u64(V["epoch"]), step.encode(),
              *(u64(n) for n in numbers))


def hkdf(seed: bytes, info: bytes, n: int) -> bytes:
    return HKDF(algorithm=hashes.SHA512(), length=n, salt=None, info=info).derive(seed)


G = rbcl.crypto_scalarmult_ristretto255_base(le(1))
TABLE = H(V["charter"]["table_id"])
JOINT = H(V["joint_key"])


def cts(hexes: list[str]) -> list[tuple[bytes, bytes]]:
    return [(H(x)[:32], H(x)[32:]) for x in hexes]


# ---- charter, identities -----------------------------------------------------------------------
def test_group_constants() -> None:
    assert V["group"]["l"] == str(L) and H(V["group"]["G"]) == G
    assert G.hex().startswith("e2f2ae0a") and G.hex().endswith("2d76")


def test_table_id_and_charter_signatures() -> None:
    assert hashlib.sha256(b"p2ptarot/charter\0" + H(V["charter"]["canonical"])).digest() == TABLE
    charter = json.loads(H(V["charter"]["canonical"]))
    for k, seed in enumerate(V["charter"]["identity_seeds"]):
        key = Ed25519PrivateKey.from_private_bytes(H(seed)).public_key()
        raw = key.public_bytes(Encoding.Raw, PublicFormat.Raw)
        assert charter["seats"][k]["key"] == _b64(raw)
        key.verify(_unb64(V["charter"]["signatures"][k]), b"p2ptarot/charter-signature\0" + TABLE)


# ---- keys: epoch key derivation and Schnorr (§6.4.1) ---------------------------------------
@pytest.mark.parametrize("seat", [0, 1])
def test_epoch_key_and_schnorr_proof(seat: int) -> None:
    k = V["keys"][seat]
    info = lp(b"p2ptarot/epoch-key", TABLE, V["deck"].encode(), u64(V["epoch"]))
    assert H(k["hkdf_info"]) == info
    x = int.from_bytes(hkdf(H(k["seed"]), info, 64), "little") % L
    assert sc(k["x"]) == x and H(k["h"]) == base(x)
    assert H(k["ctx"]) == ctx("key", seat)
    t = base(sc(k["k"]))
    assert H(k["t"]) == t
    c = HS("p2ptarot/schnorr", ctx("key", seat), G, H(k["h"]), t)
    s = (sc(k["k"]) + c * x) % L
    assert (sc(k["c"]), sc(k["s"])) == (c, s) and H(k["proof"]) == le(c) + le(s)
    assert sub(base(s), mul(c, H(k["h"]))) == t  # verification: t' = s·G − c·h


def test_joint_key_card_points_and_open_deck() -> None:
    assert JOINT == add(*(H(k["h"]) for k in V["keys"]))
    for i, card in enumerate(V["cards"]):
        m = HP("p2ptarot/card", V["deck"].encode(), card.encode())
        assert H(V["card_points"][card]) == m
        assert H(V["open_deck"][i]) == G + add(m, JOINT)


# ---- the shuffle (§6.4.4) -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def shuffle() -> dict:
    s = V["shuffle"]
    n = len(V["cards"])
    nums = {k: [sc(x) for x in s[k]] for k in ("rho", "r", "u", "u_tilde", "r_hat", "w", "w_hat",
                                                "w_prime", "v", "s", "s_hat", "s_prime")}
    return {"raw": s, "n": n, **nums, "c": sc(s["c"]), "inp": cts(V["open_deck"]),
            "out": cts(s["outputs"]), "com": [H(x) for x in s["com"]],
            "chain": [H(x) for x in s["chain"]], "t": [H(x) for x in s["t"]],
            "t_hat": [H(x) for x in s["t_hat"]]}


def test_shuffle_outputs_are_permuted_reencryptions(shuffle) -> None:
    s, inp, out = shuffle["raw"], shuffle["inp"], shuffle["out"]
    for i, j in enumerate(s["perm"]):
        rho = shuffle["rho"][i]
        assert out[i] == (add(inp[j][0], base(rho)), add(inp[j][1], mul(rho, JOINT)))


def test_shuffle_commitment_challenges_and_chain(shuffle) -> None:
    s, n = shuffle["raw"], shuffle["n"]
    hs = gens("p2ptarot/shuffle/h", n)
    base_chain = gens("p2ptarot/shuffle/chain", 1)[0]
    assert [H(x) for x in s["generators_h"]] == hs and H(s["chain_base"]) == base_chain
    assert H(s["ctx"]) == ctx("shuffle", s["op"], s["seat"])
    for i, j in enumerate(s["perm"]):  # com[π(i)] = r[π(i)]·G + h_i
        assert shuffle["com"][j] == add(base(shuffle["r"][j]), hs[i])
    flat = lambda pairs: b"".join(a + b for a, b in pairs)  # noqa: E731
    S = [H(s["ctx"]), JOINT, u64(n), flat(shuffle["inp"]), flat(shuffle["out"]),
         b"".join(shuffle["com"])]
    seed = TH("p2ptarot/shuffle/u", *S)
    assert H(s["u_seed"]) == seed
    u = [HS("p2ptarot/shuffle/u_i", seed, u64(j)) for j in range(n)]  # index base 0
    assert shuffle["u"] == u
    ut = [u[j] for j in s["perm"]]
    assert shuffle["u_tilde"] == ut
    prev = base_chain
    for i in range(n):  # ĉ_i = r̂_i·G + ũ_i·ĉ_{i−1}, ĉ_{−1} = chain base
        prev = add(base(shuffle["r_hat"][i]), mul(ut[i], prev))
        assert shuffle["chain"][i] == prev
    w1, w2, w3, w4 = shuffle["w"]
    wp, wh = shuffle["w_prime"], shuffle["w_hat"]
    t = [base(w1), base(w2), add(base(w3), msum(list(zip(wp, hs)))),
         add(mul(-w4, JOINT), msum([(wp[i], shuffle["out"][i][1]) for i in range(n)])),
         add(base(-w4), msum([(wp[i], shuffle["out"][i][0]) for i in range(n)]))]
    assert shuffle["t"] == t
    chain_prev = [base_chain, *shuffle["chain"][:-1]]
    assert shuffle["t_hat"] == [add(base(wh[i]), mul(wp[i], chain_prev[i])) for i in range(n)]
    c = HS("p2ptarot/shuffle/c", *S, b"".join(shuffle["chain"]), b"".join(t),
           b"".join(shuffle["t_hat"]))
    assert shuffle["c"] == c


def test_shuffle_responses_and_wire_layout(shuffle) -> None:
    s, n, c = shuffle["raw"], shuffle["n"], shuffle["c"]
    r, rh, ut, rho = shuffle["r"], shuffle["r_hat"], shuffle["u_tilde"], shuffle["rho"]
    v = [1] * n
    for i in range(n - 1, 0, -1):
        v[i - 1] = ut[i] * v[i] % L
    assert shuffle["v"] == v
    r_bar, r_hat = sum(r) % L, sum(a * b for a, b in zip(rh, v)) % L
    r_tilde = sum(a * b for a, b in zip(r, shuffle["u"])) % L
    r_prime = sum(a * b for a, b in zip(rho, ut)) % L
    assert [sc(s[k]) for k in ("r_bar", "r_hat_sum", "r_tilde", "r_prime")] == \
        [r_bar, r_hat, r_tilde, r_prime]
    w1, w2, w3, w4 = shuffle["w"]
    assert shuffle["s"] == [(w1 - c * r_bar) % L, (w2 - c * r_hat) % L, (w3 - c * r_tilde) % L,
                            (w4 - c * r_prime) % L]
    assert shuffle["s_hat"] == [(shuffle["w_hat"][i] - c * rh[i]) % L for i in range(n)]
    assert shuffle["s_prime"] == [(shuffle["w_prime"][i] - c * ut[i]) % L for i in range(n)]
    wire = b"".join([*shuffle["com"], *shuffle["chain"], *shuffle["t"], *shuffle["t_hat"]]) + \
        b"".join(le(x) for x in [*shuffle["s"], *shuffle["s_hat"], *shuffle["s_prime"]])
    assert H(s["proof"]) == wire and len(wire) == (5 * n + 9) * 32


def test_shuffle_verification_equations_hold_with_their_signs(shuffle) -> None:
    n, c = shuffle["n"], shuffle["c"]
    hs = gens("p2ptarot/shuffle/h", n)
    base_chain = gens("p2ptarot/shuffle/chain", 1)[0]
    com, chain, (t1, t2, t3, t41, t42) = shuffle["com"], shuffle["chain"], shuffle["t"]
    s1, s2, s3, s4 = shuffle["s"]
    sp, shat, u = shuffle["s_prime"], shuffle["s_hat"], shuffle["u"]
    inp, out = shuffle["inp"], shuffle["out"]
    c_bar = sub(add(*com), add(*hs))
    assert t1 == add(mul(c, c_bar), base(s1))
    prod = 1
    for x in u:
        prod = prod * x % L
    assert t2 == add(mul(c, sub(chain[-1], mul(prod, base_chain))), base(s2))
    assert t3 == add(msum([(c * u[j], com[j]) for j in range(n)]), base(s3),
                     msum(list(zip(sp, hs))))
    assert t41 == add(msum([(c * u[j], inp[j][1]) for j in range(n)]), mul(-s4, JOINT),
                      msum([(sp[i], out[i][1]) for i in range(n)]))
    assert t42 == add(msum([(c * u[j], inp[j][0]) for j in range(n)]), base(-s4),
                      msum([(sp[i], out[i][0]) for i in range(n)]))
    prev = base_chain
    for i in range(n):
        assert shuffle["t_hat"][i] == add(mul(c, chain[i]), base(shat[i]), mul(sp[i], prev))
        prev = chain[i]


# ---- decryption share, decryption, re-encryption (§6.4.2, §6.4.3) ---------------------------
def test_decryption_share_proof_and_decryption() -> None:
    s = V["share"]
    a, b = H(s["ciphertext"])[:32], H(s["ciphertext"])[32:]
    assert H(s["ciphertext"]) == H(V["shuffle"]["outputs"][s["handle"]])
    x1, h1 = sc(V["keys"][1]["x"]), H(V["keys"][1]["h"])
    d = mul(x1, a)
    assert H(s["d"]) == d and H(s["ctx"]) == ctx("share", s["handle"], s["version"], s["seat"])
    k = sc(s["k"])
    t1, t2 = base(k), mul(k, a)
    assert (H(s["t1"]), H(s["t2"])) == (t1, t2)
    c = HS("p2ptarot/share", H(s["ctx"]), G, h1, a, d, b, t1, t2)
    assert (sc(s["c"]), sc(s["s"])) == (c, (k + c * x1) % L)
    assert H(s["proof"]) == le(c) + le(k + c * x1)
    sv = sc(s["s"])
    assert sub(base(sv), mul(c, h1)) == t1 and sub(mul(sv, a), mul(c, d)) == t2
    dec = V["decryption"]
    d0 = mul(sc(V["keys"][0]["x"]), a)
    assert H(dec["own_share_seat_0"]) == d0
    m = sub(sub(b, d0), d)  # M = b − Σ d_i
    assert H(dec["M"]) == m == H(V["card_points"][dec["card"]])


def test_reencryption_proof() -> None:
    r = V["reencryption"]
    (a, b), (a2, b2) = cts([r["old"]])[0], cts([r["new"]])[0]
    rr = sc(r["r"])
    assert (a2, b2) == (add(a, base(rr)), add(b, mul(rr, JOINT)))
    assert H(r["ctx"]) == ctx("reencrypt", r["handle"], r["version"], r["seat"])
    k = sc(r["k"])
    t1, t2 = base(k), mul(k, JOINT)
    c = HS("p2ptarot/reenc", H(r["ctx"]), G, JOINT, a, b, a2, b2, t1, t2)
    s = (k + c * rr) % L
    assert (sc(r["c"]), sc(r["s"])) == (c, s) and H(r["proof"]) == le(c) + le(s)
    assert sub(base(s), mul(c, sub(a2, a))) == t1 and sub(mul(s, JOINT), mul(c, sub(b2, b))) == t2


def test_nonces_are_the_fixed_stream_in_draw_order() -> None:
    n = len(V["cards"])
    want = [int.from_bytes(hashlib.sha512(b"p2ptarot/vector-nonce" + u64(k)).digest(), "little")
            % L for k in range(len(V["nonces"]))]
    assert [sc(x) for x in V["nonces"]] == want
    s = V["shuffle"]
    order = [V["keys"][0]["k"], V["keys"][1]["k"], *s["rho"], *s["r"], *s["r_hat"], *s["w"],
             *s["w_hat"], *s["w_prime"], V["share"]["k"], V["reencryption"]["r"],
             V["reencryption"]["k"]]
    assert order == V["nonces"] and len(order) == 2 + 5 * n + 4 + 3


# ---- commitments, draw, sealed values, envelope (§4, §7) ------------------------------------
def test_commitment_and_coin_derivation() -> None:
    cm = V["commitment"]
    seed0 = H(V["keys"][0]["seed"])
    assert cm["label"] == f"p2ptarot/coin/{TABLE.hex()}/0/first-dealer"
    material = hkdf(seed0, b"p2ptarot/coin" + TABLE + u64(0), 64)
    assert (H(cm["value"]), H(cm["salt"])) == (material[:32], material[32:])
    assert H(cm["digest"]) == TH("p2ptarot/commit/" + cm["label"], H(cm["salt"]),
                                 H(cm["value"]))[:32]


def test_joint_draw() -> None:
    d = V["draw"]
    stream = hashlib.shake_256(lp(b"p2ptarot/coin/draw", TABLE + d["purpose"].encode(),
                                  *(H(x) for x in d["openings"]))).digest(512)
    bound = (2**64 // d["n"]) * d["n"]
    words = [int.from_bytes(stream[i:i + 8], "big") for i in range(0, 512, 8)]
    assert d["result"] == next(w for w in words if w < bound) % d["n"]


def test_sealed_value() -> None:
    s = V["sealed"]
    seed0 = H(V["keys"][0]["seed"])
    assert s["label"] == f"p2ptarot/move/{TABLE.hex()}/7/0"
    assert H(s["salt"]) == hkdf(seed0, lp(b"p2ptarot/commit-salt", TABLE, s["label"].encode()), 32)
    assert H(s["key"]) == hkdf(seed0, lp(b"p2ptarot/keep", TABLE), 32)
    assert H(s["nonce"]) == hashlib.sha512(lp(b"p2ptarot/keep-nonce",
                                              s["label"].encode())).digest()[:24]
    data = H(s["plaintext"])
    assert H(s["padded"]) == len(data).to_bytes(4, "big") + data + bytes(256 - 4 - len(data))
    box = nacl.secret.SecretBox(H(s["key"]))
    assert box.encrypt(H(s["padded"]), H(s["nonce"])).ciphertext == H(s["sealed"])
    assert len(H(s["sealed"])) == 272 and V["strict"]["sealed_sizes"] == \
        [2**k + 16 for k in range(8, 15)]


def test_envelope_signature_digest_and_chain() -> None:
    e = V["envelope"]
    env = json.loads(e["line"])
    assert e["line"] == json.dumps(env, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    unsigned = {k: v for k, v in env.items() if k != "sig"}
    signing = b"p2ptarot/envelope\0" + json.dumps(unsigned, sort_keys=True,
                                                   separators=(",", ":")).encode()
    assert H(e["signing_bytes"]) == signing
    key = Ed25519PrivateKey.from_private_bytes(H(V["charter"]["identity_seeds"][0])).public_key()
    key.verify(_unb64(env["sig"]), signing)
    assert env["v"] == 7 and _unb64(env["table"]) == TABLE
    assert _unb64(env["body"]["key"]) == H(V["keys"][0]["h"])
    digest = hashlib.sha256(b"p2ptarot/message\0" + e["line"].encode()).digest()
    chain0 = hashlib.sha256(b"p2ptarot/chain\0" + TABLE).digest()
    assert (H(e["digest"]), H(e["chain_0"])) == (digest, chain0) and env["prev"] == _b64(chain0)
    assert H(e["chain_1_if_alone"]) == hashlib.sha256(b"p2ptarot/chain\0" + chain0 +
                                                      digest).digest()


# ---- strict decoding, and the reference verifiers accept the vector ------------------------
def test_strict_encodings_are_refused() -> None:
    from p2ptarot.crypto.errors import InvalidEncoding
    from p2ptarot.crypto.group import Point, Scalar

    top = V["strict"]["points"][0]
    assert H(top["hex"])[31] & 0x80 and rbcl.crypto_core_ristretto255_is_valid_point(H(top["hex"]))
    for case in V["strict"]["points"]:
        with pytest.raises(InvalidEncoding):
            Point.decode(H(case["hex"]))
    for case in V["strict"]["scalars"]:
        assert int.from_bytes(H(case["hex"]), "little") >= L
        with pytest.raises(InvalidEncoding):
            Scalar.decode(H(case["hex"]))


def test_the_reference_verifiers_accept_the_vector_and_refuse_one_bit_more() -> None:
    from p2ptarot.crypto.elgamal import Ciphertext
    from p2ptarot.crypto.errors import CryptoError
    from p2ptarot.crypto.group import Point
    from p2ptarot.crypto.proofs import DleqProof, SchnorrProof, verify_key
    from p2ptarot.crypto.proofs import verify_reencryption, verify_share
    from p2ptarot.crypto.shuffle import ShuffleProof, verify_shuffle

    ct = lambda x: Ciphertext.decode(H(x))  # noqa: E731
    for k in V["keys"]:
        verify_key(Point.decode(H(k["h"])), SchnorrProof.decode(H(k["proof"])), H(k["ctx"]))
    s = V["shuffle"]
    n = len(V["cards"])
    joint = Point.decode(JOINT)
    inputs, outputs = [ct(x) for x in V["open_deck"]], [ct(x) for x in s["outputs"]]
    verify_shuffle(inputs, outputs, joint, ShuffleProof.decode(H(s["proof"]), n), H(s["ctx"]))
    sh = V["share"]
    verify_share(Point.decode(H(V["keys"][1]["h"])), ct(sh["ciphertext"]), Point.decode(H(sh["d"])),
                 DleqProof.decode(H(sh["proof"])), H(sh["ctx"]))
    re = V["reencryption"]
    verify_reencryption(ct(re["old"]), ct(re["new"]), joint, DleqProof.decode(H(re["proof"])),
                        H(re["ctx"]))
    bad = bytearray(H(s["proof"]))
    bad[-40] ^= 1  # a bit of the last s' (still < l)
    with pytest.raises(CryptoError):
        verify_shuffle(inputs, outputs, joint, ShuffleProof.decode(bytes(bad), n), H(s["ctx"]))


def _b64(raw: bytes) -> str:
    import base64
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    import base64
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
