"""Ctrl-C at any moment leaves cleanly: even while the command's modules are still loading (on a
slow machine that takes seconds), the user gets a line and exit status 130, never a traceback."""

from __future__ import annotations

import pytest

from p2ptarot.cli import main as cli_main


def test_ctrl_c_while_the_command_loads_exits_130_with_a_line(monkeypatch, capsys) -> None:
    def interrupted(argv):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "build_parser", interrupted)
    assert cli_main.main(["host", "--game", "sinople", "--seats", "2"]) == 130
    err = capsys.readouterr().err
    assert err == "p2ptarot: interrupted\n"


def test_other_errors_are_not_swallowed(monkeypatch) -> None:
    def broken(argv):
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli_main, "build_parser", broken)
    with pytest.raises(RuntimeError):
        cli_main.main(["games"])
