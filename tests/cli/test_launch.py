"""Issue 36 item 1: the demo forks its peers from one process that imported the peer stack.

Each test runs the launcher in a fresh interpreter (pytest's own process runs threads, and a
fork from it would copy them): a forked peer is a process of its own, with its own output,
exit status and randomness, and a fork is refused where a thread or an event loop runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def test_a_forked_peer_runs_its_command_line_in_its_own_process() -> None:
    out = _python(
        "import json, os\n"
        "from p2ptarot.cli import launch\n"
        "assert launch.can_fork()\n"
        "launch.preload('trois-roses')\n"
        "from p2ptarot.cli.main import main\n"
        "peer = launch.fork_peer(['games', '--json'], stdout=launch.PIPE, run=main)\n"
        "text, _ = peer.communicate(timeout=120)\n"
        "bad = launch.fork_peer(['no-such-command'], stdout=launch.PIPE, stderr=os.open(os.devnull, os.O_WRONLY), run=main)\n"
        "bad.communicate(timeout=120)\n"
        "print(json.dumps({'me': os.getpid(), 'peer': peer.pid, 'rc': peer.returncode,\n"
        "                  'bad_rc': bad.returncode, 'games': [g['name'] for g in json.loads(text)['games']]}))\n")
    got = json.loads(out.stdout.splitlines()[-1])
    assert got["peer"] != got["me"]
    assert got["rc"] == 0 and "arcanoid" in got["games"]  # its output came back through the pipe
    assert got["bad_rc"] == 2  # argparse's exit status, as a fresh interpreter would exit


def test_forked_peers_draw_their_own_keys_and_secrets() -> None:
    """Nothing random is drawn before the fork and shared by the peers after it."""
    out = _python(
        "import json\n"
        "from p2ptarot.cli import launch\n"
        "launch.preload('arcanoid')\n"
        "def draw(_argv):\n"
        "    from p2ptarot.crypto.group import Scalar\n"
        "    from p2ptarot.crypto.signing import Identity\n"
        "    import random\n"
        "    print(json.dumps([Identity.generate().public_bytes.hex(), Scalar.random().encode().hex(),\n"
        "                      random.random()]))\n"
        "    return 0\n"
        "peers = [launch.fork_peer([], stdout=launch.PIPE, run=draw) for _ in range(3)]\n"
        "print(json.dumps([json.loads(p.communicate(timeout=60)[0]) for p in peers]))\n")
    draws = json.loads(out.stdout.splitlines()[-1])
    for column in zip(*draws):
        assert len(set(column)) == 3, column  # keys, scalars and the bots' generator all differ


def test_no_fork_while_a_thread_or_an_event_loop_runs() -> None:
    out = _python(
        "import asyncio, threading\n"
        "from p2ptarot.cli import launch\n"
        "alone = launch.can_fork()\n"
        "stop = threading.Event()\n"
        "t = threading.Thread(target=stop.wait); t.start()\n"
        "with_thread = launch.can_fork()\n"
        "stop.set(); t.join()\n"
        "async def inside():\n"
        "    return launch.can_fork()\n"
        "in_loop = asyncio.run(inside())\n"
        "print(alone, with_thread, in_loop)\n")
    assert out.stdout.split() == ["True", "False", "False"]


def test_the_demo_starts_fresh_interpreters_where_it_cannot_fork() -> None:
    """A thread already running (or no os.fork): each peer is `python -m p2ptarot.cli.main`."""
    out = _python(
        "import json, subprocess, threading\n"
        "from p2ptarot.cli import demo, launch\n"
        "stop = threading.Event()\n"
        "t = threading.Thread(target=stop.wait); t.start()\n"
        "from p2ptarot.cli.main import main\n"
        "start = demo._starter('trois-roses', main)\n"
        "peer = start([*demo._INTERPRETER, 'games', '--json'])\n"
        "text, _ = peer.communicate(timeout=120)\n"
        "stop.set(); t.join()\n"
        "forked = launch.fork_peer(['games', '--json'], stdout=launch.PIPE, run=main)\n"
        "ftext, _ = forked.communicate(timeout=120)\n"
        "print(json.dumps([type(peer).__name__, peer.returncode, type(forked).__name__,\n"
        "                  json.loads(text) == json.loads(ftext)]))\n")
    assert json.loads(out.stdout.splitlines()[-1]) == ["Popen", 0, "ForkedPeer", True]


def test_forked_peers_find_the_bodies_validators_built() -> None:
    """Built once in the launcher (`SealedCommitment`'s alone is ~30 ms), not in every peer."""
    out = _python(
        "from p2ptarot.table import bodies\n"
        "models = (bodies.SealedCommitment, bodies.SecretSalt, bodies.MoveBody, bodies.CommitBody,\n"
        "          bodies.OpenBody, bodies.ResultBody)\n"
        "before = [type(m.__pydantic_validator__).__name__ for m in models]\n"
        "from p2ptarot.cli import launch\n"
        "launch.preload('sinople')\n"
        "print(' '.join(before)); print(' '.join(type(m.__pydantic_validator__).__name__ for m in models))\n")
    before, after = out.stdout.splitlines()[-2:]
    assert set(before.split()) == {"MockValSer"}  # deferred: a fresh interpreter builds at first use
    assert set(after.split()) == {"SchemaValidator"}
