"""Fuzzing a seated peer and the verifier with mutated real envelopes (issue 9): bit flips,
truncations, wrong types, huge integers, deep nesting, lone surrogates, garbage, and messages a
seated cheater re-signs with its own key. Zero uncaught exceptions; unsigned mutants change
nothing (the game still ends with the same outcome); a re-signed mutant can only get its own
signer blamed (or nobody: an abort record proving nothing ends the game without a conviction). `benchmarks/fuzz.py` runs the same mutators for 10^5+ messages."""

from __future__ import annotations

import random
from pathlib import Path

from fuzz_mutate import Mutator

from p2ptarot.cli.main import main
from p2ptarot.table.effects import Aborted, Notice
from p2ptarot.table.envelope import parse
from p2ptarot.table.session import MAX_STEPS_AHEAD, Session
from p2ptarot.transcript import Transcript, Verdict, verify_transcript
from p2ptarot.transcript.format import header_line

SEAT = 0  # the honest peer under test; seats 1 and 2 are the cheaters


def seated_at(game, cut: int) -> tuple[Session, list[bytes]]:
    """Seat 0 resumed at line `cut` of its log (its own later messages preloaded, as its outbox
    would be); returns it and the other seats' lines still to come."""
    lines = game.records[SEAT]
    own = [x for x in lines[cut:] if parse(x).seat == SEAT]
    rest = [x for x in lines[cut:] if parse(x).seat != SEAT]
    session = Session(game.signed, SEAT, game.ids[SEAT], game.seeds[SEAT])
    session.load(lines[:cut] + own)
    assert session.aborted is None
    return session, rest


def test_unsigned_mutants_change_nothing(arcanoid3) -> None:
    rng = random.Random(1)
    lines = arcanoid3.records[SEAT]
    cut = len(lines) // 3
    session, rest = seated_at(arcanoid3, cut)
    mutator = Mutator(rng, lines[max(0, cut - 10):cut + 20], {})
    seen = set()
    for _ in range(1000):
        name, data = mutator.unsigned()
        seen.add(name)
        effects = session.receive(data)
        assert not any(isinstance(e, Aborted) for e in effects), name
    assert seen == {op.__name__ for op in mutator.unsigned_ops}
    for line in rest:
        session.receive(line)
    assert session.aborted is None
    assert session.outcome is not None and session.outcome == arcanoid3.finished[SEAT].outcome


def test_resigned_mutants_blame_only_their_signer(arcanoid3) -> None:
    rng = random.Random(2)
    lines = arcanoid3.records[SEAT]
    cheaters = {1: arcanoid3.ids[1], 2: arcanoid3.ids[2]}
    blamed = 0
    for _ in range(6):
        cut = rng.randrange(0, 120)
        session, rest = seated_at(arcanoid3, cut)
        mutator = Mutator(rng, lines[max(0, cut - 6):cut + 12], cheaters)
        for _ in range(40):
            made = mutator.resigned()
            assert made is not None
            session.receive(made[1])
            if session.aborted is not None:
                assert session.aborted.blame in (*cheaters, None), (made[0], session.aborted)
                blamed += 1
                break
        for line in rest[:30]:  # the peer goes on taking input without raising
            session.receive(line)
        assert session.aborted is None or session.aborted.blame in (*cheaters, None)
    assert blamed >= 3  # the mutants do reach the checks behind the signature


def test_verifier_gives_a_verdict_for_every_mutant(arcanoid3, tmp_path: Path, capsys) -> None:
    rng = random.Random(3)
    lines = arcanoid3.records[SEAT]
    mutator = Mutator(rng, lines, {1: arcanoid3.ids[1], 2: arcanoid3.ids[2]})
    for trial in range(8):
        cut = rng.randrange(1, 70)
        if trial % 2:
            made = mutator.resigned()
            assert made is not None
            mutant = made[1]
        else:
            mutant = mutator.unsigned(lines[cut])[1]
        body = lines[:cut] + [mutant] + lines[cut + 1:cut + 3]
        verdict = verify_transcript(Transcript(arcanoid3.signed, body))
        assert isinstance(verdict, Verdict) and not verdict.valid
        if trial < 4:  # and the command line says so, without a traceback
            path = tmp_path / f"m{trial}.jsonl"
            path.write_bytes(b"\n".join([header_line(arcanoid3.signed)] + body) + b"\n")
            assert main(["verify", str(path)]) == 1
            assert capsys.readouterr().out.startswith("INVALID at step ")


def test_genuine_messages_early_then_again_never_hang(arcanoid3) -> None:
    """Genuine messages delivered far too early among unsigned mutants (a relay or a catch-up
    racing ahead), then every message again in order: the peer finishes with the same outcome
    every time (issue 21, item 3: a dropped early message stayed "seen" and the session hung)."""
    rng = random.Random(4)
    lines = arcanoid3.records[SEAT]
    for trial in range(4):
        cut = rng.randrange(0, len(lines) // 2)
        session, rest = seated_at(arcanoid3, cut)
        mutator = Mutator(rng, lines[max(0, cut - 10):cut + 20], {})
        early = [x for x in rest if parse(x).step > session.step + MAX_STEPS_AHEAD]
        assert early, "the game is long enough to have messages beyond the window"
        dropped = 0
        for line in rng.sample(early, min(len(early), 30)):
            effects = session.receive(line)
            dropped += any(isinstance(e, Notice) and "too far ahead" in e.text for e in effects)
            session.receive(mutator.unsigned()[1])
        assert dropped > 0
        for line in rest:
            session.receive(line)
        assert session.aborted is None, (trial, session.aborted)
        assert session.outcome == arcanoid3.finished[SEAT].outcome, trial
