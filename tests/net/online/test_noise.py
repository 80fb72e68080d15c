"""The WebRTC libraries' own late errors (a STUN retry on a closed socket, a gathering task left
pending) go to the debug log, not to the player's terminal; every other loop report still goes
to asyncio's handler."""

from __future__ import annotations

import asyncio
import logging

import aioice.stun
import pytest

from p2ptarot.net.online.noise import from_ice_libraries, quiet_ice_noise


def _raised_in_aioice() -> BaseException:
    try:
        aioice.stun.parse_message(b"\x00")  # too short: aioice itself raises
    except ValueError as exc:
        return exc
    raise AssertionError("aioice accepted a 1-byte STUN message")


def _raised_here() -> BaseException:
    try:
        raise RuntimeError("ours")
    except RuntimeError as exc:
        return exc


def test_reports_are_told_apart_by_where_they_were_raised() -> None:
    assert from_ice_libraries({"message": "Exception in callback", "exception": _raised_in_aioice()})
    assert not from_ice_libraries({"message": "Exception in callback", "exception": _raised_here()})
    assert not from_ice_libraries({"message": "something else"})


async def test_the_loop_sends_library_noise_to_debug_and_the_rest_to_asyncio(
        caplog: pytest.LogCaptureFixture) -> None:
    loop = asyncio.get_running_loop()
    before = loop.get_exception_handler()
    try:
        quiet_ice_noise(loop)
        quiet_ice_noise(loop)  # once per loop: a second mesh changes nothing
        with caplog.at_level(logging.DEBUG):
            loop.call_exception_handler({"message": "Exception in callback Transaction.__retry()",
                                         "exception": _raised_in_aioice()})
            loop.call_exception_handler({"message": "a bug of ours", "exception": _raised_here()})
        noise = [r for r in caplog.records if r.name == "p2ptarot.net.online.noise"]
        ours = [r for r in caplog.records if r.name == "asyncio"]
        assert [r.levelno for r in noise] == [logging.DEBUG]
        assert len(ours) == 1 and ours[0].levelno == logging.ERROR
        assert "a bug of ours" in ours[0].getMessage()
    finally:
        loop.set_exception_handler(before)
