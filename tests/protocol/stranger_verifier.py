"""A verifier written by a stranger from spec/PROTOCOL.md and protocol/ alone (issue 24).

It imports nothing from p2ptarot: only the standard library, `cryptography` (Ed25519) and `rbcl`
(libsodium's ristretto255). It checks what PROTOCOL.md says a verifier hashes and verifies,
section by section, and cites the section at each check:

* §2 every line is canonical JSON, byte strings unpadded base64url that re-encode to themselves;
* §3 the charter's table id and every seat's charter signature;
* §4 every envelope's version, table, seat, signature, and the hash chain `prev` of every step;
* §9 one byte form (`\\n` only, no empty line, nothing after the last `\\n`); no line repeated
  verbatim; steps in order, one message per seat and step; abort records signed, outside the
  chain (§8), well formed (§9.1: version, body keys, blame range, body step), and no message of
  a seat after the step of its own record;
* §9.2 the verdict class of each failure (`convicted`, `inconsistent`, `incomplete`,
  `not-a-transcript`) and the line it names, as `p2ptarot verify` reports them (`run`);
* §6.6 every coin opening repeats its commitment's purpose;
* §6.1 strict point and scalar decoding;
* §6.4.1 every epoch key's Schnorr proof;
* §6.3 the open deck of every epoch from protocol/decks.json (card points `M_c`, §6.2) and, §6.4.4,
  every shuffle's Terelius–Wikström proof against the stage before it (the open deck, the current
  versions of a reshuffle's inputs, or the previous seat's outputs), with the handles it names;
* §6.5 the ciphertext of every (deck handle, version): version 0 from the operation's last
  shuffle, later versions from re-encryptions;
* §6.4.3 every re-encryption's Chaum–Pedersen proof (under the joint key `H = Σ h_i`);
* §6.4.2 every decryption share's Chaum–Pedersen proof;
* §7 every coin opening against its commitment, §7.1 every blind move's opening against its
  commitment, §7.2 every engine secret's opening against its commitment, §7.3 the sizes of
  `sealed` values.

It does not replay the rules or the outcome (the reference verifier does):
it proves that every byte those checks hash is specified. `verify(path)` returns None when every
check passes, else the first failure as text; `check(path)` adds what it checked.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import rbcl
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

DECKS = json.loads((Path(__file__).resolve().parents[2] / "protocol" / "decks.json").read_text())
ZERO = bytes(32)
L = 2**252 + 27742317777372353535851937790883648493  # §6.1
G = bytes.fromhex("e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76")  # §6.1


class Refused(Exception):
    """A check of PROTOCOL.md failed. `kind` is the verdict class of §9.2 the failure leads to:
    the file's fault (`inconsistent`) unless said otherwise."""

    kind = "inconsistent"


class Convicted(Refused):
    """§8, §6.6, §9.2: a correctly signed message on the chain proven wrong: its signer is
    convicted. `seats` names the signer; two seats when two messages of one operation name
    different lists (§6.7: one of them lied, only the rules can tell which)."""

    kind = "convicted"

    def __init__(self, why: str, seats: tuple[int, ...] = ()) -> None:
        super().__init__(why)
        self.seats = seats


class Cut(Refused):
    """§9, §9.2: the file stops early (a last line without its `\\n`)."""

    kind = "incomplete"


class NotATranscript(Refused):
    """§9.2: the first line is not a transcript header (exit 2)."""

    kind = "not-a-transcript"


# ---- §2 canonical encoding ----------------------------------------------------------------------
def canonical(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def _no_floats(value: Any) -> None:
    if isinstance(value, float):
        raise Refused("§2: a number that is not an integer")
    if isinstance(value, dict):
        for v in value.values():
            _no_floats(v)
    elif isinstance(value, list):
        for v in value:
            _no_floats(v)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise Refused("§2: a duplicate key")
    return dict(pairs)


def decode(line: bytes) -> Any:
    """§2: the value, only if `line` is exactly its canonical encoding."""
    try:
        value = json.loads(line.decode("utf-8"), object_pairs_hook=_pairs)
    except (UnicodeDecodeError, ValueError) as exc:
        raise Refused(f"§2: not JSON: {exc}") from exc
    _no_floats(value)
    if canonical(value) != line:
        raise Refused("§2: not the canonical encoding")
    return value


def unb64(text: str, size: int | None = None) -> bytes:
    """§2: unpadded base64url that re-encodes to itself."""
    if not isinstance(text, str) or "=" in text:
        raise Refused("§2: not unpadded base64url")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError as exc:
        raise Refused("§2: not base64url") from exc
    if base64.urlsafe_b64encode(raw).rstrip(b"=").decode() != text:
        raise Refused("§2: base64url that does not re-encode to itself")
    if size is not None and len(raw) != size:
        raise Refused(f"§2: {len(raw)} bytes where {size} are due")
    return raw


# ---- §6.1 group, §6.2 hashing -------------------------------------------------------------------
def point(text: str) -> bytes:
    """§6.1: a canonical ristretto255 encoding (bit 255 clear), never the identity."""
    raw = unb64(text, 32)
    if raw[31] & 0x80 or raw == bytes(32) or not rbcl.crypto_core_ristretto255_is_valid_point(raw):
        raise Refused("§6.1: not a canonical ristretto255 point")
    return raw


def scalar(raw: bytes) -> int:
    """§6.1: 32 bytes little-endian, below l (never reduced silently)."""
    v = int.from_bytes(raw, "little")
    if v >= L:
        raise Refused("§6.1: a scalar not below l")
    return v


def le32(v: int) -> bytes:
    return (v % L).to_bytes(32, "little")


def mul(k: int, p: bytes) -> bytes:
    if k % L == 0 or p == ZERO:
        return ZERO  # the identity, which libsodium's multiplication refuses to return
    return rbcl.crypto_scalarmult_ristretto255(le32(k), p)


def add(p: bytes, q: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_add(p, q)


def sub(p: bytes, q: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_sub(p, q)


def u64be(n: int) -> bytes:
    return n.to_bytes(8, "big")


def lp(*parts: bytes) -> bytes:
    return b"".join(u64be(len(p)) + p for p in parts)


def hs(label: str, *parts: bytes) -> int:
    """§6.2 HS: SHA-512 of the length-prefixed parts, little-endian, mod l."""
    return int.from_bytes(hashlib.sha512(lp(label.encode(), *parts)).digest(), "little") % L


def th(label: str, *parts: bytes) -> bytes:
    """§6.2 TH."""
    return hashlib.sha512(lp(label.encode(), *parts)).digest()


def hp(label: str, *parts: bytes) -> bytes:
    """§6.2 HP: the first counter 0, 1, … (the first part) whose map is not the identity."""
    ctr = 0
    while True:
        p = rbcl.crypto_core_ristretto255_from_hash(th(label, u64be(ctr), *parts))
        if p != ZERO:
            return p
        ctr += 1


def generators(label: str, n: int) -> list[bytes]:
    return [hp(label, u64be(i)) for i in range(n)]


def total(*points: bytes) -> bytes:
    acc = ZERO
    for p in points:
        acc = add(acc, p)
    return acc


def msum(pairs: list[tuple[int, bytes]]) -> bytes:
    return total(*(mul(k, p) for k, p in pairs))


def open_deck_cards(deck: str) -> list[str]:
    """§6.3: the card ids of `deck` in open-deck order (protocol/decks.json, families included)."""
    if deck in DECKS["decks"]:
        return list(DECKS["decks"][deck]["cards"])
    for fam in DECKS["families"]:
        head, tail = fam["name"].split("{k}")
        k = deck[len(head):len(deck) - len(tail)] if deck.startswith(head) and deck.endswith(tail) else ""
        if k.isdigit() and str(int(k)) == k and fam["k_min"] <= int(k) <= fam["k_max"]:
            return [c.replace("{k}", k) for c in fam["cards"]]
    raise Refused(f"§6.3: no open deck {deck!r} in protocol/decks.json")


def check_shuffle(context: bytes, H: bytes, inputs: list[tuple[bytes, bytes]],
                  outputs: list[tuple[bytes, bytes]], raw: bytes) -> None:
    """§6.4.4: the Terelius–Wikström proof, `(5N+9)·32` bytes, checked equation by equation."""
    n = len(outputs)
    if len(inputs) != n or len(raw) != (5 * n + 9) * 32:
        raise Refused("§6.4.4: a shuffle proof of the wrong size")
    pts = [raw[32 * k:32 * k + 32] for k in range(3 * n + 5)]
    for q in pts:
        point(base64.urlsafe_b64encode(q).rstrip(b"=").decode())
    off = (3 * n + 5) * 32
    scs = [scalar(raw[off + 32 * k:off + 32 * k + 32]) for k in range(2 * n + 4)]
    com, chain = pts[:n], pts[n:2 * n]
    t1, t2, t3, t41, t42 = pts[2 * n:2 * n + 5]
    t_hat = pts[2 * n + 5:]
    s1, s2, s3, s4 = scs[:4]
    s_hat, s_prime = scs[4:4 + n], scs[4 + n:]
    hs_ = generators("p2ptarot/shuffle/h", n)
    B = generators("p2ptarot/shuffle/chain", 1)[0]
    S = (context, H, u64be(n), b"".join(a + b for a, b in inputs),
         b"".join(a + b for a, b in outputs), b"".join(com))
    seed = th("p2ptarot/shuffle/u", *S)
    u = [hs("p2ptarot/shuffle/u_i", seed, u64be(j)) for j in range(n)]
    c = hs("p2ptarot/shuffle/c", *S, b"".join(chain), t1 + t2 + t3 + t41 + t42, b"".join(t_hat))
    prod = 1
    for x in u:
        prod = prod * x % L
    checks = [
        ("t1", t1, add(mul(c, sub(total(*com), total(*hs_))), mul(s1, G))),
        ("t2", t2, add(mul(c, sub(chain[-1], mul(prod, B))), mul(s2, G))),
        ("t3", t3, total(msum([(c * u[j], com[j]) for j in range(n)]), mul(s3, G),
                         msum(list(zip(s_prime, hs_))))),
        ("t41", t41, total(msum([(c * u[j], inputs[j][1]) for j in range(n)]), mul(-s4, H),
                           msum([(s_prime[i], outputs[i][1]) for i in range(n)]))),
        ("t42", t42, total(msum([(c * u[j], inputs[j][0]) for j in range(n)]), mul(-s4, G),
                           msum([(s_prime[i], outputs[i][0]) for i in range(n)]))),
    ]
    prev = B
    for i in range(n):
        checks.append((f"t_hat[{i}]", t_hat[i], total(mul(c, chain[i]), mul(s_hat[i], G),
                                                       mul(s_prime[i], prev))))
        prev = chain[i]
    for name, given, computed in checks:
        if given != computed:
            raise Refused(f"§6.4.4: a shuffle proof fails its {name} equation")


def ctx(table_id: bytes, deck: str, epoch: int, step: str, *numbers: int) -> bytes:
    """§6.2: the context every proof is bound to."""
    return lp(b"p2ptarot/mental/v1", table_id, deck.encode(), u64be(epoch), step.encode(),
              *(u64be(n) for n in numbers))


def proof(text: str) -> tuple[int, int]:
    """§6.1: c ‖ s, two scalars."""
    raw = unb64(text, 64)
    return scalar(raw[:32]), scalar(raw[32:])


# ---- §6.4 proofs --------------------------------------------------------------------------------
def check_schnorr(context: bytes, h: bytes, prf: str) -> None:
    """§6.4.1: t' = s·G − c·h; c = HS("p2ptarot/schnorr", ctx, G, h, t')."""
    c, s = proof(prf)
    t = sub(mul(s, G), mul(c, h))
    if c != hs("p2ptarot/schnorr", context, G, h, t):
        raise Refused("§6.4.1: a key's Schnorr proof does not verify")


def check_share(context: bytes, h_i: bytes, a: bytes, b: bytes, d: bytes, prf: str) -> None:
    """§6.4.2: t1' = s·G − c·h_i, t2' = s·a − c·d; c = HS("p2ptarot/share", ctx, G, h_i, a, d, b,
    t1', t2')."""
    c, s = proof(prf)
    t1 = sub(mul(s, G), mul(c, h_i))
    t2 = sub(mul(s, a), mul(c, d))
    if c != hs("p2ptarot/share", context, G, h_i, a, d, b, t1, t2):
        raise Refused("§6.4.2: a decryption share's proof does not verify")


def check_reencrypt(context: bytes, H: bytes, old: tuple[bytes, bytes], new: tuple[bytes, bytes],
                    prf: str) -> None:
    """§6.4.3: t1' = s·G − c·(a' − a), t2' = s·H − c·(b' − b); c = HS("p2ptarot/reenc", ctx, G,
    H, a, b, a', b', t1', t2'); neither difference the identity."""
    (a, b), (a2, b2) = old, new
    da, db = sub(a2, a), sub(b2, b)
    if da == bytes(32) or db == bytes(32):
        raise Refused("§6.4.3: a re-encryption by r = 0")
    c, s = proof(prf)
    t1 = sub(mul(s, G), mul(c, da))
    t2 = sub(mul(s, H), mul(c, db))
    if c != hs("p2ptarot/reenc", context, G, H, a, b, a2, b2, t1, t2):
        raise Refused("§6.4.3: a re-encryption's proof does not verify")


def commit(label: str, value: bytes, salt: bytes) -> bytes:
    """§6.2: TH("p2ptarot/commit/" ‖ label, salt, value)[0:32]."""
    return th("p2ptarot/commit/" + label, salt, value)[:32]


SEALED_SIZES = {2**k + 16 for k in range(8, 15)}  # §7.3


# ---- §3 charter, §4 envelopes and chain, §9 the file --------------------------------------------
class Verifier:
    def __init__(self, header: dict[str, Any]) -> None:
        if header.get("kind") != "p2ptarot-transcript" or set(header) != {"kind", "charter"}:
            raise Refused("§9: not a transcript header")
        signed = header["charter"]
        charter = signed["charter"]
        self.protocol = charter["protocol"]
        self.table_id = hashlib.sha256(b"p2ptarot/charter\0" + canonical(charter)).digest()  # §3
        self.keys = [Ed25519PublicKey.from_public_bytes(unb64(s["key"], 32))
                     for s in charter["seats"]]
        sigs = signed["signatures"]
        if len(sigs) != len(self.keys):
            raise Refused("§3: one charter signature per seat")
        for key, sig in zip(self.keys, sigs):
            self._ed25519(key, unb64(sig, 64), b"p2ptarot/charter-signature\0" + self.table_id,
                          "§3: a charter signature does not verify")
        self.chain = hashlib.sha256(b"p2ptarot/chain\0" + self.table_id).digest()  # chain(0)
        self.step = 0
        self.digests: list[bytes] = []
        self.step_seats: set[int] = set()
        self.stopped: dict[int, int] = {}  # seat -> step of its first abort record
        self.seen_lines: set[bytes] = set()
        self.keys_h: dict[tuple[str, int], dict[int, bytes]] = {}  # (deck, epoch) -> seat -> h_i
        #: (deck, epoch) -> deck handle -> versions [(a, b), ...] (§6.5)
        self.versions: dict[tuple[str, int], dict[int, list[tuple[bytes, bytes]]]] = {}
        self.shuffled: dict[tuple[str, int, int], tuple[list[int], list[tuple[bytes, bytes]]]] = {}
        self.op_handles: dict[tuple[str, int, int], list[list[int]]] = {}
        self.retired: set[tuple[tuple[str, int], int]] = set()
        self.coins: dict[int, tuple[str, bytes]] = {}
        self.draws = 0
        self.blind: dict[int, tuple[int, bytes]] = {}
        self.secrets: dict[tuple[int, str], tuple[str, bytes]] = {}
        #: §6.7 (deck, epoch) -> (handle, version) -> seat -> its published share d_i
        self.published: dict[tuple[str, int], dict[tuple[int, int], dict[int, bytes]]] = {}
        #: §6.7 (deck, epoch, op, kind) -> what the operation's first message named, its author,
        #: each seat's plan and (for a share step) the owing seats
        self.ops: dict[tuple[str, int, int, str], dict[str, Any]] = {}
        #: §6.7 (deck, epoch, op) -> a completed re-encryption's share phase [(h, new v, to)]
        self.share_phase: dict[tuple[str, int, int], list[tuple[int, int, int]]] = {}
        self.audited: set[tuple[str, int]] = set()
        self.step_op: tuple[str, int, int, str] | None = None
        self.counts = {"envelopes": 0, "schnorr": 0, "shuffles": 0, "shares": 0,
                       "reencryptions": 0, "openings": 0, "targets": 0, "audit_opened": 0}

    @staticmethod
    def _ed25519(key: Ed25519PublicKey, sig: bytes, data: bytes, why: str) -> None:
        try:
            key.verify(sig, data)
        except InvalidSignature as exc:
            raise Refused(why) from exc

    def line(self, raw: bytes) -> None:
        if raw in self.seen_lines:
            raise Refused("§9: a line repeats an earlier line verbatim")
        self.seen_lines.add(raw)
        env = decode(raw)
        if set(env) != {"v", "table", "step", "seat", "prev", "kind", "body", "sig"}:
            raise Refused("§4: an envelope has exactly the listed fields")
        if unb64(env["table"], 32) != self.table_id:
            raise Refused("§4: another table")
        seat = env["seat"]
        if not (isinstance(seat, int) and 0 <= seat < len(self.keys)):
            raise Refused("§4: an unknown seat")
        unsigned = {k: v for k, v in env.items() if k != "sig"}
        self._ed25519(self.keys[seat], unb64(env["sig"], 64),
                      b"p2ptarot/envelope\0" + canonical(unsigned), "§4: a bad signature")
        if env["kind"] == "abort":  # §8: accepted at any step, never in the chain
            self._abort_record(env)
            self.stopped.setdefault(seat, env["step"])
            return
        if env["v"] != self.protocol:
            raise Convicted("§4: a signed message of another protocol version")
        if env["step"] > self.stopped.get(seat, env["step"]):
            raise Refused("§9: a message of a seat after the step of its own abort record")
        self._chain(env, raw)
        self.counts["envelopes"] += 1
        if env["kind"] in ("coin.commit", "coin.open", "move.commit", "move.open", "move"):
            self._commitments(env["kind"], env["step"], seat, env["body"])
        if env["kind"].startswith("mental."):
            self._mental(env["kind"], seat, env["body"])

    def _abort_record(self, env: dict[str, Any]) -> None:
        """§9.1: a well-formed abort record — the charter's version, exactly the body keys of
        body.abort, a blame naming a seat or null, and a body step equal to its first evidence
        envelope's step (or, without evidence, its own envelope's). `prev` is not compared (a
        record may come from another history). A malformed one convicts nobody: the file is
        inconsistent (§9.2)."""
        body = env["body"]
        if env["v"] != self.protocol:
            raise Refused("§9.1: an abort record of another protocol version")
        if not isinstance(body, dict) or set(body) != {"blame", "reason", "step", "evidence"}:
            raise Refused("§9.1: an abort record's body has other keys than blame, reason, step, "
                          "evidence")
        blame, step, evidence = body["blame"], body["step"], body["evidence"]
        if blame is not None and not (type(blame) is int and 0 <= blame < len(self.keys)):
            raise Refused("§9.1: an abort record blaming no seat of the charter")
        if not (isinstance(body["reason"], str) and len(body["reason"]) <= 500) \
                or not isinstance(evidence, list) or len(evidence) > 2 \
                or not (type(step) is int and step >= 0):
            raise Refused("§9.1: an abort record's body out of its schema")
        due = env["step"]
        if evidence:
            first = evidence[0]
            try:
                quoted = decode(unb64(first)) if isinstance(first, str) else first
                due = quoted["step"]
            except (Refused, KeyError, TypeError) as exc:
                raise Refused("§9.1: an abort record's first evidence is not an envelope") from exc
        if step != due:
            raise Refused("§9.1: an abort record's body step is not its first evidence's step "
                          "(or its own)")

    def _chain(self, env: dict[str, Any], raw: bytes) -> None:
        """§4: every message of step k carries prev = chain(k); chain(k+1) hashes chain(k) and the
        digests of step k's messages in seat order (§1, §9: the file's order)."""
        step = env["step"]
        if step != self.step:
            if step != self.step + 1 or not self.digests:
                raise Refused(f"§9: step {step} out of order after step {self.step}")
            self._close_step()
            self.chain = hashlib.sha256(b"p2ptarot/chain\0" + self.chain
                                        + b"".join(self.digests)).digest()
            self.step, self.digests, self.step_seats = step, [], set()
            self.step_op = None
        if env["seat"] in self.step_seats:  # the order is the step's (§5: a move step's is
            raise Refused("§5: two messages of one seat in one step")  # the engine's)
        if unb64(env["prev"], 32) != self.chain:
            raise Refused(f"§4: step {step} chains to another history")
        self.step_seats.add(env["seat"])
        self.digests.append(hashlib.sha256(b"p2ptarot/message\0" + raw).digest())

    def _mental(self, kind: str, seat: int, body: dict[str, Any]) -> None:
        if body.get("kind") != kind or body.get("seat") != seat:
            raise Refused("§5: the mental header repeats the envelope's kind and seat")
        deck, epoch, op = body["deck"], body["epoch"], body["op"]
        where = (deck, epoch)
        if where in self.audited:
            raise Convicted("§6.3 step 7: a deck message of an epoch after its audit", (seat,))
        if kind in ("mental.shares", "mental.reencrypt"):  # §5 rule 1: one operation a step
            if self.step_op not in (None, (deck, epoch, op, kind)):
                raise Refused("§5: one deck operation per step")
            self.step_op = (deck, epoch, op, kind)
        if kind == "mental.key":
            h = point(body["key"])
            check_schnorr(ctx(self.table_id, deck, epoch, "key", seat), h, body["proof"])
            self.keys_h.setdefault(where, {})[seat] = h
            self.counts["schnorr"] += 1
        elif kind == "mental.shuffle":
            cts = [self._ciphertext(c) for c in body["ciphertexts"]]
            stage = self._stage(where, op, body["inputs"], body["outputs"], len(cts))
            check_shuffle(ctx(self.table_id, deck, epoch, "shuffle", op, seat), self._joint(where),
                          stage, cts, unb64(body["proof"]))
            self.shuffled[(deck, epoch, op)] = (list(body["outputs"]), cts)  # the op's last wins
            self.counts["shuffles"] += 1
        elif kind == "mental.reencrypt":
            self._settle_shuffles(where)
            H = self._joint(where)
            self._transfers(where, op, seat, body)
            for item in body["items"]:
                versions = self.versions[where][item["handle"]]
                if item["version"] != len(versions):
                    raise Refused("§6.5: a new version is numbered by the versions so far")
                new = self._ciphertext(item["ciphertext"])
                check_reencrypt(ctx(self.table_id, deck, epoch, "reencrypt", item["handle"],
                                    item["version"], seat), H,
                                self._current(where, item["handle"]), new, item["proof"])
                versions.append(new)
                self.counts["reencryptions"] += 1
        elif kind == "mental.shares":
            self._settle_shuffles(where)
            h_i = self.keys_h[where][seat]
            self._targets(where, op, seat, body)
            for item in body["items"]:
                a, b = self.versions[where][item["handle"]][item["version"]]
                d = point(item["share"])
                check_share(ctx(self.table_id, deck, epoch, "share", item["handle"],
                                item["version"], seat), h_i, a, b, d, item["proof"])
                self.published.setdefault(where, {}).setdefault(
                    (item["handle"], item["version"]), {})[seat] = d
                self.counts["shares"] += 1
        else:
            raise Refused(f"§5: unknown kind {kind}")

    # ---- §6.7 what every deck operation names, checked without the rules ------------------------
    def _named(self, key: tuple[str, int, int, str], seat: int, named: Any,
               plan: Any = None, owing: Any = None) -> dict[str, Any]:
        """§6.7: every message of one operation names the same lists. The first one fixes them
        here; a later one naming others proves that one of the two authors lied (which one, only
        the rules can tell: both are named)."""
        record = self.ops.get(key)
        if record is None:
            record = self.ops[key] = {"named": named, "author": seat, "plan": plan,
                                      "owing": owing}
        elif record["named"] != named:
            raise Convicted("§6.7: two messages of one operation name different lists",
                            tuple(sorted({record["author"], seat})))
        return record

    def _targets(self, where: tuple[str, int], op: int, seat: int, body: dict[str, Any]) -> None:
        """§6.7: a `mental.shares` message's `targets`, `owing` and `audit` against the public
        record (handles, versions, the shares published before the operation), then its items:
        exactly the shares its seat owes under those targets, in target order."""
        targets, owing, audit = body["targets"], body["owing"], body["audit"]
        n = len(self.keys)
        if not isinstance(audit, bool) or not isinstance(owing, list) \
                or owing != sorted(set(owing)) or not isinstance(targets, list) \
                or not all(isinstance(t, list) and len(t) == 3 for t in targets):
            raise Convicted("§5: a malformed mental.shares body", (seat,))
        table = self.versions.get(where, {})
        key = (*where, op, "mental.shares")
        if key in self.ops:  # the shares published before the operation, not by its own steps
            published = self.ops[key]["before"]
        else:
            published = {k: set(v) for k, v in self.published.get(where, {}).items()}
        phase = self.share_phase.get((*where, op))
        if phase is not None and (audit or targets != phase):
            raise Convicted("§6.7: a shown card's shares name other targets than the "
                            "re-encryption's transfers (or an audit)", (seat,))
        handles = [t[0] for t in targets]
        if audit and len(set(handles)) != len(handles):
            raise Convicted("§6.7: an audit lists a handle twice", (seat,))
        for h, v, to in targets:
            if not (type(h) is int and type(v) is int and h in table and 0 <= v < len(table[h])):
                raise Convicted("§6.7: a target names no existing handle version", (seat,))
            if to is not None and not (type(to) is int and 0 <= to < n):
                raise Convicted("§6.7: a target's recipient is no seat", (seat,))
            if audit and to is not None:
                raise Convicted("§6.7: an audit opens to everyone (recipient null)", (seat,))
            if phase is None and v != 0:  # §6.5: a deal, reveal or audit opens the current
                raise Convicted("§6.7: a target opens another version than the current one",
                                (seat,))  # version (0 unless a give, which no game uses)
            if phase is None and not audit and (where, h) in self.retired:
                raise Convicted("§6.7: a deal or reveal of a handle a reshuffle retired", (seat,))
            if phase is None and to is not None and published.get((h, v)):
                raise Convicted("§6.7: a deal of a card already opened", (seat,))
        if key not in self.ops:
            plan = {s: [[h, v] for h, v, to in targets
                        if to != s and s not in published.get((h, v), {})] for s in range(n)}
            due = [s for s in range(n) if plan[s]]
        else:
            plan, due = self.ops[key]["plan"], self.ops[key]["owing"]
        if owing != due:
            raise Convicted("§6.7: `owing` is not the seats its targets and the shares already "
                            "published leave owing", (seat,))
        self._named(key, seat, [targets, owing, audit], plan, due)["before"] = published
        if seat not in due or [[i["handle"], i["version"]] for i in body["items"]] != plan[seat]:
            raise Convicted("§6.7: its items are not the shares its seat owes under its "
                            "targets (a share owed is missing, or one is extra)", (seat,))
        self.counts["targets"] += 1

    def _transfers(self, where: tuple[str, int], op: int, seat: int, body: dict[str, Any]
                   ) -> None:
        """§6.7: a `mental.reencrypt` message's `targets` (handle, holder, recipient): live,
        distinct handles, a holder the public shares let know the card, another recipient; its
        items are its own transfers', numbered by the versions so far (§6.5)."""
        targets, n = body["targets"], len(self.keys)
        table = self.versions.get(where, {})
        if not isinstance(targets, list) or not targets \
                or not all(isinstance(t, list) and len(t) == 3 for t in targets):
            raise Convicted("§5: a malformed mental.reencrypt body", (seat,))
        if len({t[0] for t in targets}) != len(targets):
            raise Convicted("§6.7: a transfer names a handle twice", (seat,))
        for h, holder, to in targets:
            if not (type(h) is int and h in table and (where, h) not in self.retired
                    and type(holder) is int and type(to) is int and 0 <= holder < n
                    and 0 <= to < n and holder != to):
                raise Convicted("§6.7: a transfer of no live handle, or to its own holder",
                                (seat,))
            if holder not in self._knowers(where, h):
                raise Convicted("§6.7: a transfer by a holder the public shares do not let "
                                "know the card", (seat,))
        key = (*where, op, "mental.reencrypt")
        self._named(key, seat, targets)
        mine = [[h, len(table[h])] for h, holder, _ in targets if holder == seat]
        if not mine or [[i["handle"], i["version"]] for i in body["items"]] != mine:
            raise Convicted("§6.7: its items are not the re-encryptions its seat owes", (seat,))
        self.counts["targets"] += 1

    def _knowers(self, where: tuple[str, int], h: int) -> set[int]:
        """§6.3 step 4: a version with every share is known to all; with all but seat s's, to s."""
        n, out = len(self.keys), set()
        for v in range(len(self.versions[where][h])):
            have = set(self.published.get(where, {}).get((h, v), {}))
            if len(have) == n:
                out |= set(range(n))
            elif len(have) == n - 1:
                out |= set(range(n)) - have
        return out

    def finish(self) -> None:
        """§6.7 at the end of the file: a last deck step that is complete (every seat it names
        spoke) is checked like any other; an incomplete one is a cut, not a fault."""
        if self.step_op is not None:
            record = self.ops[self.step_op]
            due = ({holder for _, holder, _ in record["named"]}
                   if self.step_op[3] == "mental.reencrypt" else set(record["named"][1]))
            if due == self.step_seats:
                self._close_step()

    def _close_step(self) -> None:
        """§6.7, when the next step begins: every owing seat (every holder) spoke, every target
        now has every share but its recipient's, and an audit made exactly its listed handles
        public — each decrypting to a card of the deck."""
        if self.step_op is None:
            return
        deck, epoch, op, kind = self.step_op
        where, record = (deck, epoch), self.ops[self.step_op]
        if kind == "mental.reencrypt":
            holders = {holder for _, holder, _ in record["named"]}
            if holders != self.step_seats:
                raise Refused("§6.7: a re-encryption step lacks a holder's message")
            self.share_phase[(deck, epoch, op)] = [
                [h, len(self.versions[where][h]) - 1, to] for h, _, to in record["named"]]
            return
        targets, owing, audit = record["named"]
        if set(owing) != self.step_seats:
            raise Refused("§6.7: a share step lacks the message of a seat it names as owing")
        published = self.published.get(where, {})
        n = len(self.keys)
        for h, v, to in targets:
            if set(published.get((h, v), {})) != set(range(n)) - {to}:
                raise Refused("§6.7: a target lacks a share owed")  # pragma: no cover
        if audit:
            points = self._card_points(deck)
            for h, v, _ in targets:
                a, b = self.versions[where][h][v]
                m = sub(b, total(*published[(h, v)].values()))
                if m not in points:
                    raise Refused("§6.3 step 7: an audited card decrypts to no card of the deck")
                self.counts["audit_opened"] += 1
            self.audited.add(where)

    def _card_points(self, deck: str) -> set[bytes]:
        """§6.2: M_c of every card of the deck."""
        cache = self.__dict__.setdefault("_points", {})
        if deck not in cache:
            cache[deck] = {hp("p2ptarot/card", deck.encode(), c.encode())
                           for c in open_deck_cards(deck)}
        return cache[deck]

    def _commitments(self, kind: str, step: int, seat: int, body: dict[str, Any]) -> None:
        hexid = self.table_id.hex()
        if kind == "coin.commit":  # §7: the draw index counts the joint draws before this one
            self.coins[seat] = (body["purpose"], unb64(body["digest"], 32))
        elif kind == "coin.open":
            purpose, digest = self.coins.pop(seat)
            label = f"p2ptarot/coin/{hexid}/{self.draws}/{purpose}"
            value, salt = unb64(body["value"], 32), unb64(body["salt"], 32)
            if body["purpose"] != purpose:
                raise Convicted("§6.6: a coin opening under another purpose than its "
                                "commitment's")
            if commit(label, value, salt) != digest:
                raise Convicted("§7: a coin opening does not match its commitment")
            self.counts["openings"] += 1
            if not self.coins:
                self.draws += 1
        elif kind == "move.commit":  # §7.1
            self._sealed(body["sealed"])
            self.blind[seat] = (step, unb64(body["digest"], 32))
        elif kind == "move.open":
            k, digest = self.blind.pop(seat)
            opened = {key: v for key, v in body.items() if key != "salt"}
            label = f"p2ptarot/move/{hexid}/{k}/{seat}"
            if commit(label, canonical(opened), unb64(body["salt"], 32)) != digest:
                raise Refused("§7.1: a blind move's opening does not match its commitment")
            self.counts["openings"] += 1
            self._secret(k, seat, opened)
        else:
            self._secret(step, seat, body)

    def _secret(self, k: int, seat: int, body: dict[str, Any]) -> None:
        """§7.2: an engine secret's commitment (label with the step k where it was signed
        first) and its opening."""
        move, secret = body["move"], body.get("secret")
        if move.get("kind") == "commit" and secret is not None:
            self._sealed(secret["sealed"])
            label = f"p2ptarot/secret/{self.table_id.hex()}/{k}/{seat}/{move['name']}"
            self.secrets[(seat, move["name"])] = (label, unb64(secret["digest"], 32))
        elif move.get("kind") == "open" and secret is not None:
            label, digest = self.secrets.pop((seat, move["name"]))
            if commit(label, move["value"].encode(), unb64(secret["salt"], 32)) != digest:
                raise Refused("§7.2: a secret's opening does not match its commitment")
            self.counts["openings"] += 1

    @staticmethod
    def _sealed(text: str) -> None:
        if len(unb64(text)) not in SEALED_SIZES:
            raise Refused("§7.3: a sealed value of a size no honest seat seals")

    def _stage(self, where: tuple[str, int], op: int, inputs: list[int], outputs: list[int],
               n: int) -> list[tuple[bytes, bytes]]:
        """The ciphertexts a shuffle takes (§6.3 steps 2, 3, 6): the previous seat's outputs in
        the same operation; else the open deck (a first shuffle: `inputs` [], `outputs` 0…N−1)
        or the current versions of a reshuffle's inputs (new handles: the next unused ones)."""
        key = (*where, op)
        if key in self.shuffled:
            if [inputs, outputs] != self.op_handles[key]:
                raise Refused("§6.3: every shuffle of an operation names the same handles")
            return self.shuffled[key][1]
        self._settle_shuffles(where)
        table = self.versions.setdefault(where, {})
        if not inputs:
            if table or outputs != list(range(n)):
                raise Refused("§6.3: a first shuffle creates handles 0…N−1 of a fresh epoch")
            H = self._joint(where)
            deck = where[0]
            stage = [(G, add(hp("p2ptarot/card", deck.encode(), c.encode()), H))
                     for c in open_deck_cards(deck)]
        else:
            nxt = max(table) + 1
            if outputs != list(range(nxt, nxt + len(inputs))) or len(set(inputs)) != len(inputs) \
                    or any(h in self.retired for h in ((where, x) for x in inputs)):
                raise Refused("§6.5: a reshuffle retires live handles and creates the next ones")
            stage = [self._current(where, h) for h in inputs]
            self.retired.update((where, h) for h in inputs)
        if len(stage) != n:
            raise Refused("§6.3: a shuffle of another size than its input")
        self.op_handles[key] = [inputs, outputs]
        return stage

    def _ciphertext(self, text: str) -> tuple[bytes, bytes]:
        raw = unb64(text, 64)  # §6.1: a ‖ b
        return (point(base64.urlsafe_b64encode(raw[:32]).rstrip(b"=").decode()),
                point(base64.urlsafe_b64encode(raw[32:]).rstrip(b"=").decode()))

    def _joint(self, where: tuple[str, int]) -> bytes:
        """§6.3 step 1: H = Σ h_i."""
        keys = list(self.keys_h[where].values())
        H = keys[0]
        for k in keys[1:]:
            H = add(H, k)
        return H

    def _settle_shuffles(self, where: tuple[str, int]) -> None:
        """§6.3 steps 3/6, §6.5: a shuffle operation's last message gives version 0 of each
        output handle, by position."""
        for (deck, epoch, op) in sorted(k for k in self.shuffled if k[:2] == where):
            outputs, cts = self.shuffled.pop((deck, epoch, op))
            table = self.versions.setdefault(where, {})
            for h, ct in zip(outputs, cts):
                table[h] = [ct]

    def _current(self, where: tuple[str, int], handle: int) -> tuple[bytes, bytes]:
        """§6.5: a show re-encrypts the handle's current version (version 0 unless a give made a
        later one current; no game uses give)."""
        return self.versions[where][handle][0]


def verify(path: Path) -> str | None:
    """None when every check passes, else the first failure."""
    return check(path)[0]


def check(path: Path) -> tuple[str | None, dict[str, int]]:
    """The first failure (or None) and what was checked up to it (a test's evidence that it
    looked: envelopes, key proofs, shuffle proofs, share proofs, re-encryption proofs)."""
    error, counts, _kind, _line = run(path)
    return error, counts


def run(path: Path) -> tuple[str | None, dict[str, int], str | None, int | None]:
    """The first failure, the counts, its verdict class (§9.2) and the line it names (1-based)."""
    j = judge(path)
    return j["error"], j["counts"], j["kind"], j["line"]


def judge(path: Path) -> dict[str, Any]:
    """`run`'s answer as a dict, plus for a conviction its `step` (the step of the message at
    fault, §9.2) and `seats` (its signer; both authors of two messages naming different lists
    of one operation, §6.7).

    §9: one byte form — `\\n` ends every line (the last one too), no `\\r`, no empty line; a
    header line that breaks it is no transcript, a later one is the file's fault, a last line
    without its `\\n` a cut (incomplete)."""
    data = path.read_bytes()
    lines = data.split(b"\n")
    tail = lines.pop()
    v: Verifier | None = None
    number = 1
    try:
        if not lines:
            raise NotATranscript("§9: no header line ending with \\n")
        try:
            header = decode(lines[0])
        except Refused as exc:
            raise NotATranscript(f"§9.2: line 1 is not a canonical transcript header ({exc})") \
                from exc
        if not isinstance(header, dict):
            raise NotATranscript("§9.2: line 1 is not a transcript header")
        v = Verifier(header)
        for number, raw in enumerate(lines[1:], start=2):
            if not raw:
                raise Refused(f"§9: line {number} is empty")
            if b"\r" in raw:
                raise Refused(f"§9: line {number} holds a carriage return")
            v.line(raw)
        if tail:
            number = len(lines) + 1
            raise Cut(f"§9: line {number} does not end with \\n")
        v.finish()
    except (Refused, KeyError, TypeError, ValueError, IndexError) as exc:
        kind = exc.kind if isinstance(exc, Refused) else "inconsistent"
        step = None
        if isinstance(exc, Convicted) and number >= 2:
            step = json.loads(lines[number - 1])["step"]
        return {"error": f"{type(exc).__name__}: {exc}",
                "counts": v.counts if v is not None else {}, "kind": kind, "line": number,
                "step": step, "seats": getattr(exc, "seats", ())}
    return {"error": None, "counts": v.counts, "kind": None, "line": None, "step": None,
            "seats": ()}
