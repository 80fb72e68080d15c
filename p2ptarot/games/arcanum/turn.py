"""The game (rules §3–§4): setup, then each turn's phases A (draw and hide), B (activations),
C (scoring)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot.engine import Pass, RandomChoice
from p2ptarot.engine.flow import AskChance, Done, Flow

from .rules import MAJOR, MAJOR_CARDS, MINOR, MINOR_CARDS
from .model import Ctx
from .majors import house_scoring, play_major
from .minor import play_minor
from .moves import PlayMajor, PlayMinor
from .setup import placement

if TYPE_CHECKING:
    from .api import ArcanumGame

PLACEMENT_SEED_RANGE = 2**62


def game(g: ArcanumGame) -> Flow:
    """§3.2 setup, then every turn; the game ends with the scoring after its last turn (§4.4)."""
    fs = g.options.get("first_seat")
    if fs is None:
        g.first_player = (yield AskChance(RandomChoice(g.players, "first player"))) % g.players
    else:
        g.first_player = fs
    seed = yield AskChance(RandomChoice(PLACEMENT_SEED_RANGE, "figure placement"))
    g.figures = placement(int(seed))
    yield from g.new_deck(MINOR, MINOR_CARDS)
    if g.rules.majors != "none":
        yield from g.new_deck(MAJOR, MAJOR_CARDS)
    last = g.rules.turns(g.players)
    for t in range(1, last + 1):
        g.turn_no = t
        yield from phase_a(g)
        for seat in g.seats_from(g.first_player):
            yield from activation(g, seat)
        if t in g.rules.scoring_turns(g.players):
            g.phase = "scoring"
            yield from house_scoring(g, world=False)
        if t < last:
            g.first_player = (g.first_player + 1) % g.players  # R47
    g.phase = "over"
    yield from g.flush()
    yield Done()


def phase_a(g: ArcanumGame) -> Flow:
    """§4.1: draw (turn 1: dealt 4 minors + 1 major), the hand limit, then the mandatory hide."""
    g.phase = "draw"
    mode = g.rules.majors
    for seat in g.seats_from(g.first_player):
        if g.turn_no == 1:
            yield from g.draw(seat, MINOR, 4)
            if mode == "full":
                yield from g.draw(seat, MAJOR, 1)
        elif mode == "delayed" and g.turn_no == 3:
            yield from g.draw(seat, MINOR, 3)
            yield from g.draw(seat, MAJOR, 1)
        elif g.majors_in_play():
            move = yield from g.decide(Ctx("draw-choice", seat), seat)
            if move.option == "major":
                yield from g.draw(seat, MAJOR, 1)
            else:
                yield from g.draw(seat, MINOR, 3)
        else:
            yield from g.draw(seat, MINOR, 3)
        yield from g.limit([seat])
    g.phase = "hide"
    seats = [s for s in range(g.players) if g.public_has_minor(s) is not False]
    ctx = Ctx("hide", -1, {"min": 1, "max": 1, "why": "phase A"})
    answers = yield from g.collect(ctx, seats)
    for seat in sorted(answers):
        g.hide(seat, answers[seat].handles)
        if not answers[seat].handles:
            g.claim_no_minor(seat, "phase A hide")


def activation(g: ArcanumGame, seat: int) -> Flow:
    """§4.2: upkeep, optional major, mandatory minor, optional major."""
    g.phase = "play"
    g.active, g.devil = seat, False
    g.minor_done = g.major_done = False
    if g.tower is not None and g.tower.owner == seat:  # R10: the Tower's freeze ends
        g.to_discard(g.tower.handle)
        g.tower = None
    taken: list[int] = []
    while g.held.get(seat):  # R23: each into a different unfrozen location, no effects
        fig = g.held[seat][0]
        ctx = Ctx("return", seat, {"figure": fig, "taken": list(taken)})
        move = yield from g.decide(ctx, seat)
        g.held[seat].pop(0)
        g.figures[fig] = move.dest
        taken.append(move.dest)
        if not g.held[seat]:
            del g.held[seat]
    while not (g.minor_done and g.major_done):
        if not g.minor_done:
            yield from ensure_minor(g, seat)
        if g.minor_done and g.major_done:
            break
        move = yield from g.decide(Ctx("act", seat), seat)
        if isinstance(move, Pass):
            break
        if isinstance(move, PlayMinor):
            g.minor_done = True
            yield from play_minor(g, seat, move.handle, move.card, move.figure, move.dest)
        else:
            assert isinstance(move, PlayMajor)
            g.major_done = True
            yield from play_major(g, seat, move.handle, move.card)
    g.devil = False
    g.active = -1


def ensure_minor(g: ArcanumGame, seat: int) -> Flow:
    """R11: a player without a minor draws one (and must play it); none to draw: no minor."""
    has = g.public_has_minor(seat)
    if has is None:  # wheelHidesKind: only the player knows; he declares (a claim if "draw")
        move = yield from g.decide(Ctx("forced-draw", seat), seat)
        if move.option == "keep":
            return
        g.claim_no_minor(seat, "forced draw")
    elif has:
        return
    drawn = yield from g.draw(seat, MINOR, 1)
    if not drawn:
        g.minor_done = True  # R11: the minor is skipped only if none can be drawn at all
        return
    yield from g.limit([seat], keep=drawn)
