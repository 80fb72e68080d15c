"""The terminal renderer over real local games: every seat's screen at every step names that
seat's own cards, never a hidden card of another seat, and every legal move met has a sentence."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from p2ptarot import bots
from p2ptarot.present import presenter
from p2ptarot.present.cards import HIDDEN, card_name
from p2ptarot.engine import RandomDealer, create
from p2ptarot.engine.local import play
from p2ptarot.engine.types import Pass
from p2ptarot.games.arcanoid.moves import Call, Engage


def test_card_names() -> None:
    assert card_name("cups-queen") == "queen of cups"
    assert card_name("cups-3") == "3 of cups"
    assert card_name("swords-1") == "ace of swords"
    assert card_name("trump-17") == "XVII The Star"
    assert card_name("trump-8") == "VIII Justice"
    assert card_name("trump-21") == "XXI The World"
    assert card_name("fool") == "The Fool"
    assert card_name("num-b-7") == "B7"
    assert card_name("fig-c-wife") == "wife of C"
    assert card_name(None) == HIDDEN and card_name("trump-99") == HIDDEN and card_name(7) == HIDDEN


def test_move_sentences() -> None:
    view: dict[str, Any] = {"game": "arcanoid", "seat": 0, "participants": [], "decision": None}
    assert presenter(view["game"]).sentence(Engage(("cups",), (3, 7), ("cups-3", "cups-7")), view) == \
        "Engage on cups: 3 of cups, 7 of cups"
    assert presenter(view["game"]).sentence(Call(1, "trump-17", "cups-queen"), view) == "Call the queen of cups with The Star"
    assert presenter(view["game"]).sentence(Pass(), view) == "Pass"
    assert presenter("arcanoid").group(Call(1, "trump-17", "cups-queen")) == "call a card"


def test_unknown_game_falls_back_to_json() -> None:
    view = {"game": "no-such-game", "seat": 1, "hand": ["x"]}
    text = presenter(view["game"]).render(view)
    assert '"game": "no-such-game"' in text and "\n" in text
    assert presenter(view["game"]).sentence({"kind": "guess", "rule": 3}, view) == "guess rule=3"


def _mentions(text: str, card: str) -> bool:
    """Whether `text` names `card` as a whole phrase (no '2 of cups' inside '12 of cups')."""
    name = re.escape(card_name(card))
    return re.search(rf"(?<![\w]){name}(?![\w])", text) is not None or card in text


def _revealed(value: Any, out: set[str]) -> set[str]:
    """Every string anywhere in the view: the cards it reveals are among them."""
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _revealed(v, out)
    elif isinstance(value, list):
        for v in value:
            _revealed(v, out)
    return out


def _own_and_hidden(state: Any, view: dict[str, Any], seat: int) -> tuple[list[str], list[str]]:
    """(cards of this seat's own hand per the view, other seats' cards the view keeps hidden)."""
    if view["game"] == "sinople":
        own = list(view["hand"])
        others = [state.cards[h] for s, hand in enumerate(state.hands) if s != seat for h in hand]
    else:
        own, others = [], []
        for p in view["participants"]:
            for zone in ("hand", "visible", "reserve"):
                for c in p[zone]:
                    if p["seat"] == seat and not p["finished"]:
                        # a draw that emptied the pile is seen only after the vote (rules §2.7)
                        assert c["card"] is not None or view["decision"]["name"] == "vote"
                        if c["card"] is not None:
                            own.append(c["card"])
                    elif c["card"] is None:
                        others.append(state.cards[c["handle"]])
        others += [state.cards[h] for h in state.pile]
    revealed = _revealed(view, set())
    if view.get("search_value") is not None:  # the opener search names the card it asks for
        revealed.add(f"num-{view['round_class']}-{view['search_value']}")
    return own, [c for c in others if c is not None and c not in revealed]


def _check_game(game: str, players: int, seed: int, every: int) -> dict[str, int]:
    state = create(game, players)
    kind = "heuristic" if seed % 2 else "random"
    agents = [bots.make(kind, f"{seed}:{s}") for s in range(players)]
    stats = {"screens": 0, "moves": 0, "lines": 0, "hidden": 0}
    step = [0]

    def on_move(st: Any, mover: int, move: Any) -> None:
        step[0] += 1
        view = st.view(mover)
        for legal in st.legal_moves(mover):
            sentence = presenter(view["game"]).sentence(legal, view)
            assert sentence and "=" not in sentence, sentence
            stats["moves"] += 1
        assert presenter(view["game"]).sentence(move, view)
        if step[0] % every:
            return
        for seat in range(players):
            view = st.view(seat)
            text = presenter(view["game"]).render(view)
            own, hidden = _own_and_hidden(st, view, seat)
            for card in own:
                assert _mentions(text, card), f"{card} of seat {seat}'s hand is not shown:\n{text}"
            stats["hidden"] += len(hidden)
            for card in hidden:
                assert not _mentions(text, card), f"hidden {card} leaked to seat {seat}:\n{text}"
            assert "None" not in text and "{" not in text
            stats["screens"] += 1
            stats["lines"] = max(stats["lines"], len(text.splitlines()))

    outcome = play(state, agents, RandomDealer(random.Random(f"deal:{seed}")), on_move=on_move)
    assert outcome is not None
    final = presenter(game).render(state.view(0))
    assert final.startswith("==")
    return stats


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_sinople_screens(players: int, seed: int) -> None:
    stats = _check_game("sinople", players, seed, every=1)
    assert stats["screens"] > 100 and stats["hidden"] > 100 and stats["lines"] <= 20


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [1, 2])
def test_arcanoid_screens(players: int, seed: int) -> None:
    stats = _check_game("arcanoid", players, seed, every=3)
    assert stats["screens"] > 50 and stats["moves"] > 200 and stats["hidden"] > 100
    if players <= 4:
        assert stats["lines"] <= 32, stats


def test_announced_decisions_are_on_the_screen() -> None:
    """A called card and a Pope's category are public: every seat's screen says what they are."""
    met: dict[str, str] = {}
    for seed in range(40):
        state = create("arcanoid", 4)
        dealer, rng = RandomDealer(random.Random(seed)), random.Random(seed)
        while not state.is_over() and len(met) < 2:
            turn = state.turn()
            if turn.chance is not None:
                state.resolve_chance(dealer.shuffle(state, turn.chance) if hasattr(turn.chance, "deck")
                                     else dealer.choice(turn.chance))
                continue
            if turn.kind.value == "reveal":
                state.resolve_reveals()
                continue
            seat = next(s for s in turn.seats if state.legal_moves(s))
            decision = state.view(seat)["decision"]
            if decision["name"] in ("give", "pope") and decision["name"] not in met:
                screen = presenter("arcanoid").render(state.view(seat))
                now = next(line for line in screen.splitlines() if line.startswith("Now: "))
                want = (card_name(decision["called"]) if decision["name"] == "give"
                        else {"trumps": "every trump", "fool": "the Fool"}.get(decision["category"],
                                                                              decision["category"]))
                assert want in now, now
                met[decision["name"]] = now
            state.apply(seat, rng.choice(state.legal_moves(seat)))
        if len(met) == 2:
            break
    assert set(met) == {"give", "pope"}
