"""The right-side effects of the ten city locations (rules §6.4; "you" is the active player)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from p2ptarot.engine.flow import Flow

from .rules import HOUSES, MAJOR, MINOR
from .model import Ctx
from .moves import Discard, Hide

if TYPE_CHECKING:
    from .api import ArcanumGame


def mage_tower(g: ArcanumGame, seat: int) -> Flow:
    g.gain_vp(seat, 1)
    yield from g.draw(seat, MAJOR, 1)
    yield from g.limit([seat])


def artisan_district(g: ArcanumGame, seat: int) -> Flow:
    option = "minors"
    if g.majors_in_play():
        move = yield from g.decide(Ctx("artisan", seat), seat)
        option = move.option
    if option == "major":
        yield from g.draw(seat, MAJOR, 1)
    else:
        yield from g.draw(seat, MINOR, 2)
    yield from g.limit([seat])


def harbour(g: ArcanumGame, seat: int) -> Flow:
    """R17: the others choose in turn, publicly; you draw as many as they actually drew."""
    yield from g.draw(seat, MINOR, 1)
    yield from g.limit([seat])
    drawn = 0
    for other in g.seats_from(seat, include=False):
        move = yield from g.decide(Ctx("harbour", other, {"for": seat}), other)
        if move.option == "draw":
            drawn += len((yield from g.draw(other, MINOR, 1)))
            yield from g.limit([other])
    if drawn:
        yield from g.draw(seat, MINOR, drawn)
        yield from g.limit([seat])


def throne_room(g: ArcanumGame, seat: int) -> Flow:
    yield from g.draw(seat, MINOR, 2)
    yield from g.limit([seat])


def market(g: ArcanumGame, seat: int) -> Flow:
    """R18: +2 VP, then optionally trade 1 minor for 2 minors or 1 major for 1 major."""
    g.gain_vp(seat, 2)
    move = yield from g.decide(Ctx("market", seat), seat)
    if isinstance(move, Discard):
        g.discard_from_hand(seat, move)
        kind = g.kind[move.handles[0]]
        assert kind is not None  # a card in the hand: its deck is known to every seat
        yield from g.draw(seat, kind, 2 if kind == MINOR else 1)
        yield from g.limit([seat])


def fields(g: ArcanumGame, seat: int) -> Flow:
    """R16: +1 VP; then each House +1, −1 or unchanged, in canonical order."""
    g.gain_vp(seat, 1)
    move = yield from g.decide(Ctx("fields", seat), seat)
    for house, change in zip(HOUSES, move.changes):
        if change:
            g.add_prestige(house, change)


def treasure_vault(g: ArcanumGame, seat: int) -> Flow:
    """One minor straight into the hidden area, seen by its owner only."""
    yield from g.draw(seat, MINOR, 1, into=g.z.hidden[seat])


def cathedral(g: ArcanumGame, seat: int) -> Flow:
    move = yield from g.decide(Ctx("cathedral", seat), seat)
    if isinstance(move, Hide):
        g.hide(seat, move.handles)
    else:
        yield from g.draw(seat, MINOR, 2)
        yield from g.limit([seat])


def ballroom(g: ArcanumGame, seat: int) -> Flow:
    move = yield from g.decide(Ctx("hide", seat, {"min": 0, "max": 1, "why": "Ballroom"}), seat)
    g.hide(seat, move.handles)


def castle(g: ArcanumGame, seat: int) -> Flow:
    yield from g.discard_round("castle", g.seats_from(seat, include=False))


EFFECTS: dict[int, Callable[[ArcanumGame, int], Flow]] = {
    1: mage_tower, 2: artisan_district, 3: harbour, 4: throne_room, 5: market, 6: fields,
    7: treasure_vault, 8: cathedral, 9: ballroom, 10: castle}


def location_effect(g: ArcanumGame, seat: int, loc: int) -> Flow:
    yield from EFFECTS[loc](g, seat)

