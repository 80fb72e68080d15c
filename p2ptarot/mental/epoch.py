"""One deck epoch as a sans-I/O state machine: keys, shuffles, shares, transfers, audit.

A `DeckEpoch` holds the public state every peer agrees on and, when it belongs to a seat
(`me`), that seat's secret x_i. Without `me` it is an observer: the offline verifier replays a
transcript through it and checks every proof and the audit, learning only public cards.

Flow: callers queue operations (`deal`, `reveal`, `show`, `give`, `reshuffle`, `audit`);
`expected()` says who must send what now; `make()` builds this seat's message; `receive()`
verifies any seat's message (sender, step, sizes, proofs) and applies it, raising
`MentalViolation(seat, reason)` on the first fault and changing nothing in that case.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from typing import Any

from p2ptarot.crypto.elgamal import Ciphertext, combine, reencrypt
from p2ptarot.crypto.errors import CryptoError
from p2ptarot.crypto.group import G, Point, Scalar, base_mul, hash_to_point, point_sum
from p2ptarot.crypto.proofs import (make_share, prove_key, prove_reencryption, verify_key,
                                    verify_reencryption, verify_share)
from p2ptarot.crypto.shuffle import verify_shuffle

from . import binding
from . import ahead as _ahead
from .errors import MentalError, MentalUsageError, MentalViolation
from .events import CardLearned, Event, Expectation, OperationCompleted, Transfer
from .messages import (KeyMessage, MentalMessage, ReencryptionItem, ReencryptionMessage,
                       ShareItem, ShareMessage, ShuffleMessage)
from .operations import (AuditOp, DiscloseOp, KeysOp, Operation, SharesPhase, ShuffleOp,
                         TransferOp)
from .randomness import RandomSource, random_permutation, random_scalar
from .state import Handle, Plan, Version
from p2ptarot.i18n.message import tr

CARD_DOMAIN = "p2ptarot/card"
MIN_SEATS, MAX_SEATS = 2, 12
MAX_CARDS = 1024


def _transfer_targets(op: TransferOp) -> tuple[tuple[int, int, int], ...]:
    """The wire form of a transfer operation's requests (protocol 7): (handle, holder, recipient)."""
    return tuple((t.handle, t.holder, t.recipient) for t in op.transfers)


def _differ(got: Sequence[tuple[int, int, int | None]],
            want: Sequence[tuple[int, int, int | None]]) -> str:
    """Where a message's target list first departs from the operation's, in wire form (a
    reason stays short: an audit may list a hundred handles)."""
    def show(t: tuple[int, int, int | None]) -> str:
        return "[" + ", ".join("null" if x is None else str(x) for x in t) + "]"
    for k, (g, w) in enumerate(zip(got, want)):
        if g != w:
            return tr("names {target} at position {k}, where the operation has {expected}",
                      target=show(g), k=k, expected=show(w))
    if len(got) > len(want):
        return tr("names {n} targets, one more ({target}) than the operation", n=len(got),
                  target=show(got[len(want)]))
    return tr("names {n} targets, the operation {expected} (next: {target})", n=len(got),
              expected=len(want), target=show(want[len(got)]))


def card_point(deck: str, card_id: str) -> Point:
    """M_c = hash_to_point("p2ptarot/card", deck id, card id): nobody knows a relation between cards."""
    return hash_to_point(CARD_DOMAIN, deck.encode("utf-8"), card_id.encode("utf-8"))


class DeckEpoch:
    """The shared deck of one (deck id, epoch) at a table, seen by seat `me` (or an observer)."""

    def __init__(self, table_id: bytes, n_seats: int, deck: str, epoch: int,
                 card_ids: Sequence[str], me: int | None = None,
                 rng: RandomSource | None = None, secret: Scalar | None = None) -> None:
        if not MIN_SEATS <= n_seats <= MAX_SEATS:
            raise MentalUsageError(f"seats must be {MIN_SEATS}..{MAX_SEATS}, got {n_seats}")
        if me is not None and not 0 <= me < n_seats:
            raise MentalUsageError(f"seat {me} is not at this table")
        if me is not None and rng is None:
            raise MentalUsageError("a seat needs a randomness source")
        cards = tuple(card_ids)
        if not 1 <= len(cards) <= MAX_CARDS or len(set(cards)) != len(cards):
            raise MentalUsageError("card ids must be 1..1024 distinct strings")
        if not deck or len(deck) > 64 or not 0 <= epoch < 2**32:
            raise MentalUsageError("deck id must be 1..64 characters and epoch a 32-bit int")
        self.table_id = bytes(table_id)
        self.n = n_seats
        self.deck = deck
        self.epoch = epoch
        self.card_ids = cards
        self.me = me
        self._rng = rng
        self._card_points = [card_point(deck, c) for c in cards]
        self._card_by_point = dict(zip(self._card_points, cards))
        if secret is not None and (me is None or int(secret) == 0):
            raise MentalUsageError("a restored secret needs a seat and must be nonzero")
        self._secret: Scalar | None = None
        if me is not None and rng is not None:
            self._secret = secret if secret is not None else random_scalar(rng)
        self.keys: dict[int, Point] = {}
        self.joint_key: Point | None = None
        self.handles: dict[int, Handle] = {}
        self._plan = Plan(n_seats)
        initial = self._plan.add_handles(len(cards))
        self._ops: list[Operation] = [KeysOp(), ShuffleOp(outputs=initial)]
        self._cursor = 0
        self._made: dict[tuple[int, str], MentalMessage] = {}
        self._known: dict[int, str] = {}
        self._public: dict[int, str] = {}
        self._closed = False
        self._stash: list[Event] = []
        #: this seat's next shuffle, computed while its predecessor's was being checked (see
        #: `ahead.py`): (operation index, the input list it was made on, the work)
        self._ahead: tuple[int, list[Ciphertext], Future[_ahead.Shuffled]] | None = None
        self._activate()

    # ---- queries -------------------------------------------------------------------------------

    @property
    def secret(self) -> Scalar | None:
        """This seat's x_i for the epoch: persist it (privately) before sending anything, so a
        restarted peer can reopen the epoch with `secret=` and replay the log."""
        return self._secret

    @property
    def ready(self) -> bool:
        """Keys and the initial shuffle are done: handles 0..N-1 exist."""
        return self._cursor >= 2

    @property
    def idle(self) -> bool:
        """No operation is waiting for messages."""
        return self._cursor >= len(self._ops)

    @property
    def closed(self) -> bool:
        """The audit completed: the handles it opened are public; nothing else ever opens."""
        return self._closed

    def take_events(self) -> list[Event]:
        """Events produced outside `receive` (an operation with nothing to wait for)."""
        events, self._stash = self._stash, []
        return events

    def expected(self) -> list[Expectation]:
        """Who must send what now (empty when idle)."""
        if self.idle:
            return []
        op = self._ops[self._cursor]
        return [Expectation(self.deck, self.epoch, self._cursor, op.kind, s)
                for s in sorted(op.pending)]

    def live_handles(self) -> tuple[int, ...]:
        return tuple(sorted(h for h, st in self.handles.items() if st.live))

    def ciphertext(self, handle: int) -> Ciphertext:
        return self._handle(handle).current_version.ciphertext

    def knowers(self, handle: int) -> frozenset[int]:
        """Seats able to know the handle's card from what is public (the audit opens only what
        it was asked to: every other handle keeps its knowers forever)."""
        return self._handle(handle).knowers(self.n)

    def known_cards(self) -> dict[int, str]:
        """handle -> card for every handle this seat has actually decrypted."""
        return dict(self._known)

    def public_cards(self) -> dict[int, str]:
        """handle -> card for handles opened to everyone."""
        return dict(self._public)

    def audit_result(self) -> dict[int, str]:
        """handle -> card for every handle public once the audit completed (those it opened,
        live or reshuffled away, and those opened before); no other handle ever opens."""
        if not self._closed:
            raise MentalUsageError("the audit has not completed")
        return dict(self._public)

    # ---- requests (every peer queues the same ones, in the same order) -------------------------

    def disclose(self, targets: Mapping[int, int | None]) -> int:
        """Open handles: to one seat (deal) or to everyone (None: public reveal). Returns op."""
        requests = tuple(targets.items())
        self._plan.disclose(requests)
        return self._queue(DiscloseOp(requests=requests))

    def deal(self, assignments: Mapping[int, int]) -> int:
        """Deal each handle to its seat: every other seat publishes its share."""
        return self.disclose(dict(assignments))

    def reveal(self, handles: Sequence[int]) -> int:
        """Open handles to everyone (the holder, if any, publishes the last share)."""
        return self.disclose({h: None for h in handles})

    def show(self, transfers: Sequence[Transfer]) -> int:
        """Let each recipient see a held card; the holder keeps it."""
        ts = tuple(transfers)
        self._plan.transfer(ts, give=False)
        return self._queue(TransferOp(name="show", transfers=ts, give=False))

    def give(self, transfers: Sequence[Transfer]) -> int:
        """Hand each card to its recipient: later openings use the recipient's ciphertext."""
        ts = tuple(transfers)
        self._plan.transfer(ts, give=True)
        return self._queue(TransferOp(name="give", transfers=ts, give=True))

    def reshuffle(self, handles: Sequence[int]) -> tuple[int, tuple[int, ...]]:
        """Verified reshuffle of some live handles; returns (op, the new handles)."""
        hs = tuple(handles)
        new = self._plan.reshuffle(hs)
        return self._queue(ShuffleOp(name="reshuffle", inputs=hs, outputs=new)), new

    def audit(self, handles: Sequence[int] = ()) -> int:
        """End the epoch by opening exactly `handles` (live or retired) to everyone, through
        proven decryption shares; no request may follow and no key is ever published."""
        hs = tuple(handles)
        self._plan.audit(hs)
        return self._queue(AuditOp(requests=tuple((h, None) for h in hs)))

    # ---- producing this seat's messages ----------------------------------------------------------

    def outgoing(self) -> list[MentalMessage]:
        """This seat's messages for the current expectations (cached: never two versions)."""
        return [self.make(e) for e in self.expected() if e.seat == self.me]

    def make(self, exp: Expectation) -> MentalMessage:
        """Build (once) this seat's message answering `exp`."""
        if self.me is None or exp.seat != self.me:
            raise MentalUsageError("only the local seat's messages can be made")
        if exp not in self.expected():
            raise MentalUsageError(f"{exp} is not currently expected")
        key = (exp.op, exp.kind)
        if key not in self._made:
            self._made[key] = self._build(self._ops[exp.op])
        return self._made[key]

    def _build(self, op: Operation) -> MentalMessage:
        x, me, rng = self._secret, self.me, self._rng
        assert x is not None and me is not None and rng is not None
        head: dict[str, Any] = dict(deck=self.deck, epoch=self.epoch, op=self._cursor, seat=me)
        if isinstance(op, KeysOp):
            h = base_mul(x)
            ctx = binding.key_context(self.table_id, self.deck, self.epoch, me)
            return KeyMessage(**head, key=h, proof=prove_key(x, h, ctx))
        if isinstance(op, ShuffleOp):
            out, proof = self._take_ahead(op) or self._shuffle(op.stage).result()
            return ShuffleMessage(**head, inputs=op.inputs or (), outputs=op.outputs,
                                  ciphertexts=tuple(out), proof=proof)
        if isinstance(op, TransferOp) and not op.in_share_phase:
            return ReencryptionMessage(**head, targets=_transfer_targets(op),
                                       items=tuple(self._reencrypt(op, t) for t in op.transfers
                                                   if t.holder == me))
        if isinstance(op, SharesPhase):
            h_me = self.keys[me]
            items = []
            for handle, v in op.plan[me]:
                ct = self.handles[handle].versions[v].ciphertext
                ctx = binding.share_context(self.table_id, self.deck, self.epoch, handle, v, me)
                d, dleq = make_share(x, h_me, ct, ctx)
                items.append(ShareItem(handle, v, d, dleq))
            return ShareMessage(**head, targets=op.targets, owing=op.owers,
                                audit=isinstance(op, AuditOp), items=tuple(items))
        raise MentalError(f"no message for operation {op.name}")  # pragma: no cover

    def _shuffle(self, stage: list[Ciphertext], *, on_thread: bool = False
                 ) -> Future[_ahead.Shuffled]:
        """This seat's shuffle of `stage` and its proof for the current operation. The
        permutation and re-encryption factors are drawn here, on the caller's thread, in the
        same order as always; the multiplications run on a worker thread if `on_thread`."""
        rng, me = self._rng, self.me
        assert rng is not None and me is not None
        H = self._H()
        perm = random_permutation(rng, len(stage))
        rands = [random_scalar(rng) for _ in stage]
        ctx = binding.shuffle_context(self.table_id, self.deck, self.epoch, self._cursor, me)
        return _ahead.shuffle_and_prove(stage, perm, rands, H, ctx, on_thread=on_thread)

    def _take_ahead(self, op: ShuffleOp) -> _ahead.Shuffled | None:
        """The shuffle computed ahead on exactly this operation's checked input, if any."""
        ahead, self._ahead = self._ahead, None
        if ahead is None or ahead[0] != self._cursor or ahead[1] is not op.stage:
            return None
        try:
            return ahead[2].result()
        except CryptoError:  # pragma: no cover - our own arithmetic on valid points
            return None

    def _reencrypt(self, op: TransferOp, t: Transfer) -> ReencryptionItem:
        assert self._rng is not None and self.me is not None
        H = self._H()
        old = self.handles[t.handle].current_version.ciphertext
        r = random_scalar(self._rng)
        new = reencrypt(old, H, r)
        v = op.new_versions[t.handle]
        ctx = binding.reencryption_context(self.table_id, self.deck, self.epoch, t.handle, v,
                                           self.me)
        return ReencryptionItem(t.handle, v, new, prove_reencryption(r, old, new, H, ctx))

    # ---- receiving any seat's message ------------------------------------------------------------

    def precheck(self, sender: int, msg: MentalMessage) -> bool:
        """Check another seat's decryption shares while their step still waits on other seats'
        (the proofs are most of a shares step's work, and otherwise all of it ran at once when
        the last message came). True when every check `receive` makes passed; `receive` then
        skips the proofs (`checked`). The checks read only what no message of the same phase
        changes (the sender's key, the versions named), so their outcome cannot differ later.
        A failure keeps nothing: `receive` runs every check again and names the culprit, in the
        step's order."""
        if not isinstance(msg, ShareMessage) or sender == self.me:
            return False
        try:
            op = self._expecting(sender, msg)
            if not isinstance(op, SharesPhase):
                return False
            self._check_shares(op, msg)
        except MentalViolation:
            return False
        return True

    def receive(self, sender: int, msg: MentalMessage, checked: bool = False) -> list[Event]:
        """Verify and apply `msg` sent by `sender`; raise MentalViolation naming the culprit.
        `checked`: `precheck` passed on this very message (its proofs are not checked again)."""
        op = self._expecting(sender, msg)
        trusted = checked or (sender == self.me and self._made.get((msg.op, msg.KIND)) == msg)
        events: list[Event] = []
        if isinstance(msg, KeyMessage):
            self._on_key(op, msg, trusted)
        elif isinstance(msg, ShuffleMessage):
            assert isinstance(op, ShuffleOp)
            self._on_shuffle(op, msg, trusted)
        elif isinstance(msg, ReencryptionMessage):
            assert isinstance(op, TransferOp)
            self._on_reencryption(op, msg, trusted)
        else:
            assert isinstance(op, SharesPhase) and isinstance(msg, ShareMessage)
            events += self._on_shares(op, msg, trusted)
        return self.take_events() + events + self._advance()

    def _expecting(self, sender: int, msg: MentalMessage) -> Operation:
        """The operation in progress, which `msg` answers and `sender` owes now; else a
        MentalViolation naming `sender`."""
        if msg.seat != sender:
            raise MentalViolation(sender, tr("message claims to come from seat {seat}",
                                             seat=msg.seat))
        if (msg.deck, msg.epoch) != (self.deck, self.epoch):
            raise MentalViolation(sender, tr("message for deck {deck} epoch {epoch} routed to deck "
                                             "{deck2} epoch {epoch2}",
                                             deck=repr(msg.deck), epoch=msg.epoch,
                                             deck2=repr(self.deck), epoch2=self.epoch))
        if self.idle:
            raise MentalViolation(sender, tr("{KIND}: no operation in progress", KIND=msg.KIND))
        if msg.op != self._cursor:
            raise MentalViolation(sender, tr("{KIND} answers operation {op}, but operation {cursor} "
                                             "is in progress",
                                             KIND=msg.KIND, op=msg.op, cursor=self._cursor))
        op = self._ops[self._cursor]
        if msg.KIND != op.kind:
            raise MentalViolation(sender, tr("sent {KIND}, expected {kind}",
                                             KIND=msg.KIND, kind=op.kind))
        if sender not in op.pending:
            raise MentalViolation(sender, tr("{KIND}: seat {sender} is not expected to send now "
                                             "(already sent, or not its turn)",
                                             KIND=msg.KIND, sender=sender))
        return op

    def _on_key(self, op: Operation, msg: KeyMessage, trusted: bool) -> None:
        s = msg.seat
        if not trusted:
            ctx = binding.key_context(self.table_id, self.deck, self.epoch, s)
            try:
                verify_key(msg.key, msg.proof, ctx)
            except CryptoError as exc:
                raise MentalViolation(s, tr("key proof rejected: {exc}", exc=exc)) from exc
        for other, h in self.keys.items():
            if h == msg.key:
                raise MentalViolation(max(s, other), tr("seats {low} and {high} published the same "
                                                        "key",
                                                        low=min(s, other), high=max(s, other)))
        self.keys[s] = msg.key
        op.pending.discard(s)
        if not op.pending:
            H = point_sum([self.keys[i] for i in range(self.n)])
            if H.is_identity:
                raise MentalViolation(max(self.keys), tr("joint key is the identity"))
            self.joint_key = H

    def _on_shuffle(self, op: ShuffleOp, msg: ShuffleMessage, trusted: bool) -> None:
        s = msg.seat
        want = (op.inputs or (), op.outputs)
        if (msg.inputs, msg.outputs) != want:
            raise MentalViolation(s, tr("shuffle names inputs {inputs} and outputs {outputs}, "
                                        "expected {want_in} and {want_out}",
                                        inputs=list(msg.inputs), outputs=list(msg.outputs),
                                        want_in=list(want[0]), want_out=list(want[1])))
        if len(msg.ciphertexts) != len(op.stage):
            raise MentalViolation(s, tr("shuffle has {count} ciphertexts, expected {stage}",
                                        count=len(msg.ciphertexts), stage=len(op.stage)))
        out = list(msg.ciphertexts)
        # this seat is next: its own shuffle of `out` is computed on a worker thread while this
        # thread checks `out`; it is used (sent) only once the check has passed (`_take_ahead`)
        ahead = (self._shuffle(out, on_thread=True)
                 if not trusted and _ahead.enabled() and s + 1 == self.me else None)
        if not trusted:
            ctx = binding.shuffle_context(self.table_id, self.deck, self.epoch, msg.op, s)
            try:
                verify_shuffle(op.stage, out, self._H(), msg.proof, ctx)
            except CryptoError as exc:
                raise MentalViolation(s, tr("shuffle proof rejected: {exc}", exc=exc)) from exc
        op.stage = out
        if ahead is not None:
            self._ahead = (self._cursor, out, ahead)
        op.turn += 1
        op.pending = {op.turn} if op.turn < self.n else set()

    def _on_reencryption(self, op: TransferOp, msg: ReencryptionMessage, trusted: bool) -> None:
        s = msg.seat
        if msg.targets != _transfer_targets(op):
            raise MentalViolation(s, tr("re-encryption's targets differ from the operation's: it "
                                        "{how}", how=_differ(msg.targets, _transfer_targets(op))))
        want = [(t.handle, op.new_versions[t.handle]) for t in op.transfers if t.holder == s]
        got = [(i.handle, i.version) for i in msg.items]
        if got != want:
            raise MentalViolation(s, tr("re-encryptions for {got}, expected {want}",
                                        got=got, want=want))
        if not trusted:
            H = self._H()
            for item in msg.items:
                old = self.handles[item.handle].current_version.ciphertext
                ctx = binding.reencryption_context(self.table_id, self.deck, self.epoch,
                                                   item.handle, item.version, s)
                try:
                    verify_reencryption(old, item.ciphertext, H, item.proof, ctx)
                except CryptoError as exc:
                    raise MentalViolation(s, tr("re-encryption of handle {handle} rejected: {exc}",
                                                handle=item.handle, exc=exc)) from exc
        for item in msg.items:
            self.handles[item.handle].versions.append(Version(item.ciphertext))
        op.pending.discard(s)

    def _on_shares(self, op: SharesPhase, msg: ShareMessage, trusted: bool) -> list[Event]:
        self._check_shares(op, msg, proofs=not trusted)
        events: list[Event] = []
        for item in msg.items:
            self.handles[item.handle].versions[item.version].shares[msg.seat] = item.share
        for item in msg.items:
            events += self._learn(item.handle, item.version)
        op.pending.discard(msg.seat)
        return events

    def _check_shares(self, op: SharesPhase, msg: ShareMessage, proofs: bool = True) -> None:
        """What a shares message must be for `op`, and (`proofs`) each share's proof."""
        s = msg.seat
        if msg.targets != op.targets:
            how = _differ(msg.targets, op.targets)
            raise MentalViolation(s, tr("audit's targets differ from the operation's: it {how}",
                                        how=how) if isinstance(op, AuditOp) else
                                  tr("shares' targets differ from the operation's: it {how}",
                                     how=how))
        if msg.owing != op.owers:
            raise MentalViolation(s, tr("shares name the owing seats {seats}, the operation's "
                                        "are {expected}", seats=list(msg.owing),
                                        expected=list(op.owers)))
        if msg.audit != isinstance(op, AuditOp):
            raise MentalViolation(s, tr("shares say audit false: the operation is its epoch's "
                                        "audit") if isinstance(op, AuditOp) else
                                  tr("shares say audit true: the operation is not an audit"))
        want = list(op.plan[s])
        got = [(i.handle, i.version) for i in msg.items]
        if got != want:
            raise MentalViolation(s, tr("shares for {got}, expected {want}", got=got, want=want))
        if proofs:
            h_s = self.keys[s]
            for item in msg.items:
                ct = self.handles[item.handle].versions[item.version].ciphertext
                ctx = binding.share_context(self.table_id, self.deck, self.epoch, item.handle,
                                            item.version, s)
                try:
                    verify_share(h_s, ct, item.share, item.proof, ctx)
                except CryptoError as exc:
                    raise MentalViolation(s, tr("decryption share for handle {handle} version "
                                                "{version} rejected: {exc}",
                                                handle=item.handle, version=item.version, exc=exc)) from exc

    # ---- knowledge ---------------------------------------------------------------------------

    def _learn(self, handle: int, v: int) -> list[Event]:
        """Decrypt a version if its shares now allow this seat (or everyone) to."""
        version = self.handles[handle].versions[v]
        shares = version.shares
        public = len(shares) == self.n
        if public and handle in self._public:
            return []
        if not public and (self.me is None or handle in self._known
                           or len(shares) != self.n - 1 or self.me in shares):
            return []
        parts = list(shares.values())
        if not public:
            assert self._secret is not None
            parts.append(version.ciphertext.a * self._secret)
        card = self._card_by_point.get(combine(version.ciphertext, parts))
        if card is None:
            raise MentalError(f"handle {handle} version {v} decrypts to no card of the deck")
        if public:
            self._public[handle] = card
        if self.me is None or handle in self._known:
            return []
        self._known[handle] = card
        return [CardLearned(self.deck, self.epoch, handle, card)]

    # ---- operation lifecycle -----------------------------------------------------------------

    def _queue(self, op: Operation) -> int:
        self._ops.append(op)
        index = len(self._ops) - 1
        if index == self._cursor:
            self._activate()
            self._stash += self._advance()
        return index

    def _activate(self) -> None:
        """Set up the operation under the cursor (its pending seats, its inputs)."""
        if self.idle:
            return
        op = self._ops[self._cursor]
        if isinstance(op, KeysOp):
            op.pending = set(range(self.n))
        elif isinstance(op, ShuffleOp):
            H = self._H()
            if op.inputs is None:
                # encrypt(M, H, 1) = (G, M + H): written out to skip two multiplications by 1
                op.stage = [Ciphertext(G, m + H) for m in self._card_points]
            else:
                op.stage = [self.handles[h].current_version.ciphertext for h in op.inputs]
            op.pending = {0}
        elif isinstance(op, TransferOp):
            op.new_versions = {t.handle: len(self.handles[t.handle].versions)
                               for t in op.transfers}
            op.pending = {t.holder for t in op.transfers}
        elif isinstance(op, DiscloseOp):
            self._plan_shares(op, tuple((h, self.handles[h].current, r) for h, r in op.requests))

    def _plan_shares(self, op: SharesPhase, targets: tuple[tuple[int, int, int | None], ...]
                     ) -> None:
        op.kind = ShareMessage.KIND
        op.targets = targets
        op.plan = {}
        for s in range(self.n):
            op.plan[s] = tuple((h, v) for h, v, r in targets
                               if r != s and s not in self.handles[h].versions[v].shares)
        op.pending = {s for s, items in op.plan.items() if items}
        op.owers = tuple(sorted(op.pending))

    def _advance(self) -> list[Event]:
        """Finish operations whose messages are all in; activate the next ones."""
        events: list[Event] = []
        while not self.idle and not self._ops[self._cursor].pending:
            op = self._ops[self._cursor]
            if isinstance(op, TransferOp) and not op.in_share_phase:
                op.in_share_phase = True
                self._plan_shares(op, tuple((t.handle, op.new_versions[t.handle], t.recipient)
                                            for t in op.transfers))
                continue
            self._complete(op)
            events.append(OperationCompleted(self.deck, self.epoch, self._cursor, op.name))
            self._cursor += 1
            self._activate()
        return events

    def _complete(self, op: Operation) -> None:
        if isinstance(op, ShuffleOp):
            if op.inputs is not None:
                for h in op.inputs:
                    self.handles[h].live = False
            for h, ct in zip(op.outputs, op.stage):
                self.handles[h] = Handle([Version(ct)])
        elif isinstance(op, TransferOp) and op.give:
            for t in op.transfers:
                self.handles[t.handle].current = op.new_versions[t.handle]
        elif isinstance(op, AuditOp):
            self._closed = True

    # ---- helpers -----------------------------------------------------------------------------

    def _H(self) -> Point:
        if self.joint_key is None:
            raise MentalError("joint key not established")
        return self.joint_key

    def _handle(self, h: int) -> Handle:
        try:
            return self.handles[h]
        except KeyError:
            raise MentalUsageError(f"no handle {h} (yet) in {self.deck!r} epoch {self.epoch}") \
                from None
