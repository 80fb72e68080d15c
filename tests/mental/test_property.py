"""Random sequences of deck operations: every seat's knowledge matches an omniscient model."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .support import Loopback
from p2ptarot.mental import Transfer

CARDS = [f"c{i}" for i in range(6)]


class Model:
    """Who may know each handle, tracked from the operations alone (no cryptography)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.live = list(range(len(CARDS)))
        self.next = len(CARDS)
        self.knowers: dict[int, set[int]] = {h: set() for h in self.live}
        self.opened: set[int] = set()
        self.public: set[int] = set()


def _op(data: st.DataObject, lb: Loopback, m: Model) -> None:
    """Draw one operation, queue it on every peer, update the model."""
    kinds = ["deal", "reveal", "reshuffle"]
    if any(m.knowers[h] for h in m.live):
        kinds += ["show", "give"]
    kind = data.draw(st.sampled_from(kinds), label="op")
    if kind == "deal":
        fresh = [h for h in m.live if h not in m.opened]
        if not fresh:
            return
        hs = data.draw(st.lists(st.sampled_from(fresh), min_size=1, unique=True), label="deal")
        to = {h: data.draw(st.integers(0, m.n - 1), label="to") for h in hs}
        lb.each(lambda p: p.deal("d", 1, to))
        for h, s in to.items():
            m.knowers[h].add(s)
            m.opened.add(h)
    elif kind == "reveal":
        hs = data.draw(st.lists(st.sampled_from(m.live), min_size=1, unique=True), label="rev")
        lb.each(lambda p: p.reveal("d", 1, hs))
        for h in hs:
            m.knowers[h] = set(range(m.n))
            m.opened.add(h)
            m.public.add(h)
    elif kind == "reshuffle":
        hs = data.draw(st.lists(st.sampled_from(m.live), min_size=1, unique=True), label="pile")
        (result,) = set(lb.each(lambda p: p.reshuffle("d", 1, hs)))
        _, new = result
        assert new == tuple(range(m.next, m.next + len(hs)))
        m.next += len(hs)
        m.live = [h for h in m.live if h not in hs] + list(new)
        for h in new:
            m.knowers[h] = set()
    else:
        held = [h for h in m.live if m.knowers[h]]
        h = data.draw(st.sampled_from(held), label="handle")
        holder = data.draw(st.sampled_from(sorted(m.knowers[h])), label="holder")
        to = data.draw(st.sampled_from([s for s in range(m.n) if s != holder]), label="to")
        t = [Transfer(h, holder, to)]
        lb.each(lambda p: p.give("d", 1, t) if kind == "give" else p.show("d", 1, t))
        m.knowers[h].add(to)
        m.opened.add(h)


def _check(lb: Loopback, m: Model) -> None:
    for s in range(m.n):
        st_ = lb.seats[s].epoch("d", 1)
        assert set(st_.known_cards()) == {h for h, k in m.knowers.items() if s in k}
        for h, k in m.knowers.items():
            assert st_.knowers(h) == frozenset(k)
    # all seats knowing a card privately (e.g. dealt then shown) is not the same as public
    assert set(lb.observer.epoch("d", 1).public_cards()) == m.public
    # two seats that know a handle agree on its card
    seen: dict[int, str] = {}
    for s in range(m.n):
        for h, c in lb.seats[s].epoch("d", 1).known_cards().items():
            assert seen.setdefault(h, c) == c


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 4), seed=st.integers(0, 2**16), data=st.data())
def test_random_operation_sequences(n: int, seed: int, data: st.DataObject) -> None:
    lb = Loopback(n, seed=seed)
    lb.open("d", 1, CARDS)
    m = Model(n)
    for _ in range(data.draw(st.integers(1, 6), label="rounds")):
        for _ in range(data.draw(st.integers(1, 3), label="queued")):
            _op(data, lb, m)
        lb.run()
        _check(lb, m)
    everything = range(len(lb.observer.epoch("d", 1).handles))
    lb.each(lambda p: p.audit("d", 1, everything))  # open every handle, live or retired
    lb.run()
    truth = lb.observer.epoch("d", 1).audit_result()
    assert sorted(truth[h] for h in m.live) == CARDS
    for s in range(n):
        assert lb.seats[s].epoch("d", 1).audit_result() == truth
        # everything a seat learnt during play agrees with the audit
        assert all(truth[h] == c for h, c in lb.seats[s].epoch("d", 1)._known.items())
