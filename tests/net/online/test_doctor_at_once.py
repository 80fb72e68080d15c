"""The doctor asks every server at once (players wait for the slowest check, not for the sum):
two STUN servers and a TURN server on 127.0.0.1, real UDP sockets, each holding its answer
until the others' requests have arrived. Asked one after another, the first STUN server would
wait for a request that comes only after it gave up: no mapping, no NAT verdict. Asked at once,
every server hears its request, every answer comes back: two mappings, the NAT read, the TURN
server's refusal reported, and the socket's retries never needed."""

from __future__ import annotations

import asyncio

from aioice import stun

from p2ptarot.net.online.config import IceServer
from p2ptarot.net.online.doctor import diagnose


class _Server(asyncio.DatagramProtocol):
    """A STUN/TURN endpoint that answers its requests only once `gate` is open."""

    def __init__(self, name: str, heard: dict[str, int], gate: asyncio.Event) -> None:
        self.name, self.heard, self.gate = name, heard, gate
        self.transport: asyncio.DatagramTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def datagram_received(self, data: bytes, addr: tuple[str, int]) -> None:
        request = stun.parse_message(data)
        self.heard[self.name] = self.heard.get(self.name, 0) + 1
        asyncio.ensure_future(self._answer(request, addr))

    async def _answer(self, request: stun.Message, addr: tuple[str, int]) -> None:
        await self.gate.wait()
        assert self.transport is not None
        if request.message_method == stun.Method.BINDING:
            reply = stun.Message(stun.Method.BINDING, stun.Class.RESPONSE,
                                 request.transaction_id, {"XOR-MAPPED-ADDRESS": addr})
        else:  # an allocation: refused at once (no credentials asked for)
            reply = stun.Message(request.message_method, stun.Class.ERROR,
                                 request.transaction_id, {"ERROR-CODE": (403, "Forbidden")})
        self.transport.sendto(bytes(reply), addr)


async def test_stun_and_turn_are_asked_at_once() -> None:
    loop = asyncio.get_running_loop()
    heard: dict[str, int] = {}
    gate = asyncio.Event()
    servers = {}
    for name in ("stun1", "stun2", "turn"):
        transport, _ = await loop.create_datagram_endpoint(
            lambda name=name: _Server(name, heard, gate), local_addr=("127.0.0.1", 0))
        servers[name] = transport
    ports = {name: t.get_extra_info("sockname")[1] for name, t in servers.items()}

    async def open_when_all_asked() -> None:
        while len(heard) < 3:
            await asyncio.sleep(0.01)
        gate.set()

    opener = asyncio.ensure_future(open_when_all_asked())
    try:
        ice = [IceServer(f"stun:127.0.0.1:{ports['stun1']}"),
               IceServer(f"stun:127.0.0.1:{ports['stun2']}"),
               IceServer(f"turn:127.0.0.1:{ports['turn']}", "user", "secret")]
        report = await asyncio.wait_for(diagnose([], ice, "127.0.0.1", lan=False), 30)
    finally:
        opener.cancel()
        for transport in servers.values():
            transport.close()
    assert gate.is_set() and set(heard) == {"stun1", "stun2", "turn"}
    assert [m[0] for m in report.stun.mapped] == [ice[0].url, ice[1].url], report.stun
    assert report.stun.nat == "none" and not report.stun.udp_blocked, report.stun
    assert heard["stun1"] == heard["stun2"] == 1  # answered at its first try: no retry was needed
    assert len(report.turn) == 1 and not report.turn[0].allocated
    assert report.turn[0].problem, report.turn
