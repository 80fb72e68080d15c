"""The lobby room (sans-I/O): who sits, who is ready, when the table starts, and what a hostile
joiner's frames can (not) do."""

from __future__ import annotations

import pytest

from p2ptarot.engine import info as game_info
from p2ptarot.table.control import ChatFrame, JoinFrame, LobbyFrame, parse_control
from p2ptarot.table.room import (CHAT_INTERVAL, MAX_CHAT, Away, Room, RoomError, RoomSeat,
                                 RosterSeen, parse_chat_relay)
from p2ptarot.table.room import parse_roster as parse_lobby_frame

HOST, BOB, CAROL, DAVE, EVE = (bytes([i]) * 32 for i in range(1, 6))


def J(value: dict) -> JoinFrame:
    """A `join` object as the host's edge types it (faulty fields fall back to defaults)."""
    frame = parse_control({"ctl": "join", **value})
    assert isinstance(frame, JoinFrame)
    return frame


def parse_roster(value: dict) -> RosterSeen | None:
    """A `lobby` object as a joiner's edge sees it: typed (or dropped), then checked whole."""
    frame = parse_control(value)
    return parse_lobby_frame(frame) if isinstance(frame, LobbyFrame) else None


def chat_relay(value: dict, roster: RosterSeen | None) -> object:
    frame = parse_control(value)
    return parse_chat_relay(frame, roster) if isinstance(frame, ChatFrame) else None


def room(seats: int = 3, host_ready: bool = True, game: str = "sinople") -> Room:
    gi = game_info(game)
    return Room(game, None, seats, RoomSeat(HOST, "Alice", "ws://a", ready=host_ready),
                gi.min_players, gi.max_players)


def test_starts_only_when_full_and_everyone_ready() -> None:
    r = room(3)
    assert r.join(BOB, J({"name": "Bob", "address": "ws://b", "ready": False})) is None
    assert not r.should_start
    assert r.join(CAROL, J({"name": "Carol", "address": "ws://c"})) is None
    assert r.roster().names == ("Alice", "Bob", "Carol")
    assert r.roster().ready == (True, False, True)  # no flag (an old-style joiner): ready
    assert not r.should_start  # full, but Bob is not ready
    assert r.set_ready(BOB, True)
    assert r.should_start and r.roster().full_and_ready


def test_unready_and_leave_hold_the_start_back() -> None:
    r = room(3)
    r.join(BOB, J({"name": "Bob"}))
    r.join(CAROL, J({"name": "Carol"}))
    assert r.should_start
    assert r.set_ready(CAROL, False)
    assert not r.set_ready(CAROL, False)  # no change, nothing to broadcast
    assert not r.should_start
    assert r.leave(CAROL)
    assert r.roster().names == ("Alice", "Bob") and not r.should_start
    assert not r.leave(HOST)  # the host's seat is never freed


def test_host_not_ready_holds_the_table() -> None:
    r = room(2, host_ready=False)
    r.join(BOB, J({"name": "Bob"}))
    assert not r.should_start
    assert r.set_ready(HOST, True)
    assert r.should_start


def test_starting_now_says_the_host_is_ready() -> None:
    r = room(3, host_ready=False)
    r.join(BOB, J({"name": "Bob"}))
    assert r.roster().can_start_now  # the joiners are ready; the host decides
    assert [s.ready for s in r.start_now()] == [True, True]


def test_start_now_with_a_valid_count() -> None:
    r = room(4)  # sinople: 2 to 5 players
    r.join(BOB, J({"name": "Bob"}))
    assert r.roster().can_start_now
    seats = r.start_now()
    assert [s.name for s in seats] == ["Alice", "Bob"]
    assert r.roster().frame(1).can_start is True


def test_start_now_refused_with_too_few_ready() -> None:
    r = room(4)
    assert not r.roster().can_start_now
    with pytest.raises(RoomError, match="2 to 5 players; 1 ready"):
        r.start_now()
    r.join(BOB, J({"name": "Bob", "ready": False}))
    assert not r.roster().can_start_now  # only the host is ready: one player
    with pytest.raises(RoomError, match="2 to 5 players; 1 ready"):
        r.start_now()


def test_start_now_leaves_out_a_joiner_who_is_not_ready() -> None:
    """Nobody holds a table by never saying Ready: the host starts with those who are."""
    r = room(4)
    r.join(BOB, J({"name": "Bob", "ready": False}))
    r.join(CAROL, J({"name": "Carol"}))
    assert r.roster().can_start_now
    assert [s.name for s in r.start_now()] == ["Alice", "Carol"]


def test_a_seat_count_the_game_does_not_allow_is_refused() -> None:
    with pytest.raises(RoomError):
        room(6)  # sinople has at most 5 players


def test_a_full_room_says_so_and_a_second_join_changes_nothing() -> None:
    r = room(2)
    assert r.join(BOB, J({"name": "Bob"})) is None
    assert r.join(BOB, J({"name": "Mallory"})) is None  # already seated: the name stays
    assert r.roster().names == ("Alice", "Bob")
    assert r.join(CAROL, J({"name": "Carol"})) == "full"


def test_hostile_join_fields_are_cleaned_not_trusted() -> None:
    r = room(4)
    r.join(BOB, J({"name": ["not", "text"], "address": 12, "ready": "yes", "bot": "true"}))
    r.join(CAROL, J({"name": "\x1b[2JCarol\u202e" + "x" * 500, "address": "ws://c\n" + "y" * 9000,
                   "ready": 0}))
    bob, carol = r.seats[1], r.seats[2]
    assert bob.name == "player" and bob.address == "" and bob.ready and not bob.bot
    assert carol.name.startswith("[2JCarol") and len(carol.name) <= 40
    assert len(carol.address) == 200 and "\n" not in carol.address
    assert carol.ready  # a non-boolean flag counts as absent


def test_ready_from_a_stranger_or_with_a_wrong_type_is_ignored() -> None:
    r = room(2)
    r.join(BOB, J({"name": "Bob", "ready": False}))
    assert not r.set_ready(EVE, True)  # not seated
    for bad in ("true", 1, None, [True], {"ready": True}):
        assert not r.set_ready(BOB, bad)
    assert r.roster().ready == (True, False)


def test_bots_are_always_ready() -> None:
    r = room(2)
    r.join(BOB, J({"name": "bot-1", "bot": True, "ready": False}))
    assert r.seats[1].bot and r.seats[1].ready
    assert not r.set_ready(BOB, False)
    assert r.should_start


def test_chat_is_relayed_with_the_senders_own_seat() -> None:
    r = room(3)
    r.join(BOB, J({"name": "Bob"}))
    r.join(CAROL, J({"name": "Carol"}))
    said = r.chat(CAROL, "hi  there\x1b[31m\n", now=10.0)
    assert said is not None and (said.seat, said.name, said.text) == (2, "Carol", "hi there?[31m")
    # the frame names the seat the link proved; a joiner cannot put another name on its line
    assert said.frame() == ChatFrame(seat=2, name="Carol", text="hi there?[31m")
    assert said.frame().wire() == b'{"ctl":"chat","name":"Carol","seat":2,"text":"hi there?[31m"}'
    assert r.chat(EVE, "I am Bob", now=20.0) is None  # a stranger is not relayed


def test_chat_hostile_text_and_flood() -> None:
    r = room(2)
    r.join(BOB, J({"name": "Bob"}))
    for bad in (None, 5, ["x"], {"t": "x"}, "   ", ""):
        assert r.chat(BOB, bad, now=1.0) is None
    long = r.chat(BOB, "z" * 100_000, now=2.0)
    assert long is not None and len(long.text) == MAX_CHAT
    assert r.chat(BOB, "again", now=2.0 + CHAT_INTERVAL / 2) is None  # dropped, not queued
    assert r.chat(BOB, "later", now=2.0 + CHAT_INTERVAL) is not None


def test_roster_frame_round_trips_through_the_joiners_parser() -> None:
    r = room(3)
    r.join(BOB, J({"name": "Bob", "ready": False}))
    seen = parse_lobby_frame(r.roster().frame(1))
    assert seen is not None
    assert (seen.names, seen.ready, seen.seats_total, seen.you) == (("Alice", "Bob"), (True, False), 3, 1)
    relay = chat_relay({"ctl": "chat", "seat": 0, "name": "Bob", "text": "hi"}, seen)
    assert relay is not None and relay.name == "Alice"  # the seat decides the name, not the frame


@pytest.mark.parametrize("frame", [
    {"seats": "3", "names": ["a"], "ready": [True]},
    {"seats": 0, "names": [], "ready": []},
    {"seats": 10 ** 6, "names": ["a"], "ready": [True]},
    {"seats": 2, "names": ["a", "b", "c"], "ready": [True, True, True]},
    {"seats": 2, "names": ["a", 5], "ready": [True, True]},
    {"seats": 2, "names": ["a"], "ready": [1]},
    {"seats": 2, "names": ["a"], "ready": [True, False]},
    {"seats": 2, "names": ["a"], "ready": [True], "bots": "no"},
    {"seats": 2, "names": ["a"], "ready": [True], "can_start": "yes"},
    {"seats": 2, "names": ["a"], "ready": [True], "you": 1.5},
    {"seats": 2, "names": "a", "ready": [True]},
])
def test_hostile_roster_frames_are_refused(frame: dict) -> None:
    assert parse_roster({"ctl": "lobby", **frame}) is None


def test_hostile_chat_relays_are_refused() -> None:
    seen = parse_roster({"ctl": "lobby", "seats": 2, "names": ["a", "b"], "ready": [True, True], "you": 1})
    assert seen is not None
    for bad in ({"seat": 2, "text": "x"}, {"seat": -1, "text": "x"}, {"seat": True, "text": "x"},
                {"seat": 0, "text": 7}, {"seat": "0", "text": "x"}):
        assert chat_relay({"ctl": "chat", **bad}, seen) is None
    assert chat_relay({"ctl": "chat", "seat": 0, "text": "x"}, None) is None  # no roster yet


def test_a_dropped_joiner_keeps_its_seat_away_until_the_limit() -> None:
    gi = game_info("sinople")
    r = Room("sinople", None, 3, RoomSeat(HOST, "Alice", "ws://a", ready=True),
             gi.min_players, gi.max_players, away_limit=30.0)
    r.join(BOB, J({"name": "Bob"}))
    r.join(CAROL, J({"name": "Carol"}))
    assert r.should_start
    assert r.lost(BOB, now=100.0)
    assert not r.lost(BOB, now=110.0)  # already away: its clock is not restarted
    assert not r.lost(HOST, now=100.0) and not r.lost(EVE, now=100.0)  # host, stranger
    assert r.is_away(BOB) and r.roster().names == ("Alice", "Bob", "Carol")  # the seat is kept
    assert r.roster().ready == (True, False, True)  # an away seat is not ready
    assert not r.should_start and not r.roster().full_and_ready
    assert [s.name for s in r.start_now()] == ["Alice", "Carol"]  # start now leaves it out
    assert r.away_wait(100.0) == 30.0 and r.away_wait(125.0) == 5.0
    assert r.expire(129.9) == [] and r.is_away(BOB)
    assert r.join(DAVE, J({"name": "Dave"})) == "full"  # its seat is not anybody's meanwhile
    assert [s.name for s in r.expire(130.0)] == ["Bob"]  # past the limit: freed
    assert r.roster().names == ("Alice", "Carol") and r.away_wait(130.0) is None
    assert r.join(DAVE, J({"name": "Dave"})) is None


def test_the_same_key_joining_again_takes_its_seat_back_with_its_ready_flag() -> None:
    r = room(3)
    r.join(BOB, J({"name": "Bob"}))
    r.join(CAROL, J({"name": "Carol", "ready": False}))
    assert r.lost(CAROL, now=0.0)
    assert r.join(CAROL, J({"name": "Mallory", "address": "ws://m"})) == "back"  # ready this time
    assert not r.is_away(CAROL) and r.away_wait(0.0) is None
    assert r.seats[2].name == "Carol" and r.seats[2].address == ""  # name and address stay
    assert r.roster().ready == (True, True, True) and r.should_start
    assert r.join(CAROL, J({"name": "Carol", "ready": False})) is None  # present: nothing changes
    assert r.roster().ready == (True, True, True)
    assert r.expire(1000.0) == []  # back: never freed by the old clock
    assert r.lost(BOB, now=5.0)
    assert r.join(BOB, J({"name": "Bob", "ready": False})) == "back"
    assert r.roster().ready == (True, False, True) and not r.should_start


def test_leaving_for_good_forgets_an_away_seat() -> None:
    r = room(3)
    r.join(BOB, J({"name": "Bob"}))
    r.lost(BOB, now=0.0)
    assert r.leave(BOB) and r.expire(100.0) == [] and r.away_wait(0.0) is None
    assert r.join(BOB, J({"name": "Bob"})) is None and r.seats[1].ready  # a new seat, not "back"


def test_away_keys_are_given_up_oldest_first_at_their_limit() -> None:
    away = Away(10.0)
    assert away.wait(0.0) is None and away.expired(100.0) == []
    assert away.lost(BOB, 5.0) and away.lost(CAROL, 2.0) and not away.lost(BOB, 6.0)
    assert BOB in away and away.wait(3.0) == 9.0
    assert away.expired(11.9) == []
    assert away.expired(15.0) == [CAROL, BOB]
    assert away.wait(15.0) is None and BOB not in away
    assert away.lost(BOB, 20.0) and away.back(BOB) and not away.back(BOB)
