"""`p2ptarot verify FILE` and `p2ptarot replay FILE`: offline checks of a transcript."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from p2ptarot.app.replay import frames
from p2ptarot.crypto.shuffle import use_second_core
from p2ptarot.i18n import _, ngettext
from p2ptarot.i18n.message import render as say
from p2ptarot.peer.store import read_transcript
from p2ptarot.present.seats import name_seats
from p2ptarot.table.envelope import EnvelopeError, parse
from p2ptarot.table.names import printable
from p2ptarot.transcript import Transcript, TranscriptError, Verdict, verify_transcript

from .text_table import table

EXIT_INVALID = 1
EXIT_UNREADABLE = 2


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    v = subparsers.add_parser("verify", help=_("check a transcript offline"),
                              description=_("Replay a transcript with the rules engine and every "
                                          "cryptographic check. Exit 0 when valid, 1 on the first "
                                          "violation, 2 when the file cannot be read."))
    v.add_argument("file", type=Path)
    v.add_argument("--json", action="store_true",
                   help=_("print one JSON object (the verdict), whatever the exit code"))
    v.set_defaults(run=run_verify, prog=v.prog)
    r = subparsers.add_parser("replay", help=_("show a finished game move by move, with every card"))
    r.add_argument("file", type=Path)
    r.set_defaults(run=run_replay, prog=r.prog)


def _verified(args: argparse.Namespace) -> tuple[Transcript, Verdict] | None:
    """The transcript named on the command line and the verifier's verdict on it; None after one
    line on stderr (and, with `--json`, the JSON verdict on stdout) when the file cannot be read
    or the verifier failed on it.

    Every hostile input the verifier knows of is a verdict; this is the last line of defence, so
    a file that trips an unknown bug gets a sentence and exit 2, not a traceback."""
    try:
        transcript = read_transcript(args.file)
    except TranscriptError as exc:
        print(f"{args.prog}: {printable(say(exc), 1000)}", file=sys.stderr)
        _unreadable_json(args, "not-a-transcript", str(exc))
        return None
    try:
        return transcript, verify_transcript(transcript)
    except (Exception, RecursionError) as exc:  # noqa: BLE001 - the user gets a sentence
        print(_("{prog}: {file}: cannot be verified (verifier failure: {kind}: {error})").format(
            prog=args.prog, file=args.file, kind=type(exc).__name__, error=printable(exc, 300)),
            file=sys.stderr)
        _unreadable_json(args, "verifier-failure", f"{type(exc).__name__}: {printable(exc, 300)}")
        return None


def _unreadable_json(args: argparse.Namespace, kind: str, reason: str) -> None:
    """With `--json`, exit 2 prints a verdict too (PROTOCOL §9.2): the same keys as any other,
    no step and no seat (nothing was replayed), the reason in English as for every verdict."""
    if getattr(args, "json", False):
        print(json.dumps({"verdict": kind, "valid": False, "steps": 0, "outcome": None,
                          "violation": {"step": None, "seat": None,
                                        "reason": printable(reason, 1000), "evidence": []},
                          "findings": [], "aborted_by_players": [], "stand_in": []},
                         sort_keys=True))


def stand_in_summary(transcript: Transcript) -> list[dict[str, int]]:
    """Per seat whose moves its stand-in bot chose (their `by` marker): how many, first and last
    step. Informational: a seat's word about who chose its moves cannot be checked."""
    seats = transcript.charter.charter.seats
    steps: dict[int, list[int]] = {}
    for line in transcript.messages:
        try:
            env = parse(line)
        except EnvelopeError:
            break
        if env.kind in ("move", "move.open") and env.body.get("by") == "bot" \
                and 0 <= env.seat < len(seats):
            steps.setdefault(env.seat, []).append(env.step)
    return [{"seat": seat, "moves": len(marked), "first_step": marked[0], "last_step": marked[-1]}
            for seat, marked in sorted(steps.items())]


def stand_in_lines(transcript: Transcript) -> list[str]:
    """The stand-in summary for people (seats counted from 1, with their names)."""
    seats = transcript.charter.charter.seats
    return ["  " + ngettext(
        "stand-in: {moves} move of seat {n} ({name}) was played by its bot "
        "(steps {first} to {last}; the seat's own claim, not checkable)",
        "stand-in: {moves} moves of seat {n} ({name}) were played by its bot "
        "(steps {first} to {last}; the seat's own claim, not checkable)", s["moves"]).format(
                moves=s["moves"], n=s["seat"] + 1, name=printable(seats[s["seat"]].name, 40),
                first=s["first_step"], last=s["last_step"])
            for s in stand_in_summary(transcript)]


def _names(transcript: Transcript) -> list[str]:
    """The seats' names as the charter gives them, made printable."""
    return [printable(s.name, 40) for s in transcript.charter.charter.seats]


def _seat_name(names: list[str], seat: object, number_first: bool = False) -> str:
    """A seat as people count it, from 1, with its name: "Alice" (`number_first`: "1 (Alice)",
    for a sentence that says "seat" before it); a value from the file that is no seat index is
    shown as it came."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return f"{seat + 1} ({names[seat]})" if number_first else names[seat]
    return printable(seat, 20)


def run_verify(args: argparse.Namespace) -> int:
    use_second_core()  # this process has the machine: check shuffle proofs on two threads
    checked = _verified(args)
    if checked is None:
        return EXIT_UNREADABLE
    transcript, verdict = checked
    if args.json:
        print(json.dumps({**verdict.to_json(), "stand_in": stand_in_summary(transcript)},
                         sort_keys=True))
    elif verdict.valid:
        assert verdict.outcome is not None
        names = _names(transcript)
        scores = ", ".join(f"{_seat_name(names, i)} {score}"
                           for i, score in enumerate(verdict.outcome["scores"]))
        winners = ", ".join(_seat_name(names, w) for w in verdict.outcome["winners"]) or _("nobody")
        print(_("valid: {steps} steps, {game} for {seats}; scores {scores}, winners {winners}")
              .format(steps=verdict.steps, game=transcript.charter.charter.game,
                      seats=len(names), scores=scores, winners=winners))
        for line in stand_in_lines(transcript):
            print(line)
    else:
        names = _names(transcript)
        who = (_("seat {n} ({name})").format(n=verdict.seat + 1, name=names[verdict.seat])
               if verdict.seat is not None and 0 <= verdict.seat < len(names) else _("no seat"))
        # the evidence quoted in the reason is listed below, a line each, in the reader's language
        reason = verdict.cause
        print(_("INVALID at step {step}, {who}: {reason}").format(
            step=verdict.step, who=who, reason=printable(name_seats(say(reason), names))))
        if verdict.step is not None and verdict.steps > verdict.step:
            print("  " + _("detected while replaying step {n}").format(n=verdict.steps))
        for item in verdict.evidence:
            print("  " + _("evidence: seat {seat}'s signed {kind} message of step {step} (digest "
                           "{digest}), re-checked by this replay").format(
                seat=_seat_name(names, item["seat"], number_first=True), kind=item["kind"],
                step=item["step"], digest=item["digest"]))
        for record in verdict.aborted_by_players:  # what the players said, from the file: any type
            blame = record.get("blame")
            accused = (_("accusing nobody") if blame is None
                       else _("accusing seat {seat}").format(
                           seat=_seat_name(names, blame, number_first=True)))
            pieces = len(record.get("evidence") or [])
            print("  " + ngettext("seat {seat} stopped the game at the table (step {step}), "
                                  "{accused}: {reason} [{pieces} piece of evidence]",
                                  "seat {seat} stopped the game at the table (step {step}), "
                                  "{accused}: {reason} [{pieces} pieces of evidence]",
                                  pieces).format(
                seat=_seat_name(names, record.get("by"), number_first=True),
                step=printable(record.get("at"), 20), accused=accused,
                reason=printable(say(str(record.get("reason")))),  # their words, quoted as written
                pieces=pieces))
    if not args.json:
        names = _names(transcript)
        for f in verdict.findings:  # punished in play (an Eleusis void round): the game went on
            print("  " + ngettext(
                "fault found at step {step}, seat {seat} ({name}): {reason}; play went on "
                "[{pieces} piece of evidence, re-checked by this replay]",
                "fault found at step {step}, seat {seat} ({name}): {reason}; play went on "
                "[{pieces} pieces of evidence, re-checked by this replay]",
                len(f["evidence"])).format(
                step=f["step"], seat=f["seat"] + 1, name=names[f["seat"]],
                reason=printable(name_seats(say(f["reason"]), names)), pieces=len(f["evidence"])))
    return 0 if verdict.valid else EXIT_INVALID


def run_replay(args: argparse.Namespace) -> int:
    """Replay for people: every move with its player's name and its cards, a line for each trick
    won and each round over, the final standings as a table; exit 1 when the transcript is not
    valid (the moves up to the fault are still shown)."""
    checked = _verified(args)
    if checked is None:
        return EXIT_UNREADABLE
    transcript, verdict = checked
    charter = transcript.charter.charter
    names, moves = frames(transcript)
    print(f"{charter.game} — " + ", ".join(_("{name} (seat {n})").format(name=n, n=i + 1)
                                           for i, n in enumerate(names)))
    for f in moves:
        who = f"{f.name} [bot]" if f.by == "bot" else f.name  # the seat's stand-in bot chose it
        print("  " + _("step {n}").format(n=f"{f.step:>5}") + f"  {who:<12} {f.sentence}")
        for mark in f.marks:
            print(f"  {mark}")
    for found in verdict.findings:  # punished in play (an Eleusis void round): the game went on
        print("  " + _("step {n}").format(n=f"{found['step']:>5}") + "  " + _(
            "FAULT of {name} (seat {n}): {reason}; play went on").format(
                name=names[found["seat"]], n=found["seat"] + 1,
                reason=printable(name_seats(say(found["reason"]), names))))
    if verdict.valid and verdict.outcome:
        scores, winners = verdict.outcome["scores"], verdict.outcome["winners"]
        order = sorted(range(len(scores)), key=lambda s: (s not in winners, -scores[s], s))
        print("== " + _("Final standings") + " ==")
        print("\n".join(table([(k, names[s], _("seat {n}").format(n=s + 1), scores[s],
                                _("winner") if s in winners else "")
                               for k, s in enumerate(order, start=1)],
                              ("#", _("player"), _("seat"), _("score"), ""))))
        return 0
    who = (_("{name} (seat {n})").format(name=names[verdict.seat], n=verdict.seat + 1)
           if verdict.seat is not None and 0 <= verdict.seat < len(names) else _("no seat"))
    print(_("transcript INVALID at step {step}, {who}: {reason}").format(
        step=verdict.step, who=who, reason=printable(name_seats(say(verdict.reason), names))))
    return EXIT_INVALID
