"""One name per card (issue 33, item 11): trump 5 was "V The Hierophant" on its face and "V the
Pope" in its help. Every major's help line now opens with the name the screens give the card, in
both languages, and trump 5 is the Hierophant in English (the Arcanum rulebook's English, the
deck's name) and le Pape in French (both seeds' French texts), wherever a player reads it: its
card, its help, the table's "now" line and the engine's refusals."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from p2ptarot.engine import RandomDealer, create
from p2ptarot.i18n import set_language
from p2ptarot.i18n.message import render as say, tr
from p2ptarot.present import presenter
from p2ptarot.present.cards import card_name
from p2ptarot.present.rulebook import explain, rules

NAME = {"en": "V The Hierophant", "fr": "V le Pape"}
OTHER = {"en": ("Pope",), "fr": ("Hiérophante", "Hierophant")}


@pytest.fixture
def lang() -> Iterator[None]:
    yield
    set_language(None)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", ["arcanoid", "arcanum"])
def test_every_major_is_helped_under_the_name_it_is_shown_by(game: str, language: str,
                                                             lang: None) -> None:
    set_language(language)
    book = rules(game, language)
    assert book is not None
    majors = {k: v for k, v in book.help.items() if k.startswith(("trump-", "major-", "fool"))}
    assert len(majors) >= 22
    wrong = {k: v for k, v in majors.items() if not v.startswith(card_name(k) + (
        " :" if language == "fr" else ":"))}
    assert not wrong, wrong


@pytest.mark.parametrize("language", ["en", "fr"])
def test_trump_five_has_one_name(language: str, lang: None) -> None:
    set_language(language)
    for game, card in (("arcanoid", "trump-5"), ("arcanum", "major-5")):
        assert card_name(card) == NAME[language]
        assert explain(game, card, language).startswith(NAME[language])
        book = rules(game, language)
        assert book is not None
        text = "\n".join([b for _h, b in book.sections] + list(book.help.values()))
        assert not [w for w in OTHER[language] if w in text], game


def _pope_screen() -> tuple[str, str]:
    """The 'Now:' line of a seat asked to show cards to a played trump 5 (a bot game)."""
    for seed in range(60):
        state = create("arcanoid", 4)
        dealer, rng = RandomDealer(random.Random(seed)), random.Random(seed)
        while not state.is_over():
            turn = state.turn()
            if turn.chance is not None:
                state.resolve_chance(dealer.shuffle(state, turn.chance)
                                     if hasattr(turn.chance, "deck") else dealer.choice(turn.chance))
                continue
            if turn.kind.value == "reveal":
                state.resolve_reveals()
                continue
            seat = next(s for s in turn.seats if state.legal_moves(s))
            view = state.view(seat)
            if view["decision"]["name"] == "pope":
                screen = presenter("arcanoid").render(view)
                return screen, next(ln for ln in screen.splitlines() if ln.startswith("Now: "))
            state.apply(seat, rng.choice(state.legal_moves(seat)))
    raise AssertionError("no trump 5 played in 60 games")


def test_the_table_names_a_played_trump_five_as_its_card(lang: None) -> None:
    set_language("en")
    _screen, now = _pope_screen()
    assert "V The Hierophant played by" in now and "Pope" not in now, now


def test_the_engine_refusals_name_it_in_each_language(lang: None) -> None:
    set_language("en")
    withheld = tr("Hierophant: withheld {card} ({category})", card="cups-3", category="cups")
    assert say(withheld) == "Hierophant: withheld cups-3 (cups)"
    set_language("fr")
    assert say(withheld).startswith("Pape : a retenu")
    assert say(tr("a Hierophant show comes from the hidden hand")) == \
        "ce qu'on montre au Pape vient de la main cachée"
