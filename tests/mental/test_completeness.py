"""Honest runs: every seat ends with exactly its cards, the audit agrees with everybody."""

from __future__ import annotations

import pytest

from .support import Loopback
from p2ptarot.mental import CardLearned, MentalTable, OperationCompleted, SeededRandomSource

# Big tables with small decks, big decks with few seats (keeps the suite fast).
CASES = [pytest.param(n, 9, marks=[pytest.mark.slow] if n >= 9 else []) for n in range(2, 13)]
CASES += [(3, 39), (2, 78), (3, 96), (2, 104)]


def cards(size: int) -> list[str]:
    return [f"card-{i:03d}" for i in range(size)]


@pytest.mark.parametrize(("n", "size"), CASES)
def test_deal_reveal_audit(n: int, size: int) -> None:
    lb = Loopback(n, seed=n * 1000 + size)
    deck = cards(size)
    lb.open("main", 1, deck)
    lb.run()
    for p in lb.peers:
        st = p.epoch("main", 1)
        assert st.ready and st.idle
        assert st.live_handles() == tuple(range(size))
    # deal every handle round-robin, in one operation
    holder = {h: h % n for h in range(size)}
    lb.each(lambda p: p.deal("main", 1, holder))
    lb.run()
    for s in range(n):
        known = lb.seats[s].epoch("main", 1).known_cards()
        assert set(known) == {h for h, j in holder.items() if j == s}
        learnt = {e.handle for e in lb.events[s] if isinstance(e, CardLearned)}
        assert learnt == set(known)
    assert lb.observer.epoch("main", 1).known_cards() == {}
    # all dealt cards together are the whole deck, each once
    together = {h: c for s in range(n) for h, c in lb.seats[s].epoch("main", 1).known_cards().items()}
    assert sorted(together.values()) == deck
    # public reveal of the first two handles: their holders publish the last share
    lb.each(lambda p: p.reveal("main", 1, [0, 1]))
    lb.run()
    for p in lb.peers:
        assert p.epoch("main", 1).public_cards() == {0: together[0], 1: together[1]}
    # the audit opens exactly the handles asked for (2 and the last one), never the others
    last = size - 1
    lb.each(lambda p: p.audit("main", 1, [2, last]))
    lb.run()
    opened = {h: together[h] for h in (0, 1, 2, last)}
    for p in lb.peers:
        assert p.epoch("main", 1).audit_result() == opened
    for s in range(n):
        known = lb.seats[s].epoch("main", 1).known_cards()
        assert set(known) == set(opened) | {h for h, j in holder.items() if j == s}
    assert lb.observer.epoch("main", 1).known_cards() == {}
    completed = [e.name for e in lb.events[0] if isinstance(e, OperationCompleted)]
    assert completed == ["keys", "shuffle", "disclose", "disclose", "audit"]


def test_every_seat_shuffles_once_in_seat_order() -> None:
    lb = Loopback(4, seed=3)
    lb.open("d", 0, cards(9))
    lb.run()
    shufflers = [m.seat for m in lb.sent if m.KIND == "mental.shuffle"]
    assert shufflers == [0, 1, 2, 3]
    keys = [m.seat for m in lb.sent if m.KIND == "mental.key"]
    assert sorted(keys) == [0, 1, 2, 3]


def test_requests_may_be_queued_before_setup_completes() -> None:
    lb = Loopback(2, seed=4)
    lb.open("d", 0, cards(9))
    lb.each(lambda p: p.deal("d", 0, {0: 1, 1: 0}))
    assert not lb.seats[0].epoch("d", 0).ready
    lb.run()
    assert set(lb.seats[1].epoch("d", 0).known_cards()) == {0}
    assert set(lb.seats[0].epoch("d", 0).known_cards()) == {1}


def test_several_decks_and_epochs_like_sinople() -> None:
    """A figure deck kept for the game, a numeric deck re-shuffled every round (new epoch)."""
    lb = Loopback(3, seed=5)
    lb.open("figures", 1, cards(9))
    lb.open("numbers", 1, cards(12))
    lb.run()
    lb.each(lambda p: p.deal("numbers", 1, {h: h % 3 for h in range(12)}))
    lb.each(lambda p: p.reveal("figures", 1, [0]))
    lb.run()
    first = {s: lb.seats[s].epoch("numbers", 1).known_cards() for s in range(3)}
    lb.each(lambda p: p.audit("numbers", 1, range(12)))
    lb.run()
    lb.open("numbers", 2, cards(12))
    lb.run()
    lb.each(lambda p: p.deal("numbers", 2, {h: h % 3 for h in range(12)}))
    lb.run()
    for s in range(3):
        assert len(lb.seats[s].epoch("numbers", 2).known_cards()) == 4
        audit = lb.seats[s].epoch("numbers", 1).audit_result()
        assert all(audit[h] == c for h, c in first[s].items())
    fig = lb.observer.epoch("figures", 1)
    assert list(fig.public_cards()) == [0] and not fig.closed
    # the epoch keys are fresh: no seat reuses its key across epochs
    k1 = lb.observer.epoch("numbers", 1).keys
    k2 = lb.observer.epoch("numbers", 2).keys
    assert all(k1[s] != k2[s] for s in range(3))


def test_a_restarted_seat_replays_the_log_with_its_persisted_secret() -> None:
    """Crash recovery: reopen with the saved x_i, replay every logged message, carry on."""
    lb = Loopback(3, seed=9)
    lb.open("d", 1, cards(9))
    lb.each(lambda p: p.deal("d", 1, {h: h % 3 for h in range(9)}))
    lb.run()
    saved = lb.seats[1].epoch("d", 1).secret
    hand = lb.seats[1].epoch("d", 1).known_cards()
    fresh = MentalTable(lb.seats[1].table_id, 3, 1, SeededRandomSource("after-crash"))
    fresh.open_deck("d", 1, cards(9), secret=saved)
    fresh.deal("d", 1, {h: h % 3 for h in range(9)})
    for m in lb.sent:
        fresh.receive_dict(m.seat, m.to_dict())  # its own old messages are verified too
    assert fresh.epoch("d", 1).known_cards() == hand
    lb.seats[1] = fresh
    lb.each(lambda p: p.audit("d", 1))
    lb.run()
    assert lb.observer.epoch("d", 1).closed
