"""protocol/decks.json is what the code generates, and every deck a game really opens is listed
there with exactly the cards, in exactly the order, the game hands to the deck layer."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from p2ptarot.bots import make as make_bot
from p2ptarot.engine import GameState, Shuffle
from p2ptarot.engine.local import RandomDealer, play
from p2ptarot.engine.registry import create, games, info

ROOT = Path(__file__).resolve().parents[2]
DECKS = json.loads((ROOT / "protocol" / "decks.json").read_text(encoding="utf-8"))


def _listed(deck: str) -> list[str] | None:
    """The card list decks.json gives for a wire deck id (a family expanded), or None."""
    if deck in DECKS["decks"]:
        return DECKS["decks"][deck]["cards"]
    for fam in DECKS["families"]:
        for k in range(fam["k_min"], fam["k_max"] + 1):
            if fam["name"].replace("{k}", str(k)) == deck:
                return [c.replace("{k}", str(k)) for c in fam["cards"]]
    return None


class _Recorder(RandomDealer):
    def __init__(self) -> None:
        super().__init__(random.Random(5))
        self.opened: list[tuple[str, tuple[str, ...]]] = []

    def shuffle(self, state: GameState, request: Shuffle) -> dict[int, str]:
        if request.cards:
            self.opened.append((request.deck, request.cards))
        return super().shuffle(state, request)


def test_the_file_is_what_make_decks_writes() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "protocol" / "make_decks.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_every_listed_deck_has_distinct_cards_and_names_its_games() -> None:
    names = {g.name for g in games()}
    for deck, entry in DECKS["decks"].items():
        assert len(set(entry["cards"])) == len(entry["cards"]) >= 9, deck
        assert entry["games"] and set(entry["games"]) <= names, deck
    for fam in DECKS["families"]:
        assert "{k}" in fam["name"] and all("{k}" in c for c in fam["cards"])
        assert set(fam["games"]) <= names


@pytest.mark.parametrize("game", sorted(g.name for g in games()))
def test_every_deck_a_game_opens_is_listed_in_open_deck_order(game: str) -> None:
    gi = info(game)
    seen: set[str] = set()
    for players in sorted({gi.min_players, gi.max_players}):
        dealer = _Recorder()
        state = create(game, players)
        play(state, [make_bot("random", 11 + s) for s in range(players)], dealer)
        assert dealer.opened, f"{game} opened no deck"
        for deck, cards in dealer.opened:
            assert _listed(deck) == list(cards), f"{game} opens {deck!r} in another order"
            seen.add(deck)
    listed_for_game = {d for d, e in DECKS["decks"].items() if game in e["games"]}
    assert listed_for_game <= seen, listed_for_game - seen  # the file lists no stale deck
    if game == "eleusis":  # R12's added copies are the family's members
        assert {"standard-52#3"} <= seen
