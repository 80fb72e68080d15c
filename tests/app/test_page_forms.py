"""Moves written in the browser page's forms: the `write` command parsed strictly from hostile
input, the Eleusis presenter building rules, hints and runs from validated fields only (and the
engine taking what it builds), Arcanum's board fields and hand for the page."""

from __future__ import annotations

import random
from typing import Any

import pytest

from p2ptarot.app.events import (MAX_WRITTEN_BYTES, FormReply, WriteMove, command_from_json)
from p2ptarot.app.forms import answer_written
from p2ptarot.present.screen import move_options, screen
from p2ptarot.engine import create
from p2ptarot.engine.local import RandomDealer, play
from p2ptarot.games.eleusis.erl.lexer import MAX_TEXT_BYTES
from p2ptarot.present import eleusis as pe
from p2ptarot.present import presenter
from p2ptarot.present.page import PageMoveError

NAMES = ("Alice", "Bob", "Carol", "Dan")


class _Stop(Exception):
    pass


def _decisions(game: str, players: int, want: Any, seed: int = 3, limit: int = 5) -> list[tuple]:
    """(seat, view, legal) where `want(view, legal)` holds, from a random local game."""
    found: list[tuple] = []

    class Agent:
        uses_view = True

        def __init__(self) -> None:
            self.rng = random.Random(seed)

        def choose(self, seat: int, view: Any, legal: Any) -> Any:
            if want(view, legal):
                found.append((seat, view, list(legal)))
                if len(found) >= limit:
                    raise _Stop
            return self.rng.choice(legal)

    try:
        play(create(game, players), [Agent()] * players, RandomDealer(random.Random(seed)))
    except _Stop:
        pass
    return found


def _phase(name: str):
    return lambda view, legal: view.get("phase") == name


# ---- the command ------------------------------------------------------------------------------------
def test_a_write_command_keeps_typed_bounded_fields_only() -> None:
    cmd = command_from_json({"cmd": "write", "turn": 4, "form": "run", "handles": [7, 3],
                             "extra": {"eval": "x"}})
    assert cmd == WriteMove(4, "run", "", (), (7, 3), False)
    rule = command_from_json({"cmd": "write", "turn": 1, "form": "rule", "text": "accept true",
                              "check": True})
    assert isinstance(rule, WriteMove) and rule.check and rule.text == "accept true"
    assert MAX_WRITTEN_BYTES == MAX_TEXT_BYTES  # the page's bound is ERL's own


@pytest.mark.parametrize("data", [
    {"cmd": "write", "turn": "1", "form": "rule"},
    {"cmd": "write", "turn": True, "form": "rule"},
    {"cmd": "write", "turn": 1, "form": "eval"},
    {"cmd": "write", "turn": 1, "form": ["rule"]},
    {"cmd": "write", "turn": 1, "form": "rule", "text": 5},
    {"cmd": "write", "turn": 1, "form": "rule", "text": "x" * (MAX_TEXT_BYTES + 1)},
    {"cmd": "write", "turn": 1, "form": "rule", "text": "é" * (MAX_TEXT_BYTES // 2 + 1)},
    {"cmd": "write", "turn": 1, "form": "hint", "choices": "ignores rank"},
    {"cmd": "write", "turn": 1, "form": "hint", "choices": [1]},
    {"cmd": "write", "turn": 1, "form": "hint", "choices": ["x" * 41]},
    {"cmd": "write", "turn": 1, "form": "hint", "choices": ["a"] * 9},
    {"cmd": "write", "turn": 1, "form": "run", "handles": [1, True]},
    {"cmd": "write", "turn": 1, "form": "run", "handles": [1, "2"]},
    {"cmd": "write", "turn": 1, "form": "run", "handles": [1, -2]},
    {"cmd": "write", "turn": 1, "form": "run", "handles": [1, 2.0]},
    {"cmd": "write", "turn": 1, "form": "run", "handles": list(range(9))},
    {"cmd": "write", "turn": 1, "form": "run", "handles": {"0": 1}},
    {"cmd": "write", "turn": 1, "form": "rule", "check": "yes"},
    {"cmd": "write", "turn": 1, "form": "rule", "text": "accept \ud800"},
    {"cmd": "write", "turn": 1, "form": "hint", "choices": ["ignores\nrank"]},
])
def test_a_malformed_write_command_is_refused(data: dict) -> None:
    with pytest.raises(ValueError):
        command_from_json(data)


# ---- the Eleusis rule -------------------------------------------------------------------------------
def _rule_decision() -> tuple:
    return _decisions("eleusis", 4, _phase("rule"), limit=1)[0]


def test_an_invalid_rule_is_refused_with_its_line_and_column() -> None:
    seat, view, legal = _rule_decision()
    with pytest.raises(PageMoveError) as err:
        pe.page_move(view, legal, "rule", "accept\n  c.color == p1.colour\n")
    assert err.value.line == 2 and err.value.column > 1
    with pytest.raises(PageMoveError) as err:
        pe.page_move(view, legal, "rule", "accept c.rank > > 3\n")
    assert err.value.line == 1 and "invalid rule" in err.value.message


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("   \n\n", "empty"),
    ("accept " + "(" * 70 + "true" + ")" * 70, "nests more than"),
    ("accept c.rank == 1 or " * 300 + "true", "longer than"),
    ("accept c.rank == 99999", "larger than"),
    ("accept true\x00", "unexpected character"),
    ("accept c.rank == １", "ASCII"),
])
def test_a_rule_over_erls_limits_is_refused(text: str, words: str) -> None:
    seat, view, legal = _rule_decision()
    with pytest.raises(PageMoveError, match=words):
        pe.page_move(view, legal, "rule", text)


def test_a_valid_rule_becomes_the_dealers_commit_with_a_warning_when_degenerate() -> None:
    seat, view, legal = _rule_decision()
    move, note = pe.page_move(view, legal, "rule", "accept c.color != p1.color\r\n")
    assert move.KIND == "commit" and move.name == legal[0].name
    assert move.value == "accept c.color != p1.color\n" and note == ""
    move, note = pe.page_move(view, legal, "rule", "accept true")
    assert "accepts every card" in note


def test_answer_written_checks_without_playing_and_refuses_a_stale_turn() -> None:
    seat, view, legal = _rule_decision()
    mod = presenter("eleusis")
    move, reply = answer_written(mod, view, legal, 5, WriteMove(5, "rule", "accept c.odd", check=True))
    assert move is None and reply.ok and not reply.played and "nothing is committed" in reply.text
    move, reply = answer_written(mod, view, legal, 5, WriteMove(5, "rule", "accept\nc.od"))
    assert move is None and not reply.ok and reply.line == 2 and reply.excerpt == "c.od"
    move, reply = answer_written(mod, view, legal, 6, WriteMove(5, "rule", "accept c.odd"))
    assert move is None and not reply.ok and "earlier turn" in reply.text
    move, reply = answer_written(mod, view, legal, 5, WriteMove(5, "run", handles=(1, 2)))
    assert move is None and "no run can be written now" in reply.text
    move, reply = answer_written(presenter("sinople"), view, legal, 5, WriteMove(5, "rule", "x"))
    assert move is None and reply == FormReply("rule", False, "this game has no written moves")
    move, reply = answer_written(mod, view, legal, 5, WriteMove(5, "rule", "accept c.odd"))
    assert move is not None and move.value == "accept c.odd\n" and reply.played


# ---- hints and runs ---------------------------------------------------------------------------------
def test_a_hint_is_built_from_true_structured_hints_only() -> None:
    _, view, legal = _decisions("eleusis", 4, _phase("hint"), limit=1)[0]
    rule = view["rule"]
    assert isinstance(rule, str)
    true = [h["hint"] for h in screen(view, NAMES)["eleusis"]["hints"] if h["holds"]]
    false = [h for h in pe.HINTS if h not in true]
    assert false  # every library rule looks at something
    with pytest.raises(PageMoveError, match="false of your rule"):
        pe.page_move(view, legal, "hint", choices=[false[0]])
    with pytest.raises(PageMoveError, match="not a structured hint"):
        pe.page_move(view, legal, "hint", choices=["the rule is easy"])
    with pytest.raises(PageMoveError, match="printable"):
        pe.page_move(view, legal, "hint", text="x" * 201)
    move, _ = pe.page_move(view, legal, "hint", text="  think  colours ", choices=true[:1])
    assert move.KIND == "hint" and move.hints == tuple(true[:1]) and move.text == "think colours"
    if true:
        with pytest.raises(PageMoveError, match="once"):
            pe.page_move(view, legal, "hint", choices=[true[0], true[0]])


def _play_decision() -> tuple:
    return _decisions("eleusis", 4, lambda v, l: v.get("phase") == "play"
                      and len(v.get("hand") or []) >= 5, limit=1)[0]


@pytest.mark.parametrize("handles, words", [
    ([], "2 to 4"),
    (["first"], "2 to 4"),
    (["first", "second", "third", "fourth", "fifth"], "2 to 4"),
    (["first", "first"], "twice"),
    (["first", 9999], "not in your hand"),
    (["first", True], "cards of your hand"),
    (["first", "2"], "cards of your hand"),
])
def test_a_bad_run_is_refused(handles: list, words: str) -> None:
    _, view, legal = _play_decision()
    hand = [h["handle"] for h in view["hand"]]
    named = [hand[0] if h == "first" else hand[1] if h == "second" else hand[2] if h == "third"
             else hand[3] if h == "fourth" else hand[4] if h == "fifth" else h for h in handles]
    with pytest.raises(PageMoveError, match=words):
        pe.page_move(view, legal, "run", handles=named)


def test_a_card_of_another_hand_is_refused() -> None:
    seat, view, legal = _play_decision()
    others = {p["handle"] for p in view["layout"]["main"]}
    mine = [h["handle"] for h in view["hand"]]
    with pytest.raises(PageMoveError, match="not in your hand"):
        pe.page_move(view, legal, "run", handles=[mine[0], sorted(others)[0]])


def test_the_engine_takes_the_rule_hint_and_run_the_page_wrote() -> None:
    """A whole round start driven by page forms only: the engine applies each built move."""
    played: list[str] = []

    class Writer:
        uses_view = True

        def __init__(self) -> None:
            self.rng = random.Random(5)

        def choose(self, seat: int, view: Any, legal: Any) -> Any:
            phase = view.get("phase")
            if phase == "rule":
                played.append("rule")
                return pe.page_move(view, legal, "rule", "accept c.suit == p1.suit or c.odd")[0]
            if phase == "hint":
                played.append("hint")
                return pe.page_move(view, legal, "hint", "odd?", ["ignores position"])[0]
            if phase == "play" and "run" in played:
                raise _Stop
            if phase == "play" and len(view["hand"]) >= 3:
                played.append("run")
                run = [h["handle"] for h in view["hand"][:3]]
                return pe.page_move(view, legal, "run", handles=run)[0]
            return self.rng.choice(legal)

    with pytest.raises(_Stop):  # the run was applied (a refusal raises IllegalMove instead)
        play(create("eleusis", 4), [Writer()] * 4, RandomDealer(random.Random(5)))
    assert played == ["rule", "hint", "run"]


def test_the_eleusis_screen_carries_the_forms_data_and_the_layout() -> None:
    _, view, legal = _play_decision()
    sc = screen(view, NAMES)
    ev = sc["eleusis"]
    assert [h["handle"] for h in ev["hand"]] == [h["handle"] for h in view["hand"]]
    assert ev["max_run"] == 4 and ev["max_rule_bytes"] == MAX_TEXT_BYTES and ev["examples"]
    assert [c["main"]["id"] for c in ev["columns"]] == [p["card"] for p in view["layout"]["main"]]
    assert ev["rule"] is None  # a player's view: the rule stays secret
    assert pe.page_forms(view, legal) == ["run"]


# ---- Arcanum ----------------------------------------------------------------------------------------
def test_arcanum_screen_has_the_seats_hand_and_board_and_moves_name_their_fields() -> None:
    found = _decisions("arcanum", 3, lambda v, l: any(m.KIND == "play-minor" and m.figure for m in l),
                       limit=1)
    seat, view, legal = found[0]
    sc = screen(view, NAMES[:3])
    own = next(p for p in view["players"] if p["seat"] == seat)
    assert sorted(f["id"] for f in sc["hand"]) == sorted(c["card"] for c in own["hand"])
    board = sc["board"]
    assert [p["vp"] for p in board["players"]] == [p["vp"] for p in view["players"]]
    assert [p["name"] for p in board["players"]] == list(NAMES[:3])
    assert len(board["locations"]) == 10 and len(board["prestige"]) == 4
    options = move_options(legal, view, NAMES[:3])
    minor = next(o for o in options if legal[o.index].KIND == "play-minor" and legal[o.index].figure)
    move = legal[minor.index]
    assert minor.targets == (f"loc-{move.dest}", move.figure) and minor.card == move.card


def _fields_decision() -> tuple:
    return _decisions("arcanum", 3, lambda v, l: (v.get("decision") or {}).get("name") == "fields",
                      limit=1)[0]


@pytest.mark.parametrize("devil", [False, True])
def test_arcanum_fields_is_composed_on_the_prestige_tracks_never_a_list(devil: bool) -> None:
    """The 81 Fields moves are pointed at, one chip per House (-1, 0, +1 on its track): no button
    to read, and four chips name exactly one move, the one the preview then plays."""
    from p2ptarot.present.arcanum import fields_result

    seat, view, legal = _fields_decision()
    view = dict(view, devil=devil, prestige=dict(view["prestige"], cups=21, wands=0))
    options = move_options(legal, view, NAMES[:3])
    assert len(options) == 81 and all(o.targets and not o.card for o in options)
    for o in options:
        changes = legal[o.index].changes
        assert o.targets == tuple(f"fields-{h}{c:+d}" if c else f"fields-{h}0"
                                  for h, c in zip(("swords", "wands", "cups", "coins"), changes))
        assert [x.index for x in options if set(o.targets) <= set(x.targets)] == [o.index]
    chips = screen(view, NAMES[:3])["board"]
    assert chips["fields"] == {"double": devil}
    double = 2 if devil else 1
    for track in chips["prestige"]:
        value = view["prestige"][track["house"]]
        assert [c["change"] for c in track["fields"]] == [-double, 0, double]
        assert [c["reach"] for c in track["fields"]] == [max(0, value - double), value,
                                                         min(21, value + double)]
        assert all(sum(c["target"] in o.targets for o in options) == 27 for c in track["fields"])
    # the preview tells each track's value after the move, the Devil and the overflow included
    up = next(o for o in options if legal[o.index].changes == (0, 0, 1, 0))
    after = fields_result((0, 0, 1, 0), view)
    assert after["cups"] == 21 and after["swords"] == max(0, view["prestige"]["swords"] - double)
    assert f"cups +{double} → 21" in up.sentence
    # another seat's screen (or another decision) draws no chips
    other = dict(view, seat=(seat + 1) % 3)
    assert "fields" not in screen(other, NAMES[:3])["board"]


def test_arcanum_temperance_swaps_are_picked_from_the_hand_and_the_hidden_cards() -> None:
    """Temperance's swaps (up to 300 listed, A5) go through the card picker: each names the
    hand's given cards and the hidden cards taken back, all on the seat's screen; only "swap
    nothing" is a button."""
    found = []
    for seed in range(40):
        found = _decisions("arcanum", 3, lambda v, l: (v.get("decision") or {}).get("name") == "swap"
                           and len(l) > 20, seed=seed, limit=1)
        if found:
            break
    seat, view, legal = found[0]
    options = move_options(legal, view, NAMES[:3])
    buttons = [o for o in options if not (o.card or o.targets or len(o.cards) >= 2)]
    assert [legal[o.index].give for o in buttons] == [()]
    sc = screen(view, NAMES[:3])
    shown = {f["id"] for f in sc["hand"]} | {f["id"] for p in sc["pickable"] for f in p["cards"]}
    known = {c["handle"]: c["card"] for p in view["players"] for c in p["hand"] + p["hidden"]}
    for o in options:
        move = legal[o.index]
        if move.give:
            assert o.cards == tuple(known[h] for h in move.give + move.take)
            assert set(o.cards) <= shown
    # a pair of swaps names its four cards: the two pairings are the only exact matches
    pair = next(o for o in options if len(o.cards) == 4)
    same = [o for o in options if sorted(o.cards) == sorted(pair.cards)]
    assert len(same) == 2


def test_arcanoid_chariot_loads_are_picked_with_the_chariot_never_listed() -> None:
    """Each way to load the Chariot names the Chariot and the loaded cards, for the card picker:
    a click on the Chariot in the hand leaves only its few other moves as buttons."""
    found = []
    for seed in range(12):
        found = _decisions("arcanoid", 4, lambda v, l: sum(m.KIND == "chariot-load" for m in l) > 10,
                           seed=seed, limit=1)
        if found:
            break
    seat, view, legal = found[0]
    options = move_options(legal, view, NAMES)
    loads = [o for o in options if legal[o.index].KIND == "chariot-load"]
    for o in loads:
        move = legal[o.index]
        assert o.card == move.card and o.cards == (move.card, *move.cards), o
    chariot = [o for o in options if o.card == loads[0].card]
    assert len([o for o in chariot if len(o.cards) < 2]) <= 10


# ---- generic screen fixes ---------------------------------------------------------------------------
def test_round_records_keyed_by_seat_are_worded_and_the_round_never_passes_the_last() -> None:
    from p2ptarot.app.results import round_rows

    record = {"round": 1, "stakes": {"0": 1, "1": 2}, "cards": {"0": "minor-star-ancestor",
              "1": "minor-cup-god"}, "bets": {"0": "major", "1": "minor"}, "winner": 1}
    row = round_rows({"history": [record]}, ["Alice", "Bob"])[0]
    assert row["stakes"] == "Alice 1, Bob 2" and row["bets"] == "Alice major, Bob minor"
    assert row["cards"] == "Alice ancestor of stars, Bob god of cups" and row["winner"] == "Bob"
    view = _decisions("paris-divins", 2, lambda v, l: True, limit=1)[0][1]
    assert screen(dict(view, round=9, rounds=8), NAMES[:2])["round"] == "round 8/8"


def test_paris_divins_wagers_name_their_card_and_bet_field() -> None:
    seat, view, legal = _decisions("paris-divins", 2, lambda v, l: l[0].KIND == "wager", limit=1)[0]
    options = move_options(legal, view, NAMES[:2])
    for o in options:
        move = legal[o.index]
        assert o.targets == (f"bet-{move.bet}",)
        assert o.card == view["hand"][view["hand_handles"].index(move.handle)]
    wager = screen(view, NAMES[:2])["wager"]
    assert [s["stake"] for s in wager["seats"]] == view["stakes"]
    assert [b["bet"] for b in wager["bets"]] == ["minor", "major", "divine"]


def test_eleusis_last_event_reads_names_and_card_names() -> None:
    _, view, _ = _play_decision()
    sc = screen(dict(view, last_event="seat 1 plays hearts-6#1"), NAMES)
    assert sc["eleusis"]["last_event"] == "Bob plays 6♥"
    assert "last: seat 1 plays 6♥" in pe.render(dict(view, last_event="seat 1 plays hearts-6#1"))


def test_a_secret_record_this_seat_cannot_see_is_drawn_face_down() -> None:
    """KOBLENZ: another participant's secret engagement reaches the view as "" cards; the
    presenter used to raise on it (which would have ended the page's game)."""
    from p2ptarot.present.arcanoid import render

    def secret(view: Any, legal: Any) -> bool:
        return any(c == "" for p in view["participants"] for r in p["records"].values()
                   for c in r.get("cards") or [])

    seat, view, _ = _koblenz_secret(secret)
    assert "face down" in render(view)
    fields = screen(view, NAMES[:2])["fields"]["fields"]
    backs = [c for f in fields for e in f["entries"] for c in e["cards"] if c["kind"] == "back"]
    assert backs and all(c["id"] is None for c in backs)


def _koblenz_secret(want: Any) -> tuple:
    found: list[tuple] = []

    class Agent:
        uses_view = True

        def __init__(self) -> None:
            self.rng = random.Random(1)

        def choose(self, seat: int, view: Any, legal: Any) -> Any:
            if want(view, legal):
                found.append((seat, view, list(legal)))
                raise _Stop
            return self.rng.choice(legal)

    try:
        play(create("arcanoid", 2, "KOBLENZ"), [Agent()] * 2, RandomDealer(random.Random(1)))
    except _Stop:
        pass
    return found[0]


def test_a_presenter_fault_falls_back_to_the_generic_screen() -> None:
    _, view, _ = _play_decision()
    broken = dict(view, layout={"main": "not a list"})
    sc = screen(broken, NAMES)
    assert "eleusis" not in sc and sc["text"].startswith("{")  # JSON text, no exception


def test_arcanoid_moves_name_their_field_for_the_board() -> None:
    seat, view, legal = _decisions("arcanoid", 2, lambda v, l: any(m.KIND == "engage" for m in l),
                                   limit=1)[0]
    options = move_options(legal, view, NAMES[:2])
    engage = [o for o in options if legal[o.index].KIND == "engage"]
    assert engage and all(o.targets == tuple(f"field-{f}" for f in legal[o.index].fields)
                          for o in engage)
    abdicate = [o for o in options if legal[o.index].KIND == "abdicate"]
    assert all(o.targets == (f"field-{legal[o.index].field}",) for o in abdicate)
    fields = screen(view, NAMES[:2])["fields"]["fields"]
    assert [f["field"] for f in fields] == ["swords", "wands", "cups", "coins"]


def test_the_tables_cryptographic_steps_are_worded_for_players() -> None:
    from p2ptarot.app.table import TableApp, busy_words

    assert busy_words("mental.shares for tarot-78/arcanoid epoch 0 (op 4)") == "dealing the cards"
    assert busy_words("mental.shuffle for x") == "shuffling the cards"
    assert busy_words("mental.unknown-step") == "the cards' cryptography"
    assert busy_words("move") == "move"
    ev = TableApp("arcanoid", None, NAMES[:2], seat=0).waiting([1], "mental.shuffle for d", None)
    assert ev is not None and ev.sentence == "shuffling the cards: waiting for Bob"


def test_moves_naming_several_cards_carry_them_and_one_handle_moves_their_card() -> None:
    found = _decisions("arcanum", 3, lambda v, l: any(m.KIND == "hide" and len(m.handles) >= 2
                                                      for m in l), limit=1)
    seat, view, legal = found[0]
    known = {c["handle"]: c["card"] for p in view["players"] for c in p["hand"] + p["hidden"]}
    for o in move_options(legal, view, NAMES[:3]):
        move = legal[o.index]
        if move.KIND != "hide":
            continue
        if len(move.handles) >= 2:
            assert o.cards == tuple(known[h] for h in move.handles) and o.card is None
        elif len(move.handles) == 1:
            assert o.card == known[move.handles[0]] and o.cards == ()


def test_trick_piles_say_which_trick_who_won_the_last_and_the_demand() -> None:
    seat, view, legal = _decisions("trois-roses", 3, lambda v, l: bool(v.get("trick"))
                                   and v.get("demand") == "minor" and v.get("last_trick"), limit=1)[0]
    sc = screen(view, NAMES[:3])
    labels = [p["label"] for p in sc["piles"]]
    # the trick is drawn on the table: its number and demand in the middle, each card by its seat
    table = sc["tricktable"]
    assert table["centre"] == f"trick {view['trick_number']} of {view['tricks']} — demand: {view['demand_family']}"
    assert [(p["seat"], p["card"]["id"]) for p in table["seats"] if p["card"]] == \
        sorted((s, c) for s, c in view["trick"])
    assert not any(label.startswith("trick") for label in labels)
    assert f"last trick, won by {NAMES[view['last_winner']]}" in labels
