"""Every kind of tampered, misplaced or malformed message is rejected, naming the right seat."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable

import pytest

from .support import TABLE_ID, Loopback
from p2ptarot.crypto.elgamal import encrypt, reencrypt
from p2ptarot.crypto.group import ORDER, G, Scalar, base_mul, hash_to_scalar
from p2ptarot.crypto.proofs import make_share
from p2ptarot.crypto.shuffle import prove_shuffle
from p2ptarot.mental import (KeyMessage, MentalMessage, MentalTable, MentalUsageError,
                             MentalViolation, SeededRandomSource, ShareMessage, Transfer,
                             card_point)
from p2ptarot.mental import binding
from p2ptarot.crypto.encoding import unb64url as unb64
from p2ptarot.mental.codec import b64

CARDS = [f"c{i}" for i in range(6)]


def setup(n: int = 3, seed: int = 1) -> Loopback:
    lb = Loopback(n, seed=seed)
    lb.open("d", 1, CARDS)
    return lb


def pending_message(lb: Loopback, seat: int, kind: str) -> MentalMessage:
    """Run honest steps until `seat` owes a `kind` message; return it (undelivered)."""
    for _ in range(100):
        exp = lb.seats[0].expected()
        if any(e.seat == seat and e.kind == kind for e in exp):
            (msg,) = [m for m in lb.seats[seat].outgoing() if m.KIND == kind]
            return msg
        assert lb.step(), f"seat {seat} never owed {kind}"
    raise AssertionError("unreachable")


def rejected(lb: Loopback, sender: int, msg: MentalMessage, blamed: int, words: str) -> None:
    """Every peer other than the author rejects `msg`, blaming `blamed`, via the wire dict."""
    wire = json.loads(json.dumps(msg.to_dict()))
    for i, p in enumerate(lb.peers):
        if i == sender:
            continue
        before = p.expected()
        with pytest.raises(MentalViolation) as info:
            p.receive_dict(sender, wire)
        assert info.value.seat == blamed, info.value
        assert words in info.value.reason, info.value.reason
        assert p.expected() == before  # a rejected message changes nothing


def finishes(lb: Loopback) -> None:
    """After rejections, the honest messages still complete the protocol."""
    lb.run()
    assert all(p.epoch("d", 1).idle for p in lb.peers)


# ---- keys --------------------------------------------------------------------------------------

def test_replayed_key_of_another_seat() -> None:
    lb = setup()
    k0 = pending_message(lb, 0, KeyMessage.KIND)
    rejected(lb, 1, dataclasses.replace(k0, seat=1), 1, "key proof rejected")
    finishes(lb)


def test_key_proof_for_another_table_or_epoch() -> None:
    other = MentalTable(b"\x08" * 32, 3, 1, SeededRandomSource("x"))
    other.open_deck("d", 1, CARDS)
    foreign = other.outgoing()[0]
    lb = setup()
    rejected(lb, 1, foreign, 1, "key proof rejected")
    later = MentalTable(TABLE_ID, 3, 1, SeededRandomSource("y"))
    later.open_deck("d", 2, CARDS)
    rejected(lb, 1, dataclasses.replace(later.outgoing()[0], epoch=1), 1, "key proof rejected")
    finishes(lb)


def test_duplicate_key_is_blamed_on_the_later_seat() -> None:
    lb = Loopback(3, seed=2)
    # seat 2 draws the very same secret as seat 0 (same randomness): a valid proof, same key
    lb.seats[2] = MentalTable(TABLE_ID, 3, 2, SeededRandomSource("2/0"))
    lb.open("d", 1, CARDS)
    with pytest.raises(MentalViolation) as info:
        lb.run()
    assert info.value.seat == 2 and "same key" in info.value.reason


def test_copied_key_under_its_top_bit_encoding_is_refused() -> None:
    """Seats 0 and 1 collude and share x_0. Seat 1 publishes h_0 with bit 255 set and a proof
    hashed over those bytes: libsodium reads the same element, so the proof verifies and, were
    the encoding accepted, the byte comparison with seat 0's key would miss the copy. Decoding
    refuses it (RFC 9496 §4.3.1) and blames seat 1 at once."""
    lb = Loopback(3, seed=1)
    lb.seats[1] = MentalTable(TABLE_ID, 3, 1, SeededRandomSource("1/0"))  # seat 0's secret
    lb.open("d", 1, CARDS)
    k0 = pending_message(lb, 0, KeyMessage.KIND)
    x = lb.seats[1].epoch("d", 1).secret
    assert x is not None and base_mul(x) == k0.key
    h_top = k0.key.encode()[:31] + bytes([k0.key.encode()[31] | 0x80])
    ctx = binding.key_context(TABLE_ID, "d", 1, 1)
    k = Scalar(12345)
    c = hash_to_scalar("p2ptarot/schnorr", ctx, G.encode(), h_top, base_mul(k).encode())
    forged = {**k0.to_dict(), "seat": 1, "key": b64(h_top),
              "proof": b64(c.encode() + (k + c * x).encode())}
    for p in (lb.seats[2], lb.observer):
        p.receive_dict(0, json.loads(json.dumps(k0.to_dict())))
        with pytest.raises(MentalViolation) as info:
            p.receive_dict(1, forged)
        assert info.value.seat == 1 and "canonical" in info.value.reason


def test_key_for_wrong_table_step_sender() -> None:
    lb = setup()
    k1 = pending_message(lb, 1, KeyMessage.KIND)
    rejected(lb, 2, k1, 2, "claims to come from seat 1")
    rejected(lb, 1, dataclasses.replace(k1, op=1), 1, "answers operation 1")
    rejected(lb, 1, dataclasses.replace(k1, epoch=7), 1, "no deck 'd' epoch 7")
    lb.step()
    rejected(lb, 1, k1, 1, "answers operation 0")  # replay of a finished step
    rejected(lb, 1, dataclasses.replace(k1, op=1), 1, "expected mental.shuffle")


# ---- shuffles --------------------------------------------------------------------------------

def _shuffle_msg(lb: Loopback, seat: int) -> MentalMessage:
    return pending_message(lb, seat, "mental.shuffle")


def test_cheating_shuffler_drops_a_card() -> None:
    lb = setup()
    m = _shuffle_msg(lb, 1)
    dropped = dataclasses.replace(m, ciphertexts=m.ciphertexts[:-1])
    rejected(lb, 1, dropped, 1, "expected 1088 bytes for n=5")  # the proof no longer decodes
    with pytest.raises(MentalViolation, match="shuffle has 5 ciphertexts"):
        lb.observer.receive(1, dropped)
    finishes(lb)


def test_cheating_shuffler_duplicates_a_card() -> None:
    lb = setup()
    m = _shuffle_msg(lb, 1)
    cts = (m.ciphertexts[1],) + m.ciphertexts[1:]
    rejected(lb, 1, dataclasses.replace(m, ciphertexts=cts), 1, "shuffle proof rejected")
    finishes(lb)


def test_cheating_shuffler_substitutes_a_card() -> None:
    lb = setup()
    m = _shuffle_msg(lb, 2)
    H = lb.observer.epoch("d", 1).joint_key
    fake = encrypt(card_point("d", "c0"), H, Scalar(12345))
    rejected(lb, 2, dataclasses.replace(m, ciphertexts=(fake,) + m.ciphertexts[1:]), 2,
             "shuffle proof rejected")
    finishes(lb)


def test_cheating_shuffler_swaps_outputs_after_proving() -> None:
    lb = setup()
    m = _shuffle_msg(lb, 0)
    c = list(m.ciphertexts)
    c[0], c[1] = c[1], c[0]
    rejected(lb, 0, dataclasses.replace(m, ciphertexts=tuple(c)), 0, "shuffle proof rejected")
    finishes(lb)


def test_cheating_shuffler_proves_a_shuffle_of_a_forged_input() -> None:
    """A valid proof for a different (stacked) input deck does not verify on the real one."""
    lb = setup()
    m = _shuffle_msg(lb, 1)
    st = lb.observer.epoch("d", 1)
    H = st.joint_key
    forged = [encrypt(card_point("d", "c0"), H, Scalar(i + 1)) for i in range(6)]
    rands = [Scalar(7 + i) for i in range(6)]
    out = [reencrypt(forged[i], H, rands[i]) for i in range(6)]
    ctx = binding.shuffle_context(TABLE_ID, "d", 1, m.op, 1)
    proof = prove_shuffle(forged, out, list(range(6)), rands, H, ctx)
    rejected(lb, 1, dataclasses.replace(m, ciphertexts=tuple(out), proof=proof), 1,
             "shuffle proof rejected")
    finishes(lb)


def test_shuffle_out_of_turn_and_proof_context_of_another_seat() -> None:
    lb = setup()
    m = _shuffle_msg(lb, 0)
    rejected(lb, 2, dataclasses.replace(m, seat=2), 2, "not expected to send")
    lb.step()  # seat 0's honest shuffle
    rejected(lb, 0, m, 0, "not expected to send")
    rejected(lb, 1, dataclasses.replace(m, seat=1), 1, "shuffle proof rejected")
    finishes(lb)


def test_cheating_reshuffle_is_caught() -> None:
    lb = setup()
    lb.run()
    lb.each(lambda p: p.reshuffle("d", 1, [0, 1, 2, 3]))
    m = _shuffle_msg(lb, 1)
    cts = (m.ciphertexts[0],) * 4
    rejected(lb, 1, dataclasses.replace(m, ciphertexts=cts), 1, "shuffle proof rejected")
    finishes(lb)


def test_a_shuffle_names_its_input_and_output_handles() -> None:
    """Protocol 6: the first shuffle names no input (the open deck) and outputs 0..N-1; a
    reshuffle names the handles it consumes, in request order, and the new ones it creates.
    A shuffle naming other handles is a violation of its author."""
    lb = setup()
    m = _shuffle_msg(lb, 0)
    assert (m.inputs, m.outputs) == ((), tuple(range(len(CARDS))))
    assert m.to_dict()["inputs"] == [] and m.to_dict()["outputs"] == list(range(len(CARDS)))
    rejected(lb, 0, dataclasses.replace(m, inputs=(0,)), 0, "shuffle names inputs [0]")
    rejected(lb, 0, dataclasses.replace(m, outputs=m.outputs[::-1]), 0, "expected [] and")
    lb.run()
    lb.each(lambda p: p.reshuffle("d", 1, [4, 1, 2]))
    for seat in range(3):
        r = _shuffle_msg(lb, seat)
        assert (r.inputs, r.outputs) == ((4, 1, 2), (6, 7, 8))
        rejected(lb, seat, dataclasses.replace(r, inputs=(1, 4, 2)), seat, "expected [4, 1, 2]")
        assert lb.step()
    finishes(lb)


# ---- shares --------------------------------------------------------------------------------

def _dealt(lb: Loopback) -> ShareMessage:
    lb.run()
    lb.each(lambda p: p.deal("d", 1, {0: 0, 1: 1, 2: 2}))
    m = pending_message(lb, 1, "mental.shares")
    assert isinstance(m, ShareMessage)
    return m


def test_tampered_share_point() -> None:
    lb = setup()
    m = _dealt(lb)
    items = list(m.items)
    items[0] = dataclasses.replace(items[0], share=items[1].share)
    rejected(lb, 1, dataclasses.replace(m, items=tuple(items)), 1, "decryption share for handle 0")
    finishes(lb)


def test_tampered_share_proof_scalar() -> None:
    lb = setup()
    m = _dealt(lb)
    items = list(m.items)
    p = items[1].proof
    items[1] = dataclasses.replace(items[1], proof=type(p)(p.c, p.s + Scalar(1)))
    rejected(lb, 1, dataclasses.replace(m, items=tuple(items)), 1, "decryption share for handle 2")
    finishes(lb)


def test_share_proof_made_for_another_handle() -> None:
    lb = setup()
    m = _dealt(lb)
    st = lb.seats[1].epoch("d", 1)
    x = st._secret
    items = list(m.items)
    ct = st.ciphertext(items[0].handle)
    wrong_ctx = binding.share_context(TABLE_ID, "d", 1, 99, 0, 1)
    d, proof = make_share(x, st.keys[1], ct, wrong_ctx)
    items[0] = dataclasses.replace(items[0], share=d, proof=proof)
    rejected(lb, 1, dataclasses.replace(m, items=tuple(items)), 1, "rejected")
    finishes(lb)


def test_missing_extra_or_reordered_shares() -> None:
    lb = setup()
    m = _dealt(lb)
    rejected(lb, 1, dataclasses.replace(m, items=m.items[:1]), 1, "expected")
    rejected(lb, 1, dataclasses.replace(m, items=m.items[::-1]), 1, "expected")
    rejected(lb, 1, dataclasses.replace(m, items=m.items + m.items[:1]), 1, "expected")
    finishes(lb)


def test_recipient_may_not_publish_its_own_share() -> None:
    lb = setup()
    m = _dealt(lb)
    # seat 1 is dealt handle 1; a share message from seat 1 naming handle 1 is off-plan
    wrong = dataclasses.replace(m.items[0], handle=1)
    rejected(lb, 1, dataclasses.replace(m, items=(wrong,) + m.items[1:]), 1, "expected")


# ---- show / give -------------------------------------------------------------------------------

def test_tampered_reencryption_and_non_holder() -> None:
    lb = setup()
    lb.run()
    lb.each(lambda p: p.deal("d", 1, {0: 0}))
    lb.each(lambda p: p.give("d", 1, [Transfer(0, 0, 2)]))
    m = pending_message(lb, 0, "mental.reencrypt")
    st = lb.observer.epoch("d", 1)
    item = m.items[0]
    bad = dataclasses.replace(item, ciphertext=reencrypt(item.ciphertext, st.joint_key, Scalar(5)))
    rejected(lb, 0, dataclasses.replace(m, items=(bad,)), 0, "re-encryption of handle 0")
    rejected(lb, 1, dataclasses.replace(m, seat=1), 1, "not expected to send")
    finishes(lb)
    assert set(lb.seats[2].epoch("d", 1).known_cards()) == {0}


# ---- audit -------------------------------------------------------------------------------------

def test_a_wrong_audit_share_is_blamed_on_its_author() -> None:
    """The audit opens by proven decryption shares: a share whose proof fails names its seat."""
    lb = setup()
    lb.run()
    lb.each(lambda p: p.audit("d", 1, [3, 5]))
    m = pending_message(lb, 2, "mental.shares")
    assert [(i.handle, i.version) for i in m.items] == [(3, 0), (5, 0)]
    forged = dataclasses.replace(m.items[0], share=base_mul(Scalar(42)))
    rejected(lb, 2, dataclasses.replace(m, items=(forged, *m.items[1:])), 2, "rejected")
    finishes(lb)
    obs = lb.observer.epoch("d", 1)
    assert obs.closed and set(obs.audit_result()) == {3, 5}


def test_an_audit_may_not_ask_for_a_handle_that_does_not_exist() -> None:
    lb = setup()
    lb.run()
    with pytest.raises(MentalUsageError, match="does not exist"):
        lb.seats[0].epoch("d", 1).audit([99])
    with pytest.raises(MentalUsageError, match="distinct"):
        lb.seats[0].epoch("d", 1).audit([1, 1])


# ---- malformed wire dicts ---------------------------------------------------------------------

# ristretto255 encodings (RFC 9496 A.2): the identity, a non-square (no element), a negative s
IDENTITY = bytes(32)
NO_ELEMENT = bytes.fromhex("26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371")
NEGATIVE = b"\x01" + bytes(31)
NONCANONICAL = b"\xff" * 31 + b"\x7f"


def _top_bit(key: str) -> str:
    raw = unb64(key)
    return b64(raw[:31] + bytes([raw[31] | 0x80]))


MUTATIONS: list[tuple[str, Callable[[dict], None]]] = [
    ("extra key", lambda d: d.__setitem__("extra", 1)),
    ("missing key", lambda d: d.pop("proof")),
    ("bool as int", lambda d: d.__setitem__("op", True)),
    ("negative int", lambda d: d.__setitem__("epoch", -1)),
    ("padded base64", lambda d: d.__setitem__("key", d["key"] + "=")),
    ("bad base64", lambda d: d.__setitem__("key", "!!" + d["key"][2:])),
    ("identity key", lambda d: d.__setitem__("key", b64(IDENTITY))),
    ("off-group key", lambda d: d.__setitem__("key", b64(NO_ELEMENT))),
    ("negative key", lambda d: d.__setitem__("key", b64(NEGATIVE))),
    ("non-canonical key", lambda d: d.__setitem__("key", b64(NONCANONICAL))),
    # its own, correctly proven key with bit 255 set: the same element to libsodium, a second
    # byte string to anyone comparing keys (RFC 9496 §4.3.1 refuses it)
    ("top-bit key", lambda d: d.__setitem__("key", _top_bit(d["key"]))),
    ("short key", lambda d: d.__setitem__("key", b64(bytes(31)))),
    ("scalar >= l in proof", lambda d: d.__setitem__(
        "proof", b64(ORDER.to_bytes(32, "little") + bytes(32)))),
    ("unknown kind", lambda d: d.__setitem__("kind", "mental.nope")),
    ("seat out of range", lambda d: d.__setitem__("seat", 12)),
]


@pytest.mark.parametrize(("name", "mutate"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_malformed_key_message_blames_sender(name: str, mutate: Callable[[dict], None]) -> None:
    lb = setup()
    d = pending_message(lb, 1, KeyMessage.KIND).to_dict()
    mutate(d)
    for p in lb.peers:
        with pytest.raises(MentalViolation) as info:
            p.receive_dict(1, d)
        assert info.value.seat == 1
    finishes(lb)


def test_malformed_shuffle_and_share_dicts() -> None:
    lb = setup()
    m = _shuffle_msg(lb, 0).to_dict()
    m["ciphertexts"][0] = b64(G.encode() + IDENTITY)
    with pytest.raises(MentalViolation, match="ciphertexts\\[0\\]"):
        lb.observer.receive_dict(0, m)
    m = _shuffle_msg(lb, 0).to_dict()
    m["proof"] = m["proof"][:-8]
    with pytest.raises(MentalViolation, match="proof"):
        lb.observer.receive_dict(0, m)
    s = _dealt(lb).to_dict()
    s["items"][0]["share"] = b64(NO_ELEMENT)
    with pytest.raises(MentalViolation, match="share"):
        lb.observer.receive_dict(1, s)
    s = _dealt(setup()).to_dict()
    s["items"] = "nope"
    with pytest.raises(MentalViolation, match="items"):
        lb.observer.receive_dict(1, s)


# ---- local misuse --------------------------------------------------------------------------

def test_usage_errors() -> None:
    lb = setup()
    lb.run()
    st = lb.seats[0].epoch("d", 1)
    st.deal({0: 1})
    with pytest.raises(MentalUsageError, match="already opened"):
        st.deal({0: 2})
    with pytest.raises(MentalUsageError, match="does not know"):
        st.show([Transfer(0, 2, 0)])
    with pytest.raises(MentalUsageError, match="same"):
        st.give([Transfer(0, 1, 1)])
    _, new = st.reshuffle([4, 5])
    assert new == (6, 7)
    with pytest.raises(MentalUsageError, match="not live"):
        st.reveal([4])
    with pytest.raises(MentalUsageError, match="not live"):
        st.deal({99: 0})
    st.audit()
    with pytest.raises(MentalUsageError, match="audited"):
        st.reveal([0])
    with pytest.raises(MentalUsageError, match="not after"):
        lb.seats[0].open_deck("d", 1, CARDS)
    with pytest.raises(MentalUsageError):
        MentalTable(TABLE_ID, 13, 0, SeededRandomSource(1)).open_deck("d", 1, CARDS)
    with pytest.raises(MentalUsageError):
        lb.seats[0].open_deck("e", 1, ["a", "a"])


def test_a_message_is_built_once() -> None:
    lb = setup()
    first = lb.seats[0].outgoing()
    assert lb.seats[0].outgoing()[0] is first[0]
    assert lb.observer.outgoing() == []  # an observer has nothing to say
    with pytest.raises(MentalUsageError, match="local seat"):
        lb.observer.epoch("d", 1).make(lb.observer.expected()[0])
    with pytest.raises(MentalUsageError, match="local seat"):
        lb.seats[1].epoch("d", 1).make(lb.seats[1].expected()[0])  # seat 0's expectation


# ---- shares checked ahead of their step (`precheck`) -------------------------------------------

def test_shares_checked_ahead_are_not_checked_again() -> None:
    """Seat 0 checks seat 1's shares when they come; the step, taking that very dict, checks no
    proof again and ends in the same state as a peer that checked them only then."""
    from p2ptarot.crypto.group import count_ops

    lb = setup()
    m = _dealt(lb)
    wire = json.loads(json.dumps(m.to_dict()))
    ahead, late = lb.seats[0], lb.seats[2]
    with count_ops() as checking:
        ahead.precheck(1, wire)
    assert checking.var_mul >= 3 * len(m.items)  # every share's proof: 3 variable-base each
    with count_ops() as taking:
        ahead.receive_dict(1, wire)
    assert taking.var_mul == 0 and taking.validate == 0  # neither decoded nor checked again
    late.receive_dict(1, json.loads(json.dumps(m.to_dict())))
    assert ahead.expected() == late.expected()
    lb.seats[1].receive(1, m)
    lb.observer.receive_dict(1, json.loads(json.dumps(m.to_dict())))
    finishes(lb)


def test_shares_that_fail_ahead_are_blamed_when_their_step_comes() -> None:
    """A tampered share passes nothing ahead; the step's own check names its author."""
    lb = setup()
    m = _dealt(lb)
    items = list(m.items)
    items[0] = dataclasses.replace(items[0], share=items[1].share)
    bad = json.loads(json.dumps(dataclasses.replace(m, items=tuple(items)).to_dict()))
    lb.seats[0].precheck(1, bad)
    with pytest.raises(MentalViolation) as info:
        lb.seats[0].receive_dict(1, bad)
    assert info.value.seat == 1 and "decryption share for handle 0" in info.value.reason


def test_a_check_ahead_holds_only_for_the_dict_it_passed() -> None:
    """Seat 1's honest shares pass ahead; a tampered copy (another dict) is checked in full."""
    lb = setup()
    m = _dealt(lb)
    lb.seats[0].precheck(1, json.loads(json.dumps(m.to_dict())))
    items = list(m.items)
    items[0] = dataclasses.replace(items[0], share=items[1].share)
    bad = json.loads(json.dumps(dataclasses.replace(m, items=tuple(items)).to_dict()))
    with pytest.raises(MentalViolation) as info:
        lb.seats[0].receive_dict(1, bad)
    assert info.value.seat == 1


def test_nothing_but_the_current_shares_is_checked_ahead() -> None:
    """A shuffle, a message in another seat's name or the seat's own: nothing kept, no error."""
    lb = Loopback(3, seed=4)
    lb.open("d", 1, CARDS)
    lb.step()  # the keys
    shuffle = pending_message(lb, 0, "mental.shuffle")
    for sender, msg in ((0, shuffle), (2, shuffle)):
        lb.seats[1].precheck(sender, json.loads(json.dumps(msg.to_dict())))
    lb.seats[1].precheck(0, {"kind": "mental.shares", "junk": True})
    assert lb.seats[1]._checked == {}
    finishes(lb)
