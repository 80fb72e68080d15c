"""Who learns what at a live arcanoïd table (real mental poker, every seat honest).

Whenever the table waits for players, the cards each seat has actually decrypted are exactly the
cards the rules engine says it was shown: its own hand and draws, face-up cards, what a Papesse showed it,
a given card; never a face-down discard, another hand, or the renewed draw pile. Two independent
sources agree: the deck layer's decryptions and the engine's record of who saw what.
"""

from __future__ import annotations

import pytest
from tests.table.harness import Table, once

from p2ptarot.cards.arcanoid_tables import PRIESTESS
from p2ptarot.engine import create
from p2ptarot.games.arcanoid.moves import Priestess, Vote
from p2ptarot.table.session import Session

SEATS = 4
LOOKER, TARGET = 0, 2


def _stack() -> tuple[list[str], list[str]]:
    """Seat 0 holds the High Priestess; returns (deal order, seat 2's hand)."""
    order = list(create("arcanoid", SEATS, options={"first_seat": 0}).turn().chance.cards)
    rest = [c for c in order if c != PRIESTESS]
    dealt = rest[:6 * SEATS]
    dealt[LOOKER] = PRIESTESS  # handle 0 is seat 0's first card (dealt round-robin)
    deck = dealt + [c for c in order if c not in dealt]
    return deck, [dealt[i] for i in range(TARGET, 6 * SEATS, SEATS)]


class Ledger:
    """Checks the invariant at each move step of each seat; remembers what each seat decrypted."""

    def __init__(self) -> None:
        self.checked: dict[int, int] = {}
        self.decrypted: dict[int, set[str]] = {k: set() for k in range(SEATS)}
        self.history: dict[int, dict[int, frozenset[str]]] = {k: {} for k in range(SEATS)}
        self.checks = 0

    def __call__(self, k: int, s: Session) -> None:
        if self.checked.get(k) == s.step or s.finished or s.spec is None or s.spec.kind != "move":
            return  # check where the table waits for players: every reveal is then complete
        self.checked[k] = s.step
        cache: dict[tuple[str, int], dict[int, str]] = {}
        for h, (deck, epoch, mh) in s.bridge.where.items():
            ep = s.mental.epoch(deck, epoch)
            known = cache.setdefault((deck, epoch), ep.known_cards())
            # shown by the rules, or opened by an audit because a claim needed it
            shown = s.game.known_to(h, k) or (ep.closed and mh in ep.public_cards())
            assert (mh in known) == shown, (f"seat {k}, step {s.step}, handle {h}: "
                                            f"decrypted={mh in known}, shown={shown}")
            if mh in known:
                self.decrypted[k].add(known[mh])
            self.checks += 1
        self.history[k][s.step] = frozenset(self.decrypted[k])


@pytest.fixture(scope="module")
def played() -> tuple[Table, Ledger, list[str]]:
    deck, target_hand = _stack()

    def look(legal: list):
        return next((m for m in legal if isinstance(m, Priestess) and m.target == TARGET), None)

    def renew(legal: list):  # everyone votes to renew the draw pile from the discards
        return next((m for m in legal if isinstance(m, Vote) and m.choice == "yes"), None)

    first_look = once(look)
    scripts = {k: renew for k in range(SEATS)}
    scripts[LOOKER] = lambda legal: first_look(legal) or renew(legal)
    t = Table("arcanoid", SEATS, seed=21, options={"first_seat": 0, "rounds": 2}, scripts=scripts,
              stack=deck)
    ledger = Ledger()
    t.observe = ledger
    t.run()
    return t, ledger, target_hand


def test_each_seat_decrypts_exactly_what_the_rules_show_it(played) -> None:
    t, ledger, _ = played
    assert all(a is None for a in t.aborted)
    assert all(f is not None for f in t.finished)
    assert ledger.checks > 5_000  # the invariant ran over the whole game, every seat


def test_the_papesse_shows_one_hand_to_one_seat(played) -> None:
    _, ledger, target_hand = played
    assert len(set(target_hand)) == 6
    looked = min(step for step, cards in ledger.history[LOOKER].items() if set(target_hand) <= cards)
    for k in range(SEATS):
        if k not in (LOOKER, TARGET):
            assert not ledger.history[k][looked] & set(target_hand)  # same step, nothing of it


def test_the_renewed_pile_is_a_new_verified_shuffle_nobody_can_read(played) -> None:
    t, _, _ = played
    log = t.sessions[0].log
    renewals = [e for e in log if e.kind == "mental.shuffle" and len(e.body["ciphertexts"]) < 78]
    assert len(renewals) >= SEATS  # every seat shuffled the face-down discards, with its proof
    assert {e.seat for e in renewals} == set(range(SEATS))
    # the invariant above held after it: no seat could read a card of the renewed pile, not even
    # the seats that had discarded those cards face down
