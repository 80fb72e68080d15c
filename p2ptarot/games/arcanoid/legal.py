"""Move generation for a participant's turn (rules §3), from what its controlling seat knows.

Legality itself is decided by the `check_*` functions; this module lists candidates for bots and
the simulator. Two deliberate limits keep the lists small (the checks accept the rest): Chariot
loads and Chariot engagements list at most two extra cards.
"""

from __future__ import annotations

from itertools import chain, combinations
from typing import TYPE_CHECKING, Iterable, Sequence

from p2ptarot.cards.arcanoid_tables import (CHARIOT, CHARIOT_PLAYABLE, DEATH, DEVIL, EMPEROR, EMPRESS, FIELDS,
                                            HANGED_MAN, HERMIT, JUDGEMENT, JUSTICE, LOVERS, MAGICIAN, MOON,
                                            POPE, POPE_CATEGORIES, PRIESTESS, STAR, STRENGTH, SUN, TEMPERANCE,
                                            TOWER, WHEEL, WORLD, FOOL, court, is_ace, is_numeric, suit)
from p2ptarot.engine import Move

from .arcana import calls, hanged_man, priestess, temperance, tower
from .arcana.judgement_world import judgement_targets, world_fields
from .moves import (NONE, Abdicate, Call, ChariotAdd, ChariotDiscard, ChariotEngage, ChariotLoad,
                    Discard, Engage, HangedMan, Judgement, Play, Pope, Priestess, Strength,
                    Temperance, Tower, World)

if TYPE_CHECKING:  # pragma: no cover
    from .rules import ArcanoidGame

Card = tuple[int, str]


def _subsets(items: Sequence[Card], min_size: int = 1) -> Iterable[tuple[Card, ...]]:
    return chain.from_iterable(combinations(items, k) for k in range(min_size, len(items) + 1))


def _engage(fields: tuple[str, ...], cards: Iterable[Card], transmute: int = NONE) -> Engage:
    cs = tuple(cards)
    return Engage(fields, tuple(h for h, _ in cs), tuple(c for _, c in cs), transmute)


def engagement_moves(fields: Sequence[str], known: Sequence[Card]) -> list[Engage]:
    """Every legal face-up engagement of `known` cards on the open `fields` (E2–E8)."""
    out: list[Engage] = []
    mag = [x for x in known if x[1] == MAGICIAN]
    by_card = {c: x for x in known for c in [x[1]]}
    for f in fields:
        own = [x for x in known if is_numeric(x[1]) and suit(x[1]) == f]
        other = [x for x in known if is_numeric(x[1]) and suit(x[1]) != f]
        for sub in _subsets(own):
            out.append(_engage((f,), sub))
            if mag:
                out.append(_engage((f,), sub + (mag[0],)))
        if mag:
            for x in other:
                for sub in _subsets(own, 0):
                    out.append(_engage((f,), sub + (x, mag[0]), x[0]))
        for rank in ("page", "knight"):
            hon = by_card.get(f"{f}-{rank}")
            if hon is None:
                continue
            out.append(_engage((f,), [hon]))
            ace = by_card.get(f"{f}-1")
            if ace:
                out.append(_engage((f,), [hon, ace]))
                if mag:
                    out.append(_engage((f,), [hon, ace, mag[0]]))
            if mag:
                for x in other:
                    if is_ace(x[1]):
                        out.append(_engage((f,), [hon, x, mag[0]], x[0]))
        q, k = by_card.get(f"{f}-queen"), by_card.get(f"{f}-king")
        if q and k:
            out.append(_engage((f,), [q, k]))
        lovers = by_card.get(LOVERS)
        if lovers:
            for x in known:
                if court(x[1]) and suit(x[1]) == f:
                    out.append(_engage((f,), [lovers, x]))
    pairs = [(a, b) for a, b in ((EMPRESS, EMPEROR), (LOVERS, EMPRESS), (LOVERS, EMPEROR))
             if a in by_card and b in by_card]
    spans = [(f,) for f in fields] + list(combinations(fields, 2))
    for a, b in pairs:
        for span in spans:
            out.append(_engage(span, [by_card[a], by_card[b]]))
    return out


def _chariot_engagements(g: ArcanoidGame, fields: Sequence[str], reserve: Sequence[Card],
                         known: Sequence[Card]) -> list[ChariotEngage]:
    out: list[ChariotEngage] = []
    if any((c.startswith("trump-") and c not in CHARIOT_PLAYABLE) or c == FOOL for _, c in reserve):
        return out  # [7-(1,3,4,6)]: only discarding (C3) remains
    useful = [x for x in known if is_numeric(x[1]) or court(x[1]) or x[1] in CHARIOT_PLAYABLE]
    for extra in chain([()], combinations(useful, 1), combinations(useful, 2)):
        cards = [c for _, c in reserve] + [c for _, c in extra]
        handles = [h for h, _ in reserve] + [h for h, _ in extra]
        spans: list[tuple[str, ...]] = [(f,) for f in fields]
        if {EMPRESS, EMPEROR} & set(cards):
            spans += list(combinations(fields, 2))
        for span in spans:
            options: list[tuple[int, str | None]] = [(NONE, None)]
            if MAGICIAN in cards:
                options += [(h, c) for h, c in zip(handles, cards)
                            if is_numeric(c) and suit(c) != span[0]]
            for th, tc in options:
                if g.rules.composition_error(span, cards, tc, g.rules) is None:
                    out.append(ChariotEngage(span, tuple(h for h, _ in extra),
                                             tuple(c for _, c in extra), th))
    return out


def _transmuted(m: Engage) -> str | None:
    return m.cards[m.handles.index(m.transmute)] if m.transmute >= 0 else None


def turn_moves(g: ArcanoidGame, pid: int, seat: int) -> list[Move]:
    p = g.parts[pid]
    known: list[Card] = [(h, c) for h in g.available(pid) for c in [g.card_for(h, seat)]
                         if c is not None]
    moves: list[Move] = [Discard(h) for h, _ in known]
    free = [f for f in FIELDS if f not in p.records]
    moves += [Abdicate(f) for f in free]
    open_fields = [f for f in free if not g.temp_blocks(pid, f)]
    rules = g.rules
    candidates = engagement_moves(open_fields, known)  # DRESDEN's compositions
    if not rules.dresden_compositions:
        candidates = [m for m in candidates
                      if rules.composition_error(m.fields, m.cards, _transmuted(m), rules) is None]
    moves += candidates
    listed = min(2, rules.chariot_add_max or 2)  # a bounded sample: `check` accepts the rest
    if p.chariot >= 0:
        moves.append(ChariotDiscard())
        for k in range(1, listed + 1):
            for sub in combinations(known, k):
                moves.append(ChariotAdd(tuple(h for h, _ in sub), tuple(c for _, c in sub)))
        reserve = [(h, g.card_for(h, seat) or "") for h in p.reserve]
        moves += _chariot_engagements(g, open_fields, reserve, known)
    for h, c in known:
        if c == CHARIOT and p.chariot < 0:
            others = [x for x in known if x[0] != h]
            for k in (1, 2):
                for sub in combinations(others, k):
                    moves.append(ChariotLoad(h, c, tuple(x for x, _ in sub), tuple(y for _, y in sub)))
        elif c == PRIESTESS:
            moves += [Priestess(h, c, t) for t in priestess.targets(g, pid)]
        elif c == POPE:
            moves += [Pope(h, c, cat) for cat in POPE_CATEGORIES]
        elif c in (JUSTICE, HERMIT, WHEEL, DEATH, DEVIL):
            moves.append(Play(h, c))
        elif c == STRENGTH:
            moves += [Strength(h, c, o) for o in ("visible", "hidden")]
        elif c == HANGED_MAN:
            moves += [HangedMan(h, c, t) for t in hanged_man.targets(g, pid)]
        elif c == TEMPERANCE:
            moves += [Temperance(h, c, f) for f in temperance.fields(g, pid)]
        elif c == TOWER:
            moves.append(Tower(h, c, NONE, ""))
            moves += [Tower(h, c, q, f) for q, f in tower.targets(g)]
        elif c in (STAR, MOON, SUN):
            moves += [Call(h, c, x) for x in calls.callable_cards(c, True)]
        elif c == JUDGEMENT:
            moves += [Judgement(h, c, q, f) for q, f in judgement_targets(g, pid)]
        elif c == WORLD:
            moves += [World(h, c, f) for f in world_fields(g, pid)]
    for extra in rules.extra_moves:
        moves += extra.candidates(g, pid, seat)
    return moves
