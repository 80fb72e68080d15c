"""Face letters in one language per face (issue 33, item 11): a sinople child is not "C" (the
class C is drawn beside it); tarot courts read K Q N J in English and R Re C V in French,
never a French C for an English knight, never K, Q, J on a French face."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from p2ptarot.i18n import set_language
from p2ptarot.present.faces import face


@pytest.fixture
def lang() -> Iterator[object]:
    yield set_language
    set_language(None)


def test_a_sinople_child_is_not_its_class_letter(lang: object) -> None:
    set_language("en")
    child = next(c for c in ("fig-c-child", "fig-a-child"))
    f = face(child)
    assert f["big"] == "Ch" and f["big"] != f["corner"]


@pytest.mark.parametrize("card", ["cups-king", "cups-queen", "cups-knight", "cups-knave"])
def test_court_letters_in_english_and_in_french(card: str, lang: object) -> None:
    set_language("en")
    english = face(card)["big"]
    set_language("fr")
    french = face(card)["big"]
    assert (english, french) == {"cups-king": ("K", "R"), "cups-queen": ("Q", "Re"),
                                 "cups-knight": ("N", "C"), "cups-knave": ("J", "V")}[card]
