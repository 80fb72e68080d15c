"""French slips of issue 33, item 7, fixed at their source: the Star family is named as the
seed's French rules text names it (singular: "Étoile"), a table is never "de Arcanum" (no
elision to get wrong), another seat's discard is not "une carte cachée face cachée"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from p2ptarot.i18n import set_language
from p2ptarot.present import arcanoid
from p2ptarot.present.cards import card_name
from p2ptarot.present.screen import SUIT_WORDS


@pytest.fixture
def french() -> Iterator[None]:
    set_language("fr")
    yield
    set_language(None)


def test_the_star_family_is_named_as_the_seed_names_it(french: None) -> None:
    from p2ptarot.i18n import _
    assert card_name("minor-star-3") == "3 d'Étoile"
    assert card_name("minor-star-god") == "dieux d'Étoile"  # rules §1.2: Star's figures, plural
    assert _(SUIT_WORDS["star"]) == "Étoile"


def test_a_table_of_a_game_needs_no_elision(french: None) -> None:
    from p2ptarot.i18n import _
    said = _("opening a table of {game} for {seats} with {bots} bot(s)...").format(
        game="Arcanum", seats=3, bots=2)
    assert "de Arcanum" not in said and "Arcanum" in said


def test_a_hidden_discard_is_not_hidden_twice(french: None) -> None:
    said = arcanoid.describe({"kind": "discard", "handle": 7}, {"game": "arcanoid"})
    assert "cachée face cachée" not in said and said == "Défausser une carte face cachée"
