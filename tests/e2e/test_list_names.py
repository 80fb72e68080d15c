"""`p2ptarot list` names who hosts each table (the host's --name, carried in its advert)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from p2ptarot.net.txt import TableInfo, decode_txt, encode_txt

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def test_the_host_name_survives_the_txt_record() -> None:
    info = TableInfo(game="sinople", variant="", seats_taken=1, seats_total=3, fingerprint="ABCD",
                     host_name="Hostess")
    assert decode_txt(encode_txt(info)).host_name == "Hostess"
    bare = {k: v for k, v in encode_txt(info).items() if k != "name"}  # an older host
    assert decode_txt(bare).host_name == ""


def test_list_shows_the_host_players_name(tmp_path: Path) -> None:
    host = subprocess.Popen(CLI + ["host", "--game", "sinople", "--seats", "2", "--bot", "--quiet",
                                   "--name", "Hostess", "--interface", "127.0.0.1",
                                   "--data-dir", str(tmp_path / "h"), "--lobby-timeout", "60"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        out = ""
        for _ in range(5):
            out = subprocess.run(CLI + ["list", "--interface", "127.0.0.1", "--timeout", "3"],
                                 capture_output=True, text=True, timeout=60).stdout
            if "Hostess" in out:
                break
        assert "HOSTED BY" in out.splitlines()[0]
        assert any("Hostess" in ln and "sinople" in ln and "1/2" in ln for ln in out.splitlines())
    finally:
        host.kill()
        host.wait()
