"""A catch-up answer sends only what the asker lacks (issue 32, item 7; PROTOCOL §10): the request
names, per step, the seats whose messages the asker stores and their digests, and the answer
leaves those out, unless its own version of one of them differs (an equivocation the asker must
see). Sans-I/O: sessions of the table harness, a `SyncServer`, the request through its wire."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

from p2ptarot.peer.catchup import CatchUp, SyncServer
from p2ptarot.table.control import SyncFrame, parse_control
from p2ptarot.table.digest import HAVE_DIGEST, have_digests, have_entries, held_by_asker
from p2ptarot.table import canonical
from p2ptarot.table.envelope import parse
from p2ptarot.table.session import Session
from tests.table.harness import Gossip, Table


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _wire(frame: SyncFrame) -> SyncFrame:
    """The request as the answerer parses it off the link."""
    got = parse_control(json.loads(frame.wire()))
    assert isinstance(got, SyncFrame)
    return got


def _scattered(game: str, seats: int, seed: int, rng: random.Random, upto: int) -> Table:
    """A table played until seat 0 reaches step `upto`, every message delivered in a random
    order and a third of those to the other seats held back (they lack them), digests and
    resends lost, so the seats hold different parts of the recent steps."""
    t = Table(game, seats, seed=seed, shuffle_seed=seed)
    t.relay = False
    for k, s in enumerate(t.sessions):
        t.handle(k, s.start())
    held: list[tuple[int, Any]] = []
    while t.queue and t.sessions[0].step < upto:
        items = list(t.queue)
        t.queue.clear()
        rng.shuffle(items)
        for j, item in items:
            if j > 0 and not isinstance(item, Gossip) and rng.random() < 0.33:
                held.append((j, item))
            else:
                t.queue.append((j, item))
        if not t.queue:
            t.queue.extend(held)
            held.clear()
        while t.queue:
            t.deliver(*t.queue.popleft())
            if t.sessions[0].step >= upto:
                break
    return t


def _step_of_several(s: Session) -> int:
    """The last step before `s`'s current one with messages of several seats (the next stored)."""
    stored = dict(s.intake.stored_steps(0, s.step))
    return next(st for st in range(s.step - 1, -1, -1)
                if len(stored.get(st, {})) >= 2 and stored.get(st + 1))


def _answer(answerer: Session, asker: Session, step: int, with_have: bool = True) -> list[bytes]:
    catch = CatchUp(have=asker.have if with_have else None)
    request = _wire(catch.ask(step))
    server = SyncServer(clock=Clock())
    return server.answer(b"a" * 32, lambda: answerer.messages_from(request.step), request.step,
                         request.have)


@pytest.mark.parametrize(("game", "seats", "seed"), [("paris-divins", 4, 41),
                                                     ("sinople", 3, 42)])
def test_an_answer_never_sends_what_the_asker_declared_and_sends_all_it_lacks(
        game: str, seats: int, seed: int) -> None:
    rng = random.Random(seed)
    t = _scattered(game, seats, seed, rng, upto=12)
    checked = 0
    for a, asker in enumerate(t.sessions):
        for b, answerer in enumerate(t.sessions):
            if a == b:
                continue
            for step in (asker.step, max(0, asker.step - 3)):  # a request, a deep one
                declared = {(st, se): env.encoded() for st, by_seat in
                            asker.intake.stored_steps(step, step + 64)
                            for se, env in by_seat.items()}
                sent = _answer(answerer, asker, step)
                for data in sent:
                    env = parse(data)
                    assert declared.get((env.step, env.seat)) != data, (a, b, env.step, env.seat)
                # everything the answerer holds from `step` on that the asker does not is sent
                lacking = {e.encoded() for e in answerer.messages_from(step)
                           if (e.step, e.seat) not in declared}
                assert lacking <= set(sent), (a, b, step)
                # without `have` (an older peer) the answer is the whole window, as before
                everything = _answer(answerer, asker, step, with_have=False)
                assert set(sent) <= set(everything)
                checked += len(everything) - len(sent)
    assert checked > 0  # some answers did leave messages out


def test_another_version_of_a_declared_message_is_sent() -> None:
    """The asker names (step, seat) with a digest its peer's version does not have: that version
    is sent (the asker then holds both, the equivocation); what it named rightly is not."""
    t = _scattered("sinople", 3, 43, random.Random(43), upto=10)
    answerer = t.sessions[0]
    step = _step_of_several(answerer)
    by_step = dict(answerer.intake.stored_steps(step, step + 1))

    @dataclass
    class Twin:
        value: bytes

        def digest(self) -> bytes:
            return self.value

    twin: dict[int, Any] = dict(by_step[step])
    seat = min(twin)
    twin[seat] = Twin(bytes(32))  # the asker's version of that message is another one
    have = have_entries([(step, twin), (step + 1, by_step[step + 1])])
    request = _wire(SyncFrame(step=step, have=have))
    frames = SyncServer(clock=Clock()).answer(b"a" * 32, lambda: answerer.messages_from(step),
                                              step, request.have)
    got = {(parse(d).step, parse(d).seat) for d in frames}
    assert (step, seat) in got  # the other version
    assert not {(step, s) for s in by_step[step] if s != seat} & got  # named rightly: left out
    assert not {(step + 1, s) for s in by_step[step + 1]} & got


def test_seats_the_answerer_lacks_or_holds_beyond_the_request_are_handled_per_seat() -> None:
    """The asker names a seat the answerer lacks (nothing to send for it) and the answerer holds
    one the asker did not name (sent): each seat is judged by its own digest."""
    t = _scattered("sinople", 3, 44, random.Random(44), upto=10)
    answerer = t.sessions[0]
    step = _step_of_several(answerer)
    mine = dict(answerer.intake.stored_steps(step, step))
    present = sorted(mine[step])
    absent = next(s for s in range(12) if s not in present)
    named = {present[0]: mine[step][present[0]], absent: mine[step][present[1]]}
    mask = sum(1 << s for s in named)
    assert held_by_asker([(step, mask, have_digests(named, mask))], mine) == {(step, present[0])}


def test_sync_have_is_checked_strictly() -> None:
    good = [[3, 5, "A" * 43]]  # two seats, 32 bytes
    assert parse_control({"ctl": "sync", "step": 3, "have": good}) == SyncFrame(
        step=3, have=[(3, 5, "A" * 43)])
    assert parse_control({"ctl": "sync", "step": 3, "have": []}) == SyncFrame(step=3, have=[])
    for bad in ([[3, 0, "A" * 43]], [[3, 1 << 12, "A" * 43]], [[3, True, "A" * 43]],
                [[True, 1, "A" * 43]], [["3", 1, "A" * 43]], [[3, 1, "A" * 42]],
                [[3, 1, "!" * 43]], [[3, 1]], [[3, 1, "A" * 43, 4]], [[-1, 1, "A" * 43]],
                [[3, 1, "A" * 43]], [[3, 7, "A" * 43]], [[3, 1, "B" * 22]],
                "x", {"3": 1}, [[3, 1, "A" * 43]] * 67, [None]):
        assert parse_control({"ctl": "sync", "step": 3, "have": bad}) is None, bad
    # the wire form: absent when there is nothing, sorted keys otherwise
    assert SyncFrame(step=7).wire() == b'{"ctl":"sync","step":7}'
    assert SyncFrame(step=7, have=[(7, 3, "A" * 43)]).wire() == (
        b'{"ctl":"sync","have":[[7,3,"' + b"A" * 43 + b'"]],"step":7}')


def test_a_request_names_at_most_a_window_of_steps_and_only_stored_ones() -> None:
    t = _scattered("sinople", 3, 45, random.Random(45), upto=10)
    s = t.sessions[1]
    have = s.have(0)
    assert have and len(have) <= 66
    assert [h[0] for h in have] == sorted(h[0] for h in have)
    for step, mask, digest in have:
        by_seat = dict(s.intake.stored_steps(step, step))[step]
        assert mask == sum(1 << seat for seat in by_seat)
        assert digest == have_digests(by_seat, mask)
        assert len(canonical.unb64(digest)) == HAVE_DIGEST * len(by_seat)
