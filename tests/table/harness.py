"""In-memory table: several sans-I/O sessions wired together by a message queue (no sockets)."""

from __future__ import annotations

from collections import deque

from p2ptarot.bots import make as make_bot
from p2ptarot.crypto.signing import Identity
from p2ptarot.table.effects import Aborted, Finished, NeedMove, Record, Send
from p2ptarot.table.lobby import make_charter, signed_locally
from p2ptarot.table.secrets import new_seed
from p2ptarot.table.session import Session


class Table:
    def __init__(self, game: str, n: int, seed: int = 1, bot: str = "random") -> None:
        self.ids = [Identity.from_seed(bytes([seed, i]) * 16) for i in range(n)]
        charter = make_charter(game, [(i.public_bytes, f"p{k}", "") for k, i in enumerate(self.ids)],
                               nonce=bytes([seed]) * 32)
        self.signed = signed_locally(charter, self.ids)
        self.seeds = [new_seed() for _ in range(n)]
        self.sessions = [Session(self.signed, k, self.ids[k], self.seeds[k]) for k in range(n)]
        self.bots = [make_bot(bot, seed * 100 + k) for k in range(n)]
        self.queue: deque[tuple[int, bytes]] = deque()  # (recipient, data)
        self.records: list[list[bytes]] = [[] for _ in range(n)]
        self.finished: list[Finished | None] = [None] * n
        self.aborted: list[Aborted | None] = [None] * n
        self.tamper = None  # optional callable(sender, data) -> data

    def handle(self, k: int, effects) -> None:
        for e in effects:
            if isinstance(e, Send):
                data = e.envelope.encoded()
                if self.tamper is not None:
                    data = self.tamper(k, e.envelope, data)
                for j in range(len(self.sessions)):
                    if j != k:
                        self.queue.append((j, data))
            elif isinstance(e, Record):
                self.records[k].append(e.envelope.encoded())
            elif isinstance(e, NeedMove):
                move = self.bots[k].choose(k, e.view, list(e.legal))
                self.queue.append((-1 - k, move))
            elif isinstance(e, Finished):
                self.finished[k] = e
            elif isinstance(e, Aborted):
                self.aborted[k] = e

    def run(self, max_messages: int = 1_000_000) -> None:
        for k, s in enumerate(self.sessions):
            self.handle(k, s.start())
        for _ in range(max_messages):
            if not self.queue:
                return
            j, item = self.queue.popleft()
            if j < 0:
                k = -1 - j
                self.handle(k, self.sessions[k].act(item))
            else:
                self.handle(j, self.sessions[j].receive(item))
        raise AssertionError("table did not settle")
