"""Mutations of real signed envelopes, for the fuzz test and `benchmarks/fuzz.py`.

Two families: *unsigned* mutations (bit flips, truncations, wrong types, huge integers, deep
nesting, lone surrogates, garbage) that a peer must drop without a trace, and *re-signed* ones (a
seated cheater changes a field or the body of one of its messages and signs the result with its
own key) that a peer must blame on that seat, never on another one and never with an exception.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Any

from p2ptarot.crypto.signing import Identity
from p2ptarot.table import canonical
from p2ptarot.table.envelope import parse, seal

KINDS = ("move", "move.commit", "move.open", "coin.commit", "coin.open", "result", "abort", "mental.key", "mental.shuffle",
         "mental.shares", "mental.reencrypt", "mental.reveal-key", "", "x" * 41)
_INT = re.compile(rb"(?<![A-Za-z0-9_\"-])-?\d+")
_STRING = re.compile(rb'"([^"\\]|\\.)*"')


def _odd_values(rng: random.Random) -> list[Any]:
    return [None, True, False, 0, -1, 2**63, -(2**64), 10**99, "", "x" * rng.randint(1, 300),
            "A" * 43, [], [0, [1, [2]]], {}, {"": None}, {"kind": "move"}, "\u202e\u0007"]


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, prefix + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value[:20]):
            out.extend(_paths(v, prefix + (i,)))
    return out


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replace(copy[head], rest, new)
    return copy


def _drop(value: Any, path: tuple) -> Any:
    if len(path) == 1:
        if isinstance(value, dict):
            return {k: v for k, v in value.items() if k != path[0]}
        return value[: path[0]] + value[path[0] + 1:]
    head = path[0]
    if isinstance(value, dict):
        return {**value, head: _drop(value[head], path[1:])}
    copy = list(value)
    copy[head] = _drop(copy[head], path[1:])
    return copy


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


class Mutator:
    """Random mutants of `lines` (canonical envelopes); `signers` maps the seats whose keys a
    cheater holds to their identities (re-signed mutants are only made for those seats)."""

    def __init__(self, rng: random.Random, lines: Sequence[bytes],
                 signers: dict[int, Identity]) -> None:
        self.rng = rng
        self.lines = list(lines)
        self.signers = signers
        self.unsigned_ops = [self.bitflip, self.truncate, self.wrong_type_unsigned, self.huge_int,
                             self.deep_text, self.surrogate, self.garbage, self.extend]
        self.resigned_ops = [self.resign_field, self.resign_body, self.resign_splice,
                             self.resign_deep, self.resign_abort]

    # ---- unsigned: must be dropped -----------------------------------------------------------
    def unsigned(self, line: bytes | None = None) -> tuple[str, bytes]:
        line = line if line is not None else self.rng.choice(self.lines)
        op = self.rng.choice(self.unsigned_ops)
        return op.__name__, op(line)

    def bitflip(self, line: bytes) -> bytes:
        data = bytearray(line)
        for _ in range(self.rng.randint(1, 3)):
            i = self.rng.randrange(len(data))
            data[i] ^= 1 << self.rng.randrange(8)
        return bytes(data)

    def truncate(self, line: bytes) -> bytes:
        return line[: self.rng.randrange(len(line))]

    def extend(self, line: bytes) -> bytes:
        return line + self.rng.choice([b" ", b"\n", b"{}", b"\x00", b"]", line])

    def wrong_type_unsigned(self, line: bytes) -> bytes:
        obj = json.loads(line)
        path = self.rng.choice(_paths(obj)[1:])
        obj = _replace(obj, path, self.rng.choice(_odd_values(self.rng)))
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

    def huge_int(self, line: bytes) -> bytes:
        digits = str(self.rng.choice([101, 4300, 4301, 5000, 20_000])).encode()
        found = list(_INT.finditer(line))
        big = b"9" * int(digits)
        if not found:
            return line[:-1] + b',"n":' + big + b"}"
        m = self.rng.choice(found)
        return line[: m.start()] + big + line[m.end():]

    def deep_text(self, line: bytes) -> bytes:
        depth = self.rng.choice([31, 32, 33, 40, 1000, 100_000])
        found = list(_INT.finditer(line)) or list(_STRING.finditer(line))
        m = self.rng.choice(found)
        return line[: m.start()] + b"[" * depth + b"0" + b"]" * depth + line[m.end():]

    def surrogate(self, line: bytes) -> bytes:
        found = list(_STRING.finditer(line))
        m = self.rng.choice(found)
        bad = self.rng.choice([b"\\ud800", b"\\udfff", b"\\ud83d", b"\xed\xa0\x80"])
        return line[: m.start() + 1] + bad + line[m.start() + 1:]

    def garbage(self, line: bytes) -> bytes:
        return self.rng.choice([
            self.rng.randbytes(self.rng.randint(0, 200)), b"null", b"[]", b"{}", b"1",
            b'{"ctl":"sync","step":0}', b'"' + b"\\u0000" * 10 + b'"', b"\xef\xbb\xbf{}",
        ])

    # ---- re-signed: a seated cheater's own messages ------------------------------------------
    def resigned(self) -> tuple[str, bytes] | None:
        """A mutant signed by one of `signers` (None when no line of theirs was found)."""
        own = [x for x in self.lines if parse(x).seat in self.signers]
        if not own:
            return None
        for _ in range(20):
            op = self.rng.choice(self.resigned_ops)
            try:
                return op.__name__, op(self.rng.choice(own))
            except canonical.CanonicalError:
                continue  # a mutant not even signable: draw another
        return None

    def _seal(self, unsigned: dict[str, Any]) -> bytes:
        seat = unsigned["seat"]
        ident = self.signers.get(seat) if isinstance(seat, int) else None
        if ident is None:
            seat = self.rng.choice(sorted(self.signers))
            ident = self.signers[seat]
        try:
            return seal(ident, canonical.unb64(unsigned["table"]), unsigned["step"], seat,
                        canonical.unb64(unsigned["prev"]), unsigned["kind"],
                        unsigned["body"]).encoded()
        except Exception:  # noqa: BLE001 - a mutant the envelope model itself refuses
            # sign the raw dict instead: the signature is valid, the fields are not
            data = {**unsigned, "seat": seat}
            sig = ident.sign(b"p2ptarot/envelope\x00" + canonical.encode(data))
            return canonical.encode({**data, "sig": canonical.b64(sig)})

    def resign_field(self, line: bytes) -> bytes:
        d = parse(line).unsigned()
        field = self.rng.choice(["step", "prev", "kind", "table", "v"])
        if field == "step":
            d["step"] = max(0, d["step"] + self.rng.choice([-2, -1, 1, 2, 63, 64, 65, 10_000]))
        elif field == "prev":
            d["prev"] = canonical.b64(self.rng.randbytes(32))
        elif field == "kind":
            d["kind"] = self.rng.choice(KINDS[:-2])
        elif field == "table":
            d["table"] = canonical.b64(self.rng.randbytes(32))
        else:
            d["v"] = self.rng.choice([2, 99])
        return self._seal(d)

    def resign_body(self, line: bytes) -> bytes:
        d = parse(line).unsigned()
        paths = _paths(d["body"])
        path = self.rng.choice(paths)
        roll = self.rng.random()
        if roll < 0.5 or not path:
            body = _replace(d["body"], path, self.rng.choice(_odd_values(self.rng)))
        elif roll < 0.8:
            body = _drop(d["body"], path)
        else:
            body = _replace(d["body"], path, parse(self.rng.choice(self.lines)).body)
        d["body"] = body if isinstance(body, dict) else {"body": body}
        return self._seal(d)

    def resign_splice(self, line: bytes) -> bytes:
        d = parse(line).unsigned()
        other = parse(self.rng.choice(self.lines))
        d["body"], d["kind"] = other.body, other.kind
        return self._seal(d)

    def resign_deep(self, line: bytes) -> bytes:
        d = parse(line).unsigned()
        d["body"] = {"x": nested(self.rng.choice([28, 29, 30]))}
        return self._seal(d)

    def resign_abort(self, line: bytes) -> bytes:
        d = parse(line).unsigned()
        d["kind"] = "abort"
        victim = self.rng.randrange(12)
        evidence = self.rng.choice([[], [canonical.b64(self.rng.choice(self.lines))],
                                    [json.loads(self.rng.choice(self.lines))], ["!"], [{}]])
        d["body"] = {"blame": victim, "reason": "forged", "step": d["step"], "evidence": evidence}
        return self._seal(d)
