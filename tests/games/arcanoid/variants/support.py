"""Stacked-deal helpers for the variant tests: the arcanoïd `Table` with a variant."""

from __future__ import annotations

from typing import Any, Sequence

from p2ptarot.cards.arcanoid_tables import ALL_CARDS
from p2ptarot.engine import IllegalMove, Pass, StackedDealer, TurnKind, create
from p2ptarot.games.arcanoid.moves import Discard, Engage

from ..support import Table, filler

P1, P2, P3, P4 = 0, 1, 2, 3


class VTable(Table):
    """`Table` (hands dealt as given, then the pile, then the rest) for any variant; `deal`
    lists the handles dealt per participant in deal order (the USA's too)."""

    def __init__(self, variant: str, hands: list[list[str]], pile: Sequence[str] = (),
                 usa: Sequence[Sequence[str]] = (), **options: Any) -> None:
        dealt = [list(h) for h in hands] + [list(u) for u in usa]
        n = len(dealt)
        used = [c for h in dealt for c in h] + list(pile)
        assert len(set(used)) == len(used) and all(len(h) == 6 for h in dealt)
        rest = [c for c in ALL_CARDS if c not in used]
        order = [dealt[i % n][i // n] for i in range(6 * n)] + list(pile) + rest
        options.setdefault("first_seat", 0)
        self.dealer = StackedDealer(orders={("tarot-78/arcanoid", 0): order})
        self.state = create("arcanoid", len(hands), variant, options=options)  # type: ignore[assignment]
        self.advance()


def vtable(variant: str, special: dict[int, list[str]], n: int = 4, pile: tuple[str, ...] = (),
           usa: Sequence[Sequence[str]] = (), **options: Any) -> VTable:
    taken = [c for cs in special.values() for c in cs] + list(pile) + [c for u in usa for c in u]
    base = filler(n + len(usa), exclude=taken)
    hands = []
    for i in range(n):
        extra = special.get(i, [])
        hands.append(extra + [c for c in base[i] if c not in extra][: 6 - len(extra)])
    return VTable(variant, hands, pile=pile, usa=usa, **options)


def pass_windows(t: Table) -> None:
    st = t.state
    while st.turn().kind is TurnKind.INTERRUPT:
        seat = next(x for x in st.turn().seats if x not in st.ctx().answers)
        t.do(seat, Pass())
    while st.ctx() is not None and st.ctx().name == "hermit":
        t.do(st.turn().seats[0], Pass())


def idle(t: Table) -> int:
    """The participant to move discards its last available card; returns its pid."""
    st = t.state
    pass_windows(t)
    pid = st.ctx().actor
    t.do(st.seat_of(pid), Discard(st.available(pid)[-1]))
    pass_windows(t)
    return pid


def abdicate_to_the_end(t: Table) -> None:
    """Every participant abdicates on its free fields (renewals refused) until the game ends."""
    from p2ptarot.games.arcanoid.moves import Abdicate, Vote

    st = t.state
    while st.turn().kind is not TurnKind.OVER:
        pass_windows(t)
        ctx = st.ctx()
        if ctx is None:
            continue
        if ctx.name == "vote":
            for s in st.turn().seats:
                t.do(s, Vote("no"))
            continue
        pid = ctx.actor
        free = [f for f in ("swords", "wands", "cups", "coins") if f not in st.parts[pid].records]
        t.do(st.seat_of(pid), Abdicate(free[0]))


def refused(t: Table, seat: int, move) -> str:
    """The engine's reason for refusing `move` (the pure check)."""
    try:
        t.state.check(seat, move)
    except IllegalMove as exc:
        return str(exc)
    raise AssertionError(f"{move} was accepted")


def eng(t: Table, seat: int, fields: tuple[str, ...], *cards: str, transmute: str | None = None) -> None:
    t.do(seat, Engage(fields, tuple(t.h(c) for c in cards), cards, t.h(transmute) if transmute else -1))


def engage_move(t: Table, fields: tuple[str, ...], *cards: str, transmute: str | None = None) -> Engage:
    return Engage(fields, tuple(t.h(c) for c in cards), cards, t.h(transmute) if transmute else -1)
