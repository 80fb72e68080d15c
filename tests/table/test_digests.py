"""Digests instead of relays (issue 21, item 4; PROTOCOL §8): peers name what they store by hash
and send a body only when asked or when a digest names another version of it. Both versions of
an equivocated message still meet at every honest peer, a lost message is fetched from a peer
that has it, and a clean game sends every message once to each peer."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from tests.table.helpers import resign
from tests.table.harness import Table

from p2ptarot.table import canonical
from p2ptarot.table.digest import MAX_HEADS, make_frame
from p2ptarot.table.effects import Aborted, DigestTo, Effect, Forward, Notice, ResendTo
from p2ptarot.table.envelope import Envelope, parse

CHEAT = 2


def _counting(t: Table) -> Counter[str]:
    """Count the effects every session hands the harness, by type."""
    seen: Counter[str] = Counter()
    handle = t.handle

    def counted(k: int, effects: list[Effect]) -> None:
        effects = list(effects)
        seen.update(type(e).__name__ for e in effects)
        seen["forwarded step messages"] += sum(isinstance(e, Forward) and e.envelope.kind != "abort"
                                               for e in effects)
        handle(k, effects)
    t.handle = counted  # type: ignore[method-assign]
    return seen


#: a short whole game (Les paris divins: a deal, blind wagers, the audit) where a whole game is
#: played: the digests and resends do not depend on the game
SHORT = "paris-divins"


def test_a_clean_game_sends_every_message_once_to_each_peer() -> None:
    t = Table(SHORT, 3, seed=31, shuffle_seed=31)
    seen = _counting(t)
    t.run()
    assert all(f is not None for f in t.finished) and t.aborted == [None] * 3
    assert seen["DigestTo"] == seen["ResendTo"] == seen["Forward"] == 0
    unique = {line for lines in t.records for line in lines}
    assert seen["Send"] == len(unique)  # each sent once, to the two other seats by `handle`


def test_a_lost_message_is_fetched_from_a_peer_that_has_it() -> None:
    """Seat 2's messages to seat 1 are lost for a stretch: seat 1 asks seat 0, which completed
    the step and signed the next one, and the game finishes everywhere (no relay, no timeout)."""
    t = Table(SHORT, 3, seed=32, shuffle_seed=32)
    lost: list[int] = []

    def drop(k: int, env: Envelope, data: bytes, to: int) -> bytes:
        if k == CHEAT and to == 1 and 10 <= env.step < 30:
            lost.append(env.step)
            return b"{}"  # garbage in its place: seat 1 drops it
        return data
    t.split = drop
    seen = _counting(t)
    t.run()
    assert lost and all(f is not None for f in t.finished), t.aborted
    assert len({f.outcome.to_json().__repr__() for f in t.finished if f}) == 1
    assert seen["ResendTo"] >= len(set(lost))  # each lost body came back once, on demand
    assert seen["forwarded step messages"] == 0


def test_a_split_play_is_caught_by_digests_at_every_honest_peer() -> None:
    """Seat 2 signs two legal plays for one move, one for seat 1, the other for seat 0; no body
    is relayed, yet both honest peers convict seat 2 of equivocation, on that very step."""
    # a fixed deal (test_verdicts' split view has the same): under a random one the other card
    # is sometimes one seat 2 could not play, and the audit convicts seat 2 of that illegal play
    # before the digests show the equivocation
    t = Table("sinople", 3, seed=22, shuffle_seed=1)
    twins: list[bytes] = []

    def split(k: int, env: Envelope, data: bytes, to: int) -> bytes:
        if k != CHEAT or to != 1 or (twins and parse(twins[0]).step != env.step):
            return data
        if not twins and env.kind == "move" and env.body["move"]["kind"] == "play":
            other = next((m.to_json() for m in t.sessions[k].game.legal_moves(k)
                          if m.to_json() != env.body["move"]), None)
            if other is not None:
                twins.append(resign(t.ids[k], env, body={**env.body, "move": other}))
        return twins[0] if twins else data
    t.split = split
    seen = _counting(t)
    t.run()
    assert twins and seen["DigestTo"] > 0 and seen["forwarded step messages"] == 0
    for k in (0, 1):
        aborted = t.aborted[k]
        assert isinstance(aborted, Aborted) and aborted.blame == CHEAT, (k, aborted)
        assert "equivocation" in aborted.reason and aborted.step == parse(twins[0]).step


def _midgame(seed: int) -> tuple[Table, int]:
    """A table played to a third of its game (steps of every seat held and logged)."""
    t = Table("sinople", 3, seed=seed, shuffle_seed=seed)
    for k, s in enumerate(t.sessions):
        t.handle(k, s.start())
    while t.queue and t.sessions[0].step < 30:
        t.deliver(*t.queue.popleft())
    return t, t.sessions[0].step


def test_a_digest_draws_each_body_at_most_once_per_peer() -> None:
    t, step = _midgame(34)
    s = t.sessions[0]
    fake = [(st, se, bytes(32)) for st in range(step - 5, step) for se in range(3)]
    frame = make_frame(step, s.chain, fake, [(step - 1, 1)])
    first = s.receive_digest(1, frame)
    resent = [e.envelope for e in first if isinstance(e, ResendTo)]
    stored = {(st, se) for st, se, _ in fake if s.intake.stored(st, se) is not None}
    assert stored and sorted((e.step, e.seat) for e in resent) == sorted(stored)  # each once
    assert not [e for e in s.receive_digest(1, frame) if isinstance(e, ResendTo)]  # asked again
    assert [e for e in s.receive_digest(2, frame) if isinstance(e, ResendTo)]  # another peer


def test_a_digest_naming_the_same_versions_draws_nothing() -> None:
    t, step = _midgame(35)
    s = t.sessions[0]
    heads = [(st, se, env.digest()) for st in range(step - 5, step) for se in range(3)
             if (env := s.intake.stored(st, se)) is not None]
    effects = s.receive_digest(1, make_frame(step, s.chain, heads, []))
    assert effects == []


def test_hostile_digest_frames_are_dropped_without_an_exception() -> None:
    t, step = _midgame(36)
    s = t.sessions[0]
    good = make_frame(step, s.chain, [], [])
    rng = random.Random(5)
    odd: list[Any] = [None, True, -1, 2**70, "x", [], {}, [[1]], [[1, 2, 3, 4]], [["1", 2]],
                      [[True, 1]], [[1, 99]], "A" * 42, [[1, 2, "!" * 43]]]
    bad: list[Any] = [None, [], "digest", {**good, "ctl": "sync"}, {**good, "extra": 1},
                      {k: v for k, v in good.items() if k != "want"},
                      {**good, "heads": [[0, 0, "A" * 43]] * (MAX_HEADS + 1)}]
    for _ in range(200):
        key = rng.choice(["step", "chain", "heads", "want"])
        bad.append({**good, key: rng.choice(odd)})
    for frame in bad:
        effects = s.receive_digest(1, frame)
        assert [type(e) for e in effects] in ([Notice], []), frame
    assert not s.finished
    for frame in (good, {**good, "want": [[step, 0]]}):
        for sender in (-1, 0, 3, 99):  # not a seat, or this seat itself: ignored
            assert s.receive_digest(sender, frame) == []


def test_a_digest_from_another_history_draws_this_seats_heads() -> None:
    """A peer at the same step on another chain gets this seat's heads since they agreed."""
    t, step = _midgame(37)
    s = t.sessions[0]
    frame = make_frame(step, bytes(32), [], [])
    effects = s.receive_digest(2, frame)
    shown = [e for e in effects if isinstance(e, DigestTo)]
    assert len(shown) == 1 and shown[0].seat == 2 and shown[0].frame["heads"]
    assert shown[0].frame["chain"] == canonical.b64(s.chain)
    assert s.receive_digest(2, frame) == []  # once per step and peer
