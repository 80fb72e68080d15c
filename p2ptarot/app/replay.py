"""A finished table told again for people, step by step (the terminal's `replay` and the
browser's replay page share it).

Each frame is one move: who (name), what (the presenter's sentence), the public screen after it,
and the marks a reader needs between moves: a trick's winner, a round's result. `by` is "bot"
for a move the seat's stand-in bot chose (the seat's own signed, unverifiable claim). The transcript
is replayed by a public observer (`Session(seat=None)`), so a frame shows what the table showed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from p2ptarot.table.envelope import EnvelopeError, parse
from p2ptarot.table.names import printable

from p2ptarot.i18n import _
from p2ptarot.i18n.message import render as say
from p2ptarot.present import screen as screens
from .results import column, round_rows


@dataclass
class Frame:
    step: int
    seat: int | None
    name: str
    sentence: str
    screen: dict[str, Any]
    marks: list[str] = field(default_factory=list)
    by: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "seat": self.seat, "name": self.name, "sentence": self.sentence,
                "screen": self.screen, "marks": self.marks, "by": self.by}


def _marks(before: dict[str, Any], after: dict[str, Any], names: list[str]) -> list[str]:
    """Separators between two public views: a trick taken, a round over."""
    out = []
    t0, t1 = before.get("trick_number"), after.get("trick_number")
    if isinstance(t0, int) and isinstance(t1, int) and t1 == t0 + 1 and after.get("last_winner") is not None:
        w = after["last_winner"]
        who = names[w] if 0 <= w < len(names) else _("nobody")
        out.append("-- " + _("trick {n} won by {name}").format(n=t0, name=who) + " --")
    r0, r1 = round_rows(before, names), round_rows(after, names)
    for i in range(len(r0), len(r1)):
        result = ", ".join(f"{column(k)} {v}" for k, v in r1[i].items())
        out.append("== " + _("round {n} over: {result}").format(n=i + 1, result=result) + " ==")
    return out


def frames(transcript: Any) -> tuple[list[str], list[Frame]]:
    """The players' names and one frame per move of `transcript` (a loaded `Transcript`); stops
    quietly at a line the observer cannot take (the verifier says why)."""
    from p2ptarot.table.session import Session  # local: the table package is heavy

    charter = transcript.charter.charter
    names = [printable(s.name, 40) for s in charter.seats]
    session = Session(transcript.charter, seat=None)
    session.start()
    out: list[Frame] = []
    view = session.game.view(None)
    pending: list[str] = []
    for line in transcript.messages:
        try:
            env = parse(line)
        except EnvelopeError:
            break  # the verdict says what is wrong with this line
        if env.seat >= len(names):
            break
        if env.kind in ("move", "move.open"):  # a blind move is told when it is opened
            try:
                said = screens.describe(env.body["move"], view, names)
            except Exception:  # noqa: BLE001 - a malformed move: the verdict says why
                said = json.dumps(env.body.get("move"), sort_keys=True)
            by = "bot" if env.body.get("by") == "bot" else None
            out.append(Frame(env.step, env.seat, names[env.seat], printable(said), {}, by=by))
        elif env.kind == "abort":
            blame = env.body.get("blame")
            who = names[blame] if isinstance(blame, int) and 0 <= blame < len(names) else _("nobody")
            reason = printable(screens.name_seats(say(str(env.body.get("reason"))), names))
            pending.append(_("{name} stopped the game, blaming {who}: {reason}").format(
                name=names[env.seat], who=who, reason=reason))
        try:
            session.receive(line)
            after = session.game.view(None)
        except Exception:  # noqa: BLE001 - the verdict (computed separately) covers it
            break
        marks = _marks(view, after, names) + pending
        pending = []
        if out and (marks or env.kind in ("move", "move.open")):
            out[-1].marks.extend(marks)
            out[-1].screen = screens.screen(after, names)
        view = after
        if session.aborted is not None:
            break
    return names, out
