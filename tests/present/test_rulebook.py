"""The rules at hand: every game has its rules in English and French (goal, a turn, scoring,
special cards), a one-line explanation for its special cards, places and moves, and the
terminal's `rules` shows them in the player's language."""

from __future__ import annotations

import pytest

from p2ptarot.app.events import TableOpened
from p2ptarot.app.hub import Hub
from p2ptarot.app.table import TableApp
from p2ptarot.cli.front import Terminal
from p2ptarot.engine import games
from p2ptarot.present.rulebook import explain, rules

HEADINGS = {"en": ["Goal", "A turn", "Scoring", "Special cards"],
            "fr": ["But", "Un tour", "Décompte", "Cartes spéciales"]}


@pytest.mark.parametrize("game", [g.name for g in games()])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_game_has_its_rules_in_both_languages(game: str, lang: str) -> None:
    book = rules(game, lang)
    assert book is not None and [h for h, _ in book.sections] == HEADINGS[lang]
    assert all(len(body) > 40 for _, body in book.sections)
    assert book.help.get("score")  # what the score counts


def test_special_cards_places_and_moves_explain_themselves() -> None:
    assert explain("arcanum", "major-9").startswith("IX The Hermit")
    assert explain("arcanum", "loc-10").startswith("10 Castle")
    assert explain("arcanoid", "trump-9").startswith("IX The Hermit")
    assert "excused" in explain("trois-roses", "divine-4")  # by its kind
    assert explain("trois-roses", "minor-cup-guardian") != explain("trois-roses", "minor-cup-god")
    assert explain("trois-roses", "divine-4", "fr").startswith("un mystère divin")
    assert explain("arcanum", "loc-3", "fr").startswith("3 Port")
    assert explain("arcanoid", "trump-9", "fr").startswith("IX l'Ermite")
    assert explain("sinople", "num-b-7") == ""


@pytest.mark.parametrize("game", [g.name for g in games()])
def test_every_help_line_is_written_in_french_too(game: str) -> None:
    """A help line missing in French falls back on the English one: none may be missing."""
    import p2ptarot.present.rulebook as book

    def keys(lang: str) -> set[str]:
        return set(book._parse(game, (book.resources.files(book.__name__) / f"{game}.{lang}.md")
                               .read_text(encoding="utf-8")).help)
    assert keys("en") == keys("fr")


def test_the_terminal_shows_the_rules_in_the_players_language() -> None:
    hub, said = Hub(), []
    term = Terminal(hub, say=said.append, lang="fr")
    hub.publish(TableApp("sinople", None, ("Alice", "Bob"), 0).opened())
    assert isinstance(hub.history[-1], TableOpened)
    term.handle_line("rules")
    assert "-- But --" in said[-1] and "époux" in said[-1]
    term.handle_line("rules wife")
    assert "wife: l'épouse" in said[-1]
    english = Terminal(Hub(), say=said.append, lang="en")
    english.on_event(hub.history[-1])
    english.handle_line("r")
    assert "-- Goal --" in said[-1]
