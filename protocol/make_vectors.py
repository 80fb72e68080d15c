"""Generate the conformance vectors in protocol/vectors/ (run from the repository root).

    .venv/bin/python protocol/make_vectors.py

A 2-seat sinople game (and a 2-seat paris divins game, whose wagers are blind rounds) is played in memory by seeded random bots with fixed identities, charter
nonce and game seeds; while it is generated, every module that draws from `secrets` gets a seeded
SHAKE-256 stream instead, so a rerun writes byte-identical files. From its transcript the script derives invalid transcripts, each with the verdict a
conforming verifier must reach (valid flag, step, blamed seat, a word of the reason). Because the
script holds every identity it can forge *correctly signed* bad messages: those test the checks
behind the signature (chain, proofs, rules, outcome), not just the signature.

Every expected verdict is written by hand below and checked against p2ptarot's own verifier
before anything is written: the script refuses to emit a vector the reference disagrees with.
Invalid transcripts are cut a few lines after the fault to keep the files small.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from p2ptarot.bots import make as make_bot  # noqa: E402
from p2ptarot.crypto.signing import Identity  # noqa: E402
from p2ptarot.table import canonical  # noqa: E402
from p2ptarot.table.bodies import AbortBody  # noqa: E402
from p2ptarot.table import secrets as table_secrets  # noqa: E402
from p2ptarot.table.effects import Aborted, Finished, NeedMove, Record, Send  # noqa: E402
from p2ptarot.table.envelope import Envelope, parse, seal  # noqa: E402
from p2ptarot.table.lobby import make_charter, signed_locally  # noqa: E402
from p2ptarot.table.session import Session  # noqa: E402
from p2ptarot.transcript import Transcript, parse_transcript, verify_transcript  # noqa: E402
from p2ptarot.transcript import header_line  # noqa: E402
from p2ptarot.crypto.group import G, Scalar, base_mul, hash_to_scalar  # noqa: E402
from p2ptarot.mental import binding  # noqa: E402
from p2ptarot.mental.randomness import random_scalar  # noqa: E402
from p2ptarot.table.secrets import EpochKeySource  # noqa: E402

import crypto_vector  # noqa: E402  (protocol/crypto_vector.py, next to this script)

OUT = ROOT / "protocol" / "vectors"
SEATS = 2
GAME = "sinople"
BLIND_GAME = "paris-divins"
SECRET_GAME = "eleusis"


class _Drbg:
    """SHAKE-256 counter stream standing in for the `secrets` module (vectors only, never play)."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0

    def token_bytes(self, n: int) -> bytes:
        self._counter += 1
        return hashlib.shake_256(self._seed + self._counter.to_bytes(8, "big")).digest(n)

    def randbelow(self, n: int) -> int:
        size = (n.bit_length() + 7) // 8 + 8
        bound = (256 ** size // n) * n
        while True:
            v = int.from_bytes(self.token_bytes(size), "big")
            if v < bound:
                return v % n


_SECRETS_USERS = ("p2ptarot.crypto.group", "p2ptarot.crypto.shuffle", "p2ptarot.crypto.commitment",
                  "p2ptarot.mental.randomness")


def identities(seats: int = SEATS) -> list[Identity]:
    return [Identity.from_seed(hashlib.sha256(b"p2ptarot/vector-identity/%d" % k).digest())
            for k in range(seats)]


def seeds(seats: int = SEATS) -> list[bytes]:
    """Each seat's per-game seed (its epoch keys, coin values, salts and sealing key)."""
    return [hashlib.sha256(b"p2ptarot/vector-seed/%d" % k).digest() for k in range(seats)]


#: the stand-in reference game: seat 1's moves number 2 to 5 are its stand-in bot's (`by`)
STAND_IN_SEAT, STAND_IN_MOVES = 1, range(2, 6)


#: a scripted choice: (seat's session, legal moves) -> the move to play, or None for the bot's
Script = Callable[[Session, list], Any]


def play(game: str = GAME, tag: bytes = b"", stand_in: bool = False, seats: int = SEATS,
         options: dict[str, Any] | None = None, scripts: dict[int, Script] | None = None,
         prepare: Callable[[list[Session]], None] | None = None, aborts: bool = False
         ) -> tuple[Any, list[bytes], list[Identity]]:
    """One full game; returns the signed charter, seat 0's transcript lines and the identities.
    `tag` separates the nonce and random stream of a second reference game. `stand_in`: the
    table's charter sets a 60 s stand-in policy and seat 1's moves 2 to 5 are marked as its
    stand-in bot's (`by: "bot"`), after which its player takes the seat back. `scripts` choose
    some seats' moves; `prepare` adjusts the sessions before the game starts (a cheater's engine).
    `aborts`: the game is meant to stop on a conviction (seat 0's log is returned as written)."""
    ids = identities(seats)
    charter = make_charter(game, [(i.public_bytes, f"p{k}", "") for k, i in enumerate(ids)],
                           options=options,
                           nonce=hashlib.sha256(b"p2ptarot/vector-nonce" + tag).digest(),
                           stand_in_after=60 if stand_in else 0)
    signed = signed_locally(charter, ids)
    drbg = _Drbg(b"p2ptarot/vector-drbg" + tag)
    saved = table_secrets._os_random
    table_secrets._os_random = drbg  # type: ignore[assignment]
    modules = [importlib.import_module(m) for m in _SECRETS_USERS]
    saved_secrets = [m.secrets for m in modules]  # type: ignore[attr-defined]
    for m in modules:
        m.secrets = drbg  # type: ignore[attr-defined]
    try:
        game_seeds = seeds(seats)
        sessions = [Session(signed, k, ids[k], game_seeds[k]) for k in range(seats)]
        if prepare is not None:
            prepare(sessions)
        scripts = scripts or {}
        bots = [make_bot("random", 7 + k) for k in range(seats)]
        records: list[list[bytes]] = [[] for _ in range(seats)]
        queue: deque[tuple[int, Any]] = deque()
        finished = [False] * seats
        stopped = [False] * seats
        asked = [0] * seats

        def handle(k: int, effects: list[Any]) -> None:
            for e in effects:
                if isinstance(e, Send):
                    queue.extend((j, e.envelope.encoded()) for j in range(seats) if j != k)
                elif isinstance(e, Record):
                    records[k].append(e.envelope.encoded())
                elif isinstance(e, NeedMove):
                    asked[k] += 1
                    by = "bot" if (stand_in and k == STAND_IN_SEAT
                                   and asked[k] in STAND_IN_MOVES) else None
                    move = scripts[k](sessions[k], list(e.legal)) if k in scripts else None
                    if move is None:
                        move = bots[k].choose(k, e.view, list(e.legal))
                    queue.append((-1 - k, (move, by)))
                elif isinstance(e, Finished):
                    finished[k] = True
                elif isinstance(e, Aborted):
                    stopped[k] = True

        for k, s in enumerate(sessions):
            handle(k, s.start())
        while queue:
            j, item = queue.popleft()
            if j < 0:
                handle(-1 - j, sessions[-1 - j].act(*item))
            else:
                handle(j, sessions[j].receive(item))
    finally:
        table_secrets._os_random = saved
        for m, orig in zip(modules, saved_secrets):
            m.secrets = orig  # type: ignore[attr-defined]
    if aborts:
        if not all(stopped):
            raise SystemExit("the reference game was meant to stop on a conviction")
    elif not all(finished) or any(r != records[0] for r in records):
        raise SystemExit("the reference game did not finish identically on both seats")
    return signed, records[0], ids


@dataclass
class Case:
    name: str
    description: str
    lines: list[bytes]
    step: int | None
    seat: int | None
    reason: str  # a substring the reference verifier's reason contains
    #: the file's bytes from its canonical form (a framing vector, PROTOCOL §9); None: as is
    framing: Callable[[bytes], bytes] | None = None


def _envs(lines: list[bytes]) -> list[Envelope]:
    return [parse(line) for line in lines]


def _resign(ids: list[Identity], env: Envelope, **changes: Any) -> bytes:
    """A properly signed variant of `env` by the key of its own seat."""
    d = env.unsigned()
    d.update(changes)
    forged = seal(ids[d["seat"]], canonical.unb64(d["table"]), d["step"], d["seat"],
                  canonical.unb64(d["prev"]), d["kind"], d["body"])
    return forged.encoded()


def _first(envs: list[Envelope], pred: Callable[[Envelope], bool], start: int = 0) -> int:
    return next(i for i in range(start, len(envs)) if pred(envs[i]))


def _cut(lines: list[bytes], step: int, extra_steps: int = 1) -> list[bytes]:
    """Keep the lines up to `step + extra_steps`: the verifier stops at the first fault anyway."""
    out = []
    for line in lines:
        if parse(line).step > step + extra_steps:
            break
        out.append(line)
    return out


def _flip_sig(line: bytes) -> bytes:
    env = parse(line)
    sig = bytearray(canonical.unb64(env.sig))
    sig[10] ^= 0x01
    return canonical.encode({**env.model_dump(mode="json"), "sig": canonical.b64(bytes(sig))})


def cases(lines: list[bytes], ids: list[Identity]) -> list[Case]:
    envs = _envs(lines)
    out: list[Case] = []

    i = _first(envs, lambda e: e.kind == "move")
    bad = list(lines)
    bad[i] = _flip_sig(lines[i])
    out.append(Case("bad-signature", "one bit of a move's signature flipped: nobody signed the "
                    "line, so it implicates no seat", _cut(bad, envs[i].step),
                    envs[i].step, None, "bad signature"))

    i = _first(envs, lambda e: e.kind == "mental.shuffle")
    body = dict(envs[i].body)
    body["ciphertexts"] = list(reversed(body["ciphertexts"]))
    bad = list(lines)
    bad[i] = canonical.encode({**envs[i].model_dump(mode="json"), "body": body})
    out.append(Case("body-not-resigned", "a shuffle's ciphertexts reordered, signature kept "
                    "(implicates no seat)", _cut(bad, envs[i].step), envs[i].step, None,
                    "bad signature"))

    i = _first(envs, lambda e: e.step > 0 and len([f for f in envs if f.step == e.step]) == 2)
    after = envs[i + 1]  # the other seat's message of the same step now comes first
    bad = lines[:i] + lines[i + 1:]
    out.append(Case("message-removed", "the first message of a two-seat step deleted: the step's "
                    "remaining line is out of order within its step (the file's fault, no seat's)",
                    _cut(bad, envs[i].step), after.step, None, "out of order"))

    i = _first(envs, lambda e: e.kind == "move")
    j = _first(envs, lambda e: e.step > envs[i].step, i)
    bad = list(lines)
    bad[i], bad[j] = bad[j], bad[i]
    out.append(Case("messages-swapped", "a move swapped with the next step's message (the file's "
                    "fault, no seat's)", _cut(bad, envs[j].step), envs[i].step, None,
                    "out of order"))

    i = _first(envs, lambda e: e.kind == "mental.shares")
    wrong_prev = hashlib.sha256(b"another history").digest()
    bad = list(lines)
    bad[i] = _resign(ids, envs[i], prev=canonical.b64(wrong_prev))
    out.append(Case("wrong-prev-resigned", "a share message chained to another history, signed by "
                    "its seat: proves only that its author saw other messages (a split view), "
                    "so it convicts nobody by itself", _cut(bad, envs[i].step), envs[i].step, None,
                    "another history"))

    i = _first(envs, lambda e: e.kind == "mental.shares" and len(e.body["items"]) >= 2)
    body = json.loads(json.dumps(envs[i].body))
    body["items"][0]["proof"], body["items"][1]["proof"] = (body["items"][1]["proof"],
                                                            body["items"][0]["proof"])
    bad = list(lines)
    bad[i] = _resign(ids, envs[i], body=body)
    out.append(Case("share-wrong-proof", "two decryption-share proofs exchanged, re-signed by the "
                    "seat", _cut(bad, envs[i].step), envs[i].step, envs[i].seat, "rejected"))

    out.append(_illegal_move(lines, envs, ids))

    k = _first(envs, lambda e: e.kind == "move" and e.seat == 0)
    garbage = _resign(ids, envs[k], body={**envs[k].body, "by": "human"})
    out.append(Case("move-by-garbage", "a move body marked by \"human\" (only \"bot\" or absent is "
                "allowed), properly signed: a malformed body, blamed on its signer",
                _cut(lines[:k] + [garbage] + lines[k + 1:], envs[k].step), envs[k].step, 0,
                "malformed move body"))

    i = _first(envs, lambda e: e.kind == "result")
    body = json.loads(json.dumps(envs[i].body))
    body["outcome"]["forged"] = True
    bad = list(lines)
    bad[i] = _resign(ids, envs[i], body=body)
    out.append(Case("result-different-outcome", "seat 0 signs an outcome with an extra field",
                    bad[:i + 1] + lines[i + 1:], envs[i].step, envs[i].seat, "different outcome"))

    i = _first(envs, lambda e: e.step > 0 and len([f for f in envs if f.step == e.step]) == 2)
    twin = _resign(ids, envs[i], body={**envs[i].body, "twin": 1})
    bad = lines[:i + 1] + [twin] + lines[i + 1:]
    out.append(Case("equivocation", "a seat's second, different signed message for one step",
                    _cut(bad, envs[i].step), envs[i].step, envs[i].seat, "equivocation"))

    other = 1 - envs[i].seat
    abort = _abort(ids, envs[i], other, envs[i].seat, "equivocation", [envs[i], parse(twin)])
    cut = [x for x in lines if parse(x).step < envs[i].step]
    out.append(Case("abort-evidence-equivocation", "the log stops before a step; the other seat's "
                    "abort record carries two signed versions of one message of that step: the "
                    "verifier re-checks them and convicts their signer", cut + [abort],
                    envs[i].step, envs[i].seat, "equivocation"))

    k = max(n for n, e in enumerate(envs[:-1]) if e.seat == 0 and e.kind != "result"
            and envs[n + 1].step == e.step and envs[n + 1].seat == 1)
    framing = _abort(ids, envs[k], 1, 0, "seat 0 cheated", [])
    out.append(Case("abort-framing", "seat 1 withholds its message of the last step both seats "
                    "speak in before the result and signs an abort blaming seat 0 without "
                    "evidence: an accusation convicts nobody",
                    lines[:k + 1] + [framing], envs[k].step, None, "incomplete"))

    i = _first(envs, lambda e: e.step > 0 and len([f for f in envs if f.step == e.step]) == 2)
    out.append(Case("truncated", "the file stops inside a two-seat step: incomplete, nobody is "
                    "blamed for the missing line", lines[:i + 1], envs[i].step, None,
                    "incomplete"))
    out += strict_cases(lines, envs, ids)
    out += v7_cases(lines, envs, ids)
    out += named_list_cases(lines, envs, ids)
    return out


def named_list_cases(lines: list[bytes], envs: list[Envelope], ids: list[Identity]) -> list[Case]:
    """Protocol 7 (PROTOCOL §6.7): a deal's share message whose `targets` or `owing` are not its
    operation's, properly signed: a violation of its signer, even with the items it owes."""
    out: list[Case] = []
    n = len(ids)

    def two_seat_deal(e: Envelope) -> bool:
        if e.kind != "mental.shares":
            return False
        mates = [f for f in envs if f.step == e.step]
        to_0 = [t for t in e.body["targets"] if t[2] == 0]
        return (e.kind == "mental.shares" and e.seat == 1 and not e.body["audit"]
                and len(mates) == 2 and len(to_0) >= 2)

    i = _first(envs, two_seat_deal)
    body = json.loads(json.dumps(envs[i].body))
    moved = next(t for t in body["targets"] if t[2] == 0)
    moved[2] = 1  # "that card was dealt to me": seat 1 keeps its share of it back
    body["items"] = [it for it in body["items"] if it["handle"] != moved[0]]
    bad = list(lines)
    bad[i] = _resign(ids, envs[i], body=body)
    out.append(Case("shares-targets", "in a deal both seats owe shares for, seat 1 names one "
                    "card dealt to seat 0 as dealt to itself and keeps its share of it back "
                    "(its items match its own list), properly signed: its targets are not the "
                    "operation's, blamed on seat 1 (without the rules, a verifier sees only that "
                    "seats 0 and 1 name different lists, §6.7)", _cut(bad, envs[i].step),
                    envs[i].step, 1, "shares' targets differ"))

    i = _first(envs, lambda e: e.kind == "mental.shares" and e.seat == 0
               and len(e.body["owing"]) == n)
    body = {**envs[i].body, "owing": [0]}
    bad = list(lines)
    bad[i] = _resign(ids, envs[i], body=body)
    out.append(Case("shares-owing", "seat 0's share message names itself alone as owing, where "
                    "both seats owe shares in its operation, properly signed: blamed on seat 0",
                    _cut(bad, envs[i].step), envs[i].step, 0, "owing seats"))
    return out


def _signed_raw(ids: list[Identity], fields: dict[str, Any]) -> bytes:
    """Any envelope fields (another `v` included), correctly signed by the key of their seat."""
    unsigned = {k: v for k, v in fields.items() if k != "sig"}
    sig = ids[unsigned["seat"]].sign(b"p2ptarot/envelope\0" + canonical.encode(unsigned))
    return canonical.encode({**unsigned, "sig": canonical.b64(sig)})


def v7_cases(lines: list[bytes], envs: list[Envelope], ids: list[Identity]) -> list[Case]:
    """Protocol 7: exact framing (§9), a coin opening bound to its purpose (§6.6) and malformed
    abort records (§9.1), each refused for the reason the text gives."""
    out: list[Case] = []
    cut = _cut(lines, 3)
    out.append(Case("framing-crlf", "every line after the header ends with \\r\\n: one byte form "
                    "only (\\n), refused naming line 2, no seat implicated", cut, 0, None,
                    "line 2 holds a carriage return",
                    framing=lambda data: data.replace(b"\n", b"\r\n").replace(b"\r\n", b"\n", 1)))
    k = _first(envs, lambda e: e.step == 2)
    out.append(Case("framing-blank-line", "an empty line between two steps: refused naming it",
                    cut, 2, None, f"line {k + 2} is empty",
                    framing=lambda data, at=k + 2: _blank_before(data, at)))
    out.append(Case("framing-trailing-data", "a complete game, then bytes after the last \\n (a "
                    "line cut short): incomplete, naming the line", lines, envs[-1].step + 1, None,
                    f"line {len(lines) + 2} does not end with",
                    framing=lambda data: data + b'{"v":7,'))

    i = _first(envs, lambda e: e.kind == "coin.open")
    body = {**envs[i].body, "purpose": envs[i].body["purpose"] + "-other"}
    bad = list(lines)
    bad[i] = _resign(ids, envs[i], body=body)
    out.append(Case("coin-purpose", "a coin opening with its value and salt but another purpose "
                    "than its commitment's, properly signed: blamed on its signer",
                    _cut(bad, envs[i].step), envs[i].step, envs[i].seat, "another draw"))

    k = _first(envs, lambda e: e.kind == "move" and e.step > 20)
    at = envs[k]
    stop = AbortBody.quoting(None, "stopped", at.step, []).model_dump()
    base = {"v": at.v, "table": at.table, "step": at.step, "seat": 1, "prev": at.prev,
            "kind": "abort", "body": stop}
    for name, change, words, text in (
            ("abort-version", {"v": 6}, "protocol version 6",
             "an abort record signed as protocol 6 (a v6 record convicted its signer; now it "
             "convicts nobody and makes the file inconsistent)"),
            ("abort-body-key", {"body": {**stop, "note": "x"}}, "a malformed abort record",
             "an abort record whose body has an extra key"),
            ("abort-blame-range", {"body": {**stop, "blame": 2}}, "of a 2-seat table",
             "an abort record blaming seat 2 of a 2-seat table"),
            ("abort-step", {"body": {**stop, "step": at.step - 5}}, "the step of its envelope",
             "an abort record without evidence whose body names another step than its own")):
        record = _signed_raw(ids, {**base, **change})
        out.append(Case(name, f"{text}, correctly signed by seat 1, in the middle of the log: "
                        "malformed (PROTOCOL §9.1), refused naming the line, no seat convicted",
                        _cut(lines[:k] + [record] + lines[k:], at.step), at.step, None, words))
    return out


def _blank_before(data: bytes, number: int) -> bytes:
    """`data` with an empty line inserted so that it is line `number`."""
    parts = data.split(b"\n")
    parts.insert(number - 1, b"")
    return b"\n".join(parts)


def strict_cases(lines: list[bytes], envs: list[Envelope], ids: list[Identity]) -> list[Case]:
    """Protocol 6 strictness (PROTOCOL §6.1, §6.3, §9): what no honest seat or writer produces."""
    out: list[Case] = []
    last = envs[-1]
    garbage = _flip_sig(_abort(ids, last, 1, None, "stopped", []))
    out.append(Case("abort-bad-signature", "a complete game, then an abort line whose signature "
                    "is wrong: no seat signed it, so the file is refused (incomplete: a last line "
                    "not correctly signed), naming nobody", lines + [garbage], last.step + 1, None,
                    "not correctly signed"))

    i = _first(envs, lambda e: e.kind == "move" and e.step > 20
               and len([f for f in envs if f.step == e.step]) == 1)
    out.append(Case("duplicated-line", "a one-message move step logged twice verbatim: an honest "
                    "writer logs each line once", _cut(lines[:i + 1] + lines[i:], envs[i].step),
                    envs[i].step + 1, None, "repeats line"))

    k = _first(envs, lambda e: e.kind == "move" and e.seat == 1 and e.step > 20)
    stop = _abort(ids, envs[k], 1, None, "stopped", [])
    nxt = _first(envs, lambda e: e.seat == 1 and e.step > envs[k].step, k)
    out.append(Case("abort-then-moves", "seat 1 signs an abort record at a step, then its "
                    "messages of later steps follow in the file: refused, naming nobody",
                    _cut(lines[:k] + [stop] + lines[k:], envs[nxt].step), envs[nxt].step, None,
                    "signed an abort record"))

    k = _first(envs, lambda e: e.kind == "mental.key" and e.seat == 1)
    out.append(Case("top-bit-key", "seat 1 publishes its epoch key with bit 255 set and a Schnorr "
                    "proof hashed over those bytes (a lax decoder reads the same element and "
                    "accepts it): a non-canonical encoding, blamed on its signer",
                    _cut(lines[:k] + [_top_bit_key(ids, envs[k])] + lines[k + 1:], envs[k].step),
                    envs[k].step, 1, "canonical"))

    k = _first(envs, lambda e: e.kind == "move" and e.seat == 0)
    null = _resign(ids, envs[k], body={**envs[k].body, "secret": None})
    out.append(Case("secret-null", "a move body with \"secret\": null (absent is the only form), "
                    "properly signed: malformed, blamed on its signer",
                    _cut(lines[:k] + [null] + lines[k + 1:], envs[k].step), envs[k].step, 0,
                    "malformed move body"))

    k = _first(envs, lambda e: e.kind == "mental.shuffle" and e.seat == 1)
    wrong = _resign(ids, envs[k], body={**envs[k].body, "inputs": [0]})
    out.append(Case("shuffle-wrong-inputs", "seat 1's first shuffle names handle 0 as its input "
                    "(the open deck has no handles), properly signed: blamed on its signer",
                    _cut(lines[:k] + [wrong] + lines[k + 1:], envs[k].step), envs[k].step, 1,
                    "shuffle names inputs"))
    return out


def _top_bit_key(ids: list[Identity], env: Envelope) -> bytes:
    """`env` (a mental.key of seat 1) with its key's bit 255 set and a proof made for those
    bytes with the seat's real epoch secret (derived from its seed, PROTOCOL §11)."""
    body = dict(env.body)
    table_id = canonical.unb64(env.table)
    src = EpochKeySource(seeds()[env.seat], table_id)
    src.arm(body["deck"], body["epoch"])
    x = random_scalar(src)
    key = canonical.unb64(body["key"])
    assert base_mul(x).encode() == key
    top = key[:31] + bytes([key[31] | 0x80])
    ctx = binding.key_context(table_id, body["deck"], body["epoch"], env.seat)
    k = Scalar(987654321)
    c = hash_to_scalar("p2ptarot/schnorr", ctx, G.encode(), top, base_mul(k).encode())
    body["key"] = canonical.b64(top)
    body["proof"] = canonical.b64(c.encode() + (k + c * x).encode())
    return _resign(ids, env, body=body)


def blind_cases(lines: list[bytes], ids: list[Identity]) -> list[Case]:
    """Faults of the blind (SIMULTANEOUS) rounds, on the paris divins reference game."""
    envs = _envs(lines)
    i = _first(envs, lambda e: e.kind == "move.open" and e.seat == 1)
    move = dict(envs[i].body["move"])
    move["bet"] = next(b for b in ("minor", "major", "divine") if b != move["bet"])
    bad = list(lines)
    bad[i] = _resign(ids, envs[i], body={**envs[i].body, "move": move})
    k = _first(envs, lambda e: e.kind == "move.commit" and e.seat == 0)
    sealed = canonical.unb64(envs[k].body["sealed"])
    grown = _resign(ids, envs[k], body={**envs[k].body,
                                        "sealed": canonical.b64(sealed + bytes(48))})
    return [Case("blind-open-mismatch", "in a blind round, seat 1 opens another wager than the one "
                 "it committed to (properly signed): convicted at the open step",
                 _cut(bad, envs[i].step), envs[i].step, 1, "does not match the commitment"),
            Case("sealed-size", f"seat 0's blind commitment seals {len(sealed) + 48} bytes (honest "
                 f"sizes are 2^k + 16, here {len(sealed)}), properly signed: malformed",
                 _cut(lines[:k] + [grown] + lines[k + 1:], envs[k].step), envs[k].step, 0,
                 "malformed")]


def secret_cases(lines: list[bytes], ids: list[Identity]) -> list[Case]:
    """An engine secret opened with another value than the one committed (eleusis game)."""
    envs = _envs(lines)
    i = _first(envs, lambda e: e.kind == "move" and e.body["move"].get("kind") == "open")
    move = {**envs[i].body["move"], "value": envs[i].body["move"]["value"] + " "}
    bad = _resign(ids, envs[i], body={**envs[i].body, "move": move})
    return [Case("secret-open-mismatch", "the Eleusis dealer opens its secret rule with one more "
                 "character than it committed to (properly signed): convicted at the open",
                 _cut(lines[:i] + [bad] + lines[i + 1:], envs[i].step), envs[i].step,
                 envs[i].seat, "does not match")]


#: the audit reference game: arcanoïd, 3 seats, one round; every seat plays the High Priestess
#: on another seat (a show: a proven re-encryption on the wire) and calls a card whenever it can,
#: so seats that do not hold the called card pass ("not held": a claim on their hidden hands)
AUDIT_GAME, AUDIT_SEATS, AUDIT_OPTIONS = "arcanoid", 3, {"rounds": 1, "first_seat": 0}


def _caller(session: Session, legal: list) -> Any:
    from p2ptarot.games.arcanoid.moves import Call, Priestess

    looks = [m for m in legal if isinstance(m, Priestess) and m.target >= 0]
    return looks[0] if looks else next((m for m in legal if isinstance(m, Call)), None)


def audit_game() -> tuple[Any, list[bytes], list[Identity]]:
    """A game whose final audit opens cards (PROTOCOL §6 step 7): the claims of the passes that
    stay pending to the end cover hand cards no rule opens, so the audit publishes, with their
    DLEQ proofs, the shares of exactly those cards (and no key)."""
    return play(AUDIT_GAME, b"/audit", seats=AUDIT_SEATS, options=dict(AUDIT_OPTIONS),
                scripts={k: _caller for k in range(AUDIT_SEATS)})


def reshuffle_game() -> tuple[Any, list[bytes], list[Identity]]:
    """A game with a reshuffle, every move scripted by hand (no bot): the seats of a 3-seat
    arcanoïd round vote yes to the first renewal of the draw pile (arcanoïd §2.7) and no to any
    later one (so the round ends), and otherwise play the first legal move in the engine's own
    order — no choice is random."""
    votes: dict[int, int] = {}

    def by_hand(session: Session, legal: list) -> Any:
        ballots = [m for m in legal if type(m).__name__ == "Vote"]
        if ballots:
            votes[session.seat] = votes.get(session.seat, 0) + 1
            choice = "yes" if votes[session.seat] == 1 else "no"
            return next(m for m in ballots if m.choice == choice)
        return legal[0]

    return play("arcanoid", b"/reshuffle/scripted", seats=3,
                options={"first_seat": 0, "rounds": 1}, scripts={k: by_hand for k in range(3)})


def audit_steps(lines: list[bytes]) -> list[Envelope]:
    """The `mental.shares` messages sent after the last move: the final audit's."""
    envs = _envs(lines)
    last_move = max(e.step for e in envs if e.kind.startswith("move"))
    return [e for e in envs if e.kind == "mental.shares" and e.step > last_move]


def audit_cases(lines: list[bytes], ids: list[Identity]) -> list[Case]:
    """A share of the final audit with a wrong proof, re-signed by its seat."""
    envs = _envs(lines)
    target = next(e for e in audit_steps(lines) if len(e.body["items"]) >= 2)
    i = envs.index(target)
    body = json.loads(json.dumps(target.body))
    body["items"][0]["proof"], body["items"][1]["proof"] = (body["items"][1]["proof"],
                                                            body["items"][0]["proof"])
    bad = list(lines)
    bad[i] = _resign(ids, target, body=body)
    out = [Case("audit-share-wrong-proof", "in the final audit (which opens only the cards the "
                "pending claims cover, by decryption shares), two share proofs of one seat "
                "exchanged and re-signed: blamed on that seat", _cut(bad, target.step), target.step,
                target.seat, "rejected")]

    # protocol 7 (§6.7): the audit's listed handles and a show's transfers are named on the wire
    dropped = json.loads(json.dumps(target.body))
    dropped["items"] = dropped["items"][1:]
    bad = list(lines)
    bad[i] = _resign(ids, target, body=dropped)
    out.append(Case("audit-card-left-out", "in the final audit, a seat lists every audited handle "
                    "but leaves out its share of the first one it owes (the card stays hidden), "
                    "properly signed: blamed on that seat — by a verifier without the rules too, "
                    "since the audit names its handles", _cut(bad, target.step), target.step,
                    target.seat, "shares for"))

    steps = audit_steps(lines)
    liar = next(e for e in steps if len(e.body["items"]) >= 2
                and any(f.step == e.step and f.seat < e.seat for f in steps))
    k = envs.index(liar)
    body = json.loads(json.dumps(liar.body))
    hidden = body["items"][0]["handle"]
    body["targets"] = [t for t in body["targets"] if t[0] != hidden]
    body["items"] = body["items"][1:]
    bad = list(lines)
    bad[k] = _resign(ids, liar, body=body)
    out.append(Case("audit-targets", "in the final audit, a seat lists the audit without one of "
                    "its handles and leaves out its share of it (its items match its own list), "
                    "properly signed: blamed on that seat (without the rules, a verifier sees "
                    "only that two seats of the step name different lists, §6.7)",
                    _cut(bad, liar.step), liar.step, liar.seat, "audit's targets differ"))

    r = _first(envs, lambda e: e.kind == "mental.reencrypt")
    body = json.loads(json.dumps(envs[r].body))
    body["targets"][0][2] = body["targets"][0][1]
    bad = list(lines)
    bad[r] = _resign(ids, envs[r], body=body)
    out.append(Case("reencrypt-targets", "a High Priestess show whose re-encryption names its "
                    "holder as the recipient, properly signed: its targets are not the "
                    "operation's, blamed on the holder", _cut(bad, envs[r].step), envs[r].step,
                    envs[r].seat, "re-encryption's targets differ"))
    return out


def _deny(session: Session, legal: list) -> Any:
    """Pass in every opener search (sinople §5.3): a denial of the searched card."""
    return next((m for m in legal if type(m).__name__ == "Pass"), None)


def search_denied_game() -> tuple[Any, list[bytes], list[Identity]]:
    """Sinople, 2 seats, both cheating: each seat's engine is never told its own numeric cards
    (as a liar's would not be), so both pass at every value of the opener search. It runs out
    (ruling S2): nobody is blamed yet, the game stops, and the audit opens every hand card the
    `not-holding` claims cover — cards under pending claims — and convicts the first seat they
    prove to have denied a card it held, at the step of its signed pass."""
    def prepare(sessions: list[Session]) -> None:
        for session in sessions:
            def sync(session: Session = session, base: Any = session._sync_known) -> None:
                learn = session.game.learn
                session.game.learn = (  # type: ignore[method-assign]
                    lambda h, c: None if c.startswith("num-") else learn(h, c))
                try:
                    base()
                finally:
                    del session.game.learn
            session._sync_known = sync  # type: ignore[method-assign]

    return play(GAME, b"/search-denied", scripts={k: _deny for k in range(SEATS)},
                prepare=prepare, aborts=True)


#: the Eleusis void-round reference game: 4 seats, 2 rounds, seat 0 deals first and lies
VOID_DEALER, VOID_RULE = 0, "accept true"


def void_round_game() -> tuple[Any, list[bytes], list[Identity]]:
    """Eleusis R35/T9 (rules §7.7): the first dealer's peer, blind to its own rule until it opens
    it (as a cheater's would be), commits `accept true` and judges a play "wrong". When the rule
    opens, every peer finds the lie: the round is void (nobody scores, the dealer has dealt), the
    fault is recorded against the dealer at the step of his signed judgment, and the next dealer
    deals the second round; the game ends valid, with the finding."""
    from dataclasses import replace

    from p2ptarot.engine import Commit, Open
    from p2ptarot.games.eleusis.moves import Judge

    lied: list[bool] = []

    def script(session: Session, legal: list) -> Any:
        first = legal[0] if legal else None
        if isinstance(first, Commit) and first.name == "rule-1":
            return Commit(first.name, VOID_RULE)
        if isinstance(first, Judge) and not lied:
            lied.append(True)
            return Judge("wrong")
        return None

    def prepare(sessions: list[Session]) -> None:
        cheater = sessions[VOID_DEALER].game
        record_commit, legal = cheater._record_commit, cheater.legal_moves

        def commits(seat: int, move: Commit) -> None:  # blind to rule 1 until it opens
            record_commit(seat, replace(move, value="") if move.name == "rule-1" else move)

        def legal_moves(seat: int) -> list:
            if cheater.phase_name() == "open" and cheater.round == 0:
                return [Open("rule-1", VOID_RULE)]
            return legal(seat)

        cheater._record_commit = commits  # type: ignore[method-assign]
        cheater.legal_moves = legal_moves  # type: ignore[method-assign]

    out = play(SECRET_GAME, b"/void", seats=4, options={"rounds": 2, "first_dealer": VOID_DEALER},
               scripts={VOID_DEALER: script}, prepare=prepare)
    if not lied:
        raise SystemExit("the void-round reference dealer never judged")
    return out


def _abort(ids: list[Identity], at: Envelope, by: int, blame: int, reason: str,
           evidence: list[Envelope]) -> bytes:
    """Seat `by`'s signed abort record, made at `at`'s step and chain position."""
    body = AbortBody.quoting(blame, reason, at.step, evidence).model_dump()  # evidence: base64url
    return seal(ids[by], canonical.unb64(at.table), at.step, by, canonical.unb64(at.prev), "abort",
                body).encoded()


def _illegal_move(lines: list[bytes], envs: list[Envelope], ids: list[Identity]) -> Case:
    """Seat 0 plays, properly signed, a card the next move of seat 1 shows seat 1 holds."""
    i = _first(envs, lambda e: e.kind == "move" and e.seat == 0 and e.body["move"]["kind"] == "play")
    k = _first(envs, lambda e: e.kind == "move" and e.seat == 1 and e.body["move"]["kind"] == "play",
               i)
    bad = list(lines)
    bad[i] = _resign(ids, envs[i], body=envs[k].body)
    return Case("illegal-move", "seat 0 plays a card that seat 1 holds (properly signed)",
                _cut(bad, envs[i].step, extra_steps=4), envs[i].step, 0, "does not hold")


#: the invalid vectors whose faulty line breaks a JSON Schema (every other line of every vector
#: validates): a malformed body is visible to the schemas, a bad proof or a wrong claim is not
MALFORMED = frozenset({"move-by-garbage", "equivocation", "secret-null", "sealed-size",
                       "abort-body-key"})


def schema_invalid_lines(lines: list[bytes]) -> list[int]:
    """1-based numbers of the lines that fail protocol/schemas/ (line 1: the header)."""
    import jsonschema  # a test dependency: `pip install -e '.[test]'`

    schemas = {p.stem: json.loads(p.read_text(encoding="utf-8"))
               for p in (ROOT / "protocol" / "schemas").glob("*.json")}
    validators = {k: jsonschema.Draft202012Validator(v) for k, v in schemas.items()}
    bad = []
    for number, line in enumerate(lines, start=1):
        record = json.loads(line)
        if number == 1:
            ok = validators["transcript-header"].is_valid(record)
        else:
            ok = validators["envelope"].is_valid(record) and \
                validators[f"body.{record['kind']}"].is_valid(record["body"])
        if not ok:
            bad.append(number)
    return bad


def canonical_vectors() -> dict[str, Any]:
    valid = [b'{}', b'[]', b'0', b'-7', b'"\xc3\xa9t\xc3\xa9"', b'{"a":1,"b":[true,false,null]}',
             b'{"A":1,"a":2}', b'"\\n\\"\\\\"', b'{"k":{"z":"","\xc3\xa9":9007199254740993}}']
    invalid = [
        (b'1.0', "float"), (b'1e3', "exponent (a float)"), (b'{"a": 1}', "whitespace"),
        (b'{"b":1,"a":2}', "key order"), (b'{"a":1,"a":1}', "duplicate key"),
        (b'NaN', "NaN"), (b'"\\u00e9"', "escaped non-ASCII"), (b'01', "leading zero"),
        (b'\xff', "not UTF-8"), (b' {}', "leading whitespace"), (b'{}\n', "trailing newline"),
        (b'"\\/"', "escaped slash"), (b'-0', "negative zero"), (b'', "empty"),
    ]
    for data, why in invalid:
        try:
            canonical.decode(data)
        except canonical.CanonicalError:
            continue
        raise SystemExit(f"canonical vector {why!r} was accepted by the reference")
    for data in valid:
        if canonical.encode(canonical.decode(data)) != data:
            raise SystemExit(f"canonical vector {data!r} does not round-trip")
    return {"description": "hex-encoded byte strings; 'valid' decode and re-encode to themselves, "
                           "'invalid' must be refused",
            "valid": [d.hex() for d in valid],
            "invalid": [{"hex": d.hex(), "why": why} for d, why in invalid]}


def main(out: Path = OUT, check: bool = True) -> int:
    """Write every vector into `out` (its transcript vectors are replaced; online.json, made by
    make_online_vectors.py, is left alone). `check=False` skips replaying each invalid vector
    against its hand-written verdict: only for a run whose output is compared byte for byte with
    files that tests/protocol/test_vectors.py checks that way (the valid games are replayed
    always: their verdicts are written into the index)."""
    signed, lines, ids = play()
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.jsonl"):
        old.unlink()
    head = header_line(signed)
    verdict = verify_transcript(Transcript(signed, lines))
    if not verdict.valid:
        raise SystemExit(f"reference game does not verify: {verdict.reason}")
    (out / "valid.jsonl").write_bytes(b"\n".join([head, *lines]) + b"\n")
    index: list[dict[str, Any]] = [{"file": "valid.jsonl", "description": "a complete 2-seat game",
                                    "expect": {"valid": True, "steps": verdict.steps,
                                               "outcome": verdict.outcome}}]
    blind_signed, blind_lines, _ = play(BLIND_GAME, b"/blind")
    blind_head = header_line(blind_signed)
    blind_verdict = verify_transcript(Transcript(blind_signed, blind_lines))
    if not blind_verdict.valid:
        raise SystemExit(f"blind reference game does not verify: {blind_verdict.reason}")
    (out / "valid-blind.jsonl").write_bytes(b"\n".join([blind_head, *blind_lines]) + b"\n")
    index.append({"file": "valid-blind.jsonl", "description": "a complete 2-seat paris divins game: "
                  "every wager a blind round (move.commit, then move.open)",
                  "expect": {"valid": True, "steps": blind_verdict.steps,
                             "outcome": blind_verdict.outcome}})
    for fname, game, kind in (("valid-stand-in.jsonl", GAME, "move"),
                              ("valid-stand-in-blind.jsonl", BLIND_GAME, "move.open")):
        stand_signed, stand_lines, _ = play(game, b"/stand-in/" + game.encode(), stand_in=True)
        stand_verdict = verify_transcript(Transcript(stand_signed, stand_lines))
        marked = [parse(x) for x in stand_lines if b'"by":"bot"' in x]
        if not stand_verdict.valid or len(marked) != len(STAND_IN_MOVES) \
                or any(e.kind != kind for e in marked):
            raise SystemExit(f"the stand-in reference game of {game} does not verify or does "
                             f"not mark {len(STAND_IN_MOVES)} {kind} messages")
        (out / fname).write_bytes(b"\n".join([header_line(stand_signed), *stand_lines]) + b"\n")
        index.append({"file": fname, "description": f"a complete 2-seat {game} game whose charter "
                      f"sets stand_in_after 60; seat 1's moves 2 to 5 ({kind} messages) carry "
                      "\"by\": \"bot\" (its stand-in bot chose them), its later ones do not",
                      "expect": {"valid": True, "steps": stand_verdict.steps,
                                 "outcome": stand_verdict.outcome}})
    secret_signed, secret_lines, secret_ids = play(SECRET_GAME, b"/secret", seats=4,
                                                   options={"rounds": 1})
    secret_head = header_line(secret_signed)
    secret_verdict = verify_transcript(Transcript(secret_signed, secret_lines))
    moves = [parse(x).body["move"].get("kind") for x in secret_lines if parse(x).kind == "move"]
    if not secret_verdict.valid or "commit" not in moves or "open" not in moves:
        raise SystemExit(f"the engine-secret reference game does not verify or has no commit "
                         f"and open: {secret_verdict.reason}")
    (out / "valid-secret.jsonl").write_bytes(b"\n".join([secret_head, *secret_lines]) + b"\n")
    index.append({"file": "valid-secret.jsonl", "description": "a complete 4-seat Eleusis game of "
                  "one round (options rounds 1): the dealer commits its secret rule (a `commit` "
                  "move with \"secret\": {digest, sealed}) and opens it at the end of the round "
                  "(an `open` move with \"secret\": {salt}), PROTOCOL §7.2",
                  "expect": {"valid": True, "steps": secret_verdict.steps,
                             "outcome": secret_verdict.outcome}})
    void_signed, void_lines, _ = void_round_game()
    void_head = header_line(void_signed)
    void_verdict = verify_transcript(Transcript(void_signed, void_lines))
    rounds = (void_verdict.outcome or {}).get("detail", {}).get("rounds", [])
    if (not void_verdict.valid or len(void_verdict.findings) != 1
            or void_verdict.findings[0]["seat"] != VOID_DEALER or len(rounds) != 2
            or rounds[0]["void"] is None or rounds[0]["scores"] or rounds[1]["void"] is not None):
        raise SystemExit(f"the void-round reference game is not one valid game with a void first "
                         f"round and one finding: {void_verdict.to_json()}")
    (out / "valid-void-round.jsonl").write_bytes(b"\n".join([void_head, *void_lines]) + b"\n")
    index.append({"file": "valid-void-round.jsonl", "description": "a complete 4-seat Eleusis game "
                  "of two rounds (Eleusis R35/T9, rules §7.7): seat 0, the first dealer, judges a "
                  "play \"wrong\" against the rule it committed to (`accept true`); when the rule "
                  "opens, the round is void (nobody scores, seat 0 has dealt), the fault is a "
                  "finding against seat 0 at the step of its signed judgment, and seat 1 deals the "
                  "second round: the transcript is valid and carries the finding",
                  "expect": {"valid": True, "steps": void_verdict.steps,
                             "outcome": void_verdict.outcome,
                             "findings": void_verdict.findings}})
    audit_signed, audit_lines, audit_ids = audit_game()
    audit_head = header_line(audit_signed)
    audit_verdict = verify_transcript(Transcript(audit_signed, audit_lines))
    opened = sum(len(e.body["items"]) for e in audit_steps(audit_lines))
    shown = [x for x in audit_lines if parse(x).kind == "mental.reencrypt"]
    if not audit_verdict.valid or not opened or not shown:
        raise SystemExit(f"the audit reference game does not verify or its audit opens nothing: "
                         f"{audit_verdict.reason}")
    (out / "valid-audit.jsonl").write_bytes(b"\n".join([audit_head, *audit_lines]) + b"\n")
    index.append({"file": "valid-audit.jsonl", "description": "a complete 3-seat arcanoïd game of "
                  "one round in which every seat plays the High Priestess on another seat (a "
                  "show: a proven re-encryption, `mental.reencrypt`) and calls a card whenever it "
                  "can: the passes are "
                  "claims on hidden hands that stay pending, so the final audit (PROTOCOL §6 step "
                  f"7) publishes {opened} decryption shares with their DLEQ proofs, opening exactly "
                  "the hand cards those claims cover; no key is published",
                  "expect": {"valid": True, "steps": audit_verdict.steps,
                             "outcome": audit_verdict.outcome}})
    re_signed, re_lines, _ = reshuffle_game()
    re_verdict = verify_transcript(Transcript(re_signed, re_lines))
    reshuffles = [parse(x) for x in re_lines
                  if parse(x).kind == "mental.shuffle" and parse(x).body["inputs"]]
    if not re_verdict.valid or not reshuffles:
        raise SystemExit(f"the reshuffle reference game does not verify or never reshuffles: "
                         f"{re_verdict.reason}")
    (out / "valid-reshuffle.jsonl").write_bytes(b"\n".join([header_line(re_signed), *re_lines])
                                                + b"\n")
    index.append({"file": "valid-reshuffle.jsonl", "description": "a complete 3-seat arcanoïd game "
                  "of one round played entirely by a script, no bot (every seat votes yes to the "
                  "first renewal of the draw pile and no to later ones, and otherwise plays the "
                  "first legal move the engine lists): the pile is renewed from the discards by a reshuffle (PROTOCOL §6.3 "
                  f"step 6): {len(reshuffles)} `mental.shuffle` messages naming the "
                  f"{len(reshuffles[0].body['inputs'])} retired deck handles as `inputs` and the "
                  "next unused ones as `outputs`, each proven against the current versions of "
                  "its inputs",
                  "expect": {"valid": True, "steps": re_verdict.steps,
                             "outcome": re_verdict.outcome}})
    denied_signed, denied_lines, _ = search_denied_game()
    denied_audit = [e for e in map(parse, denied_lines) if e.kind == "mental.shares"
                    and e.body["audit"]]
    if not denied_audit:
        raise SystemExit("the search-denied reference game has no audit")
    todo = [(signed, head, c) for c in cases(lines, ids)]
    todo.append((denied_signed, header_line(denied_signed), Case(
        "search-denied-audit", "a 2-seat sinople game whose two seats, each blind to its own "
        "numeric cards (as liars), pass at every value of the opener search: the search runs out "
        "(ruling S2), nobody is blamed yet, and the final audit opens, by decryption shares, the "
        f"{len(denied_audit[0].body['targets'])} hand cards the pending not-holding claims cover "
        "(listed as its targets, PROTOCOL §6.7); they prove seat 1's pass false, and seat 1 is "
        "convicted at the step of that signed pass (the whole log, the audit and seat 0's abort "
        "record included)", denied_lines, 11, 1, "false not-holding claim")))
    todo += [(audit_signed, audit_head, c) for c in audit_cases(audit_lines, audit_ids)]
    todo += [(blind_signed, blind_head, c) for c in blind_cases(blind_lines, ids)]
    todo += [(secret_signed, secret_head, c) for c in secret_cases(secret_lines, secret_ids)]
    record_lines: dict[str, list[bytes]] = {}
    for signed_, head_, case in todo:
        data = b"\n".join([head_, *case.lines]) + b"\n"
        if case.framing is not None:
            data = case.framing(data)
        v = verify_transcript(parse_transcript(data))
        if check and (v.valid or v.step != case.step or v.seat != case.seat
                      or case.reason not in (v.reason or "")):
            raise SystemExit(f"{case.name}: reference verdict {v.to_json()} differs from "
                             f"step={case.step} seat={case.seat} reason~{case.reason!r}")
        fname = f"invalid-{case.name}.jsonl"
        (out / fname).write_bytes(data)
        record_lines[fname] = [head_, *case.lines]
        index.append({"file": fname, "description": case.description,
                      "expect": {"valid": False, "step": case.step, "seat": case.seat,
                                 "reason_contains": case.reason, "verdict": v.kind}})
    for entry in index:
        if entry["expect"]["valid"]:
            entry["expect"]["verdict"] = "valid"
        bad = schema_invalid_lines(record_lines.get(entry["file"])
                                   or (out / entry["file"]).read_bytes().splitlines())
        name = entry["file"].removeprefix("invalid-").removesuffix(".jsonl")
        if len(bad) != (1 if name in MALFORMED else 0):
            raise SystemExit(f"{entry['file']}: lines {bad} fail the JSON Schemas")
        entry["schema_invalid_lines"] = bad
    (out / "transcripts.json").write_text(json.dumps(index, indent=2, sort_keys=True) + "\n")
    (out / "canonical.json").write_text(json.dumps(canonical_vectors(), indent=2) + "\n")
    (out / "crypto.json").write_text(json.dumps(crypto_vector.build(), indent=1) + "\n")
    print(f"wrote {len(index)} transcript vectors and the canonical-JSON vectors to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
