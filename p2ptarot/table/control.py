"""The control frames peers send beside envelopes, typed (PROTOCOL §8, §10, §10.1).

A control frame is a JSON object with a ``"ctl"`` key naming its kind; everything else on a link
is an envelope for the session.  Each kind is a pydantic model here (its JSON Schema is
checked in as ``protocol/schemas/control.<kind>.json``); ``parse_control`` turns the object a link
already parsed into one of them, once, at the edge, and the peer dispatches on its type.

Every field is untrusted input from the link's peer: a frame with a field of the wrong type or
size is dropped (``parse_control`` returns None), except ``join``, ``sign`` and ``done``, whose
faulty fields fall back to their defaults (an older joiner sends no ``ready``; a malformed
signature is reported as invalid; a malformed ``seats`` list counts for the sender alone).  Unknown keys are ignored (room for later versions); the
``digest`` frame, whose bodies a peer answers with, is stricter (``digest.py``).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from . import canonical
from .charter import B64
from .digest import (HAVE_DIGEST, HAVE_SEATS, MAX_DIGEST_STEPS, DigestFrame, HaveEntry,
                     have_entry_ok, parse_frame)

#: the most seats a roster frame may describe (no game has more; a bigger list is refused)
MAX_ROSTER = 64
MAX_STEP = 10_000_000

_Step = Annotated[int, Field(ge=0, le=MAX_STEP)]


def _ctl_required(schema: dict[str, Any]) -> None:
    """On the wire ``ctl`` is what names a frame: required (its default only spares senders)."""
    schema["required"] = ["ctl", *[k for k in schema.get("required", []) if k != "ctl"]]


class _Frame(BaseModel):
    model_config = ConfigDict(frozen=True, strict=True, extra="ignore",
                              json_schema_extra=_ctl_required)
    #: a field that fails falls back to its default instead of dropping the frame
    LENIENT: ClassVar[bool] = False

    def wire(self) -> bytes:
        """The frame's bytes on the link (canonical JSON; absent optional fields left out)."""
        return canonical.encode(self.model_dump(mode="json", exclude_none=True))


class JoinFrame(_Frame):
    """joiner → host: take a seat (``ready`` absent: ready; ``bot``: a bot seat, always ready)."""

    LENIENT: ClassVar[bool] = True
    ctl: Literal["join"] = "join"
    name: str = ""
    address: str = ""
    ready: bool = True
    bot: bool = False

    def wire(self) -> bytes:
        frame: dict[str, Any] = {"ctl": "join", "name": self.name, "address": self.address}
        if not self.ready and not self.bot:
            frame["ready"] = False
        if self.bot:
            frame["bot"] = True
        return canonical.encode(frame)


class LobbyFrame(_Frame):
    """host → each seated joiner: the roster, in seat order, and the receiver's seat ``you``."""

    ctl: Literal["lobby"] = "lobby"
    game: str = ""
    variant: str = ""
    seats: int = Field(ge=1, le=MAX_ROSTER)
    names: list[str] = Field(min_length=1, max_length=MAX_ROSTER)
    ready: list[bool] = Field(max_length=MAX_ROSTER)
    bots: list[bool] = Field(default_factory=list, max_length=MAX_ROSTER)
    can_start: bool = False
    you: int = -1


class ReadyFrame(_Frame):
    """joiner → host: this player is (not) ready."""

    ctl: Literal["ready"] = "ready"
    ready: bool


class ChatFrame(_Frame):
    """A chat line: joiner → host and peer → peer ``text`` only; host → joiners with the
    sender's ``seat`` (the receiver names it from its roster, not from ``name``)."""

    ctl: Literal["chat"] = "chat"
    text: str
    seat: int | None = None
    name: str | None = None


class FullFrame(_Frame):
    """host → joiner: every seat is taken."""

    ctl: Literal["full"] = "full"


class LeftOutFrame(_Frame):
    """host → joiner: the table started without this (not ready) joiner."""

    ctl: Literal["left-out"] = "left-out"


class CharterFrame(_Frame):
    """host → seated joiners: the charter to sign (checked by ``Charter`` with a reason)."""

    ctl: Literal["charter"] = "charter"
    charter: dict[str, Any]


class SignFrame(_Frame):
    """joiner → host: its signature of the charter (checked against its key; a faulty one is
    an invalid signature, which the host reports, not a frame it ignores)."""

    LENIENT: ClassVar[bool] = True
    ctl: Literal["sign"] = "sign"
    sig: str = Field(default="", max_length=100)


class SignedFrame(_Frame):
    """host → every seat (and again to a seat that joins after): the signed charter."""

    ctl: Literal["signed"] = "signed"
    signed: dict[str, Any]


class SyncFrame(_Frame):
    """Catch-up: send the logged and pending envelopes from ``step`` on that the sender lacks.

    ``have`` (absent: nothing) names what the sender stores from ``step`` on, one entry per
    step: ``[step, seats, digests]``, ``seats`` a bit mask (bit s: seat s), ``digests`` the
    first 16 bytes of each of those seats' envelope digests, in seat order, concatenated
    (unpadded base64url, 16 bytes per seat of the mask). An answer leaves out each message whose
    digest the asker named (another version is sent: the asker then holds both, an
    equivocation)."""

    ctl: Literal["sync"] = "sync"
    step: _Step
    have: list[tuple[_Step, Annotated[int, Field(ge=1, lt=1 << HAVE_SEATS)],
                     Annotated[str, Field(pattern=B64, min_length=22,
                                          max_length=(HAVE_DIGEST * HAVE_SEATS * 4 + 2) // 3)]]
               ] | None = Field(default=None, max_length=MAX_DIGEST_STEPS)

    @field_validator("have", mode="before")
    @classmethod
    def _entries(cls, value: object) -> object:
        """JSON has no tuples: a list of three items is one entry (its types still checked
        strictly: a bool or a string is no integer)."""
        if isinstance(value, list):
            return [tuple(item) if isinstance(item, list) and len(item) == 3 else item
                    for item in value]
        return value

    @field_validator("have")
    @classmethod
    def _one_digest_per_seat(cls, value: list[HaveEntry] | None) -> list[HaveEntry] | None:
        if value is not None and not all(have_entry_ok(entry) for entry in value):
            raise ValueError("have: one 16-byte digest per seat of the mask")
        return value

    def wire(self) -> bytes:
        frame: dict[str, Any] = {"ctl": "sync", "step": self.step}
        if self.have:
            frame["have"] = [list(entry) for entry in self.have]
        return canonical.encode(frame)


class DoneFrame(_Frame):
    """A seat whose game is over: its step, and the seat indices it knows finished."""

    LENIENT: ClassVar[bool] = True
    ctl: Literal["done"] = "done"
    step: _Step = 0
    seats: list[int] = Field(default_factory=list, max_length=MAX_ROSTER)


ControlFrame = (JoinFrame | LobbyFrame | ReadyFrame | ChatFrame | FullFrame | LeftOutFrame
                | CharterFrame | SignFrame | SignedFrame | SyncFrame | DoneFrame | DigestFrame)

#: ctl -> model, for every kind but ``digest`` (parsed by ``digest.parse_frame``)
CONTROL_MODELS: dict[str, type[_Frame]] = {
    model.model_fields["ctl"].default: model
    for model in (JoinFrame, LobbyFrame, ReadyFrame, ChatFrame, FullFrame, LeftOutFrame,
                  CharterFrame, SignFrame, SignedFrame, SyncFrame, DoneFrame)}


def is_control(value: object) -> bool:
    """True when a link's JSON object is a control frame (else it is an envelope)."""
    return isinstance(value, dict) and isinstance(value.get("ctl"), str)


def parse_control(value: dict[str, Any]) -> ControlFrame | None:
    """The typed frame a control object holds, or None when it is malformed or unknown."""
    kind = value.get("ctl")
    if kind == "digest":
        return parse_frame(value)
    model = CONTROL_MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        return None
    try:
        return model.model_validate(value)  # type: ignore[return-value]  # the model registry is typed by the base class; every model is a ControlFrame
    except ValidationError as exc:
        if not model.LENIENT:
            return None
        faulty = {err["loc"][0] for err in exc.errors() if err["loc"]}
    if "ctl" in faulty:
        return None
    try:
        return model.model_validate(  # type: ignore[return-value]  # the model registry is typed by the base class; every model is a ControlFrame
            {k: v for k, v in value.items() if k not in faulty})
    except ValidationError:
        return None
