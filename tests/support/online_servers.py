"""The Internet's servers for online-play tests: a NOSTR relay (the `nostr-relay` package) and
coturn (`turnserver`) for STUN and TURN, each started as a real process on an address the test
chose (127.0.0.1, or a host of a namespace rig), stopped by the caller or the rig.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: a relay that stores but carries no ephemeral event (`start_relay(extra_validators=...)`)
REFUSES_EPHEMERAL = "relay_rules.refuses_ephemeral"
#: the relay's limits as a real relay would have them: the package's own default cap on an
#: event's content (4096 characters) and a rate limit on events per client address
RELAY_EVENT_LIMIT = 4096
RELAY_RATE_LIMIT = "60/s,3000/min"  # per client address: on 127.0.0.1 every peer shares it


class ServerError(RuntimeError):
    """A server could not be started (missing program, port never opened)."""


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _relay_config(db: Path, host: str, port: int, event_limit: int, rate_limit: str,
                  extra_validators: Sequence[str] = (), auth: bool = False) -> str:
    validators = "".join(f"\n    - {v}" for v in extra_validators)
    return f"""DEBUG: false
relay_name: p2ptarot test relay
storage:
  sqlalchemy.url: sqlite+aiosqlite:///{db}
  num_concurrent_reqs: 10
  num_concurrent_adds: 2
  validators:
    - nostr_relay.validators.is_not_too_large
    - nostr_relay.validators.is_signed
    - nostr_relay.validators.is_recent{validators}
max_event_size: {event_limit}
rate_limits:
  ip:
    EVENT: "{rate_limit}"
gunicorn:
  bind: {host}:{port}
  host: {host}  # read by the uvicorn server (it takes only the port from bind)
  workers: 1
  loglevel: warning
verification:
  nip05_verification: disabled
authentication:
  enabled: {str(auth).lower()}
  relay_urls: ["ws://{host}:{port}"]
  actions:
    save: w
    query: arw
message_timeout: 1800
subscription_limit: 64
max_limit: 6000
logging:
  version: 1
  root:
    level: WARNING
"""


@dataclass
class Relay:
    """A running `nostr-relay` process; `stored()` reads what it kept, from its sqlite file."""

    url: str
    db: Path
    proc: subprocess.Popen
    log: Path

    def stored(self) -> list[dict[str, object]]:
        """Every event the relay stored: id, kind, pubkey, tags and content, as it holds them."""
        with sqlite3.connect(self.db) as conn:
            conn.row_factory = sqlite3.Row
            table = next(r[0] for r in conn.execute(
                "select name from sqlite_master where type='table' and name like 'event%'"))
            return [dict(r) for r in conn.execute(f"select * from {table}")]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _wait_port(prefix: Sequence[str], host: str, port: int, proc: subprocess.Popen,
               log: Path, timeout: float = 30.0) -> None:
    """Wait until something accepts TCP on host:port (probed from inside the namespace)."""
    probe = [sys.executable, "-c",
             f"import socket;socket.create_connection(({host!r},{port}),1).close()"]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise ServerError(f"{Path(proc.args[-1]).name if isinstance(proc.args, list) else proc.args}"
                              f" exited {proc.returncode}: {log.read_text()[-2000:]}")
        if subprocess.run([*prefix, *probe], capture_output=True).returncode == 0:
            return
        time.sleep(0.2)
    raise ServerError(f"nothing listens on {host}:{port} after {timeout} s: {log.read_text()[-2000:]}")


def start_relay(workdir: Path, host: str = "127.0.0.1", port: int | None = None,
                prefix: Sequence[str] = (), popen=None, event_limit: int = RELAY_EVENT_LIMIT,
                rate_limit: str = RELAY_RATE_LIMIT, extra_validators: Sequence[str] = (),
                extra_config: str = "", auth_writers: Sequence[str] = ()) -> Relay:
    """Start `nostr-relay` on host:port (inside a namespace when `prefix`/`popen` are given),
    with its content cap and rate limit switched on (``extra_validators``: more of the
    package's validators, with ``extra_config`` the settings they read).  With
    ``auth_writers`` (x-only public keys), NIP-42 is switched on: the relay sends every
    connection an AUTH challenge and stores events only from connections authenticated as
    one of them (nostr-relay's `nostr_relay.auth` module; anyone may read)."""
    exe = Path(sys.executable).with_name("nostr-relay")
    if not exe.exists():
        raise ServerError(f"{exe} is missing: `pip install -e .[test]` installs nostr-relay")
    workdir = workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    port = port or free_port("127.0.0.1" if not prefix else "127.0.0.1")
    db = workdir / "relay.sqlite3"
    config = workdir / "relay.yaml"
    config.write_text(_relay_config(db, host, port, event_limit, rate_limit, extra_validators,
                                    bool(auth_writers)) + extra_config)

    log = workdir / "relay.log"
    cmd = [str(exe), "-c", str(config), "serve", "--use-uvicorn"]
    out = open(log, "w")
    # the validators of tests/support/relay_rules.py load by their dotted path
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).parent)] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
    proc = (popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=workdir, env=env) if popen
            else subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=workdir,
                                  start_new_session=True, env=env))
    _wait_port(prefix, host, port, proc, log)
    for pubkey in auth_writers:  # the relay's own command writes its role table (created by
        # the serving relay; no network)
        subprocess.run([str(exe), "-c", str(config), "role", "set", "-p", pubkey, "-r", "w"],
                       check=True, capture_output=True, cwd=workdir, timeout=60)
    return Relay(f"ws://{host}:{port}", db, proc, log)


@dataclass
class SdkRelay:
    """A running rust-nostr `LocalRelay` (tests/support/sdk_relay.py): a second relay
    implementation with its own limits (a rate limit per connection and minute, no NIP-11,
    events kept in memory only)."""

    url: str
    proc: subprocess.Popen
    log: Path

    def stop(self) -> None:
        Relay.stop(self)  # type: ignore[arg-type]


SDK_RELAY = str(Path(__file__).parent / "sdk_relay.py")


def start_sdk_relay(workdir: Path, host: str = "127.0.0.1", port: int | None = None,
                    prefix: Sequence[str] = (), popen=None, notes_per_minute: int = 1200,
                    max_content: int = 65536, no_ephemeral: bool = False) -> SdkRelay:
    """Start the nostr-sdk relay on host:port (inside a namespace with `prefix`/`popen`)."""
    workdir = workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    log = workdir / "sdk-relay.log"
    cmd = [sys.executable, SDK_RELAY, "--host", host, "--port", str(port), "--notes-per-minute",
           str(notes_per_minute), "--max-content", str(max_content)]
    cmd += ["--no-ephemeral"] if no_ephemeral else []
    out = open(log, "w")
    proc = (popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=workdir) if popen
            else subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=workdir,
                                  start_new_session=True))
    _wait_port(prefix, host, port, proc, log)
    return SdkRelay(f"ws://{host}:{port}", proc, log)


@dataclass
class Turn:
    """A running coturn: STUN and TURN (UDP and TCP) on one port, one long-term user."""

    host: str
    port: int
    user: str
    password: str
    proc: subprocess.Popen
    log: Path
    extra: list[str] = field(default_factory=list)

    @property
    def password_file(self) -> Path:
        """The password in a file only its owner reads (peers get the path, never the secret)."""
        path = self.log.parent / "turn.pass"
        if not path.exists():
            path.touch(mode=0o600)
            path.write_text(self.password + "\n")
        return path

    @property
    def stun_url(self) -> str:
        return f"stun:{self.host}:{self.port}"

    @property
    def turn_url(self) -> str:
        return f"turn:{self.host}:{self.port}"

    @property
    def turn_tcp_url(self) -> str:
        return f"turn:{self.host}:{self.port}?transport=tcp"


def start_turn(workdir: Path, host: str, popen, prefix: Sequence[str], port: int = 3478,
               user: str = "p2ptarot", password: str = "p2ptarot-test") -> Turn:
    """coturn bound to `host` only, with a static user; meant to run inside a rig namespace."""
    exe = shutil.which("turnserver")
    if exe is None:
        raise ServerError("turnserver is missing: run scripts/ensure-test-tools (apt coturn)")
    workdir = workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    log = workdir / "turn.log"
    (workdir / "turn.conf").write_text("# all settings are on the command line\n")
    cmd = [exe, "-c", str(workdir / "turn.conf"), "-n", "--listening-ip", host, "--relay-ip", host, "--external-ip", host,
           "--listening-port", str(port), "--min-port", "49152", "--max-port", "49999",
           "--lt-cred-mech", "--user", f"{user}:{password}", "--realm", "p2ptarot.test",
           "--fingerprint", "--no-cli", "--no-tls", "--no-dtls", "--no-multicast-peers",
           "--allow-loopback-peers", "--log-file", "stdout", "--simple-log",
           "--pidfile", str(workdir / "turn.pid"), "--userdb", str(workdir / "turn.db")]
    out = open(log, "w")
    proc = popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=workdir)
    _wait_port(prefix, host, port, proc, log)
    return Turn(host, port, user, password, proc, log)


# ---- what the online tests check ---------------------------------------------------------------
PROBE = str(Path(__file__).parent / "online_probe.py")
_IPV4 = re.compile(r"(?<![0-9.])(?:\d{1,3}\.){3}\d{1,3}(?![0-9.])")


def leaks(rows: list[dict[str, object]], secrets: list[str]) -> list[str]:
    """What a relay's stored events show that it should never have seen: an IPv4 address, a
    session description, or any of `secrets` (e.g. a table message's signature)."""
    found = []
    for row in rows:
        text = f"{row.get('tags')} {row.get('content')}"
        if isinstance(row.get("content"), bytes):
            text = f"{row.get('tags')} {row['content'].decode('utf-8', 'replace')}"  # type: ignore[union-attr]
        found += [f"address {m}" for m in _IPV4.findall(text)]
        found += [f"sdp {w}" for w in ("candidate", "a=fingerprint", "v=0") if w in text]
        found += [f"secret {s[:12]}" for s in secrets if s and s in text]
    return found


def run_probe(host, relay: Relay, *args: str, timeout: float = 180) -> "subprocess.CompletedProcess[str]":
    return host.run([sys.executable, PROBE, "--relay", relay.url, *args], timeout=timeout,
                    check=False)
