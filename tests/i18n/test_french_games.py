"""French complete (issue 33, item 7): one round of each game played by bots in-process with the
interface in French, every text a player would read (each seat's terminal screen and page model,
the moves on offer with their groups and help, each move's sentence in the log, the round
results and totals) holds no word of the catalogue's English-only vocabulary: the words of its
English msgids that no French translation, French rulebook or card name uses."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any, Mapping, Sequence

import pytest
from babel.messages.pofile import read_po

from p2ptarot.app.results import column, round_rows, totals
from p2ptarot.bots import make
from p2ptarot.engine import RandomDealer, create
from p2ptarot.engine.local import play
from p2ptarot.games.eleusis.library import LIBRARY
from p2ptarot.i18n import set_language
from p2ptarot.i18n.build import po_path
from p2ptarot.present import screen as screens
from p2ptarot.present.rulebook import rules

WORD = re.compile(r"[^\W\d_]+")
#: names no msgid uses as a word
NAMES = ("Zoé", "Yannick", "Xénia", "Wilfried", "Véra", "Ulysse")
#: one round (or the shortest whole game) of each game
GAMES = [("arcanoid", 3, None, {"rounds": 1}), ("arcanum", 3, None, {"length": "short"}),
         ("eleusis", 4, None, {"rounds": 1}), ("paris-divins", 3, None, None),
         ("sinople", 3, None, None), ("trois-roses", 4, "single-deal", None)]


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text) if len(w) >= 3}


def _english_only() -> set[str]:
    """Words of the English msgids that no French text of the project uses."""
    with po_path("fr").open("rb") as f:
        catalog = read_po(f, locale="fr")
    english, french = set(), set()
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for s in strings:
            french |= _words(re.sub(r"\{\w*\}", " ", s))
        for i in ids:
            english |= _words(re.sub(r"\{\w*\}", " ", i))
    for game, *_rest in GAMES:
        book = rules(game, "fr")
        assert book is not None
        french |= _words(book.text() + " ".join(book.help.values()))
    return english - french


@pytest.fixture
def french() -> Iterator[None]:
    set_language("fr")
    yield
    set_language(None)


#: the page model's keys whose values are shown as words (the others are data: ids, suits,
#: colours, decision names the page's scripts look up)
SHOWN = {"name", "label", "text", "title", "shown", "what", "who", "caption", "heading", "help",
         "note", "status", "round", "sentence", "line", "lines", "legend", "summary", "personal",
         "big", "corner", "you", "tname", "header", "headers", "rows", "cells", "entries_text"}


def _strings(value: Any, shown: bool = False) -> Iterator[str]:
    """The strings of a page model a player reads (under a `SHOWN` key)."""
    if isinstance(value, str):
        if shown:
            yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            # a decision's name is its id, its text is what is shown
            data = k == "name" and "text" in value
            yield from _strings(v, str(k) in SHOWN and not data)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v, shown)


class Reader:
    """A bot that also reads, in French, everything its seat's player would be shown."""

    uses_view = True

    def __init__(self, inner: Any, names: Sequence[str], texts: list[str]) -> None:
        self.inner, self.names, self.texts = inner, names, texts

    def choose(self, seat: int, view: Mapping[str, Any] | None, legal: Sequence[Any]) -> Any:
        assert view is not None
        self.texts.append(screens.render_text(view, self.names))
        self.texts += list(_strings(screens.screen(view, self.names)))
        for o in screens.move_options(legal, view, self.names):
            self.texts += [o.sentence, o.group, o.help or ""]
        return self.inner.choose(seat, view, legal)


def _rules_code(view: Any, out: set[str]) -> set[str]:
    """The Eleusis rules as written in the rule language (code, not prose): left out."""
    if isinstance(view, Mapping):
        for k, v in view.items():
            if "rule" in str(k) and isinstance(v, str):
                out.add(v)
            elif "rule" in str(k) and isinstance(v, list):
                out |= {x for x in v if isinstance(x, str)}
            else:
                _rules_code(v, out)
    elif isinstance(view, list):
        for v in view:
            _rules_code(v, out)
    return out


@pytest.mark.parametrize("game,players,variant,options", GAMES)
def test_a_round_in_french_has_no_english_word(game: str, players: int, variant: str | None,
                                               options: dict[str, Any] | None,
                                               french: None) -> None:
    english = _english_only()
    assert {"your", "the", "round", "play", "cards"} <= english  # the list is the catalogue's
    names = NAMES[:players]
    texts: list[str] = []
    state = create(game, players, variant, options)
    agents = [Reader(make("heuristic", k), names, texts) for k in range(players)]
    code: set[str] = set()

    def logged(before: Any, seat: int, move: Any) -> None:
        view = before.view(seat)
        _rules_code(view, code)
        data = move.to_json() if hasattr(move, "to_json") else move
        texts.append(screens.describe(data, view, names))
    play(state, agents, RandomDealer(random.Random(7)), on_move=logged)
    code |= {r.text for r in LIBRARY}
    final = state.view(0)
    _rules_code(final, code)
    for row in round_rows(final, names):
        texts += [f"{column(k)} {v}" for k, v in row.items()]
    texts += [json.dumps(totals(final, names), ensure_ascii=False)]
    assert len(texts) > 50
    found: dict[str, str] = {}
    code = {" ".join(c.split()) for c in code}
    for text in texts:
        text = " ".join(text.split())
        for c in sorted(code, key=len, reverse=True):
            text = text.replace(c, " ")
        for w in _words(text) & english:
            found.setdefault(w, text[:200])
    assert not found, found


def test_counts_take_gettext_plural_forms(french: None) -> None:
    """No "(s)": the sentences that count use the catalogue's plural forms (French: 0 and 1 are
    singular)."""
    from p2ptarot.i18n import ngettext

    def bots(n: int) -> str:
        return ngettext("opening a table of {game} for {seats} with {bots} bot...",
                        "opening a table of {game} for {seats} with {bots} bots...", n).format(
            game="Arcanum", seats=3, bots=n)
    assert bots(1).endswith("1 robot...") and bots(2).endswith("2 robots...")
    with po_path("fr").open("rb") as f:
        catalog = read_po(f, locale="fr")
    counted = [m.id for m in catalog if isinstance(m.id, str) and re.search(r"\w\(s\)", m.id)]
    assert not [i for i in counted if "bot(s)" in i or "piece(s)" in i or "card(s) face" in i
                or "move(s) of seat" in i], counted


def test_an_arcanum_hand_is_counted_with_plural_forms(french: None) -> None:
    from p2ptarot.present.arcanum import hand_count
    assert hand_count([{"kind": "minor"}, {"kind": "major"}, {"kind": "major"}]) == \
        "3 (1 mineur, 2 majeurs)"
    set_language("en")
    assert hand_count([{"kind": "minor"}]) == "1 (1 minor, 0 majors)"
