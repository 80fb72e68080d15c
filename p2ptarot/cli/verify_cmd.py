"""`p2ptarot verify FILE` and `p2ptarot replay FILE`: offline checks of a transcript."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from p2ptarot.net.store import read_transcript
from p2ptarot.table.envelope import parse
from p2ptarot.transcript import Transcript, TranscriptError, verify_transcript

from p2ptarot.present import describe_move

EXIT_INVALID = 1
EXIT_UNREADABLE = 2


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    v = subparsers.add_parser("verify", help="check a transcript offline",
                              description="Replay a transcript with the rules engine and every "
                                          "cryptographic check. Exit 0 when valid, 1 on the first "
                                          "violation, 2 when the file cannot be read.")
    v.add_argument("file", type=Path)
    v.add_argument("--json", action="store_true", help="print one JSON object")
    v.set_defaults(run=run_verify, prog=v.prog)
    r = subparsers.add_parser("replay", help="show a finished game move by move, with every card")
    r.add_argument("file", type=Path)
    r.set_defaults(run=run_replay, prog=r.prog)


def _load(args: argparse.Namespace) -> Transcript | None:
    """The transcript named on the command line, or None after saying why it cannot be read."""
    try:
        return read_transcript(args.file)
    except TranscriptError as exc:
        print(f"{args.prog}: {exc}", file=sys.stderr)
        return None


def run_verify(args: argparse.Namespace) -> int:
    transcript = _load(args)
    if transcript is None:
        return EXIT_UNREADABLE
    verdict = verify_transcript(transcript)
    if args.json:
        print(json.dumps(verdict.to_json(), sort_keys=True))
    elif verdict.valid:
        assert verdict.outcome is not None
        print(f"valid: {verdict.steps} steps, {transcript.charter.charter.game} for "
              f"{len(transcript.charter.charter.seats)}; scores {verdict.outcome['scores']}, "
              f"winners {verdict.outcome['winners']}")
    else:
        seats = transcript.charter.charter.seats
        who = (f"seat {verdict.seat} ({seats[verdict.seat].name})"
               if verdict.seat is not None and 0 <= verdict.seat < len(seats) else "no seat")
        print(f"INVALID at step {verdict.step}, {who}: {verdict.reason}")
        if verdict.step is not None and verdict.steps > verdict.step:
            print(f"  detected while replaying step {verdict.steps}")
        for record in verdict.aborted_by_players:
            print(f"  seat {record.get('by')} aborted the game at the table, blaming seat "
                  f"{record.get('blame')}: {record.get('reason')}")
    return 0 if verdict.valid else EXIT_INVALID


def run_replay(args: argparse.Namespace) -> int:
    """Replay for people: every move with its card, after the audit opened everything."""
    transcript = _load(args)
    if transcript is None:
        return EXIT_UNREADABLE
    verdict = verify_transcript(transcript)
    charter = transcript.charter.charter
    names = [s.name for s in charter.seats]
    print(f"{charter.game} — {', '.join(f'seat {i}: {n}' for i, n in enumerate(names))}")
    from p2ptarot.table.session import Session  # local: only replay needs a second pass
    session = Session(transcript.charter, seat=None)
    session.start()
    shown = 0
    for line in transcript.messages:
        env = parse(line)
        if env.kind == "move":
            try:
                said = describe_move(env.body["move"], session.game.view(None))
            except (KeyError, TypeError, ValueError):  # a malformed move: the verdict says why
                said = json.dumps(env.body.get("move"), sort_keys=True)
            print(f"  step {env.step:>5}  {names[env.seat]:<12} {said}")
            shown += 1
        elif env.kind == "coin.open" and env.seat == 0:
            print(f"  step {env.step:>5}  joint draw opened ({env.body['purpose']})")
        elif env.kind == "abort":
            print(f"  abort by {names[env.seat]}: seat {env.body['blame']} blamed: {env.body['reason']}")
        session.receive(line)
    if verdict.valid and verdict.outcome:
        detail = verdict.outcome.get("detail", {})
        for i, rnd in enumerate(detail.get("rounds", []), start=1):
            if "figure" in rnd:  # sinople
                print(f"  round {rnd.get('round')}: figure {rnd.get('figure')}, points "
                      f"{rnd.get('points')}, winner {rnd.get('winner')}")
            else:  # arcanoid: field -> winning seat
                print(f"  round {i}: " + ", ".join(f"{f} to {names[w]}" for f, w in rnd.items()))
        print(f"final scores {verdict.outcome['scores']}, winners "
              f"{[names[w] for w in verdict.outcome['winners']]}")
        return 0
    print(f"transcript INVALID at step {verdict.step}, seat {verdict.seat}: {verdict.reason}")
    return EXIT_INVALID
