"""Screen models: what a front end draws for one view, from the game's presenter and the view.

`screen(view, names)` returns plain JSON: a title, the presenter's text (player names instead of
seat numbers), the hand as card faces in deck order, and every other pile of cards the view shows
(a trick, face-up cards, won piles...), each card with its owner's name when the view says it.
Found generically by walking the view, so any registered game gets a usable page; a presenter
may refine it with its `refine_screen(view, names, base)`.

`move_options(legal, view, names)` numbers the legal moves the way a person reads them: grouped
by kind, long groups split by suit, cards in hand order, each with its sentence.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from p2ptarot.engine import info as game_info

from p2ptarot.i18n import N_, _, language

from .cards import card_name
from .faces import face, is_card, sort_key
from .options import MoveOption
from .presenter import Presenter, move_json, presenter
from .seats import name_seats
from .rulebook import explain

#: groups of more moves than this are split by the suit of their card
SPLIT_OVER = 12
_SKIP_KEYS = {"hand", "game", "variant", "seat", "players"}
#: past rounds are summed up by the presenter's text, not drawn card by card
_HISTORY_KEYS = {"history", "round_winners", "rounds_played"}


#: what a presenter raises on a view it did not foresee: the screen falls back, the game goes on
_PRESENTER_FAULTS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def render_text(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """The presenter's screen with the players' names; indented JSON if the presenter fails."""
    import json
    try:
        return name_seats(presenter(str(view.get("game"))).render(view), names)
    except _PRESENTER_FAULTS:  # a screen is a nicety: never let it end a game
        return json.dumps(view, indent=1, sort_keys=True, default=str)


def describe(move: Any, view: Mapping[str, Any], names: Sequence[str]) -> str:
    """The presenter's sentence for a move with the players' names; its fields if it fails."""
    data = move_json(move)
    try:
        return name_seats(presenter(str(view.get("game"))).describe(data, view), names)
    except (KeyError, TypeError, ValueError, IndexError):
        pass  # a sentence is a nicety: fall back to the move's fields
    kind = data.pop("kind", "?")
    return " ".join([str(kind)] + [f"{k}={card_name(v) if is_card(v) else v}"
                                   for k, v in data.items()])


# ---- cards in a view -----------------------------------------------------------------------------
def _handle_cards(view: Any, out: dict[int, str | None] | None = None) -> dict[int, str | None]:
    """Every {"handle": h, "card": c} slot of a view (c None where hidden)."""
    out = {} if out is None else out
    if isinstance(view, Mapping):
        if isinstance(view.get("handle"), int) and "card" in view:
            out[view["handle"]] = view["card"] if isinstance(view["card"], str) else None
        for v in view.values():
            _handle_cards(v, out)
    elif isinstance(view, list):
        for v in view:
            _handle_cards(v, out)
    return out


def move_card(move: Mapping[str, Any], view: Mapping[str, Any]) -> str | None:
    """The card a move is about (to click it, sort it, group it): its `card`, `called` card, or
    the card behind its `handle` when this seat can see it."""
    for key in ("called", "card"):
        if is_card(move.get(key)):
            return str(move[key])
    if isinstance(move.get("handle"), int):
        card = _handle_cards(view).get(move["handle"])
        handles, hand = view.get("hand_handles"), view.get("hand")
        if card is None and isinstance(handles, list) and isinstance(hand, list) \
                and len(handles) == len(hand) and move["handle"] in handles:
            card = hand[handles.index(move["handle"])]  # a hand kept as two parallel lists
        return card if is_card(card) else None
    cards = move.get("cards")
    if isinstance(cards, list) and len(cards) == 1 and is_card(cards[0]):
        return str(cards[0])
    handles = move.get("handles")
    if isinstance(handles, list) and len(handles) == 1 and isinstance(handles[0], int):
        card = _handle_cards(view).get(handles[0])  # hide one card, give one card...
        return card if is_card(card) else None
    return None


def move_cards(move: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[str, ...]:
    """The cards a move names when it names several (discard three, hide two, engage a pair...):
    its `cards`, or the cards behind its `handles` this seat can see; () otherwise."""
    cards = move.get("cards")
    if isinstance(cards, list) and len(cards) >= 2 and all(is_card(c) for c in cards):
        return tuple(str(c) for c in cards)
    handles = move.get("handles")
    if isinstance(handles, list) and len(handles) >= 2 and all(isinstance(h, int) for h in handles):
        known = _handle_cards(view)
        found = [known.get(h) for h in handles]
        if all(is_card(c) for c in found):
            return tuple(str(c) for c in found)
    return ()


#: a card's suit as a long move list's sub-heading reads it ("call a card: swords")
SUIT_WORDS = {"swords": N_("swords"), "wands": N_("wands"), "cups": N_("cups"), "coins": N_("coins"),
              "trumps": N_("trumps"), "clubs": N_("clubs"), "diamonds": N_("diamonds"),
              "hearts": N_("hearts"), "spades": N_("spades"), "star": N_("stars"),
              "feather": N_("feathers"), "staff": N_("staves"), "cup": N_("cups"), "mask": N_("masks"),
              "rose": N_("roses"), "divine": N_("divines"), "major": N_("majors"), "world": N_("the world")}


def move_options(legal: Sequence[Any], view: Mapping[str, Any],
                 names: Sequence[str]) -> tuple[MoveOption, ...]:
    """The legal moves numbered from 1 in reading order; `index` maps back into `legal`."""
    mod = presenter(str(view.get("game")))
    rows = []
    for i, move in enumerate(legal):
        data = dict(move.to_json() if hasattr(move, "to_json") else move)
        card = move_card(data, view)
        rows.append((i, mod.group(data), card, describe(data, view, names),
                     _targets(mod, data, view), _cards(mod, data, view) or move_cards(data, view),
                     explain(str(view.get("game")), str(data.get("kind")))))
    order: dict[str, int] = {}
    for _i, group, *_rest in rows:
        order.setdefault(group, len(order))
    sizes = {g: sum(1 for r in rows if r[1] == g) for g in order}

    def heading(group: str, card: str | None) -> str:
        if sizes[group] > SPLIT_OVER and card is not None:
            suit = face(card).get("suit")
            return _("{group}: {suit}").format(
                group=group, suit=_(SUIT_WORDS[suit]) if suit in SUIT_WORDS else suit or _("other"))
        return group

    rows.sort(key=lambda r: (order[r[1]], sort_key(r[2]) if r[2] else (-1, ""), r[0]))
    return tuple(MoveOption(index=i, sentence=s, group=heading(g, c), card=c, targets=t, cards=cs,
                            help=h)
                 for i, g, c, s, t, cs, h in rows)


def _targets(mod: Presenter, move: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[str, ...]:
    """The board fields a move acts on ("loc-3", "house-cups"), from the presenter's `targets`:
    the page lets the player click them."""
    try:
        return tuple(str(t) for t in mod.targets(move, view))
    except (KeyError, TypeError, ValueError, IndexError):
        return ()


def _cards(mod: Presenter, move: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[str, ...]:
    """The cards of a several-card move as its presenter names them (`cards` hook), before the
    generic `move_cards`: Arcanum's swaps, Arcanoid's Chariot with the cards it loads."""
    try:
        cards = tuple(str(c) for c in mod.cards(move, view))
    except (KeyError, TypeError, ValueError, IndexError):
        return ()
    return cards if len(cards) >= 2 and all(is_card(c) for c in cards) else ()


# ---- the screen model ----------------------------------------------------------------------------
def _own_hand(view: Mapping[str, Any]) -> list[str | None]:
    me = view.get("seat")
    hand = view.get("hand")
    if isinstance(hand, list):
        return [c if isinstance(c, str) else c.get("card") if isinstance(c, Mapping) else None
                for c in hand]
    for p in view.get("participants", []) or []:
        if isinstance(p, Mapping) and p.get("seat") == me and not p.get("demon") \
                and isinstance(p.get("hand"), list):
            return [c.get("card") if isinstance(c, Mapping) else c for c in p["hand"]]
    return []


def _card_of(item: Any) -> tuple[str | None, int | None] | None:
    """A card in a pile: an id, a {"card": ...} slot, or a [seat, card] pair."""
    if is_card(item):
        return item, None
    if isinstance(item, Mapping) and "card" in item and "handle" in item:
        return (item["card"] if is_card(item["card"]) else None), None
    if isinstance(item, list) and len(item) == 2 and isinstance(item[0], int) and is_card(item[1]):
        return item[1], item[0]
    return None


def _label(path: list[str]) -> str:
    """The last meaningful key of a path ('participants[1].records.swords.cards' -> 'swords')."""
    keys = [k for k in path if k not in ("cards", "card") and not k.startswith("[")]
    return (keys[-1] if keys else "cards").replace("_", " ")


def _piles(view: Any, names: Sequence[str], path: list[str], out: list[dict[str, Any]],
           owner: int | None = None, demon: bool = False) -> None:
    """Collect every list of cards in `view` (history excluded) as a labelled pile."""
    if isinstance(view, Mapping):
        if "pid" in view and isinstance(view.get("seat"), int):
            owner, demon = view["seat"], bool(view.get("demon"))
        for key, value in view.items():
            if (not path and key in _SKIP_KEYS) or key in _HISTORY_KEYS:
                continue
            _piles(value, names, path + [str(key)], out, owner, demon)
    elif isinstance(view, list) and view:
        found = [_card_of(item) for item in view]
        if all(f is not None for f in found):
            cards = []
            for card, who in found:  # type: ignore[misc]  # `found` holds no None here: checked on the line above
                f = face(card)
                if who is not None and 0 <= who < len(names):
                    f["owner"] = names[who]
                cards.append(f)
            label = _label(path)
            if owner is not None and 0 <= owner < len(names):
                whose = _("{name}'s demon").format(name=names[owner]) if demon else names[owner]
                label = f"{whose}: {label}"
            out.append({"label": label, "cards": cards})
            return
        per_player = len(view) == len(names) and all(isinstance(v, list) for v in view)
        for i, item in enumerate(view):
            _piles(item, names, path + [f"[{i}]"], out, i if per_player else owner, demon)


def screen(view: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The screen model of `view` (a seat's or the public one) with the players' `names`: the
    generic one refined by the presenter (`refine_screen`: its own hand, a board, a form's data),
    its pile labels worded last (`_worded`)."""
    base = generic_screen(view, names)
    try:
        return _worded(dict(presenter(str(view.get("game"))).refine_screen(view, names, base)))
    except _PRESENTER_FAULTS:
        return _worded(base)  # the generic screen still shows the hand, the piles and the text


#: the view's keys that name piles of cards, as people read them (the labels stay English keys
#: while presenters refine the screen; `_worded` translates them last)
PILE_WORDS = {"hand": N_("hand"), "won": N_("won"), "trick": N_("trick"),
              "last trick": N_("last trick"), "figures": N_("figures"), "hidden": N_("hidden"),
              "in play": N_("in play"), "main": N_("main line"), "side": N_("side lines"),
              "pending": N_("pending"), "reserve": N_("reserve"), "tried": N_("tried"),
              "visible": N_("visible"), "major": N_("major"), "minor": N_("minor"),
              "swords": N_("swords"), "wands": N_("wands"), "cups": N_("cups"),
              "coins": N_("coins"), "removed": N_("removed"), "discard": N_("discard"),
              "deck": N_("deck"), "cards": N_("cards")}


def _worded(model: dict[str, Any]) -> dict[str, Any]:
    """The screen model with its pile labels in the interface's language ("Bob: won"): its
    `piles`, and the `pickable` piles a presenter adds (the seat's own cards kept outside its
    hand and not drawn among the piles, which the page lets it point at)."""
    worded = dict(model)
    for key in ("piles", "pickable"):
        if isinstance(model.get(key), list):
            worded[key] = _worded_piles(model[key])
    return worded


def _worded_piles(piles: list[Any]) -> list[Any]:
    out = []
    for pile in piles:
        if not isinstance(pile, dict) or not isinstance(pile.get("label"), str):
            out.append(pile)
            continue
        pile = dict(pile)
        shown = pile.pop("shown", None)
        if shown is None:
            owner, sep, key = pile["label"].rpartition(": ")
            word = _(PILE_WORDS[key]) if key in PILE_WORDS else key
            # "Bob: won", "Bob : remportées" (French puts a space before the colon)
            shown = _("{name}: {move}").format(name=owner, move=word) if sep else word
        pile["label"] = shown
        out.append(pile)
    return out


def _round(rnd: Any, rounds: Any) -> str:
    """'round 3/8'; after the last round the count stays at the last one (never 'round 9/8')."""
    if rnd is None:
        return ""
    if isinstance(rnd, int) and isinstance(rounds, int):
        rnd = min(rnd, rounds)
    return _("round {n}/{total}").format(n=rnd, total=rounds)


def _trick_label(pile: dict[str, Any], view: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """'trick' -> 'trick 7 of 32', 'last trick' -> 'last trick, won by Bob' where the view says."""
    number, total, winner = view.get("trick_number"), view.get("tricks"), view.get("last_winner")
    if pile["label"] == "trick" and type(number) is int:
        # `label` stays English for the presenters' filters; `shown` is what people read
        return dict(pile, label=f"trick {number}" + (f" of {total}" if type(total) is int else ""),
                    shown=_("trick {n} of {total}").format(n=number, total=total)
                    if type(total) is int else _("trick {n}").format(n=number))
    if pile["label"] == "last trick" and type(winner) is int and 0 <= winner < len(names):
        return dict(pile, label=f"last trick, won by {names[winner]}",
                    shown=_("last trick, won by {name}").format(name=names[winner]))
    return pile


def generic_screen(view: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The screen model found by walking the view: hand, piles of cards, the presenter's text."""
    game = str(view.get("game"))
    try:
        title = game_info(game).title_in(language())
    except Exception:
        title = game
    me = view.get("seat")
    hand = sorted(_own_hand(view), key=sort_key)
    piles: list[dict[str, Any]] = []
    _piles({k: v for k, v in view.items() if k != "hand"}, names, [], piles)
    if isinstance(me, int) and 0 <= me < len(names):  # our hand is drawn on its own
        piles = [p for p in piles if p["label"] != f"{names[me]}: hand"]
    piles = [_trick_label(p, view, names) for p in piles]
    rnd = view.get("round")
    return {
        "game": game, "title": title,
        "round": _round(rnd, view.get("rounds")),
        "seat": me, "you": names[me] if isinstance(me, int) and 0 <= me < len(names) else None,
        "hand": [face(c) for c in hand],
        "piles": piles,
        "text": render_text(view, names),
    }
