"""The Eleusis screen (main and side lines), move sentences and the human dealer's rule editor."""

from __future__ import annotations

import random

from tests.games.eleusis.support import Tables, cid, stacked_order

from p2ptarot.bots import make
from p2ptarot.engine import RandomDealer, create, play
from p2ptarot.games.eleusis.moves import (Answer, Call, Commit, DeclareSage, Hint, Judge, NoPlay,
                                          Open, Pass, Pick, Play)
from p2ptarot.present.eleusis import card_name, compose, describe, render  # noqa: F401

BEGINNER_3 = "accept c.suit == p1.suit or c.rank == p1.rank"


def test_card_names():
    assert card_name("hearts-12#2") == "Q♥"
    assert card_name("clubs-1#1") == "A♣"
    assert card_name("spades-10#3") == "10♠"
    assert card_name(None) == "??" and card_name("nonsense") == "??"


def test_screen_shows_main_and_side_lines_and_the_marker():
    order = stacked_order(5, 0, {1: [cid(c) for c in ("S2", "H2", "D7")],
                                 2: [cid(c) for c in ("H2#2", "S2#2", "S13")]}, cid("H9"))
    t = Tables(5, orders={("standard-52x2", 0): order})
    t.start(BEGINNER_3, hints=("ignores position",))
    t.play("S2", "H2")
    t.judge()
    t.decline()
    t.play("H2#2", "S2#2", "S13")
    t.judge()
    t.move(2, DeclareSage())
    screen = render(t.views[3].view(3))
    assert "main line: 9♥ 2♥ 2♠ K♠*" in screen
    assert "under 9♥ (#1): [2♠ 2♥]" in screen
    assert "Sage marker (*) on placement 6" in screen
    assert "hints: ignores position" in screen
    assert "SAGE" in screen and "your hand:" in screen
    assert BEGINNER_3 not in screen  # the rule is the dealer's secret
    assert "rule: " + BEGINNER_3 in render(t.views[0].view(0))


def test_screens_over_whole_games_for_every_seat():
    for players in (4, 8):
        state = create("eleusis", players, options={"rounds": 1})
        seen = []
        play(state, [make("heuristic", f"p{s}") for s in range(players)],
             RandomDealer(random.Random(players)),
             on_move=lambda st, seat, move: seen.append(
                 (render(st.view(seat)), describe(move.to_json(), st.view(seat)))))
        assert seen and all(screen.startswith("Eleusis — round 1 of 1") for screen, _ in seen)
        assert all(sentence for _, sentence in seen)
        assert any("main line:" in screen for screen, _ in seen)


def test_move_sentences():
    view = {"game": "eleusis"}
    assert describe(Play((1,), ("hearts-3#1",)).to_json(), view) == "play 3♥"
    assert describe(Play((1, 2), ("hearts-3#1", "spades-3#1")).to_json(), view) == "play the run 3♥ 3♠"
    assert "no play" in describe(NoPlay((1,), ("hearts-3#1",)).to_json(), view)
    assert describe(Judge("right").to_json(), view) == "judge: right"
    assert describe(Call("wrong").to_json(), view) == "call: wrong"
    assert describe(Answer("no").to_json(), view) == "answer the Sage: no"
    assert describe(Pick(4, "clubs-13#2").to_json(), view) == "name K♣ as a correct card"
    assert describe(DeclareSage().to_json(), view) == "declare Sage"
    assert describe(Pass().to_json(), view) == "do not declare Sage"
    assert describe(Commit("rule-1", "accept\n  c.odd").to_json(), view) == "commit the rule: accept c.odd"
    assert describe(Hint(("history 1",), "think colours").to_json(), view) == (
        'give the hint history 1; "think colours"')
    assert describe(Hint((), "").to_json(), view) == "give no hint"
    assert describe(Open("rule-1", "").to_json(), view) == "open the rule"


def test_a_human_dealer_types_a_rule_and_sees_positioned_errors():
    lines = iter(["accept c.rank > p2.rank", "", "accept c.rank >", "  p1.rank", ""])
    said: list[str] = []
    legal = [Commit("rule-3", "accept c.odd")]
    move = compose({"game": "eleusis"}, legal, lambda prompt: next(lines), said.append)
    assert move == Commit("rule-3", "accept c.rank >\n  p1.rank\n")
    error = next(i for i, s in enumerate(said) if "invalid rule" in s)
    assert "line 1, column 17" in said[error] and "p2 may not exist" in said[error]
    assert said[error + 1] == "    accept c.rank > p2.rank"
    assert said[error + 2] == "    " + " " * 16 + "^"


def test_the_rule_editor_warns_about_degenerate_rules():
    for text, warning in (("accept true", "accepts every card"), ("accept c.rank > 13", "accepts no card")):
        lines = iter([text, ""])
        said: list[str] = []
        move = compose({}, [Commit("rule-1", "accept c.odd")], lambda p: next(lines), said.append)
        assert move == Commit("rule-1", text + "\n")
        assert any(warning in s and "R30" in s for s in said)
    lines = iter(["accept c.odd", ""])
    said = []
    compose({}, [Commit("rule-1", "accept c.odd")], lambda p: next(lines), said.append)
    assert not any("warning" in s for s in said)


def test_a_player_types_a_run():
    view = {"hand": [{"handle": 4, "card": "hearts-7#1"}, {"handle": 9, "card": "hearts-8#2"},
                     {"handle": 2, "card": "spades-12#1"}, {"handle": 5, "card": "hearts-7#2"}]}
    legal = [Play((4,), ("hearts-7#1",)), NoPlay((4, 9, 2, 5), ("hearts-7#1", "hearts-8#2",
                                                                "spades-12#1", "hearts-7#2"))]
    lines = iter(["7H 9H", "7x", "7H 8♥ qs 7h", ""])
    said: list[str] = []
    move = compose(view, legal, lambda p: next(lines), said.append)
    assert move == Play((4, 9, 2, 5), ("hearts-7#1", "hearts-8#2", "spades-12#1", "hearts-7#2"))
    assert any("no (further) 9H" in s for s in said) and any("'7x' is not a card" in s for s in said)
    lines = iter(["7H 7H 7H", ""])
    said = []
    assert compose(view, legal, lambda p: next(lines), said.append) is None
    assert any("no (further) 7H" in s for s in said)


def test_the_rule_editor_can_give_up():
    lines = iter(["."])
    assert compose({}, [Commit("rule-1", "accept true")], lambda p: next(lines), lambda s: None) is None
    assert compose({}, [Pass()], lambda p: "", lambda s: None) is None


class _Typed:
    """Lines typed at the terminal, then nothing more (what the CLI's Console offers)."""

    def __init__(self, lines):
        self.lines = list(lines)

    async def line(self):
        import asyncio
        await asyncio.sleep(0)
        if not self.lines:
            await asyncio.Event().wait()  # the player types nothing more
        return self.lines.pop(0)

    closed_and_empty = False


def _seat_at_terminal(seat, names):
    from p2ptarot.app.hub import Hub
    from p2ptarot.app.table import TableApp
    from p2ptarot.cli.front import Terminal
    hub = Hub()
    hub.open_table(TableApp("eleusis", None, names, seat))
    return hub, Terminal(hub, say=print)


def test_the_terminal_chooser_offers_w_to_write_a_rule(capsys):
    import asyncio

    from p2ptarot.app.human import human_chooser
    from p2ptarot.table.effects import NeedMove

    state = create("eleusis", 4, options={"first_dealer": 1}, viewer=1)
    need = NeedMove(1, tuple(state.legal_moves(1)), state.view(1))
    hub, term = _seat_at_terminal(1, ["p0", "p1", "p2", "p3"])

    async def go():
        typed = _Typed(["w", "accept c.rank >> 1", "", "accept c.rank > p1.rank", ""])
        reader = asyncio.create_task(term.read_commands(typed))
        try:
            return await asyncio.wait_for(human_chooser(hub)(need), 10)
        finally:
            reader.cancel()

    move = asyncio.run(go())
    assert move == Commit("rule-1", "accept c.rank > p1.rank\n")
    out = capsys.readouterr().out
    assert "invalid rule: expected a value, found '>' (line 1, column 16)" in out and "^" in out
    state.check(1, move)


def test_the_dealers_hints_are_checked_before_they_are_sent():
    from p2ptarot.present.eleusis import compose
    view = {"rule": "accept if p1.odd then c.color == black else c.color == red"}
    legal = [Hint((), "")]
    typed = iter(["history 4", "ignores colour", "history 1, ignores position", "x" * 201,
                  "think of parity"])
    said: list[str] = []
    move = compose(view, legal, lambda p: next(typed), said.append)
    assert move == Hint(("history 1", "ignores position"), "think of parity")
    assert any("not a structured hint: history 4" in s for s in said)
    assert any("false of your rule: ignores colour" in s for s in said)
    assert any("200 printable" in s for s in said)


def test_the_dealers_judgments_need_no_typing():
    import asyncio

    from p2ptarot.app.events import Notice
    from p2ptarot.app.human import human_chooser
    from p2ptarot.present.eleusis import automatic
    from p2ptarot.table.effects import NeedMove

    t = Tables(5)
    t.start("accept c.color != p1.color")
    t.play_first()
    view = t.views[0].view(0)
    legal = t.views[0].legal_moves(0)
    assert automatic(view, legal) and len(legal) == 1
    hub, _ = _seat_at_terminal(0, [f"p{i}" for i in range(5)])
    move = asyncio.run(asyncio.wait_for(human_chooser(hub)(NeedMove(0, tuple(legal), view)), 5))
    assert move == legal[0]
    # told once (issue 33, item 9): by the move's own line, marked automatic; no notice besides
    assert not any(isinstance(e, Notice) and "judge" in e.text for e in hub.history)
    said = hub.app.move_recorded(9, 0, move.to_json(), view)  # its line in the log: the one
    assert said.automatic and said.sentence.startswith("judge:")
    t.move(0, move)
    seat = t.seat()
    assert seat != 0 and not automatic(t.views[seat].view(seat), t.views[seat].legal_moves(seat)[:1])
