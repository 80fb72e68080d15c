"""One legal move as a front end offers it (a typed event field): kept apart from the screen model
so that the event types a bot peer loads do not pull in faces, presenters and rules texts."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MoveOption:
    index: int
    sentence: str
    group: str
    card: str | None = None
    #: the board fields the move acts on ("loc-3", "house-cups"), clickable on the page
    targets: tuple[str, ...] = ()
    #: the cards of a move that names several (picked together on the page)
    cards: tuple[str, ...] = ()
    #: what this kind of move does, in one line (from the rules), '' for a plain move
    help: str = ""
