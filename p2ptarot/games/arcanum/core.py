"""Bookkeeping shared by every rule: card zones, what is publicly known of each card's kind,
drawing and reshuffling (R7), the hand limit (rules §4.5), tracks, figures and decisions.

Zones are lists of handles. Deck tops are index 0. A handle's *kind* (minor/major) is public by
default (§9: the two decks are separate); under `wheelHidesKind` a Wheel-passed handle's kind is
known only to those who know its value (`kind_for`), and the flow never depends on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from p2ptarot.engine import NOBODY, PUBLIC, Reveal, Shuffle, TurnKind
from p2ptarot.engine.flow import Ask, AskChance, AskReveal, Flow

from .rules import MAJOR, MINOR, kind_of
from .model import Ctx
from .tracks import change_prestige, change_vp
from p2ptarot.i18n.message import tr

DECK_NAMES = {MINOR: "tarot-78/arcanum:minor", MAJOR: "tarot-78/arcanum:major"}


@dataclass
class TowerState:
    owner: int
    handle: int
    locations: frozenset[int]


@dataclass
class Zones:
    """Every card handle of the game by zone."""

    deck: dict[str, list[int]] = field(default_factory=lambda: {MINOR: [], MAJOR: []})
    discard: dict[str, list[int]] = field(default_factory=lambda: {MINOR: [], MAJOR: []})
    hands: list[list[int]] = field(default_factory=list)
    hidden: list[list[int]] = field(default_factory=list)
    in_play: list[int] = field(default_factory=list)  # the card being resolved


class Core:
    """Mixin over `GameState`: state of one Arcanum game and the primitive effects."""

    players: int
    cards: list[str | None]
    seen: list[set[int]]
    rules: Any
    board: Any

    def _init_core(self) -> None:
        n = self.players
        self.z = Zones(hands=[[] for _ in range(n)], hidden=[[] for _ in range(n)])
        self.kind: list[str | None] = []  # public kind per handle (None: not public)
        self.face_up: set[int] = set()  # hidden cards turned face up by a Sun (R24)
        self.prestige: dict[str, int] = {"swords": 0, "wands": 0, "cups": 0, "coins": 0}
        self.vp = [0] * n
        self.vp_log: list[tuple[int, str, int, int]] = []  # (turn, source, seat, delta)
        self.figures: dict[str, int] = {}  # figure -> location, figures on the board
        self.held: dict[int, list[str]] = {}  # Judgement: owner -> figures off the board
        self.tower: TowerState | None = None
        self.epochs = {MINOR: -1, MAJOR: -1}
        self.pending: list[Reveal] = []
        self.turn_no = 0
        self.first_player = 0
        self.active = -1
        self.devil = False
        self.vp_source = "effect"
        self.minor_done = False
        self.major_done = False
        self.scorings: list[dict[str, Any]] = []

    # ---- knowledge ---------------------------------------------------------------------------
    def where(self) -> str:
        if self.active >= 0:
            return tr("turn {turn}, P{player}'s activation",
                      turn=self.turn_no, player=self.active + 1)
        return tr("turn {turn}", turn=self.turn_no)

    def kind_for(self, handle: int, seat: int | None) -> str | None:
        """The kind of `handle` as `seat` (None: the public) knows it."""
        k = self.kind[handle]
        if k is not None:
            return k
        card = self.card_for(handle, seat)  # type: ignore[attr-defined]  # a mixin: the state class that inherits it defines this
        return kind_of(card) if card is not None else None

    def known_kind(self, handle: int) -> str | None:
        """The kind of `handle` as this state knows it (all of them when omniscient)."""
        k = self.kind[handle]
        if k is not None:
            return k
        card = self.cards[handle]
        return kind_of(card) if card is not None else None

    def public_has_minor(self, seat: int) -> bool | None:
        """Whether the public knows `seat` holds a minor: True, False, or None (unknown kinds)."""
        kinds = [self.kind[h] for h in self.z.hands[seat]]
        if MINOR in kinds:
            return True
        return None if None in kinds else False

    def seats_from(self, seat: int, include: bool = True) -> list[int]:
        order = [(seat + k) % self.players for k in range(self.players)]
        return order if include else order[1:]

    # ---- reveals and decisions ---------------------------------------------------------------
    def show_to(self, handle: int, seat: int, holder: int = NOBODY) -> None:
        if PUBLIC not in self.seen[handle] and seat not in self.seen[handle]:
            self.pending.append(Reveal(handle, seat, holder))

    def show_public(self, handle: int, holder: int = NOBODY) -> None:
        if PUBLIC not in self.seen[handle]:
            self.pending.append(Reveal(handle, PUBLIC, holder))

    def declare(self, pairs: Iterable[tuple[int, str]]) -> None:
        """A checked move turned these handles face up with these values."""
        for handle, card in pairs:
            self.seen[handle] = {PUBLIC}
            self.learn(handle, card)  # type: ignore[attr-defined]  # a mixin: the state class that inherits it defines this
            self.kind[handle] = kind_of(card)
            self._on_public(handle, card)  # type: ignore[attr-defined]  # a mixin: the state class that inherits it defines this

    def flush(self) -> Flow:
        if self.pending:
            reveals = tuple(self.pending)
            self.pending = []
            yield AskReveal(reveals)

    def decide(self, ctx: Ctx, seat: int) -> Flow:
        """One seat's decision (owed reveals are delivered first)."""
        ctx.actor = seat if ctx.actor < 0 else ctx.actor
        yield from self.flush()
        _, move = yield Ask(TurnKind.SEAT, (seat,), ctx)
        return move

    def collect(self, ctx: Ctx, seats: Iterable[int]) -> Flow:
        """Every listed seat decides blind (SIMULTANEOUS, R20); seat -> move, in seat order."""
        ordered = tuple(sorted(set(seats)))
        if not ordered:
            return {}
        yield from self.flush()
        while len(ctx.answers) < len(ordered):
            seat, move = yield Ask(TurnKind.SIMULTANEOUS, ordered, ctx)
            ctx.answers[seat] = move
        return ctx.answers

    # ---- tracks ------------------------------------------------------------------------------
    def gain_vp(self, seat: int, amount: int, source: str | None = None,
                doubled: bool = True) -> None:
        """R9, R27: VP change, doubled under the Devil (House scorings are not), never below 0."""
        amount *= 2 if self.devil and doubled else 1
        before = self.vp[seat]
        change_vp(self.vp, seat, amount)
        if self.vp[seat] != before:
            self.vp_log.append((self.turn_no, source or self.vp_source, seat, self.vp[seat] - before))

    def add_prestige(self, house: str, amount: int) -> None:
        change_prestige(self.prestige, house, amount * (2 if self.devil else 1))

    # ---- figures and the Tower ---------------------------------------------------------------
    def frozen(self, loc: int) -> bool:
        return self.tower is not None and loc in self.tower.locations

    def movable(self, fig: str) -> bool:
        """On the board and not in a frozen location."""
        loc = self.figures.get(fig)
        return loc is not None and not self.frozen(loc)

    def open_locations(self) -> list[int]:
        if self.tower is None:
            return list(range(1, 11))
        return [loc for loc in range(1, 11) if loc not in self.tower.locations]

    # ---- decks (R7) --------------------------------------------------------------------------
    def majors_in_play(self) -> bool:
        """R45: while majors are out of play, an effect that would draw one draws nothing."""
        mode = self.rules.majors
        return mode == "full" or (mode == "delayed" and self.turn_no >= 3)

    def new_deck(self, kind: str, cards: tuple[str, ...]) -> Flow:
        yield from self.flush()
        handles = self._new_handles(len(cards))  # type: ignore[attr-defined]  # a mixin: the state class that inherits it defines this
        self.kind.extend([kind] * len(handles))
        self.epochs[kind] += 1
        result = yield AskChance(Shuffle(DECK_NAMES[kind], self.epochs[kind], handles, cards=cards))
        self._learn_all(result)
        self.z.deck[kind] = list(handles)

    def reshuffle(self, kind: str) -> Flow:
        """R7: the whole discard pile of that kind, jointly shuffled into a new deck."""
        yield from self.flush()
        source = tuple(self.z.discard[kind])
        handles = self._new_handles(len(source))  # type: ignore[attr-defined]  # a mixin: the state class that inherits it defines this
        self.kind.extend([kind] * len(handles))
        self.epochs[kind] += 1
        result = yield AskChance(Shuffle(DECK_NAMES[kind], self.epochs[kind], handles, source=source))
        self._learn_all(result)
        self.z.discard[kind] = []
        self.z.deck[kind] = list(handles)

    def _learn_all(self, result: object) -> None:
        if isinstance(result, dict):
            for handle, card in result.items():
                self.learn(int(handle), card)  # type: ignore[attr-defined]  # a mixin: the state class that inherits it defines this

    def draw(self, seat: int, kind: str, count: int, into: list[int] | None = None) -> Flow:
        """Draw up to `count` cards of `kind` into `seat`'s hand (or `into`); the handles drawn."""
        if kind == MAJOR and not self.majors_in_play():
            return []
        drawn: list[int] = []
        zone = self.z.hands[seat] if into is None else into
        for _ in range(count):
            if not self.z.deck[kind]:
                if not self.z.discard[kind]:
                    break
                yield from self.reshuffle(kind)
            handle = self.z.deck[kind].pop(0)
            zone.append(handle)
            self.show_to(handle, seat)
            drawn.append(handle)
        return drawn

    def to_discard(self, handle: int) -> None:
        """A card face up to the discard pile of its kind."""
        kind = self.kind[handle]
        if kind is None:  # only a publicly opened card is ever discarded
            card = self.cards[handle]
            assert card is not None
            kind = self.kind[handle] = kind_of(card)
        self.z.discard[kind].append(handle)

    # ---- the hand limit (§4.5, R6) -----------------------------------------------------------
    def limit(self, seats: Iterable[int], keep: Iterable[int] = ()) -> Flow:
        """Each listed seat above the limit discards down to it, choosing which, face up."""
        for seat in seats:
            excess = len(self.z.hands[seat]) - self.rules.hand_limit
            if excess > 0:
                ctx = Ctx("limit", seat, {"count": excess, "keep": list(keep)})
                move = yield from self.decide(ctx, seat)
                self.discard_from_hand(seat, move)

    def discard_from_hand(self, seat: int, move: Any) -> None:
        self.declare(zip(move.handles, move.cards))
        for h in move.handles:
            self.z.hands[seat].remove(h)
            self.to_discard(h)

    def hide(self, seat: int, handles: Iterable[int]) -> None:
        for h in handles:
            self.z.hands[seat].remove(h)
            self.z.hidden[seat].append(h)
            self.on_hidden(seat, h)

    def on_hidden(self, seat: int, handle: int) -> None:
        """Hook: a handle entered a hidden area from the hand (claims under wheelHidesKind)."""

    def discard_round(self, ctx_name: str, seats: Iterable[int]) -> Flow:
        """Castle / Chariot / Judgement: every listed seat with a card discards one (R19)."""
        ctx = Ctx(ctx_name, self.active)
        answers = yield from self.collect(ctx, [s for s in seats if self.z.hands[s]])
        for seat in sorted(answers):
            self.discard_from_hand(seat, answers[seat])

