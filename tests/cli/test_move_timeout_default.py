"""One move-timeout default everywhere (issue 34 item 6): the code's constant, the peer config,
`host --move-timeout`, README, PROTOCOL §3 and the charter schema agree, and no help text says
that silence leads to blame (PROTOCOL §8: it never does)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from p2ptarot.app.clock import DEFAULT_MOVE_TIMEOUT
from p2ptarot.cli.main import main
from p2ptarot.peer.config import PeerConfig

ROOT = Path(__file__).resolve().parents[2]


def test_the_config_default_is_the_constant() -> None:
    field = PeerConfig.__dataclass_fields__["move_timeout"]
    assert field.default == DEFAULT_MOVE_TIMEOUT == 600


def test_readme_and_protocol_state_the_same_default() -> None:
    readme = (ROOT / "README.md").read_text()
    protocol = (ROOT / "spec" / "PROTOCOL.md").read_text()
    assert f"`--move-timeout` seconds on any seat\n(the host sets it; default {DEFAULT_MOVE_TIMEOUT}" \
        in readme
    assert f"`--move-timeout`, default {DEFAULT_MOVE_TIMEOUT}:" in protocol
    assert not re.search(r"move-timeout[^.]{0,40}default 300", readme + protocol)


def test_the_schema_says_abandonment_never_blame() -> None:
    schema = json.loads((ROOT / "protocol" / "schemas" / "signed-charter.json").read_text())
    text = json.dumps(schema)
    timeout = next(v for k, v in _walk(schema) if k == "timeout" and isinstance(v, dict))
    assert timeout["minimum"] == 1 and timeout["maximum"] == 86400
    assert "abandoned, blaming nobody" in timeout["description"]
    assert "blamed for silence" not in text


def _walk(node):
    if isinstance(node, dict):
        for k, v in node.items():
            yield k, v
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


@pytest.mark.parametrize("command", ["host", "join", "web", "demo"])
def test_no_help_text_says_silence_is_blamed(command: str, capsys) -> None:
    with pytest.raises(SystemExit):
        main([command, "--lang", "en", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "timeout" in out
    assert not re.search(r"silen[a-z]* before (a seat is )?blame|before a seat is blamed", out)
    if command in ("web", "demo"):
        assert "blaming nobody" in out
