"""Eleusis bots: the dealer's graded choice, hypothesis elimination, the Sage heuristic, and
`p2ptarot simulate --game eleusis`."""

from __future__ import annotations

import json
import random

from tests.games.eleusis.support import Tables, cid, stacked_order

from p2ptarot.bots import eleusis as bot
from p2ptarot.bots import make
from p2ptarot.cli.main import main
from p2ptarot.engine import RandomDealer, create, play
from p2ptarot.games.eleusis.erl import compile_rule
from p2ptarot.games.eleusis.library import BY_NAME, LIBRARY
from p2ptarot.games.eleusis.moves import Call, Commit, Hint, NoPlay, Play

BEGINNER_3 = "accept c.suit == p1.suit or c.rank == p1.rank"


def test_the_family_holds_every_library_rule_and_is_valid():
    texts = {r.text for r in bot.family()}
    assert {r.text for r in LIBRARY} <= texts and len(texts) >= 50


def test_the_dealer_commits_a_rule_of_sensible_difficulty():
    state = create("eleusis", 5, options={"first_dealer": 2})
    legal = state.legal_moves(2)
    assert all(isinstance(m, Commit) for m in legal) and len(legal) == len(LIBRARY)
    by_text = {r.text: r for r in LIBRARY}
    picks = {bot.choose(state.view(2), 2, legal, random.Random(i)).value for i in range(40)}
    assert {by_text[t].difficulty for t in picks} <= set(bot.SENSIBLE)
    assert len(picks) > 3


def test_the_dealer_only_ever_gives_true_hints():
    state = create("eleusis", 5, options={"first_dealer": 0})
    state.apply(0, Commit("rule-1", BY_NAME["beginner 1"].text))
    legal = state.legal_moves(0)
    assert Hint(("ignores position",), "") in legal and Hint(("ignores colour",), "") not in legal
    for i in range(20):
        move = bot.choose(state.view(0), 0, legal, random.Random(i))
        assert move in legal


def _after_plays(rule: str, plays: list[list[str]]) -> Tables:
    order = stacked_order(5, 0, {1: [cid(c) for c in plays[0]], 2: [cid(c) for c in plays[1]]},
                          cid("H9"))
    t = Tables(5, orders={("standard-52x2", 0): order})
    t.start(rule)
    for cards in plays:
        t.play(*cards)
        t.judge()
        t.decline()
    return t


def test_hypotheses_contradicted_by_the_layout_are_dropped():
    t = _after_plays(BEGINNER_3, [["S2"], ["H2", "S9"]])  # S2 wrong after H9; H2 S9? H2 ok, S9 no
    view = t.views[3].view(3)
    survivors = {r.text for r in bot.survivors(view)}
    assert BEGINNER_3 in survivors
    assert "accept c.color != p1.color" not in survivors  # H9 -> S2 was refused
    main, refused = bot.evidence(view)
    assert len(main) == 1 and len(refused) == 2
    for text in survivors:
        assert bot.consistent(compile_rule(text), main, refused)


def test_structured_hints_narrow_the_hypotheses():
    view = _view([cid("H3")], [])
    everything = bot.survivors(view)
    hinted = bot.survivors(dict(view, hints=["ignores colour", "history 1"]))
    assert hinted and len(hinted) < len(everything)
    assert all("color" not in r.text and "suit" not in r.text and "p2" not in r.text for r in hinted)


def test_the_player_plays_what_the_survivors_accept_and_runs_when_they_agree():
    t = _after_plays(BEGINNER_3, [["S2"], ["H2"]])
    seat = t.seat()
    view = t.views[seat].view(seat)
    move = bot.choose(view, seat, t.views[seat].legal_moves(seat), random.Random(0))
    assert isinstance(move, (Play, NoPlay))
    if isinstance(move, Play):
        t.views[seat].check(seat, move)  # runs of 3–4 are legal through check


def _view(main: list[str], refused: list[tuple[int, list[str]]]) -> dict:
    """A view's layout: `main` card ids; `refused`: (index of the main card, block)."""
    side: list[list] = [[] for _ in main]
    for i, block in refused:
        side[i].append([{"n": 0, "handle": 0, "card": c} for c in block])
    size = len(main) + sum(len(b) for _, b in refused)
    return {"layout": {"main": [{"n": 0, "handle": 0, "card": c} for c in main], "side": side,
                       "size": size, "marker": 0}}


def test_the_sage_heuristic_needs_agreement_and_evidence(monkeypatch):
    differs, same = compile_rule("accept c.color != p1.color"), compile_rule("accept c.color == p1.color")
    parity = compile_rule("accept c.odd != p1.odd")
    monkeypatch.setattr(bot, "family", lambda: (differs, same, parity))
    # hearts-3, spades-4, hearts-5, … : colours and parities both alternate; a refusal of
    # diamonds-8 after hearts-7 keeps "colour differs" and kills "parity alternates"
    main = [cid(c) for c in ("H3", "S4", "H5", "S6", "H7")]
    view = _view(main, [(4, [cid("D8")])])
    assert [r.text for r in bot.survivors(view)] == [differs.text]
    assert not bot.should_declare(view)  # 6 cards: too little evidence
    long_main = main + [cid(c) for c in ("S8", "D9", "C10")]
    view = _view(long_main, [(4, [cid("D8")])])
    assert bot.survivors(view) == [differs] and bot.should_declare(view)
    ambiguous = _view(long_main, [])  # parity alternates too: the survivors disagree
    assert len(bot.survivors(ambiguous)) == 2 and not bot.should_declare(ambiguous)


def test_heuristic_bots_play_whole_games_with_sages():
    sages = 0
    for seed in range(3):
        state = create("eleusis", 6)
        outcome = play(state, [make("heuristic", f"{seed}:{s}") for s in range(6)],
                       RandomDealer(random.Random(seed)))
        assert len(outcome.scores) == 6
        sages += sum(1 for r in outcome.detail["rounds"] if r["sage"] >= 0)
    assert sages > 0


def test_a_heuristic_player_beats_random_players():
    """Fixed seeds: seat 1 plays by hypotheses, every other seat (dealers included) at random."""
    total = [0] * 5
    for seed in range(12):
        state = create("eleusis", 5, options={"rounds": 5})
        agents = [make("heuristic" if s == 1 else "random", f"{seed}:{s}") for s in range(5)]
        outcome = play(state, agents, RandomDealer(random.Random(seed)))
        for s in range(5):
            total[s] += outcome.scores[s]
    assert total[1] == max(total)


def test_simulate_plays_eleusis(capsys):
    assert main(["simulate", "--game", "eleusis", "--players", "5", "--games", "3", "--seed", "2",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "eleusis" and len(out["results"]) == 3
    assert all(len(r["scores"]) == 5 for r in out["results"])
    assert main(["simulate", "--game", "eleusis", "--players", "4", "--games", "1",
                 "--bots", "heuristic"]) == 0
    assert main(["simulate", "--game", "eleusis", "--players", "3", "--games", "1"]) == 2


def test_sage_call_follows_the_majority(monkeypatch):
    differs, same = compile_rule("accept c.color != p1.color"), compile_rule("accept c.color == p1.color")
    parity = compile_rule("accept c.odd != p1.odd")
    monkeypatch.setattr(bot, "family", lambda: (differs, same, parity))
    view = dict(_view([cid("H3"), cid("S4")], []), dealer=0, phase="sage-call")
    pending = {"seat": 4, "no_play": False, "call": "", "proposal": "", "sudden_death": False}
    right = dict(view, pending=dict(pending, cards=[cid("H5")]))  # both survivors accept
    wrong = dict(view, pending=dict(pending, cards=[cid("C6")]))  # both refuse
    calls = [Call("right"), Call("wrong")]
    assert bot.choose(right, 3, calls, random.Random(0)) == Call("right")
    assert bot.choose(wrong, 3, calls, random.Random(0)) == Call("wrong")
    nothing = dict(view, pending=dict(pending, no_play=True, cards=[cid("C6"), cid("S8")]))
    assert bot.choose(nothing, 3, calls, random.Random(0)) == Call("right")
