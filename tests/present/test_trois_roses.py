"""The trois roses terminal screen: a seat sees its own hand and nothing hidden from it."""

from __future__ import annotations

import pytest
from tests.games.support import check_screens

from p2ptarot.present import presenter
from p2ptarot.present.cards import card_name
from p2ptarot.games.trois_roses.moves import Play


@pytest.mark.parametrize("players", [3, 4, 5])
def test_screens_show_the_hand_and_hide_the_rest(players: int) -> None:
    stats = check_screens("trois-roses", players, seed=players, every=7)
    assert stats["screens"] > 30 and stats["hidden"] > 1000


def test_card_names_and_sentences() -> None:
    assert [card_name(c) for c in ("minor-cup-5", "minor-mask-god", "major-role-2", "world", "divine-4",
                                   "rose-upright", "rose-inverted")] == \
        ["5 of cups", "god of masks", "role 2 (10)", "the World", "divine 4", "the upright Rose",
         "the inverted Rose"]
    assert presenter("trois-roses").sentence(Play(3, "minor-star-child"), {"game": "trois-roses"}) == "Play child of stars"
