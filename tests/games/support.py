"""Helpers shared by the card games' tests (sinople, trois roses, paris divins): record a game in
omniscient mode, replay it into any knowledge mode, and the list of those modes."""

from __future__ import annotations

from typing import Any, Sequence

from p2ptarot.engine import PUBLIC, GameState, Shuffle, TurnKind, create


def all_modes(players: int) -> list[dict[str, Any]]:
    """Keyword sets for create(): omniscient, every seat view, and the public observer."""
    return [{}] + [{"viewer": s} for s in range(players)] + [{"viewer": None, "omniscient": False}]


def record(state: GameState, agents: Sequence[Any], dealer: Any) -> list[tuple]:
    """Play like engine.local.play, recording chance results, reveals with values, and moves."""
    events: list[tuple] = []
    while True:
        turn = state.turn()
        kind = turn.kind
        if kind is TurnKind.OVER:
            return events
        if kind is TurnKind.CHANCE:
            result: Any = (dealer.shuffle(state, turn.chance) if isinstance(turn.chance, Shuffle)
                           else dealer.choice(turn.chance))
            events.append(("chance", result))
            state.resolve_chance(result)
        elif kind is TurnKind.REVEAL:
            events.append(("reveal", turn.reveals, {r.handle: state.cards[r.handle] for r in turn.reveals}))
            state.resolve_reveals()
        else:
            decided = []
            for seat in turn.seats:
                agent = agents[seat]
                view = state.view(seat) if agent.uses_view else None
                decided.append((seat, agent.choose(seat, view, state.legal_moves(seat))))
            for seat, move in decided:
                if state.turn() != turn:  # a move that ended the turn (sinople's show) voids the rest
                    break
                events.append(("move", seat, move))
                state.apply(seat, move)


def replay(events: Sequence[tuple], state: GameState, truth: GameState | None = None) -> GameState:
    """Feed recorded events to `state`, giving it only the values its mode may learn. Every move of
    the viewer's own seat must be among the legal moves its own state computes (and, given the
    omniscient `truth` at the same point, those legal moves must be the same)."""
    for ev in events:
        if ev[0] == "chance":
            result = ev[1]
            state.resolve_chance(result if state.omniscient or isinstance(result, int) else {})
        elif ev[0] == "reveal":
            reveals, values = ev[1], ev[2]
            assert state.turn().reveals == reveals
            state.resolve_reveals({r.handle: values[r.handle] for r in reveals
                                   if state.omniscient or r.to in (PUBLIC, state.viewer)})
        else:
            _, seat, move = ev
            if seat == state.viewer:
                assert move in state.legal_moves(seat)
            state.apply(seat, move)
    return state


def replay_log(omni: Any, viewer: int | None, audit: bool = True,
               edits: dict[int, Any] | None = None) -> Any:
    """Replay an omniscient game's own log (`omni._log`: "m" moves, "c" chance, "r" reveals) into
    `viewer`'s partial state (None: a public observer), feeding only what that seat is shown: the
    turn sequence must match an omniscient shadow's, and every move of the viewer's own seat must be
    legal in its own view and pass its `check`; the audit opens what claims need (ENGINE.md §1).
    `edits[i](state)` re-applies a test's direct edit before log entry i (to both replicas)."""
    shadow = create(omni.NAME, omni.players, omni.variant, options=omni.options)
    part = create(omni.NAME, omni.players, omni.variant, options=omni.options, viewer=viewer,
                  omniscient=False)
    for i, entry in enumerate(omni._log):
        if edits and i in edits:
            edits[i](part)
            edits[i](shadow)
        assert part.turn() == shadow.turn()
        tag = entry[0]
        if tag == "m":
            seat, move = entry[1], entry[2]
            if viewer == seat:
                assert move in part.legal_moves(seat), f"{move} not legal in the seat's own view"
            part.check(seat, move)
            part.apply(seat, move)
            shadow.apply(seat, move)
        elif tag == "c":
            result = entry[1]
            part.resolve_chance({} if isinstance(result, dict) else result)
            shadow.resolve_chance(result)
        elif tag == "r":
            turn = shadow.turn()
            assert turn.kind is TurnKind.REVEAL
            values = {r.handle: omni.cards[r.handle] for r in turn.reveals
                      if r.to == PUBLIC or r.to == viewer}
            part.resolve_reveals(values)
            shadow.resolve_reveals()
    if audit:
        for h in sorted(part.audit_opens()):
            part.audited(h, omni.cards[h])
    return part


def moves_of(events: Sequence[tuple]) -> list[tuple[int, Any]]:
    return [(ev[1], ev[2]) for ev in events if ev[0] == "move"]


def check_screens(game: str, players: int, seed: int, every: int = 1) -> dict[str, int]:
    """Play a game between bots; at every `every`-th move, each seat's screen names every card of
    its own hand and no card it may not see; every legal move has a sentence."""
    import random
    import re

    from p2ptarot import bots
    from p2ptarot.present import presenter
    from p2ptarot.present.cards import HIDDEN, card_name
    from p2ptarot.engine import RandomDealer, create, play

    def mentions(text: str, card: str) -> bool:
        return re.search(rf"(?<![\w(]){re.escape(card_name(card))}(?![\w)])", text) is not None

    state = create(game, players)
    kind = "heuristic" if seed % 2 else "random"
    agents = [bots.make(kind, f"{seed}:{s}") for s in range(players)]
    stats = {"screens": 0, "moves": 0, "hidden": 0}
    step = [0]

    def on_move(st: Any, mover: int, move: Any) -> None:
        step[0] += 1
        view = st.view(mover)
        for legal in st.legal_moves(mover):
            sentence = presenter(game).sentence(legal, view)
            assert sentence and "=" not in sentence and HIDDEN not in sentence, sentence
            stats["moves"] += 1
        if step[0] % every:
            return
        for seat in range(players):
            view = st.view(seat)
            text = presenter(game).render(view)
            for card in view["hand"]:
                assert mentions(text, card), f"{card} of seat {seat}'s hand is not shown:\n{text}"
            # (the same card may sit at a known handle of a later deal: then it is no secret)
            known = {st.cards[h] for h in range(len(st.cards)) if st.known_to(h, seat)}
            hidden = [st.cards[h] for h in range(len(st.cards))
                      if not st.known_to(h, seat) and st.cards[h] not in known]
            stats["hidden"] += len(hidden)
            for card in hidden:
                assert card is not None
                assert not mentions(text, card), f"hidden {card} leaked to seat {seat}:\n{text}"
            assert "None" not in text and "{" not in text
            stats["screens"] += 1

    play(state, agents, RandomDealer(random.Random(f"deal:{seed}")), on_move=on_move)
    assert presenter(game).render(state.view(0)).startswith("==")
    return stats
