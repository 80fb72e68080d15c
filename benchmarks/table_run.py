"""Run one networked table of N bot peers (separate processes, everything on 127.0.0.1) from a
given checkout, and time it: process start, imports, the first move, the end, CPU, wire bytes.

Shared by `startup.py` and `whole_game.py`. Each peer runs the checkout's own `p2ptarot` CLI under
a small wrapper that writes timestamps (after its imports, and at each step through the runner's
debug log; "after its imports" is after `p2ptarot.cli.main` and `p2ptarot.cli.peer`, which every
build has: the network stack, without the game package and zeroconf that a lazy build loads
later), so two builds can be measured side by side: pass the other checkout as `root` (it
needs its own `.venv`).
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

#: what every peer process runs first (once in the launcher of a forking build): counters
#: wrapped around the signatures and the links' writes, the command line's modules imported with
#: the collector held, then `_peer(log, ready, ops, argv)` for each peer
_PRELUDE = r"""
import time, sys, json
import os
_spied = set()  # the processes py-spy samples already
def _spy(name):  # profile_peers.py: "py-spy binary:out dir", on-CPU samples of this process
    if os.environ.get('P2PTAROT_PYSPY') and os.getpid() not in _spied:
        import subprocess
        _spied.add(os.getpid())
        _bin, _dir = os.environ['P2PTAROT_PYSPY'].split(':')
        subprocess.Popen([_bin, 'record', '--pid', str(os.getpid()), '--nonblocking', '-r', '250',
                          '-f', 'raw', '-o', _dir + '/' + name + '.spy'],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.3)
_spy(os.path.basename(sys.argv[2]))  # a peer's own interpreter, or the launcher ("launcher")
import logging
def _status():  # this process's CPU and memory now (kB from /proc/self/status), for the phases file
    mem = {}
    with open('/proc/self/status') as fh:
        for ln in fh:
            key, _, val = ln.partition(':')
            if key in ('VmRSS', 'VmHWM', 'RssAnon', 'RssFile', 'Threads'):
                mem[key] = int(val.split()[0])
    return {'cpu': round(time.process_time(), 3), **mem}
_phases = {}
_high = {'peak': 0, 'at': 0}  # the heap's high-water marks during the table (tracemalloc only)
if os.environ.get('P2PTAROT_TRACEMALLOC'):  # where the Python heap goes, by package (slows the peer)
    import re as _re, tracemalloc
    tracemalloc.start()  # one frame: deeper tracebacks made a peer tens of times slower
    def _where(name):  # a file's package: its site-packages top, p2ptarot's module, or stdlib's
        m = _re.search(r'(?:site-packages|dist-packages)/([^/]+)', name)
        if m:
            return m.group(1).removesuffix('.py')
        m = _re.search(r'/(p2ptarot/.*)\.py$', name)
        if m:
            return m.group(1)
        m = _re.search(r'/python3\.\d+/([^/]+)', name)
        return 'stdlib/' + m.group(1).removesuffix('.py') if m else name
    def _heap():  # kB held now, by the allocating line's package, and the heaviest lines
        now, peak = tracemalloc.get_traced_memory()  # before the snapshot's own objects
        peak = max(peak, _high['peak'])
        lines = tracemalloc.take_snapshot().statistics('lineno')
        by = {}
        for st in lines:
            k = _where(st.traceback[0].filename)
            by[k] = by.get(k, 0) + st.size
        top = lambda d: {k: v // 1024 for k, v in sorted(d.items(), key=lambda kv: -kv[1])[:25]}
        return {'traced_kb': now // 1024, 'peak_kb': peak // 1024, 'by_package_kb': top(by),
                'by_line_kb': {_where(st.traceback[0].filename) + ':' + str(st.traceback[0].lineno):
                               st.size // 1024 for st in lines[:25]}}
try:  # as `python -m p2ptarot.cli.main` loads a command (issue 36): no collection while the
    from p2ptarot._startup import collector_held as _held  # modules load, then they are frozen
except ImportError:  # a build before that lever
    import contextlib
    _held = lambda freeze: contextlib.nullcontext()
_hold = _held(freeze=True)
_hold.__enter__()
# the floor's operations: signatures counted by wrapping them before any module binds the names
import p2ptarot.crypto.signing as _sg
_sigs = {'sign': 0, 'verify': 0}
_sign, _verify = _sg.Identity.sign, _sg.verify_signature
def _counted_sign(self, data):
    _sigs['sign'] += 1
    return _sign(self, data)
def _counted_verify(*a, **k):
    _sigs['verify'] += 1
    return _verify(*a, **k)
_sg.Identity.sign, _sg.verify_signature = _counted_sign, _counted_verify
from p2ptarot.cli.main import main
import p2ptarot.cli.peer  # host/join's own modules (imported lazily since issue 16): "ready" is the same point in every build
import os
_wire = None
if os.environ.get('P2PTAROT_WIRE_COUNT'):  # wire_bytes.py: count what this peer hands its links
    import atexit, collections, hashlib, json
    _wire = sent, frames = collections.Counter(), collections.Counter()
    _links = {}  # connection -> hashes of the envelopes already handed to it (repeats counted)
    def _count(conn, data):
        text = data if isinstance(data, str) else data.decode()
        at = text.find('"ctl":"', 0, 120)
        if at >= 0:
            kind = text[at + 7:text.find('"', at + 7)]
        elif text.startswith(('{"hello"', '{"proof"', '{"ready"')):
            kind = 'handshake'  # the link's own frames
        else:
            kind = 'envelope'
        sent[kind] += len(text.encode()); frames[kind] += 1
        if kind == 'envelope':  # 'repeat' is a part of 'envelope', not a kind of its own
            seen = _links.setdefault(id(conn), set())
            h = hashlib.sha256(text.encode()).digest()
            if h in seen:
                sent['repeat'] += len(text.encode()); frames['repeat'] += 1
                if os.environ.get('P2PTAROT_WIRE_REPEATS'):  # which ones (diagnosis)
                    import traceback
                    logging.getLogger('p2ptarot.peer.game').warning(
                        'repeat %s %s', text[:160], ''.join(traceback.format_stack(limit=8)))
            seen.add(h)
    try:  # the link core's carrier (issue 32): every frame goes through `_write(conn, data)`
        from p2ptarot.net import wsmesh as _mesh_mod
        _cls, _name = _mesh_mod.Mesh, '_write'
    except ImportError:  # before it: `_send_frame` (bytes encoded once, issue 26) or `_send_text`
        from p2ptarot.net import transport as _mesh_mod
        _cls = _mesh_mod.Mesh
        _name = '_send_frame' if hasattr(_cls, '_send_frame') else '_send_text'
    _send = getattr(_cls, _name)
    async def _counted(self, link, data):
        ok = await _send(self, link, data)
        if ok:
            _count(link, data)
        return ok
    setattr(_cls, _name, _counted)
from p2ptarot.crypto.group import count_ops

def _peer(log, ready, ops, argv):
    # one peer's table: its log (the step lines), its "ready" time, its counted operations,
    # its CPU and memory phases, optionally its profile
    _spy(os.path.basename(ready))  # a forked peer: sampled from here on (its own interpreter is already)
    logging.basicConfig(level=logging.WARNING, filename=log, format='%(created).4f %(message)s')
    logging.getLogger('p2ptarot.peer.game').setLevel(logging.DEBUG)
    if _wire is not None:
        _out = os.environ['P2PTAROT_WIRE_COUNT'] + '/' + os.path.basename(ready) + '.wire.json'
        atexit.register(lambda: open(_out, 'w').write(json.dumps({'bytes': _wire[0], 'frames': _wire[1]})))
    with open(ready, 'w') as fh:
        fh.write(str(time.time()))
    _phases['ready'] = _status()  # after the imports, before the table
    if os.environ.get('P2PTAROT_TRACEMALLOC'):
        _phases['tracemalloc_ready'] = _heap()
        tracemalloc.reset_peak()  # the snapshot's own objects made the peak: from here, the table's
        class _HighWater(logging.Handler):
            # at each step logged, while the table's state is alive (it is gone once the command
            # returns): a new snapshot each time the heap has grown 1 MB past the last one, so the
            # last one kept is the table at its largest
            def emit(self, record):
                now, peak = tracemalloc.get_traced_memory()
                if now > _high['at'] + (1 << 20):
                    _high['peak'] = max(_high['peak'], peak)
                    summary = _heap()
                    _high['at'] = now
                    tracemalloc.reset_peak()
                    _phases['tracemalloc_high'] = {**summary, 'step_record': record.getMessage()[:60]}
        _high['at'] = tracemalloc.get_traced_memory()[0]
        logging.getLogger('p2ptarot.peer.game').addHandler(_HighWater(logging.DEBUG))
    _prof = None
    if os.environ.get('P2PTAROT_CPROFILE'):  # where a peer's CPU goes, function by function (the
        import cProfile  # table only: imports are done); CPU clock, so waiting for a core is not counted
        _prof = cProfile.Profile(time.process_time)
    rc = 1
    try:
        with count_ops() as _n:
            if _prof is not None:
                _prof.enable()
            rc = main(argv)
    finally:
        if _prof is not None:
            _prof.disable()
            _prof.dump_stats(os.environ['P2PTAROT_CPROFILE'] + '/' + os.path.basename(ready) + '.prof')
        with open(ops, 'w') as fh:
            json.dump({'var_mul': _n.var_mul, 'base_mul': _n.base_mul, 'add': _n.add,
                       'validate': _n.validate, **_sigs}, fh)
        _phases['end'] = _status()  # the table done, before the interpreter's teardown
        if os.environ.get('P2PTAROT_TRACEMALLOC'):
            _phases['tracemalloc'] = _heap()
        with open(ops + '.phases.json', 'w') as fh:
            json.dump(_phases, fh)
    return rc
"""

#: one peer in its own fresh interpreter: argv is log, ready, ops, then the command line
_WRAPPER = _PRELUDE + r"""
_hold.__exit__(None, None, None)
sys.exit(_peer(*sys.argv[1:4], sys.argv[4:]))
"""

#: a build whose demo forks its peers (`p2ptarot.cli.launch`, issue 36): one launcher process
#: imports the stack once, as `p2ptarot demo` does, and forks every peer from it; argv is the
#: game, the file where the launcher writes each peer's own CPU and peak RSS (from `os.wait4`),
#: then one JSON list per peer: its log, ready and ops files, its stdout file, its command line.
#: Each peer is a session of its own, as each fresh interpreter of `_WRAPPER` is
#: (`start_new_session`): with the scheduler's autogroups, four peers in one session would get
#: one session's share of a loaded machine against four; their pids go to "<usage file>.pids"
_FORK_WRAPPER = _PRELUDE + r"""
from p2ptarot.cli import launch
launch.preload(sys.argv[1])
_hold.__exit__(None, None, None)
assert launch.can_fork()
_kids = []
_null = os.open(os.devnull, os.O_WRONLY)
for _spec in sys.argv[3:]:
    _log, _ready, _ops, _outfile, _argv = json.loads(_spec)
    _fd = os.open(_outfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    _kids.append(launch.fork_peer(_argv, stdout=_fd, stderr=_null, new_session=True,
                                  run=lambda a, f=(_log, _ready, _ops): _peer(*f, a)))
    os.close(_fd)
with open(sys.argv[2] + '.pids', 'w') as fh:
    fh.write(' '.join(str(k.pid) for k in _kids))
_usage = {}
for _k, _kid in enumerate(_kids):
    _pid, _st, _ru = os.wait4(_kid.pid, 0)
    _usage[_k] = {'rc': os.waitstatus_to_exitcode(_st), 'cpu': _ru.ru_utime + _ru.ru_stime,
                  'maxrss': _ru.ru_maxrss}
with open(sys.argv[2], 'w') as fh:
    json.dump([_usage[k] for k in range(len(_kids))], fh)
_me = __import__('resource').getrusage(__import__('resource').RUSAGE_SELF)
print(json.dumps({'launcher_cpu': _me.ru_utime + _me.ru_stime, 'launcher_maxrss': _me.ru_maxrss}))
sys.exit(0 if all(u['rc'] == 0 for u in _usage.values()) else 1)
"""


def forks_its_peers(root: Path) -> bool:
    """Whether checkout `root`'s demo forks its peers from one launcher (issue 36), unless the
    environment sets `P2PTAROT_BENCH_NO_FORK` (a benchmark comparing the two ways of starting
    the same build's peers: then each peer is a fresh interpreter, as before forking)."""
    if os.environ.get("P2PTAROT_BENCH_NO_FORK"):
        return False
    return (root / "p2ptarot/cli/launch.py").exists()


_FIRST_MOVE = re.compile(r"^(\d+\.\d+) step \d+: .*move by seat")
_STEP = re.compile(r"^(\d+\.\d+) step (\d+):")


@dataclass
class TableRun:
    """Timings of one table, in seconds from the moment the first process was spawned."""

    peers: int
    game: str
    spawned: float | None = None  # time.time() when the first process was spawned
    ready: float | None = None  # every peer process has finished importing
    first_move: float | None = None  # the host's first move step started (cards dealt)
    last_step: float | None = None
    end: float | None = None  # every process exited
    cpu: float | None = None  # user+sys of all peer processes (only when run to the end)
    steps: int | None = None
    wire_bytes: int | None = None  # envelope bytes sent: transcript lines x (peers - 1)
    #: with `count_wire`: bytes and frames every peer handed its links, by kind ("envelope" or
    #: the control frame's `ctl`), summed over the peers
    sent: dict[str, dict[str, int]] | None = None
    transcript: str | None = None
    results: list[str] = field(default_factory=list)
    #: group operations and signatures of all peers (the floor's inputs; see `floor_seconds`)
    ops: dict[str, int] = field(default_factory=dict)
    #: per peer (host first), from `os.wait4` on each process: its own user+sys CPU seconds and
    #: its peak resident set (ru_maxrss, MB) over its whole life, imports and teardown included
    peer_cpu: list[float] = field(default_factory=list)
    peer_rss_mb: list[float] = field(default_factory=list)
    #: per peer: CPU seconds and memory (kB, /proc/self/status) after the imports ("ready") and
    #: when the table is done ("end", before the teardown); "tracemalloc" with that switch on
    peer_phases: list[dict[str, object]] = field(default_factory=list)
    peer_ops: list[dict[str, int]] = field(default_factory=list)  # `ops`, peer by peer
    #: a forking build (`forks_its_peers`): the launcher's own CPU seconds (the imports every
    #: peer shares) and peak RSS (kB); its CPU is in `cpu`, not in any `peer_cpu`
    launcher: dict[str, float] | None = None

    @property
    def from_ready(self) -> float | None:
        if self.first_move is None or self.ready is None:
            return None
        return self.first_move - self.ready


def compile_bytecode(root: Path) -> None:
    """Compile checkout `root`'s package to bytecode, as installing it does (pip compiles every
    module at install; a source checkout writes `__pycache__` on its first run). Where
    PYTHONDONTWRITEBYTECODE is set (this machine's sessions set it), every peer process would
    otherwise compile each module from source again: 0.1-0.3 s of CPU per process that no
    installed peer pays, a quarter of a 4-seat game's import CPU in py-spy samples (issue 26)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([str(root / ".venv/bin/python"), "-m", "compileall", "-q", "p2ptarot"],
                   cwd=root, env=env, check=True, capture_output=True)


def _host_fingerprint(root: Path, data: Path, test_seed: int | None = None) -> str:
    arg = "" if test_seed is None else str(test_seed)
    code = ("import sys; from " + _store(root) + " import DataDir; "
            "print(DataDir(__import__('pathlib').Path(sys.argv[1])).identity(" + arg + ").fingerprint)")
    out = subprocess.run([str(root / ".venv/bin/python"), "-c", code, str(data)], cwd=root,
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def seeds_the_deal(root: Path) -> bool:
    """Whether checkout `root`'s peers take `--test-seed` (a repeatable deal, issue 26)."""
    return "--test-seed" in (root / "p2ptarot/cli/peer.py").read_text()


def _free_ports(seed: int, n: int) -> list[int]:
    """The ports `p2ptarot demo --seed` would pick (they are in the charter: same seed, same
    table id, same draws)."""
    start = 20000 + (seed * 7919) % 30000
    for base in range(start, start + 100 * n, n):
        try:
            for port in range(base, base + n):
                with socket.socket() as s:
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                    s.bind(("127.0.0.1", port))
        except OSError:
            continue
        return list(range(base, base + n))
    raise RuntimeError("no free ports")


def run_table(root: Path, game: str, peers: int, *, stop_at_first_move: bool = False,
              seed: int = 1, timeout: float = 900.0, count_wire: bool = False,
              env: dict[str, str] | None = None) -> TableRun:
    """One table from checkout `root`; stop (kill) once the first move is due, or play to the end.
    `count_wire`: also count the bytes every peer sends (`TableRun.sent`). A checkout whose peers
    take `--test-seed` deals the same cards for the same `seed`. `env`: more environment for
    every peer (`move_latency.py`: the step trace's directory)."""
    work = Path(tempfile.mkdtemp(prefix="p2ptarot-bench-"))
    py = str(root / ".venv/bin/python")
    seeded = seeds_the_deal(root)
    ports = _free_ports(seed, peers) if seeded else []
    fp = _host_fingerprint(root, work / "peer-0", seed if seeded else None)
    common = ["--bot", "heuristic", "--quiet", "--interface", "127.0.0.1", "--lobby-timeout", "120"]
    procs: list[subprocess.Popen[str]] = []
    run = TableRun(peers=peers, game=game)
    forked = forks_its_peers(root)  # one launcher forks them all, as that build's demo does
    penv = {**os.environ, **(env or {})}
    if count_wire:
        penv["P2PTAROT_WIRE_COUNT"] = str(work)
    specs = []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = run.spawned = time.time()
    try:
        for k in range(peers):
            files = [str(work / f"log{k}.txt"), str(work / f"ready{k}.txt"), str(work / f"ops{k}.json")]
            if k == 0:
                args = ["host", "--game", game, "--seats", str(peers), "--name", "p0"]
            else:
                args = ["join", fp, "--game", game, "--name", f"p{k}"]
            args += ["--data-dir", str(work / f"peer-{k}"), "--seed", str(seed + k)] + common
            if seeded:
                args += ["--test-seed", str(seed + k), "--port", str(ports[k])]
            if forked:
                specs.append(json.dumps([*files, str(work / f"out{k}.txt"), args]))
                continue
            with open(work / f"out{k}.txt", "w") as out:  # a file, not a pipe: see _reap
                procs.append(subprocess.Popen([py, "-c", _WRAPPER, *files, *args], cwd=root,
                                              stdout=out, stderr=subprocess.DEVNULL,
                                              text=True, start_new_session=True, env=penv))
        if forked:
            with open(work / "launcher.txt", "w") as out:
                procs.append(subprocess.Popen(
                    [py, "-c", _FORK_WRAPPER, game, str(work / "launcher"), *specs], cwd=root,
                    stdout=out, stderr=subprocess.DEVNULL, text=True, start_new_session=True,
                    env=penv))
        host_log = work / "log0.txt"
        deadline = time.monotonic() + timeout
        if stop_at_first_move:
            while run.first_move is None and time.monotonic() < deadline:
                time.sleep(0.02)
                if host_log.exists():
                    for line in host_log.read_text().splitlines():
                        m = _FIRST_MOVE.match(line)
                        if m:
                            run.first_move = float(m.group(1)) - t0
                            break
                if any(p.poll() is not None for p in procs):
                    break
            _kill_forked(work)
            for p in procs:
                if p.poll() is None:
                    os.killpg(p.pid, signal.SIGKILL)
            for p in procs:
                p.wait()
        else:
            usage = _reap(procs, deadline)
            run.end = time.time() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            run.cpu = round((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), 3)
            if forked:  # each peer's own, from the launcher's os.wait4 (the shared imports: its own)
                launched = json.loads((work / "launcher").read_text())
                run.peer_cpu = [round(u["cpu"], 3) for u in launched]
                run.peer_rss_mb = [round(u["maxrss"] / 1024, 1) for u in launched]
                run.launcher = json.loads((work / "launcher.txt").read_text().splitlines()[-1])
            else:
                run.peer_cpu = [round(u.ru_utime + u.ru_stime, 3) for u in usage]
                run.peer_rss_mb = [round(u.ru_maxrss / 1024, 1) for u in usage]  # Linux: kB
            outs = [(work / f"out{k}.txt").read_text() for k in range(peers)]
            for out in outs:
                line = next((ln for ln in reversed(out.splitlines()) if ln.startswith("{")), "{}")
                run.results.append(json.loads(line).get("result", "no result"))
            first = next((ln for ln in reversed(outs[0].splitlines()) if ln.startswith("{")), "{}")
            run.transcript = json.loads(first).get("transcript")
            _read_steps(run, host_log, t0)
            for k in range(peers):
                path = work / f"ops{k}.json"
                if path.exists():
                    counted = json.loads(path.read_text())
                    run.peer_ops.append(counted)
                    for key, v in counted.items():
                        run.ops[key] = run.ops.get(key, 0) + v
                phases = work / f"ops{k}.json.phases.json"
                run.peer_phases.append(json.loads(phases.read_text()) if phases.exists() else {})
            if run.transcript and Path(run.transcript).exists():
                lines = Path(run.transcript).read_bytes().splitlines()[1:]
                run.wire_bytes = sum(len(ln) + 1 for ln in lines) * (peers - 1)
                keep = Path(tempfile.mkdtemp(prefix="p2ptarot-bench-transcript-")) / "t.jsonl"
                shutil.copyfile(run.transcript, keep)
                run.transcript = str(keep)
        if count_wire and run.end is not None:
            run.sent = {"bytes": {}, "frames": {}}
            for path in work.glob("*.wire.json"):
                counts = json.loads(path.read_text())
                for what in ("bytes", "frames"):
                    for kind, n in counts[what].items():
                        run.sent[what][kind] = run.sent[what].get(kind, 0) + n
        readies = [work / f"ready{k}.txt" for k in range(peers)]
        if all(r.exists() for r in readies):
            run.ready = max(float(r.read_text()) for r in readies) - t0
        return run
    finally:
        if any(p.poll() is None for p in procs):
            _kill_forked(work)
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
        shutil.rmtree(work, ignore_errors=True)


def _kill_forked(work: Path) -> None:
    """End the peers a launcher forked (each leads a session of its own: see _FORK_WRAPPER)."""
    pids = work / "launcher.pids"
    if not pids.exists():
        return
    for pid in pids.read_text().split():
        try:
            os.killpg(int(pid), signal.SIGKILL)
        except ProcessLookupError:
            pass


def _reap(procs: list[subprocess.Popen[str]], deadline: float) -> list[resource.struct_rusage]:
    """Wait for every peer with `os.wait4`, which hands back that process's own resource usage
    (CPU, peak RSS) as it is reaped; `Popen.wait` would reap it and drop them. Their stdout
    goes to files, so no pipe needs draining meanwhile."""
    usage: dict[int, resource.struct_rusage] = {}
    while len(usage) < len(procs):
        if time.monotonic() > deadline:
            raise subprocess.TimeoutExpired([p.args for p in procs], 0)
        for k, p in enumerate(procs):
            if k in usage:
                continue
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                p.returncode = os.waitstatus_to_exitcode(status)
                usage[k] = ru
        time.sleep(0.05)
    return [usage[k] for k in range(len(procs))]


def _read_steps(run: TableRun, host_log: Path, t0: float) -> None:
    if not host_log.exists():
        return
    last = None
    for line in host_log.read_text().splitlines():
        if run.first_move is None and (m := _FIRST_MOVE.match(line)):
            run.first_move = float(m.group(1)) - t0
        if m := _STEP.match(line):
            last = (float(m.group(1)) - t0, int(m.group(2)))
    if last is not None:
        run.last_step, run.steps = last


def _store(root: Path) -> str:
    """The data-directory module of checkout `root` (net.store before the peer package)."""
    return "p2ptarot.peer.store" if (root / "p2ptarot/peer/store.py").exists() else "p2ptarot.net.store"


def verify_seconds(root: Path, transcript: str) -> float:
    """Wall time of verifying `transcript` with checkout `root`'s verifier (imports excluded)."""
    code = ("import sys, time; from pathlib import Path; "
            "from " + _store(root) + " import read_transcript; "
            "from p2ptarot.transcript import verify_transcript; "
            "t = read_transcript(Path(sys.argv[1])); t0 = time.perf_counter(); "
            "v = verify_transcript(t); dt = time.perf_counter() - t0; "
            "assert v.valid, v; print(dt)")
    out = subprocess.run([str(root / ".venv/bin/python"), "-c", code, transcript], cwd=root,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


#: what `unit_costs` prints: microseconds of each floor operation, fastest of many batches
_UNITS = r"""
import json, time
from p2ptarot.crypto.group import Point, Scalar, base_mul, hash_to_point
from p2ptarot.crypto.signing import Identity, verify_signature
k = Scalar.random(); P = hash_to_point("floor", b"P"); Q = hash_to_point("floor", b"Q")
enc = P.encode(); me = Identity.generate(); sig = me.sign(b"m"); pub = me.public_bytes
def unit(fn):
    best = float("inf")
    for _ in range(25):
        t0 = time.process_time()
        for _ in range(50):
            fn()
        best = min(best, (time.process_time() - t0) / 50 * 1e6)
    return round(best, 2)
print(json.dumps({"var_mul": unit(lambda: P * k), "base_mul": unit(lambda: base_mul(k)),
                  "add": unit(lambda: P + Q), "validate": unit(lambda: Point.decode(enc)),
                  "sign": unit(lambda: me.sign(b"m" * 64)),
                  "verify": unit(lambda: verify_signature(pub, b"m", sig))}))
"""


def unit_costs(root: Path) -> dict[str, float]:
    """CPU microseconds of each floor operation (libsodium through rbcl; Ed25519 through
    cryptography), measured by checkout `root`'s interpreter."""
    out = subprocess.run([str(root / ".venv/bin/python"), "-c", _UNITS], cwd=root,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def floor_seconds(ops: dict[str, int], units: dict[str, float]) -> float | None:
    """The game's floor: its counted group operations and signatures at their unit costs."""
    if not ops:
        return None
    return round(sum(n * units[k] for k, n in ops.items() if k in units) / 1e6, 3)
