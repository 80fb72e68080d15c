"""Which language the interface speaks: `--lang`, else the system's locale for the terminal;
`?lang=`, else `--lang`, else the browser's Accept-Language for the page; English otherwise."""

from __future__ import annotations

from typing import Iterator

import pytest

from p2ptarot import i18n
from p2ptarot.i18n import _, accept_language, set_language, system_language
from p2ptarot.web.server import page_html, page_language


@pytest.fixture
def french() -> Iterator[None]:
    set_language("fr")
    try:
        yield
    finally:
        set_language("en")


@pytest.mark.parametrize("env, lang", [
    ({"LANG": "fr_FR.UTF-8"}, "fr"), ({"LANG": "en_GB.UTF-8"}, "en"), ({"LANG": "C.UTF-8"}, "en"),
    ({}, "en"), ({"LC_ALL": "fr_CA.UTF-8", "LANG": "en_US"}, "fr"),
    ({"LC_MESSAGES": "fr_BE", "LANG": "en_US"}, "fr"), ({"LANGUAGE": "en:fr", "LANG": "fr_FR"}, "en"),
    ({"LANGUAGE": "fr", "LC_ALL": "C"}, "fr"), ({"LANG": "de_DE.UTF-8"}, "en"),
])
def test_the_terminal_speaks_the_system_locale(env: dict[str, str], lang: str) -> None:
    assert system_language(env) == lang


@pytest.mark.parametrize("header, lang", [
    ("fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7", "fr"), ("en-US,en;q=0.9,fr;q=0.8", "en"),
    ("de-DE,de;q=0.9,fr;q=0.5", "fr"), ("de, es", None), ("", None), (None, None),
    ("en;q=0.2, fr;q=0.8", "fr"), ("fr;q=0, en", "en"), ("fr;q=abc, en;q=0.1", "en"),
    (";;;,,,q=", None), ("x" * 5000, None),
])
def test_the_page_speaks_the_browsers_language(header: str | None, lang: str | None) -> None:
    assert accept_language(header) == lang


def test_the_pages_choice_then_lang_then_the_browser() -> None:
    assert page_language("fr", "en", "en-US") == "fr"
    assert page_language(None, "fr", "en-US") == "fr"
    assert page_language(None, None, "fr-CA,fr;q=0.9") == "fr"
    assert page_language("xx", None, "de") == "en"


def test_set_language_switches_every_string(french: None) -> None:
    assert i18n.language() == "fr" and _("Rules") == "Règles"
    set_language("en")
    assert _("Rules") == "Rules"
    assert set_language("fr_FR.UTF-8") == "fr" and _("Rules") == "Règles"


def test_the_french_page_is_french_through_and_through() -> None:
    html = page_html("tok", "fr")
    assert '<html lang="fr">' in html and "{{" not in html
    assert ">Règles</button>" in html and ">Reprendre ma place</button>" in html
    assert 'const LANG = "fr";' in html and '"Rematch": "Revanche"' in html
    english = page_html("tok", "en")
    assert '<html lang="en">' in english and ">Rules</button>" in english
    assert "const I18N = {};" in english


def test_card_and_move_names_as_the_rules_say_them(french: None) -> None:
    from p2ptarot.present.cards import card_name
    from p2ptarot.present.screen import describe
    assert card_name("trump-17") == "XVII l'Étoile" and card_name("fool") == "le Mat"
    assert card_name("swords-1") == "as d'épées" and card_name("cups-queen") == "reine de coupes"
    assert card_name("coins-page") == "valet de deniers"
    assert card_name("minor-mask-god") == "dieu des masques"  # rules §1.2: gendered by family
    assert card_name("minor-cup-god") == "déesse des coupes"
    assert card_name("rose-inverted") == "la Rose inversée" and card_name(None) == "une carte cachée"
    assert card_name("fig-b-wife") == "épouse de B"
    view = {"game": "sinople", "seat": 0, "phase": "play"}
    names = ["Alice", "Bob"]
    assert describe({"kind": "play", "card": "num-b-7"}, view, names) == "Jouer B7"
    assert describe({"kind": "pass"}, view, names) == "Passer"


def test_game_titles_are_data_beside_the_english(french: None) -> None:
    from p2ptarot.engine import info as game_info
    assert game_info("sinople").title_in("fr") == "Tarot sinople"
    assert game_info("sinople").title_in("en") == "Sinople tarot"
    assert game_info("arcanum").title_in("fr") == "Arcanum"  # a proper name lists nothing


def test_games_lists_french_titles_and_words(french: None, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse
    from p2ptarot.cli.games_cmd import run
    assert run(argparse.Namespace(json=False)) == 0
    out = capsys.readouterr().out
    assert "Tarot sinople" in out and "joueurs 2-5" in out and "(par défaut)" in out
    assert "Sinople tarot" not in out and "players " not in out


def test_help_texts_follow_lang_fr(capsys: pytest.CaptureFixture[str]) -> None:
    from p2ptarot.cli.main import main
    try:
        with pytest.raises(SystemExit) as done:
            main(["verify", "--lang", "fr", "--help"])
        assert done.value.code == 0
        out = capsys.readouterr().out
        assert "Rejouer une transcription avec le moteur de règles" in out
        assert "afficher un seul objet JSON" in out and "print one JSON object" not in out
        with pytest.raises(SystemExit):
            main(["verify", "--lang", "en", "--help"])
        assert "print one JSON object" in capsys.readouterr().out
    finally:
        set_language("en")


def test_simulate_reports_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    from p2ptarot.cli.main import main
    try:
        assert main(["simulate", "--game", "sinople", "--players", "2", "--games", "2",
                     "--lang", "fr"]) == 0
        out = capsys.readouterr().out
        assert "partie 1 : gagnants " in out and "victoires : P1 (" in out and " parties/s" in out
        assert "winners" not in out and "games/s" not in out
    finally:
        set_language("en")


def test_arcanum_locations_are_data_beside_the_english(french: None) -> None:
    from p2ptarot.games.arcanum.rules import LOCATION_NAMES, LOCATION_TITLES
    from p2ptarot.present.arcanum import _place
    view = {"locations": {str(k): v for k, v in LOCATION_NAMES.items()}}
    assert set(LOCATION_TITLES["fr"]) == set(LOCATION_NAMES)  # every location named in French
    assert _place(view, 1) == "Tour du Mage" and _place(view, "10") == "Château"
    set_language("en")
    assert _place(view, 1) == "Mage Tower"


def _screens_midgame(game: str, players: int, sentences: list[str] | None = None) -> list[str]:
    """Every seat's text screen in French, some moves into a bots' game."""
    import random

    from p2ptarot import bots
    from p2ptarot.engine import create
    from p2ptarot.engine.local import RandomDealer, play
    from p2ptarot.present import presenter
    state = create(game, players)
    agents = [bots.make("random", f"p:{s}") for s in range(players)]
    from p2ptarot.engine.errors import EngineError
    with pytest.raises(EngineError):  # stopped midgame on purpose
        play(state, agents, RandomDealer(random.Random(5)), max_steps=40)
    set_language("fr")
    if sentences is not None:  # the legal moves, worded
        for s in range(players):
            sentences.extend(presenter(game).sentence(m, state.view(s)) for m in state.legal_moves(s)[:80])
    return [presenter(game).render(state.view(s)) for s in range(players)]


def test_the_arcanoid_screen_speaks_french(french: None) -> None:
    for text in _screens_midgame("arcanoid", 2):
        assert "manche " in text and "Joueurs :" in text and "Champs :" in text
        assert "Votre main [" in text and "pioche " in text and "Champs gagnés" in text
        assert "Players:" not in text and "Your hand" not in text and "draw pile" not in text


def test_the_arcanum_screen_speaks_french(french: None) -> None:
    sentences: list[str] = []
    for text in _screens_midgame("arcanum", 3, sentences):
        assert "La ville :" in text and "Prestige (0…21) :" in text and " PV | main (" in text
        assert "  deniers " in text and "Pioches : " in text and "cachées (" in text
        assert "The city" not in text and " VP " not in text and "Decks:" not in text
    assert sentences and not any("{" in x or "None" in x for x in sentences), sentences


def test_round_result_columns_are_worded_at_display_time(french: None) -> None:
    """RoundOver.result keeps its keys (data); the terminal's table heads read them in French."""
    from p2ptarot.app.events import RoundOver
    from p2ptarot.app.results import COLUMNS, column
    from p2ptarot.app.hub import Hub
    from p2ptarot.cli.front import Terminal
    assert column("dealer") == "donneur" and column("cups") == "coupes" and column("odd") == "odd"
    assert all(column(k) != k or k in ("points", "roses", "figure", "scores") for k in COLUMNS)
    printed: list[str] = []
    ev = RoundOver(1, {"dealer": "Bob", "winner": "Ann"}, {})
    Terminal(Hub(), say=printed.append, spectator=True).on_event(ev)
    assert "donneur" in printed[0] and "gagnant" in printed[0] and "Bob" in printed[0]
    assert "dealer" not in printed[0] and ev.result == {"dealer": "Bob", "winner": "Ann"}
    set_language("en")
    assert column("dealer") == "dealer"


def test_games_lists_variant_status_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    from p2ptarot.cli.main import main
    try:
        assert main(["games", "--lang", "fr"]) == 0
        out = capsys.readouterr().out
        assert "DRESDEN    jouable (par défaut) les règles de base" in out and "playable" not in out
        assert main(["games", "--lang", "fr", "--json"]) == 0
        assert '"status": "playable"' in capsys.readouterr().out  # the JSON keeps the data word
    finally:
        set_language("en")


def test_replay_marks_speak_french(capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    from p2ptarot.cli.main import main
    valid = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "valid.jsonl"
    try:
        assert main(["replay", str(valid), "--lang", "fr"]) == 0
        out = capsys.readouterr().out
        assert "  -- pli 1 remporté par p" in out and "  == fin de la manche 1 : " in out
        assert ", gagnant p" in out and "won by" not in out and " over: " not in out
    finally:
        set_language("en")


def test_every_variant_summary_has_its_french_beside_the_english() -> None:
    from p2ptarot.engine import games
    for g in games():
        for v in g.variants:
            if v.summary:
                fr = g.summary_in(v, "fr")
                assert fr and fr != v.summary, (g.name, v.name)
            assert g.summary_in(v, "en") == v.summary
