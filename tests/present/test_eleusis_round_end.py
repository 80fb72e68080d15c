"""Eleusis' round end (issue 23): the opened rule re-judges every play of the round's layout."""

from __future__ import annotations

import copy
import random
from typing import Any

from p2ptarot import bots
from p2ptarot.engine import RandomDealer, create, play
from p2ptarot.present import presenter

NAMES = ("Ann", "Ben", "Cat", "Dan")


def _round_ends(seed: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(the last view of a round with cards on its layout, the view that ended it)."""
    state = create("eleusis", 4)
    agents = [bots.make("heuristic", f"{seed}:{s}") for s in range(4)]
    last: list[dict[str, Any]] = [state.view(0)]
    out = []

    def on_move(st: Any, mover: int, move: Any) -> None:
        view = st.view(0)
        if len(view.get("round_scores") or []) > len(last[0].get("round_scores") or []):
            out.append((last[0], view))
        last[0] = view

    play(state, agents, RandomDealer(random.Random(seed)), on_move=on_move)
    return [(b, a) for b, a in out if len(b["layout"]["main"]) > 1]


def test_every_judgment_of_a_round_is_rechecked_with_the_opened_rule() -> None:
    ends = _round_ends(3)
    assert ends
    sides = 0
    for before, after in ends:
        lines = presenter("eleusis").round_lines(before, after, NAMES)
        layout = before["layout"]
        blocks = sum(len(col) for col in layout["side"])
        sides += blocks
        assert lines[0] == "Each judgment re-checked against the opened rule:"
        assert len(lines) == 1 + 1 + blocks  # the main line in one line, each refused play
        assert not any("misjudged" in line for line in lines)  # the dealer's peer judged right
        count = len(layout["main"]) - 1
        assert lines[1] == f"  the {count} cards played onto the main line: the rule accepts each one"
        assert sum(line.endswith("refused: the rule refuses it") for line in lines) == blocks
    assert sides > 0
    # another rule opened: the same layout now shows the misjudged plays
    before, after = next((b, a) for b, a in ends if any(b["layout"]["side"]))
    other = copy.deepcopy(after)
    other["past_rules"][-1] = "accept true"
    lines = presenter("eleusis").round_lines(before, other, NAMES)
    assert any("refused, but the rule accepts it (misjudged)" in line for line in lines)


def test_the_table_app_sends_the_rechecks_with_the_round() -> None:
    from p2ptarot.app.table import TableApp

    before, after = _round_ends(3)[0]
    app = TableApp("eleusis", None, NAMES, 0)
    app.view_changed(before)
    app.rounds_over(before)  # earlier rounds, already shown
    app.view_changed(after)
    [ev] = app.rounds_over(after)[-1:]
    assert ev.result["rule"] == after["past_rules"][-1].strip() and "scores" in ev.result
    assert ev.details and ev.details[0] == "Each judgment re-checked against the opened rule:"
    assert ev.to_json()["details"] == list(ev.details) or ev.to_json()["details"] == ev.details


def test_the_totals_footnote_says_why_a_total_exceeds_its_rounds() -> None:
    """Rules §4.16: before everyone has dealt, a seat that has not dealt counts +10 (Bot1: round
    16, total 26); the round's table says so (spec/APP.md, "Round ends")."""
    from p2ptarot.app.table import TableApp
    from p2ptarot.cli.front import Terminal
    from p2ptarot.app.hub import Hub

    before, after = _round_ends(3)[0]
    sums = [sum(r[s] for r in after["round_scores"]) for s in range(4)]
    assert sorted(t - s for t, s in zip(after["totals"], sums)) in ([0, 10, 10, 10], [0, 0, 10, 10])
    app = TableApp("eleusis", None, NAMES, 0)
    app.view_changed(before)
    app.rounds_over(before)
    app.view_changed(after)
    ev = app.rounds_over(after)[-1]
    assert ev.note == "totals include rules §4.16's +10 for each seat that has not dealt yet"
    # the round just ended: the others' next messages are awaited 'between rounds'
    assert app.waiting([1, 2], "mental.shuffle for standard-52 epoch 2 (op 0)", None).what \
        == "between-rounds"
    said: list[str] = []
    Terminal(Hub(), say=said.append).on_event(ev)
    text = "\n".join(said)
    assert "total *" in text and "* totals include rules §4.16's +10" in text
    done = copy.deepcopy(after)
    done["totals"] = sums  # every seat has dealt: the totals are the rounds' sum
    assert presenter("eleusis").totals_note(done) == ""
