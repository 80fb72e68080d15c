"""`p2ptarot doctor`'s checks: what this computer's network lets online play do, and why not.

Each check is real traffic to the servers the user's settings name (never others): every relay
(its NIP-11 limits, a connection, a signal of our kind and of the relay path's size sent to
ourselves and read back, with its round trip), STUN (the mapped address from each of two
servers through one local socket: the same port from both means an endpoint-independent
NAT, different ports a symmetric one; no answer at all means UDP is blocked), and TURN (an
allocation), and the LAN (``net/lan_check.py``: the cards zeroconf uses, and whether another
computer's mDNS multicast is heard on them).  ``verdict`` (pure) turns the results into what will work and what to do.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from dataclasses import asdict, dataclass, field

import aiohttp

from ..lan_check import LAN_WAIT, RUN_TWO, LanCheck, check_lan, lan_heard, not_heard
from ..nostr.event import make_event
from ..nostr.keys import NostrKey
from ..nostr.pool import RelayNotice, RelayPool
from ..nostr.signal import SIGNAL_KIND
from ..nostr.sizing import content_length, max_plaintext
from .config import IceServer
from p2ptarot.i18n.message import joined, tr


@dataclass
class RelayCheck:
    url: str
    reachable: bool = False
    limits: dict[str, object] | None = None
    cap: int = 0  # content characters this client will use with it
    carries: bool = False  # a signal of our kind and of the relay path's size came back
    round_trip_ms: float | None = None
    problem: str = ""


@dataclass
class StunCheck:
    mapped: list[tuple[str, str, int]] = field(default_factory=list)  # (server, ip, port)
    nat: str = "unknown"  # "none", "endpoint-independent", "symmetric", "unknown"
    udp_blocked: bool = False
    local: tuple[str, int] | None = None
    problem: str = ""


@dataclass
class TurnCheck:
    server: str
    allocated: bool = False
    relayed: tuple[str, int] | None = None
    problem: str = ""


@dataclass
class Report:
    interfaces: list[tuple[str, str]]
    relays: list[RelayCheck]
    stun: StunCheck
    turn: list[TurnCheck]
    lan: LanCheck | None = None  # None: not checked
    online: bool = True  # False: the LAN only was checked (no server contacted)
    verdict: str = ""
    because: str = ""
    advice: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def interfaces() -> list[tuple[str, str]]:
    """(name, IPv4 address) of every interface (ifaddr: zeroconf's own dependency)."""
    import ifaddr
    out = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                out.append((adapter.nice_name, ip.ip))
    return out


async def check_relay(url: str, timeout: float = 10.0,
                      auth_key: NostrKey | None = None) -> RelayCheck:
    """Connect (answering a NIP-42 challenge with ``auth_key``, the user's key for this relay),
    read limits, send ourselves a signal of the relay path's size, time its return."""
    result = RelayCheck(url)
    heard: list[RelayNotice] = []
    answered = asyncio.Event()  # the relay refused our event or was dropped: no echo will come

    def notice(n: RelayNotice) -> None:
        heard.append(n)
        if n.what == "dropped":
            answered.set()

    key = NostrKey()
    pool = RelayPool([url], connect_timeout=timeout, give_up=timeout, on_notice=notice,
                     auth_keys={url: auth_key} if auth_key is not None else None)
    try:
        await pool.start()
        result.reachable = await pool.wait_connected(timeout) > 0
        result.limits = pool.limits().get(url)
        if not result.reachable:
            result.problem = pool.status()[url]
            return result
        await pool.subscribe("doctor", [{"kinds": [SIGNAL_KIND], "#p": [key.public_hex],
                                         "since": int(time.time()) - 5}])
        # as big as a relay-path event would be under this relay's cap (NIP-44 sized)
        body = "x" * max(0, content_length(max_plaintext(pool.content_cap())) - 8)
        for attempt in range(4):  # a size refusal teaches the cap: try again, smaller
            size = min(len(body), content_length(max_plaintext(pool.content_cap())) - 8)
            event = make_event(key, SIGNAL_KIND, [["p", key.public_hex],
                                                  ["expiration", str(int(time.time()) + 60)]],
                               body[:size], int(time.time()))
            start = time.monotonic()
            answered.clear()
            await pool.publish(event, on_refused=answered.set)
            back = asyncio.ensure_future(_returned(pool, event.id))
            refused = asyncio.ensure_future(answered.wait())
            try:  # the echo, or a refusal (then at once the next, smaller try), or the timeout
                await asyncio.wait({back, refused}, timeout=timeout / 2,
                                   return_when=asyncio.FIRST_COMPLETED)
            finally:
                back.cancel()
                refused.cancel()
            if back.done() and not back.cancelled() and back.exception() is None:
                result.carries = True
                result.round_trip_ms = round((back.result() - start) * 1000, 1)
            if result.carries or not pool.usable():
                break
        result.cap = pool.content_cap()
        if not result.carries:
            dropped = [n.detail for n in heard if n.what == "dropped"]
            result.problem = dropped[0] if dropped else (
                pool.refused[-1] if pool.refused else NEVER_BACK)
    except (aiohttp.ClientError, OSError) as exc:
        result.problem = str(exc)
    finally:
        await pool.close(settle=0)
    return result


async def _returned(pool: RelayPool, event_id: str) -> float:
    """When (monotonic) the relay sent `event_id` back to our subscription."""
    while True:
        got = await pool.next_event()
        if got.event.id == event_id:
            return time.monotonic()


def _host_port(url: str, default: int = 3478) -> tuple[str, int]:
    rest = url.split(":", 1)[1].split("?", 1)[0]
    host, _, port = rest.partition(":")
    return host, int(port or default)


class _Stun(asyncio.DatagramProtocol):
    def __init__(self) -> None:
        self.answers: dict[bytes, asyncio.Future[tuple[str, int]]] = {}

    def datagram_received(self, data: bytes, addr: tuple[str, int]) -> None:
        from aioice import stun
        try:
            message = stun.parse_message(data)
        except ValueError:
            return
        waiter = self.answers.get(message.transaction_id)
        mapped = message.attributes.get("XOR-MAPPED-ADDRESS")
        if waiter is not None and not waiter.done() and mapped:
            waiter.set_result((mapped[0], mapped[1]))


async def check_stun(servers: list[IceServer], bind: str = "0.0.0.0",
                     timeout: float = 3.0) -> StunCheck:
    """Binding requests to every STUN server at once from one UDP socket (three tries each)."""
    from aioice import stun
    result = StunCheck()
    stuns = [s.url for s in servers if s.url.startswith("stun:")]
    if not stuns:
        result.problem = NO_STUN
        return result
    loop = asyncio.get_running_loop()
    transport, proto = await loop.create_datagram_endpoint(_Stun, local_addr=(bind, 0))

    async def ask(url: str) -> tuple[str, str, int] | None:
        host, port = _host_port(url)
        try:
            addr = (await loop.getaddrinfo(host, port, family=socket.AF_INET,
                                           type=socket.SOCK_DGRAM))[0][4][:2]
        except OSError as exc:  # a name that does not resolve says nothing of UDP
            result.problem = f"{url}: {exc}"
            return None
        request = stun.Message(stun.Method.BINDING, stun.Class.REQUEST)
        waiter = loop.create_future()
        proto.answers[request.transaction_id] = waiter
        for _ in range(3):
            transport.sendto(bytes(request), addr)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout / 3):
                    await asyncio.shield(waiter)
            if waiter.done():
                ip, mapped_port = waiter.result()
                return url, ip, mapped_port
        return None

    try:
        result.local = transport.get_extra_info("sockname")[:2]
        # every server at once from the one socket (each request its own transaction id): a
        # blocked UDP costs one server's three tries, not three per server
        answers = await asyncio.gather(*(ask(url) for url in stuns))
        result.mapped = [a for a in answers if a is not None]  # in the settings' order
    finally:
        transport.close()
    if not result.mapped and not result.problem:
        result.udp_blocked = True
        result.problem = NO_STUN_ANSWER
    elif len(result.mapped) >= 2:
        if result.local and all(m[1] == result.local[0] for m in result.mapped):
            result.nat = "none"
        elif len({(m[1], m[2]) for m in result.mapped}) == 1:
            result.nat = "endpoint-independent"
        else:
            result.nat = "symmetric"
    return result


async def check_turn(server: IceServer, timeout: float = 5.0) -> TurnCheck:
    """An allocation on the TURN server with the user's credentials."""
    from aioice.turn import create_turn_endpoint
    result = TurnCheck(server.url)
    host, port = _host_port(server.url)
    kind = "tcp" if "transport=tcp" in server.url else "udp"
    try:
        async with asyncio.timeout(timeout):
            transport, _ = await create_turn_endpoint(
                asyncio.DatagramProtocol, (host, port), server.username, server.credential,
                transport=kind)
        result.allocated = True
        result.relayed = transport.get_extra_info("sockname")
        transport.close()
    except TimeoutError:
        result.problem = tr("no answer")
    except Exception as exc:  # aioice raises its own TransactionFailed, OSError ...
        result.problem = str(exc) or type(exc).__name__
    return result


#: the sentences `verdict` and the checks make: messages (p2ptarot.i18n.message), English as
#: they are, said in the player's language by the front ends; the three with fields are made where
#: they are filled
NO_RELAY_CONFIGURED = tr("no relay configured")
NOT_CARRIED = tr("does not carry our events")
NAME_A_RELAY = tr("name a relay that accepts ephemeral events with --relay URL (or in "
                  "<data dir>/relays.txt); LAN play needs no relay")
FRIEND_NEEDS_TURN = tr("a friend behind a symmetric NAT will still need TURN (--turn)")
SYMMETRIC = tr("the NAT maps each destination to a new port (symmetric)")
STUN_SILENT = tr("UDP to STUN gets no answer")
UNCONFIRMED = tr("a direct path could not be confirmed")
NEED_EIM = tr("direct links need a router that keeps one port per socket "
              "(endpoint-independent mapping)")
UDP_BLOCKED = tr("UDP is blocked")
SYMMETRIC_NO_TURN = tr("the NAT is symmetric and no TURN server allocates")
NO_DIRECT = tr("no direct path could be confirmed")
GIVE_TCP_TURN = tr("give a TURN server over TCP (--turn turn:HOST:PORT?transport=tcp) to "
                   "get a faster path")
NO_STUN = tr("no STUN server configured")
NO_STUN_ANSWER = tr("no STUN server answered over UDP")
NEVER_BACK = tr("our event never came back")
ONLINE_OFF = tr("online play is off in this lobby: start `p2ptarot web --online` to check the "
                "relays, STUN and TURN")
NO_LAN_CHECK = tr("nothing was checked")
NO_DEFAULT_STUN = tr("no public STUN server is contacted (your setting): homes behind NATs then "
                     "rarely link directly")


def verdict(report: Report) -> Report:
    """What will work (best first), why, and what to do (pure)."""
    carrying = [r for r in report.relays if r.carries]
    turn_ok = any(t.allocated for t in report.turn)
    advice: list[str] = []
    lan = report.lan
    if lan is not None and not lan.heard:
        advice.append(RUN_TWO)
    if not carrying and lan is not None and lan.heard:
        report.verdict = "LAN"
        report.because = lan_heard(_where(lan))
        if report.online:
            advice.append(NAME_A_RELAY)
    elif not report.online:
        report.verdict = "nothing"
        report.because = (NO_LAN_CHECK if lan is None else lan.problem or
                          not_heard(_where(lan), f"{lan.wait:g}"))
    elif not carrying:
        why = joined([tr("{url}: {problem}", url=r.url, problem=r.problem or NOT_CARRIED)
                      for r in report.relays]) or NO_RELAY_CONFIGURED
        report.verdict, report.because = "nothing", tr("no relay carries our events ({why})",
                                                       why=why)
        advice.append(NAME_A_RELAY)
    elif report.stun.nat in ("none", "endpoint-independent"):
        report.verdict = "direct"
        report.because = tr("STUN maps this computer to one address ({nat})",
                                    nat=report.stun.nat)
        if report.stun.nat == "endpoint-independent":
            advice.append(FRIEND_NEEDS_TURN)
    elif turn_ok:
        report.verdict = "through TURN"
        report.because = (SYMMETRIC if report.stun.nat == "symmetric" else
                          STUN_SILENT if report.stun.udp_blocked else UNCONFIRMED)
        advice.append(NEED_EIM)
    else:
        report.verdict = "relay only (slow)"
        report.because = (UDP_BLOCKED if report.stun.udp_blocked else
                          SYMMETRIC_NO_TURN if report.stun.nat == "symmetric" else
                          report.stun.problem or NO_DIRECT)
        advice.append(GIVE_TCP_TURN)
    for relay in report.relays:
        if not relay.carries:
            advice.append(tr("relay {url} will not be used: {problem}", url=relay.url,
                             problem=relay.problem))
    report.advice = advice
    return report


def _where(lan: LanCheck) -> str:
    return ", ".join(f"{card} {ip}" for card, ip in lan.cards) or "?"


async def diagnose(relays: list[str], ice: list[IceServer], bind: str = "0.0.0.0",
                   timeout: float = 10.0, auth_keys: dict[str, NostrKey] | None = None, *,
                   lan: bool = True, lan_wait: float = LAN_WAIT,
                   online: bool = True) -> Report:
    """Every check at once (relays, STUN, TURN and the LAN probe, on ``bind``'s card or, for
    0.0.0.0, on every card as zeroconf's default), then the verdict; ``online=False`` checks the
    LAN only."""
    keys = auth_keys or {}
    lan_task = (asyncio.ensure_future(check_lan(None if bind == "0.0.0.0" else bind, lan_wait))
                if lan else None)
    try:
        checks: list[RelayCheck] = []
        stun_result, turns = StunCheck(), []
        if online:  # all at once, each bounded by its own timeout: the slowest sets the wait
            relay_checks = asyncio.gather(*(check_relay(u, timeout, keys.get(u)) for u in relays))
            turn_checks = asyncio.gather(*(check_turn(s) for s in ice if s.url.startswith("turn")))
            found, stun_result, found_turns = await asyncio.gather(
                relay_checks, check_stun(ice, bind), turn_checks)
            checks, turns = list(found), list(found_turns)
        lan_result = await lan_task if lan_task is not None else None
    finally:
        if lan_task is not None and not lan_task.done():
            lan_task.cancel()
    report = Report(interfaces(), checks, stun_result, turns, lan_result, online)
    return verdict(report)


def as_json(report: Report) -> str:
    return json.dumps(report.to_json())
