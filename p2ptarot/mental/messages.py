"""The mental-poker wire messages: frozen dataclasses with strict to_dict()/from_dict().

Every message names its deck epoch, the operation number it answers inside that epoch (`op`,
0 = key generation, then one number per requested operation) and its author seat. The table
layer wraps the dict in a signed envelope; `MentalTable.receive` checks that the envelope's
sender, the author seat and the expected step agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Union

from p2ptarot.crypto.elgamal import Ciphertext
from p2ptarot.crypto.group import Point
from p2ptarot.crypto.proofs import DleqProof, SchnorrProof
from p2ptarot.crypto.shuffle import ShuffleProof

from .codec import (b64, check_keys, decode_bytes, get_int, get_list, get_str)
from .errors import MessageDecodeError
from p2ptarot.i18n.message import tr

MAX_SEAT = 11
_HEADER = frozenset({"kind", "deck", "epoch", "op", "seat"})


def _header(d: Mapping[str, Any]) -> dict[str, Any]:
    return {"deck": get_str(d, "deck"), "epoch": get_int(d, "epoch"), "op": get_int(d, "op"),
            "seat": get_int(d, "seat", MAX_SEAT)}


@dataclass(frozen=True)
class _Base:
    KIND: ClassVar[str] = ""
    deck: str
    epoch: int
    op: int
    seat: int

    def _head(self) -> dict[str, Any]:
        return {"kind": self.KIND, "deck": self.deck, "epoch": self.epoch, "op": self.op,
                "seat": self.seat}


@dataclass(frozen=True)
class KeyMessage(_Base):
    """h_i = x_i·G for this deck epoch, with a Schnorr proof bound to (table, deck, epoch, seat)."""

    KIND: ClassVar[str] = "mental.key"
    key: Point
    proof: SchnorrProof

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "key": b64(self.key.encode()), "proof": b64(self.proof.encode())}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> KeyMessage:
        d = check_keys(d, _HEADER | {"key", "proof"}, cls.KIND)
        return cls(**_header(d), key=decode_bytes(d["key"], "key", Point.decode),
                   proof=decode_bytes(d["proof"], "proof", SchnorrProof.decode))


def _handles(d: Mapping[str, Any], field: str) -> tuple[int, ...]:
    return tuple(get_int({field: v}, field) for v in get_list(d, field))


@dataclass(frozen=True)
class ShuffleMessage(_Base):
    """One seat's re-encrypted, permuted deck and the proof that it is a shuffle of its input.

    `inputs` names the handles whose current versions, in this order, are the operation's input
    (empty for an epoch's first shuffle: its input is the open deck, in the deck's card order);
    `outputs` the handles the operation's final deck occupies, position by position. Every
    seat's message of one operation names the same lists (protocol version 6)."""

    KIND: ClassVar[str] = "mental.shuffle"
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    ciphertexts: tuple[Ciphertext, ...]
    proof: ShuffleProof

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "inputs": list(self.inputs), "outputs": list(self.outputs),
                "ciphertexts": [b64(c.encode()) for c in self.ciphertexts],
                "proof": b64(self.proof.encode())}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ShuffleMessage:
        d = check_keys(d, _HEADER | {"inputs", "outputs", "ciphertexts", "proof"}, cls.KIND)
        inputs, outputs = _handles(d, "inputs"), _handles(d, "outputs")
        raw = get_list(d, "ciphertexts")
        cts = tuple(decode_bytes(v, f"ciphertexts[{i}]", Ciphertext.decode)
                    for i, v in enumerate(raw))
        n = len(cts)
        proof = decode_bytes(d["proof"], "proof", lambda b: ShuffleProof.decode(b, n))
        return cls(**_header(d), inputs=inputs, outputs=outputs, ciphertexts=cts, proof=proof)


@dataclass(frozen=True)
class ShareItem:
    """Decryption share d = x_i·a of one ciphertext version, with its Chaum–Pedersen proof."""

    handle: int
    version: int
    share: Point
    proof: DleqProof

    def to_dict(self) -> dict[str, Any]:
        return {"handle": self.handle, "version": self.version,
                "share": b64(self.share.encode()), "proof": b64(self.proof.encode())}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ShareItem:
        d = check_keys(d, frozenset({"handle", "version", "share", "proof"}), "share item")
        return cls(get_int(d, "handle"), get_int(d, "version"),
                   decode_bytes(d["share"], "share", Point.decode),
                   decode_bytes(d["proof"], "proof", DleqProof.decode))


Target = tuple[int, int, Union[int, None]]
"""(handle, version, recipient seat or None): one request of a share operation (protocol 7)."""
TransferTarget = tuple[int, int, int]
"""(handle, holder, recipient): one transfer of a re-encryption operation (protocol 7)."""


def _seat_or_none(v: Any, field: str) -> int | None:
    return None if v is None else get_int({field: v}, field, MAX_SEAT)


def _targets(d: Mapping[str, Any]) -> tuple[Target, ...]:
    out = []
    for k, t in enumerate(get_list(d, "targets")):
        if not isinstance(t, list) or len(t) != 3:
            raise MessageDecodeError(tr("targets[{k}]: expected [handle, version, seat or null]",
                                        k=k))
        out.append((get_int({"handle": t[0]}, "handle"), get_int({"version": t[1]}, "version"),
                    _seat_or_none(t[2], "recipient")))
    return tuple(out)


def _transfer_targets(d: Mapping[str, Any]) -> tuple[TransferTarget, ...]:
    out = []
    for k, t in enumerate(get_list(d, "targets")):
        if not isinstance(t, list) or len(t) != 3:
            raise MessageDecodeError(tr("targets[{k}]: expected [handle, holder, recipient]", k=k))
        out.append((get_int({"handle": t[0]}, "handle"), get_int({"holder": t[1]}, "holder",
                                                                  MAX_SEAT),
                    get_int({"recipient": t[2]}, "recipient", MAX_SEAT)))
    return tuple(out)


def _owing(d: Mapping[str, Any]) -> tuple[int, ...]:
    seats = tuple(get_int({"owing": v}, "owing", MAX_SEAT) for v in get_list(d, "owing"))
    if list(seats) != sorted(set(seats)):
        raise MessageDecodeError(tr("owing: expected distinct seats in ascending order"))
    return seats


@dataclass(frozen=True)
class ShareMessage(_Base):
    """All the decryption shares one seat owes for one operation, in the expected order.

    Protocol 7 puts on the wire what a verifier without the rules needs: `targets`, the
    operation's requests in request order (handle, version, recipient seat or None for everyone:
    the whole operation, not only this seat's part); `owing`, the seats that owe shares in it
    (the step's seats); `audit`, whether it is its epoch's final audit. Every peer compares them
    with the operation its own engine asked for."""

    KIND: ClassVar[str] = "mental.shares"
    targets: tuple[Target, ...]
    owing: tuple[int, ...]
    audit: bool
    items: tuple[ShareItem, ...]

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "targets": [list(t) for t in self.targets],
                "owing": list(self.owing), "audit": self.audit,
                "items": [i.to_dict() for i in self.items]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ShareMessage:
        d = check_keys(d, _HEADER | {"targets", "owing", "audit", "items"}, cls.KIND)
        if not isinstance(d["audit"], bool):
            raise MessageDecodeError(tr("audit: expected a boolean"))
        return cls(**_header(d), targets=_targets(d), owing=_owing(d), audit=d["audit"],
                   items=tuple(ShareItem.from_dict(i) for i in get_list(d, "items")))


@dataclass(frozen=True)
class ReencryptionItem:
    """A fresh re-encryption of a handle's current ciphertext (new `version`) with its proof."""

    handle: int
    version: int
    ciphertext: Ciphertext
    proof: DleqProof

    def to_dict(self) -> dict[str, Any]:
        return {"handle": self.handle, "version": self.version,
                "ciphertext": b64(self.ciphertext.encode()), "proof": b64(self.proof.encode())}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ReencryptionItem:
        d = check_keys(d, frozenset({"handle", "version", "ciphertext", "proof"}),
                       "reencryption item")
        return cls(get_int(d, "handle"), get_int(d, "version"),
                   decode_bytes(d["ciphertext"], "ciphertext", Ciphertext.decode),
                   decode_bytes(d["proof"], "proof", DleqProof.decode))


@dataclass(frozen=True)
class ReencryptionMessage(_Base):
    """A holder's re-encryptions for a show/give operation. `targets` (protocol 7) names the
    whole operation's transfers in request order (handle, holder, recipient), every holder's."""

    KIND: ClassVar[str] = "mental.reencrypt"
    targets: tuple[TransferTarget, ...]
    items: tuple[ReencryptionItem, ...]

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "targets": [list(t) for t in self.targets],
                "items": [i.to_dict() for i in self.items]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ReencryptionMessage:
        d = check_keys(d, _HEADER | {"targets", "items"}, cls.KIND)
        return cls(**_header(d), targets=_transfer_targets(d),
                   items=tuple(ReencryptionItem.from_dict(i) for i in get_list(d, "items")))


MentalMessage = Union[KeyMessage, ShuffleMessage, ShareMessage, ReencryptionMessage]

MESSAGE_TYPES: dict[str, type[Any]] = {
    cls.KIND: cls for cls in (KeyMessage, ShuffleMessage, ShareMessage, ReencryptionMessage)
}


def message_from_dict(d: Any) -> MentalMessage:
    """Decode any mental message by its `kind` (raises MessageDecodeError)."""
    if not isinstance(d, Mapping) or not isinstance(d.get("kind"), str):
        raise MessageDecodeError(tr("message: expected an object with a string 'kind'"))
    cls = MESSAGE_TYPES.get(d["kind"])
    if cls is None:
        raise MessageDecodeError(tr("message: unknown kind {kind}", kind=repr(d['kind'])))
    try:
        msg: MentalMessage = cls.from_dict(d)
    except KeyError as exc:  # pragma: no cover - check_keys makes this unreachable
        raise MessageDecodeError(tr("message: missing {exc}", exc=exc)) from exc
    return msg
