"""The peer application layer, without sockets: events worded with names, seats from 1, menus in
reading order, forced moves, presence, round results, hostile commands."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from p2ptarot.app.events import (ChatLine, GameAborted, Leave, MovePlayed, Notice, PlayMove,
                                 Presence, TurnStarted, ViewChanged, command_from_json, seat_label)
from p2ptarot.app.facts import (GameStopped, Heard, LinkChanged, MoveRecorded, ViewNow,
                                WaitingOn)
from p2ptarot.present.faces import face, sort_key
from p2ptarot.app.human import LeftTable, human_chooser, until_left
from p2ptarot.present.screen import move_options, name_seats, screen
from p2ptarot.app.results import round_rows
from p2ptarot.app.hub import Hub
from p2ptarot.app.table import TableApp
from p2ptarot.engine import create
from p2ptarot.engine import games as registered_games
from p2ptarot.engine.local import RandomDealer, play
from p2ptarot.table.effects import NeedMove

NAMES = ("Alice", "Bob", "Carol")


def _states(game: str, players: int, want: Any, seed: int = 1, limit: int = 50) -> list[tuple]:
    """(seat, view, legal) at decisions where `want(view, legal)` holds, from a random game."""
    found: list[tuple] = []

    class Agent:
        uses_view = True

        def __init__(self) -> None:
            self.rng = random.Random(seed)

        def choose(self, seat: int, view: Any, legal: Any) -> Any:
            if len(found) < limit and want(view, legal):
                found.append((seat, view, list(legal)))
            return self.rng.choice(legal)

    agent = Agent()
    play(create(game, players), [agent] * players, RandomDealer(random.Random(seed)))
    return found


def test_seats_are_counted_from_one_and_named() -> None:
    assert seat_label(0) == "seat 1"
    assert name_seats("seat 0 plays; seat 2's hand; Seat 1", NAMES) == "Alice plays; Carol's hand; Bob"
    assert name_seats("seat 7", NAMES) == "seat 8"  # out of range: still counted from 1


def test_a_move_is_announced_with_the_players_name_and_a_sentence() -> None:
    seat, view, legal = _states("sinople", 3, lambda v, l: l[0].KIND == "play")[0]
    app = TableApp("sinople", None, NAMES, seat=(seat + 1) % 3)
    ev = app.move_recorded(40, seat, legal[0].to_json(), view)
    assert ev.name == NAMES[seat] and ev.sentence.startswith("Play ")
    assert "num-" not in ev.sentence  # a card name, not an id
    turn = app.turn(legal, view, None)
    assert turn.since == (f"{NAMES[seat]}: {ev.sentence}",)
    assert app.turn(legal, view, None).since == ()  # only what happened since the last turn


def test_sinople_menu_follows_the_sorted_hand() -> None:
    found = _states("sinople", 3, lambda v, l: l[0].KIND == "play" and len(l) >= 4)
    seat, view, legal = found[0]
    options = move_options(legal, view, NAMES)
    cards = [o.card for o in options]
    assert cards == sorted(cards, key=sort_key) and len(cards) == len(legal)
    hand = [c["id"] for c in screen(view, NAMES)["hand"]]
    assert [c for c in hand if c in cards] == cards  # the same order as the hand on screen
    assert {legal[o.index].to_json()["card"] for o in options} == set(cards)  # index maps back


def test_arcanoid_calls_are_grouped_by_suit() -> None:
    found = _states("arcanoid", 3, lambda v, l: sum(m.KIND == "call" for m in l) > 20, seed=5, limit=3)
    assert found, "no decision with many calls in this game"
    seat, view, legal = found[0]
    options = move_options(legal, view, NAMES)
    calls = [o for o in options if legal[o.index].KIND == "call"]
    groups = list(dict.fromkeys(o.group for o in calls))
    assert len(groups) >= 3 and all(":" in g for g in groups)  # "call a card: swords", ...
    for g in groups:  # each suit's calls together, in deck order
        members = [o for o in calls if o.group == g]
        assert {face(o.card)["suit"] for o in members} == {g.split(": ")[1]}
        assert [sort_key(o.card) for o in members] == sorted(sort_key(o.card) for o in members)
    firsts = [options.index(next(o for o in options if o.group == g)) for g in groups]
    lasts = [max(i for i, o in enumerate(options) if o.group == g) for g in groups]
    assert all(last < first for last, first in zip(lasts, firsts[1:]))  # groups never interleave


def test_presence_is_announced_once_and_a_return_is_named() -> None:
    app = TableApp("sinople", None, NAMES, seat=0)
    assert app.link(1, True) == Presence(1, "Bob", "joined")
    assert app.link(1, True) is None
    left = app.link(1, False, since=1000.0)
    assert left == Presence(1, "Bob", "left", 1000.0)
    assert left.sentence == "Bob is disconnected — reconnecting"  # not a countdown to a verdict
    assert left.line(now=1042.5) == "Bob is disconnected — reconnecting (0:42)"
    assert left.line(now=1125.0) == "Bob is disconnected — reconnecting (2:05)"
    assert app.link(1, False) is None
    assert app.link(1, True) == Presence(1, "Bob", "rejoined")
    assert app.link(0, False) is None  # our own seat is not news


def test_the_watcher_hands_the_app_facts_and_gets_events() -> None:
    """`TableApp.take`, the game pump's one entry: each fact becomes the events people see."""
    seat, view, legal = _states("sinople", 3, lambda v, l: l[0].KIND == "play")[0]
    app = TableApp("sinople", None, NAMES, seat=(seat + 1) % 3)
    assert app.take(Heard(seat)) == []
    by_bot = app.take(MoveRecorded(40, seat, legal[0].to_json(), view, by="bot"))
    assert [type(e) for e in by_bot] == [Presence, MovePlayed]
    assert by_bot[0] == Presence(seat, NAMES[seat], "stand-in") and by_bot[1].by == "bot"
    assert [type(e) for e in app.take(MoveRecorded(41, seat, legal[0].to_json(), view))] == \
        [Presence, MovePlayed]  # the player is back: said once
    assert [type(e) for e in app.take(ViewNow(view))] == [ViewChanged]
    assert app.take(ViewNow(view)) == []  # nothing a person sees changed
    assert app.take(LinkChanged(1, False, since=1000.0)) == [Presence(1, "Bob", "left", 1000.0)]
    waiting = app.take(WaitingOn((1,), "move", 1000.0))
    assert len(waiting) == 1 and waiting[0].sentence == "waiting for Bob"
    stopped = app.take(GameStopped(1, "seat 1 sent a bad proof", 12))
    assert stopped == [GameAborted(1, "Bob", "Bob sent a bad proof", 12)]


def test_waiting_names_the_seats() -> None:
    app = TableApp("sinople", None, NAMES, seat=0)
    ev = app.waiting((1, 2), "move", 1000.0)
    assert ev is not None and ev.sentence == "waiting for Bob and Carol" and not ev.yours
    assert app.waiting((1, 2), "move", 1000.0) is None  # unchanged
    app.stand_in(2, True)  # Carol's stand-in bot played her last move
    bot = app.waiting((2,), "move", 1000.0)
    assert bot is not None and bot.sentence == "waiting for Carol's bot"
    both = app.waiting((1, 0), "move", 1000.0)
    assert both is not None and both.sentence == "waiting for Bob and you" and not both.yours
    mine = app.waiting((0,), "move", 1000.0)
    assert mine is not None and mine.yours


def test_round_results_name_players_and_cards() -> None:
    sinople = {"history": [{"round": 1, "figure": "fig-a-wife", "dealer": 0, "opener": 2,
                            "points": [3, 4, 5], "winner": 1,
                            "won": [["num-a-1"] * 5, ["num-a-2"] * 4, []]}]}
    assert round_rows(sinople, NAMES) == [{"figure": "wife of A", "dealer": "Alice", "opener": "Carol",
                                           "points": "Alice 3, Bob 4, Carol 5", "winner": "Bob"}]
    paris = {"history": [{"winner": 1, "played": True, "void": False},
                         {"winner": 0, "played": True, "void": True}]}
    assert round_rows(paris, NAMES) == [{"winner": "Bob", "void": "no"}, {"winner": "Alice", "void": "yes"}]
    arcanoid = {"round_winners": [{"swords": 0, "cups": 2}]}
    assert round_rows(arcanoid, NAMES) == [{"swords": "Alice", "cups": "Carol"}]


def test_finished_standings_are_sorted_with_names() -> None:
    app = TableApp("sinople", None, NAMES, seat=0)
    ev = app.finished([2, 5, 1], [1])
    assert [(s.name, s.score, s.winner) for s in ev.standings] == [
        ("Bob", 5, True), ("Alice", 2, False), ("Carol", 1, False)]


@pytest.mark.parametrize("bad", [None, [], "move", {"cmd": "move", "turn": True, "index": 1},
                                 {"cmd": "move", "turn": 1, "index": "1"}, {"cmd": "nope"},
                                 {"cmd": "chat", "text": 5}, {"cmd": "sit", "target": ["x"]},
                                 {"cmd": "host", "game": "arcanoid", "seats": 2, "options": []},
                                 {"cmd": "host", "game": "arcanoid", "seats": 2, "options": {"rounds": [1]}},
                                 {"cmd": "host", "game": "arcanoid", "seats": 2,
                                  "options": {str(i): i for i in range(17)}}])
def test_hostile_commands_are_refused_cleanly(bad: Any) -> None:
    with pytest.raises(ValueError):
        command_from_json(bad)


def test_a_hosted_table_carries_its_options() -> None:
    cmd = command_from_json({"cmd": "host", "game": "arcanoid", "seats": 2, "bots": 1,
                             "options": {"rounds": 1, "first_seat": 0}})
    assert cmd.options == (("first_seat", 0), ("rounds", 1))
    assert command_from_json({"cmd": "host", "game": "sinople", "seats": 3}).options == ()


def test_the_page_s_no_default_stun_setting_is_parsed_strictly() -> None:
    """The page's "no public STUN server" rides on sit, host and doctor, as true or false only."""
    assert command_from_json({"cmd": "sit", "target": "ABCDE-FGHIJ"}).no_default_stun is False
    assert command_from_json({"cmd": "sit", "target": "ABCDE-FGHIJ",
                              "no_default_stun": True}).no_default_stun is True
    assert command_from_json({"cmd": "host", "game": "sinople", "seats": 2,
                              "no_default_stun": True}).no_default_stun is True
    assert command_from_json({"cmd": "doctor"}).no_default_stun is False
    assert command_from_json({"cmd": "doctor", "no_default_stun": True}).no_default_stun is True
    for cmd in ({"cmd": "doctor", "no_default_stun": 1},
                {"cmd": "sit", "target": "x", "no_default_stun": "yes"},
                {"cmd": "host", "game": "sinople", "seats": 2, "no_default_stun": None}):
        with pytest.raises(ValueError, match="no_default_stun is true or false"):
            command_from_json(cmd)


async def test_a_forced_move_plays_itself_and_is_announced() -> None:
    seat, view, legal = _states("sinople", 3, lambda v, l: len(l) == 1)[0]
    hub = Hub()
    hub.open_table(TableApp("sinople", None, NAMES, seat))
    notes: list[Any] = []
    hub.listen(notes.append)
    move = await asyncio.wait_for(human_chooser(hub)(NeedMove(seat, tuple(legal), view)), 1)
    assert move == legal[0]
    assert any(isinstance(n, Notice) and "played for you" in n.text for n in notes)
    assert not any(isinstance(n, TurnStarted) for n in notes)  # nobody was asked


async def test_a_choice_comes_from_a_front_end_and_stale_ones_are_refused() -> None:
    seat, view, legal = _states("sinople", 3, lambda v, l: len(l) >= 3)[0]
    hub = Hub()
    hub.open_table(TableApp("sinople", None, NAMES, seat))
    task = asyncio.create_task(human_chooser(hub, "Alice")(NeedMove(seat, tuple(legal), view)))
    await asyncio.sleep(0)
    turn = hub.turn
    assert turn is not None and len(turn.options) == len(legal)
    hub.send(PlayMove(turn.turn + 5, 1))      # a stale page's click
    hub.send(PlayMove(turn.turn, 99))        # out of range
    hub.send(command_from_json({"cmd": "chat", "text": "hi"}))
    hub.send(PlayMove(turn.turn, 2))
    move = await asyncio.wait_for(task, 1)
    assert move == legal[turn.options[1].index]
    assert any(isinstance(e, ChatLine) and e.text == "hi" for e in hub.history)


async def test_leaving_ends_the_game_task_at_once() -> None:
    hub = Hub()
    never = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(until_left(hub, never))
    await asyncio.sleep(0)
    hub.send(Leave("standard input closed"))
    with pytest.raises(LeftTable, match="standard input closed"):
        await asyncio.wait_for(task, 1)
    assert never.cancelled()


def test_arcanoid_fields_show_each_records_total() -> None:
    def has_value_record(view: Any, legal: Any) -> bool:
        return any(r["kind"] not in ("abdication", "judgement", "forced")
                   for p in view["participants"] for r in p["records"].values())
    seat, view, legal = _states("arcanoid", 3, has_value_record, seed=2, limit=1)[0]
    text = screen(view, NAMES)["text"]
    fields = text.split("Fields:")[1]
    assert "[total " in fields or "[royal]" in fields or "[knight" in fields or "[page" in fields


class _Enough(Exception):
    pass


@pytest.mark.parametrize("game", [g.name for g in registered_games()])
def test_every_registered_game_gets_a_screen_and_a_menu(game: str) -> None:
    """A game registered by another package is drawn without new code: its screen model and
    move menu are plain JSON, every legal move is on the menu once."""
    import json

    from p2ptarot.engine import info

    gi = info(game)
    players = gi.min_players
    names = [f"P{i + 1}" for i in range(players)]
    checked = []

    class Agent:
        uses_view = True

        def __init__(self) -> None:
            self.rng = random.Random(9)

        def choose(self, seat: int, view: Any, legal: Any) -> Any:
            sc = screen(view, names)
            options = move_options(legal, view, names)
            json.dumps(sc)
            assert sorted(o.index for o in options) == list(range(len(legal)))
            assert all(o.sentence for o in options)
            checked.append(seat)
            if len(checked) >= 40:
                raise _Enough
            return self.rng.choice(legal)

    agent = Agent()
    try:
        play(create(game, players), [agent] * players, RandomDealer(random.Random(9)))
    except _Enough:
        pass
    assert checked


async def test_a_bot_stands_in_for_an_absent_player_after_the_grace_period() -> None:
    from p2ptarot.app.events import StandInChanged
    from p2ptarot.table.inputs import StandInMove
    seat, view, legal = _states("sinople", 3, lambda v, l: len(l) >= 3)[0]
    hub = Hub()
    hub.open_table(TableApp("sinople", None, NAMES, seat))

    async def bot(need: NeedMove) -> Any:
        return need.legal[-1]

    choose = human_chooser(hub, "Alice", stand_in=bot, grace=0.05)
    move = await asyncio.wait_for(choose(NeedMove(seat, tuple(legal), view)), 5)
    assert isinstance(move, StandInMove) and move.move == legal[-1]
    assert hub.stand_in
    assert any(isinstance(e, StandInChanged) and e.active
               and f"{NAMES[seat]} left the table (no page or terminal open for 0.05 s)" in e.reason
               for e in hub.history)  # the name the table signed for the seat


def test_a_late_page_gets_every_move_but_only_the_latest_view() -> None:
    from p2ptarot.app.events import MovePlayed, ViewChanged
    hub = Hub()
    for k in range(50):
        hub.publish(ViewChanged({"k": k}, "", {}))
        hub.publish(MovePlayed(k, 0, "Alice", f"move {k}"))
    events = hub.catch_up()
    assert [e.screen for e in events if isinstance(e, ViewChanged)] == [{"k": 49}]
    assert [e.step for e in events if isinstance(e, MovePlayed)] == list(range(50))


def test_chat_lines_are_printable_and_go_to_the_table() -> None:
    from p2ptarot.app.events import Chat
    hub = Hub()
    hub.open_table(TableApp("sinople", None, NAMES, 1))
    hub.send(Chat("a\x1b[2Jb"))  # a terminal escape: refused
    hub.send(Chat("  hi   there "))
    assert hub.take_chat() == ["hi there"] and hub.take_chat() == []
    assert [e.text for e in hub.history if isinstance(e, ChatLine)] == ["hi there"]
    assert hub.commands.empty()  # chat never reaches the move chooser
