"""Long fuzz run of a seated peer and the verifier (the mutators of tests/fuzz/mutate.py).

One arcanoïd game is played in memory with real mental poker; then mutants of its envelopes are
fed to seat 0 (a live, seated Session) and to the offline verifier:
- unsigned mutants (bit flips, truncations, wrong types, huge integers, deep nesting, lone
  surrogates, garbage) must be dropped: the peer neither raises nor aborts, and still ends the
  game with the same outcome;
- re-signed mutants (seats 1 and 2 cheat with their own keys) may only get seat 1 or 2 blamed;
- the verifier returns a verdict for every mutated transcript;
- genuine messages delivered far too early, then again in order, never leave the peer waiting
  (no hang: it finishes with the same outcome).

Usage: python benchmarks/fuzz.py [--messages 100000] [--seed 1] [--game arcanoid --seats 3]
Prints one JSON object; exit status 1 if any exception escaped, an honest seat was blamed or a session hung.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import platform
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _load(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


harness = _load("table_harness", ROOT / "tests" / "table" / "harness.py")
mutate = _load("fuzz_mutate", ROOT / "tests" / "fuzz" / "mutate.py")

from p2ptarot.table.effects import Aborted  # noqa: E402
from p2ptarot.table.envelope import parse  # noqa: E402
from p2ptarot.table.session import MAX_STEPS_AHEAD, Session  # noqa: E402
from p2ptarot.transcript import Transcript, verify_transcript  # noqa: E402

SEAT = 0


class Findings:
    def __init__(self) -> None:
        self.ops: collections.Counter[str] = collections.Counter()
        self.exceptions: dict[str, int] = {}
        self.examples: dict[str, str] = {}
        self.honest_blamed: list[str] = []
        self.unsigned_aborts: list[str] = []
        self.unsigned_seconds = 0.0
        self.hangs: list[str] = []

    def crash(self, where: str, op: str, exc: BaseException) -> None:
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        key = f"{where}/{op}: {type(exc).__name__} at {Path(frame.filename).name}:{frame.lineno}"
        self.exceptions[key] = self.exceptions.get(key, 0) + 1
        self.examples.setdefault(key, f"{exc!s}"[:300])


def seated_at(game: Any, cut: int) -> tuple[Session, list[bytes]]:
    lines = game.records[SEAT]
    own = [x for x in lines[cut:] if parse(x).seat == SEAT]
    rest = [x for x in lines[cut:] if parse(x).seat != SEAT]
    session = Session(game.signed, SEAT, game.ids[SEAT], game.seeds[SEAT])
    session.load(lines[:cut] + own)
    return session, rest


def unsigned_phase(game: Any, rng: random.Random, count: int, found: Findings) -> int:
    lines = game.records[SEAT]
    done = 0
    cuts = sorted(rng.sample(range(len(lines)), 4))
    found.unsigned_seconds = 0.0
    for cut in cuts:
        session, rest = seated_at(game, cut)
        mutator = mutate.Mutator(rng, lines[max(0, cut - 10):cut + 20], {})
        started = time.perf_counter()
        for _ in range(count // len(cuts)):
            name, data = mutator.unsigned()
            found.ops[name] += 1
            done += 1
            try:
                effects = session.receive(data)
            except Exception as exc:  # noqa: BLE001 - what we are looking for
                found.crash("session", name, exc)
                continue
            if any(isinstance(e, Aborted) for e in effects):
                found.unsigned_aborts.append(name)
        found.unsigned_seconds += time.perf_counter() - started
        for line in rest:
            session.receive(line)
        if session.outcome != game.finished[SEAT].outcome:
            found.unsigned_aborts.append(f"outcome changed after cut {cut}")
    return done


def resigned_phase(game: Any, rng: random.Random, sessions: int, found: Findings) -> int:
    lines = game.records[SEAT]
    cheaters = {k: game.ids[k] for k in range(1, len(game.ids))}
    done = 0
    for _ in range(sessions):
        cut = rng.randrange(0, len(lines))
        session, rest = seated_at(game, cut)
        mutator = mutate.Mutator(rng, lines[max(0, cut - 6):cut + 12], cheaters)
        for _ in range(60):
            made = mutator.resigned()
            if made is None:
                break
            name, data = made
            found.ops[name] += 1
            done += 1
            try:
                session.receive(data)
            except Exception as exc:  # noqa: BLE001
                found.crash("session", name, exc)
                break
            if session.aborted is not None:
                if session.aborted.blame is not None and session.aborted.blame not in cheaters:
                    found.honest_blamed.append(f"{name}: {session.aborted.reason[:200]}")
                break
        try:
            for line in rest[:40]:
                session.receive(line)
        except Exception as exc:  # noqa: BLE001
            found.crash("session-after", "rest", exc)
    return done


def early_phase(game: Any, rng: random.Random, sessions: int, found: Findings) -> int:
    """Genuine messages far too early (a relay or a catch-up racing ahead) among unsigned
    mutants, then every message again in order: the peer must finish with the same outcome (a
    dropped early message once stayed "seen" and the session waited for it forever)."""
    lines = game.records[SEAT]
    done = 0
    for _ in range(sessions):
        cut = rng.randrange(0, len(lines))
        session, rest = seated_at(game, cut)
        mutator = mutate.Mutator(rng, lines[max(0, cut - 10):cut + 20], {})
        early = [x for x in rest if parse(x).step > session.step + MAX_STEPS_AHEAD]
        try:
            for line in rng.sample(early, min(len(early), 40)):
                session.receive(line)
                session.receive(mutator.unsigned()[1])
                done += 2
            for line in rest:
                session.receive(line)
        except Exception as exc:  # noqa: BLE001
            found.crash("session-early", "early", exc)
            continue
        found.ops["early"] += 1
        if session.outcome != game.finished[SEAT].outcome:
            found.hangs.append(f"cut {cut}: step {session.step}, "
                               f"{'aborted' if session.aborted else 'waiting'}")
    return done


def verifier_phase(game: Any, rng: random.Random, runs: int, found: Findings) -> int:
    lines = game.records[SEAT]
    cheaters = {k: game.ids[k] for k in range(1, len(game.ids))}
    mutator = mutate.Mutator(rng, lines, cheaters)
    for trial in range(runs):
        cut = rng.randrange(1, len(lines) - 1)
        made = mutator.resigned() if trial % 2 else mutator.unsigned(lines[cut])
        if made is None:
            continue
        name, data = made
        found.ops[f"verify/{name}"] += 1
        try:
            verify_transcript(Transcript(game.signed, lines[:cut] + [data] + lines[cut + 1:cut + 3]))
        except Exception as exc:  # noqa: BLE001
            found.crash("verifier", name, exc)
    return runs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, default=100_000, help="unsigned mutants")
    ap.add_argument("--sessions", type=int, default=40, help="fresh sessions for re-signed mutants")
    ap.add_argument("--verify-runs", type=int, default=40)
    ap.add_argument("--early-sessions", type=int, default=8,
                    help="sessions fed genuine messages far too early, then all in order")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default="arcanoid")
    ap.add_argument("--seats", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    game = harness.Table(args.game, args.seats, seed=args.seed)
    game.run()
    t_game = time.perf_counter() - t0
    found = Findings()
    t1 = time.perf_counter()
    unsigned = unsigned_phase(game, rng, args.messages, found)
    t2 = time.perf_counter()
    resigned = resigned_phase(game, rng, args.sessions, found)
    t3 = time.perf_counter()
    verified = verifier_phase(game, rng, args.verify_runs, found)
    t4 = time.perf_counter()
    early = early_phase(game, rng, args.early_sessions, found)
    t5 = time.perf_counter()
    ok = (not found.exceptions and not found.honest_blamed and not found.unsigned_aborts
          and not found.hangs)
    print(json.dumps({
        "benchmark": "fuzz", "game": args.game, "seats": args.seats, "seed": args.seed,
        "log_lines": len(game.records[SEAT]), "game_seconds": round(t_game, 2),
        "unsigned_mutants": unsigned, "unsigned_per_second": round(unsigned / found.unsigned_seconds),
        "unsigned_phase_seconds": round(t2 - t1, 2),
        "resigned_mutants": resigned, "resigned_seconds": round(t3 - t2, 2),
        "verifier_runs": verified, "verifier_seconds": round(t4 - t3, 2),
        "early_messages": early, "early_sessions": args.early_sessions,
        "early_seconds": round(t5 - t4, 2), "hangs": found.hangs,
        "mutations": dict(sorted(found.ops.items())),
        "uncaught_exceptions": found.exceptions, "exception_examples": found.examples,
        "honest_seat_blamed": found.honest_blamed, "unsigned_mutant_aborts": found.unsigned_aborts,
        "ok": ok, "python": platform.python_version(),
    }, indent=1, sort_keys=True))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
