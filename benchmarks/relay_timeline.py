"""Issue 31, item 8: where a game over the relays spends its time, measured.

Runs one game of `relay_vs_direct.py` (same rig, same scenarios) with every peer's relay path
and WebRTC attempts timestamped (wall clock: the four peers share the machine's clock), then
prints a JSON summary:

- per seat, from its launch: the dial (`connect`), each relay-borne link opening and its hello
  handshake done, the STUN probe's verdict, ICE gathering (seconds, server-reflexive candidates
  found), the host's first and last game step, the exit;
- per frame of the relay path (matched by link and hash), from `send` to the peer's queue:
  median, p90, max; per event, from the websocket write to the first relay delivering it to a
  subscriber (the relay's delay), and to its `OK`; waits for the send window.

A diagnostic, not a benchmark (the probes cost time; one run): the ratios are
`relay_vs_direct.py`'s.  Usage: (root) .venv/bin/python benchmarks/relay_timeline.py relay-4k
[--keep DIR]
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import relay_vs_direct as bench  # noqa: E402

#: the peers' entry point: the package's CLI with the relay path's and WebRTC's steps logged
#: to <log>.probe (monkeypatched wrappers: the package itself logs none of this)
WRAPPER = r"""
import logging, sys, time, json, hashlib, asyncio
logging.basicConfig(level=logging.WARNING, filename=sys.argv[1], format='%(created).4f %(name)s %(message)s')
for name in ('p2ptarot.peer', 'p2ptarot.net'):
    logging.getLogger(name).setLevel(logging.DEBUG)
P = open(sys.argv[1] + '.probe', 'w', buffering=1)
def w(*a): P.write('%.4f ' % time.time() + ' '.join(str(x) for x in a) + '\n')
import atexit
w('START')
atexit.register(lambda: w('EXIT'))
def h(t): return hashlib.md5(t.encode()).hexdigest()[:10]
from p2ptarot.net.online import channels as C, mesh as M
from p2ptarot.net.nostr import pool as PL
import aiohttp
cls = M.OnlineMesh
orc = cls._relay_channel
def rc(self, link_id, peer):
    ch = orc(self, link_id, peer); ch._plink = link_id[:8]; w('RCH', link_id[:8], peer[:8]); return ch
cls._relay_channel = rc
osend = C.RelayChannel.send
async def send(self, text):
    t = time.time()
    w('Q', getattr(self, '_plink', '?'), h(text), len(text), self._sent - self._credit, self.window)
    await osend(self, text)
    dt = time.time() - t
    if dt > 0.005: w('QWAIT', getattr(self, '_plink', '?'), '%.3f' % dt)
C.RelayChannel.send = send
opush = C.Channel._push
def push(self, text):
    w('P', getattr(self, '_plink', '?'), h(text)); opush(self, text)
C.Channel._push = push
osp = C.RelayChannel._send_packet
async def sp(self, seq, packet):
    w('PKT', getattr(self, '_plink', '?'), seq, len(packet), packet[:40].replace(' ', ''))
    await osp(self, seq, packet)
    w('PKTD', getattr(self, '_plink', '?'), seq)
C.RelayChannel._send_packet = sp
odp = C.RelayChannel._deliver_packet
def dp(self, packet):
    w('DP', getattr(self, '_plink', '?'), len(packet), packet[:40].replace(' ', '')); odp(self, packet)
C.RelayChannel._deliver_packet = dp
ofeed = C.RelayChannel.feed
def feed(self, kind, seq, part, parts, body):
    w('FEED', getattr(self, '_plink', '?'), kind, seq, part, parts); ofeed(self, kind, seq, part, parts, body)
C.RelayChannel.feed = feed
oss = aiohttp.ClientWebSocketResponse.send_str
async def ss(self, data, *a, **k):
    if data.startswith('["EVENT"'):
        try: w('WS>', json.loads(data)[1]['id'][:12], len(data))
        except Exception: pass
    return await oss(self, data, *a, **k)
aiohttp.ClientWebSocketResponse.send_str = ss
ofr = PL.RelayPool._frame
async def fr(self, relay, data, ws):
    if data.startswith('["EVENT"'):
        try: w('WS<', json.loads(data)[2]['id'][:12], relay.url[-5:])
        except Exception: pass
    elif data.startswith('["OK"'):
        try: f = json.loads(data); w('OK', f[1][:12], f[2], relay.url[-5:], f[3][:40] if len(f) > 3 else '')
        except Exception: pass
    return await ofr(self, relay, data, ws)
PL.RelayPool._frame = fr
otw = C.Channel._take_window
async def tw(self):
    t = time.time(); await otw(self); dt = time.time() - t
    if dt > 0.005: w('WINWAIT', getattr(self, '_plink', '?'), '%.3f' % dt)
C.Channel._take_window = tw

oconn = cls.connect
async def conn(self, address, expected_key=None):
    w('CONNECT', address[:12]); 
    try:
        r = await oconn(self, address, expected_key); w('CONNECTED', address[:12]); return r
    except BaseException as e:
        w('CONNFAIL', address[:12], type(e).__name__); raise
cls.connect = conn
oopen = cls._open
async def op(self, channel, address, dialed, *a):
    w('OPEN', channel.path, address[:12], dialed)
    try:
        r = await oopen(self, channel, address, dialed, *a); w('OPENED', channel.path, address[:12]); return r
    except BaseException as e:
        w('OPENFAIL', address[:12], type(e).__name__); raise
cls._open = op
from aiortc import RTCPeerConnection
osld = RTCPeerConnection.setLocalDescription
async def sld(self, d):
    t = time.time(); w('GATHER', d.type); r = await osld(self, d)
    sdp = self.localDescription.sdp
    w('GATHERED', d.type, '%.3f' % (time.time() - t), 'srflx=%d' % sdp.count('typ srflx'), 'host=%d' % sdp.count('typ host'))
    return r
RTCPeerConnection.setLocalDescription = sld
from p2ptarot.cli.main import main
sys.exit(main(sys.argv[2:]))
"""

_KEYS = ("START", "EXIT", "CONNECT", "CONNECTED", "CONNFAIL", "RCH", "OPENED", "GATHERED")


def _stats(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"n": 0}
    values = sorted(values)
    return {"n": len(values), "median": round(statistics.median(values), 3),
            "p90": round(values[int(0.9 * (len(values) - 1))], 3), "max": round(values[-1], 3)}


def summarize(work: Path) -> dict[str, object]:
    queued: dict[tuple[str, str], list[float]] = {}
    pushed: dict[tuple[str, str], list[float]] = {}
    written: dict[str, float] = {}
    delivered: dict[str, float] = {}
    answered: dict[str, float] = {}
    waits: list[float] = []
    seats = {}
    for probe in sorted(glob.glob(str(work / "log*.txt.probe"))):
        seat = Path(probe).name[3]
        lines = [line.split() for line in open(probe)]
        start = float(lines[0][0])
        timeline = [[round(float(p[0]) - start, 2), *p[1:]] for p in lines if p[1] in _KEYS]
        for line in open(probe.removesuffix(".probe")):
            p = line.split(" ", 1)
            if len(p) == 2 and (" step " in line or "STUN" in line) \
                    and p[0].replace(".", "", 1).isdigit():
                timeline.append([round(float(p[0]) - start, 2), p[1].strip()[:80]])
        steps = [t for t in timeline if isinstance(t[1], str) and " step " in f" {t[1]}"]
        seats[seat] = sorted([t for t in timeline if t not in steps[1:-1]], key=lambda t: t[0])
        for p in lines:
            t, kind = float(p[0]), p[1]
            if kind == "Q":
                queued.setdefault((p[2], p[3]), []).append(t)
            elif kind == "P":
                pushed.setdefault((p[2], p[3]), []).append(t)
            elif kind == "WS>":
                written.setdefault(p[2], t)
            elif kind == "WS<":
                delivered[p[2]] = min(t, delivered.get(p[2], t))
            elif kind == "OK":
                answered.setdefault(p[2], t)
            elif kind in ("WINWAIT", "QWAIT"):
                waits.append(float(p[3]))
    frames = [b - a for key, ts in queued.items() for a, b in zip(ts, pushed.get(key, []))]
    return {"seats": seats, "frame_latency": _stats(frames),
            "relay_delivery": _stats([delivered[i] - written[i] for i in delivered if i in written]),
            "ok_latency": _stats([answered[i] - written[i] for i in answered if i in written]),
            "send_waits": _stats(waits), "events_written": len(written)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario", choices=sorted(bench.CAPS))
    ap.add_argument("--game", default="paris-divins")
    ap.add_argument("--keep", type=Path, default=None, help="keep the logs in this directory")
    args = ap.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="p2ptarot-relay-timeline-"))
    work.mkdir(parents=True, exist_ok=True)
    bench._WRAPPER = WRAPPER
    bench.tempfile.mkdtemp = lambda prefix="": str(work)  # type: ignore[assignment]
    row = bench.run_once(args.scenario, args.game, 1, None)
    out = {"scenario": args.scenario, "run": row, "load_1min": round(os.getloadavg()[0], 2),
           **summarize(work), "logs": str(work)}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
