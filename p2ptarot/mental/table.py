"""`MentalTable`: one seat's mental-poker state for every deck epoch of a table.

This is the object the table session drives. It routes requests and messages to the right
`DeckEpoch`, keeps epochs of a deck strictly increasing (a proof for epoch e can never be
replayed in a later epoch: contexts bind the epoch), and turns malformed dicts into
violations that name the sender.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from p2ptarot.crypto.group import Scalar

from .epoch import DeckEpoch
from .errors import MentalUsageError, MentalViolation, MessageDecodeError
from .events import Event, Expectation, Transfer
from .messages import MentalMessage, message_from_dict
from .randomness import RandomSource, SystemRandomSource
from p2ptarot.i18n.message import tr

EpochKey = tuple[str, int]


class MentalTable:
    """Seat `seat`'s view of all shared decks at table `table_id` (seat None: observer)."""

    def __init__(self, table_id: bytes, n_seats: int, seat: int | None,
                 rng: RandomSource | None = None) -> None:
        self.table_id = bytes(table_id)
        self.n_seats = n_seats
        self.seat = seat
        self._rng = rng if rng is not None or seat is None else SystemRandomSource()
        self._epochs: dict[EpochKey, DeckEpoch] = {}
        self._latest: dict[str, int] = {}
        #: per sender, the last wire dict whose proofs `precheck` passed, and its message
        self._checked: dict[int, tuple[Any, MentalMessage]] = {}

    # ---- epochs ----------------------------------------------------------------------------

    def open_deck(self, deck: str, epoch: int, card_ids: Sequence[str],
                  secret: Scalar | None = None) -> DeckEpoch:
        """Start a deck epoch: key generation then a shuffle by every seat in seat order.

        `secret` restores this seat's x_i after a restart (see `DeckEpoch.secret`).
        """
        if deck in self._latest and epoch <= self._latest[deck]:
            raise MentalUsageError(f"deck {deck!r}: epoch {epoch} is not after "
                                   f"{self._latest[deck]}")
        state = DeckEpoch(self.table_id, self.n_seats, deck, epoch, card_ids, self.seat,
                          self._rng, secret)
        self._epochs[(deck, epoch)] = state
        self._latest[deck] = epoch
        return state

    def epoch(self, deck: str, epoch: int) -> DeckEpoch:
        try:
            return self._epochs[(deck, epoch)]
        except KeyError:
            raise MentalUsageError(f"no deck {deck!r} epoch {epoch}") from None

    def epochs(self) -> list[DeckEpoch]:
        return list(self._epochs.values())

    # ---- requests (thin delegations, so callers need only this object) ----------------------

    def deal(self, deck: str, epoch: int, assignments: Mapping[int, int]) -> int:
        return self.epoch(deck, epoch).deal(assignments)

    def reveal(self, deck: str, epoch: int, handles: Sequence[int]) -> int:
        return self.epoch(deck, epoch).reveal(handles)

    def show(self, deck: str, epoch: int, transfers: Sequence[Transfer]) -> int:
        return self.epoch(deck, epoch).show(transfers)

    def give(self, deck: str, epoch: int, transfers: Sequence[Transfer]) -> int:
        return self.epoch(deck, epoch).give(transfers)

    def reshuffle(self, deck: str, epoch: int, handles: Sequence[int]
                  ) -> tuple[int, tuple[int, ...]]:
        return self.epoch(deck, epoch).reshuffle(handles)

    def audit(self, deck: str, epoch: int, handles: Sequence[int] = ()) -> int:
        return self.epoch(deck, epoch).audit(handles)

    # ---- protocol ------------------------------------------------------------------------------

    def expected(self) -> list[Expectation]:
        """Every message currently awaited, over all deck epochs (in opening order)."""
        return [e for st in self._epochs.values() for e in st.expected()]

    def outgoing(self) -> list[MentalMessage]:
        """This seat's messages for the current expectations (each built once, then cached)."""
        return [m for st in self._epochs.values() for m in st.outgoing()]

    def take_events(self) -> list[Event]:
        return [e for st in self._epochs.values() for e in st.take_events()]

    def receive(self, sender: int, msg: MentalMessage, checked: bool = False) -> list[Event]:
        """Verify and apply a message of `sender` (raises MentalViolation naming the culprit)."""
        state = self._epochs.get((msg.deck, msg.epoch))
        if state is None:
            raise MentalViolation(sender, tr("no deck {deck} epoch {epoch} is open",
                                             deck=repr(msg.deck), epoch=msg.epoch))
        return state.receive(sender, msg, checked)

    def receive_dict(self, sender: int, data: Any) -> list[Event]:
        """Decode a wire dict then :meth:`receive`; malformed input blames `sender`. The very
        dict :meth:`precheck` passed is not decoded nor its proofs checked again."""
        hit = self._checked.pop(sender, None)
        if hit is not None and hit[0] is data:
            return self.receive(sender, hit[1], checked=True)
        try:
            msg = message_from_dict(data)
        except MessageDecodeError as exc:
            raise MentalViolation(sender, tr("malformed message: {exc}", exc=exc)) from exc
        return self.receive(sender, msg)

    def precheck(self, sender: int, data: Any) -> None:
        """Check a wire dict of `sender` ahead of its turn (`DeckEpoch.precheck`: decryption
        shares whose step waits on other seats); never raises. One kept per sender: the step
        that comes to it hands :meth:`receive_dict` that same dict."""
        try:
            msg = message_from_dict(data)
            state = self._epochs.get((msg.deck, msg.epoch))
            passed = state is not None and state.precheck(sender, msg)
        except Exception:  # noqa: BLE001 - the step's own checks say what is wrong, if it comes
            return
        if passed:
            self._checked[sender] = (data, msg)
