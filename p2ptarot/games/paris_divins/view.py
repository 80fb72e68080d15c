"""JSON views (rules §3.9 visibility table): a seat sees its own hand and its own choice of the round;
everything else shown is public. Undealt cards and unplayed hands are never shown."""

from __future__ import annotations

from typing import Any, Protocol, TYPE_CHECKING

from .rules import PHASE_NAMES

if TYPE_CHECKING:
    from .moves import Wager
    from .rules import Rules


class ViewSource(Protocol):
    """What the view reads of the game's state (the state class satisfies it; typed against this,
    not the class, so this module does not import the state module that imports it)."""

    @property
    def active(self) -> list[int]: ...
    def card_for(self, handle: int, seat: int | None) -> str | None: ...
    @property
    def chosen(self) -> dict[int, Wager]: ...
    @property
    def eliminated(self) -> list[int]: ...
    @property
    def hands(self) -> list[list[int]]: ...
    @property
    def history(self) -> list[dict[str, Any]]: ...
    @property
    def phase(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def reserve(self) -> list[int]: ...
    @property
    def round_no(self) -> int: ...
    @property
    def rounds_won(self) -> list[int]: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def stakes(self) -> dict[int, int]: ...
    @property
    def supply(self) -> list[int]: ...


def build_view(state: ViewSource, seat: int | None) -> dict[str, Any]:
    """Everything `seat` (None = the public) may know, as plain JSON."""

    n = state.players
    view: dict[str, Any] = {
        "game": "paris-divins",
        "variant": state.rules.name,
        "players": n,
        "seat": seat,
        "phase": PHASE_NAMES[state.phase],
        "round": state.round_no + 1,
        "rounds": state.rules.hand_size,
        "active": list(state.active),
        "eliminated": list(state.eliminated),
        "rounds_won": list(state.rounds_won),
        "supply": list(state.supply),
        "reserve": list(state.reserve),
        "stakes": [state.stakes.get(s, 0) for s in range(n)],
        "required": [state.rules.required_stake(w) for w in state.rounds_won],
        "chosen": sorted(state.chosen),
        "hand_sizes": [len(h) for h in state.hands],
        "history": [dict(r) for r in state.history],
    }
    if seat is not None:
        hand = [state.card_for(h, seat) for h in state.hands[seat]]
        view["hand"] = [c for c in hand if c is not None]
        #: the handle of each hand card, in the same order (a wager names its card by handle)
        view["hand_handles"] = [h for h, c in zip(state.hands[seat], hand) if c is not None]
        mine = state.chosen.get(seat)
        view["my_choice"] = (None if mine is None else
                             {"card": state.card_for(mine.handle, seat), "bet": mine.bet})
    return view
