"""The 22 major arcana (rules §8): one small generator per card, in a table by number.

Each effect runs after the card left the hand (it is `in_play`); `play_major` then discards it,
except the Tower (on the board) and the Fool hidden by its own play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from p2ptarot.engine import PUBLIC, EngineError, Reveal
from p2ptarot.engine.flow import AskReveal, Flow

from .rules import MAJOR, MINOR, major_number
from .core import TowerState
from .model import Ctx
from .minor import enter, relocations
from .moves import Relocate
from .scoring import score_all

if TYPE_CHECKING:
    from .api import ArcanumGame

KEEP = "keep"  # an effect's return value: the card does not go to the discard pile


def relocate(g: ArcanumGame, seat: int, optional: bool) -> Flow:
    """§6.6 move-and-activate (optional for the Empress and Temperance, R33)."""
    if not relocations(g):
        return
    move = yield from g.decide(Ctx("relocate", seat, {"optional": optional}), seat)
    if isinstance(move, Relocate):
        yield from enter(g, seat, move.figure, move.dest)


def hide_some(g: ArcanumGame, seat: int, most: int, why: str) -> Flow:
    move = yield from g.decide(Ctx("hide", seat, {"min": 0, "max": most, "why": why}), seat)
    g.hide(seat, move.handles)


def others_hide(g: ArcanumGame, seat: int, why: str) -> Flow:
    """Hermit / Moon: every other player may hide 1 minor, simultaneously."""
    seats = [s for s in g.seats_from(seat, include=False) if g.public_has_minor(s) is not False]
    ctx = Ctx("hide", seat, {"min": 0, "max": 1, "why": why})
    answers = yield from g.collect(ctx, seats)
    for s in sorted(answers):
        g.hide(s, answers[s].handles)


def choose_house(g: ArcanumGame, seat: int, amount: int, why: str) -> Flow:
    move = yield from g.decide(Ctx("house", seat, {"amount": amount, "why": why}), seat)
    g.add_prestige(move.house, amount)


def fool(g: ArcanumGame, seat: int, handle: int) -> Flow:
    joker = bool(relocations(g))
    move = yield from g.decide(Ctx("fool-mode", seat, {"joker": joker}), seat)
    if move.option == "hide":
        g.z.hidden[seat].append(handle)
        return KEEP
    yield from relocate(g, seat, optional=False)
    return None


def magician(g: ArcanumGame, seat: int, handle: int) -> Flow:
    yield from g.draw(seat, MINOR, 2)
    yield from g.limit([seat])
    yield from hide_some(g, seat, 1, "Magician")


def high_priestess(g: ArcanumGame, seat: int, handle: int) -> Flow:
    g.gain_vp(seat, 3)
    yield from ()


def empress(g: ArcanumGame, seat: int, handle: int) -> Flow:
    yield from relocate(g, seat, optional=True)
    move = yield from g.decide(Ctx("empress", seat), seat)
    g.add_prestige(move.up, 1)
    g.add_prestige(move.down, -1)


def emperor(g: ArcanumGame, seat: int, handle: int) -> Flow:
    yield from hide_some(g, seat, 1, "Emperor")
    yield from choose_house(g, seat, 3, "Emperor")


def hierophant(g: ArcanumGame, seat: int, handle: int) -> Flow:
    yield from g.draw(seat, MINOR, 1)
    yield from g.limit([seat])
    yield from g.draw(seat, MAJOR, 1)
    yield from g.limit([seat])


def lovers(g: ArcanumGame, seat: int, handle: int) -> Flow:
    """R28: the lowest total over all players before any gain; you gain 2 more on top."""
    low = min(g.vp)
    for s in g.seats_from(seat):
        if g.vp[s] == low and s != seat:
            g.gain_vp(s, 2)
    g.gain_vp(seat, 4 if g.vp[seat] == low else 2)
    yield from ()


def chariot(g: ArcanumGame, seat: int, handle: int) -> Flow:
    yield from choose_house(g, seat, 2, "Chariot")
    yield from g.discard_round("chariot", g.seats_from(seat, include=False))


def strength(g: ArcanumGame, seat: int, handle: int) -> Flow:
    g.gain_vp(seat, 2)
    yield from choose_house(g, seat, 3, "Strength")


def hermit(g: ArcanumGame, seat: int, handle: int) -> Flow:
    yield from hide_some(g, seat, 2, "Hermit")
    yield from others_hide(g, seat, "Hermit")


def wheel(g: ArcanumGame, seat: int, handle: int) -> Flow:
    """R35: everyone gives 2 cards (all if fewer) to the left; committed, then moved together."""
    givers = [s for s in range(g.players) if g.z.hands[s]]
    answers = yield from g.collect(Ctx("wheel", seat), givers)
    moves = {s: answers[s].handles for s in answers}
    for giver, handles in moves.items():
        receiver = (giver + 1) % g.players
        for h in handles:
            g.show_to(h, receiver, holder=giver)
            g.on_wheel(giver, receiver, h)
    yield from g.flush()
    for giver, handles in moves.items():
        for h in handles:
            g.z.hands[giver].remove(h)
    for giver, handles in moves.items():
        g.z.hands[(giver + 1) % g.players].extend(handles)
    yield from g.limit(g.seats_from(seat))


def justice(g: ArcanumGame, seat: int, handle: int) -> Flow:
    """R31: minors until the hand holds 4 cards of any kind."""
    need = 4 - len(g.z.hands[seat])
    if need > 0:
        yield from g.draw(seat, MINOR, need)


def hanged_man(g: ArcanumGame, seat: int, handle: int) -> Flow:
    g.gain_vp(seat, -2)
    yield from g.draw(seat, MAJOR, 2)
    yield from g.limit([seat])


def death(g: ArcanumGame, seat: int, handle: int) -> Flow:
    """R32: discard 1 or 2 minors, draw as many majors."""
    move = yield from g.decide(Ctx("death", seat), seat)
    g.discard_from_hand(seat, move)
    yield from g.draw(seat, MAJOR, len(move.handles))
    yield from g.limit([seat])


def temperance(g: ArcanumGame, seat: int, handle: int) -> Flow:
    """R25: an optional move-and-activate, then up to 2 one-for-one swaps hand ↔ hidden area."""
    yield from relocate(g, seat, optional=True)
    move = yield from g.decide(Ctx("swap", seat), seat)
    g.declare((h, c) for h, c in zip(move.give, move.cards) if c)
    for give, take in zip(move.give, move.take):
        hidden = g.z.hidden[seat]
        hidden[hidden.index(take)] = give
        g.face_up.discard(take)
        hand = g.z.hands[seat]
        hand[hand.index(give)] = take
        g.on_swapped_in(seat, give)


def devil(g: ArcanumGame, seat: int, handle: int) -> Flow:
    """R27: every VP and prestige change is doubled to the end of this activation."""
    g.devil = True
    yield from ()


def tower(g: ArcanumGame, seat: int, handle: int) -> Flow:
    """R22: +2 VP, then one location or a `towerPairs` pair is frozen until your next upkeep."""
    g.gain_vp(seat, 2)
    move = yield from g.decide(Ctx("tower", seat), seat)
    g.tower = TowerState(seat, handle, frozenset(move.locations))
    return KEEP


def stars(g: ArcanumGame, seat: int, handle: int) -> Flow:
    yield from g.draw(seat, MINOR, 2)
    yield from g.limit([seat])
    g.gain_vp(seat, g.rules.stars_vp)


def moon(g: ArcanumGame, seat: int, handle: int) -> Flow:
    """R30: everyone draws, you first; you may hide up to 2, the others 1 each."""
    for s in g.seats_from(seat):
        yield from g.draw(s, MINOR, g.rules.moon_draw)
        yield from g.limit([s])
    yield from hide_some(g, seat, 2, "Moon")
    yield from others_hide(g, seat, "Moon")


def sun(g: ArcanumGame, seat: int, handle: int) -> Flow:
    """R24: +2 VP; every other player turns 3 face-down hidden cards face up (all if fewer)."""
    g.gain_vp(seat, 2)
    seats = [s for s in g.seats_from(seat, include=False) if g.face_down(s)]
    answers = yield from g.collect(Ctx("sun", seat), seats)
    for s in sorted(answers):
        g.declare(zip(answers[s].handles, answers[s].cards))
        g.face_up.update(answers[s].handles)


def judgement(g: ArcanumGame, seat: int, handle: int) -> Flow:
    """R23: the others discard first, then 3 figures leave the board until your next upkeep."""
    yield from g.discard_round("judgement", g.seats_from(seat, include=False))
    removed = 0
    while removed < 3 and any(g.movable(f) for f in g.figures):
        ctx = Ctx("remove", seat, {"removed": list(g.held.get(seat, []))})
        move = yield from g.decide(ctx, seat)
        del g.figures[move.figure]
        g.held.setdefault(seat, []).append(move.figure)
        removed += 1


def world(g: ArcanumGame, seat: int, handle: int) -> Flow:
    """§7.6: may hide 1 minor, then the half-value scoring; nothing is discarded or reset."""
    yield from hide_some(g, seat, 1, "World")
    yield from house_scoring(g, world=True)


def house_scoring(g: ArcanumGame, world: bool) -> Flow:
    """§7.4 (or §7.6): reveal everything at once, the Fool's holder declares, score."""
    reveals = tuple(Reveal(h, PUBLIC, s) for s in range(g.players) for h in g.z.hidden[s]
                    if PUBLIC not in g.seen[h])
    yield from g.flush()
    if reveals:
        yield AskReveal(reveals)
    for s in range(g.players):
        for h in g.z.hidden[s]:
            g.on_opened(s, h)
    missing = [h for s in range(g.players) for h in g.z.hidden[s] if g.cards[h] is None]
    if missing:
        raise EngineError(f"scoring: opened hidden cards {missing} have no value in this state")
    hidden = [[g.cards[h] for h in g.z.hidden[s]] for s in range(g.players)]
    fool_suit: dict[int, str] = {}
    for s in range(g.players):
        if "major-0" in hidden[s]:
            move = yield from g.decide(Ctx("declare", s, {"world": world}), s)
            fool_suit[s] = move.house
    gains = score_all(g.prestige, hidden, fool_suit, world=world)  # type: ignore[arg-type]  # every Fool holder declared a suit just above (no None left)
    for s, gained in enumerate(gains):
        if gained:
            g.gain_vp(s, gained, "world" if world else "scoring", doubled=False)
    g.scorings.append({"turn": g.turn_no, "world": world, "prestige": dict(g.prestige),
                       "hidden": [list(c) for c in hidden], "fool": {str(k): v for k, v in fool_suit.items()},
                       "vp": gains})
    if not world:
        for s in range(g.players):
            for h in g.z.hidden[s]:
                g.to_discard(h)
            g.z.hidden[s] = []
        g.face_up.clear()
        for house in g.prestige:
            g.prestige[house] = 0


EFFECTS: dict[int, Callable[..., Flow]] = {
    0: fool, 1: magician, 2: high_priestess, 3: empress, 4: emperor, 5: hierophant, 6: lovers,
    7: chariot, 8: strength, 9: hermit, 10: wheel, 11: justice, 12: hanged_man, 13: death,
    14: temperance, 15: devil, 16: tower, 17: stars, 18: moon, 19: sun, 20: judgement, 21: world}


def play_major(g: ArcanumGame, seat: int, handle: int, card: str) -> Flow:
    g.declare([(handle, card)])
    g.z.hands[seat].remove(handle)
    g.z.in_play.append(handle)
    kept = yield from EFFECTS[major_number(card)](g, seat, handle)
    g.z.in_play.remove(handle)
    if kept != KEEP:
        g.to_discard(handle)
