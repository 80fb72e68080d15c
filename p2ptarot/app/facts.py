"""What a table being played tells the peer application layer: typed facts the game pump's
watcher hands `TableApp.take`, which answers with the events for people (`events.py`). The
peer layer states what happened; the app alone decides what a person is shown of it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Heard:
    """A message of ``seat`` entered the log."""

    seat: int


@dataclass(frozen=True)
class MoveRecorded:
    """A move entered the log, judged in ``view_before``; ``by``: "bot" for a stand-in's move."""

    step: int
    seat: int
    move: dict[str, Any]
    view_before: dict[str, Any]
    by: str | None = None


@dataclass(frozen=True)
class ViewNow:
    """The seat's view after a batch of effects (rounds may have ended in it)."""

    view: dict[str, Any]


@dataclass(frozen=True)
class WaitingOn:
    """The table waits for ``seats`` to do ``what``, until ``deadline`` (Unix time)."""

    seats: Sequence[int]
    what: str
    deadline: float | None


@dataclass(frozen=True)
class LinkChanged:
    """The link of ``seat``'s peer came up or went down (``since``: Unix time)."""

    seat: int
    up: bool
    since: float | None = None


@dataclass(frozen=True)
class GameOver:
    """The game ended: its scores, winners, transcript file and last view."""

    scores: Sequence[int]
    winners: Sequence[int]
    transcript: str
    view: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameStopped:
    """The game was aborted at ``step``, ``blame`` the seat at fault (None: nobody)."""

    blame: int | None
    reason: str
    step: int | None


Fact = Heard | MoveRecorded | ViewNow | WaitingOn | LinkChanged | GameOver | GameStopped
