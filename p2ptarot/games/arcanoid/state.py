"""`ArcanoidState`: the arcanoïd engine (spec/games/arcanoid.md) behind the GameState contract.

The pipeline (pipeline.py) and the arcana (arcana/) are generators; this class pumps them: the
pending request is the current `turn()`, `_check` checks a move (pure), `_apply` sends it in. Inputs
are logged so `clone()` can rebuild the state by replay (generators cannot be deep-copied).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from p2ptarot.cards.arcanoid_tables import (CHARIOT, DEATH, DEVIL, FIELDS, HANGED_MAN, HERMIT, JUDGEMENT,
                                            JUSTICE, MOON, POPE, PRIESTESS, STAR, STRENGTH, SUN, TEMPERANCE,
                                            TOWER, WHEEL, WORLD, in_category)
from p2ptarot.engine import (Claim, EngineError, IllegalMove, Move, NotYourTurn, Outcome, Pass,
                             RandomChoice, Reveal, NOBODY, PUBLIC)
from p2ptarot.engine.flow import Ask, AskChance, Done, Flow, FlowState

from . import engage, legal, secret
from .secret import SECRET_CLAIMS, FoolOutcome
from .arcana import (calls, chariot, death, devil, fool, hanged_man, hermit, judgement_world,
                     justice, pope, priestess, strength, temperance, tower, wheel)
from .model import Ctx
from .moves import (MOVES, Abdicate, Call, CallAgain, ChariotAdd, ChariotDiscard, ChariotEngage,
                    ChariotLoad, Discard, Engage, Fool, Give, HangedMan, HermitMove, Judgement,
                    Play, Pope, Priestess, Show, Strength, Temperance, Tower, Vote, WheelDiscard,
                    World)
from .pipeline import Pipeline
from .battle import ABDICATION, Record
from .rules import DRESDEN, Rules
from .scoring import field_counts, game_winner
from .variants import rules_for
from .view import build_view
from p2ptarot.i18n.message import tr

PLAY_EFFECTS = {JUSTICE: justice.play, HERMIT: hermit.play, WHEEL: wheel.play, DEATH: death.play,
                DEVIL: devil.play}
#: which card each arcanum move must carry
ARCANUM_OF = {Priestess: (PRIESTESS,), Pope: (POPE,), Strength: (STRENGTH,),
              HangedMan: (HANGED_MAN,), Temperance: (TEMPERANCE,), Tower: (TOWER,),
              Call: (STAR, MOON, SUN), Judgement: (JUDGEMENT,), World: (WORLD,),
              Play: tuple(PLAY_EFFECTS), ChariotLoad: (CHARIOT,)}


class ArcanoidState(Pipeline, FlowState):
    NAME = "arcanoid"
    MOVES = MOVES

    def __init__(self, players: int, variant: str | None = "DRESDEN",
                 options: Mapping[str, Any] | None = None, omniscient: bool = True,
                 viewer: int | None = None) -> None:
        super().__init__(players, variant or DRESDEN.name, options or {}, omniscient, viewer)
        #: the variant's rules object: every number, switch and hook that varies (rules.py)
        self.rules: Rules = rules_for(self.variant)
        self._extra = {e.move: e for e in self.rules.extra_moves}
        own = [e.move for e in self.rules.extra_moves] + list(self.rules.extra_answers)
        if own:  # a variant's own moves join the vocabulary of this state only
            self.MOVES = {**MOVES, **{m.KIND: m for m in own}}  # type: ignore[misc]  # this state's vocabulary shadows the class's
        self.rounds = int(self.options.get("rounds", self.rules.rounds))
        fs = self.options.get("first_seat")
        self.first_seat: int = -1 if fs is None else int(fs) % players
        self.round_index = 0
        self.clock = 0
        self.epoch = -1
        self.renewals = 0
        self.steals = 0
        self.demons = 0
        self.round_winners: list[dict[str, int]] = []
        self.round_records: list[dict[str, list[dict]]] = []
        self._claims_by_handle: dict[int, list[Claim]] = {}
        #: handles an audit opened to everyone (their `seen` is not PUBLIC: no rule showed them)
        self._opened: set[int] = set()
        self._reset_round()
        self.first_player = 0
        self._start()

    # ---- the game loop -----------------------------------------------------------------------
    def _game(self) -> Flow:
        if self.first_seat < 0:
            self.first_seat = (yield AskChance(RandomChoice(self.players, "first player"))) % self.players
        for k in range(self.rounds):
            self.round_index = k
            yield from self.play_round()
        yield Done()

    # ---- contract ----------------------------------------------------------------------------
    def legal_moves(self, seat: int) -> list[Move]:
        req = self._req
        if not isinstance(req, Ask) or seat not in req.seats or seat in req.ctx.answers:
            return []
        ctx = req.ctx
        name = ctx.name
        if name == "turn":
            return legal.turn_moves(self, ctx.actor, seat)
        if name == "hermit":
            return [HermitMove(), Pass()]
        if name == "wheel":
            return wheel.legal_discards(self, seat, ctx)
        if name == "call-again":
            return calls.legal_again(self, seat, ctx)
        if name == "fool":
            return fool.legal(self, seat, ctx)
        if name == "pope":
            return pope.legal_show(self, seat, ctx)
        if name == "give":
            return calls.legal_give(self, seat, ctx)
        if name == "vote":
            return [Vote("yes"), Vote("no")]
        if name == "fool-outcome":
            return secret.legal_outcomes(self, seat, ctx)
        raise EngineError(f"unknown decision {name}")

    def apply(self, seat: int, move: Move, *, listed: bool = False) -> None:
        """`check`, then the declared face-up values against the opened cards
        (`_check_opened`), then the flow's logged apply."""
        if not listed:
            self.check(seat, move)
            self._check_opened(seat, move)
        super().apply(seat, move, listed=True)

    def _check_opened(self, seat: int, move: Move) -> None:
        """The cards `move` turns face up against their values. The table opens them to
        everyone by the mover's proven decryption shares before it applies the move (PROTOCOL
        §5), so every peer and the verifier know them here and refuse a false value together;
        the pure `check` judged them only where `usable_card` allowed, never from a third seat's
        private look (issue 24 item 5)."""
        for h, card in declared(move):
            known = self.cards[h] if 0 <= h < len(self.cards) else None
            if known is not None and known != card:
                raise IllegalMove(seat, tr("card {h} is not {card}: it opened as {known}",
                                           h=h, card=card, known=known),
                                  self.where())

    def move_reveals(self, seat: int, move: Move) -> tuple[Reveal, ...]:
        return tuple(Reveal(h, PUBLIC, seat) for h, _ in declared(move)
                     if 0 <= h < len(self.seen) and PUBLIC not in self.seen[h])

    # ---- claims ------------------------------------------------------------------------------
    def usable_card(self, handle: int, seat: int) -> str | None:
        """The value of `handle` as this state may use it to judge `seat`: in `seat`'s own state
        or an omniscient one, whatever it knows; elsewhere only a public value (shown to everyone
        or opened by an audit). A third seat's private knowledge (a Papesse's look, an engager's
        own cards, a Fool thief's look) never convicts: one peer alone would (issue 24 item 5)."""
        card = self.cards[handle] if 0 <= handle < len(self.cards) else None
        if card is None or self.omniscient or self.viewer == seat:
            return card
        return card if PUBLIC in self.seen[handle] or handle in self._opened else None

    def add_claim(self, seat: int, kind: str, detail: tuple[tuple[str, Any], ...], where: str) -> None:
        """A claim about `detail["handles"]`, decided by the values this state may use to judge
        `seat` (`usable_card`): at once for those, the others as they open to everyone."""
        claim = self._claim(seat, kind, detail, where)
        handles = dict(claim.detail)["handles"]
        self._watch_for_audit(handles)  # public handles, named by the claim
        for h in handles:
            known = self.usable_card(h, seat)
            if known is None:
                self._claims_by_handle.setdefault(h, []).append(claim)
            else:
                self._check_claim(claim, known)
        self._settle_if_decided(claim)

    def _settle_if_decided(self, claim: Claim) -> None:
        """A claim whose every handle is usable here and none contradicts it is settled (a secret
        engagement's claims are judged on all their cards together)."""
        if claim in self.claims and all(self.usable_card(h, claim.seat) is not None
                                           for h in dict(claim.detail)["handles"]):
            if claim.kind in SECRET_CLAIMS:
                reason = secret.decide(self, claim)
                if reason:
                    raise self._false_claim(claim, reason)
            self._settle_claim(claim)

    def _check_claim(self, claim: Claim, card: str) -> None:
        detail = dict(claim.detail)
        if claim.kind == "not-held" and card == detail["card"]:
            raise self._false_claim(claim, tr("claimed not to hold {card}, but held it", card=card))
        if claim.kind == "pope-all" and in_category(card, detail["category"]):
            raise self._false_claim(claim, tr("Hierophant: withheld {card} ({category})",
                                              card=card, category=detail['category']))

    def _on_learn(self, handle: int, card: str) -> None:
        waiting = self._claims_by_handle.pop(handle, [])
        later = [c for c in waiting if self.usable_card(handle, c.seat) is None]  # private here
        if later:
            self._claims_by_handle[handle] = later
        for claim in waiting:
            if claim not in later:
                self._check_claim(claim, card)
                self._settle_if_decided(claim)

    def _on_public(self, handle: int, card: str) -> None:
        """`handle` is open to everyone now: decide the claims that waited for it."""
        if PUBLIC not in self.seen[handle]:
            self._opened.add(handle)
        self._on_learn(handle, card)

    # ---- checking moves (pure) ---------------------------------------------------------------
    def _check(self, seat: int, move: Move) -> None:
        req = self._req
        assert isinstance(req, Ask)
        ctx = req.ctx
        if seat in ctx.answers:
            raise NotYourTurn(seat, tr("this seat has already answered"), self.where())
        self._check_answer(seat, move, ctx)

    def _check_answer(self, seat: int, move: Move, ctx: Ctx) -> None:
        name = ctx.name
        if (name in ("turn", "wheel", "call-again", "hermit", "fool-outcome")
                and seat != self.seat_of(ctx.actor)):
            raise NotYourTurn(seat, tr("another seat decides here"), self.where())
        expected = {"hermit": (HermitMove, Pass), "wheel": (WheelDiscard,),
                    "call-again": (CallAgain, Pass), "fool": (Fool, Pass), "pope": (Show,),
                    "give": (Give, Pass), "vote": (Vote,), "fool-outcome": (FoolOutcome,)}
        if name != "turn" and not isinstance(move, expected[name]):
            raise IllegalMove(seat, tr("{KIND} is not an answer to {name}",
                                       KIND=move.KIND, name=name), self.where())
        if name == "turn":
            self._check_turn(ctx.actor, move)
        elif name == "wheel":
            wheel.check_discard(self, seat, move, ctx)  # type: ignore[arg-type]  # the move's class was checked by the turn's context name
        elif name == "call-again" and isinstance(move, CallAgain):
            calls.check_again(self, seat, move, ctx)
            if move.called in ctx.data["tried"]:
                raise IllegalMove(seat, tr("that card was already called"), self.where())
        elif name == "fool" and isinstance(move, Fool):
            fool.check(self, seat, move, ctx)
        elif name == "pope":
            pope.check_show(self, seat, move, ctx)  # type: ignore[arg-type]  # the move's class was checked by the turn's context name
        elif name == "give":
            if isinstance(move, Give):
                calls.check_give(self, seat, move, ctx)
            else:
                calls.check_pass(self, seat, ctx)
        elif name == "fool-outcome":
            secret.check_outcome(self, seat, move, ctx)  # type: ignore[arg-type]  # the move's class was checked by the turn's context name
        elif name == "vote" and move.choice not in ("yes", "no"):  # type: ignore[attr-defined]  # the move's class was checked by the turn's context name
            raise IllegalMove(seat, tr("vote 'yes' or 'no'"), self.where())

    def _check_card(self, pid: int, handle: int, card: str, allowed: tuple[str, ...]) -> None:
        seat = self.seat_of(pid)
        if card not in allowed:
            raise IllegalMove(seat, tr("{name} {card} cannot make this move",
                                       name=type(card).__name__, card=repr(card)),
                              self.where())
        if handle not in self.available(pid):
            raise IllegalMove(seat, tr("card {h} is not available to this participant", h=handle),
                              self.where())
        known = self.usable_card(handle, seat)  # the rest: proven by the move's opening
        if known is not None and known != card:
            raise IllegalMove(seat, tr("card {handle} is not {card}",
                                       handle=handle, card=card), self.where())

    def _check_turn(self, pid: int, move: Move) -> None:
        seat = self.seat_of(pid)
        p = self.parts[pid]
        if isinstance(move, Discard):
            if move.handle not in self.available(pid):
                raise IllegalMove(seat, tr("discard one of your available cards"), self.where())
        elif isinstance(move, Abdicate):
            if move.field not in FIELDS or move.field in p.records:
                raise IllegalMove(seat, tr("abdicate on a field where you have no record"), self.where())
        elif isinstance(move, (Engage, ChariotEngage)):
            engage.check_engage(self, pid, move.fields, move.handles, move.cards, move.transmute,
                                isinstance(move, ChariotEngage))
            known = [self.usable_card(h, seat) for h in move.handles]
            if any(k is not None and k != c for k, c in zip(known, move.cards)):
                raise IllegalMove(seat, tr("declared cards do not match"), self.where())
        elif isinstance(move, ChariotAdd):
            chariot.check_add(self, pid, move)
        elif isinstance(move, ChariotDiscard):
            chariot.check_discard(self, pid, move)
        elif type(move) in self._extra:
            self._extra[type(move)].check(self, pid, move)
        elif type(move) in ARCANUM_OF:
            self._check_card(pid, move.handle, move.card, ARCANUM_OF[type(move)])  # type: ignore[attr-defined]  # every class in ARCANUM_OF has `handle` and `card`
            checker = {Priestess: priestess.check, Pope: pope.check, Strength: strength.check,
                       HangedMan: hanged_man.check, Temperance: temperance.check,
                       Tower: tower.check, Call: calls.check,
                       Judgement: judgement_world.check_judgement,
                       World: judgement_world.check_world, ChariotLoad: chariot.check_load}
            if type(move) in checker:
                checker[type(move)](self, pid, move)  # type: ignore[operator]  # the checker matches the move's class (the dict's key)
        else:
            raise IllegalMove(seat, tr("{KIND} is not a turn move", KIND=move.KIND), self.where())

    # ---- performing a checked turn move ------------------------------------------------------
    def perform(self, pid: int, move: Move) -> Flow:
        if isinstance(move, Discard):
            self.take(pid, move.handle)
            self.discard.append(move.handle)
            yield from self.refill(pid)
            return False
        if isinstance(move, Abdicate):
            self.add_record(Record(pid, move.field, ABDICATION, self.clock))
            self.finish_checks(pid)
            yield from self.refill(pid)
            return False
        if isinstance(move, (Engage, ChariotEngage)):
            yield from engage.perform_engage(self, pid, move.fields, move.handles, move.cards,
                                             move.transmute, isinstance(move, ChariotEngage))
            return False
        if isinstance(move, ChariotAdd):
            return (yield from chariot.play_add(self, pid, move))
        if isinstance(move, ChariotDiscard):
            return (yield from chariot.play_discard(self, pid, move))
        if type(move) in self._extra:
            return (yield from self._extra[type(move)].perform(self, pid, move))
        handle, card = move.handle, move.card  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
        self.declare(self.seat_of(pid), [(handle, card)])
        zone = self.take(pid, handle)
        effects: dict[type[Move], Callable[..., Flow]] = {Priestess: priestess.play, Pope: pope.play, Strength: strength.play,
                   HangedMan: hanged_man.play, Temperance: temperance.play, Tower: tower.play,
                   Call: calls.play, Judgement: judgement_world.play_judgement,
                   World: judgement_world.play_world, ChariotLoad: chariot.play_load}
        effect: Callable[..., Flow] = PLAY_EFFECTS[card] if isinstance(move, Play) else effects[type(move)]
        return (yield from effect(self, pid, move, zone))

    # ---- views and outcome -------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def outcome(self) -> Outcome | None:
        if not self.is_done():
            return None
        # G8: the USA (credited as NOBODY, all USA seats together) ranks with the players; if
        # it comes first, no seat wins (ruling 16)
        ranked = list(range(self.players)) + ([NOBODY] if self.rules.usa_seats else [])
        counts = field_counts(self.round_winners, ranked)
        scores = tuple(sum(counts[s].values()) for s in range(self.players))
        w = game_winner(self.round_winners, ranked)
        detail: dict[str, Any] = {"rounds": [dict(r) for r in self.round_winners],
                  "by_suit": {str(s): counts[s] for s in range(self.players)}}
        if self.rules.usa_seats:
            detail["usa_fields"] = sum(counts[NOBODY].values())
        return Outcome(scores, () if w is None or w == NOBODY else (w,), detail)


def declared(move: Move) -> list[tuple[int, str]]:
    """(handle, card) of every card `move` turns face up, with the value it declares (moves.py:
    a face-up card travels with its value; the Wheel's discards and a secret engagement's cards
    stay face down)."""
    pairs: list[tuple[int, str]] = []
    if hasattr(move, "handle") and hasattr(move, "card"):
        pairs.append((move.handle, move.card))
    if isinstance(move, WheelDiscard):
        pairs.extend(zip(move.promote, move.cards))  # the discards stay face down
    elif hasattr(move, "cards"):
        pairs.extend(zip(getattr(move, "handles"), getattr(move, "cards")))
    return pairs
