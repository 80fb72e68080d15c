"""The paris divins terminal screen: a seat sees its own hand and choice, nothing hidden from it."""

from __future__ import annotations

import pytest
from tests.games.support import check_screens

from p2ptarot.present import presenter
from p2ptarot.games.paris_divins.moves import Wager


@pytest.mark.parametrize("players", [2, 5, 12])
def test_screens_show_the_hand_and_hide_the_rest(players: int) -> None:
    stats = check_screens("paris-divins", players, seed=players, every=1)
    assert stats["screens"] >= players and stats["hidden"] > 100


def test_wager_sentence_names_the_card_of_the_handle() -> None:
    view = {"game": "paris-divins", "hand": ["minor-cup-5", "world"], "hand_handles": [7, 12]}
    assert presenter("paris-divins").sentence(Wager(12, "divine"), view) == "Play the World face down and bet on divine"
    assert presenter("paris-divins").group(Wager(12, "divine")) == "play a card and bet"
