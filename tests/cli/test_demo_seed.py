"""Issue 26: `p2ptarot demo --seed N` plays the same game twice (the deal, the draws and the
bots' choices all derive from N), so that every game can be benchmarked repeatably."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _demo(tmp: Path, name: str, seed: int) -> tuple[dict, list[dict]]:
    out = tmp / f"{name}.jsonl"
    # one deal of the three roses (a whole game, a third of sinople's steps): three demos run
    proc = subprocess.run([sys.executable, "-m", "p2ptarot.cli.main", "demo", "--game",
                           "trois-roses", "--variant", "single-deal", "--players", "3",
                           "--seed", str(seed), "--json", "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout.splitlines()[-1])
    return summary, [json.loads(line) for line in out.read_text().splitlines()]


def _moves(lines: list[dict]) -> list[tuple[int, dict]]:
    return [(e["seat"], e["body"]["move"]) for e in lines[1:] if e["kind"] == "move"]


def test_two_demos_with_one_seed_play_the_same_game(tmp_path: Path) -> None:
    first, a = _demo(tmp_path, "a", 7)
    second, b = _demo(tmp_path, "b", 7)
    assert first["verified"] and second["verified"]
    assert a[0] == b[0]  # the same signed charter: same keys, ports and nonce, so the same draws
    assert len(_moves(a)) > 10
    assert _moves(a) == _moves(b)  # the same deal and the same choices, move for move
    assert (first["scores"], first["winners"]) == (second["scores"], second["winners"])
    other, c = _demo(tmp_path, "c", 8)
    assert other["verified"] and c[0] != a[0]  # another seed, another table


def test_a_seeded_stream_replaces_the_os_for_permutations_only() -> None:
    from p2ptarot.mental.randomness import SeededRandomSource
    from p2ptarot.table.secrets import EpochKeySource

    seed, table = bytes(range(32)), b"t" * 32
    one = EpochKeySource(seed, table, SeededRandomSource(b"s"))
    two = EpochKeySource(seed, table, SeededRandomSource(b"s"))
    assert one.random_bytes(48) == two.random_bytes(48)  # a seeded test stream repeats
    one.arm("deck", 0)
    key = one.random_bytes(64)
    os_source = EpochKeySource(seed, table)
    os_source.arm("deck", 0)
    assert os_source.random_bytes(64) == key  # epoch keys come from the game seed either way
    assert os_source.random_bytes(48) != os_source.random_bytes(48)  # without a stream: the OS
