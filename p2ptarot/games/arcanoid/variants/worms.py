"""WORMS (rules §8.6, A88): MAINZ where a lone ace may be reinforced once.

W1 a lone-ace record is one ace (of F, or transmuted by the Magician, or with an idle Magician);
W2 on a later turn its owner makes one more engagement on F: a numeric set of F (a Magician may
transmute in it, never the one engaged with the ace), a page alone or a knight alone, never a
couple; E-common holds except "already engaged" (a NASSAU Temperance blocks it, A88); W3 numeric:
ace + reinforcement are one numeric engagement; page/knight: the ace (and an idle Magician with
it, ruling 15) is discarded face up; W4 the Fool window opens on the reinforcement, a thief takes
only the reinforcement cards, the ace stays and the owner's right is spent; W5/W6 until then the
ace is an ordinary record, afterwards one record (the Tower removes it whole).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from p2ptarot.cards.arcanoid_tables import FIELDS, MAGICIAN, court, is_ace
from p2ptarot.engine import IllegalMove, Move

from ..arcana.fool import fool_window
from ..legal import engagement_moves
from ..battle import CARDS, VALUE, Record, composition_class
from ..rules import ExtraMove
from .mainz import MAINZ
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


@dataclass(frozen=True, slots=True)
class Reinforce(Move):
    """W2: cards face up onto the owner's lone-ace record on `field` (`transmute`: the handle
    a Magician among them transmutes, or -1)."""
    KIND: ClassVar[str] = "reinforce"
    field: str
    handles: tuple[int, ...]
    cards: tuple[str, ...]
    transmute: int = -1


def lone_ace(rec: Record | None) -> bool:
    """W1: a face-up card engagement whose only card besides an idle Magician is one ace."""
    if rec is None or rec.kind != CARDS or rec.secret:
        return False
    others = [c for c in rec.cards if c != MAGICIAN]
    return len(others) == 1 and is_ace(others[0])


def reinforceable(g: ArcanoidGame, pid: int) -> list[str]:
    p = g.parts[pid]
    return [f for f in FIELDS if lone_ace(p.records.get(f)) and (pid, f) not in g.reinforced
            and not g.temp_blocks(pid, f)]


def _content_error(g: ArcanoidGame, move: Reinforce) -> str | None:
    if len(move.handles) != len(move.cards) or not move.handles:
        return tr("a reinforcement holds at least one card, handles and cards one to one")
    if move.transmute >= 0 and move.transmute not in move.handles:
        return tr("the transmuted card is not in the reinforcement")
    if composition_class(move.cards) != VALUE:
        return tr("a reinforcement is never a couple")
    tcard = move.cards[move.handles.index(move.transmute)] if move.transmute >= 0 else None
    err = g.rules.composition_error((move.field,), move.cards, tcard, g.rules)
    if err:
        return err
    if any(court(c) for c in move.cards) and len(move.cards) != 1:
        return tr("a page or a knight reinforces alone")
    return None


def _check(g: ArcanoidGame, pid: int, move: Reinforce) -> None:
    seat = g.seat_of(pid)
    p = g.parts[pid]
    if not lone_ace(p.records.get(move.field)) or (pid, move.field) in g.reinforced:
        raise IllegalMove(seat, tr("only a lone ace is reinforced, once"), g.where())
    if g.temp_blocks(pid, move.field):
        raise IllegalMove(seat, tr("{field} is tempered", field=move.field), g.where())
    avail = set(g.available(pid))
    if len(set(move.handles)) != len(move.handles) or any(h not in avail for h in move.handles):
        raise IllegalMove(seat, tr("a reinforcement uses available cards, each once"), g.where())
    known = [g.usable_card(h, seat) for h in move.handles]  # the rest: proven by the opening
    if any(k is not None and k != c for k, c in zip(known, move.cards)):
        raise IllegalMove(seat, tr("declared cards do not match"), g.where())
    err = _content_error(g, move)
    if err:
        raise IllegalMove(seat, err, g.where())


def _perform(g: ArcanoidGame, pid: int, move: Reinforce):
    p = g.parts[pid]
    g.declare(p.seat, zip(move.handles, move.cards))
    for h in move.handles:
        g.take(pid, h)
    g.reinforced.add((pid, move.field))
    ace = p.records[move.field]
    merged = Record(pid, move.field, CARDS, ace.timestamp, ace.handles + move.handles,
                    ace.cards + move.cards, ace.transmuted if ace.transmuted >= 0 else move.transmute)
    p.records[move.field] = merged

    def steal(user: int) -> None:  # W4: the thief takes the reinforcement only
        p.records[move.field] = ace
        g.parts[user].records[move.field] = Record(user, move.field, CARDS, g.clock, move.handles,
                                                   move.cards, move.transmute)

    user = -1
    if g.rules.stealable(move.cards, g.rules):
        user = yield from fool_window(g, pid, move.field, steal=steal)
    if p.records[move.field] is merged and any(court(c) for c in move.cards):
        # W3: the ace (with an idle Magician, ruling 15) is discarded face up
        g.discard.extend(ace.handles)
        p.records[move.field] = Record(pid, move.field, CARDS, g.clock, move.handles, move.cards)
    g.finish_checks(pid)
    yield from g.refill(pid, [pid] + ([user] if user >= 0 else []))
    return False


def _candidates(g: ArcanoidGame, pid: int, seat: int) -> list[Move]:
    fields = reinforceable(g, pid)
    if not fields:
        return []
    known = [(h, c) for h in g.available(pid) for c in [g.card_for(h, seat)] if c is not None]
    out: list[Move] = []
    for m in engagement_moves(fields, known):
        if len(m.fields) != 1:
            continue
        move = Reinforce(m.fields[0], m.handles, m.cards, m.transmute)
        if move not in out and _content_error(g, move) is None:
            out.append(move)
    return out


REINFORCE = ExtraMove(Reinforce, _check, _perform, _candidates)

WORMS = replace(MAINZ, name="WORMS", parent="MAINZ", summary="a lone ace may be reinforced once",
                extra_moves=MAINZ.extra_moves + (REINFORCE,))   # W1-W6
