"""A seat's JSON view (rules §8): only what that seat may know.

Public: the layout, hand sizes, statuses, the Sage and his marker, the play being judged, the
calls, the hints, the stock size, scores. Private: the seat's own hand. The rule text is shown to
the dealer's own seat while the round runs and to everyone once it has opened.
"""

from __future__ import annotations

from typing import Any, Protocol, TYPE_CHECKING

from p2ptarot.engine.types import NOBODY

from .rules import OPEN, OVER, PHASE_NAMES

if TYPE_CHECKING:
    from p2ptarot.engine.types import Turn
    from .layout import Layout
    from .records import Pending, RoundRecord
    from .rules import Rules


class ViewSource(Protocol):
    """What the view reads of the game's state (the state class satisfies it; typed against this,
    not the class, so this module does not import the state module that imports it)."""

    def card_for(self, handle: int, seat: int | None) -> str | None: ...
    def card_of(self, handle: int) -> str: ...
    @property
    def committed(self) -> bool: ...
    @property
    def current(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def dealt(self) -> list[bool]: ...
    @property
    def eliminated(self) -> list[bool]: ...
    @property
    def ended(self) -> bool: ...
    @property
    def hands(self) -> list[list[int]]: ...
    @property
    def hint_text(self) -> str: ...
    @property
    def hints(self) -> tuple[str, ...]: ...
    def known_to(self, handle: int, seat: int | None) -> bool: ...
    @property
    def last_event(self) -> str: ...
    @property
    def layout(self) -> Layout: ...
    @property
    def pending(self) -> Pending | None: ...
    @property
    def phase(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def records(self) -> list[RoundRecord]: ...
    @property
    def round(self) -> int: ...
    @property
    def rounds(self) -> Any: ...
    @property
    def rule_text(self) -> str | None: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def sage(self) -> int: ...
    @property
    def stock(self) -> list[int]: ...
    def totals(self) -> list[int]: ...
    def turn(self) -> Turn: ...
    @property
    def was_sage(self) -> list[bool]: ...


def build_view(state: ViewSource, seat: int | None) -> dict[str, Any]:

    players = []
    for s in range(state.players):
        hand = state.hands[s]
        shown = [{"handle": h, "card": state.card_for(h, None)} for h in hand
                 if state.known_to(h, None)]
        players.append({
            "seat": s, "dealer": s == state.dealer, "cards": len(hand),
            "eliminated": state.eliminated[s], "sage": s == state.sage,
            "false_prophet": state.was_sage[s] and s != state.sage, "dealt": state.dealt[s],
            "shown": shown,
        })
    own = None
    if seat is not None and 0 <= seat < state.players:
        own = [{"handle": h, "card": state.card_for(h, seat)} for h in state.hands[seat]]
    p = state.pending
    pending = None
    if p is not None:
        pending = {"seat": p.seat, "no_play": p.no_play, "handles": list(p.handles),
                   "cards": list(p.cards), "sudden_death": p.sudden, "call": p.call,
                   "proposal": (state.card_of(p.proposal) if p.proposal != NOBODY else "")}
    opened = state.phase in (OVER,) or (state.phase != OPEN and state.ended)
    show_rule = seat is not None and seat == state.dealer or opened
    layout = state.layout
    sudden = (layout.size - layout.marker >= state.rules.sudden_death_after_marker if state.sage >= 0
              else layout.size >= state.rules.sudden_death_layout)
    return {
        "game": "eleusis", "seat": seat, "round": state.round + 1, "rounds": state.rounds,
        "phase": PHASE_NAMES[state.phase], "turn": state.turn().to_json(), "dealer": state.dealer,
        "current": state.current, "sage": state.sage, "players": players, "hand": own,
        "layout": layout.to_json(), "stock": len(state.stock), "pending": pending,
        "sudden_death": sudden, "hints": list(state.hints), "hint_text": state.hint_text,
        "rule": state.rule_text if show_rule and state.rule_text is not None else None,
        "committed": state.committed, "last_event": state.last_event,
        "round_scores": [r.scores for r in state.records if r.scores],
        "past_rules": [r.rule for r in state.records if r.scores],
        "totals": state.totals(),
    }
