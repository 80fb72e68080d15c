"""JSON views (rules §8 visibility table): a seat sees its own hand plus the public table."""

from __future__ import annotations

from typing import Any, Protocol

from .rules import CHILD_TARGET, CLS, ID, PHASE_NAMES, ROLE, ROLE_NAMES, ROUNDS

class ViewSource(Protocol):
    """What the view reads of the game's state (the state class satisfies it; typed against this,
    not the class, so this module does not import the state module that imports it)."""

    def card_for(self, handle: int, seat: int | None) -> str | None: ...
    @property
    def dealer(self) -> int: ...
    @property
    def figure(self) -> int: ...
    @property
    def figures_won(self) -> list[list[int]]: ...
    @property
    def hands(self) -> list[list[int]]: ...
    @property
    def history(self) -> list[dict[str, Any]]: ...
    @property
    def last_trick(self) -> list[tuple[int, int, int]]: ...
    @property
    def last_winner(self) -> int: ...
    @property
    def leader(self) -> int: ...
    @property
    def opener(self) -> int: ...
    @property
    def phase(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def removed(self) -> list[int]: ...
    @property
    def round(self) -> int: ...
    def round_points(self) -> list[int]: ...
    @property
    def search_value(self) -> int: ...
    @property
    def shown(self) -> int: ...
    @property
    def to_play(self) -> int: ...
    @property
    def trick(self) -> list[tuple[int, int, int]]: ...
    @property
    def trick_no(self) -> int: ...
    @property
    def won(self) -> list[list[int]]: ...


def build_view(state: ViewSource, seat: int | None) -> dict[str, Any]:
    """Everything `seat` (None = the public) may know, as plain JSON."""

    fig = state.figure
    view: dict[str, Any] = {
        "game": "sinople",
        "players": state.players,
        "seat": seat,
        "phase": PHASE_NAMES[state.phase],
        "round": min(state.round + 1, ROUNDS),
        "rounds": ROUNDS,
        "dealer": state.dealer if state.dealer >= 0 else None,
        "figure": ID[fig] if fig >= 0 else None,
        "round_class": "abc"[CLS[fig]] if fig >= 0 else None,
        "goal": ROLE_NAMES[ROLE[fig]] if fig >= 0 else None,
        "child_target": CHILD_TARGET[state.players],
        "hand_sizes": [len(h) for h in state.hands],
        "search_value": state.search_value if state.phase == 5 else None,
        "opener": state.opener if state.opener >= 0 else None,
        "shown": state.card_for(state.shown, seat) if state.shown >= 0 else None,
        "leader": state.leader if state.leader >= 0 else None,
        "to_play": state.to_play if state.phase == 6 else None,
        "trick_number": state.trick_no + 1,
        "trick": [[s, ID[c]] for s, _, c in state.trick],
        "last_trick": [[s, ID[c]] for s, _, c in state.last_trick],
        "last_winner": state.last_winner if state.last_winner >= 0 else None,
        "won": [[ID[c] for c in pile] for pile in state.won],
        "points": state.round_points(),
        "figures": [[ID[f] for f in figs] for figs in state.figures_won],
        "removed": [ID[f] for f in state.removed],
        "history": [dict(r) for r in state.history],
    }
    if seat is not None:
        hand = [state.card_for(h, seat) for h in state.hands[seat]]
        view["hand"] = [c for c in hand if c is not None]
    return view
