"""The round pipeline (rules §2): setup and deal, the turn/replay/gap loop (§2.10), drawing and
refills (§2.5), the renewal vote (§2.7), finishing (§2.8) and the end of the round (§2.9).

Written as a mixin over the state's fields; every method that may wait for input is a generator
(see driver.py). Arcana effects live in `arcana/` and call back into these helpers.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, TYPE_CHECKING

from p2ptarot.cards.arcanoid_tables import ALL_CARDS, DECK, FIELDS
from p2ptarot.engine import IllegalMove, PUBLIC, NOBODY, Reveal, Shuffle, TurnKind

from p2ptarot.engine.flow import Ask, AskChance, AskReveal, Flow
from .model import Ctx, HermitState, Participant, TemperanceState
from .battle import ABDICATION, Record, field_winner
from .rules import Rules
from .secret import inferred_transmute
from p2ptarot.i18n.message import tr

#: `draw_into` target for a hand nobody sees (the GAZA USA's, G2)
HIDDEN = -2
HAND = "hand"
VISIBLE = "visible"
JUSTICE_ZONE = "justice"
RESERVE = "reserve"

if TYPE_CHECKING:  # pragma: no cover
    from p2ptarot.engine.types import Move


class Pipeline:
    """Round state and the generator helpers that move cards between zones."""

    if TYPE_CHECKING:  # what the state class that inherits this mixin provides
        def _new_handles(self, count: int) -> tuple[int, ...]: ...
        def _on_public(self, handle: int, card: str) -> None: ...
        clock: int
        epoch: int
        first_seat: int
        def learn(self, handle: int, card: str) -> None: ...
        def perform(self, pid: int, move: Move) -> Flow: ...
        renewals: int
        round_index: int
        round_records: list[dict[str, list[dict[Any, Any]]]]
        round_winners: list[dict[str, int]]

    # fields set by the state class
    players: int
    rules: Rules
    cards: list[str | None]
    seen: list[set[int]]

    # ---- round bookkeeping -------------------------------------------------------------------
    def _reset_round(self) -> None:
        self.parts: list[Participant] = [Participant(pid=s, seat=s, hand_cap=self.rules.hand_size)
                                         for s in range(self.players)]
        self.order: list[int] = list(range(self.players))
        for k in range(self.rules.usa_seats):  # G1/G2: USA participants, after the players
            self.parts.append(Participant(pid=self.players + k, seat=NOBODY, usa=True,
                                          hand_cap=self.rules.hand_size))
        self.pile: list[int] = []
        self.discard: list[int] = []
        self.justice_card = -1
        self.justice: list[int] = []
        self.justice_cap = self.rules.justice_size
        self.hermit: HermitState | None = None
        self.temperance: TemperanceState | None = None
        self.strength_cards: list[int] = []
        self.ever_engaged: set[str] = set()
        self.renewal_refused = False
        self.round_renewals = 0
        self.death_played = False
        self.pending: list[Reveal] = []
        self.cursor = -1  # pid of the participant whose normal turn is current/last
        self.normal_turns: dict[int, int] = {}
        self.total_normal_turns = 0
        self.hermit_turn_after = -1  # >=0 while a Hermit turn runs: the participant it follows
        self.secret_used: set[int] = set()  # participants whose secret right is spent (K1, K5)
        self.reinforced: set[tuple[int, str]] = set()  # WORMS: (pid, field) rights spent (W2, W4)

    # ---- small queries -----------------------------------------------------------------------
    def seat_of(self, pid: int) -> int:
        return self.parts[pid].seat

    def in_round(self, pid: int) -> bool:
        return 0 <= pid < len(self.parts) and not self.parts[pid].finished

    def anyone_in_round(self) -> bool:
        return any(not p.finished for p in self.parts)

    def engaged(self, pid: int, field: str) -> bool:
        return field in self.parts[pid].records

    def available(self, pid: int) -> list[int]:
        """A(p): hidden hand, Strength visible cards, Justice cards (§1.3)."""
        p = self.parts[pid]
        return p.hand + p.visible + self.justice

    def zone_of(self, pid: int, handle: int) -> str | None:
        p = self.parts[pid]
        if handle in p.hand:
            return HAND
        if handle in p.visible:
            return VISIBLE
        if handle in self.justice:
            return JUSTICE_ZONE
        if handle in p.reserve:
            return RESERVE
        return None

    def take(self, pid: int, handle: int) -> str:
        """Remove `handle` from p's zone and return the zone's name."""
        zone = self.zone_of(pid, handle)
        p = self.parts[pid]
        lists = {HAND: p.hand, VISIBLE: p.visible, JUSTICE_ZONE: self.justice, RESERVE: p.reserve}
        if zone is None:
            raise IllegalMove(p.seat, tr("handle {handle} is not available to participant {pid}",
                                         handle=handle, pid=pid),
                              self.where())
        lists[zone].remove(handle)
        return zone

    def turn_order_from(self, pid: int, include_self: bool = True) -> list[int]:
        """Participants in seat order starting with `pid` (or after it), in the round only."""
        order = self.order
        if pid not in order:
            return [q for q in order if self.in_round(q)]
        i = order.index(pid)
        seq = order[i:] + order[:i]
        if not include_self:
            seq = seq[1:]
        return [q for q in seq if self.in_round(q)]

    def seats_from(self, seat: int) -> list[int]:
        return [(seat + k) % self.players for k in range(self.players)]

    def where(self) -> str:
        return tr("round {round}, move {move}", round=self.round_index + 1, move=self.clock)

    def public_card(self, handle: int) -> str | None:
        return self.cards[handle] if PUBLIC in self.seen[handle] else None

    def zone_map(self) -> dict[str, list[int]]:
        """Every card handle of the round by zone (a couple on two fields is listed once)."""
        out: dict[str, list[int]] = {"pile": list(self.pile), "discard": list(self.discard),
                                     "justice": list(self.justice), "strength": list(self.strength_cards)}
        table = [self.justice_card] if self.justice_card >= 0 else []
        if self.hermit is not None:
            table.append(self.hermit.handle)
        if self.temperance is not None:
            table.append(self.temperance.handle)
        for p in self.parts:
            out[f"hand:{p.pid}"] = list(p.hand)
            out[f"visible:{p.pid}"] = list(p.visible)
            out[f"reserve:{p.pid}"] = list(p.reserve) + ([p.chariot] if p.chariot >= 0 else [])
            out[f"records:{p.pid}"] = sorted({h for r in p.records.values() for h in r.handles})
            if p.devil >= 0:
                table.append(p.devil)
        out["table"] = table
        return out

    # ---- reveals -----------------------------------------------------------------------------
    def show_public(self, handle: int, holder: int = NOBODY) -> None:
        if PUBLIC not in self.seen[handle]:
            self.pending.append(Reveal(handle, PUBLIC, holder))

    def show_to(self, handle: int, seat: int, holder: int = NOBODY) -> None:
        if PUBLIC not in self.seen[handle] and seat not in self.seen[handle]:
            self.pending.append(Reveal(handle, seat, holder))

    def declare(self, seat: int, pairs: Iterable[tuple[int, str]]) -> None:
        """A move turned these handles face up with these values (checked beforehand)."""
        for handle, card in pairs:
            self.seen[handle] = {PUBLIC}
            self.learn(handle, card)
            self._on_public(handle, card)

    def flush(self) -> Flow:
        if self.pending:
            reveals = tuple(self.pending)
            self.pending = []
            yield AskReveal(reveals)

    def decide(self, ctx: Ctx, seat: int) -> Flow:
        """One seat's decision (reveals owed so far are delivered first)."""
        yield from self.flush()
        seat_, move = yield Ask(TurnKind.SEAT, (seat,), ctx)
        return move

    def collect(self, ctx: Ctx, kind: TurnKind, seats: tuple[int, ...], flush: bool = True,
                done: Callable[[dict[int, Any]], bool] | None = None) -> Flow:
        """Every listed seat answers (SIMULTANEOUS / INTERRUPT) unless `done` says the window is
        already decided (an INTERRUPT closes at its first decisive answer); seat -> move."""
        if flush:
            yield from self.flush()
        while len(ctx.answers) < len(seats) and not (done and done(ctx.answers)):
            seat, move = yield Ask(kind, seats, ctx)
            ctx.answers[seat] = move
        return ctx.answers

    # ---- drawing, renewal (§2.5, §2.7) -------------------------------------------------------
    def draw_into(self, zone: list[int], to: int, responsible: int) -> Flow:
        """Top card of the pile into `zone`, revealed to seat `to` (PUBLIC for public zones).
        Returns False when the pile is (permanently) empty."""
        if not self.pile:
            return False
        handle = self.pile.pop(0)
        zone.append(handle)
        if to == PUBLIC:
            self.show_public(handle)
        elif to >= 0:
            self.show_to(handle, to)
        if not self.pile:
            yield from self.exhausted(responsible)
        return True

    def exhausted(self, responsible: int) -> Flow:
        """§2.7: the last card was drawn. Vote (real players, finished ones included) unless the
        discard pile is empty, a renewal was refused, or Death was played."""
        if not self.discard or self.renewal_refused or self.death_played:
            self.pile_dead()
            return
        voters = tuple(self.seats_from(responsible))
        ctx = Ctx("vote", data={"voters": voters})
        answers = yield from self.collect(ctx, TurnKind.SIMULTANEOUS, voters, flush=False)
        if all(answers[s].choice == "yes" for s in voters):
            yield from self.renew()
        else:
            self.renewal_refused = True
            self.pile_dead()

    def renew(self) -> Flow:
        source = tuple(self.discard)
        handles = self._new_handles(len(source))
        self.epoch += 1
        result = yield AskChance(Shuffle(DECK, self.epoch, handles, source=source))
        self._learn_all(result)
        self.discard = []
        self.pile = list(handles)
        self.renewals += 1
        self.round_renewals += 1

    def pile_dead(self) -> None:
        """The pile is empty for good: an active Temperance ends (§6.14 (b))."""
        if self.temperance is not None:
            self.remove_temperance()

    def hand_reveal_target(self, pid: int) -> int:
        p = self.parts[pid]
        return PUBLIC if p.demon else HIDDEN if p.usa else p.seat

    def responsible(self, pid: int) -> int:
        """The seat whose draw empties the pile starts the vote (the USA's: the first player)."""
        seat = self.parts[pid].seat
        return seat if seat >= 0 else self.first_player

    def refill_justice(self, mover: int) -> Flow:
        while self.justice_card >= 0 and len(self.justice) < self.justice_cap:
            if not (yield from self.draw_into(self.justice, PUBLIC, self.responsible(mover))):
                return

    def refill_one(self, pid: int) -> Flow:
        p = self.parts[pid]
        if p.finished:
            return
        while len(p.visible) < p.vis_cap:
            if not (yield from self.draw_into(p.visible, PUBLIC, self.responsible(pid))):
                return
        while len(p.hand) < p.hand_cap:
            if not (yield from self.draw_into(p.hand, self.hand_reveal_target(pid),
                                              self.responsible(pid))):
                return

    def refill(self, mover: int, first: Iterable[int] = ()) -> Flow:
        """§2.5 / A6: the Justice, then the participants the effect names, then everyone else
        below capacity in turn order from the mover; visible slots before hands `[11]`."""
        yield from self.refill_justice(mover)
        named = list(first) or [mover]
        rest = [q for q in self.turn_order_from(mover) if q not in named]
        for q in named + rest:
            yield from self.refill_one(q)

    # ---- records and finishing (§2.8) --------------------------------------------------------
    def add_record(self, rec: Record) -> None:
        self.parts[rec.owner].records[rec.field] = rec
        self.ever_engaged.add(rec.field)

    def finish_checks(self, start: int) -> None:
        """Everyone now engaged on all four fields finishes, in turn order from `start`."""
        for q in self.turn_order_from(start):
            if len(self.parts[q].records) == len(FIELDS):
                self.finish(q)

    def finish(self, pid: int) -> None:
        p = self.parts[pid]
        p.finished = True
        self.discard.extend(p.hand)
        self.discard.extend(p.visible)
        p.hand, p.visible = [], []
        self.discard_chariot(pid)
        if self.hermit is not None and self.hermit.owner == pid:
            self.discard_hermit()
        if self.temperance is not None and self.temperance.owner == pid:
            self.remove_temperance()
        if p.demon and p.devil >= 0:
            self.discard.append(p.devil)
            p.devil = -1

    def discard_chariot(self, pid: int) -> None:
        p = self.parts[pid]
        if p.chariot >= 0:
            self.discard.append(p.chariot)
            self.discard.extend(p.reserve)
            p.chariot, p.reserve = -1, []

    def discard_hermit(self) -> None:
        assert self.hermit is not None
        self.discard.append(self.hermit.handle)
        self.hermit = None

    def remove_temperance(self) -> None:
        assert self.temperance is not None
        self.discard.append(self.temperance.handle)
        self.temperance = None

    def temp_blocks(self, pid: int, field: str) -> bool:
        """`tempBlocks` (§3.0): whether a Temperance forbids pid's card engagement on `field`
        (the variant's hook; DRESDEN: tempered and the engager is not the owner)."""
        return self.rules.temp_blocks(self, pid, field)  # type: ignore[arg-type]  # the mixin's `self` is the ArcanoidState the hook takes

    def active_demon(self) -> int:
        for p in self.parts:
            if p.demon and not p.finished and p.devil >= 0:
                return p.pid
        return -1

    # ---- turn order (§2.2, §2.10 A, demon seat A48) ------------------------------------------
    def _waiting(self, p: Participant) -> bool:
        """A demon waits until the participant seated before it took a normal turn (A48)."""
        if not p.demon or p.ready:
            return False
        pred = p.ready_pred
        return not (self.normal_turns.get(pred, 0) > p.ready_mark or (
            not self.in_round(pred) and self.total_normal_turns > p.ready_global))

    def _upcoming(self) -> list[int]:
        """In-round participants in seat order after the current normal-turn holder."""
        order = self.order
        if self.cursor < 0:
            start = order.index(self.first_player)
        else:
            start = order.index(self.cursor) + 1 if self.cursor in order else 0
        seq = order[start:] + order[:start]
        return [q for q in seq if not self.parts[q].finished]

    def peek_next(self) -> int:
        """The participant whose normal turn comes next; if only waiting demons are left, their
        wait ends."""
        upcoming = self._upcoming()
        return next((q for q in upcoming if not self._waiting(self.parts[q])),
                    upcoming[0] if upcoming else -1)

    def next_participant(self) -> int:
        q = self.peek_next()
        if q >= 0:
            self.parts[q].ready = True
        return q

    def insert_demon(self, demon: int, master: int) -> None:
        """Before its master, or after the participant a Hermit turn follows `[9-15]`."""
        if self.hermit_turn_after >= 0:
            i = self.order.index(self.hermit_turn_after) + 1
        else:
            i = self.order.index(master)
        self.order.insert(i, demon)
        pred = self.order[i - 1] if i > 0 else self.order[-1]
        d = self.parts[demon]
        d.ready = False
        d.ready_pred = pred
        d.ready_mark = self.normal_turns.get(pred, 0)
        d.ready_global = self.total_normal_turns

    # ---- the round ---------------------------------------------------------------------------
    def play_round(self) -> Flow:
        self._reset_round()
        self.first_player = (self.first_seat + self.round_index) % self.players
        if self.rules.usa_seats:  # G2/A89: the USA sits last in every cycle
            fp = self.first_player
            players = list(range(fp, self.players)) + list(range(fp))
            self.order = players + [p.pid for p in self.parts if p.usa]
        handles = self._new_handles(len(ALL_CARDS))
        self.epoch += 1
        result = yield AskChance(Shuffle(DECK, self.epoch, handles, cards=ALL_CARDS))
        self._learn_all(result)
        self.pile = list(handles)
        deal_order = self.turn_order_from(self.first_player)
        for _ in range(self.rules.hand_size):  # A1: one card at a time from the first player
            for pid in deal_order:
                yield from self.draw_into(self.parts[pid].hand, self.hand_reveal_target(pid),
                                          self.responsible(pid))
        while self.anyone_in_round():
            pid = self.next_participant()
            self.cursor = pid
            self.normal_turns[pid] = self.normal_turns.get(pid, 0) + 1
            self.total_normal_turns += 1
            yield from self.take_turn(pid)
            yield from self.gap()
        self.reveal_secrets()  # K3/T3: every face-down engagement opens before the battles
        yield from self.flush()
        self.score_secrets()
        won: dict[str, int] = {}
        for f in FIELDS:
            best = field_winner([p.records[f] for p in self.parts])
            won[f] = self.parts[best.owner].seat  # a demon's win goes to its master (§5)
        self.round_winners.append(won)
        self.round_records.append({f: [p.records[f].to_json() for p in self.parts] for f in FIELDS})

    def secret_records(self) -> list[Record]:
        return [r for p in self.parts for r in p.records.values() if r.secret]

    def reveal_secrets(self) -> None:
        """K3: the end-of-round reveal of every secret engagement still on a field, opened by the
        seat that engaged it (`Reveal(h, PUBLIC, holder=engager)`)."""
        for rec in self.secret_records():
            for h in rec.handles:
                self.show_public(h, self.seat_of(rec.engager))

    def score_secrets(self) -> None:
        """Once opened, a secret record scores as its cards (the transmuted card inferred)."""
        for rec in self.secret_records():
            # after the reveal every value is known; a seat that refused to learn one (a
            # cheater's own engine) scores what it knows rather than crash
            known = [(h, c) for h in rec.handles for c in [self.cards[h]] if c is not None]
            rec.handles = tuple(h for h, _ in known)
            rec.cards = tuple(c for _, c in known)
            rec.transmuted = inferred_transmute(rec.field, rec.handles, rec.cards)

    def take_turn(self, pid: int) -> Flow:
        """§2.10 B: one move plus its compulsory replays."""
        if self.parts[pid].usa:
            self.clock += 1
            yield from self.usa_turn(pid)
            return
        while True:
            ctx = Ctx("turn", actor=pid)
            move = yield from self.decide(ctx, self.seat_of(pid))
            self.clock += 1
            replay = yield from self.perform(pid, move)
            if not replay or not self.in_round(pid):
                return

    def usa_turn(self, pid: int) -> Flow:
        """G3: the oldest card face down to the discard, then a refill (one card from a full
        hand); with no card, an abdication on the first free field, swords → wands → cups → coins."""
        p = self.parts[pid]
        if p.hand:
            self.discard.append(p.hand.pop(0))  # age order: deal, then draw order
            yield from self.refill(pid)
            return
        free = next(f for f in FIELDS if f not in p.records)
        self.add_record(Record(pid, free, ABDICATION, self.clock))
        self.finish_checks(pid)
        yield from self.refill(pid)

    def turn_up_usa(self) -> Flow:
        """G7: before a Pope, Star, Moon or Sun, every USA card is turned face up for all."""
        for p in self.parts:
            if p.usa and not p.finished:
                for h in p.hand:
                    self.show_public(h)
        yield from self.flush()

    def gap_target(self, q: int) -> int:
        """A gap is named by the participant whose turn follows it; if it left, the next one."""
        if self.in_round(q) or q not in self.order:
            return q
        following = self.turn_order_from(q, include_self=False)
        return following[0] if following else -1

    def gap(self) -> Flow:
        """§2.10 D: pledged Hermit moves due here, then the voluntary Hermit window."""
        while self.anyone_in_round():
            h = self.hermit
            if h is None or not self.in_round(h.owner):
                return
            nxt = self.peek_next()
            due = [q for q in h.pledges if self.gap_target(q) == nxt]
            if due:
                h.pledges.remove(due[0])
            elif h.free > 0:
                ctx = Ctx("hermit", actor=h.owner)
                move = yield from self.decide(ctx, self.seat_of(h.owner))
                if move.KIND != "hermit-move":
                    return
            else:
                return
            h.used += 1
            self.hermit_turn_after = self.cursor
            yield from self.take_turn(h.owner)
            self.hermit_turn_after = -1
            if self.hermit is h and h.used >= h.moves:  # discarded once actually taken (A56)
                self.discard_hermit()

    def _learn_all(self, result: object) -> None:
        if isinstance(result, dict):
            for handle, card in result.items():
                self.learn(int(handle), card)
