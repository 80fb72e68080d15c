"""What the page lets a player point at (p2ptarot/web/static/app.js `shownFaces`, `reachable`),
checked on the screen models of whole bot games: every card a legal move takes from the seat's
own cards is on its screen (the hand, a pile, or a presenter's `pickable` pile: an Arcanoid seat's
face-up cards, an Arcanum seat's hidden cards for the Sun, the "no play" hand an Eleusis dealer or
Sage names a card of), so the move is made by pointing. Only a move naming a card nobody shows
(Arcanoid's call of a card) is listed as a button instead."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Sequence

import pytest

from p2ptarot import bots
from p2ptarot.engine import RandomDealer, create, play
from p2ptarot.present.screen import move_options, screen

#: moves that name a card the seat does not hold and no screen shows (the page lists them)
NAMES_AN_UNSEEN_CARD = {"arcanoid": {"call", "call-again"}}


def shown_ids(sc: dict[str, Any]) -> set[str]:
    """The cards the page draws for this seat: its hand, every pile, the `pickable` piles."""
    ids = {f["id"] for f in sc.get("hand", []) if f.get("id")}
    for pile in list(sc.get("piles", [])) + list(sc.get("pickable", [])):
        ids |= {f["id"] for f in pile.get("cards", []) if f.get("id")}
    return ids


class Checking:
    """A bot that checks, before each of its decisions, what its seat's page would offer."""

    uses_view = True

    def __init__(self, game: str, names: Sequence[str], inner: Any, seen: Counter[str]) -> None:
        self.game, self.names, self.inner, self.seen = game, names, inner, seen

    def choose(self, seat: int, view: Any, legal: Sequence[Any]) -> Any:
        if len(legal) >= 2:
            shown = shown_ids(screen(view, self.names))
            for o in move_options(legal, view, self.names):
                kind = getattr(legal[o.index], "KIND", "")
                named = set(o.cards) if len(o.cards) >= 2 else {o.card} if o.card else set()
                if named <= shown:
                    self.seen["pointed" if named else "plain"] += 1
                    self.seen[f"pointed {kind}" if named else "plain"] += 1
                else:
                    assert kind in NAMES_AN_UNSEEN_CARD.get(self.game, ()), \
                        f"{self.game}: seat {seat} cannot point at {sorted(named - shown)} for " \
                        f"'{o.sentence}' ({kind})"
                    self.seen["listed"] += 1
        return self.inner.choose(seat, view if self.inner.uses_view else None, legal)


#: (game, players, seed, a kind of move these random games must offer with cards outside the hand)
CASES = [("arcanoid", 2, 0, "engage"), ("arcanoid", 4, 1, "discard"), ("arcanum", 3, 0, "expose"),
         ("arcanum", 3, 1, "expose"), ("sinople", 3, 0, ""), ("trois-roses", 3, 0, ""),
         ("paris-divins", 3, 0, ""), ("eleusis", 4, 0, "pick")]


@pytest.mark.parametrize("game,players,seed,beyond", CASES)
def test_every_card_a_move_takes_from_the_seat_is_on_its_screen(game: str, players: int,
                                                                 seed: int, beyond: str) -> None:
    names = [f"P{i}" for i in range(players)]
    seen: Counter[str] = Counter()
    agents = [Checking(game, names, bots.make("random", f"p:{s}:{seed}"), seen)
              for s in range(players)]
    play(create(game, players), agents, RandomDealer(random.Random(seed)))
    assert seen["pointed"] > 20, seen  # the check ran on real decisions with cards
    if beyond:  # the Sun's hidden cards, a seat's face-up cards: pointed at, not listed
        assert seen[f"pointed {beyond}"] > 0, seen
