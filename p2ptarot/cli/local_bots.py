"""Bot seats as local processes (`host --bots N`, a table hosted from the `p2ptarot web` page):
each one is `p2ptarot join URL --bot`, bound to the host's interface, with its own data
directory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


class LocalBots:
    def __init__(self, count: int, data_dir: Path, interface: str | None, timeout: int,
                 lobby_timeout: float) -> None:
        self.count, self.data_dir, self.interface = count, data_dir, interface
        self.timeout, self.lobby_timeout = timeout, lobby_timeout
        self.children: list[subprocess.Popen[bytes]] = []

    def command(self, url: str, k: int) -> list[str]:
        cmd = [sys.executable, "-m", "p2ptarot.cli.main", "join", url, "--bot", "--quiet",
               "--name", f"bot-{k}", "--data-dir", str(self.data_dir / f"bot-{k}"),
               "--timeout", str(self.timeout), "--lobby-timeout", str(self.lobby_timeout)]
        if self.interface:
            cmd += ["--interface", self.interface]
        return cmd

    def spawn(self, url: str) -> None:
        """Start the bots, dialling the host at `url` (called once the table listens)."""
        for k in range(1, self.count + 1):
            self.children.append(subprocess.Popen(self.command(url, k), stdout=subprocess.DEVNULL))

    def stop(self, finished: bool) -> None:
        """Wait for the bots; when the host's game did not finish they have no table: end them."""
        for child in self.children:
            if not finished:
                child.terminate()
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
