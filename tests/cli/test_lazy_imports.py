"""Start-up cost guard (issue 16): a subcommand loads only what it uses.

Each case runs the real command in a fresh interpreter and reports which heavy modules ended up
in `sys.modules`: the offline commands never load the network stack (aiohttp, zeroconf), a
bot dialling a ws:// address never loads zeroconf, and a table of one game imports that game's
package only. Module presence, not time, is asserted (timings go to benchmarks/import_cost.py).
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "protocol" / "vectors" / "valid.jsonl"
NETWORK = ("aiohttp", "zeroconf", "p2ptarot.net.wsmesh", "p2ptarot.net.discovery",
           "p2ptarot.peer.game")  # (not `ssl`: asyncio imports that module on its own)

_PROBE = """
import contextlib, io, json, sys
from p2ptarot.cli.main import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    rc = main(sys.argv[1:])
games = sorted({m.split(".")[2] for m in sys.modules if m.startswith("p2ptarot.games.")})
print(json.dumps({"rc": rc, "modules": sorted(sys.modules), "games": games}))
"""


#: a player's front end: a bot peer (no terminal, no page) never loads it (issue 26)
FRONT_END = ("p2ptarot.app.human", "p2ptarot.app.table", "p2ptarot.present.screen",
             "p2ptarot.app.forms", "p2ptarot.cli.front", "p2ptarot.cli.console", "p2ptarot.web")
#: other commands' machinery: never in a peer
NOT_A_PEER = ("p2ptarot.transcript.verify", "p2ptarot.cli.demo", "p2ptarot.cli.simulate",
              "p2ptarot.cli.verify_cmd", "p2ptarot.cli.games_cmd", "p2ptarot.app.replay")


#: the online stack: loaded only by a command that goes online (issue 22)
ONLINE_STACK = ("aiortc", "aioice", "coincurve", "p2ptarot.net.online.mesh",
                "p2ptarot.net.online.transport", "p2ptarot.net.nostr.keys")


def run_command(*argv: str) -> dict:
    out = subprocess.run([sys.executable, "-c", _PROBE, *argv], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True, stdin=subprocess.DEVNULL)
    return json.loads(out.stdout.splitlines()[-1])


def loaded(report: dict, names: tuple[str, ...]) -> list[str]:
    return [n for n in names if n in report["modules"]]


@pytest.mark.parametrize("argv", [["games"], ["verify", str(VALID)], ["replay", str(VALID)],
                                  ["simulate", "--game", "sinople", "--players", "2"]],
                         ids=["games", "verify", "replay", "simulate"])
def test_offline_commands_never_load_the_network_stack(argv: list[str]) -> None:
    report = run_command(*argv)
    assert report["rc"] == 0
    assert loaded(report, NETWORK) == []
    assert loaded(report, ("asyncio", "ssl")) == []  # no event loop: e.g. the store's fsync thread
    assert "p2ptarot.cli.peer" not in report["modules"]  # another command's front end


def test_offline_commands_load_only_their_own_front_end() -> None:
    report = run_command("verify", str(VALID))
    assert "p2ptarot.cli.verify_cmd" in report["modules"]
    assert loaded(report, ("p2ptarot.cli.demo", "p2ptarot.cli.simulate", "p2ptarot.cli.games_cmd")) == []


def test_a_simulated_game_imports_only_its_own_game_package() -> None:
    report = run_command("simulate", "--game", "sinople", "--players", "2")
    assert report["games"] == ["sinople"]
    every = run_command("games")  # the catalogue, on the other hand, lists every game
    assert {"sinople", "arcanoid", "eleusis"} <= set(every["games"])


def test_joining_a_ws_address_dials_without_zeroconf(tmp_path: Path) -> None:
    with socket.socket() as s:  # a free loopback port that nobody listens on: the dial is refused
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    report = run_command("join", f"ws://127.0.0.1:{port}", "--bot", "--quiet", "--interface",
                         "127.0.0.1", "--data-dir", str(tmp_path / "bot"), "--find-timeout", "1",
                         "--lobby-timeout", "5")
    assert report["rc"] == 1  # refused: a clear error, and the websocket client was really used
    assert "aiohttp" in report["modules"]
    assert loaded(report, ("zeroconf", "p2ptarot.net.discovery")) == []
    assert loaded(report, FRONT_END + NOT_A_PEER) == []  # a bot has no terminal and no page
    assert "p2ptarot.net.online" in report["modules"]  # the online options' front door...
    assert loaded(report, ONLINE_STACK) == []  # ...opened by nothing on a LAN table


def _refused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_player_who_joins_gets_the_terminal_front_end(tmp_path: Path) -> None:
    """The positive control of the bot tests: the same command for a person loads the front."""
    report = run_command("join", f"ws://127.0.0.1:{_refused_port()}", "--quiet", "--interface",
                         "127.0.0.1", "--data-dir", str(tmp_path / "me"), "--find-timeout", "1",
                         "--lobby-timeout", "5")
    assert report["rc"] == 1
    assert loaded(report, ("p2ptarot.cli.front", "p2ptarot.app.human", "p2ptarot.app.table")) == [
        "p2ptarot.cli.front", "p2ptarot.app.human", "p2ptarot.app.table"]


def test_a_bot_host_advertises_without_a_front_end(tmp_path: Path) -> None:
    report = run_command("host", "--game", "sinople", "--seats", "2", "--bot", "--quiet",
                         "--interface", "127.0.0.1", "--data-dir", str(tmp_path / "host"),
                         "--lobby-timeout", "1")
    assert report["rc"] == 1  # nobody came
    assert "zeroconf" in report["modules"]  # the table was advertised
    assert report["games"] == ["sinople"]
    assert loaded(report, FRONT_END + NOT_A_PEER) == []


def test_the_overall_help_still_lists_every_command() -> None:
    out = subprocess.run([sys.executable, "-m", "p2ptarot.cli.main", "--help"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True).stdout
    for command in ("games", "simulate", "host", "join", "list", "demo", "verify", "replay"):
        assert f"    {command} " in out or f"    {command}\n" in out, command


def test_the_network_package_loads_its_names_on_first_use() -> None:
    code = ("import sys, p2ptarot.peer.store, p2ptarot.net as net; "
            "before = 'aiohttp' in sys.modules or 'zeroconf' in sys.modules; "
            "from p2ptarot.net.wsmesh import Mesh; "
            "print(before, net.Mesh is Mesh, 'zeroconf' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out == ["False", "True", "False"]


def test_the_online_package_loads_its_names_on_first_use() -> None:
    code = ("import sys, p2ptarot.cli.peer, p2ptarot.net.online as online; "
            "before = [m for m in ('aiortc', 'coincurve') if m in sys.modules]; "
            "from p2ptarot.net.online.transport import OnlineTransport; "
            "print(before == [], online.OnlineTransport is OnlineTransport)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out == ["True", "True"]


def test_the_demo_makes_the_host_key_before_loading_the_table_stack(tmp_path: Path) -> None:
    """`p2ptarot demo` starts its peers right after creating the host's key: that step must not
    wait for libsodium, pydantic or the verifier (they are loaded after the game, to verify)."""
    code = ("import sys; from pathlib import Path; from p2ptarot.cli.main import build_parser; "
            "build_parser(['demo']); from p2ptarot.peer.store import DataDir; "
            "fp = DataDir(Path(sys.argv[1])).identity().fingerprint; "
            "heavy = ['rbcl', 'p2ptarot.crypto.sodium', 'pydantic', 'p2ptarot.transcript', 'p2ptarot.table.session', 'aiohttp']; "
            "print(len(fp) > 0, [m for m in heavy if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "host")], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True).stdout.strip()
    assert out == "True []"
