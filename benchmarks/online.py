"""Online play against the LAN on the same rig (issue 22): start to first move and whole-game
time of a 4-seat table, one peer process per namespace, for each path.

Scenarios, all in network namespaces this script builds (root needed) and removes:
- `lan`: four hosts on one switch, websockets (`host`/`join FINGERPRINT` by zeroconf);
- `direct`: three homes behind cone NATs (two players in the first), STUN only;
- `turn`: the same homes behind symmetric NATs, STUN and TURN;
- `relay`: cone NATs with UDP blocked at the routers: links between homes ride the relay.
A `nostr-relay` process and coturn run on the "internet" segment in every scenario (the LAN one
does not use them). Times are seconds from spawning the four processes: `first_move` is the
host's first move step (keys, shuffles and the deal done), `game` the last process's exit.

Usage: sudo .venv/bin/python benchmarks/online.py [--game sinople] [--runs 3]
       [--scenarios lan direct turn relay] [--out benchmarks/results/online.json]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "tests" / "support"))

from netns_rig import open_rig  # noqa: E402
from online_servers import start_relay, start_turn  # noqa: E402

_WRAPPER = r"""
import logging, sys
logging.basicConfig(level=logging.WARNING, filename=sys.argv[1], format='%(created).4f %(message)s')
for name in ('p2ptarot.peer',):
    logging.getLogger(name).setLevel(logging.DEBUG)
from p2ptarot.cli.main import main
sys.exit(main(sys.argv[2:]))
"""
_FIRST_MOVE = re.compile(r"^(\d+\.\d+) step \d+: .*move by seat")


def _identity_code(data: Path) -> tuple[str, str]:
    from p2ptarot.net.nostr.adverts import code_of, show_code
    from p2ptarot.net.online.transport import nostr_key_for
    from p2ptarot.peer.store import DataDir
    identity = DataDir(data).identity()
    return identity.fingerprint, show_code(code_of(nostr_key_for(identity).public_hex))


def run_once(scenario: str, game: str, seed: int) -> dict[str, object]:
    work = Path(tempfile.mkdtemp(prefix="p2ptarot-online-bench-"))
    with open_rig() as rig:
        inet = rig.internet()
        server = rig.host("srv", inet)
        relay = start_relay(work / "relay", host=server.address, port=7447,
                            prefix=server.exec_prefix(), popen=server.popen)
        turn = start_turn(work / "turn", server.address, server.popen, server.exec_prefix())
        if scenario == "lan":
            _, hosts = rig.lan(4)
        else:
            nat = "symmetric" if scenario == "turn" else "cone"
            homes = [rig.home("a", inet, nat=nat, hosts=2), rig.home("b", inet, nat=nat),
                     rig.home("c", inet, nat=nat)]
            if scenario == "relay":
                for router, _ in homes:
                    router.block_udp()
            hosts = [h for _, members in homes for h in members]
        fp, code = _identity_code(work / "p0")
        common = ["--bot", "heuristic", "--quiet", "--json", "--timeout", "120",
                  "--lobby-timeout", "300"]
        if scenario != "lan":
            common += ["--relay", relay.url, "--stun", turn.stun_url]
            if scenario != "direct":
                common += ["--turn", turn.turn_url, "--turn-user", turn.user,
                           "--turn-pass-file", str(turn.password_file)]
        procs = []
        t0 = time.time()
        for k, host in enumerate(hosts):
            where = ["--interface", host.card] if scenario == "lan" else []
            if k == 0:
                args = ["host", "--game", game, "--seats", "4"] + (["--online"] if scenario != "lan" else [])
            else:
                args = ["join", fp if scenario == "lan" else code]
            args += ["--data-dir", str(work / f"p{k}"), "--seed", str(seed + k)] + where + common
            procs.append(host.popen([sys.executable, "-c", _WRAPPER, str(work / f"log{k}.txt"),
                                     *args], stdout=open(work / f"out{k}.txt", "w"),
                                    stderr=subprocess.STDOUT, cwd=HERE))
        codes = [p.wait(timeout=1800) for p in procs]
        end = time.time() - t0
        first = None
        for line in (work / "log0.txt").read_text().splitlines():
            if m := _FIRST_MOVE.match(line):
                first = float(m.group(1)) - t0
                break
        results = [json.loads((work / f"out{k}.txt").read_text().strip().splitlines()[-1])
                   if codes[k] == 0 else None for k in range(4)]
        paths = sorted({p for r in results if r for p in r.get("paths", {}).values()})
        relay_events = len(relay.stored())
        relay.stop()
    return {"ok": all(c == 0 for c in codes), "first_move": first, "game": end,
            "paths": paths, "relay_events": relay_events,
            "scores": results[0]["scores"] if results[0] else None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="sinople")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--scenarios", nargs="+", default=["lan", "direct", "turn", "relay"])
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    out: dict[str, object] = {"benchmark": "online", "game": args.game, "seats": 4,
                              "runs": args.runs, "unit": "seconds", "scenarios": {}}
    for scenario in args.scenarios:
        samples = [run_once(scenario, args.game, 1 + 10 * i) for i in range(args.runs)]
        good = [s for s in samples if s["ok"]]

        def med(key: str) -> float | None:
            values = [s[key] for s in good if s[key] is not None]
            return round(statistics.median(values), 2) if values else None
        out["scenarios"][scenario] = {  # type: ignore[index]
            "first_move_median": med("first_move"), "game_median": med("game"),
            "failed_runs": len(samples) - len(good), "samples": samples}
        print(json.dumps({scenario: out["scenarios"][scenario]}), file=sys.stderr)  # type: ignore[index]
    lan = out["scenarios"].get("lan")  # type: ignore[union-attr]
    if lan and lan["game_median"]:
        for name, row in out["scenarios"].items():  # type: ignore[union-attr]
            if row["game_median"] and row["first_move_median"] and lan["first_move_median"]:
                row["vs_lan"] = {"first_move": round(row["first_move_median"] / lan["first_move_median"], 2),
                                 "game": round(row["game_median"] / lan["game_median"], 2)}
    text = json.dumps(out, indent=1)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
