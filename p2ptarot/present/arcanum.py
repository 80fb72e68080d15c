"""The Arcanum screen and move sentences, from one seat's view only (spec/games/arcanum.md).

The city is drawn as ten lines (number, name, left-side symbols, figures standing there, a Tower
mark), then the four prestige tracks 0…21, then each player's VP, hand and hidden area. A card the
seat may not see reads as its kind only ("a minor", "a major").
"""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.games.arcanum.rules import LOCATION_TITLES
from p2ptarot.games.arcanum.tracks import change_prestige
from p2ptarot.i18n import N_, _, language, ngettext

from .cards import card_name as _name
from .cards import roman
from .faces import face, sort_key

HOUSES = ("swords", "wands", "cups", "coins")
#: the Houses and the figures' ranks as people read them (the same msgids as the cards')
_HOUSE_WORDS = {"swords": N_("swords"), "wands": N_("wands"), "cups": N_("cups"), "coins": N_("coins")}
_RANK_WORDS = {"page": N_("page"), "knave": N_("knave"), "knight": N_("knight"), "queen": N_("queen"), "king": N_("king")}
_KIND_WORDS = {"minor": N_("a minor"), "major": N_("a major")}
_DECISIONS = {
    "act": N_("play a minor (mandatory) and at most one major, before or after it"),
    "draw-choice": N_("draw 3 minors or 1 major"), "limit": N_("discard down to 7 cards"),
    "hide": N_("hide minors face down"), "relocate": N_("move a figure (move-and-activate)"),
    "fool-mode": N_("the Fool: joker move or hide it"), "artisan": N_("Artisan District: 2 minors or 1 major"),
    "harbour": N_("Harbour: draw 1 minor?"), "market": N_("Market: trade a card or not"),
    "fields": N_("Fields: each House +1, -1 or 0"), "cathedral": N_("Cathedral: hide 1 minor or draw 2"),
    "castle": N_("Castle: discard 1 card"), "chariot": N_("Chariot: discard 1 card"),
    "judgement": N_("Judgement: discard 1 card"), "house": N_("choose a House"),
    "empress": N_("Empress: one House +1, another -1"), "wheel": N_("Wheel: give 2 cards to your left"),
    "death": N_("Death: discard 1 or 2 minors"), "swap": N_("Temperance: swap up to 2 cards"),
    "tower": N_("Tower: freeze locations"), "remove": N_("Judgement: remove a figure (3 in all)"),
    "return": N_("Judgement: put a figure back"), "declare": N_("declare the Fool's suit"),
    "sun": N_("Sun: turn 3 hidden cards face up"), "forced-draw": N_("no minor? draw one")}


def _decision(name: Any) -> str:
    return _(_DECISIONS[name]) if name in _DECISIONS else str(name)


#: move kind -> heading when a long move list is grouped
GROUPS = {
    "play-minor": N_("play a minor"), "play-major": N_("play a major"), "choose": N_("choose"),
    "discard": N_("discard"), "hide": N_("hide"), "relocate": N_("move a figure"), "house": N_("choose a House"),
    "empress": N_("Empress"), "fields": N_("Fields"), "give": N_("Wheel"), "expose": N_("Sun"),
    "swap": N_("Temperance"), "tower": N_("Tower"), "remove": N_("Judgement"), "return": N_("Judgement"),
    "pass": N_("pass")}


def card_name(card: str | None, kind: str | None = None) -> str:
    """"7 of cups", "queen of swords", "XVII The Star"; a card this seat may not see by its kind
    ("a minor"). The names are the one `present.cards.card_name`."""
    if card is None:
        if kind in _KIND_WORDS:
            return _(_KIND_WORDS[kind])
        return f"a {kind}" if kind else _("a hidden card")
    return _name(card)


def _house(house: Any) -> str:
    return _(_HOUSE_WORDS[house]) if house in _HOUSE_WORDS else str(house)


def _symbol(symbol: Any) -> str:
    """A location's symbol: a House or a figure's rank."""
    return _(_RANK_WORDS[symbol]) if symbol in _RANK_WORDS else _house(symbol)


def _figure(fig: str) -> str:
    """A pawn reads "cups queen" (house first), never like the card "queen of cups"."""
    _kind, house, rank = fig.split("-")
    return _("{house} {rank}").format(house=_house(house), rank=_symbol(rank))


def _place(view: Mapping[str, Any], loc: int | str) -> str:
    """A location's name in the interface's language (game data), else the view's English one."""
    return LOCATION_TITLES.get(language(), {}).get(int(loc), view["locations"][str(loc)])


def _seat(s: int, view: Mapping[str, Any]) -> str:
    return _("you") if s == view.get("seat") else f"seat {s}"  # named by name_seats


#: the turn's phases (rules §4), as the screen names them
_PHASES = {"setup": N_("setup"), "draw": N_("draw"), "hide": N_("hide"), "play": N_("play"),
           "scoring": N_("scoring"), "over": N_("game over")}


def _phase(phase: Any) -> str:
    return _(_PHASES[phase]) if phase in _PHASES else str(phase)


def _city(view: Mapping[str, Any]) -> list[str]:
    tower = set((view.get("tower") or {}).get("locations", []))
    out = [_("The city:")]
    for loc in range(1, 11):
        key = str(loc)
        symbols = ", ".join(f"{n}×{_symbol(s)}" for s, n in sorted(view["board"]["symbols"][key].items()))
        figs = ", ".join(_figure(f) for f in view["figures"][key]) or "-"
        frozen = "  [" + _("frozen by the Tower") + "]" if loc in tower else ""
        out.append(f"  {loc:>2} {_place(view, key):<16} ({symbols}): {figs}{frozen}")
    return out


def _tracks(view: Mapping[str, Any]) -> list[str]:
    out = [_("Prestige (0…21):")]
    pad = max(len(_house(h)) for h in HOUSES)
    for h in HOUSES:
        p = view["prestige"][h]
        out.append(f"  {_house(h):<{pad}} {p:>2} " + "#" * p + "." * (21 - p))
    return out


def _players(view: Mapping[str, Any]) -> list[str]:
    out = []
    for p in view["players"]:
        s = p["seat"]
        mark = ">" if s == view.get("active") else " "
        hand = ", ".join(card_name(c["card"], c["kind"]) for c in p["hand"]) or _("empty")
        up = " " + _("(face up)")
        hidden = ", ".join(card_name(c["card"], c["kind"]) + (up if c["face_up"] else "")
                           for c in p["hidden"]) or _("nothing")
        held = ("; " + _("holds off the board: {figures}").format(
            figures=", ".join(_figure(f) for f in p["held"]))) if p["held"] else ""
        out.append(f"{mark} {_seat(s, view):<4} " + _("{vp} VP | hand ({n}): {cards}").format(
            vp=f"{p['vp']:>3}", n=len(p["hand"]), cards=hand))
        out.append("       " + _("hidden ({n}): {cards}").format(n=len(p["hidden"]), cards=hidden)
                   + held)
    return out


def render(view: Mapping[str, Any]) -> str:
    """The whole screen for one seat."""
    head = _("Arcanum — turn {turn} of {turns} (scorings after {scorings}), phase {phase}, "
             "first player {first}").format(
        turn=view["turn"], turns=view["turns"], scorings=", ".join(map(str, view["scoring_turns"])),
        phase=_phase(view["phase"]), first=_seat(view["first_player"], view))
    if view.get("devil"):
        head += " — " + _("the Devil doubles every VP and prestige change")
    decks = _("Decks: {minors} minors, {majors} majors; discards: {dminors} minors, "
              "{dmajors} majors").format(
        minors=view["decks"]["minor"], majors=view["decks"]["major"],
        dminors=view["discards"]["minor"], dmajors=view["discards"]["major"])
    lines = [head, decks, ""] + _city(view) + [""] + _tracks(view) + [""] + _players(view)
    d = view.get("decision")
    if d:
        actor = _deciders(d, lambda s: _seat(s, view))
        lines += ["", _("Waiting for {who}: {what}").format(who=actor, what=_decision(d["name"]))]
    if view.get("scorings"):
        last = view["scorings"][-1]
        kind = (_("Last World scoring (turn {turn}): {gains}") if last["world"]
                else _("Last House scoring (turn {turn}): {gains}"))
        lines.append(kind.format(turn=last["turn"], gains=", ".join(
            f"{_seat(s, view)} +{v}" for s, v in enumerate(last["vp"]))))
    return "\n".join(lines)


def _deciders(decision: Mapping[str, Any], name: Any) -> str:
    """Who a decision waits for: its actor, but a blind decision the actor's card asks of others
    waits for them (the Sun: every other player with a face-down card; the Wheel: everyone)."""
    actor = decision["actor"]
    if actor < 0 or decision["name"] == "wheel":
        return _("everyone")
    if decision["name"] == "sun":
        return _("the players other than {name}").format(name=name(actor))
    return name(actor)


def board_data(view: Mapping[str, Any]) -> dict[str, Any]:
    """What a graphical board (a browser) draws, from one seat's view only: the ten locations with
    their symbols, figures and Tower freeze, the four prestige tracks, each player's VP and card
    counts (own cards named), the turn, the pending decision. Plain JSON."""
    frozen = set((view.get("tower") or {}).get("locations", []))
    locations = []
    for loc in range(1, 11):
        key = str(loc)
        locations.append({
            "number": loc, "name": _place(view, key),
            "symbols": dict(view["board"]["symbols"][key]),
            "figures": [{"id": f, "house": f.split("-")[1], "rank": f.split("-")[2]}
                        for f in view["figures"][key]],
            "frozen": loc in frozen})
    players = []
    for p in view["players"]:
        players.append({
            "seat": p["seat"], "vp": p["vp"], "active": p["seat"] == view.get("active"),
            "first": p["seat"] == view.get("first_player"),
            "hand": [{"card": c["card"], "kind": c["kind"], "label": card_name(c["card"], c["kind"])}
                     for c in p["hand"]],
            "hidden": [{"card": c["card"], "kind": c["kind"], "face_up": c["face_up"],
                        "label": card_name(c["card"], c["kind"])} for c in p["hidden"]],
            "held_figures": list(p["held"])})
    decision = view.get("decision")
    return {
        "game": "arcanum", "seat": view.get("seat"), "turn": view["turn"], "turns": view["turns"],
        "scoring_turns": list(view["scoring_turns"]), "phase": _phase(view["phase"]),
        "devil": bool(view.get("devil")), "locations": locations,
        "prestige": [{"house": h, "value": view["prestige"][h], "max": 21} for h in HOUSES],
        "players": players, "decks": dict(view["decks"]), "discards": dict(view["discards"]),
        "decision": None if decision is None else {
            "name": decision["name"], "actor": decision["actor"],
            "text": _decision(decision["name"])},
    }


def _handle_name(view: Mapping[str, Any], handle: int) -> str:
    for p in view["players"]:
        for c in p["hand"] + p["hidden"]:
            if c["handle"] == handle:
                return card_name(c["card"], c["kind"])
    return _("a card")


_PASS = {"act": N_("end the activation"), "market": N_("no trade"), "relocate": N_("move no figure")}


def describe(move: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """A sentence for a move in JSON form."""
    kind = move.get("kind")
    decision = view.get("decision") or {}
    if kind == "play-minor":
        if move["figure"]:
            return _("play the {card}, moving the {figure} to {place}").format(
                card=card_name(move["card"]), figure=_figure(move["figure"]),
                place=_place(view, move["dest"]))
        return _("play the {card} (no figure can move)").format(card=card_name(move["card"]))
    if kind == "play-major":
        return _("play {card}").format(card=card_name(move["card"]))
    if kind == "choose":
        if decision.get("name") == "cathedral" and move["option"] == "draw":
            return _("draw 2 minors")
        option = _CHOICES.get(move["option"])
        return _(option) if option else str(move["option"])
    if kind in ("discard", "expose"):
        cards = ", ".join(card_name(c) for c in move["cards"]) or _("nothing")
        return (_("discard {cards}") if kind == "discard" else _("turn face up {cards}")).format(
            cards=cards)
    if kind == "hide":
        return _("hide {cards}").format(
            cards=", ".join(_handle_name(view, h) for h in move["handles"]) or _("nothing"))
    if kind == "give":
        return _("give {cards} to your left").format(
            cards=", ".join(_handle_name(view, h) for h in move["handles"]))
    if kind == "relocate":
        return _("move the {figure} to {place}").format(
            figure=_figure(move["figure"]), place=_place(view, move["dest"]))
    if kind == "house":
        house = _house(move["house"])
        if decision.get("name") == "declare":
            return _("declare the Fool a card of {house}").format(house=house)
        if decision.get("amount"):
            gain = _("{house} +{n} prestige").format(house=house, n=decision["amount"])
            return _("{name}: {move}").format(name=decision["why"], move=gain) if decision.get("why") else gain
        return house
    if kind == "empress":
        return f"{_house(move['up'])} +1, {_house(move['down'])} -1"
    if kind == "fields":
        return _fields_sentence(move["changes"], view)
    if kind == "swap":
        pairs = [_("{give} for {take}").format(give=_handle_name(view, g), take=_handle_name(view, t))
                 for g, t in zip(move["give"], move["take"])]
        return _("swap {pairs}").format(pairs="; ".join(pairs) if pairs else _("nothing"))
    if kind == "tower":
        return _("freeze {places}").format(
            places=(" " + _("and") + " ").join(_place(view, x) for x in move["locations"]))
    if kind == "remove":
        return _("remove the {figure} from the board").format(figure=_figure(move["figure"]))
    if kind == "return":
        fig = decision.get("figure")
        place = _place(view, move["dest"])
        if fig:
            return _("put the {figure} back in {place}").format(figure=_figure(fig), place=place)
        return _("put the figure back in {place}").format(place=place)
    if kind == "pass":
        return _(_PASS.get(decision.get("name", ""), _PASS_WORD))
    return str(kind)


def fields_result(changes: Any, view: Mapping[str, Any]) -> dict[str, int]:
    """The four prestige values after a Fields move: its changes in canonical order, doubled
    under the Devil (R27), with the overflow of §6.5 (the engine's own `change_prestige`)."""
    prestige = {h: int(view["prestige"][h]) for h in HOUSES}
    for house, change in zip(HOUSES, changes):
        if change:
            change_prestige(prestige, house, change * (2 if view.get("devil") else 1))
    return prestige


def _fields_sentence(changes: Any, view: Mapping[str, Any]) -> str:
    """"swords +1 → 9, cups -1 → 3": each changed House with the value its track reaches (the
    Devil's doubling included); a House moved back only by another's overflow reads "→ n"."""
    double = 2 if view.get("devil") else 1
    after = fields_result(changes, view)
    parts = []
    for house, change in zip(HOUSES, changes):
        if change:
            parts.append(f"{_house(house)} {change * double:+d} → {after[house]}")
        elif after[house] != view["prestige"][house]:
            parts.append(f"{_house(house)} → {after[house]}")
    return ", ".join(parts) or _("no change")


_PASS_WORD = N_("pass")
_CHOICES = {"minors": N_("draw minors"), "major": N_("draw a major"), "draw": N_("draw"),
            "pass": N_("do not draw"), "joker": N_("use the Fool as a joker move"),
            "hide": N_("hide the Fool"), "keep": N_("keep (you hold a minor)")}


# ---- the browser page: the seat's hand, the board, clickable fields --------------------------------
_HOUSE_SIGNS = {"swords": "⚔", "wands": "⚚", "cups": "♥", "coins": "⛀"}


def targets(move: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """The board fields a move acts on, as the page names them: "loc-N" (a location), "house-H"
    (a prestige track), the figure's id ("fig-cups-queen"), a Fields chip per House
    ("fields-cups-1", see `fields_target`): four clicks on the tracks compose a Fields move."""
    out: list[str] = []
    for key in ("dest",):
        if isinstance(move.get(key), int):
            out.append(f"loc-{move[key]}")
    for loc in move.get("locations") or []:
        if isinstance(loc, int):
            out.append(f"loc-{loc}")
    for key in ("house", "up"):
        if isinstance(move.get(key), str):
            out.append(f"house-{move[key]}")
    if isinstance(move.get("figure"), str):
        out.append(str(move["figure"]))
    if move.get("kind") == "fields":  # one chip per House on its track: "fields-cups-1"
        out += [fields_target(h, c) for h, c in zip(HOUSES, move["changes"])]
    return out


def cards(move: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """A Temperance swap names its cards, the hand's given and the hidden area's taken, for the
    page's card picker (the seat sees its own cards); [] for any other move."""
    if move.get("kind") != "swap":
        return []
    me = next((p for p in view["players"] if p["seat"] == view.get("seat")), None)
    known = {c["handle"]: c["card"] for c in (me or {}).get("hand", []) + (me or {}).get("hidden", [])}
    out = [known.get(h) for h in list(move["give"]) + list(move["take"])]
    return [str(c) for c in out] if all(isinstance(c, str) for c in out) else []


def fields_target(house: str, change: int) -> str:
    """A Fields chip on a prestige track, as the page names it: "fields-swords+1",
    "fields-wands0", "fields-cups-1" (the change as chosen, before any Devil doubling)."""
    return f"fields-{house}{change:+d}" if change else f"fields-{house}0"


def _fields_chips(house: str, view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The three Fields chips of a prestige track (-1, 0, +1): the page's target, the change as
    it applies (doubled under the Devil) and the value this House's change alone brings its
    track to (the preview sentence gives every track's, overflow included)."""
    alone = {h: 0 for h in HOUSES}
    chips = []
    for change in (-1, 0, 1):
        alone[house] = change
        chips.append({"target": fields_target(house, change),
                      "change": change * (2 if view.get("devil") else 1),
                      "reach": fields_result([alone[h] for h in HOUSES], view)[house]})
    return chips


def hand_count(hand: list[Mapping[str, Any]]) -> str:
    """"3 (2 minors, 1 major)": a player's hand as the board's table counts it (plural forms)."""
    minors = sum(1 for c in hand if c.get("kind") == "minor")
    majors = len(hand) - minors
    return _("{count} ({minors}, {majors})").format(
        count=len(hand), minors=ngettext("{n} minor", "{n} minors", minors).format(n=minors),
        majors=ngettext("{n} major", "{n} majors", majors).format(n=majors))


def refine_screen(view: Mapping[str, Any], names: Any, base: Mapping[str, Any]) -> dict[str, Any]:
    """The generic screen plus what Arcanum's table shows: the seat's own hand (its known cards in
    deck order), the board (city, prestige tracks, VP, card counts, the decision) with names, and
    the discard piles named as such."""

    sc = dict(base)
    me = view.get("seat")
    own = next((p for p in view["players"] if p["seat"] == me), None)
    cards = [c["card"] for c in (own or {}).get("hand", []) if isinstance(c.get("card"), str)]
    sc["hand"] = [face(c) for c in sorted(cards, key=sort_key)]
    board = board_data(view)
    for p in board["players"]:
        s = p["seat"]
        p["name"] = names[s] if 0 <= s < len(names) else f"P{s + 1}"
        p["you"] = s == me
        p["hidden_faces"] = [face(c["card"]) | {"face_up": c["face_up"]} for c in p["hidden"]]
        p["hand_text"] = hand_count(p["hand"])
    for loc in board["locations"]:
        for f in loc["figures"]:
            f["sign"] = _HOUSE_SIGNS.get(f["house"], "?")
            f["label"] = _figure(f["id"])
    # every pawn's name, those held off the board too: the page's chooser of the figure to move
    board["figure_labels"] = {f"fig-{h}-{r}": _figure(f"fig-{h}-{r}")
                              for h in HOUSES for r in ("knave", "knight", "queen", "king")}
    for t in board["prestige"]:
        t["sign"] = _HOUSE_SIGNS.get(t["house"], "?")
        t["name"] = _house(t["house"])
    d = view.get("decision") or {}
    if d.get("name") == "fields" and d.get("actor") == me:
        board["fields"] = {"double": bool(view.get("devil"))}
        for t in board["prestige"]:
            t["fields"] = _fields_chips(t["house"], view)
    d = board["decision"]
    if d is not None:
        d["who"] = _deciders(d, lambda s: names[s] if s < len(names) else str(s + 1))
    if view.get("scorings"):
        last = view["scorings"][-1]
        board["last_scoring"] = {"turn": last["turn"], "world": bool(last["world"]),
                                 "vp": list(last["vp"])}
    if own is not None and isinstance(me, int) and 0 <= me < len(names):  # the Sun, a swap...
        known = [c["card"] for c in own.get("hidden", []) if isinstance(c.get("card"), str)]
        if known:  # drawn on the board's table, not among the piles: pointable beside the hand
            sc["pickable"] = [{"label": "hidden", "shown": _("from your hidden cards"),
                               "cards": [face(c) for c in known]}]
    sc["board"] = board
    sc["round"] = _("turn {turn} of {turns}").format(turn=view["turn"], turns=view["turns"])
    relabel = {"minor": N_("discard pile: minors (top)"), "major": N_("discard pile: majors (top)"),
               "in play": N_("being played")}
    def relabelled(pile: dict[str, Any]) -> dict[str, Any]:
        key = pile["label"]
        return dict(pile, label=relabel[key], shown=_(relabel[key])) if key in relabel else pile
    piles = [relabelled(p) for p in base.get("piles", [])
             if not p["label"].endswith(": hidden")]  # those are a past scoring's, below
    if view.get("scorings"):
        last = view["scorings"][-1]
        for s, cards in enumerate(last.get("hidden") or []):
            if cards and 0 <= s < len(names):
                piles.append({"label": f"{names[s]}: hidden cards shown at the turn {last['turn']} scoring",
                              "shown": _("{name}: hidden cards shown at the turn {turn} scoring")
                              .format(name=names[s], turn=last["turn"]),
                              "cards": [face(c) for c in cards]})
    sc["piles"] = piles
    return sc


def rank_key(view: Mapping[str, Any], seat: int) -> tuple[int, ...]:
    """The final order (rules §4.4, R42): VP, then cards in hand (higher first)."""
    for p in view.get("players") or []:
        if p.get("seat") == seat:
            return (int(p.get("vp", 0)), len(p.get("hand") or []))
    return (0, 0)
