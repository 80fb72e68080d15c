"""The Arcanum terminal screen: the city, figures, prestige tracks and VP from a seat's view, own
cards named, others' private cards never named; every legal move has a sentence."""

from __future__ import annotations

import random
from typing import Any

import pytest

from p2ptarot import bots
from p2ptarot.present import presenter
from p2ptarot.present.arcanum import board_data, card_name
from p2ptarot.engine import PUBLIC, RandomDealer, create, play


@pytest.mark.parametrize("players", [3, 5])
def test_screens_show_own_cards_and_hide_the_others(players: int) -> None:
    state = create("arcanum", players)
    agents = [bots.make("heuristic", f"p:{s}") for s in range(players)]
    stats = {"screens": 0, "hidden": 0, "sentences": 0}
    step = [0]

    def on_move(st: Any, mover: int, move: Any) -> None:
        step[0] += 1
        view = st.view(mover)
        for legal in st.legal_moves(mover)[:60]:
            sentence = presenter("arcanum").sentence(legal, view)
            assert sentence and "=" not in sentence and "None" not in sentence, sentence
            stats["sentences"] += 1
        if step[0] % 7:
            return
        for seat in range(players):
            text = presenter("arcanum").render(st.view(seat))
            assert "None" not in text and "{" not in text
            for s in range(players):
                for h in st.z.hands[s] + st.z.hidden[s]:
                    name = card_name(st.cards[h])
                    if st.known_to(h, seat):
                        assert name in text, f"{name} not shown to seat {seat}"
                    else:
                        stats["hidden"] += 1
                        assert f" {name}," not in text and f" {name}\n" not in text \
                            and not text.endswith(name), f"{name} leaked to seat {seat}"
            stats["screens"] += 1

    play(state, agents, RandomDealer(random.Random(players)), on_move=on_move)
    final = presenter("arcanum").render(state.view(0))
    assert "The city:" in final and "Prestige" in final and "VP" in final
    assert stats["screens"] > 10 and stats["hidden"] > 50 and stats["sentences"] > 100


def test_card_names() -> None:
    assert card_name("cups-7") == "7 of cups"
    assert card_name("swords-1") == "ace of swords"
    assert card_name("coins-knave") == "knave of coins"
    assert card_name("major-17") == "XVII The Star"
    assert card_name(None, "minor") == "a minor"
    assert card_name("bogus") == "a hidden card"
    assert PUBLIC == -1


def test_board_data_for_a_graphical_board_is_json_and_leaks_nothing() -> None:
    import json

    state = create("arcanum", 4)
    seen = {"boards": 0}

    def on_move(st: Any, mover: int, move: Any) -> None:
        if seen["boards"] > 40:
            return
        data = board_data(st.view(mover))
        json.dumps(data)
        assert [loc["number"] for loc in data["locations"]] == list(range(1, 11))
        figures = [f["id"] for loc in data["locations"] for f in loc["figures"]]
        held = [f for p in data["players"] for f in p["held_figures"]]
        assert len(figures) + len(held) == 16
        assert [t["house"] for t in data["prestige"]] == ["swords", "wands", "cups", "coins"]
        for p in data["players"]:
            for c in p["hand"]:
                if p["seat"] != mover and c["card"] is not None:
                    h = next(x["handle"] for x in st.view(mover)["players"][p["seat"]]["hand"]
                             if x["card"] == c["card"])
                    assert st.known_to(h, mover)
        seen["boards"] += 1

    play(state, [bots.make("random", f"b:{s}") for s in range(4)], RandomDealer(random.Random(2)),
         on_move=on_move)
    assert seen["boards"] > 40
