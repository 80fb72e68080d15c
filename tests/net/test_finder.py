"""Which table `join` sits at (issue 17): only one the user named, or the only one there is.

The zeroconf tests advertise real tables on 127.0.0.1 under a game name no other test uses, so
parallel workers and a demo looping beside the suite cannot interfere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from p2ptarot.net.discovery import TableAdvert, TableAdvertiser
from p2ptarot.net.finder import FindError, decide, find_table, parse_target
from p2ptarot.peer.store import DataDir
from p2ptarot.net.txt import TableInfo

LOOPBACK = ["127.0.0.1"]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def _info(game: str, fp: str, taken: int = 1, total: int = 4) -> TableInfo:
    return TableInfo(game=game, variant="", seats_taken=taken, seats_total=total, fingerprint=fp)


def _advert(game: str, fp: str, port: int, taken: int = 1) -> TableAdvert:
    return TableAdvert(name=f"t{port}._p2ptarot._tcp.local.", instance=f"t{port}",
                       addresses=("127.0.0.1",), port=port, table=_info(game, fp, taken))


@pytest.mark.parametrize("text, url", [
    ("ws://127.0.0.1:4000", "ws://127.0.0.1:4000/p2ptarot"),
    ("ws://127.0.0.1:4000/p2ptarot", "ws://127.0.0.1:4000/p2ptarot"),
    ("http://10.0.0.5:4000/", "ws://10.0.0.5:4000/p2ptarot"),
    ("192.168.1.20:4242", "ws://192.168.1.20:4242/p2ptarot"),
    ("alice-laptop.local:4242", "ws://alice-laptop.local:4242/p2ptarot"),
])
def test_addresses_are_dialled_directly(text: str, url: str) -> None:
    target = parse_target(text)
    assert (target.url, target.prefix) == (url, None)


@pytest.mark.parametrize("text", ["ABCD-EFGH-IJKL-MNOP", "abcd-efgh", "ABCD", "0a1b2c3d"])
def test_fingerprints_and_table_ids_are_prefixes(text: str) -> None:
    target = parse_target(text)
    assert (target.url, target.prefix) == (None, text)


@pytest.mark.parametrize("text", ["https://x:1", "ws://nohost", "ws://a b:12", "not a table!", "http://"])
def test_unusable_targets_are_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(FindError) as exc:
        parse_target(text)
    assert text.split(":")[0][:4].lower() in str(exc.value).lower() or "ws://" in str(exc.value)


def test_decide_separates_open_and_full_and_filters_game_and_host() -> None:
    ads = [_advert("sinople", "AAAA-BBBB", 1), _advert("sinople", "CCCC-DDDD", 2, taken=4),
           _advert("arcanoid", "AAAA-BBBB", 3)]
    open_, full = decide(ads, "sinople", None)
    assert [a.port for a in open_] == [1] and [a.port for a in full] == [2]
    open_, full = decide(ads, None, "aaaa")
    assert sorted(a.port for a in open_) == [1, 3] and full == []


async def _advertise(game: str, fp: str, port: int, taken: int = 1) -> TableAdvertiser:
    adv = TableAdvertiser(_info(game, fp, taken), port, interfaces=LOOPBACK, addresses=LOOPBACK)
    await adv.start()
    return adv


@pytest.mark.network
async def test_several_open_tables_are_never_picked_silently() -> None:
    game = f"finder-{os.urandom(3).hex()}"
    ads = [await _advertise(game, "AAAA-AAAA", 40001), await _advertise(game, "BBBB-BBBB", 40002)]
    try:
        with pytest.raises(FindError) as exc:
            await find_table(LOOPBACK, game, None, wait=15, settle=4.0)
        assert "2 open" in str(exc.value)
        assert "AAAA-AAAA" in str(exc.value) and "BBBB-BBBB" in str(exc.value)

        async def pick_second(candidates: list[TableAdvert]) -> TableAdvert:
            assert {c.table.fingerprint for c in candidates} == {"AAAA-AAAA", "BBBB-BBBB"}
            return next(c for c in candidates if c.table.fingerprint == "BBBB-BBBB")

        assert (await find_table(LOOPBACK, game, None, wait=15, pick=pick_second, settle=4.0)).endswith(":40002/p2ptarot")
        # naming the host picks it among several
        assert (await find_table(LOOPBACK, game, "aaaa-aaaa", wait=15)).endswith(":40001/p2ptarot")
    finally:
        for adv in ads:
            await adv.close()


@pytest.mark.network
async def test_a_named_full_table_is_reported_at_once() -> None:
    game = f"finder-{os.urandom(3).hex()}"
    adv = await _advertise(game, "FFFF-FFFF", 40003, taken=4)
    try:
        with pytest.raises(FindError, match="full"):
            await find_table(LOOPBACK, game, "FFFF", wait=15)
        with pytest.raises(FindError, match="no open"):
            await find_table(LOOPBACK, game, None, wait=1.5)
    finally:
        await adv.close()


@pytest.mark.network
@pytest.mark.slow
def test_host_lobby_times_out_with_a_clear_message(tmp_path: Path) -> None:
    proc = subprocess.run(CLI + ["host", "--game", "sinople", "--seats", "2", "--bot", "--quiet",
                                 "--interface", "127.0.0.1", "--data-dir", str(tmp_path / "h"),
                                 "--lobby-timeout", "1.5"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "not filled" in proc.stderr and "--lobby-timeout" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.network
@pytest.mark.slow
def test_join_names_a_missing_host_and_gives_up_cleanly(tmp_path: Path) -> None:
    absent = DataDir(tmp_path / "nobody").identity().fingerprint
    proc = subprocess.run(CLI + ["join", absent, "--game", "sinople", "--bot", "--quiet",
                                 "--interface", "127.0.0.1", "--data-dir", str(tmp_path / "j"),
                                 "--lobby-timeout", "5", "--find-timeout", "2"],
                          capture_output=True, text=True, timeout=90)
    assert proc.returncode == 1
    assert absent in proc.stderr and "Traceback" not in proc.stderr
    assert not proc.stdout.strip() or json.loads(proc.stdout.strip().splitlines()[-1])["result"] != "finished"
