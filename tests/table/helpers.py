"""Forging helpers for the table tests (they hold every identity, like a cheating seat would)."""

from __future__ import annotations

import json
from typing import Any

from p2ptarot.crypto.signing import Identity
from p2ptarot.table import canonical
from p2ptarot.table.envelope import Envelope, parse, seal


def resign(identity: Identity, env: Envelope, **changes: Any) -> bytes:
    """`env` with `changes`, properly signed by `identity`."""
    d = env.unsigned()
    d.update(changes)
    return seal(identity, canonical.unb64(d["table"]), d["step"], d["seat"],
                canonical.unb64(d["prev"]), d["kind"], d["body"]).encoded()


def unsigned_edit(line: bytes, body: dict[str, Any]) -> bytes:
    """The same envelope with another body and the old signature (a third party's tampering)."""
    env = parse(line)
    return canonical.encode({**env.model_dump(mode="json"), "body": body})


def deep(body: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(body))


def cut(lines: list[bytes], step: int, extra: int = 2) -> list[bytes]:
    """The verifier stops at the first fault: keep only a few steps past it (speed)."""
    return [x for x in lines if parse(x).step <= step + extra]


def verify(table, lines: list[bytes]):
    """Verdict of the offline verifier on `lines` under `table`'s charter."""
    from p2ptarot.transcript import Transcript, verify_transcript

    return verify_transcript(Transcript(table.signed, lines))
