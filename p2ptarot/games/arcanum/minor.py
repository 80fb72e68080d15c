"""Playing a minor arcana (rules §6), and the move-and-activate of the Fool, Empress and
Temperance (rules §6.6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot.engine.flow import Flow

from .rules import ARCANUM_CARD, figure_house, figure_of_court, house_of
from .locations import location_effect

if TYPE_CHECKING:
    from .api import ArcanumGame

NO_MOVE = ("", 0)


def minor_moves(g: ArcanumGame, card: str) -> list[tuple[str, int]]:
    """§6.1 b / §6.2: the (figure, destination) choices of a minor; [NO_MOVE] when none exists."""
    info = ARCANUM_CARD(card)
    out: list[tuple[str, int]] = []
    if info.numeric:
        v = info.rank
        if not g.frozen(v):
            out = [(fig, v) for fig, loc in sorted(g.figures.items())
                   if figure_house(fig) == info.suit and loc != v and not g.frozen(loc)]
    else:
        fig = figure_of_court(card)
        if g.movable(fig):
            out = [(fig, d) for d in g.open_locations() if d != g.figures[fig]]
    return out or [NO_MOVE]


def relocations(g: ArcanumGame) -> list[tuple[str, int]]:
    """§6.6: every figure outside frozen locations to every other unfrozen location."""
    return [(fig, d) for fig, loc in sorted(g.figures.items()) if not g.frozen(loc)
            for d in g.open_locations() if d != loc]


def enter(g: ArcanumGame, seat: int, fig: str, dest: int) -> Flow:
    """Steps b–d once the move is chosen: move, the symbols' prestige, the location effect."""
    g.figures[fig] = dest
    g.add_prestige(figure_house(fig), g.board.gain(fig, dest))
    yield from location_effect(g, seat, dest)


def play_minor(g: ArcanumGame, seat: int, handle: int, card: str, fig: str, dest: int) -> Flow:
    """§6.1 a–e."""
    g.declare([(handle, card)])
    g.z.hands[seat].remove(handle)
    g.z.in_play.append(handle)
    g.add_prestige(house_of(card), 1)
    if fig:
        yield from enter(g, seat, fig, dest)
    g.z.in_play.remove(handle)
    g.to_discard(handle)
