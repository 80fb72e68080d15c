"""`p2ptarot demo`: N peers, each its own OS process with its own identity key, find each other
through zeroconf, play a full game with bots over websockets and mental poker, then the transcript
is verified offline. Exit 0 only when the game completed and the transcript verified.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from p2ptarot.peer.store import DataDir, read_transcript
from p2ptarot.i18n import _, language

from .errors import check_table, interface_arg


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("demo", help=_("a full networked game between local bot processes"),
                              description=__doc__)
    p.add_argument("--game", default="sinople")
    p.add_argument("--variant", default=None)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=None,
                   help=_("TESTS AND BENCHMARKS ONLY: seed of the bots' choices, of every peer's "
                        "identity and secrets (hence the deal) and of its ports: the same seed "
                        "plays the same game (default: bots seeded 1, cards from the OS)"))
    p.add_argument("--interface", default="127.0.0.1", metavar="CARD|IP", type=interface_arg,
                   help=_("network card (a name or its address) for every socket and zeroconf "
                        "(default 127.0.0.1)"))
    p.add_argument("--out", type=Path, default=None, help=_("copy the verified transcript here"))
    p.add_argument("--timeout", type=int, default=120, 
                   help=_("seconds a stalled step waits before a peer asks again for what it "
                          "missed, and the demo table's limit, after which it is abandoned, "
                          "blaming nobody (default 120)"))
    p.add_argument("--lobby-timeout", type=float, default=120.0, metavar="SECONDS",
                   help=_("the peers give up if the table has not started after this long"))
    p.add_argument("--json", action="store_true", help=_("print one JSON summary object"))
    p.set_defaults(run=run, prog=p.prog)


def _stream(proc: Any, keep: list[str], say) -> None:
    """Show the host's live table as it is played, and keep its lines (the last is the JSON)."""
    assert proc.stdout is not None
    for line in proc.stdout:
        line = line.rstrip("\n")
        keep.append(line)
        if not line.startswith("{"):
            say("  | " + line)


def _starter(game: str, entry: Callable[[list[str]], int]) -> Callable[[list[str]], Any]:
    """How the peers start: forked from this process once it has imported the peer stack
    (`p2ptarot.cli.launch`: each peer is its own process and skips 0.7-0.9 s of imports), or
    each in a fresh interpreter where this process cannot fork (no `os.fork`, or a thread
    already runs). Either way a peer runs the command line it is given."""
    from . import launch

    if not launch.can_fork():
        return lambda cmd: subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    launch.preload(game)
    return lambda cmd: launch.fork_peer(cmd[len(_INTERPRETER):], stdout=launch.PIPE, run=entry)


#: how a peer's command line starts (a fresh interpreter's; a forked peer runs what follows)
_INTERPRETER = (sys.executable, "-m", "p2ptarot.cli.main")


def run(args: argparse.Namespace) -> int:
    bad = check_table(args, args.game, args.players, args.variant)
    if bad is not None:
        return bad
    say = (lambda t: None) if args.json else (lambda t: print(t, flush=True))
    work = Path(tempfile.mkdtemp(prefix="p2ptarot-demo-"))
    base = list(_INTERPRETER)
    common = ["--bot", "heuristic", "--quiet", "--interface", args.interface, "--timeout", str(args.timeout),
              "--move-timeout", str(args.timeout),  # bots: a move is as quick as a crypto step
              "--lobby-timeout", str(args.lobby_timeout), "--lang", language()]  # the host's table
    started = time.monotonic()
    procs: list[Any] = []  # subprocess.Popen or launch.ForkedPeer
    try:
        seed = 1 if args.seed is None else args.seed
        seeded: list[list[str]] = [[] for _ in range(args.players)]  # each peer's --test-seed and --port
        if args.seed is not None:
            for k, port in enumerate(seeded_ports(args.seed, args.players, args.interface)):
                seeded[k] = ["--test-seed", str(args.seed + k), "--port", str(port)]
        # the joiners name the host's fingerprint: they never sit at another table on the LAN
        host_fp = DataDir(work / "peer-0").identity(args.seed).fingerprint
        host_cmd = base + ["host", "--game", args.game, "--seats", str(args.players), "--name", "peer-0",
                           "--data-dir", str(work / "peer-0"), "--seed", str(seed)] + seeded[0] + common
        if args.variant:
            host_cmd += ["--variant", args.variant]
        if not args.json:
            host_cmd += ["--watch"]  # the host prints the public table as it is played
        start = _starter(args.game, args.command_line)
        procs.append(start(host_cmd))
        for k in range(1, args.players):
            cmd = base + ["join", host_fp, "--game", args.game, "--name", f"peer-{k}",
                          "--data-dir", str(work / f"peer-{k}"), "--seed", str(seed + k)] + seeded[k] + common
            procs.append(start(cmd))
        # the host's output is streamed by a thread: started once every peer is forked
        host_lines: list[str] = []
        live = threading.Thread(target=_stream, args=(procs[0], host_lines, say), daemon=True)
        live.start()
        say(_("demo: {n} peers ({game}) on {interface}, work dir {work}").format(
            n=args.players, game=args.game, interface=args.interface, work=work))
        say(_("demo: peers started; discovering through zeroconf, shuffling, playing (the host's "
              "view of the table follows)..."))
        results = []
        for k, proc in enumerate(procs):
            if k == 0:
                proc.wait(timeout=3600)
                live.join(timeout=30)
                out = "\n".join(host_lines)
            else:
                out, _err = proc.communicate(timeout=3600)
            line = next((ln for ln in reversed(out.splitlines()) if ln.startswith("{")), "{}")
            results.append((proc.returncode, json.loads(line)))
            say(_("demo: peer {k} exited {rc}: {result}").format(
                k=k, rc=proc.returncode, result=results[-1][1].get("result", _("no result"))))
        played = time.monotonic() - started
        host_rc, host_res = results[0]
        if host_rc != 0 or "transcript" not in host_res:
            say(_("demo: the game did not complete"))
            return 1
        from p2ptarot.transcript import verify_transcript  # local: the peers start sooner

        t0 = time.monotonic()
        transcript = read_transcript(Path(host_res["transcript"]))
        verdict = verify_transcript(transcript)
        names = [seat.name for seat in transcript.charter.charter.seats]
        verify_s = time.monotonic() - t0
        # the work dir (the peers' keys, secrets and stores) goes at exit: the transcript is
        # kept where asked, else in the user's data dir (never the temporary directory)
        kept = args.out or (Path.home() / ".p2ptarot" / "demos"
                           / f"{args.game}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.jsonl")
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(host_res["transcript"], kept)
        agree = all(res.get("scores") == host_res.get("scores") for _, res in results)
        summary = {"game": args.game, "players": args.players, "completed": all(rc == 0 for rc, _ in results),
                   "all_peers_agree": agree, "verified": verdict.valid, "steps": verdict.steps,
                   "scores": host_res.get("scores"), "winners": host_res.get("winners"),
                   "game_seconds": round(played, 2), "verify_seconds": round(verify_s, 2),
                   "transcript": str(kept)}
        if args.json:
            print(json.dumps(summary, sort_keys=True))
        else:
            say(_("demo: game over in {seconds} s: {standing}").format(
                seconds=f"{played:.1f}",
                standing=_standing(names, summary["scores"], summary["winners"])))
            said = (_("VERIFIED ({steps} steps, {seconds} s)").format(
                        steps=verdict.steps, seconds=f"{verify_s:.1f}") if verdict.valid
                    else _("INVALID at step {step}, seat {seat}: {reason}").format(
                        step=verdict.step, seat=verdict.seat, reason=verdict.reason))
            say(_("demo: transcript {path}: {verdict}").format(path=summary["transcript"],
                                                                verdict=said))
        return 0 if summary["completed"] and agree and verdict.valid else 1
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        shutil.rmtree(work, ignore_errors=True)


def seeded_ports(seed: int, n: int, interface: str) -> list[int]:
    """n free ports that `seed` picks (they are in the charter, hence in the table id and every
    joint draw): the same seed gives the same ports unless one is taken, then the next block."""
    start = 20000 + (seed * 7919) % 30000
    for base in range(start, start + 100 * n, n):
        try:
            for port in range(base, base + n):
                with socket.socket() as s:  # as the peers' listeners bind (asyncio's default):
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # TIME_WAIT is free
                    s.bind((interface, port))
        except OSError:
            continue
        return list(range(base, base + n))
    raise RuntimeError(f"no {n} free consecutive ports from {start}")


def _standing(names: list[str], scores: list[int] | None, winners: list[int] | None) -> str:
    """'peer-0 1, peer-1 4; won by peer-1': names in seat order, never seat numbers from 0."""
    if not scores:
        return _("no scores")
    said = ", ".join(f"{names[i] if i < len(names) else _('seat {n}').format(n=i + 1)} {score}"
                     for i, score in enumerate(scores))
    won = [names[w] if 0 <= w < len(names) else _("seat {n}").format(n=w + 1)
           for w in winners or []]
    return said + (_("; won by {winners}").format(winners=_(" and ").join(won)) if won
                   else _("; no winner"))
