"""A seat computes its shuffle while it checks its predecessor's (mental/ahead.py): the same decks
as without, a bad predecessor convicted exactly as before, and nothing computed on an input that
failed its check is ever used."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from concurrent.futures import Future

import pytest

from .support import Loopback
from p2ptarot.crypto.elgamal import Ciphertext
from p2ptarot.mental import MentalViolation, ShuffleMessage, ahead
from p2ptarot.mental.epoch import DeckEpoch

CARDS = [f"c{i}" for i in range(12)]


@pytest.fixture
def spied(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[list[Ciphertext], Future]]]:
    """Switch computing ahead on for the test; record every shuffle started on a worker thread
    (its input list and its future)."""
    started: list[tuple[list[Ciphertext], Future]] = []
    real = ahead.shuffle_and_prove

    def spy(stage, perm, rands, H, context, *, on_thread=False):  # type: ignore[no-untyped-def]
        done = real(stage, perm, rands, H, context, on_thread=on_thread)
        if on_thread:
            started.append((stage, done))
        return done

    monkeypatch.setattr(ahead, "shuffle_and_prove", spy)
    ahead.enable()
    try:
        yield started
    finally:
        ahead.enable(False)


def _deal(seed: int) -> Loopback:
    lb = Loopback(4, seed=seed)
    lb.open("d", 1, CARDS)
    lb.each(lambda p: p.deal("d", 1, {h: h % 4 for h in range(8)}))
    lb.run()
    return lb


def _decks(lb: Loopback) -> list[tuple[int, tuple[Ciphertext, ...]]]:
    return [(m.seat, m.ciphertexts) for m in lb.sent if isinstance(m, ShuffleMessage)]


def test_seats_send_the_shuffles_made_ahead_and_the_same_decks_as_without(
        spied: list[tuple[list[Ciphertext], Future]]) -> None:
    ahead.enable(False)
    plain = _deal(seed=5)
    assert not spied
    ahead.enable()
    fast = _deal(seed=5)
    started = spied
    # seats 1, 2 and 3 each started theirs while checking the one before (seat 0 has none before)
    assert len(started) == 3
    sent = _decks(fast)
    assert [s for s, _ in sent] == [0, 1, 2, 3]
    for (stage, done), (seat, cts) in zip(started, sent[1:]):
        assert list(cts) == done.result()[0]  # what was sent is what was computed ahead
        assert stage == list(sent[seat - 1][1])  # on the predecessor's output
    # the same permutations and factors, drawn in the same order: the same decks as without
    assert sent == _decks(plain)
    # every seat and the observer checked every proof and learnt the same cards
    assert all(p.epoch("d", 1).idle for p in fast.peers)
    for s in range(4):
        assert fast.seats[s].epoch("d", 1).known_cards() == plain.seats[s].epoch("d", 1).known_cards()


def test_a_bad_predecessor_is_convicted_and_the_work_on_its_deck_dropped(
        spied: list[tuple[list[Ciphertext], Future]]) -> None:
    lb = Loopback(3, seed=2)
    lb.open("d", 1, CARDS)
    while not any(e.kind == ShuffleMessage.KIND and e.seat == 1 for e in lb.seats[0].expected()):
        assert lb.step()
    (honest,) = lb.seats[1].outgoing()  # seat 1's shuffle, made ahead while it checked seat 0's
    assert isinstance(honest, ShuffleMessage)
    c = list(honest.ciphertexts)
    c[0], c[1] = c[1], c[0]
    forged = dataclasses.replace(honest, ciphertexts=tuple(c))
    seat2 = lb.seats[2].epoch("d", 1)
    before = lb.seats[2].expected()
    started = len(spied)
    with pytest.raises(MentalViolation) as info:
        lb.seats[2].receive_dict(1, json.loads(json.dumps(forged.to_dict())))
    assert info.value.seat == 1 and "shuffle proof rejected" in info.value.reason
    # seat 2 did start its own shuffle of the forged deck, and kept none of it
    assert len(spied) == started + 1 and spied[-1][0] == c
    assert seat2._ahead is None
    assert lb.seats[2].expected() == before and lb.seats[2].outgoing() == []
    # the honest message then goes through; seat 2 shuffles the checked deck, not the forged one
    for i, p in enumerate(lb.peers):
        if i != 1:
            p.receive_dict(1, json.loads(json.dumps(honest.to_dict())))
        else:
            p.receive(1, honest)
    (mine,) = lb.seats[2].outgoing()
    assert isinstance(mine, ShuffleMessage)
    assert list(mine.ciphertexts) == spied[-1][1].result()[0]
    assert spied[-1][0] == list(honest.ciphertexts)
    lb.sent.append(honest)
    lb.run()  # every peer and the observer check seat 2's shuffle against the honest deck
    assert all(p.epoch("d", 1).idle for p in lb.peers)


def test_work_made_for_another_input_is_never_used(
        spied: list[tuple[list[Ciphertext], Future]]) -> None:
    """`make` takes the work only for the very list that passed its check."""
    lb = Loopback(3, seed=4)
    lb.open("d", 1, CARDS)
    while not any(e.seat == 2 and e.kind == ShuffleMessage.KIND for e in lb.seats[0].expected()):
        assert lb.step()
    ep: DeckEpoch = lb.seats[2].epoch("d", 1)
    assert ep._ahead is not None
    index, stage, done = ep._ahead
    ep._ahead = (index, list(stage), done)  # an equal list, but not the one checked
    (mine,) = lb.seats[2].outgoing()
    assert isinstance(mine, ShuffleMessage)
    assert list(mine.ciphertexts) != done.result()[0]  # made anew on the checked input
    lb.run()
    assert all(p.epoch("d", 1).idle for p in lb.peers)
