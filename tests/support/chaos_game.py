"""A whole bot game on a namespace LAN, clean or hostile (issue 21 item 2): the harness of
benchmarks/chaos.py and tests/e2e/test_chaos_lan.py.

Hosts h1..hN, each in its own network namespace on its own card of one switch (netns_rig). h1
hosts and advertises over zeroconf, the others join by fingerprint, all bots. A hostile
network adds, at once: `loss` % of the packets arriving on every card dropped (nftables
`numgen random`: a packet between two hosts crosses one such filter); every TCP connection
through a fault-injecting proxy in the dialler's namespace (chaos_proxy: `delay` ± `jitter` ms
per chunk and direction, stalls of `stall` s every `stall_every` s on average); and the switch
port of `flap_host` down for `flap_down` s every `flap_every` s (counted from the processes'
start, or with `flap_in_play` from the host's first transcript line: a short game is then
flapped while it is played, not in its lobby). `heartbeat` shortens the peers' websocket
heartbeat (a link silent for half of it drops), so a short flap breaks links too.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


@dataclass
class Chaos:
    game: str = "sinople"
    seats: int = 4
    loss: int = 5
    delay: float = 200.0
    jitter: float = 50.0
    stall_every: float = 30.0
    stall: float = 3.0
    flap_every: float = 20.0
    flap_down: float = 10.0
    flap_host: str = "h3"
    flap_in_play: bool = False
    max_flaps: int = 0  # stop after this many flaps (0: flap until the end)
    heartbeat: float | None = None  # the peers' --heartbeat (None: their default, 15 s)
    timeout: int = 120  # the peers' --timeout
    limit: float = 1800.0  # seconds before the run is given up
    seed: int = 1


def _install_chaos(hosts: list, subnet: str, cfg: Chaos) -> list[subprocess.Popen]:
    import chaos_proxy

    proxies = []
    for k, host in enumerate(hosts):
        host.link.loss(cfg.loss)
        proxies.append(chaos_proxy.install(host, subnet, delay=cfg.delay, jitter=cfg.jitter,
                                           stall_every=cfg.stall_every, stall=cfg.stall,
                                           seed=cfg.seed * 100 + k))
    return proxies


def _flapper(link, every: float, down: float, done: threading.Event, log: list[float],
             playing: Path | None = None, procs: dict | None = None, most: int = 0) -> None:
    """Flap `link` until `done`; with `playing`, from the host's first transcript line, and with
    `procs`, only until a peer exits (the others then linger for the flapped seat, whose link
    stays up to let it catch up)."""
    start = time.monotonic()
    while playing is not None and not any(playing.glob("tables/*/transcript.jsonl")):
        if done.wait(0.05):
            return

    def stop(seconds: float) -> bool:
        end = time.monotonic() + seconds
        while True:
            if done.is_set() or (procs and any(p.poll() is not None for p in procs.values())):
                return True
            if time.monotonic() >= end:
                return False
            time.sleep(0.05)

    while not (most and len(log) >= most) and not stop(max(0.0, every - down)):
        link.down()
        log.append(round(time.monotonic() - start, 1))
        stop(down)
        link.up()


def play(cfg: Chaos, chaos: bool, work: Path, run: int = 1) -> dict:
    import chaos_proxy
    from netns_rig import open_rig

    from p2ptarot.peer.store import DataDir, read_transcript
    from p2ptarot.transcript import verify_transcript

    work.mkdir(parents=True, exist_ok=True)
    with open_rig() as rig:
        segment, hosts = rig.lan(cfg.seats)
        proxies = _install_chaos(hosts, str(segment.subnet), cfg) if chaos else []
        common = ["--bot", "random", "--quiet", "--timeout", str(cfg.timeout),
                  "--lobby-timeout", "600"]
        if cfg.heartbeat is not None:
            common += ["--heartbeat", f"{cfg.heartbeat:g}"]
        dirs = {h.label: work / h.label for h in hosts}
        logs = {h.label: work / f"{h.label}.log" for h in hosts}
        host_fp = DataDir(dirs[hosts[0].label]).identity().fingerprint
        flaps: list[float] = []
        done = threading.Event()
        started = time.monotonic()
        procs = {hosts[0].label: hosts[0].popen(
            CLI + ["host", "--game", cfg.game, "--seats", str(cfg.seats), "--seed", str(run),
                   "--interface", hosts[0].card, "--data-dir", str(dirs[hosts[0].label])] + common,
            stdout=open(logs[hosts[0].label], "w"), stderr=subprocess.STDOUT)}
        for h in hosts[1:]:
            procs[h.label] = h.popen(
                CLI + ["join", host_fp, "--game", cfg.game, "--seed", str(run),
                       "--find-timeout", "120", "--interface", h.card,
                       "--data-dir", str(dirs[h.label])] + common,
                stdout=open(logs[h.label], "w"), stderr=subprocess.STDOUT)
        flapper = None
        if chaos and cfg.flap_every > 0:
            victim = next(h for h in hosts if h.label == cfg.flap_host)
            playing = dirs[hosts[0].label] if cfg.flap_in_play else None
            flapper = threading.Thread(target=_flapper, args=(victim.link, cfg.flap_every,
                                                                 cfg.flap_down, done, flaps,
                                                                 playing,
                                                                 procs if playing else None,
                                                                 cfg.max_flaps))
            flapper.start()
        codes = {}
        try:
            for label, proc in procs.items():
                try:
                    codes[label] = proc.wait(timeout=max(1.0, cfg.limit - (time.monotonic() - started)))
                except subprocess.TimeoutExpired:
                    codes[label] = None
        finally:
            done.set()
            if flapper is not None:
                flapper.join()
        wall = time.monotonic() - started
        proxy_stats = []
        for proc in proxies:
            proxy_stats.append(chaos_proxy.stop(proc))
    results, verified, steps, seats = {}, {}, {}, {}
    for label in procs:
        lines = logs[label].read_text().strip().splitlines()
        try:
            results[label] = json.loads(lines[-1])
        except (IndexError, ValueError):
            results[label] = {"result": "no result", "log_tail": lines[-5:]}
        path = results[label].get("transcript")
        if path and Path(path).exists():
            transcript = read_transcript(Path(path))
            verdict = verify_transcript(transcript)
            verified[label] = bool(verdict.valid)
            steps[label] = len(Path(path).read_bytes().splitlines())
            seats[label] = transcript.charter.charter.seat_of(
                DataDir(dirs[label]).identity().public_bytes)
            if not verdict.valid:
                results[label]["verify"] = verdict.reason
    finished = all(r.get("result") == "finished" for r in results.values())
    agree = len({json.dumps(r.get("scores")) for r in results.values()}) == 1
    return {
        "network": "chaos" if chaos else "clean",
        "wall_seconds": round(wall, 2),
        "completed": finished and all(c == 0 for c in codes.values()),
        "all_verified": len(verified) == len(procs) and all(verified.values()),
        "all_peers_agree": agree and finished,
        "transcript_lines": max(steps.values()) if steps else 0,
        "seat_of_host": seats,
        "exit_codes": codes,
        "outcomes": {k: {f: v for f, v in r.items() if f in ("result", "scores", "blame",
                                                              "reason", "verify", "log_tail")}
                     for k, r in results.items()},
        **({"flaps_at_seconds": flaps,
            "proxy": {key: sum(s.get(key, 0) for s in proxy_stats)
                      for key in ("connections", "bytes", "chunks", "stalls", "errors")}}
           if chaos else {}),
    }
