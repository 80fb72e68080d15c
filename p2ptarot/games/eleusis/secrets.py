"""Stand-in for the engine contract v2's `Commit` / `Open` moves until they land in engine/.

Same kinds and fields as ENGINE-V2-PLAN §2: the owner's peer sends `Commit(name, value)`, every
other peer applies it with `value == ""`; `Open(name, value)` is checked by the table against the
commitment before the engine learns the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from p2ptarot.engine.types import Move


@dataclass(frozen=True, slots=True)
class Commit(Move):
    KIND: ClassVar[str] = "commit"
    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Open(Move):
    KIND: ClassVar[str] = "open"
    name: str
    value: str
