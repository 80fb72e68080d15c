"""The Eleusis screen, move sentences and the dealer's rule editor, from one seat's view only.

The layout is drawn as the rules describe it (§2.3): the main line left to right, and under each
main-line card the column of wrong plays made while it was the last one (a wrong run stays one
block, in brackets). Placement numbers are printed where they matter: the Sage marker's card and
the side-line columns.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping, Sequence

from p2ptarot.i18n import N_, _
from p2ptarot.games.eleusis.erl import HINTS, ErlError, compile_rule, facts, hint_holds

from .faces import face
from .page import PageMoveError
from p2ptarot.i18n.message import render as say_message
from .seats import name_seats

#: headings for grouping long move lists by kind
GROUPS: dict[str, str] = {
    "play": N_("play"), "no-play": N_("no play"), "judge": N_("judgment"), "call": N_("Sage's call"),
    "answer": N_("dealer's answer"), "pick": N_("name a correct card"), "sage": N_("Sage"),
    "pass": N_("Sage"), "commit": N_("choose the rule"), "hint": N_("hint"), "open": N_("open the rule"),
}
_RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}
_SUITS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
_PHASES = {
    "first-dealer": N_("drawing the first dealer"), "rule": N_("the dealer writes his rule"),
    "hint": N_("the dealer may give a hint"), "shuffle": N_("shuffling"), "deal": N_("dealing"),
    "play": N_("playing"), "judge": N_("the dealer judges"), "sage-call": N_("the Sage calls"),
    "dealer-answer": N_("the dealer answers the Sage"), "dealer-pick": N_("the dealer names a correct card"),
    "sage-pick": N_("the Sage names a correct card"), "dealer-answer-pick": N_("the dealer answers the Sage"),
    "sage-window": N_("the player may declare himself Sage"), "effects": N_("dealing cards"),
    "open": N_("the dealer opens his rule"), "over": N_("game over"),
}
WIDTH = 78


def _phase(phase: Any) -> str:
    return _(_PHASES[phase]) if phase in _PHASES else str(phase)


def card_name(card: str | None) -> str:
    """'hearts-12#2' -> 'Q♥' (the copy is irrelevant in play); a hidden card -> '??'."""
    if not card:
        return "??"
    try:
        suit, rest = card.split("-", 1)
        rank = int(rest.split("#", 1)[0])
    except ValueError:
        return "??"
    return f"{_RANKS.get(rank, str(rank))}{_SUITS.get(suit, '?')}"


_CARD_ID = re.compile(r"\b(?:clubs|diamonds|hearts|spades)-\d{1,2}(?:#\d+)?")


def event_text(text: str) -> str:
    """The engine's last event for people: card ids become card names ('hearts-6#1' -> '6♥');
    seats stay 0-based 'seat N' for the screen to name; the sentence in the interface's language."""
    return _CARD_ID.sub(lambda m: card_name(m.group(0)), say_message(text))


def cards_text(cards: Sequence[str | None]) -> str:
    return " ".join(card_name(c) for c in cards) or "-"


def _who(seat: int | None, view: Mapping[str, Any]) -> str:
    if seat is None or seat < 0:
        return _("nobody")
    return _("you") if seat == view.get("seat") else f"seat {seat}"  # named by name_seats


def _wrap(prefix: str, items: list[str]) -> list[str]:
    lines, line = [], prefix
    for item in items:
        if len(line) + len(item) + 1 > WIDTH and line.strip():
            lines.append(line)
            line = " " * len(prefix)
        line += item + " "
    lines.append(line.rstrip())
    return lines


def _layout_lines(view: Mapping[str, Any]) -> list[str]:
    layout = view["layout"]
    marker = layout.get("marker", 0)
    items = []
    for p in layout["main"]:
        mark = "*" if p["n"] == marker else ""
        items.append(f"{card_name(p['card'])}{mark}")
    lines = _wrap(_("main line:") + " ", items)
    for i, column in enumerate(layout["side"]):
        if not column:
            continue
        blocks = []
        for block in column:
            names = [card_name(p["card"]) + ("*" if p["n"] == marker else "") for p in block]
            blocks.append(names[0] if len(names) == 1 else "[" + " ".join(names) + "]")
        head = layout["main"][i]
        lines.extend(_wrap("  " + _("under {card} (#{n}):").format(card=card_name(head["card"]), n=i + 1)
                           + " ", blocks))
    if marker:
        lines.append(_("Sage marker (*) on placement {n}: {after} cards placed after it").format(
            n=marker, after=layout["size"] - marker))
    return lines


def render(view: Mapping[str, Any]) -> str:
    """The screen of one seat."""
    out = []
    dealer = view.get("dealer", -1)
    out.append(_("Eleusis — round {n} of {total}, dealer {dealer} — {phase}").format(
        n=view.get("round"), total=view.get("rounds"), dealer=_who(dealer, view),
        phase=_phase(view.get("phase"))))
    layout = view["layout"]
    sudden = _("SUDDEN DEATH") if view.get("sudden_death") else _("no sudden death yet")
    out.append(_("layout {n} cards, stock {stock}, {sudden}").format(
        n=layout["size"], stock=view.get("stock"), sudden=sudden))
    hints = [hint_words(str(h)) for h in view.get("hints") or []]
    if view.get("hint_text"):
        hints.append(f'"{view["hint_text"]}"')
    if hints:
        out.append(_("hints: {hints}").format(hints="; ".join(hints)))
    if view.get("rule"):
        out.append(_("rule: {rule}").format(rule=" ".join(str(view["rule"]).split())))
    out.extend(_layout_lines(view))
    pending = view.get("pending")
    if pending:
        what = (_("{who} declares \"no play\", showing {cards}") if pending["no_play"]
                else _("{who} plays {cards}")).format(who=_who(pending["seat"], view),
                                                       cards=cards_text(pending["cards"]))
        line = _("waiting: {what}").format(what=what)
        if pending.get("call"):
            verdict = _VERDICTS.get(str(pending["call"]))
            line += "; " + _("the Sage calls {verdict}").format(
                verdict=_(verdict) if verdict else pending["call"])
        if pending.get("proposal"):
            line += "; " + _("the Sage names {card}").format(card=card_name(pending["proposal"]))
        out.append(line)
    if view.get("last_event"):
        out.append(_("last: {event}").format(event=event_text(view["last_event"])))
    for p in view["players"]:
        if p["dealer"]:
            status = _("dealer")
        else:
            flags = [_(f) for f, on in ((N_("SAGE"), p["sage"]), (N_("false prophet"), p["false_prophet"]),
                                        (N_("eliminated"), p["eliminated"])) if on]
            status = _("{n} cards").format(n=f"{p['cards']:>2}") \
                + (" — " + ", ".join(flags) if flags else "")
            if p["shown"]:
                status += " " + _("(shown: {cards})").format(
                    cards=cards_text([s["card"] for s in p["shown"]]))
        mark = ">" if view.get("turn", {}).get("seats") == [p["seat"]] else " "
        total = (view.get("totals") or [0] * len(view["players"]))[p["seat"]]
        out.append(f"{mark} {_who(p['seat'], view):<8} {status}  " + _("(total {total})").format(total=total))
    if view.get("hand") is not None:
        out.append(_("your hand: {cards}").format(cards=cards_text([h["card"] for h in view["hand"]])))
    return "\n".join(out)


#: the structured hints (spec/ERL.md §10) in words: the rule language keeps its English tokens
_HINT_WORDS = {"ignores colour": N_("ignores colour"), "ignores rank": N_("ignores rank"),
               "ignores position": N_("ignores position")}


def hint_words(hint: str) -> str:
    """A structured hint as a player reads it ("history 2" -> "historique 2" in French)."""
    if hint in _HINT_WORDS:
        return _(_HINT_WORDS[hint])
    if hint.startswith("history ") and hint[8:].isdigit():
        return _("history {k}").format(k=hint[8:])
    return hint


def describe(move: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """A sentence for one move (its JSON form)."""
    kind = move.get("kind")
    if kind == "commit":
        text = " ".join(str(move.get("value") or "").split())
        return _("commit the rule: {rule}").format(rule=text) if text else _("commit the rule")
    if kind == "hint":
        parts = [hint_words(str(h)) for h in move.get("hints") or []] + (
            [f'"{move["text"]}"'] if move.get("text") else [])
        return _("give the hint {hint}").format(hint="; ".join(parts)) if parts \
            else _("give no hint")
    if kind == "play":
        cards = list(move.get("cards") or [])
        return (_("play {cards}") if len(cards) == 1 else _("play the run {cards}")).format(
            cards=cards_text(cards))
    if kind == "no-play":
        return _("declare \"no play\", showing the whole hand")
    if kind in ("judge", "call"):
        verdict = _VERDICTS.get(str(move.get("verdict")))
        verdict_text = _(verdict) if verdict else str(move.get("verdict"))
        return (_("judge: {verdict}") if kind == "judge" else _("call: {verdict}")).format(
            verdict=verdict_text)
    if kind == "answer":
        answer = _YES_NO.get(str(move.get("answer")))
        return _("answer the Sage: {answer}").format(answer=_(answer) if answer else move.get("answer"))
    if kind == "pick":
        return _("name {card} as a correct card").format(card=card_name(move.get("card")))
    if kind == "sage":
        return _("declare Sage")
    if kind == "pass":
        return _("do not declare Sage")
    if kind == "open":
        return _("open the rule")
    return str(kind)


#: the verdicts of a judgment or a Sage's call, in words
_VERDICTS = {"right": N_("right"), "wrong": N_("wrong")}
#: the dealer's answer to a Sage's proposal
_YES_NO = {"yes": N_("yes"), "no": N_("no")}


#: the rule library's names (games/eleusis/library.py), as the page's examples list shows them
EXAMPLE_NAMES = {
    "colour differs": N_("colour differs"), "prime alternation": N_("prime alternation"),
    "beginner 1": N_("beginner 1"), "beginner 2": N_("beginner 2"), "beginner 3": N_("beginner 3"),
    "too hard": N_("too hard"), "suit cycle": N_("suit cycle"),
    "higher unless face": N_("higher unless face"), "within two, wrapping": N_("within two, wrapping"),
    "at most two apart": N_("at most two apart"), "between last two": N_("between last two"),
    "by position": N_("by position"), "even sum": N_("even sum"), "progression": N_("progression"),
    "not the suit of three ago": N_("not the suit of three ago"), "ranks or hearts": N_("ranks or hearts"),
    "parity alternates": N_("parity alternates"), "same colour": N_("same colour"),
    "face or same suit": N_("face or same suit"),
    "higher or equal, wrapping at king": N_("higher or equal, wrapping at king"),
    "odd after even": N_("odd after even"), "red ranks low, black high": N_("red ranks low, black high"),
    "suit differs, rank close": N_("suit differs, rank close"), "colours in pairs": N_("colours in pairs"),
    "rank sum below 20": N_("rank sum below 20")}


# ---- the dealer writes his own rule ---------------------------------------------------------------
def error_lines(text: str, error: ErlError) -> list[str]:
    """The error, with the offending line and a caret under its column."""
    out = ["  " + _("invalid rule: {why}").format(why=erl_message(error))]
    if error.line:
        lines = text.split("\n")
        if 0 < error.line <= len(lines):
            out.append("    " + lines[error.line - 1])
            out.append("    " + " " * (error.column - 1) + "^")
    return out


def erl_message(error: ErlError) -> str:
    """The rule language's complaint, located, in the interface's language."""
    why = say_message(error.message)
    return why + " " + _("(line {line}, column {column})").format(
        line=error.line, column=error.column) if error.line else why


def degenerate_rule(rule: Any) -> str:
    """"accepts every card" / "accepts no card" when it does so on a sample of main lines, else ""."""
    deck = [(rank, suit) for suit in (1, 2, 3, 4) for rank in range(1, 14)]
    lines = [[card] for card in deck] + [[a, b, c] for a, b, c in zip(deck, deck[5:], deck[11:])]
    verdicts = {rule.accepts(line, card) for line in lines for card in deck}
    if verdicts == {True}:
        return _("this rule accepts every card")
    if verdicts == {False}:
        return _("this rule accepts no card")
    return ""


def compose(view: Mapping[str, Any], legal: Sequence[Any], ask: Callable[[str], str],
            say: Callable[[str], None] = print) -> Any | None:
    """A move the list cannot hold, typed by a human (`w` at the move prompt): the dealer's own
    rule, or a player's run. None when there is nothing to write here or he gives up."""
    if any(getattr(m, "KIND", "") == "commit" for m in legal):
        return compose_rule(view, legal, ask, say)
    if any(getattr(m, "KIND", "") == "hint" for m in legal):
        return compose_hint(view, legal, ask, say)
    if any(getattr(m, "KIND", "") == "play" for m in legal):
        return compose_run(view, legal, ask, say)
    return None


#: the dealer's statements his peer computes from the rule (R34): no human typing
_AUTOMATIC_PHASES = ("judge", "dealer-answer", "dealer-answer-pick", "open")


def automatic(view: Mapping[str, Any], legal: Sequence[Any]) -> bool:
    """Whether the terminal plays the only legal move for the human: the dealer's judgments and
    answers are computed by his peer from the rule (R34); a choice among correct cards is his."""
    return (len(legal) == 1 and view.get("seat") == view.get("dealer")
            and view.get("phase") in _AUTOMATIC_PHASES)


def compose_hint(view: Mapping[str, Any], legal: Sequence[Any], ask: Callable[[str], str],
                 say: Callable[[str], None] = print) -> Any | None:
    """The dealer writes his hints: structured ones (checked true of his rule now, since a false
    one is a fault at the opening) and free text."""
    hint = next(m for m in legal if getattr(m, "KIND", "") == "hint")
    rule = view.get("rule") or ""
    say(_("Structured hints, comma-separated ({hints}), or nothing:").format(hints=", ".join(HINTS)))
    while True:
        chosen = [h.strip() for h in ask("hints> ").split(",") if h.strip()]
        bad = [h for h in chosen if h not in HINTS]
        false = [h for h in chosen if h in HINTS and rule and not hint_holds(rule, h)]
        if bad:
            say("  " + _("not a structured hint: {hints}").format(hints=", ".join(bad)))
        elif false:
            say("  " + _("false of your rule: {hints}").format(hints=", ".join(false)))
        elif len(set(chosen)) != len(chosen):
            say("  " + _("a hint is given once"))
        else:
            break
    while True:
        text = ask(_("free-text hint (or nothing)> ")).strip()
        if len(text) <= 200 and all(ch.isprintable() for ch in text):
            return type(hint)(tuple(chosen), text)
        say("  " + _("a free-text hint is at most {n} printable characters").format(n=MAX_HINT_TEXT))


_RANK_WORDS = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(r): r for r in range(1, 14)}}
_SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades",
               **{v: k for k, v in _SUITS.items()}}


def parse_card(word: str) -> str | None:
    """'7H', '7♥', 'qs', '10d' -> 'hearts-7', 'spades-12', 'diamonds-10' (no copy); else None."""
    word = word.strip().upper()
    if len(word) < 2:
        return None
    rank, suit = _RANK_WORDS.get(word[:-1]), _SUIT_WORDS.get(word[-1])
    return f"{suit}-{rank}" if rank is not None and suit is not None else None


def compose_run(view: Mapping[str, Any], legal: Sequence[Any], ask: Callable[[str], str],
                say: Callable[[str], None] = print) -> Any | None:
    """Let a player type a run of 1–4 cards of his hand, in order (e.g. `7H 8H 9S`)."""
    play = next(m for m in legal if getattr(m, "KIND", "") == "play")
    hand = [(h["handle"], h["card"]) for h in view.get("hand") or [] if h.get("card")]
    say(_("Type the cards of your run in order, e.g. `7H 8H 9S` (A, 2–10, J, Q, K and C, D, H, S);"
          " an empty line gives up."))
    while True:
        words = ask("run> ").split()
        if not words:
            return None
        chosen: list[tuple[int, str]] = []
        problem = ""
        for word in words:
            base = parse_card(word)
            match = next(((h, c) for h, c in hand if c.split("#")[0] == base
                          and (h, c) not in chosen), None)
            if base is None:
                problem = _("{word} is not a card (write it like 7H or QS)").format(word=repr(word))
            elif match is None:
                problem = _("you hold no (further) {card}").format(card=word)
            else:
                chosen.append(match)
            if problem:
                break
        if not problem and not 1 <= len(chosen) <= 4:
            problem = _("a run has 1 to 4 cards")
        if problem:
            say(f"  {problem}")
            continue
        return type(play)(tuple(h for h, _ in chosen), tuple(c for _, c in chosen))


def compose_rule(view: Mapping[str, Any], legal: Sequence[Any], ask: Callable[[str], str],
                 say: Callable[[str], None] = print) -> Any | None:
    """Let a human dealer type a rule in ERL; validated (positions shown) before it is committed.

    Returns the Commit move, or None if the dealer gives up (a line with a single '.').
    """
    commits = [m for m in legal if getattr(m, "KIND", "") == "commit"]
    say(_("Type your rule in ERL (spec/ERL.md), e.g. `accept c.color != p1.color`;"))
    say(_("end it with an empty line; a line with a single '.' gives up."))
    while True:
        lines: list[str] = []
        while True:
            line = ask("rule> " if not lines else "....> ")
            if line.strip() == "." and not lines:
                return None
            if not line.strip():
                break
            lines.append(line.rstrip("\r"))
        if not lines:
            continue
        text = "\n".join(lines) + "\n"
        try:
            rule = compile_rule(text)
        except ErlError as exc:
            for out in error_lines(text, exc):
                say(out)
            continue
        degenerate = degenerate_rule(rule)
        if degenerate:
            say("  " + _("warning: {note} (R30: allowed, but the scoring punishes it)").format(
                note=degenerate))
        move = type(commits[0])(commits[0].name, text)
        say("  " + _("valid rule; it is committed now and opened at the end of the round."))
        return move


# ---- the browser page's forms: the dealer's rule and hint, a player's run ------------------------
#: what the page may write, by the kind of legal move it stands for
PAGE_FORMS = {"rule": "commit", "hint": "hint", "run": "play"}
MAX_RUN = 4
MAX_HINT_TEXT = 200


def page_forms(view: Mapping[str, Any], legal: Sequence[Any]) -> list[str]:
    """The forms the page may offer for this decision ("rule", "hint", "run")."""
    kinds = {getattr(m, "KIND", "") for m in legal}
    return [form for form, kind in PAGE_FORMS.items() if kind in kinds]


def check_rule_text(text: str) -> tuple[str, str]:
    """(the rule text as committed, a warning or "") for a valid rule; PageMoveError with the
    parser's line and column otherwise. Line ends are normalised to "\\n"."""
    from p2ptarot.games.eleusis.erl.lexer import MAX_TEXT_BYTES

    if not isinstance(text, str):
        raise PageMoveError(_("a rule is a text"))
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise PageMoveError(_("the rule is empty: write one, e.g. accept c.color != p1.color"))
    if len(text.encode("utf-8", "replace")) > MAX_TEXT_BYTES:
        raise PageMoveError(_("the rule text is longer than {max} bytes").format(max=MAX_TEXT_BYTES))
    if not text.endswith("\n"):
        text += "\n"
    try:
        rule = compile_rule(text)
    except ErlError as exc:
        raise PageMoveError(_("invalid rule: {why}").format(why=say_message(exc.message)), exc.line,
                            exc.column) from None
    except (ValueError, RecursionError):  # ERL raises only ErlError; a hostile text stays a refusal
        raise PageMoveError(_("invalid rule: the text cannot be read as ERL")) from None
    degenerate = degenerate_rule(rule)
    warning = _("{note} (R30: allowed, but the scoring punishes it)").format(note=degenerate) \
        if degenerate else ""
    return text, warning


def page_move(view: Mapping[str, Any], legal: Sequence[Any], form: str, text: str = "",
              choices: Sequence[str] = (), handles: Sequence[int] = ()) -> tuple[Any, str]:
    """The move a page form writes, built here from validated fields only, and a note for the
    player (a rule's warning); PageMoveError when the fields do not make a legal move now.

    rule: `text` is ERL (checked by the parser: line and column on a fault); hint: `choices` are
    structured hints true of the dealer's rule, `text` free text; run: `handles` are 2–4 distinct
    cards of the seat's hand, in the order they are played."""
    kind = PAGE_FORMS.get(form)
    template = next((m for m in legal if kind is not None and getattr(m, "KIND", "") == kind), None)
    if template is None:
        raise PageMoveError(_("no {form} can be written now").format(form=f"{form!s:.20}"))
    if form == "rule":
        rule_text, warning = check_rule_text(text)
        return type(template)(template.name, rule_text), warning
    if form == "hint":
        return _page_hint(view, template, text, choices), ""
    return _page_run(view, template, handles), ""


def _page_hint(view: Mapping[str, Any], template: Any, text: str, choices: Sequence[str]) -> Any:
    chosen = [str(h) for h in choices]
    bad = [h for h in chosen if h not in HINTS]
    if bad:
        raise PageMoveError(_("not a structured hint: {hints}").format(hints=", ".join(h[:40] for h in bad)))
    if len(set(chosen)) != len(chosen):
        raise PageMoveError(_("a hint is given once"))
    rule = view.get("rule")
    if chosen and not isinstance(rule, str):
        raise PageMoveError(_("your rule is not known here: structured hints cannot be checked"))
    false = [h for h in chosen if not hint_holds(str(rule), h)]
    if false:
        raise PageMoveError(_("false of your rule: {hints}").format(hints=", ".join(false)))
    free = " ".join(str(text).split())
    if len(free) > MAX_HINT_TEXT or not all(ch.isprintable() for ch in free):
        raise PageMoveError(_("a free-text hint is at most {n} printable characters").format(n=MAX_HINT_TEXT))
    order = [h for h in HINTS if h in chosen]
    return type(template)(tuple(order), free)


def _page_run(view: Mapping[str, Any], template: Any, handles: Sequence[int]) -> Any:
    if not all(type(h) is int for h in handles):
        raise PageMoveError(_("a run names cards of your hand"))
    if not 2 <= len(handles) <= MAX_RUN:
        raise PageMoveError(_("a run has 2 to {n} cards (click one card to play it alone)").format(n=MAX_RUN))
    if len(set(handles)) != len(handles):
        raise PageMoveError(_("a card is named twice in the run"))
    hand = {h["handle"]: h["card"] for h in view.get("hand") or []
            if isinstance(h.get("handle"), int) and isinstance(h.get("card"), str)}
    missing = [h for h in handles if h not in hand]
    if missing:
        raise PageMoveError(_("a card of the run is not in your hand"))
    return type(template)(tuple(handles), tuple(hand[h] for h in handles))


def refine_screen(view: Mapping[str, Any], names: Sequence[str], base: Mapping[str, Any]) -> dict[str, Any]:
    """The generic screen plus Eleusis's own: the layout as the rules draw it (main line, side
    columns under it), the players' statuses, and what the page's forms need (the hand with its
    handles, example rules, structured hints and which hold of the dealer's rule)."""
    from p2ptarot.games.eleusis.erl.lexer import MAX_TEXT_BYTES
    from p2ptarot.games.eleusis.library import LIBRARY

    sc = dict(base)
    layout = view["layout"]
    marker = layout.get("marker", 0)

    def placed(p: Mapping[str, Any]) -> dict[str, Any]:
        return face(p["card"]) | {"n": p["n"], "marker": p["n"] == marker}

    columns = []
    for i, head in enumerate(layout["main"]):
        side = layout["side"][i] if i < len(layout["side"]) else []
        columns.append({"main": placed(head), "side": [[placed(p) for p in block] for block in side]})
    rule = view.get("rule")
    me = view.get("seat")
    players = []
    for p in view["players"]:
        s = p["seat"]
        players.append({"seat": s, "name": names[s] if 0 <= s < len(names) else f"seat {s + 1}",
                        "dealer": p["dealer"], "cards": p["cards"], "sage": p["sage"],
                        "eliminated": p["eliminated"], "false_prophet": p["false_prophet"],
                        "total": (view.get("totals") or [0] * len(view["players"]))[s],
                        "you": s == me})
    pending = view.get("pending")
    sc["eleusis"] = {
        "phase": view.get("phase"), "phase_text": _phase(view.get("phase")),
        "seat": me, "dealer": view.get("dealer"), "current": view.get("current"),
        "columns": columns, "size": layout["size"], "marker": marker,
        "stock": view.get("stock"), "sudden_death": bool(view.get("sudden_death")),
        "players": players, "rule": rule,
        "hints_given": [hint_words(str(h)) for h in view.get("hints") or []],
        "hint_text": view.get("hint_text") or "",
        "pending": None if not pending else {
            "seat": pending["seat"], "no_play": pending["no_play"],
            "cards": [face(c) for c in pending["cards"]], "call": pending.get("call") or ""},
        "last_event": name_seats(event_text(view.get("last_event") or ""), names),
        "hand": [{"handle": h["handle"], "face": face(h["card"])} for h in view.get("hand") or []
                 if isinstance(h.get("card"), str)],
        "examples": [{"name": _(EXAMPLE_NAMES[r.name]) if r.name in EXAMPLE_NAMES else r.name,
                      "difficulty": r.difficulty, "text": r.text} for r in LIBRARY],
        "hints": [{"hint": h, "words": hint_words(h),
                   "holds": isinstance(rule, str) and hint_holds(rule, h)} for h in HINTS],
        "max_run": MAX_RUN, "max_rule_bytes": MAX_TEXT_BYTES, "max_hint_text": MAX_HINT_TEXT,
    }
    sc["piles"] = [p for p in base.get("piles", []) if p["label"] not in ("main", "side", "pending")]
    if pending and pending.get("cards") and 0 <= pending["seat"] < len(names):
        # a shown "no play" hand: its cards are named as correct by pointing at them (R15, R16)
        sc["pickable"] = [{"label": f"{names[pending['seat']]}: pending", "onboard": True,
                           "cards": [face(c) for c in pending["cards"]]}]  # clicked on the board
    return sc


#: the round's end (the i18n catalogue wraps these)
ROUND_TEXT = {
    "head": N_("Each judgment re-checked against the opened rule:"),
    "main": N_("the {count} cards played onto the main line: the rule accepts each one"),
    "side": N_("#{n} {cards} refused: the rule refuses it"),
    "main_bad": N_("#{n} {card} on the main line, but the rule refuses it (misjudged)"),
    "side_bad": N_("#{n} {cards} refused, but the rule accepts it (misjudged)"),
}


def round_words(key: str) -> str:
    """A round-end text in the interface's language (ROUND_TEXT's values are msgids)."""
    return _(ROUND_TEXT[key])


def totals_note(view: Mapping[str, Any]) -> str:
    """Rules §4.16: a seat that has not dealt yet counts +10 if the game stops now, and the
    running totals are that (spec/APP.md, "Round ends"): said when a total is not its rounds' sum."""
    scores, totals = view.get("round_scores") or [], view.get("totals") or []
    if not scores or not isinstance(totals, list):
        return ""
    sums = [sum(r[s] for r in scores if isinstance(r, list) and s < len(r)) for s in range(len(totals))]
    if sums == list(totals):
        return ""
    return _("totals include rules §4.16's +10 for each seat that has not dealt yet")


def round_lines(before: Mapping[str, Any], after: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The round's layout (its last view) re-judged with the rule opened at its end: every
    main-line card after the starter must be accepted after the cards before it, every refused
    card or run refused after the main line as it stood (R7, R8)."""
    rules = after.get("past_rules") or []
    layout = before.get("layout") or {}
    main = layout.get("main") or []
    if not rules or not main:
        return []
    rule = compile_rule(str(rules[-1]))
    line = [facts(p["card"]) for p in main]
    out = [round_words("head")]
    judged: list[tuple[int, str]] = []
    for j, p in enumerate(main[1:], start=1):
        if not rule.accepts(line[:j], line[j]):
            judged.append((p["n"], round_words("main_bad").format(n=p["n"], card=card_name(p["card"]))))
    if not judged:  # the right plays in one line, the refused ones (the clues) one by one
        out.append("  " + round_words("main").format(count=len(main) - 1))
    for i, column in enumerate(layout.get("side") or []):
        for block in column:
            cards = [facts(p["card"]) for p in block]
            ok = not rule.accepts_run(line[:i + 1], cards)
            judged.append((block[0]["n"], round_words("side" if ok else "side_bad").format(
                n=block[0]["n"], cards=cards_text([p["card"] for p in block]))))
    return out + [f"  {text}" for _, text in sorted(judged)]
