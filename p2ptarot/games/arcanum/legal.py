"""Legality per pending decision (rules §4, §6, §8): `check` (pure) and `candidates` (move space).

`check` judges from the state's own knowledge: a card it does not know passes and becomes a claim
when applied (§10). `candidates` builds moves from one seat's knowledge; `legal_moves` keeps those
`check` accepts. Move spaces are complete except the Temperance swaps, capped (spec/games/arcanum.md A5).
"""

from __future__ import annotations

from itertools import combinations, permutations, product
from typing import TYPE_CHECKING, Callable, Iterator

from p2ptarot.engine import IllegalMove, Move, NotYourTurn, Pass

from .rules import FOOL, HOUSES, MAJOR, MINOR, is_card, kind_of
from .model import Ctx
from .minor import minor_moves, relocations
from .moves import (Choose, Discard, Empress, Expose, Fields, Give, Hide, House, PlayMajor,
                    PlayMinor, Relocate, Remove, Return, Swap, Tower)
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:
    from .api import ArcanumGame

SWAP_CAP = 300

#: decision -> the move classes that answer it
ANSWERS: dict[str, tuple[type[Move], ...]] = {
    "act": (PlayMinor, PlayMajor, Pass), "draw-choice": (Choose,), "limit": (Discard,),
    "hide": (Hide,), "relocate": (Relocate, Pass), "fool-mode": (Choose,), "artisan": (Choose,),
    "harbour": (Choose,), "market": (Discard, Pass), "fields": (Fields,),
    "cathedral": (Hide, Choose), "castle": (Discard,), "chariot": (Discard,),
    "judgement": (Discard,), "house": (House,), "empress": (Empress,), "wheel": (Give,),
    "death": (Discard,), "swap": (Swap,), "tower": (Tower,), "remove": (Remove,),
    "return": (Return,), "declare": (House,), "sun": (Expose,), "forced-draw": (Choose,)}
#: decisions taken by everyone concerned at once; the others belong to one seat
SIMULTANEOUS = ("hide-all", "castle", "chariot", "judgement", "wheel", "sun")
OPTIONS: dict[str, tuple[str, ...]] = {
    "draw-choice": ("minors", "major"), "fool-mode": ("joker", "hide"),
    "artisan": ("minors", "major"), "harbour": ("draw", "pass"), "cathedral": ("draw",),
    "forced-draw": ("draw", "keep")}


def _bad(g: ArcanumGame, seat: int, reason: str) -> IllegalMove:
    return IllegalMove(seat, reason, g.where())


# ---- shared checks -----------------------------------------------------------------------------
def _distinct_in(g: ArcanumGame, seat: int, handles: tuple[int, ...], zone: list[int],
                 what: str) -> None:
    if len(set(handles)) != len(handles) or not set(handles) <= set(zone):
        raise _bad(g, seat, tr("name distinct cards of your {what}", what=what))


def _check_cards(g: ArcanumGame, seat: int, handles: tuple[int, ...], cards: tuple[str, ...],
                 kind: str | None = None) -> None:
    """Cards opened by a move: valid ids, matching what is known, of the required kind."""
    if len(cards) != len(handles):
        raise _bad(g, seat, tr("give one card id per handle"))
    for h, c in zip(handles, cards):
        if not is_card(c):
            raise _bad(g, seat, tr("{c} is not an Arcanum card", c=repr(c)))
        if g.cards[h] is not None and g.cards[h] != c:
            raise _bad(g, seat, tr("card {handle} is not {card}", handle=h, card=c))
        known = g.kind[h]
        if known is not None and known != kind_of(c):
            raise _bad(g, seat, tr("card {h} is a {known}, not {c}", h=h, known=known, c=c))
        if kind is not None and kind_of(c) != kind:
            raise _bad(g, seat, tr("{c} is not a {kind}", c=c, kind=kind))


def _hideable(g: ArcanumGame, seat: int, handles: tuple[int, ...]) -> None:
    """Hides name minors (R26: never the Fool); an unknown kind passes and becomes a claim."""
    _distinct_in(g, seat, handles, g.z.hands[seat], "hand")
    for h in handles:
        if _judged_kind(g, seat, h) not in (None, MINOR):
            raise _bad(g, seat, tr("only minors can be hidden this way"))


def _judged_kind(g: ArcanumGame, seat: int, handle: int) -> str | None:
    """The kind of `seat`'s card `handle` as this state may use it to judge `seat`'s move: what
    it knows in `seat`'s own state or an omniscient one, else the public kind only — never a
    third seat's private knowledge (a Wheel card's giver), which would convict at one peer alone;
    the move then makes a claim that every peer decides when the card opens (A10)."""
    return g.known_kind(handle) if g.omniscient or g.viewer == seat else g.kind[handle]


def _knows_minor(g: ArcanumGame, seat: int) -> bool | None:
    """Whether `seat` holds a minor, as this state may judge it (None: some kinds unknown here).

    Only the seat's own state (and an omniscient one) use the values they know; any other state
    judges from the public kinds alone, even if it privately knows a card of that hand (the giver
    of a Wheel card): the answer is then a claim that every peer decides together when the card
    opens (A10; a refusal from private knowledge would convict at one peer only)."""
    kinds = [_judged_kind(g, seat, h) for h in g.z.hands[seat]]
    if MINOR in kinds:
        return True
    return None if None in kinds else False


# ---- check ---------------------------------------------------------------------------------------
def check(g: ArcanumGame, seat: int, move: Move, ctx: Ctx) -> None:
    name = ctx.name
    if seat in ctx.answers:
        raise NotYourTurn(seat, tr("this seat has already answered"), g.where())
    if not isinstance(move, ANSWERS[name]):
        raise _bad(g, seat, tr("{KIND} does not answer {name}", KIND=move.KIND, name=name))
    if isinstance(move, Choose):
        options = OPTIONS[name]
        if move.option not in options:
            raise _bad(g, seat, tr("choose one of {options}", options=', '.join(options)))
    CHECKS[name](g, seat, move, ctx)


def _act(g: ArcanumGame, seat: int, move: Move, ctx: Ctx) -> None:
    if isinstance(move, Pass):
        if not g.minor_done:
            raise _bad(g, seat, tr("a minor must be played first (§4.2)"))
        return
    hand = g.z.hands[seat]
    handle, card = move.handle, move.card  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
    if handle not in hand:
        raise _bad(g, seat, tr("card {handle} is not in your hand", handle=handle))
    if isinstance(move, PlayMinor):
        if g.minor_done:
            raise _bad(g, seat, tr("one minor per activation"))
        _check_cards(g, seat, (handle,), (card,), MINOR)
        if (move.figure, move.dest) not in minor_moves(g, card):
            raise _bad(g, seat, tr("{card} cannot move {nothing} to {dest}",
                                   card=card, nothing=move.figure or 'nothing', dest=move.dest))
    else:
        if g.major_done:
            raise _bad(g, seat, tr("one major per activation"))
        _check_cards(g, seat, (handle,), (card,), MAJOR)
        if card == "major-13" and _knows_minor(g, seat) is False:
            raise _bad(g, seat, tr("Death needs a minor in hand (R32)"))


def _draw_choice(g: ArcanumGame, seat: int, move: Choose, ctx: Ctx) -> None:
    if move.option == "major" and not g.majors_in_play():
        raise _bad(g, seat, tr("majors are not in play"))


def _limit(g: ArcanumGame, seat: int, move: Discard, ctx: Ctx) -> None:
    if len(move.handles) != ctx.data["count"]:
        raise _bad(g, seat, tr("discard exactly {count} cards", count=ctx.data['count']))
    _distinct_in(g, seat, move.handles, g.z.hands[seat], "hand")
    if set(move.handles) & set(ctx.data["keep"]):
        raise _bad(g, seat, tr("the minor just drawn by force must be played (A1)"))
    _check_cards(g, seat, move.handles, move.cards)


def _hide(g: ArcanumGame, seat: int, move: Hide, ctx: Ctx) -> None:
    n = len(move.handles)
    low = ctx.data["min"]
    if n == 0 and low and g.public_has_minor(seat) is None:
        if _knows_minor(g, seat):
            raise _bad(g, seat, tr("you hold a minor: hide one"))
        low = 0
    if not low <= n <= ctx.data["max"]:
        raise _bad(g, seat, tr("hide {low} to {max} minors", low=low, max=ctx.data['max']))
    _hideable(g, seat, move.handles)


def _relocate(g: ArcanumGame, seat: int, move: Move, ctx: Ctx) -> None:
    if isinstance(move, Pass):
        if not ctx.data["optional"]:
            raise _bad(g, seat, tr("the Fool's joker must move a figure"))
    elif not (g.movable(move.figure) and 1 <= move.dest <= 10  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
              and not g.frozen(move.dest) and g.figures[move.figure] != move.dest):  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
        raise _bad(g, seat, tr("move a figure outside frozen locations to another unfrozen one"))


def _fool_mode(g: ArcanumGame, seat: int, move: Choose, ctx: Ctx) -> None:
    if move.option == "joker" and not ctx.data["joker"]:
        raise _bad(g, seat, tr("no figure can move: the Fool can only be hidden (R33)"))


def _artisan(g: ArcanumGame, seat: int, move: Choose, ctx: Ctx) -> None:
    pass


def _market(g: ArcanumGame, seat: int, move: Move, ctx: Ctx) -> None:
    if isinstance(move, Discard):
        if len(move.handles) != 1:
            raise _bad(g, seat, tr("trade exactly one card"))
        _distinct_in(g, seat, move.handles, g.z.hands[seat], "hand")
        _check_cards(g, seat, move.handles, move.cards)
        if kind_of(move.cards[0]) == MAJOR and not g.majors_in_play():
            raise _bad(g, seat, tr("majors are not in play (R45)"))


def _fields(g: ArcanumGame, seat: int, move: Fields, ctx: Ctx) -> None:
    if len(move.changes) != 4 or any(c not in (-1, 0, 1) for c in move.changes):
        raise _bad(g, seat, tr("four changes, each -1, 0 or 1, in house order"))


def _cathedral(g: ArcanumGame, seat: int, move: Move, ctx: Ctx) -> None:
    if isinstance(move, Hide):
        if len(move.handles) != 1:
            raise _bad(g, seat, tr("hide exactly one minor"))
        _hideable(g, seat, move.handles)


def _discard_one(g: ArcanumGame, seat: int, move: Discard, ctx: Ctx) -> None:
    if len(move.handles) != 1:
        raise _bad(g, seat, tr("discard exactly one card"))
    _distinct_in(g, seat, move.handles, g.z.hands[seat], "hand")
    _check_cards(g, seat, move.handles, move.cards)


def _house(g: ArcanumGame, seat: int, move: House, ctx: Ctx) -> None:
    if move.house not in HOUSES:
        raise _bad(g, seat, tr("a House is one of {HOUSES}", HOUSES=', '.join(HOUSES)))


def _empress(g: ArcanumGame, seat: int, move: Empress, ctx: Ctx) -> None:
    if move.up not in HOUSES or move.down not in HOUSES or move.up == move.down:
        raise _bad(g, seat, tr("two different Houses (R33)"))


def _wheel(g: ArcanumGame, seat: int, move: Give, ctx: Ctx) -> None:
    want = min(2, len(g.z.hands[seat]))
    if len(move.handles) != want:
        raise _bad(g, seat, tr("give exactly {want} cards (R35)", want=want))
    _distinct_in(g, seat, move.handles, g.z.hands[seat], "hand")


def _death(g: ArcanumGame, seat: int, move: Discard, ctx: Ctx) -> None:
    if not 1 <= len(move.handles) <= 2:
        raise _bad(g, seat, tr("discard 1 or 2 minors (R32)"))
    _distinct_in(g, seat, move.handles, g.z.hands[seat], "hand")
    _check_cards(g, seat, move.handles, move.cards, MINOR)


def _swap(g: ArcanumGame, seat: int, move: Swap, ctx: Ctx) -> None:
    n = len(move.give)
    if n > 2 or len(move.take) != n or len(move.cards) != n:
        raise _bad(g, seat, tr("up to two swaps, one hidden card and one card id entry per given "
                               "card"))
    _distinct_in(g, seat, move.give, g.z.hands[seat], "hand")
    _distinct_in(g, seat, move.take, g.z.hidden[seat], "hidden area")
    for h, c in zip(move.give, move.cards):
        known = _judged_kind(g, seat, h)
        if c == "":
            if known == MAJOR:
                raise _bad(g, seat, tr("a major entering the hidden area is opened (R25)"))
        elif c != FOOL:
            raise _bad(g, seat, tr("only minors and the Fool can be hidden (R25)"))
        else:
            _check_cards(g, seat, (h,), (c,))


def _tower(g: ArcanumGame, seat: int, move: Tower, ctx: Ctx) -> None:
    locs = move.locations
    ok = (len(locs) == 1 and 1 <= locs[0] <= 10) or (
        len(locs) == 2 and frozenset(locs) in g.board.tower_pairs)
    if not ok:
        raise _bad(g, seat, tr("one location, or two forming a tower pair of the board (R22)"))


def _remove(g: ArcanumGame, seat: int, move: Remove, ctx: Ctx) -> None:
    if not g.movable(move.figure):
        raise _bad(g, seat, tr("remove a figure on the board outside frozen locations (R23)"))


def _return(g: ArcanumGame, seat: int, move: Return, ctx: Ctx) -> None:
    if move.dest not in g.open_locations() or move.dest in ctx.data["taken"]:
        raise _bad(g, seat, tr("an unfrozen location no other returned figure went to (R23)"))


def _sun(g: ArcanumGame, seat: int, move: Expose, ctx: Ctx) -> None:
    down = g.face_down(seat)
    want = min(3, len(down))
    if len(move.handles) != want:
        raise _bad(g, seat, tr("turn exactly {want} face-down hidden cards face up (R24)",
                               want=want))
    _distinct_in(g, seat, move.handles, down, "face-down hidden cards")
    _check_cards(g, seat, move.handles, move.cards)


def _forced_draw(g: ArcanumGame, seat: int, move: Choose, ctx: Ctx) -> None:
    knows = _knows_minor(g, seat)
    if move.option == "draw" and knows:
        raise _bad(g, seat, tr("you hold a minor: no forced draw (R11)"))
    if move.option == "keep" and knows is False:
        raise _bad(g, seat, tr("you hold no minor: draw one (R11)"))


CHECKS: dict[str, Callable[..., None]] = {
    "act": _act, "draw-choice": _draw_choice, "limit": _limit, "hide": _hide,
    "relocate": _relocate, "fool-mode": _fool_mode, "artisan": _artisan, "harbour": _artisan,
    "market": _market, "fields": _fields, "cathedral": _cathedral, "castle": _discard_one,
    "chariot": _discard_one, "judgement": _discard_one, "house": _house, "empress": _empress,
    "wheel": _wheel, "death": _death, "swap": _swap, "tower": _tower, "remove": _remove,
    "return": _return, "declare": _house, "sun": _sun, "forced-draw": _forced_draw}


# ---- candidates (one seat's knowledge) -----------------------------------------------------------
def _known_hand(g: ArcanumGame, seat: int, kind: str | None = None) -> list[tuple[int, str]]:
    out = []
    for h in g.z.hands[seat]:
        card = g.card_for(h, seat)
        if card is not None and (kind is None or kind_of(card) == kind):
            out.append((h, card))
    return out


def _discards(g: ArcanumGame, seat: int, count: int, pool: list[tuple[int, str]]) -> Iterator[Move]:
    for combo in combinations(pool, count):
        yield Discard(tuple(h for h, _ in combo), tuple(c for _, c in combo))


def candidates(g: ArcanumGame, seat: int, ctx: Ctx) -> Iterator[Move]:
    name = ctx.name
    if name == "act":
        if not g.minor_done:
            for h, card in _known_hand(g, seat, MINOR):
                for fig, dest in minor_moves(g, card):
                    yield PlayMinor(h, card, fig, dest)
        if not g.major_done:
            for h, card in _known_hand(g, seat, MAJOR):
                yield PlayMajor(h, card)
        if g.minor_done:
            yield Pass()
    elif name in OPTIONS:
        for option in OPTIONS[name]:
            yield Choose(option)
        if name == "cathedral":
            for h, _ in _known_hand(g, seat, MINOR):
                yield Hide((h,))
    elif name == "limit":
        keep = set(ctx.data["keep"])
        yield from _discards(g, seat, ctx.data["count"],
                             [p for p in _known_hand(g, seat) if p[0] not in keep])
    elif name == "hide":
        minors = [h for h, _ in _known_hand(g, seat, MINOR)]
        for k in range(0, ctx.data["max"] + 1):
            for combo in combinations(minors, k):
                yield Hide(combo)
    elif name == "relocate":
        for fig, dest in relocations(g):
            yield Relocate(fig, dest)
        yield Pass()
    elif name == "market":
        yield Pass()
        yield from _discards(g, seat, 1, _known_hand(g, seat))
    elif name == "fields":
        for changes in product((1, 0, -1), repeat=4):
            yield Fields(changes)
    elif name in ("castle", "chariot", "judgement"):
        yield from _discards(g, seat, 1, _known_hand(g, seat))
    elif name in ("house", "declare"):
        for house in HOUSES:
            yield House(house)
    elif name == "empress":
        for up, down in permutations(HOUSES, 2):
            yield Empress(up, down)
    elif name == "wheel":
        for combo in combinations(g.z.hands[seat], min(2, len(g.z.hands[seat]))):
            yield Give(combo)
    elif name == "death":
        known_minors = _known_hand(g, seat, MINOR)
        yield from _discards(g, seat, 1, known_minors)
        yield from _discards(g, seat, 2, known_minors)
    elif name == "swap":
        yield from _swaps(g, seat)
    elif name == "tower":
        for loc in range(1, 11):
            yield Tower((loc,))
        for pair in sorted(tuple(sorted(p)) for p in g.board.tower_pairs):
            yield Tower(pair)
    elif name == "remove":
        for fig in sorted(f for f in g.figures if g.movable(f)):
            yield Remove(fig)
    elif name == "return":
        for loc in g.open_locations():
            yield Return(loc)
    elif name == "sun":
        hidden = [(h, g.card_for(h, seat)) for h in g.face_down(seat)]
        known = [(h, c) for h, c in hidden if c is not None]
        for shown in combinations(known, min(3, len(hidden))):
            yield Expose(tuple(h for h, _ in shown), tuple(c for _, c in shown))


def _swaps(g: ArcanumGame, seat: int) -> Iterator[Move]:
    give = [(h, "" if kind_of(c) == MINOR else c) for h, c in _known_hand(g, seat)
            if kind_of(c) == MINOR or c == FOOL]
    hidden = list(g.z.hidden[seat])
    yield Swap((), (), ())
    count = 1
    for k in (1, 2):
        for gs in combinations(give, k):
            for ts in permutations(hidden, k):
                yield Swap(tuple(h for h, _ in gs), ts, tuple(c for _, c in gs))
                count += 1
                if count >= SWAP_CAP:
                    return
