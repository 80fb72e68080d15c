"""The host's stand-in policy (`--stand-in-after`, written in the charter): 60 s by default,
never when the move timeout is too short for it, refused when it would come after the blame."""

from __future__ import annotations

import argparse
import subprocess
import sys

from p2ptarot.cli.peer import DEFAULT_STAND_IN_AFTER, stand_in_policy


def _args(stand_in_after: int | None, move_timeout: int = 300) -> argparse.Namespace:
    return argparse.Namespace(stand_in_after=stand_in_after, move_timeout=move_timeout)


def test_the_default_is_a_minute_unless_the_move_timeout_is_shorter() -> None:
    assert DEFAULT_STAND_IN_AFTER == 60
    assert stand_in_policy(_args(None)) == 60
    assert stand_in_policy(_args(None, move_timeout=60)) == 0  # would not come before the blame
    assert stand_in_policy(_args(None, move_timeout=2)) == 0


def test_an_explicit_policy_is_bounded_by_the_move_timeout() -> None:
    assert stand_in_policy(_args(0)) == 0
    assert stand_in_policy(_args(5, move_timeout=6)) == 5
    assert "shorter than --move-timeout" in str(stand_in_policy(_args(300)))
    assert "from 0 to 3600" in str(stand_in_policy(_args(-1)))
    assert "from 0 to 3600" in str(stand_in_policy(_args(4000, move_timeout=9000)))


def test_host_refuses_a_stand_in_after_the_blame_before_opening_anything() -> None:
    proc = subprocess.run([sys.executable, "-m", "p2ptarot.cli.main", "host", "--game", "sinople",
                           "--seats", "2", "--interface", "127.0.0.1", "--move-timeout", "30",
                           "--stand-in-after", "30"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "--stand-in-after must be shorter than --move-timeout" in proc.stderr
    assert "table open" not in proc.stdout and "Traceback" not in proc.stderr
