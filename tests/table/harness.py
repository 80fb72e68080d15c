"""In-memory table: several sans-I/O sessions wired together by a message queue (no sockets).

Cheating seats for the audit tests: a *blind* seat's engine is never told some of its own cards,
so it answers as if it did not hold them and signs exactly what a liar would send; a *stacked*
first shuffle deals a chosen order under real mental poker (the first shuffler applies the
stacking permutation, the others the identity), so a test can set up the scene it needs.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence
from unittest import mock

import p2ptarot.mental.epoch as mental_epoch

from p2ptarot.bots import make as make_bot
from p2ptarot.crypto.signing import Identity
from p2ptarot.table.effects import (Aborted, DigestTo, Finished, Forward, NeedMove, Record,
                                   ResendTo, Send)
from p2ptarot.table.lobby import make_charter, signed_locally
from p2ptarot.table.session import Session


@dataclass(frozen=True)
class Gossip:
    """A digest control frame on its way from seat `sender` (the runner's `ctl: digest`)."""

    sender: int
    frame: dict[str, Any]


class BlindSession(Session):
    """A seat that pretends not to see the cards in `blind` (until an audit opens them)."""

    def __init__(self, *args: Any, blind: frozenset[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.blind = blind

    def _sync_known(self) -> None:
        learn = self.game.learn
        self.game.learn = lambda h, c: None if c in self.blind else learn(h, c)  # type: ignore[method-assign]
        try:
            super()._sync_known()
        finally:
            del self.game.learn


#: a scripted choice: (legal moves) -> the move to play, or None to let the bot choose
Script = Callable[[list], Any]


def once(pick: Script) -> Script:
    """A script that plays `pick(legal)` the first time it finds a move, then leaves it to the bot."""
    done: list[Any] = []

    def script(legal: list) -> Any:
        if done:
            return None
        move = pick(legal)
        if move is not None:
            done.append(move)
        return move
    return script


class Table:
    def __init__(self, game: str, n: int, seed: int = 1, bot: str = "random",
                 options: dict[str, Any] | None = None, blind: dict[int, set[str]] | None = None,
                 scripts: dict[int, Script] | None = None, stack: Sequence[str] | None = None,
                 stack_shuffle: int = 0, stack_cards: Sequence[str] | None = None,
                 variant: str | None = None, shuffle_seed: int | None = None) -> None:
        self.ids = [Identity.from_seed(bytes([seed, i]) * 16) for i in range(n)]
        charter = make_charter(game, [(i.public_bytes, f"p{k}", "") for k, i in enumerate(self.ids)],
                               variant=variant, options=options, nonce=bytes([seed]) * 32)
        self.signed = signed_locally(charter, self.ids)
        # fixed game seeds: coin draws, and so the whole game flow, replay identically
        self.seeds = [bytes([seed, k]) * 16 for k in range(n)]
        blind = blind or {}
        self.sessions = [BlindSession(self.signed, k, self.ids[k], self.seeds[k],
                                      blind=frozenset(blind[k])) if k in blind
                         else Session(self.signed, k, self.ids[k], self.seeds[k]) for k in range(n)]
        self.bots = [make_bot(bot, seed * 100 + k) for k in range(n)]
        self.scripts = scripts or {}
        self.stack = list(stack) if stack is not None else None
        # which deck shuffle gets the stack (0: the first one; earlier ones keep the open order),
        # and that shuffle's open card order (default: the first shuffle's)
        self.stack_shuffle = stack_shuffle
        self.stack_cards = list(stack_cards) if stack_cards is not None else None
        # with no stack: seed every shuffle's permutation, so a scene that depends on the deal
        # (who plays next after a split view) replays exactly; None keeps system randomness
        self.shuffle_seed = shuffle_seed
        self.queue: deque[tuple[int, bytes]] = deque()  # (recipient, data)
        self.records: list[list[bytes]] = [[] for _ in range(n)]
        self.finished: list[Finished | None] = [None] * n
        self.aborted: list[Aborted | None] = [None] * n
        self.tamper = None  # optional callable(sender, data) -> data
        self.split = None  # optional callable(sender, env, data, recipient) -> data (split views)
        # peers exchange digests, answer them and relay abort records (PROTOCOL §8); off: all of
        # that traffic is lost (only the seats' own messages travel)
        self.relay = True
        self.observe: Callable[[int, Session], None] | None = None  # after each delivery

    def handle(self, k: int, effects) -> None:
        for e in effects:
            if isinstance(e, Send):
                data = e.envelope.encoded()
                if self.tamper is not None:
                    data = self.tamper(k, e.envelope, data)
                for j in range(len(self.sessions)):
                    if j != k:
                        self.queue.append((j, data if self.split is None
                                           else self.split(k, e.envelope, data, j)))
            elif isinstance(e, Forward) and self.relay:
                data = e.envelope.encoded()
                for j in range(len(self.sessions)):
                    if j not in (k, e.envelope.seat):
                        self.queue.append((j, data))
            elif isinstance(e, DigestTo) and self.relay:
                for j in range(len(self.sessions)) if e.seat is None else (e.seat,):
                    if j != k:
                        self.queue.append((j, Gossip(k, e.frame)))
            elif isinstance(e, ResendTo) and self.relay:
                self.queue.append((e.seat, e.envelope.encoded()))
            elif isinstance(e, Record):
                self.records[k].append(e.envelope.encoded())
            elif isinstance(e, NeedMove):
                script = self.scripts.get(k)
                move = script(list(e.legal)) if script is not None else None
                if move is None:
                    move = self.bots[k].choose(k, e.view, list(e.legal))
                self.queue.append((-1 - k, move))
            elif isinstance(e, Finished):
                self.finished[k] = e
            elif isinstance(e, Aborted):
                self.aborted[k] = e

    def run(self, max_messages: int = 1_000_000) -> None:
        with self._stacked():
            self._run(max_messages)

    @contextmanager
    def _stacked(self) -> Iterator[None]:
        """Deal `self.stack` in the first shuffle: the engine's first Shuffle lists the cards in
        its own order; handle i must end up holding stack[i]."""
        if self.stack is None:
            if self.shuffle_seed is None:
                yield
                return
            calls = {"n": 0}

            def seeded(rng: Any, size: int) -> list[int]:
                calls["n"] += 1
                perm = list(range(size))
                random.Random(self.shuffle_seed * 1_000_003 + calls["n"]).shuffle(perm)
                return perm

            with mock.patch.object(mental_epoch, "random_permutation", seeded):
                yield
            return
        cards = self.stack_cards or list(self.sessions[0].game.turn().chance.cards)
        assert sorted(cards) == sorted(self.stack), "the stack must be a permutation of the deck"
        wanted = [cards.index(c) for c in self.stack]
        calls = {"n": 0}
        first = self.stack_shuffle * len(self.sessions) + 1  # the call that applies the stack

        def permutation(rng: Any, size: int) -> list[int]:
            calls["n"] += 1
            if calls["n"] == first:
                return list(wanted)
            if calls["n"] < first + len(self.sessions):
                return list(range(size))
            perm = list(range(size))  # later shuffles: seeded, so the scene replays exactly
            random.Random(calls["n"]).shuffle(perm)
            return perm

        with mock.patch.object(mental_epoch, "random_permutation", permutation):
            yield

    def deliver(self, j: int, item: Any) -> int:
        """Hand one queued item to its session (a move to `act` when `j` < 0, a digest frame to
        `receive_digest`, bytes to `receive`); returns the session's index."""
        if j < 0:
            j = -1 - j
            self.handle(j, self.sessions[j].act(item))
        elif isinstance(item, Gossip):
            self.handle(j, self.sessions[j].receive_digest(item.sender, item.frame))
        else:
            self.handle(j, self.sessions[j].receive(item))
        return j

    def stall(self) -> bool:
        """What the runner does when a table stalls: every unfinished seat sends its digest.
        False when no digest went out."""
        before = len(self.queue)
        for k, s in enumerate(self.sessions):
            if not s.finished and self.relay:
                self.handle(k, s.digest())
        return len(self.queue) > before

    def _run(self, max_messages: int) -> None:
        for k, s in enumerate(self.sessions):
            self.handle(k, s.start())
        ticks, last = 0, []  # stall ticks in a row without any step taken; steps at the first
        for _ in range(max_messages):
            if not self.queue:
                steps = [s.step for s in self.sessions]
                if ticks >= 2 or not self.stall():
                    return
                ticks, last = ticks + 1, (last if ticks else steps)
                continue
            j, item = self.queue.popleft()
            j = self.deliver(j, item)
            if ticks and [s.step for s in self.sessions] != last:
                ticks = 0
            if self.observe is not None:
                self.observe(j, self.sessions[j])
        raise AssertionError("table did not settle")
