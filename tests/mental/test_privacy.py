"""Each seat learns exactly what the protocol entitles it to, and nothing else."""

from __future__ import annotations

from .support import Loopback
from p2ptarot.crypto.elgamal import combine
from p2ptarot.mental import ShareMessage, Transfer, card_point

CARDS = [f"c{i}" for i in range(12)]


def dealt_table(n: int = 4, seed: int = 11) -> Loopback:
    lb = Loopback(n, seed=seed)
    lb.open("d", 1, CARDS)
    lb.run()
    lb.each(lambda p: p.deal("d", 1, {h: h % n for h in range(8)}))  # handles 8..11 stay down
    lb.run()
    return lb


def points() -> set:
    return {card_point("d", c) for c in CARDS}


def test_public_shares_never_open_a_dealt_card() -> None:
    lb = dealt_table()
    obs = lb.observer.epoch("d", 1)
    for h in range(8):
        version = obs.handles[h].current_version
        assert h % 4 not in version.shares  # the recipient never publishes its share
        assert len(version.shares) == 3
        # combining every public share leaves the recipient's mask on: no card point
        assert combine(version.ciphertext, list(version.shares.values())) not in points()
    for m in lb.sent:
        if isinstance(m, ShareMessage):
            assert all(item.handle % 4 != m.seat for item in m.items)


def test_each_seat_knows_only_its_hand() -> None:
    lb = dealt_table()
    for s in range(4):
        st = lb.seats[s].epoch("d", 1)
        assert set(st.known_cards()) == {h for h in range(8) if h % 4 == s}
        for h in range(12):
            assert st.knowers(h) == (frozenset({h % 4}) if h < 8 else frozenset())
    assert lb.observer.epoch("d", 1).known_cards() == {}
    assert lb.observer.epoch("d", 1).public_cards() == {}


def test_show_reaches_only_the_looker() -> None:
    """Papesse: seat 0 shows its hand to seat 2; seats 1 and 3 learn nothing."""
    lb = dealt_table()
    hand0 = lb.seats[0].epoch("d", 1).known_cards()
    lb.each(lambda p: p.show("d", 1, [Transfer(h, 0, 2) for h in sorted(hand0)]))
    lb.run()
    assert all(lb.seats[2].epoch("d", 1).known_cards()[h] == c for h, c in hand0.items())
    for third in (1, 3):
        assert not set(lb.seats[third].epoch("d", 1).known_cards()) & set(hand0)
    obs = lb.observer.epoch("d", 1)
    for h in hand0:
        assert obs.knowers(h) == frozenset({0, 2})
        shown = obs.handles[h].versions[1]
        assert 2 not in shown.shares
        assert combine(shown.ciphertext, list(shown.shares.values())) not in points()
        assert obs.handles[h].current == 0  # a show leaves the card with its holder
    # the holder can still play a shown card face up
    lb.each(lambda p: p.reveal("d", 1, [0]))
    lb.run()
    assert lb.observer.epoch("d", 1).public_cards() == {0: hand0[0]}


def test_give_moves_the_opening_rights() -> None:
    """Wheel: every seat passes one card to its left neighbour at once."""
    lb = dealt_table()
    before = {s: lb.seats[s].epoch("d", 1).known_cards() for s in range(4)}
    lb.each(lambda p: p.give("d", 1, [Transfer(s, s, (s + 1) % 4) for s in range(4)]))
    lb.run()
    for s in range(4):
        known = lb.seats[s].epoch("d", 1).known_cards()
        giver = (s - 1) % 4
        assert known[giver] == before[giver][giver]
        assert set(known) == set(before[s]) | {giver}
    # the receiver now holds it: a reveal makes the receiver publish the last share
    lb.each(lambda p: p.reveal("d", 1, [1]))
    last = None
    while lb.step():
        last = [m.seat for m in lb.sent[-1:]]
    assert last == [2]
    assert lb.observer.epoch("d", 1).public_cards() == {1: before[1][1]}


def test_reshuffled_pile_is_unknown_even_to_former_holders() -> None:
    lb = dealt_table()
    old = [0, 4, 8, 9]  # two cards seat 0 knew, two face-down cards
    _, new = lb.seats[0].epoch("d", 1).reshuffle(old)
    for p in lb.peers[1:]:
        p.epoch("d", 1).reshuffle(old)
    lb.run()
    for s in range(4):
        st = lb.seats[s].epoch("d", 1)
        assert not set(st.known_cards()) & set(new)
        assert all(st.knowers(h) == frozenset() for h in new)
    assert set(lb.observer.epoch("d", 1).live_handles()) == (set(range(12)) - set(old)) | set(new)
    lb.each(lambda p: p.audit("d", 1, [*old, *new]))  # retired handles open too
    lb.run()
    audit = lb.observer.epoch("d", 1).audit_result()
    assert sorted(audit[h] for h in new) == sorted(audit[h] for h in old)
