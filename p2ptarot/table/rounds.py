"""Commit-then-open: the joint draw, blind simultaneous moves and the engine's own secrets.

All three use the standard hash commitment (`p2ptarot.crypto.commitment`) under a label that
binds the opening to one table and one use:

* **joint draw** (`coin.commit` / `coin.open`, PROTOCOL §7): every seat commits to 32 random
  bytes, then opens them; the draw is a hash of all openings in seat order, reduced to [0, n)
  without modulo bias. One honest seat makes it uniform; a seat that withholds its opening is
  blamed (a silence), never skipped, so nobody can retry an unlucky draw.
* **blind simultaneous moves** (`move.commit` / `move.open`): each listed seat commits to its
  move body, then opens it once every commitment is signed, so nobody chooses after seeing
  another seat's choice.
* **engine secrets** (`Commit` / `Open` moves): the secret value is committed in the move body
  (the move itself carries `value=""`) and opened later by the owner's `Open`.

Every value and salt a seat needs later is recoverable from its per-game seed (`SeatSecrets`):
coin values and salts are derived, commitment salts are derived from the label, and a committed
move or secret value is also *sealed to the seat itself* in the commitment message (SecretBox
under a seed-derived key, padded to a power-of-two size so its length says little): a restarted
seat reads its own logged message back and can still open what it committed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import nacl.exceptions
import nacl.secret
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from p2ptarot.crypto.encoding import lp
from p2ptarot.engine import RandomChoice, Turn

from .envelope import Envelope

#: largest value a seat may seal (a move body, an engine secret such as an Eleusis rule text)
MAX_SEALED_PLAINTEXT = 16384
_MIN_BUCKET = 256
#: base64url length of the largest sealed value (padded plaintext + 16-byte MAC)
MAX_SEALED_CHARS = ((MAX_SEALED_PLAINTEXT + nacl.secret.SecretBox.MACBYTES) * 4 + 2) // 3
#: every size an honest `sealed` has: a power-of-two bucket (256 .. 16 KiB) plus the 16-byte MAC,
#: so any other size is a malformed body (PROTOCOL §7.3)
SEALED_SIZES: tuple[int, ...] = tuple(2**k + nacl.secret.SecretBox.MACBYTES for k in range(8, 15))
assert SEALED_SIZES[0] == _MIN_BUCKET + 16 and SEALED_SIZES[-1] == MAX_SEALED_PLAINTEXT + 16


# ---- labels: one per use, bound to the table ------------------------------------------------
def coin_label(table_id: bytes, purpose: str, index: int) -> str:
    """Commitment label of a joint draw: binds an opening to one table and one draw."""
    return f"p2ptarot/coin/{table_id.hex()}/{index}/{purpose}"


def move_label(table_id: bytes, step: int, seat: int) -> str:
    """Commitment label of a blind move, committed at `step` by `seat`."""
    return f"p2ptarot/move/{table_id.hex()}/{step}/{seat}"


def secret_label(table_id: bytes, step: int, seat: int, name: str) -> str:
    """Commitment label of engine secret `name`, committed by `seat` in the move it signed first
    at `step` (for a blind turn, its commitment step)."""
    return f"p2ptarot/secret/{table_id.hex()}/{step}/{seat}/{name}"


def draw(openings: list[bytes], n: int, context: bytes) -> int:
    """A uniform integer in [0, n) from every seat's opening (rejection sampling on SHAKE-256)."""
    if n <= 0:
        raise ValueError("n must be positive")
    stream = hashlib.shake_256(lp(b"p2ptarot/coin/draw", context, *openings)).digest(8 * 64)
    bound = (2**64 // n) * n
    for i in range(0, len(stream), 8):
        v = int.from_bytes(stream[i:i + 8], "big")
        if v < bound:
            return v % n
    raise ValueError("draw: no value below the bound (probability < 2^-1000)")


# ---- the rounds in progress (typed pending steps of the session) ----------------------------
@dataclass(frozen=True)
class DrawRound:
    """A joint draw: the commit round (no digests yet), then the open round."""

    request: RandomChoice
    index: int
    digests: tuple[bytes, ...] = ()  # one per seat, in seat order, once the commit round is in

    @property
    def stage(self) -> str:
        return "open" if self.digests else "commit"


@dataclass(frozen=True)
class BlindRound:
    """A SIMULTANEOUS turn made blind: every listed seat commits (at `step`), then opens."""

    turn: Turn
    step: int
    commits: tuple[Envelope, ...] = ()  # the signed commitments, in the turn's seat order
    digests: tuple[bytes, ...] = ()

    @property
    def stage(self) -> str:
        return "open" if self.commits else "commit"

    def commitment_of(self, seat: int) -> tuple[Envelope, bytes]:
        i = self.turn.seats.index(seat)
        return self.commits[i], self.digests[i]


# ---- a seat's recoverable secrets -------------------------------------------------------------
def _derive(seed: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA512(), length=length, salt=None, info=info).derive(seed)


def _pad(data: bytes) -> bytes:
    size = len(data) + 4
    if size > MAX_SEALED_PLAINTEXT:
        raise ValueError(f"a sealed value holds at most {MAX_SEALED_PLAINTEXT - 4} bytes")
    bucket = _MIN_BUCKET
    while bucket < size:
        bucket *= 2
    return len(data).to_bytes(4, "big") + data + bytes(bucket - size)


def _unpad(data: bytes) -> bytes:
    n = int.from_bytes(data[:4], "big")
    if len(data) < 4 + n or any(data[4 + n:]):
        raise ValueError("bad padding")
    return data[4:4 + n]


class SeatSecrets:
    """Everything secret a seat commits to, derived from (or sealed under) its per-game seed."""

    def __init__(self, seed: bytes, table_id: bytes) -> None:
        self._seed = seed
        self._table_id = table_id
        self._box = nacl.secret.SecretBox(_derive(seed, lp(b"p2ptarot/keep", table_id), 32))

    def coin(self, index: int) -> tuple[bytes, bytes]:
        """Value and salt of joint draw number `index` (PROTOCOL §11)."""
        info = b"p2ptarot/coin" + self._table_id + index.to_bytes(8, "big")
        material = _derive(self._seed, info, 64)
        return material[:32], material[32:]

    def salt(self, label: str) -> bytes:
        """The commitment salt of everything committed under `label`."""
        return _derive(self._seed, lp(b"p2ptarot/commit-salt", self._table_id, label.encode()), 32)

    @staticmethod
    def _nonce(label: str) -> bytes:
        digest = hashlib.sha512(lp(b"p2ptarot/keep-nonce", label.encode())).digest()
        return digest[:nacl.secret.SecretBox.NONCE_SIZE]

    def seal(self, label: str, plaintext: bytes) -> bytes:
        """`plaintext` encrypted to this seat alone (one label is used once: a unique nonce)."""
        return self._box.encrypt(_pad(plaintext), self._nonce(label)).ciphertext

    def unseal(self, label: str, sealed: bytes) -> bytes:
        """The inverse of `seal`; ValueError if `sealed` was not sealed by this seat for `label`."""
        try:
            return _unpad(self._box.decrypt(sealed, self._nonce(label)))
        except nacl.exceptions.CryptoError as exc:
            raise ValueError("cannot unseal: not this seat's sealed value") from exc
