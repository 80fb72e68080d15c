"""Shared helpers for the Arcanum tests: random agents, invariants, partial replay, a stacked table."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Sequence

from p2ptarot.engine import Move, RandomDealer, StackedDealer, TurnKind, create, play
from p2ptarot.games.arcanum.state import ArcanumState
from p2ptarot.games.arcanum.rules import FIGURES, MAJOR_CARDS, MINOR_CARDS

from tests.games.support import replay_log


class RandomAgent:
    uses_view = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, seat: int, view: Any, legal: Sequence[Move]) -> Move:
        return self.rng.choice(list(legal))


def zone_handles(g: ArcanumState) -> list[int]:
    z = g.z
    out = [h for k in z.deck for h in z.deck[k]] + [h for k in z.discard for h in z.discard[k]]
    out += [h for hand in z.hands for h in hand] + [h for hid in z.hidden for h in hid] + z.in_play
    if g.tower is not None:
        out.append(g.tower.handle)
    return out


def check_invariants(g: ArcanumState) -> None:
    """Every card in exactly one zone; 16 figures on the board or held; tracks in bounds."""
    handles = zone_handles(g)
    assert len(handles) == len(set(handles)), "a handle is in two zones"
    expected = list(MINOR_CARDS) + (list(MAJOR_CARDS) if g.rules.majors != "none" else [])
    assert sorted(g.cards[h] for h in handles) == sorted(expected)  # type: ignore[type-var]
    held = [f for figs in g.held.values() for f in figs]
    assert sorted(list(g.figures) + held) == sorted(FIGURES)
    assert all(1 <= loc <= 10 for loc in g.figures.values())
    assert all(0 <= p <= 21 for p in g.prestige.values())
    assert all(v >= 0 for v in g.vp)


def random_game(players: int, seed: int, variant: str | None = None, check: bool = False,
                **options: Any) -> ArcanumState:
    state = create("arcanum", players, variant, options=options or None)
    rng = random.Random(seed)
    agents = [RandomAgent(rng) for _ in range(players)]

    def on_move(st: Any, seat: int, move: Move) -> None:
        check_invariants(st)

    play(state, agents, RandomDealer(random.Random(seed + 1)), on_move=on_move if check else None)
    assert isinstance(state, ArcanumState)
    return state


def replay_partial(omni: ArcanumState, viewer: int | None, audit: bool = True,
                   edits: dict[int, Any] | None = None) -> ArcanumState:
    """`tests.games.support.replay_log`: the viewer's partial replay of an omniscient game, every
    turn matched, the seat's own moves legal in its own view, the audit at the end."""
    return replay_log(omni, viewer, audit, edits)


class Table:
    """A stacked game driven move by move: `minors` / `majors` give the top of each deck (the rest
    follows in canonical order); chance and reveals resolve automatically; `placement_seed` fixes
    the figures, then `place(...)` may move them for a scenario."""

    def __init__(self, players: int = 3, minors: Sequence[str] = (), majors: Sequence[str] = (),
                 variant: str | None = None, **options: Any) -> None:
        options.setdefault("first_seat", 0)
        self.g = create("arcanum", players, variant, options=options)
        assert isinstance(self.g, ArcanumState)
        rest_minor = [c for c in MINOR_CARDS if c not in minors]
        rest_major = [c for c in MAJOR_CARDS if c not in majors]
        self.dealer = StackedDealer(orders={
            ("tarot-78/arcanum:minor", 0): list(minors) + rest_minor,
            ("tarot-78/arcanum:major", 0): list(majors) + rest_major}, choices=[0])
        self.settle()

    def settle(self) -> None:
        while True:
            turn = self.g.turn()
            if turn.kind is TurnKind.CHANCE:
                chance = turn.chance
                if hasattr(chance, "handles"):
                    self.g.resolve_chance(self.dealer.shuffle(self.g, chance))  # type: ignore[arg-type]
                else:
                    self.g.resolve_chance(self.dealer.choice(chance))  # type: ignore[arg-type]
            elif turn.kind is TurnKind.REVEAL:
                self.g.resolve_reveals()
            else:
                return

    def do(self, seat: int, move: Move) -> None:
        self.g.apply(seat, move)
        self.settle()

    def step_random(self, rng: random.Random) -> None:
        """One random legal move by the first seat the pending turn still waits for."""
        ctx = self.g.ctx()
        assert ctx is not None
        seat = next(s for s in self.g.turn().seats if s not in ctx.answers)
        self.g.apply(seat, rng.choice(self.g.legal_moves(seat)))
        self.settle()

    def decision(self) -> str:
        ctx = self.g.ctx()
        assert ctx is not None
        return ctx.name

    def hand(self, seat: int) -> dict[str, int]:
        return {self.g.cards[h]: h for h in self.g.z.hands[seat]}  # type: ignore[misc]

    def handle(self, card: str) -> int:
        return next(h for h, c in enumerate(self.g.cards) if c == card and h in set(
            x for hs in self.g.z.hands for x in hs) | set(x for hs in self.g.z.hidden for x in hs))


def counts(cards: Sequence[str]) -> Counter:
    return Counter(cards)


def scenario(hands: Sequence[Sequence[str]], draws: Sequence[str] = (), major_draws: Sequence[str] = (),
             hide: dict[int, str] | None = None, figures: dict[str, int] | None = None,
             variant: str | None = None, **options: Any) -> Table:
    """Turn 1 of a stacked game, up to seat 0's first decision of phase B.

    `hands[s]` is seat s's deal: 4 minors then (full majors) 1 major; `draws` / `major_draws` are
    the next cards of each deck; `hide[s]` the minor seat s hides in phase A (default: its 4th
    minor); `figures` moves pawns after the placement."""
    minors = [c for h in hands for c in h if not c.startswith("major-")] + list(draws)
    majors = [c for h in hands for c in h if c.startswith("major-")] + list(major_draws)
    t = Table(len(hands), minors, majors, variant, **options)
    for fig, loc in (figures or {}).items():
        t.g.figures[fig] = loc
    hide = hide or {}
    from p2ptarot.games.arcanum.moves import Hide
    for s in range(len(hands)):
        card = hide.get(s, [c for c in hands[s] if not c.startswith("major-")][3])
        t.g.apply(s, Hide((t.hand(s)[card],)))
    t.settle()
    return t
