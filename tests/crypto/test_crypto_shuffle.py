"""Terelius–Wikström shuffle proof: completeness, tampering, cheating shufflers, strict decoding."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, NamedTuple

import pytest
from .support import IDENTITY_ENC, NEGATIVE_XY_ENC, NON_SQUARE_ENC, card_point, open_deck
from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptarot.crypto.elgamal import Ciphertext, decrypt, encrypt, reencrypt
from p2ptarot.crypto.errors import InvalidEncoding, ProofError
from p2ptarot.crypto.group import G, ORDER, Point, Scalar, base_mul
from p2ptarot.crypto.shuffle import ShuffleProof, prove_shuffle, shuffle, verify_shuffle

CTX = b"table:t1|epoch:0|step:4|seat:1"
N = 6
ONE = Scalar(1)


class Case(NamedTuple):
    x: Scalar
    H: Point
    cts: list[Ciphertext]
    out: list[Ciphertext]
    perm: list[int]
    rands: list[Scalar]
    proof: ShuffleProof


@pytest.fixture(scope="module")
def setup() -> Case:
    x = Scalar.random()
    H = base_mul(x)
    cts = open_deck(N, H)
    out, perm, rands = shuffle(cts, H)
    proof = prove_shuffle(cts, out, perm, rands, H, CTX)
    return Case(x, H, cts, out, perm, rands, proof)


def test_shuffle_is_a_permutation_of_the_plaintexts(setup: Case) -> None:
    x, _, cts, out, perm, _, _ = setup
    assert sorted(perm) == list(range(N))
    assert [decrypt(o, x) for o in out] == [card_point(perm[i]) for i in range(N)]
    assert not set(out) & set(cts)  # every ciphertext re-randomised


def test_shuffle_proof_complete_and_round_trips(setup: Case) -> None:
    _, H, cts, out, _, _, proof = setup
    verify_shuffle(cts, out, H, proof, CTX)
    data = proof.encode()
    assert len(data) == ShuffleProof.size(N) == 32 * (5 * N + 9)
    assert ShuffleProof.decode(data, N) == proof


def test_chained_shuffles_verify_78_cards() -> None:
    # Two seats shuffle in turn the full tarot deck, as at a real table.
    H = base_mul(Scalar.random())
    deck = open_deck(78, H)
    for seat in range(2):
        ctx = CTX + bytes([seat])
        out, perm, rands = shuffle(deck, H)
        verify_shuffle(deck, out, H, prove_shuffle(deck, out, perm, rands, H, ctx), ctx)
        deck = out


# --- tampered statements -------------------------------------------------------------------

def _expect(match: str, cts: list[Ciphertext], out: list[Ciphertext], H: Point,
            proof: ShuffleProof, ctx: bytes = CTX) -> None:
    with pytest.raises(ProofError, match=match):
        verify_shuffle(cts, out, H, proof, ctx)


def test_swapped_outputs_rejected(setup: Case) -> None:
    _, H, cts, out, _, _, proof = setup
    swapped = [out[1], out[0], *out[2:]]
    _expect(r"shuffle: t\w+ mismatch", cts, swapped, H, proof)


def test_duplicated_output_rejected(setup: Case) -> None:
    _, H, cts, out, _, _, proof = setup
    _expect(r"shuffle: t\w+ mismatch", cts, [out[0], *out[:-1]], H, proof)


def test_substituted_output_rejected(setup: Case) -> None:
    _, H, cts, out, _, _, proof = setup
    fake = encrypt(card_point(99), H, Scalar.random())
    _expect(r"shuffle: t\w+ mismatch", cts, [fake, *out[1:]], H, proof)


def test_dropped_output_rejected(setup: Case) -> None:
    _, H, cts, out, _, _, proof = setup
    _expect("5 outputs for 6 inputs", cts, out[:-1], H, proof)


def test_other_context_key_or_input_rejected(setup: Case) -> None:
    _, H, cts, out, _, _, proof = setup
    _expect("shuffle: t1 mismatch", cts, out, H, proof, CTX + b"!")
    _expect("shuffle: t1 mismatch", cts, out, H + G, proof)
    other_in = [reencrypt(cts[0], H, ONE), *cts[1:]]
    _expect("shuffle: t1 mismatch", other_in, out, H, proof)


def test_proof_for_other_size_rejected(setup: Case) -> None:
    _, H, cts, out, _, _, proof = setup
    _expect("proof sized for another N", cts[:-1], out[:-1], H, proof)


# --- tampered proofs: each field, with the equation it breaks ------------------------------------

@pytest.mark.parametrize(("field", "change", "match"), [
    ("s1", lambda p: p.s1 + ONE, "t1 mismatch"),
    ("s2", lambda p: p.s2 + ONE, "t2 mismatch"),
    ("s3", lambda p: p.s3 + ONE, "t3 mismatch"),
    ("s4", lambda p: p.s4 + ONE, "t41 mismatch"),
    ("s_hat", lambda p: (p.s_hat[0] + ONE, *p.s_hat[1:]), r"t_hat\[0\] mismatch"),
    ("s_prime", lambda p: (*p.s_prime[:-1], p.s_prime[-1] + ONE), "t3 mismatch"),
    ("t3", lambda p: p.t3 + G, "t1 mismatch"),          # any t change alters the challenge
    ("com", lambda p: (p.com[1], p.com[0], *p.com[2:]), "t1 mismatch"),
    ("chain", lambda p: (*p.chain[:-1], p.chain[-1] + G), "t1 mismatch"),
    ("t_hat", lambda p: (p.t_hat[0] + G, *p.t_hat[1:]), "t1 mismatch"),
])
def test_tampered_proof_field_rejected(setup: Case, field: str,
                                       change: Callable[[ShuffleProof], Any], match: str) -> None:
    _, H, cts, out, _, _, proof = setup
    bad = dataclasses.replace(proof, **{field: change(proof)})
    _expect("shuffle: " + match, cts, out, H, bad)


# --- cheating shufflers --------------------------------------------------------------------------

def test_cheater_proving_a_different_permutation_is_caught(setup: Case) -> None:
    _, H, cts, out, perm, rands, _ = setup
    lie = [perm[1], perm[0], *perm[2:]]
    bad = prove_shuffle(cts, out, lie, rands, H, CTX)
    _expect(r"shuffle: t\w+ mismatch", cts, out, H, bad)


def test_cheater_substituting_a_card_is_caught() -> None:
    H = base_mul(Scalar.random())
    cts = open_deck(N, H)
    out, perm, rands = shuffle(cts, H)
    # Replace one output by a card of the cheater's choosing, then prove as if honest.
    forged = list(out)
    forged[0] = reencrypt(encrypt(card_point(77), H, ONE), H, rands[0])
    bad = prove_shuffle(cts, forged, perm, rands, H, CTX)
    _expect(r"shuffle: t\w+ mismatch", cts, forged, H, bad)


def test_cheater_duplicating_a_card_is_caught() -> None:
    H = base_mul(Scalar.random())
    cts = open_deck(N, H)
    perm = [0, 0, 2, 3, 4, 5]  # card 1 dropped, card 0 twice
    rands = [Scalar.random() for _ in range(N)]
    out = [reencrypt(cts[perm[i]], H, rands[i]) for i in range(N)]
    with pytest.raises(ValueError, match="not a permutation"):
        prove_shuffle(cts, out, perm, rands, H, CTX)
    # Even proving with a real permutation over the duplicating output fails verification.
    bad = prove_shuffle(cts, out, list(range(N)), rands, H, CTX)
    _expect(r"shuffle: t\w+ mismatch", cts, out, H, bad)


def test_cheater_with_wrong_randomness_is_caught(setup: Case) -> None:
    _, H, cts, out, perm, rands, _ = setup
    bad = prove_shuffle(cts, out, perm, [rands[0] + ONE, *rands[1:]], H, CTX)
    _expect(r"shuffle: t4\d mismatch", cts, out, H, bad)


# --- strict decoding ---------------------------------------------------------------------------------

def test_decode_rejects_wrong_size(setup: Case) -> None:
    proof = setup.proof
    data = proof.encode()
    for blob, n in [(data[:-1], N), (data + b"\0", N), (data, N + 1), (data, 0)]:
        with pytest.raises(InvalidEncoding):
            ShuffleProof.decode(blob, n)


@pytest.mark.parametrize("bad_point", [IDENTITY_ENC, NON_SQUARE_ENC, NEGATIVE_XY_ENC, b"\xff" * 32],
                         ids=["identity", "non-square", "negative-xy", "non-canonical"])
@pytest.mark.parametrize("index", [0, N, 2 * N + 2, 3 * N + 4])
def test_decode_rejects_bad_points(setup: Case, bad_point: bytes, index: int) -> None:
    data = bytearray(setup.proof.encode())
    data[32 * index: 32 * index + 32] = bad_point
    with pytest.raises(InvalidEncoding, match="point"):
        ShuffleProof.decode(bytes(data), N)


@pytest.mark.parametrize("scalar_index", [0, 3, 4, 2 * N + 3])
def test_decode_rejects_unreduced_scalars(setup: Case, scalar_index: int) -> None:
    data = bytearray(setup.proof.encode())
    off = 32 * (3 * N + 5 + scalar_index)
    data[off:off + 32] = ORDER.to_bytes(32, "little")
    with pytest.raises(InvalidEncoding, match=">= l"):
        ShuffleProof.decode(bytes(data), N)


# --- property ------------------------------------------------------------------------------------------

@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=1, max_value=12), st.binary(max_size=16))
def test_random_sizes_verify(n: int, ctx: bytes) -> None:
    x = Scalar.random()
    H = base_mul(x)
    cts = open_deck(n, H)
    out, perm, rands = shuffle(cts, H)
    verify_shuffle(cts, out, H, prove_shuffle(cts, out, perm, rands, H, ctx), ctx)
    assert sorted(decrypt(o, x).encode() for o in out) == sorted(card_point(i).encode() for i in range(n))


# --- the second core (issue 35): the same verdict, word for word, with or without it ------------

def test_parallel_and_sequential_verification_give_the_same_verdicts(monkeypatch) -> None:
    """From _PARALLEL_FROM cards, t41/t42 are summed on a second thread; every tampered field and
    a cheating shuffler get the same first-failing equation either way."""
    import p2ptarot.crypto.shuffle as mod

    n = 2 * mod._PARALLEL_FROM
    H = base_mul(Scalar.random())
    cts = open_deck(n, H)
    out, perm, rands = shuffle(cts, H)
    proof = prove_shuffle(cts, out, perm, rands, H, CTX)
    cases = [(cts, out, dataclasses.replace(proof, s1=proof.s1 + ONE)),
             (cts, out, dataclasses.replace(proof, s2=proof.s2 + ONE)),
             (cts, out, dataclasses.replace(proof, s3=proof.s3 + ONE)),
             (cts, out, dataclasses.replace(proof, s4=proof.s4 + ONE)),
             (cts, out, dataclasses.replace(proof, s_hat=(*proof.s_hat[:5], proof.s_hat[5] + ONE,
                                                          *proof.s_hat[6:]))),
             (cts, out, prove_shuffle(cts, out, perm, [rands[0] + ONE, *rands[1:]], H, CTX)),
             (cts, [out[1], out[0], *out[2:]], proof),
             (cts, out, proof)]
    threads = []
    real = mod._in_parallel
    monkeypatch.setattr(mod, "_in_parallel", lambda work: threads.append(1) or real(work))

    monkeypatch.setattr(mod, "_second_core", True)

    def verdicts(cores: int) -> list[str]:
        monkeypatch.setattr(mod, "_CORES", cores)
        said = []
        for c_in, c_out, p in cases:
            try:
                verify_shuffle(c_in, c_out, H, p, CTX)
                said.append("valid")
            except ProofError as exc:
                said.append(str(exc))
        return said

    one, two = verdicts(1), verdicts(2)
    assert one == two
    assert one[:6] == ["shuffle: t1 mismatch", "shuffle: t2 mismatch", "shuffle: t3 mismatch",
                       "shuffle: t41 mismatch", r"shuffle: t_hat[5] mismatch",
                       "shuffle: t41 mismatch"]
    assert one[6].endswith("mismatch") and one[7] == "valid"
    assert len(threads) == len(cases)  # the second run used the second thread every time


def test_operation_counts_are_exact_with_the_second_thread(monkeypatch) -> None:
    """count_ops (the benchmarks' floor) counts every operation of both threads."""
    import p2ptarot.crypto.shuffle as mod
    from p2ptarot.crypto.group import count_ops

    n = 3 * mod._PARALLEL_FROM
    H = base_mul(Scalar.random())
    cts = open_deck(n, H)
    out, perm, rands = shuffle(cts, H)
    proof = prove_shuffle(cts, out, perm, rands, H, CTX)
    verify_shuffle(cts, out, H, proof, CTX)  # the generators' sum is cached from then on
    monkeypatch.setattr(mod, "_second_core", True)
    counted = []
    for cores in (1, 2, 1, 2):
        monkeypatch.setattr(mod, "_CORES", cores)
        with count_ops() as ops:
            verify_shuffle(cts, out, H, proof, CTX)
        counted.append(ops)
    assert counted[0] == counted[1] == counted[2] == counted[3]
    # the module's stated cost, 8N+4 variable-base and N+4 fixed-base multiplications (an open
    # deck's a = G: those N go through the fixed-base table)
    assert (counted[0].var_mul, counted[0].base_mul) == (8 * n + 4 - n, n + 4 + n)


def test_a_proof_made_on_two_threads_is_byte_for_byte_the_sequential_one(monkeypatch) -> None:
    """The prover draws its nonces in the same order either way: with the same nonce stream,
    the same proof bytes."""
    import hashlib

    import p2ptarot.crypto.shuffle as mod

    n = 2 * mod._PARALLEL_FROM
    H = base_mul(Scalar.random())
    cts = open_deck(n, H)
    out, perm, rands = shuffle(cts, H)

    def stream():
        k = 0

        def nonce() -> Scalar:
            nonlocal k
            k += 1
            return Scalar.from_int(int.from_bytes(hashlib.sha512(k.to_bytes(4, "big")).digest(), "little"))
        return nonce

    monkeypatch.setattr(mod, "_second_core", True)
    proofs = []
    for cores in (1, 2):
        monkeypatch.setattr(mod, "_CORES", cores)
        proofs.append(prove_shuffle(cts, out, perm, rands, H, CTX, nonce=stream()).encode())
    assert proofs[0] == proofs[1]
    verify_shuffle(cts, out, H, ShuffleProof.decode(proofs[1], n), CTX)


def test_the_second_thread_is_off_unless_asked(monkeypatch) -> None:
    """Peers sharing a machine's cores keep to one thread; `p2ptarot verify` asks for two."""
    import p2ptarot.crypto.shuffle as mod

    monkeypatch.setattr(mod, "_CORES", 2)
    monkeypatch.setattr(mod, "_second_core", False)
    assert not mod._parallel(78)
    mod.use_second_core()
    assert mod._parallel(78) and not mod._parallel(mod._PARALLEL_FROM - 1)
    mod.use_second_core(False)
    assert not mod._parallel(78)
