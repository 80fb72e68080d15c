"""JSON views (rules §2.10 visibility table): a seat sees its own hand plus the public table; the
surplus card (5 players) is never shown."""

from __future__ import annotations

from typing import Any, Protocol, TYPE_CHECKING

from p2ptarot.cards.roses_tables import FAMILY_NAMES, ID

from .legal import MAJOR_DEMAND, MINOR_DEMAND
from .rules import PHASE_NAMES, PLAY

if TYPE_CHECKING:
    from .rules import Rules


class ViewSource(Protocol):
    """What the view reads of the game's state (the state class satisfies it; typed against this,
    not the class, so this module does not import the state module that imports it)."""

    def card_for(self, handle: int, seat: int | None) -> str | None: ...
    @property
    def deal_count(self) -> int: ...
    @property
    def deal_no(self) -> int: ...
    def deal_points(self) -> list[int]: ...
    def deal_roses(self) -> list[int]: ...
    @property
    def dealer(self) -> int: ...
    def demand(self) -> tuple[int, int]: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def hands(self) -> list[list[int]]: ...
    @property
    def history(self) -> list[dict[str, Any]]: ...
    @property
    def last_excused(self) -> list[int]: ...
    @property
    def last_trick(self) -> list[tuple[int, int, int]]: ...
    @property
    def last_winner(self) -> int: ...
    @property
    def leader(self) -> int: ...
    @property
    def phase(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def target(self) -> int: ...
    def threshold(self) -> int: ...
    @property
    def to_play(self) -> int: ...
    @property
    def totals(self) -> list[int]: ...
    @property
    def trick(self) -> list[tuple[int, int, int]]: ...
    @property
    def trick_no(self) -> int: ...
    @property
    def won(self) -> list[list[int]]: ...


def build_view(state: ViewSource, seat: int | None) -> dict[str, Any]:
    """Everything `seat` (None = the public) may know, as plain JSON."""

    kind, family = state.demand()
    view: dict[str, Any] = {
        "game": "trois-roses",
        "variant": state.rules.name,
        "players": state.players,
        "seat": seat,
        "phase": PHASE_NAMES[state.phase],
        "deal": min(state.deal_no + 1, state.deal_count),
        "deals": state.deal_count,
        "dealer": state.dealer if state.dealer >= 0 else None,
        "target": state.target,
        "tricks": state.hand_size,
        "trick_number": min(state.trick_no + 1, state.hand_size),
        "leader": state.leader if state.leader >= 0 else None,
        "to_play": state.to_play if state.phase == PLAY else None,
        "trick": [[s, ID[c]] for s, _, c in state.trick],
        "demand": ("minor" if kind == MINOR_DEMAND else "major" if kind == MAJOR_DEMAND else None),
        "demand_family": FAMILY_NAMES[family] if family >= 0 else None,
        "threshold": state.threshold() or None,
        "last_trick": [[s, ID[c]] for s, _, c in state.last_trick],
        "last_winner": state.last_winner if state.last_winner >= 0 else None,
        "last_excused": list(state.last_excused),
        "hand_sizes": [len(h) for h in state.hands],
        "won": [[ID[c] for c in pile] for pile in state.won],
        "points": state.deal_points(),
        "roses": state.deal_roses(),
        "totals": list(state.totals),
        "history": [dict(d) for d in state.history],
    }
    if seat is not None:
        hand = [state.card_for(h, seat) for h in state.hands[seat]]
        view["hand"] = [c for c in hand if c is not None]
    return view
