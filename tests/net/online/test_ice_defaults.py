"""Which STUN servers a peer is given, as the command line decides it (no network here: the
packaged public servers are for players, never contacted by a test): `--stun` wins, else the
user's <data dir>/ice.txt, else the packaged list; `--no-default-stun` leaves none, and a
host's bot processes get the same list (and never the TURN password in their argv)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from p2ptarot.cli import online
from p2ptarot.net.online.config import default_ice


def _args(*argv: str, data_dir: Path | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", default=str(data_dir) if data_dir else None)
    online.add_online_args(parser)
    return parser.parse_args(["--relay", "ws://127.0.0.1:1", *argv])


def _stun(args: argparse.Namespace) -> list[str]:
    return [s.url for s in online.transport_of(args, False).config.ice]


def test_the_packaged_list_is_used_when_nothing_is_said(tmp_path: Path) -> None:
    packaged = [s.url for s in default_ice(None)]
    assert packaged and all(u.startswith("stun:") for u in packaged)
    assert _stun(_args(data_dir=tmp_path)) == packaged


def test_the_users_file_then_the_flags_override_it(tmp_path: Path) -> None:
    (tmp_path / "ice.txt").write_text("# mine\nstun:10.0.0.1:3478\n")
    assert _stun(_args(data_dir=tmp_path)) == ["stun:10.0.0.1:3478"]
    assert _stun(_args("--stun", "stun:10.0.0.2:3478", data_dir=tmp_path)) == \
        ["stun:10.0.0.2:3478"]


def test_no_default_stun_contacts_none_and_the_bots_are_told(tmp_path: Path) -> None:
    args = _args("--no-default-stun", data_dir=tmp_path)
    assert _stun(args) == []
    extra = online.bot_args(args)
    assert "--no-default-stun" in extra and "--stun" not in extra


def test_bots_get_the_turn_password_in_their_environment_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(online.TURN_PASS_ENV, raising=False)
    secret = tmp_path / "pass"
    secret.write_text("s3cret-value\n")
    args = _args("--stun", "stun:10.0.0.2:3478", "--turn", "turn:10.0.0.2:3478",
                 "--turn-user", "u", "--turn-pass-file", str(secret), data_dir=tmp_path)
    turn = online.transport_of(args, False).config.ice[-1]
    assert (turn.url, turn.username, turn.credential) == ("turn:10.0.0.2:3478", "u",
                                                          "s3cret-value")
    extra = online.bot_args(args)
    assert "s3cret-value" not in " ".join(extra) and "--turn-user" in extra
    assert os.environ[online.TURN_PASS_ENV] == "s3cret-value"
    bot = _args(*extra[2:], data_dir=tmp_path)  # its own --relay pair dropped: _args adds one
    assert extra[:2] == ("--relay", "ws://127.0.0.1:1")
    assert online.transport_of(bot, False).config.ice[-1].credential == "s3cret-value"
