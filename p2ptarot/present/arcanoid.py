"""The arcanoïd screen and move sentences, from one seat's view only (spec/games/arcanoid.md).

Everything printed comes from the view dict, which already holds only what this seat may know: a
card the seat may not see is ``None`` there and is shown only as a count. Field lines shorten
cards of the field's own suit to their rank ("swords: seat 1 8+7"), the one place where the suit
is obvious, to keep a 4-player screen under ~30 lines.
"""

from __future__ import annotations

import textwrap
from typing import Any, Mapping

from types import SimpleNamespace

from p2ptarot.cards import ARCANOID
from p2ptarot.cards.arcanoid_tables import FIELDS as _SUITS
from p2ptarot.cards.arcanoid_tables import POPE
from p2ptarot.games.arcanoid.battle import (ILLEGITIMATE, IMPERIAL, ROYAL, VALUE, WORLD_CLASS,
                                            battle_key)

from p2ptarot.i18n import N_, _, ngettext

from .cards import card_list, card_name, tarot_rank, tarot_title
from .faces import face
from .seats import name_seats

FIELDS = ("swords", "wands", "cups", "coins")
WIDTH = 100
#: headings for grouping long move lists by kind
GROUPS: dict[str, str] = {
    "discard": N_("discard"), "abdicate": N_("abdicate"), "engage": N_("engage"), "chariot-engage": N_("Chariot"),
    "chariot-load": N_("Chariot"), "chariot-add": N_("Chariot"), "chariot-discard": N_("Chariot"),
    "play": N_("play a card"), "priestess": N_("arcana"), "pope": N_("arcana"), "strength": N_("arcana"),
    "hanged-man": N_("arcana"), "temperance": N_("arcana"), "tower": N_("arcana"), "call": N_("call a card"),
    "judgement": N_("arcana"), "world": N_("arcana"), "wheel-discard": N_("Wheel"), "call-again": N_("call a card"),
    "hermit-move": N_("Hermit"), "fool": N_("Fool"), "show": N_("show"), "give": N_("give"), "vote": N_("vote"),
    "pass": N_("pass"),
}
#: glues the words of one card name so that wrapping never splits "2 of wands" across lines
_GLUE = "\u00a0"

_DECISIONS = {
    "turn": N_("{actor_s} turn"),
    "hermit": N_("{actor} may take a Hermit move now"),
    "wheel": N_("{actor}: discard down to capacity after the Wheel"),
    "call-again": N_("{actor} may call another card (already called: {tried})"),
    "fool": N_("Fool window: whoever holds the Fool may steal {actor_s} engagement on {field}"),
    "pope": N_("{hierophant} played by {actor}: show {category}"),
    "give": N_("{actor} called {called}: its holder hands it over"),
    "vote": N_("the draw pile is empty: vote to renew it from the discard pile"),
}
#: French says "c'est votre tour", "le tour de Bob": the possessive is worded per language
_POSSESSIVE_YOU = N_("your")
_POSSESSIVE = N_("{name}'s")
_KINDS = {"abdication": N_("abdicated"), "judgement": N_("abdicated (Judgement)"),
          "forced": N_("forced out (World)")}


_PASS = N_("Pass")
_PASSES = {"hermit": N_("Pass (no Hermit move now)"), "fool": N_("Pass (do not steal)"),
           "give": N_("Pass (I do not hold the called card)"), "call-again": N_("Stop calling")}


# ---- naming participants ---------------------------------------------------------------------
def _parts(view: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
    return {p["pid"]: p for p in view.get("participants", [])}


def who(pid: int, view: Mapping[str, Any]) -> str:
    """'you', 'seat 2', 'your demon' or 'the demon of seat 2' for a participant id ("seat N"
    stays a token: `name_seats` makes it the player's name in every language)."""
    p = _parts(view).get(pid)
    me = view.get("seat")
    if p is None:
        return _("nobody") if pid < 0 else _("participant {n}").format(n=pid)
    if p.get("usa"):
        return _("the USA")
    if p["demon"]:
        return _("your demon") if p["seat"] == me else _("the demon of {seat}").format(
            seat=f"seat {p['seat']}")
    return _("you") if p["seat"] == me else f"seat {p['seat']}"


def _possessive(pid: int, view: Mapping[str, Any]) -> str:
    """'your', 'your demon's', 'seat 2's'."""
    name = who(pid, view)
    return _(_POSSESSIVE_YOU) if name == _("you") else _(_POSSESSIVE).format(name=name)


def _hand_of(pid: int, view: Mapping[str, Any]) -> str:
    """'your hand', 'your demon's hand', 'seat 2's hand'."""
    name = who(pid, view)
    return _("your hand") if name == _("you") else _("{name}'s hand").format(name=name)


#: the four fields (one per suit), as people read them
_FIELD_WORDS = {"swords": N_("swords"), "wands": N_("wands"), "cups": N_("cups"), "coins": N_("coins")}


def _field(field: Any) -> str:
    return _(_FIELD_WORDS[field]) if field in _FIELD_WORDS else str(field)


def _label(p: Mapping[str, Any], me: int | None) -> str:
    seat = f"seat {p['seat']}"
    if p["demon"]:
        return _("demon ({seat})").format(seat=seat)
    return _("{seat} (you)").format(seat=seat) if p["seat"] == me else seat


# ---- the screen ------------------------------------------------------------------------------
def _wrap(text: str, indent: str = "    ") -> list[str]:
    lines = textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [text]
    return [line.replace(_GLUE, " ") for line in lines]


def _names(cards: list[str]) -> str:
    """Card names for a wrapped line, in deck order, each glued into one word."""
    ordered = sorted(cards, key=lambda c: ARCANOID.card(c).index)
    return ", ".join(card_name(c).replace(" ", _GLUE) for c in ordered) if cards else _("nothing")


def _zone(cards: list[Mapping[str, Any]], own: bool = False) -> str:
    """Known cards by name, unknown ones as a count: '3 of cups, 4 hidden'. In one's own zone
    an unknown card is one drawn but not yet revealed (a renewal vote comes first, rules §2.7)."""
    known = [c["card"] for c in cards if c["card"] is not None]
    hidden = len(cards) - len(known)
    parts = [_names(known)] if known else []
    if hidden:
        parts.append((_("{n} not yet seen") if own else _("{n} hidden")).format(n=hidden))
    return ", ".join(parts) if parts else _("empty")


def _record(rec: Mapping[str, Any], fld: str) -> str:
    if rec["kind"] in _KINDS:
        kind = rec["kind"]
        return _(_KINDS[kind])
    if "count" in rec:  # a secret engagement still face down (KOBLENZ, MALTA)
        seen = "+".join(card_name(c).replace(" ", _GLUE) for c in rec["cards"])
        return _face_down(rec["count"]) + (f" ({seen})" if seen else "")
    unseen = [c for c in rec["cards"] if not c]  # a secret record's cards this seat may not see
    if unseen:
        seen = "+".join(card_name(c).replace(" ", _GLUE) for c in rec["cards"] if c)
        return _face_down(len(unseen)) + (f" ({seen})" if seen else "")
    names = [tarot_rank(c) if c.startswith(fld + "-") else card_name(c) for c in rec["cards"]]
    text = "+".join(n.replace(" ", _GLUE) for n in names)
    if rec.get("transmuted", -1) >= 0 and rec["transmuted"] in rec["handles"]:
        moved = rec["cards"][rec["handles"].index(rec["transmuted"])]
        text += " " + _("({card} transmuted)").format(card=card_name(moved).replace(" ", _GLUE))
    strength = record_strength(rec)
    return text + (f" [{strength.replace(' ', _GLUE)}]" if strength else "")


def _face_down(count: int) -> str:
    """'2 face down', glued into one word for wrapping."""
    return _("{count} face down").format(count=count).replace(" ", _GLUE)


_CLASSES = {WORLD_CLASS: N_("the World"), IMPERIAL: N_("imperial couple"),
            ILLEGITIMATE: N_("the Lovers"), ROYAL: N_("royal")}


def record_strength(rec: Mapping[str, Any]) -> str:
    """What a record is worth in its field's battle (rules §4): its class, or its total."""
    cards = rec.get("cards") or []
    if rec.get("kind") in _KINDS or not all(isinstance(c, str) and c for c in cards):
        return ""
    key = battle_key(SimpleNamespace(kind=rec.get("kind"), cards=tuple(cards),
                                     transmuted=rec.get("transmuted", -1), timestamp=0))  # type: ignore[arg-type]  # battle_key reads only these four fields of a Record
    if key[0] != VALUE:
        return _(_CLASSES[key[0]]) if key[0] in _CLASSES else ""
    if key[1] == 35:
        return _("knight: 35")
    if key[1] == 29:
        return _("page: 29")
    return _("total {n}").format(n=key[1] // 2)


def _participant_lines(view: Mapping[str, Any]) -> list[str]:
    me = view.get("seat")
    decision = view.get("decision") or {}
    out = []
    for p in view.get("participants", []):
        mark = ">" if p["pid"] == decision.get("actor") else " "
        head = f"{mark} {_label(p, me):<17}"
        if p["finished"]:
            out.append(f"{head} " + _("finished"))
            continue
        count = {"n": len(p["hand"]), "cap": p["hand_cap"]}
        bits = [_("hand shown above [{n}/{cap}]").format(**count) if p["seat"] == me
                else _("hand {cards} [{n}/{cap}]").format(cards=_zone(p["hand"]), **count)]
        if p["visible"] or p["visible_cap"]:
            bits.append(_("face-up {cards} [{n}/{cap}]").format(
                cards=_zone(p["visible"]), n=len(p["visible"]), cap=p["visible_cap"]))
        if p["chariot"] >= 0:
            bits.append(_("Chariot reserve {cards}").format(cards=_zone(p["reserve"])))
        out.extend(_wrap(head + " " + " | ".join(bits), " " * 20))
    return out


def _field_lines(view: Mapping[str, Any]) -> list[str]:
    temper = view.get("temperance") or {}
    ever = set(view.get("ever_engaged", []))
    pad = max(len(_field(f)) for f in FIELDS) + 1  # "deniers" is longer than "swords"
    out = []
    for fld in FIELDS:
        recs = []
        for p in view.get("participants", []):
            rec = p["records"].get(fld)
            if rec is not None:
                recs.append(_("{name}: {move}").format(name=who(p["pid"], view), move=_record(rec, fld)))
        notes = []
        if temper.get("field") == fld:
            notes.append(_("tempered by {who}").format(who=who(temper["owner"], view)))
        if fld not in ever:
            notes.append(_("never engaged"))
        tail = f"  [{'; '.join(notes)}]" if notes else ""
        out.extend(_wrap(f"  {_field(fld):<{pad}}" + (" · ".join(recs) if recs else "-") + tail, " " * 10))
    return out


def _status_lines(view: Mapping[str, Any]) -> list[str]:
    pile = _("draw pile {pile}, discard {discard}").format(pile=view.get("pile", 0),
                                                          discard=view.get("discard", 0))
    flags = [_("renewed {n}x").format(n=view["renewals"])] if view.get("renewals") else []
    if view.get("renewal_refused"):
        flags.append(_("renewal refused"))
    if view.get("death_played"):
        flags.append(_("Death played"))
    out = [pile + (f" ({', '.join(flags)})" if flags else "")]
    justice = view.get("justice")
    if justice is not None:
        out += _wrap(_("Justice [{n}/{cap}]: {cards}").format(
            n=len(justice), cap=view.get("justice_cap"), cards=_zone(justice)))
    hermit = view.get("hermit")
    if hermit:
        pledges = ", ".join(_("before {who}").format(who=who(p, view))
                            for p in hermit.get("pledges", []))
        out.append(_("Hermit: {who}, {used}/3 moves used").format(
            who=who(hermit["owner"], view), used=hermit["used"])
                   + (", " + _("pledged {pledges}").format(pledges=pledges) if pledges else ""))
    return out


def _score_lines(view: Mapping[str, Any]) -> list[str]:
    me = view.get("seat")
    won = view.get("fields_won", {})
    scores = ", ".join(_("{name}: {move}").format(name=_("you") if str(me) == s else f"seat {s}", move=n)
                       for s, n in won.items())
    out = [_("Fields won: {scores}").format(scores=scores)]
    for i, rw in enumerate(view.get("round_winners", []), start=1):
        res = ", ".join(_("{field} to {who}").format(
            field=_field(f), who=_("you") if w == me else f"seat {w}") for f, w in rw.items())
        out.append("  " + _("round {n}: {results}").format(n=i, results=res))
    return out


def _decision_line(decision: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """What the table waits for, with what was announced (called card, the Hierophant's category...)."""
    category = decision.get("category", "")
    fields = {
        "actor": who(decision["actor"], view), "actor_s": _possessive(decision["actor"], view),
        "called": card_name(decision["called"]) if decision.get("called") else _("a card"),
        "tried": ", ".join(card_name(c) for c in decision.get("tried", [])) or _("none"),
        "category": {"trumps": _("every trump you hold"), "fool": _("the Fool if you hold it")}.get(
            category, _("every card of {suit} you hold").format(suit=_field(category))),
        "field": _field(decision["field"]) if decision.get("field") else _("a field"),
        "hierophant": card_name(POPE),
    }
    name = decision["name"]
    if name == "turn" and fields["actor"] == _("you"):
        return _("your turn")
    return (_(_DECISIONS[name]) if name in _DECISIONS else name + " ({actor})").format(**fields)


def render(view: Mapping[str, Any]) -> str:
    """The whole arcanoïd screen for the seat that owns `view`."""
    me = view.get("seat")
    decision = view.get("decision")
    head = _("arcanoïd {variant} — round {round}/{rounds}").format(
        variant=view.get("variant", ""), round=view.get("round"), rounds=view.get("rounds"))
    if me is not None:
        head += " — " + _("you are {seat}").format(seat=f"seat {me}")
    lines = [f"== {head} =="]
    if decision:
        lines.append(_("Now: {what}").format(what=_decision_line(decision, view)))
    mine = [p for p in view.get("participants", []) if p["seat"] == me and not p["finished"]]
    for p in mine:
        owner = (_("Your demon's hand [{n}/{cap}]: {cards}") if p["demon"]
                 else _("Your hand [{n}/{cap}]: {cards}"))
        lines += _wrap(owner.format(n=len(p["hand"]), cap=p["hand_cap"], cards=_zone(p["hand"], True)))
        if p["visible"]:
            lines += _wrap("  " + _("your face-up cards: {cards}").format(cards=_zone(p["visible"], True)))
        if p["chariot"] >= 0:
            lines += _wrap("  " + _("your Chariot reserve: {cards}").format(
                cards=_zone(p["reserve"], True)))
    lines += _status_lines(view)
    lines.append(_("Players:"))
    lines += _participant_lines(view)
    lines.append(_("Fields:"))
    lines += _field_lines(view)
    lines += _score_lines(view)
    return "\n".join(lines)


# ---- move sentences --------------------------------------------------------------------------
def _handle_cards(view: Mapping[str, Any]) -> dict[int, str | None]:
    """handle -> card for every slot the view shows (None where this seat may not look)."""
    out: dict[int, str | None] = {}
    for p in view.get("participants", []):
        for zone in ("hand", "visible", "reserve"):
            for c in p[zone]:
                out[c["handle"]] = c["card"]
    for c in view.get("justice") or []:
        out[c["handle"]] = c["card"]
    return out


def _fields(fields: list[str]) -> str:
    return (" " + _("and") + " ").join(_field(f) for f in fields)


def describe(move: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One sentence for an arcanoïd move (`move` is its JSON form)."""
    kind = move["kind"]
    card = card_name(move.get("card"))
    title = tarot_title(move["card"]) if isinstance(move.get("card"), str) else card
    known = _handle_cards(view)
    decision = (view.get("decision") or {}).get("name")
    field = _field(move.get("field"))
    if kind == "discard":
        if known.get(move["handle"]) is None:  # another seat's card: never "a hidden card face down"
            return _("Discard a card face down")
        return _("Discard {card} face down").format(card=card_name(known.get(move["handle"])))
    if kind == "abdicate":
        return _("Abdicate on {field}").format(field=field)
    if kind in ("engage", "chariot-engage"):
        text = _("Engage on {fields}: {cards}").format(fields=_fields(move["fields"]),
                                                       cards=card_list(move["cards"]))
        if kind == "chariot-engage":
            text = (_("Chariot: engage the reserve on {fields} with {cards}") if move["cards"]
                    else _("Chariot: engage the reserve on {fields}")).format(
                        fields=_fields(move["fields"]), cards=card_list(move["cards"]))
        if move.get("transmute", -1) >= 0:
            text += " " + _("(the Magician transmutes {card})").format(
                card=card_name(known.get(move["transmute"])))
        return text
    if kind == "chariot-load":
        return _("Play {card}, loading {cards} into its reserve").format(
            card=card, cards=card_list(move["cards"]))
    if kind == "chariot-add":
        return _("Add {cards} to the Chariot reserve").format(cards=card_list(move["cards"]))
    if kind == "chariot-discard":
        return _("Discard the Chariot and its reserve")
    if kind == "play":
        return _("Play {card}").format(card=card)
    if kind == "priestess":
        return _("Play {card}: look at {whose}").format(card=card,
                                                        whose=_hand_of(move["target"], view))
    if kind == "pope":
        cat = {"trumps": _("the trumps"), "fool": _("the Fool")}.get(move["category"],
                                                                    _field(move["category"]))
        return _("Play {card}: call {category}").format(card=card, category=cat)
    if kind == "strength":
        option = _("two face-up cards") if move["option"] == "visible" else _("one more hidden card")
        return _("Play {card}: {option}").format(card=card, option=option)
    if kind == "hanged-man":
        target = _("the Justice") if move["target"] < 0 else who(move["target"], view)
        return _("Play {card} on {target}").format(card=card, target=target)
    if kind in ("temperance", "world"):
        return _("Play {card} on {field}").format(card=card, field=field)
    if kind == "tower":
        if move["target"] < 0:
            return _("Play {card}, removing nothing").format(card=card)
        return _("Play {card}: remove {who}'s engagement on {field}").format(
            card=card, who=who(move["target"], view), field=field)
    if kind == "call":
        return _("Call the {called} with {card}").format(called=card_name(move["called"]), card=title)
    if kind == "judgement":
        target = who(move['target'], view)
        if target == _("you"):
            return _("Play {card}: you abdicate on {field}").format(card=card, field=field)
        return _("Play {card}: {who} abdicates on {field}").format(card=card, who=target, field=field)
    if kind == "wheel-discard":
        hidden = [h for h in move["handles"] if known.get(h) is None]
        text = (_("Discard {cards} face down").format(
            cards=", ".join(card_name(known.get(h)) for h in move["handles"])) if not hidden else
            ngettext("Discard {n} card face down", "Discard {n} cards face down",
                     len(move["handles"])).format(n=len(move["handles"])))
        if move.get("cards"):
            text += "; " + _("put {cards} face up").format(cards=card_list(move["cards"]))
        return text
    if kind == "call-again":
        return _("Call the {called}").format(called=card_name(move["called"]))
    if kind == "hermit-move":
        return _("Take a Hermit move now")
    if kind == "fool":
        text = _("Steal the engagement with {card}").format(card=card)
        if move["user"] != view.get("seat"):
            text += " " + _("for {who}").format(who=who(move["user"], view))
        if move.get("cut", -1) >= 0:
            text += ", " + _("cutting in before {who}").format(who=who(move["cut"], view))
        return text
    if kind == "show":
        return _("Show {cards}").format(cards=card_list(move["cards"])) if move["cards"] \
            else _("Show nothing (none of that category)")
    if kind == "give":
        return _("Hand over {card}").format(card=card)
    if kind == "vote":
        return _("Vote yes: renew the draw pile") if move["choice"] == "yes" \
            else _("Vote no: keep the pile empty")
    if kind == "pass":
        return _(_PASSES.get(decision or "", _PASS))
    if kind in ("secret-engage", "magician-secret"):
        face_down = card_list([known.get(h) for h in move["handles"]])
        if kind == "secret-engage":
            return ngettext("Engage secretly on {field}: {count} card face down ({cards})",
                            "Engage secretly on {field}: {count} cards face down ({cards})",
                            len(move["handles"])).format(
                field=field, count=len(move["handles"]), cards=face_down)
        return ngettext("Play {card} to engage secretly on {field}: {count} card face down "
                        "({cards})",
                        "Play {card} to engage secretly on {field}: {count} cards face down "
                        "({cards})", len(move["handles"])).format(
            card=card, field=field, count=len(move["handles"]), cards=face_down)
    if kind == "fool-outcome":
        return (_("Steal the secret engagement (it is stealable)") if move["outcome"] == "stolen"
                else _("The Fool is lost (the secret engagement cannot be stolen)"))
    if kind == "reinforce":
        return _("Reinforce the lone ace on {field} with {cards}").format(
            field=field, cards=card_list(move["cards"]))
    if kind == "remove-temperance":
        return _("Remove your Temperance")
    return kind + " " + " ".join(f"{k}={v}" for k, v in move.items() if k != "kind")


# ---- the browser page: the four fields as a board ---------------------------------------------------
_FIELD_SIGNS = {"swords": "⚔", "wands": "⚚", "cups": "♥", "coins": "⛀"}


def targets(move: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """The field a move acts on, as the page names it ("field-cups"): click a card, then a field."""
    named = [move.get("field")] + list(move.get("fields") or [])
    return [f"field-{f}" for f in named if f in FIELDS]


def cards(move: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """Loading the Chariot names the Chariot and the cards loaded into its reserve: all picked
    together in the page's card picker (one to many, up to 67 ways to play the Chariot), never a
    list to read; [] for any other move."""
    if move.get("kind") != "chariot-load" or not isinstance(move.get("card"), str):
        return []
    return [move["card"]] + [str(c) for c in move.get("cards") or []]


def refine_screen(view: Mapping[str, Any], names: Any, base: Mapping[str, Any]) -> dict[str, Any]:
    """The generic screen plus the four fields side by side: each participant's record there
    (its cards, face down where this seat may not look, and what it is worth), the Temperance and
    never-engaged marks, the fields won. The per-field piles of the generic screen are dropped."""

    def words(text: str) -> str:
        return name_seats(text.replace(_GLUE, " "), names)

    temper = view.get("temperance") or {}
    ever = set(view.get("ever_engaged", []))
    fields = []
    for fld in FIELDS:
        entries = []
        for p in view.get("participants", []):
            rec = p["records"].get(fld)
            if rec is None:
                continue
            cards = [c or None for c in rec.get("cards") or []]  # "": a card this seat may not see
            hidden = max(0, int(rec.get("count", 0)) - len(cards)) if "count" in rec else 0
            entries.append({"who": words(who(p["pid"], view)), "you": p["seat"] == view.get("seat"),
                            "kind": rec.get("kind"), "text": words(_record(rec, fld)),
                            "cards": [face(c) for c in cards] + [face(None)] * hidden})
        notes = []
        if temper.get("field") == fld:
            notes.append(words(_("tempered by {who}").format(who=who(temper["owner"], view))))
        if fld not in ever:
            notes.append(_("never engaged"))
        fields.append({"field": fld, "name": _(_FIELD_WORDS[fld]), "sign": _FIELD_SIGNS[fld],
                       "entries": entries, "notes": notes})
    sc = dict(base)
    sc["fields"] = {"fields": fields,
                    "score": [words(line) for line in _score_lines(view)],
                    "status": [words(line) for line in _status_lines(view)],
                    "players": [words(line) for line in _participant_lines(view)]}
    sc["piles"] = [p for p in base.get("piles", []) if p["label"].split(": ")[-1] not in FIELDS]
    return sc


def rank_key(view: Mapping[str, Any], seat: int) -> tuple[int, ...]:
    """The final order among equal totals (rules §5, steps 2-4): most swords fields, then wands,
    cups, coins; then the latest round in which the seat won swords, then wands, cups, coins
    (-1: never). Fields a demon won are its master's, as the view's `round_winners` credits them."""
    rounds = [r for r in view.get("round_winners") or [] if isinstance(r, Mapping)]
    counts = tuple(sum(r.get(f) == seat for r in rounds) for f in _SUITS)
    latest = tuple(max((k for k, r in enumerate(rounds) if r.get(f) == seat), default=-1)
                   for f in _SUITS)
    return counts + latest
