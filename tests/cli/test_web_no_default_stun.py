"""`p2ptarot web --online`'s settings for the page's "no public STUN server" (the page's
`--no-default-stun`): the lobby's usual transport asks the packaged STUN servers, the page's
quiet one asks none and its bots are told `--no-default-stun`; STUN servers the player named
with `--stun` stay in both.  Nothing is contacted: only the settings are built."""

from __future__ import annotations

from pathlib import Path

from p2ptarot.cli.main import build_parser
from p2ptarot.cli.web_cmd import online_side
from p2ptarot.net.online.config import default_ice


def _side(tmp_path: Path, *extra: str):
    args = build_parser().parse_args(["web", "--online", "--relay", "ws://127.0.0.1:9",
                                      "--data-dir", str(tmp_path), *extra])
    side = online_side(args)
    assert side is not None
    return side


def test_the_page_setting_leaves_the_default_stun_servers_out(tmp_path: Path) -> None:
    side = _side(tmp_path)
    packaged = [s.url for s in default_ice(tmp_path)]
    assert packaged and all(u.startswith("stun:") for u in packaged)
    assert [s.url for s in side.choose(False).transport().config.ice] == packaged
    quiet = side.choose(True)
    assert quiet is not side
    assert [s.url for s in quiet.transport().config.ice] == []
    assert "--no-default-stun" in quiet.bot_args and "--no-default-stun" not in side.bot_args
    assert not any(u in quiet.bot_args for u in packaged)
    assert quiet.relays == side.relays == ("ws://127.0.0.1:9",)


def test_a_stun_server_the_player_named_is_kept(tmp_path: Path) -> None:
    side = _side(tmp_path, "--stun", "stun:127.0.0.1:3478")
    assert [s.url for s in side.choose(True).transport().config.ice] == ["stun:127.0.0.1:3478"]
