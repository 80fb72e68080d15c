"""Engagement records and battle resolution on one field (rules §1.3, §4).

A record is what one participant has on one field this round. Battles compare records with the
total-order key suggested in §4: `(class, value, cardCount, lowestCard, untransmuted, -timestamp)`.
Values are doubled so the knight (17.5) and page (14.5) stay integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from p2ptarot.cards.arcanoid_tables import EMPEROR, EMPRESS, LOVERS, MAGICIAN, WORLD, court, is_numeric, pip

#: record kinds
CARDS = "cards"  # a card engagement (numeric, page/knight, couple, World)
ABDICATION = "abdication"
JUDGED = "judgement"
FORCED = "forced"  # World-forced abdication
ABDICATION_KINDS = frozenset({ABDICATION, JUDGED, FORCED})

WORLD_CLASS, IMPERIAL, ROYAL, ILLEGITIMATE, VALUE, ABDICATED = 6, 5, 4, 3, 2, 1


@dataclass
class Record:
    """One participant's record on one field. `handles` are the table cards it holds (the
    Judgement card for a judged abdication); `cards` their values (public, face-up engagements);
    `transmuted` the handle the Magician transmuted, or -1."""

    owner: int
    field: str
    kind: str
    timestamp: int
    handles: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()
    transmuted: int = -1
    #: a face-down (secret) engagement (KOBLENZ, MALTA): `cards` stay "" until the round's end
    secret: bool = False
    #: who laid a secret engagement down (a stolen one keeps its engager, who opens it)
    engager: int = -1

    def transmuted_card(self) -> str | None:
        if self.transmuted < 0:
            return None
        return self.cards[self.handles.index(self.transmuted)]

    def to_json(self) -> dict:
        return {"owner": self.owner, "field": self.field, "kind": self.kind,
                "timestamp": self.timestamp, "handles": list(self.handles), "cards": list(self.cards),
                "transmuted": self.transmuted, "secret": self.secret}


def composition_class(cards: Sequence[str]) -> int:
    """The battle class of a card engagement's cards (§4 items 1–5)."""
    s = set(cards)
    if WORLD in s:
        return WORLD_CLASS
    if EMPRESS in s and EMPEROR in s:
        return IMPERIAL
    if LOVERS in s:
        return ILLEGITIMATE
    if any(court(c) in ("queen", "king") for c in s):
        return ROYAL
    return VALUE


def battle_key(rec: Record) -> tuple[int, int, int, int, int, int]:
    """Lexicographic strength of a record; the largest key wins its field (§4)."""
    if rec.kind in ABDICATION_KINDS:
        return (ABDICATED, 0, 0, 0, 0, -rec.timestamp)
    cls = composition_class(rec.cards)
    if cls != VALUE:
        return (cls, 0, 0, 0, 0, 0)
    honours = [court(c) for c in rec.cards if court(c)]
    if "knight" in honours:
        return (VALUE, 35, 0, 0, 0, 0)
    if "page" in honours:
        return (VALUE, 29, 0, 0, 0, 0)
    numerics = [c for c in rec.cards if is_numeric(c) and c != MAGICIAN]
    total = sum(pip(c) for c in numerics)
    lowest = min(pip(c) for c in numerics) if numerics else 0
    untransmuted = 1 if rec.transmuted < 0 else 0
    return (VALUE, 2 * total, len(numerics), lowest, untransmuted, 0)


def field_winner(records: list[Record]) -> Record:
    """The winning record among every participant's record on one field."""
    if not records:
        raise ValueError("a field with no record has no winner")
    return max(records, key=battle_key)
