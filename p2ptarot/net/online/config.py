"""Settings of online play: relays, STUN/TURN servers, deadlines and the relay path's limits.

Nothing is hard-wired: relays come from ``--relay`` or, failing that, from the user's
relays file (<data dir>/relays.txt), or the packaged ``default_relays.txt``; STUN servers from
``--stun``, else the user's <data dir>/ice.txt, else the packaged ``default_ice.txt`` (none
with ``--no-default-stun``); TURN only from the user's settings.  aiortc's own fallback to a
public STUN server is never used: the ICE server list is always passed, possibly empty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # the keys load coincurve: only where a relay asks for them
    from ..nostr.keys import NostrKey

_RELAY = re.compile(r"wss?://[^\s/]+(/\S*)?")


class OnlineConfigError(ValueError):
    """A relay or ICE server setting that cannot be used."""


@dataclass(frozen=True)
class IceServer:
    """One STUN or TURN server (``stun:host:port``, ``turn:host:port[?transport=tcp]``)."""

    url: str
    username: str | None = None
    credential: str | None = None

    def __post_init__(self) -> None:
        if not re.fullmatch(r"(stun|turn|turns):[^\s:]+(:\d{1,5})?(\?transport=(udp|tcp))?",
                            self.url):
            raise OnlineConfigError(tr("{url} is not stun:HOST[:PORT] or turn:HOST[:PORT]",
                                       url=repr(self.url)))
        if self.url.startswith("turn") and (not self.username or self.credential is None):
            raise OnlineConfigError(tr("a TURN server needs a username and a credential"))


@dataclass(frozen=True)
class OnlineConfig:
    relays: tuple[str, ...]
    ice: tuple[IceServer, ...] = ()
    #: seconds the WebRTC attempt may take before the link falls back to the relays (ICE itself
    #: gives up only after ~64 s; gathering over blocked UDP alone costs 5 s)
    rtc_deadline: float = 15.0
    #: seconds the WebRTC attempt's last stage (the TURN one, where TURN is configured) has
    #: before the relay path opens beside it (the attempt goes on until ``rtc_deadline``; a
    #: data channel that opens later takes the link over)
    rtc_head_start: float = 4.0
    #: with a TURN server configured: seconds of a first attempt without it (aioice nominates
    #: the first pair that answers, so a relayed pair could beat a hole punch that would work)
    direct_first: float = 4.0
    #: a link that fell back to the relays tries WebRTC again after this long, doubling up to
    #: ``rtc_retry_max`` (0: never)
    rtc_retry: float = 30.0
    rtc_retry_max: float = 300.0
    #: "auto": WebRTC, then the relays; "relay": the relays only
    transport: str = "auto"
    handshake_timeout: float = 20.0
    max_message_size: int = 4 * 1024 * 1024
    #: relay path: at most this many bytes of a frame per event (less when a relay's limit
    #: says so: ``RelayPool.content_cap``), and events per second (burst) per link at least
    #: (more when the relays in use take more together: ``RelayPool.send_rate``)
    relay_chunk: int = 12000
    relay_rate: float = 20.0
    relay_burst: int = 60
    #: a missing relay frame is skipped after this long (catch-up repairs the loss)
    relay_gap: float = 8.0
    max_pending: int = 16
    #: seconds after which, no relay having ever answered, the table is given up (and at
    #: once when every relay refused us): a player hears why within a minute
    relay_give_up: float = 45.0
    max_links: int = 64
    max_queued_events: int = 1024
    ping_interval: float = 5.0
    #: seconds a closing mesh waits for its links' queued frames to leave (relay path: the
    #: token bucket paces them) and, on a data channel, to be read by the peer
    drain_timeout: float = 5.0
    extra: dict[str, str] = field(default_factory=dict)
    #: (relay URL, secret key hex): the keys the user gave to answer relays' NIP-42 AUTH
    #: challenges (``read_relay_keys``); never shown in a repr
    relay_keys: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    def auth_keys(self) -> dict[str, NostrKey]:
        """Relay URL -> its ``NostrKey`` (for ``RelayPool(auth_keys=...)``)."""
        return auth_keys(self.relay_keys)

    def __post_init__(self) -> None:
        if not self.relays:
            raise OnlineConfigError(tr("online play needs at least one relay (--relay URL)"))
        for url in self.relays:
            check_relay(url)
        if self.transport not in ("auto", "relay"):
            raise OnlineConfigError(tr("transport is 'auto' or 'relay'"))
        if not 1000 <= self.relay_chunk <= 24000:
            raise OnlineConfigError(tr("relay_chunk must be within 1000..24000"))


def check_relay(url: str) -> str:
    if not _RELAY.fullmatch(url) or urlsplit(url).hostname is None:
        raise OnlineConfigError(tr("{url} is not a relay URL (ws://HOST[:PORT] or wss://...)",
                                   url=repr(url)))
    return url


def read_relay_keys(path: Path) -> tuple[tuple[str, str], ...]:
    """A relay-keys file: one ``URL SECRET`` a line (the secret key as 64 hex digits; ``#``
    comments), the keys NIP-42 AUTH challenges are answered with.  A file, never argv: any
    local user reads another's command line with `ps`."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise OnlineConfigError(tr("cannot read the relay keys file {path}: {strerror}",
                                   path=path, strerror=exc.strerror)) from None
    out = []
    for number, line in enumerate(_read_list(text), 1):
        parts = line.split()
        if len(parts) != 2 or not re.fullmatch(r"[0-9a-fA-F]{64}", parts[1]):
            raise OnlineConfigError(tr("{path}, line {number}: write a relay URL and its secret key "
                                       "(64 hex digits)",
                                       path=path, number=number))
        out.append((check_relay(parts[0]), parts[1].lower()))
    return tuple(out)


def auth_keys(pairs: tuple[tuple[str, str], ...]) -> dict[str, NostrKey]:
    """(URL, secret hex) pairs -> URL -> ``NostrKey``."""
    from ..nostr.keys import KeyError_, NostrKey
    keys: dict[str, NostrKey] = {}
    for url, secret in pairs:
        try:
            keys[url] = NostrKey(bytes.fromhex(secret))
        except KeyError_ as exc:
            raise OnlineConfigError(tr("the key given for {url} is not a valid secret key",
                                       url=url)) from exc
    return keys


def _read_list(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def default_relays(data_dir: Path | None) -> list[str]:
    """The user's relays file (<data dir>/relays.txt), else the packaged default list."""
    if data_dir is not None and (data_dir / "relays.txt").is_file():
        urls = _read_list((data_dir / "relays.txt").read_text(encoding="utf-8"))
    else:
        urls = _read_list(resources.files(__package__).joinpath("default_relays.txt")
                          .read_text(encoding="utf-8"))
    return [check_relay(u) for u in urls]


def default_ice(data_dir: Path | None) -> list[IceServer]:
    """The user's STUN list (<data dir>/ice.txt), else the packaged ``default_ice.txt``."""
    if data_dir is not None and (data_dir / "ice.txt").is_file():
        urls = _read_list((data_dir / "ice.txt").read_text(encoding="utf-8"))
    else:
        urls = _read_list(resources.files(__package__).joinpath("default_ice.txt")
                          .read_text(encoding="utf-8"))
    return [IceServer(u) for u in urls]


def parse_turn(url: str, user: str | None, credential: str | None) -> IceServer:
    """``--turn turn:host:port`` with ``--turn-user`` and ``--turn-pass`` (or user:pass@ form)."""
    match = re.fullmatch(r"(turns?):([^@\s:]+):([^@\s]+)@(.+)", url)
    if match:
        return IceServer(f"{match.group(1)}:{match.group(4)}", match.group(2), match.group(3))
    return IceServer(url, user, credential)
