"""The engine bridge: how the rules engine's names map onto the wire and the deck.

* **Handles.** The engine names card slots by handle; the deck layer by (deck, epoch, position).
  A `Shuffle` with cards opens an epoch (handle i -> position i); a reshuffle moves handles onto
  the new positions it creates.
* **Claims.** The engine numbers its claims; the bridge remembers which signed message made each
  one (the claimant's own latest move, even when another seat's move closed the window), so a
  claim disproved later blames its seat with that very message.
* **Secrets.** An engine secret (`Commit`) is kept with its commitment label, digest and the signed
  message that committed it, so an `Open` is checked against it before the engine sees it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Sequence

from p2ptarot.engine import PUBLIC, GameState, Reveal, Shuffle
from p2ptarot.mental.events import Transfer

from .envelope import Envelope

#: where a card lives in the deck layer: (deck, epoch, position in that epoch)
Location = tuple[str, int, int]


@dataclass
class RevealGroup:
    """The reveals of one deck epoch, split by the deck operation that performs them."""

    public: list[int] = field(default_factory=list)
    deal: dict[int, int] = field(default_factory=dict)  # position -> receiving seat
    show: list[Transfer] = field(default_factory=list)


@dataclass(frozen=True)
class CommittedSecret:
    """An engine secret as committed on the wire (its value stays with its owner)."""

    owner: int
    label: str
    digest: bytes
    envelope: Envelope


class EngineBridge:
    """Engine handles, claims and secrets on one side; deck positions and signed messages on the
    other."""

    def __init__(self) -> None:
        self.where: dict[int, Location] = {}
        self.epoch_of_deck: dict[str, int] = {}
        self.secrets: dict[str, CommittedSecret] = {}
        self._claim_envs: list[Envelope | None] = []  # claim id i was made by this message
        self._last_move: dict[int, Envelope] = {}  # seat -> its latest applied move
        self.next_handle = 0  # engine handles are numbered game-wide, in shuffle order (§6.5)

    # ---- handles ------------------------------------------------------------------------------
    def number(self, handles: tuple[int, ...]) -> None:
        """PROTOCOL §6.5 (normative since protocol 7): a `Shuffle` places the next unused engine
        handles, consecutively from 0 over the whole game, in the order of the shuffles; a
        stranger checking claims and audits relies on it. An engine that numbers otherwise is a
        bug of this build (ValueError), never a seat's fault."""
        if handles != tuple(range(self.next_handle, self.next_handle + len(handles))):
            raise ValueError(f"engine handles {list(handles[:3])}… are not the next unused ones "
                             f"(from {self.next_handle}, in shuffle order)")
        self.next_handle += len(handles)

    def open_epoch(self, shuffle: Shuffle) -> None:
        """A new epoch of `shuffle.deck`: its handles are the open deck's positions, in order."""
        self.number(shuffle.handles)
        self.epoch_of_deck[shuffle.deck] = shuffle.epoch
        for i, h in enumerate(shuffle.handles):
            self.where[h] = (shuffle.deck, shuffle.epoch, i)

    def reshuffle_sources(self, shuffle: Shuffle) -> tuple[str, int, list[int]]:
        """The deck epoch and positions a reshuffle draws from (all in one epoch)."""
        deck, epoch, _ = self.where[shuffle.source[0]]
        positions = []
        for h in shuffle.source:
            d, e, pos = self.where[h]
            if (d, e) != (deck, epoch):
                raise ValueError("a reshuffle must stay within one deck epoch")
            positions.append(pos)
        return deck, epoch, positions

    def place(self, handles: tuple[int, ...], deck: str, epoch: int, positions: Sequence[int]) -> None:
        self.number(handles)
        for h, pos in zip(handles, positions):
            self.where[h] = (deck, epoch, pos)

    def locate(self, handle: int) -> Location | None:
        return self.where.get(handle)

    def handles_in(self, deck: str, epoch: int) -> Iterator[tuple[int, int]]:
        """(handle, position) of every handle of one deck epoch, by handle."""
        for h, (d, e, pos) in sorted(self.where.items()):
            if (d, e) == (deck, epoch):
                yield h, pos

    def group_reveals(self, reveals: tuple[Reveal, ...]) -> dict[tuple[str, int], RevealGroup]:
        """The engine's reveals as deck operations: public openings, deals (from nobody) and
        shows/gives (re-encryptions from a holder)."""
        groups: dict[tuple[str, int], RevealGroup] = {}
        for r in reveals:
            deck, epoch, pos = self.where[r.handle]
            group = groups.setdefault((deck, epoch), RevealGroup())
            if r.to == PUBLIC:
                group.public.append(pos)
            elif r.holder < 0:
                group.deal[pos] = r.to
            else:
                group.show.append(Transfer(pos, r.holder, r.to))
        return groups

    # ---- claims -------------------------------------------------------------------------------
    def note_seat(self, seat: int, env: Envelope) -> None:
        """`seat`'s move `env` is about to be applied: claims it makes point at it."""
        self._last_move[seat] = env

    def note_claims(self, game: GameState) -> None:
        """Map every claim made since the last call to its seat's own latest answer (a claim is
        made by its seat's answer, even when another seat's move closed the window)."""
        self._claim_envs.extend(self._last_move.get(c.seat)
                                for c in game.claim_log[len(self._claim_envs):])

    def claim_evidence(self, claim: int | None) -> tuple[Envelope, ...]:
        """The signed message by which claim number `claim` was made, if it is known."""
        if claim is None or not 0 <= claim < len(self._claim_envs):
            return ()
        env = self._claim_envs[claim]
        return (env,) if env is not None else ()

    def evidence_against(self, seat: int, claim: int | None) -> tuple[Envelope, ...]:
        """Evidence of a fault of `seat` found while applying another seat's move: the claim's
        own message, else the seat's latest move."""
        return self.claim_evidence(claim) or (
            (self._last_move[seat],) if seat in self._last_move else ())

    # ---- secrets ------------------------------------------------------------------------------
    def committed(self, name: str, secret: CommittedSecret) -> None:
        self.secrets[name] = secret
