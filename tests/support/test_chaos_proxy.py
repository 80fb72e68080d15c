"""The fault-injecting proxy carries every byte in order, from the dialler's own address,
while it delays and stalls (a connection between two namespace hosts, redirected by nftables)."""

from __future__ import annotations

import json
import subprocess
import sys

import chaos_proxy
import pytest
from netns_rig import Rig

PY = sys.executable

ECHO = """
import socket, sys
srv = socket.create_server((sys.argv[1], 7000))
print("ready", flush=True)
conn, peer = srv.accept()
print(peer[0], flush=True)
while data := conn.recv(65536):
    conn.sendall(data)
"""

CLIENT = """
import hashlib, os, socket, sys, threading
data = os.urandom(300_000)
c = socket.create_connection((sys.argv[1], 7000), timeout=60)
threading.Thread(target=lambda: [c.sendall(data[i:i + 7000]) for i in range(0, len(data), 7000)]
                 + [c.shutdown(socket.SHUT_WR)]).start()
got = b""
while chunk := c.recv(65536):
    got += chunk
print(len(got), hashlib.sha256(got).hexdigest() == hashlib.sha256(data).hexdigest())
"""


@pytest.mark.parametrize("stall_every", [0.0, 0.05])
def test_bytes_arrive_whole_and_in_order_through_delay_and_stalls(
        netns: Rig, stall_every: float) -> None:
    segment, (h1, h2) = netns.lan(2)
    proxy = chaos_proxy.install(h1, str(segment.subnet), delay=30, jitter=20,
                                stall_every=stall_every, stall=0.05)
    server = h2.popen([PY, "-c", ECHO, h2.address], stdout=subprocess.PIPE, text=True)
    assert server.stdout.readline().strip() == "ready"
    out = h1.run([PY, "-c", CLIENT, h2.address]).stdout.split()
    assert out == ["300000", "True"]
    assert server.stdout.readline().strip() == h1.address  # the proxy dials from h1's card
    stats = chaos_proxy.stop(proxy)
    assert stats["connections"] == 1 and stats["bytes"] == 600_000 and stats["errors"] == 0
    assert (stats["stalls"] > 0) == (stall_every > 0), json.dumps(stats)
