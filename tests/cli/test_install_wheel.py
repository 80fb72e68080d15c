"""A player's install (issue 33, item 12): `make dist` builds the wheel and the sdist; the wheel,
installed into a fresh virtual environment outside the repository, plays a full game on 127.0.0.1
(Les paris divins, the shortest: a bot host and two bot guests) and verifies its transcript, from
a directory that is not the repository (so nothing is imported from the checkout)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.lockfile_script import LOCK, lockfile

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.network
@pytest.mark.slow
def test_the_built_wheel_installs_in_a_fresh_venv_plays_and_verifies(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    made = subprocess.run(["make", "-C", str(ROOT), "dist", f"DIST={dist}"], capture_output=True,
                          text=True, timeout=600)
    assert made.returncode == 0, made.stdout[-2000:] + made.stderr[-2000:]
    wheels = sorted(dist.glob("p2ptarot-*.whl"))
    assert len(wheels) == 1 and len(sorted(dist.glob("p2ptarot-*.tar.gz"))) == 1
    venv = tmp_path / "player-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    # pip resolves the wheel's own declared dependencies (a missing one fails here), held to the
    # tested versions of the lock (so from pip's cache, and no new release changes the test)
    constraints = tmp_path / "constraints.txt"
    constraints.write_text("".join(f"{pin.name}=={pin.version}"
                                   + (f" ; {pin.marker}" if pin.marker else "") + "\n"
                                   for pin in lockfile().read_lock(LOCK)))
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                          "--constraint", str(constraints), str(wheels[0])],
                         capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stderr[-3000:]
    installed = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "list",
                                "--format=json"], capture_output=True, text=True, check=True)
    names = {p["name"].lower() for p in json.loads(installed.stdout)}
    assert {"aiortc", "cryptography", "rbcl", "zeroconf"} <= names
    assert "pytest" not in names  # only what the player needs
    exe = str(venv / "bin" / "p2ptarot")
    home = tmp_path / "player"
    home.mkdir()
    where = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import p2ptarot; print(p2ptarot.__file__)"],
                           capture_output=True, text=True, cwd=home, check=True)
    assert where.stdout.startswith(str(venv)), where.stdout  # the installed copy, not the checkout
    game = subprocess.run([exe, "host", "--game", "paris-divins", "--seats", "3", "--bots", "2",
                           "--bot", "--interface", "127.0.0.1", "--data-dir", str(home / "data"),
                           "--json"], capture_output=True, text=True, cwd=home, timeout=900)
    assert game.returncode == 0, game.stdout[-2000:] + game.stderr[-2000:]
    summary = json.loads(game.stdout.strip().splitlines()[-1])
    assert summary["result"] == "finished"
    checked = subprocess.run([exe, "verify", summary["transcript"]], capture_output=True,
                             text=True, cwd=home, timeout=600)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "valid" in checked.stdout.lower() or "verified" in checked.stdout.lower()
