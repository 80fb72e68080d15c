"""The TXT record of a table advert: encoding and strict, never-crashing decoding (pure).

Keys: ``v`` protocol version, ``game``, ``variant``, ``seats`` ("taken/total"), ``table`` (table
id hex, empty before the charter exists), ``fp`` (host fingerprint), ``name`` (the host player's
display name, optional: a hint for people choosing a table).  Unknown keys are ignored
so later versions can add fields; DNS-SD keys are case-insensitive, so they are lowercased.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from p2ptarot import PROTOCOL_VERSION
from p2ptarot.i18n.message import tr

MAX_SEATS = 12
_MAX_TEXT = 64
_DIGITS = re.compile(r"[0-9]{1,9}")
_SEATS = re.compile(r"([0-9]{1,3})/([0-9]{1,3})")
_HEX = re.compile(r"(?:[0-9a-f]{2}){0,64}")


class AdvertError(ValueError):
    """A TXT record that is not a valid table advert."""


@dataclass(frozen=True)
class TableInfo:
    """What a host says about its table on the LAN (a hint; the charter is authoritative)."""

    game: str
    variant: str
    seats_taken: int
    seats_total: int
    fingerprint: str
    table_id: str = ""
    version: int = PROTOCOL_VERSION  # what this build speaks; joiners skip other versions
    host_name: str = ""

    def __post_init__(self) -> None:
        _check_text("game", self.game, allow_empty=False)
        _check_text("variant", self.variant, allow_empty=True)
        _check_text("fp", self.fingerprint, allow_empty=False)
        _check_text("name", self.host_name, allow_empty=True)
        if not _HEX.fullmatch(self.table_id):
            raise AdvertError("table id must be lowercase hex (or empty)")
        if not 1 <= self.seats_total <= MAX_SEATS or not 0 <= self.seats_taken <= self.seats_total:
            raise AdvertError(f"bad seats {self.seats_taken}/{self.seats_total}")
        if not 0 <= self.version < 10**9:
            raise AdvertError("bad protocol version")

    @property
    def is_full(self) -> bool:
        return self.seats_taken >= self.seats_total


def encode_txt(table: TableInfo) -> dict[str, str]:
    return {
        "v": str(table.version),
        "game": table.game,
        "variant": table.variant,
        "seats": f"{table.seats_taken}/{table.seats_total}",
        "table": table.table_id,
        "fp": table.fingerprint,
        **({"name": table.host_name} if table.host_name else {}),
    }


def decode_txt(properties: Mapping[bytes, bytes | None] | Mapping[bytes | str, bytes | str | None]) -> TableInfo:
    """Parse TXT properties as zeroconf hands them over; ``AdvertError`` on anything wrong."""
    fields: dict[str, str] = {}
    for raw_key, raw_value in properties.items():
        key = _text(raw_key).lower()
        if key in fields:
            raise AdvertError(tr("duplicate key {key}", key=repr(key)))
        fields[key] = "" if raw_value is None else _text(raw_value)
    try:
        version, seats = fields["v"], fields["seats"]
        game, variant, fp = fields["game"], fields["variant"], fields["fp"]
    except KeyError as exc:
        raise AdvertError(f"missing key {exc.args[0]!r}") from exc
    if not _DIGITS.fullmatch(version):
        raise AdvertError("v must be a decimal integer")
    match = _SEATS.fullmatch(seats)
    if match is None:
        raise AdvertError("seats must be 'taken/total'")
    return TableInfo(
        game=game,
        variant=variant,
        seats_taken=int(match.group(1)),
        seats_total=int(match.group(2)),
        fingerprint=fp,
        table_id=fields.get("table", ""),
        version=int(version),
        host_name=fields.get("name", ""),
    )


def _text(value: bytes | str) -> str:
    if isinstance(value, str):
        return value
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AdvertError("TXT entry is not UTF-8") from exc


def _check_text(key: str, value: str, *, allow_empty: bool) -> None:
    if not isinstance(value, str):
        raise AdvertError(f"{key} must be text")
    if not value and not allow_empty:
        raise AdvertError(tr("{name} is empty", name=key))
    if len(value) > _MAX_TEXT or not value.isprintable():
        raise AdvertError(f"{key} must be at most {_MAX_TEXT} printable characters")
