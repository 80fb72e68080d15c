"""The generic engine contract test (ENGINE.md §"Contract test"), run over every registered game,
every playable variant and every player count, in the spirit of OpenSpiel's `random_sim_test`.

One seeded random game per case, played on an omniscient state while a partial-knowledge state
per seat and a public observer's state follow it exactly as network peers would (fed only the
values each is shown; another seat's `Commit` reaches them without its value). At every decision:
- `check` accepts every listed legal move (a seeded sample) and refuses the same move from a seat
  the turn does not expect, a move of a foreign class, and mutations of it (a field of the wrong
  type, an impossible handle or value);
- moves round-trip through JSON; views are JSON-native;
- each seat's partial state agrees with the omniscient state on the turn, that seat's legal moves
  and that seat's view (so the omniscient view shows a seat nothing it was not shown), and (every
  fourth decision and at the end) knows no card value it was not shown, nor does the observer;
- a clone (at the first and eleventh decision, and at the end) is an equal, independent state;
Each deck epoch is audited as the table does it (when the deck's next epoch is shuffled, and at
the end): every state names the same `audit_opens()` (public bookkeeping), and the partial states
learn exactly those values of the closing epoch, nothing else. At the end every partial state
reaches the same outcome with every claim decided and none found false — so no game needs a card
the audit keeps hidden; replaying the log into a fresh state is deterministic.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Iterator, Mapping

import pytest

from p2ptarot.engine import (layer_module, PUBLIC, Commit, EngineError, GameState, IllegalMove, Move, NotYourTurn,
                             RandomChoice, RandomDealer, Shuffle, TurnKind, create, games)
from p2ptarot.engine.types import move_fields

#: decisions per game whose legal moves are all `check`ed (the rest: a sample of SAMPLE)
SAMPLE = 4
#: a bound on one game's decisions, so a non-terminating engine fails instead of hanging
MAX_STEPS = 20_000
#: seeds per case (each game takes well under a second for a few players)
SEEDS = (1, 2)


#: variants per game played at every player count with every seed; the others (arcanoïd's
#: lineage and its GAZA combinations) at the smallest, a middle and the largest count, one seed
FULL_VARIANTS = 6


def _counts(gi: Any, rank: int) -> tuple[range | tuple[int, ...], tuple[int, ...]]:
    every = range(gi.min_players, gi.max_players + 1)
    if rank < FULL_VARIANTS:
        return every, SEEDS
    middle = (gi.min_players + gi.max_players) // 2
    return tuple(sorted({gi.min_players, middle, gi.max_players})), SEEDS[:1]


def _cases() -> Iterator[Any]:
    for gi in games():
        variants = gi.playable_variants() or (None,)
        for rank, variant in enumerate(variants):
            counts, seeds = _counts(gi, rank)
            for players in counts:
                for seed in seeds:
                    yield pytest.param(gi.name, variant, players, seed,
                                       id=f"{gi.name}-{variant or 'base'}-{players}p-s{seed}")


@dataclass(frozen=True, slots=True)
class Stranger(Move):
    """A move no game declares."""

    KIND: ClassVar[str] = "contract-test-stranger"


class Peers:
    """The omniscient state plus what each network peer (and an observer) would hold."""

    def __init__(self, game: str, variant: str | None, players: int) -> None:
        self.game, self.variant, self.players = game, variant, players
        self.omni = create(game, players, variant)
        self.partial = {seat: create(game, players, variant, viewer=seat, omniscient=False)
                        for seat in range(players)}
        self.partial[None] = create(game, players, variant, viewer=None, omniscient=False)  # type: ignore[index]
        self.log: list[tuple[Any, ...]] = []
        self.epoch_of: dict[int, tuple[str, int]] = {}  # handle -> its deck epoch
        self.open_epochs: dict[str, int] = {}  # deck -> its epoch not audited yet
        self.opened: set[int] = set()  # handles the audits opened, over the game
        self.shown: dict[int | None, set[int]] = {v: set() for v in self.partial}  # by a move

    def shuffled(self, chance: Shuffle) -> None:
        """Before a shuffle: a new epoch of a deck first audits its previous one (as the table
        does); then its handles belong to the new epoch (a reshuffle's to its source's)."""
        if chance.cards:
            previous = self.open_epochs.get(chance.deck)
            if previous is not None:
                self.audit(chance.deck, previous)
            self.open_epochs[chance.deck] = chance.epoch
            where = (chance.deck, chance.epoch)
        else:
            where = self.epoch_of[chance.source[0]]
        for h in chance.handles:
            self.epoch_of[h] = where

    def audit(self, deck: str, epoch: int) -> None:
        """Close one epoch: open to every partial state exactly what the engine asks for."""
        opens = self.omni.audit_opens()
        for viewer, p in self.partial.items():
            assert p.audit_opens() == opens, f"seat {viewer}'s state asks another audit"
        assert all(PUBLIC not in self.omni.seen[h] for h in opens)
        del self.open_epochs[deck]
        for h in sorted(opens):
            if self.epoch_of[h] != (deck, epoch):
                continue
            self.opened.add(h)
            for p in self.partial.values():  # opened to everyone, known here before or not
                p.audited(h, self.omni.cards[h])  # type: ignore[arg-type]

    def audit_all(self) -> None:
        for deck, epoch in list(self.open_epochs.items()):
            self.audit(deck, epoch)

    def chance(self, result: Any) -> None:
        self.log.append(("c", result))
        self.omni.resolve_chance(result)
        for p in self.partial.values():
            p.resolve_chance({} if isinstance(result, Mapping) else result)

    def reveal(self) -> None:
        turn = self.omni.turn()
        self.log.append(("r",))
        for viewer, p in self.partial.items():
            p.resolve_reveals({r.handle: self.omni.cards[r.handle] for r in turn.reveals
                               if r.to == PUBLIC or (viewer is not None and r.to == viewer)})
        self.omni.resolve_reveals()

    def move(self, seat: int, move: Move) -> None:
        self.log.append(("m", seat, move))
        shown = [r for r in self.omni.move_reveals(seat, move)]
        self.omni.apply(seat, move)
        for viewer, p in self.partial.items():
            for r in shown:  # the table opens the move's cards before the engine sees the move
                if r.to == PUBLIC or r.to == viewer:
                    self.shown[viewer].add(r.handle)
                    p.learn(r.handle, self.omni.cards[r.handle])  # type: ignore[arg-type]
            p.apply(seat, move if viewer == seat or not isinstance(move, Commit)
                    else replace(move, value=""))

    def agree(self, seats: tuple[int, ...]) -> tuple[dict[int | None, Any], dict[int, list[Move]]]:
        """Check every partial state against the omniscient one; return the omniscient views
        (by viewer) and legal moves (by seat to act) it computed, for the step's other checks."""
        turn = self.omni.turn()
        views: dict[int | None, Any] = {}
        legal: dict[int, list[Move]] = {}
        for viewer, p in self.partial.items():
            assert p.turn() == turn, f"seat {viewer}'s state expects {p.turn()}, not {turn}"
            views[viewer] = self.omni.view(viewer)
            assert p.view(viewer) == views[viewer], f"view of {viewer} differs"
            if viewer in seats:
                legal[viewer] = self.omni.legal_moves(viewer)  # type: ignore[index]
                assert p.legal_moves(viewer) == legal[viewer]  # type: ignore[index]
        return views, legal

    def entitled(self) -> None:
        """Every value a peer (or the observer) knows was shown to it: by a reveal its state
        records in `seen`, with a move, or by an audit."""
        for viewer, p in self.partial.items():
            allowed = self.shown[viewer] | self.opened
            unshown = [h for h, card in enumerate(p.cards) if card is not None and h not in allowed
                       and PUBLIC not in p.seen[h] and viewer not in p.seen[h]]
            assert not unshown, f"seat {viewer} knows cards {unshown} it was never shown"


def _json_native(value: Any) -> bool:
    return json.loads(json.dumps(value)) == value


def _mutations(move: Move) -> Iterator[Move]:
    """Variants of `move` no rules can accept: each field of the wrong type, then impossible values."""
    for name, _, _ in move_fields(type(move)):
        value = getattr(move, name)
        if isinstance(value, bool):
            yield replace(move, **{name: "yes"})
        elif isinstance(value, int):
            yield replace(move, **{name: str(value)})
            yield replace(move, **{name: True})
            yield replace(move, **{name: 10**6})
        elif isinstance(value, str):
            yield replace(move, **{name: 7})
            if not isinstance(move, Commit):  # a commitment's value is free text
                yield replace(move, **{name: "\x00no-such-value"})
        elif isinstance(value, tuple):
            yield replace(move, **{name: value[0] if value else 0})
            yield replace(move, **{name: tuple(str(v) for v in value) or ("x",)})
            if value and isinstance(value[0], int):
                yield replace(move, **{name: (10**6,) + value[1:]})


def _check_decision(state: GameState, seat: int, legal: list[Move], rng: random.Random,
                    everything: bool, public_view: Any) -> None:
    """`public_view`: the state's public view before the checks (computed once per step)."""
    assert legal, f"seat {seat} must act but has no legal move"
    turn = state.turn()
    before = (turn, public_view)
    sample = legal if everything or len(legal) <= SAMPLE else rng.sample(legal, SAMPLE)
    for move in sample:
        state.check(seat, move)
        data = json.loads(json.dumps(move.to_json()))
        assert state.move_from_json(data) == move
        for other in range(state.players):
            if other not in turn.seats:
                with pytest.raises(NotYourTurn):
                    state.check(other, move)
    probe = rng.choice(legal)
    with pytest.raises(IllegalMove):
        state.check(seat, Stranger())
    for bad in _mutations(probe):
        if bad in legal:
            continue
        with pytest.raises(IllegalMove):
            state.check(seat, bad)
        with pytest.raises(EngineError):  # the wire form is refused as well (or is refused by check)
            parsed = state.move_from_json(json.loads(json.dumps(bad.to_json())))
            state.check(seat, parsed)
    assert (state.turn(), state.view(None)) == before, "check changed the state"


def _same_as_clone(state: GameState, seats: tuple[int, ...]) -> GameState:
    """A clone (bots' look-ahead; clone-by-replay in the generator games) is the same state and
    an independent one."""
    copy = state.clone()
    assert copy is not state and copy.turn() == state.turn()
    assert copy.view(None) == state.view(None) and copy.cards == state.cards
    for seat in seats:
        assert copy.view(seat) == state.view(seat)
        assert copy.legal_moves(seat) == state.legal_moves(seat)
    return copy


def play_checked(peers: Peers, seed: int) -> None:
    rng = random.Random(seed)
    dealer = RandomDealer(random.Random(seed + 1))
    omni = peers.omni
    decisions = 0
    for _ in range(MAX_STEPS):
        turn = omni.turn()
        views, legals = peers.agree(turn.seats)
        kind = turn.kind
        if kind is TurnKind.OVER:
            return
        if kind is TurnKind.CHANCE:
            chance = turn.chance
            if isinstance(chance, Shuffle):
                peers.shuffled(chance)
            peers.chance(dealer.shuffle(omni, chance) if isinstance(chance, Shuffle)
                         else dealer.choice(chance))  # type: ignore[arg-type]
            assert isinstance(chance, (Shuffle, RandomChoice))
            continue
        if kind is TurnKind.REVEAL:
            peers.reveal()
            continue
        if decisions in (0, 10):
            _same_as_clone(omni, turn.seats)
        if decisions % 4 == 0:
            peers.entitled()
        chosen = []
        for seat in turn.seats:
            legal = legals[seat]  # the state is unchanged since `agree` listed them
            _check_decision(omni, seat, legal, rng, everything=decisions < 25,
                            public_view=views[None])
            decisions += 1
            for move in legal:
                assert _json_native(move.to_json())
            assert _json_native(views[seat]), f"seat {seat}'s view is not plain JSON"
            chosen.append((seat, rng.choice(legal)))
        for seat, move in chosen:
            if kind is not TurnKind.SEAT and omni.turn() != turn:
                break  # an interrupt window closed before this answer
            peers.move(seat, move)
    raise AssertionError(f"no end within {MAX_STEPS} steps")


def _replay(peers: Peers) -> GameState:
    fresh = create(peers.game, peers.players, peers.variant)
    for entry in peers.log:
        if entry[0] == "c":
            fresh.resolve_chance(entry[1])
        elif entry[0] == "r":
            fresh.resolve_reveals()
        else:
            fresh.apply(entry[1], entry[2])
    return fresh


@pytest.mark.parametrize("game, variant, players, seed", list(_cases()))
def test_random_play_keeps_the_contract(game: str, variant: str | None, players: int,
                                        seed: int) -> None:
    peers = Peers(game, variant, players)
    play_checked(peers, seed * 1000 + players)
    outcome = peers.omni.outcome()
    assert outcome is not None and len(outcome.scores) == players
    assert set(outcome.winners) <= set(range(players))
    assert _json_native(outcome.to_json()) and _json_native(peers.omni.view(None))
    copy = _same_as_clone(peers.omni, ())
    assert copy.outcome() == outcome
    assert all(copy.view(seat) == peers.omni.view(seat) for seat in range(players))
    peers.audit_all()
    peers.entitled()
    for viewer, p in peers.partial.items():
        assert p.outcome() == outcome, f"seat {viewer}'s state ends differently"
        assert p.claims == [], f"claims still pending for seat {viewer} after the audit"
        assert [c.id for c in p.claim_log] == list(range(len(p.claim_log)))
    replayed = _replay(peers)
    assert replayed.outcome() == outcome and replayed.view(None) == peers.omni.view(None)
    assert replayed.cards == peers.omni.cards


def test_every_registered_game_has_a_case_and_its_pieces() -> None:
    cases = list(_cases())
    for gi in games():
        assert any(c.values[0] == gi.name for c in cases)
        assert gi.state is not None
        for layer in ("present", "bots"):  # found by convention, never named by the game
            module = layer_module(gi.name, layer)
            assert module is not None, f"{gi.name} has no p2ptarot/{layer}/{gi.package}.py"
