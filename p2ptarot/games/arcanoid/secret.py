"""Secret (face-down) engagements: KOBLENZ K1–K6 and the MALTA Magician T1–T5 (rules §8.3,
§8.5, §9.2 items 3–5, A83–A85, A87).

A secret engagement moves handles face down onto a field: everyone sees the field, the engager and
the count, never the values. What `check` cannot see becomes a numbered claim (ENGINE.md §6):

* `secret-legal` (detail: field, handles) — the cards form a legal engagement on that one field
  under the variant's compositions; decided when every handle is known (the end-of-round reveal,
  or the epoch audit after a Tower sent the cards face down to the discard, K6);
* `fool-outcome` (detail: field, handles, outcome) — the Fool's user, after its private look,
  announces "stolen" or "lost"; true iff the cards are stealable under the variant's rules.

A state that may judge every value (`usable_card`: the claimant's own, an omniscient one, or
values open to everyone) refuses a false statement outright, so the modes agree; a third seat's
private knowledge (the engager's against a thief, a Papesse's look) never does: one peer alone
would convict (issue 24 item 5). The transmuted card is never named: a
Magician with exactly one numeric card of another suit transmutes it, otherwise nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from p2ptarot.cards.arcanoid_tables import FIELDS, MAGICIAN, is_numeric, suit
from p2ptarot.engine import Claim, IllegalMove, Move

from .arcana.fool import LOST, STOLEN, fool_window
from .legal import engagement_moves
from .battle import CARDS, Record
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from .rules import ArcanoidGame

SECRET_CLAIMS = ("secret-legal", "fool-outcome")


@dataclass(frozen=True, slots=True)
class SecretEngage(Move):
    """K2: `handles` from A(p) face down on `field` (no values travel; the count is public);
    `chariot`: with the whole (public) Chariot reserve, as a C4 (A83)."""
    KIND: ClassVar[str] = "secret-engage"
    field: str
    handles: tuple[int, ...]
    chariot: bool = False


@dataclass(frozen=True, slots=True)
class FoolOutcome(Move):
    """K4/T4: the Fool's user, having looked at a secret engagement, says whether it is
    stolen (stealable) or the Fool is lost."""
    KIND: ClassVar[str] = "fool-outcome"
    outcome: str


def inferred_transmute(field: str, handles: Sequence[int], cards: Sequence[str]) -> int:
    """The handle a Magician inside a secret engagement transmutes: its only numeric card of
    another suit (E8 allows one), or -1."""
    if MAGICIAN not in cards:
        return -1
    off = [h for h, c in zip(handles, cards) if is_numeric(c) and c != MAGICIAN and suit(c) != field]
    return off[0] if len(off) == 1 else -1


def composition_error(g: ArcanoidGame, field: str, handles: Sequence[int],
                      cards: Sequence[str]) -> str | None:
    """Why these face-down cards are not a legal engagement on `field` (§9.2 item 3), or None."""
    t = inferred_transmute(field, handles, cards)
    tcard = cards[list(handles).index(t)] if t >= 0 else None
    err = g.rules.composition_error((field,), cards, tcard, g.rules)
    return None if err is None else tr("secret engagement on {field}: {err}", field=field, err=err)


def all_handles(g: ArcanoidGame, pid: int, handles: Sequence[int], chariot: bool) -> tuple[int, ...]:
    """The engaged handles: a Chariot engagement takes the whole reserve first (C4)."""
    return tuple(g.parts[pid].reserve) + tuple(handles) if chariot else tuple(handles)


def check_public(g: ArcanoidGame, pid: int, field: str, handles: Sequence[int],
                 chariot: bool = False) -> None:
    """What everyone can check of a secret engagement (K1, K2, E-common)."""
    seat = g.seat_of(pid)
    p = g.parts[pid]
    if chariot and p.chariot < 0:
        raise IllegalMove(seat, tr("no active Chariot"), g.where())
    if g.rules.secret_engagements and pid in g.secret_used:
        raise IllegalMove(seat, tr("one secret engagement per round"), g.where())
    if field not in FIELDS or field in p.records:
        raise IllegalMove(seat, tr("a secret engagement goes on a field where you have no record"),
                          g.where())
    if g.temp_blocks(pid, field):
        raise IllegalMove(seat, tr("{field} is tempered", field=field), g.where())
    engaged = all_handles(g, pid, handles, chariot)
    if not engaged or len(set(handles)) != len(handles):
        raise IllegalMove(seat, tr("a secret engagement holds at least one card, each once (A83)"),
                          g.where())
    avail = set(g.available(pid))
    if any(h not in avail for h in handles):
        raise IllegalMove(seat, tr("a secret engagement uses available cards only"), g.where())
    known = [g.usable_card(h, seat) for h in engaged]
    if all(c is not None for c in known):  # this state may judge them: decided now
        err = composition_error(g, field, engaged, known)  # type: ignore[arg-type]  # `known` holds no None here: checked on the line above
        if err:
            raise IllegalMove(seat, err, g.where())


def lay_down(g: ArcanoidGame, pid: int, field: str, handles: Sequence[int],
             chariot: bool = False) -> Record:
    """Take the cards face down onto `field` and record the `secret-legal` claim."""
    seat = g.seat_of(pid)
    p = g.parts[pid]
    for h in handles:
        g.take(pid, h)
    if chariot:  # C4: the whole reserve joins (already public), the Chariot is discarded
        handles = tuple(p.reserve) + tuple(handles)
        g.discard.append(p.chariot)
        p.chariot, p.reserve = -1, []
    g.secret_used.add(pid)  # K5: spent at once, whatever happens to the record
    rec = Record(pid, field, CARDS, g.clock, tuple(handles), ("",) * len(handles), -1,
                 secret=True, engager=pid)
    g.add_record(rec)
    g.add_claim(seat, "secret-legal", (("field", field), ("handles", tuple(handles))), g.where())
    return rec


def perform(g: ArcanoidGame, pid: int, field: str, handles: Sequence[int],
            chariot: bool = False):
    """Lay down, the Fool window (it always opens, K4), finish checks, refills. Generator."""
    lay_down(g, pid, field, handles, chariot)
    user = yield from fool_window(g, pid, field, secret=True)
    g.finish_checks(pid)
    yield from g.refill(pid, [pid] + ([user] if user >= 0 else []))
    return False


def options(g: ArcanoidGame, pid: int, seat: int, exclude: Sequence[int] = ()
            ) -> list[tuple[str, tuple[int, ...]]]:
    """(field, handles) of the listed single-field engagements `seat` knows to be legal as
    secret ones (bots and UIs), from A(p) without `exclude`."""
    p = g.parts[pid]
    avail = [h for h in g.available(pid) if h not in exclude]
    known = [(h, c) for h in avail for c in [g.card_for(h, seat)] if c is not None]
    if len(known) != len(avail):
        return []  # a seat lists only what it knows to be legal
    open_fields = [f for f in FIELDS if f not in p.records and not g.temp_blocks(pid, f)]
    out: list[tuple[str, tuple[int, ...]]] = []
    for m in engagement_moves(open_fields, known):
        if len(m.fields) != 1 or (m.fields[0], m.handles) in out:
            continue
        if composition_error(g, m.fields[0], m.handles, m.cards) is None:
            out.append((m.fields[0], m.handles))
    return out


def candidates(g: ArcanoidGame, pid: int, seat: int) -> list[Move]:
    """KOBLENZ: the secret engagements listed while the right is unspent."""
    if pid in g.secret_used:
        return []
    return [SecretEngage(f, hs) for f, hs in options(g, pid, seat)]


def true_outcome(g: ArcanoidGame, handles: Sequence[int], seat: int) -> str | None:
    """The Fool's outcome as this state may judge it for `seat` (`usable_card`), or None."""
    cards = [g.usable_card(h, seat) for h in handles]
    if any(c is None for c in cards):
        return None
    return STOLEN if g.rules.stealable(cards, g.rules) else LOST  # type: ignore[arg-type]  # `cards` holds no None here: checked on the line above


def check_outcome(g: ArcanoidGame, seat: int, move: FoolOutcome, ctx: Any) -> None:
    if move.outcome not in (STOLEN, LOST):
        raise IllegalMove(seat, tr("the outcome is 'stolen' or 'lost'"), g.where())
    rec = g.parts[ctx.data["engager"]].records[ctx.data["field"]]
    truth = true_outcome(g, rec.handles, seat)
    if truth is not None and truth != move.outcome:
        raise IllegalMove(seat, tr("the secret engagement is stealable: the outcome is {truth}",
                                    truth=repr(truth)) if truth == STOLEN else
                          tr("the secret engagement is not stealable: the outcome is {truth}",
                              truth=repr(truth)), g.where())


def legal_outcomes(g: ArcanoidGame, seat: int, ctx: Any) -> list[Move]:
    rec = g.parts[ctx.data["engager"]].records[ctx.data["field"]]
    truth = true_outcome(g, rec.handles, seat)
    return [FoolOutcome(truth)] if truth is not None else [FoolOutcome(STOLEN), FoolOutcome(LOST)]


def decide(g: ArcanoidGame, claim: Claim) -> str | None:
    """Why a secret claim whose handles are all known is false, or None."""
    d = dict(claim.detail)
    cards = [g.cards[h] or "" for h in d["handles"]]
    if claim.kind == "secret-legal":
        return composition_error(g, d["field"], d["handles"], cards)
    truth = STOLEN if g.rules.stealable(cards, g.rules) else LOST
    if truth != d["outcome"]:
        return tr("Fool on the secret engagement on {field}: announced {outcome}, was {truth}",
                  field=d['field'], outcome=repr(d['outcome']), truth=repr(truth))
    return None
