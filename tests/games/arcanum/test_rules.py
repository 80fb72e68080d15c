"""§3–§6 rules and the project test cases T6, T7, T10, T12–T16, with the rulings they pin."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from p2ptarot.engine import BadConfiguration, IllegalMove, Pass, RandomDealer, create
from p2ptarot.games.arcanum.board import load_board, parse_board
from p2ptarot.games.arcanum.rules import FIGURES, MINOR, figure_house
from p2ptarot.engine.flow import AskChance, AskReveal
from p2ptarot.games.arcanum.moves import Choose, Discard, Hide, PlayMajor, PlayMinor
from p2ptarot.games.arcanum.rules import STANDARD, rules_for
from p2ptarot.games.arcanum.setup import placement
from p2ptarot.games.arcanum.tracks import change_prestige

from .support import check_invariants, random_game, scenario

OTHERS = [["coins-1", "coins-2", "coins-3", "coins-4", "major-5"],
          ["cups-1", "cups-2", "cups-3", "cups-4", "major-6"]]


def test_t6_prestige_cap_moves_the_other_houses_back() -> None:
    t = scenario([["swords-knight", "cups-9", "cups-10", "wands-10", "major-4"]] + OTHERS,
                 figures={"fig-swords-knight": 2})
    t.g.prestige.update({"swords": 20, "wands": 6, "cups": 3, "coins": 10})
    t.do(0, PlayMinor(t.hand(0)["swords-knight"], "swords-knight", "fig-swords-knight", 10))
    assert t.g.prestige == {"swords": 21, "wands": 2, "cups": 0, "coins": 6}
    assert t.decision() == "castle"


def test_prestige_floor_and_overflow_by_single_steps() -> None:
    p = {"swords": 0, "wands": 21, "cups": 1, "coins": 5}
    change_prestige(p, "swords", -3)
    change_prestige(p, "wands", 2)
    assert p == {"swords": 0, "wands": 21, "cups": 0, "coins": 3}


def test_t7_symbol_examples() -> None:
    board = load_board()
    assert board.gain("fig-swords-knight", 10) == 4
    assert board.gain("fig-wands-knave", 10) == 1
    assert board.gain("fig-cups-queen", 8) == 3
    assert board.gain("fig-coins-knave", 5) == 3
    assert board.gain("fig-swords-king", 6) == 0


def test_board_file_balance_and_validation() -> None:
    board = load_board()
    totals: Counter = Counter()
    for symbols in board.symbols.values():
        totals.update(symbols)
    assert set(totals.values()) == {5} and len(totals) == 8
    with pytest.raises(BadConfiguration):
        parse_board({"format": "arcanum-board/1", "id": "x", "symbols": {"1": {}}, "towerPairs": []})
    good = {"format": "arcanum-board/1", "id": "x", "towerPairs": [[1, 10]],
            "symbols": {str(k): {"swords": 1} for k in range(1, 11)}}
    assert parse_board(good).tower_pairs == frozenset({frozenset({1, 10})})
    good["symbols"]["3"] = {"dragons": 1}
    with pytest.raises(BadConfiguration):
        parse_board(good)


def _to_turn_two_draw(seed: int = 3):
    t = scenario([["swords-1", "swords-2", "cups-9", "wands-10", "major-4"]] + OTHERS)
    rng = random.Random(seed)
    while not (t.g.turn_no == 2 and t.decision() == "draw-choice"):
        t.step_random(rng)
    return t


def test_t10_hand_limit_in_phase_a() -> None:
    t = _to_turn_two_draw()
    seat = t.g.ctx().actor
    hand, deck = t.g.z.hands[seat], t.g.z.deck[MINOR]
    while len(hand) > 5:
        t.g.z.discard[MINOR].append(hand.pop())
    while len(hand) < 5:
        h = deck.pop()
        hand.append(h)
        t.g.seen[h].add(seat)
    t.do(seat, Choose("minors"))
    assert t.decision() == "limit" and t.g.ctx().data["count"] == 1
    h = hand[0]
    t.do(seat, Discard((h,), (t.g.cards[h],)))
    assert len(hand) == 7
    while t.decision() != "hide":
        t.step_random(random.Random(1))
    minor = next(h for h in hand if t.g.kind[h] == MINOR)
    t.g.apply(seat, Hide((minor,)))
    rng = random.Random(2)
    while t.g.phase == "hide":
        t.step_random(rng)
    assert len(hand) == 6


def test_draw_choice_major_or_three_minors() -> None:
    t = _to_turn_two_draw()
    seat = t.g.ctx().actor
    assert set(t.g.legal_moves(seat)) == {Choose("minors"), Choose("major")}
    n = len(t.g.z.hands[seat])
    t.do(seat, Choose("major"))
    assert len(t.g.z.hands[seat]) == n + 1


def test_t12_court_card_of_a_frozen_figure_moves_nothing() -> None:
    from p2ptarot.games.arcanum.core import TowerState
    t = scenario([["coins-queen", "swords-4", "cups-9", "wands-10", "major-4"]] + OTHERS,
                 figures={"fig-coins-queen": 5})
    t.g.tower = TowerState(1, -1, frozenset({4, 5}))
    legal = [m for m in t.g.legal_moves(0) if isinstance(m, PlayMinor)]
    assert PlayMinor(t.hand(0)["coins-queen"], "coins-queen", "", 0) in legal
    assert PlayMinor(t.hand(0)["swords-4"], "swords-4", "", 0) in legal
    with pytest.raises(IllegalMove):
        t.g.check(0, PlayMinor(t.hand(0)["swords-4"], "swords-4", "fig-swords-knave", 4))
    t.do(0, PlayMinor(t.hand(0)["swords-4"], "swords-4", "", 0))
    assert t.g.prestige["swords"] == 1 and t.g.minor_done


def test_t13_schedule() -> None:
    assert STANDARD.scoring_turns(4) == (3, 6) and STANDARD.turns(4) == 6
    assert rules_for(None, {"length": "long"}).scoring_turns(5) == (3, 6, 9)
    assert STANDARD.turns(3) == 8 and STANDARD.scoring_turns(3) == (4, 8)
    assert rules_for(None, {"length": "short"}).scoring_turns(3) == (4,)
    with pytest.raises(BadConfiguration):
        create("arcanum", 3, options={"length": "long"})  # R3: checked by create, from OPTIONS
    with pytest.raises(BadConfiguration):
        create("arcanum", 4, options={"starsVP": "2"})
    g = random_game(4, 11, length="long")
    assert [s["turn"] for s in g.scorings if not s["world"]] == [3, 6, 9] and g.turn_no == 9


def test_t14_setup_placement_is_legal_and_covers_every_location() -> None:
    seen_locations: Counter = Counter()
    for seed in range(300):
        place = placement(seed)
        assert sorted(place) == sorted(FIGURES)
        per = Counter(place.values())
        assert max(per.values()) <= 2
        for loc in per:
            houses = [figure_house(f) for f, l in place.items() if l == loc]
            assert len(set(houses)) == len(houses)
        seen_locations.update(per)
    assert set(seen_locations) == set(range(1, 11))
    assert placement(42) == placement(42)
    pairs = set()
    for seed in range(300):
        place = placement(seed)
        for loc in range(1, 11):
            here = sorted(f for f, l in place.items() if l == loc)
            if len(here) == 2:
                pairs.add(tuple(here))
    legal_pairs = {(a, b) for a in FIGURES for b in FIGURES
                   if a < b and figure_house(a) != figure_house(b)}
    assert pairs == legal_pairs  # every legal pair occurs, no illegal one


def _pump(g, flow, dealer):
    try:
        req = next(flow)
        while True:
            if isinstance(req, AskChance):
                req = flow.send(dealer.shuffle(g, req.chance))
            else:
                assert isinstance(req, AskReveal)
                req = flow.send(None)
    except StopIteration as stop:
        return stop.value


def test_t15_empty_decks_reshuffle_the_discard_pile_then_run_dry() -> None:
    g = create("arcanum", 3, options={"first_seat": 0})
    dealer = RandomDealer(random.Random(0))
    while g.turn().kind.value == "chance":
        g.resolve_chance(dealer.shuffle(g, g.turn().chance) if hasattr(g.turn().chance, "handles")
                         else dealer.choice(g.turn().chance))
    deck = g.z.deck[MINOR]
    keep = [h for h in deck if g.cards[h] in ("cups-3", "wands-9")]
    g.z.deck[MINOR] = []
    g.z.discard[MINOR] = keep
    drawn = _pump(g, g.draw(0, MINOR, 3), dealer)
    assert sorted(g.cards[h] for h in drawn) == ["cups-3", "wands-9"]
    assert g.z.discard[MINOR] == [] and g.z.deck[MINOR] == []
    assert _pump(g, g.draw(0, MINOR, 3), dealer) == []


def test_t16_forced_draw_at_upkeep_and_the_minor_must_be_played() -> None:
    t = scenario([["swords-1", "swords-2", "cups-9", "wands-10", "major-4"],
                  ["coins-1", "coins-2", "coins-3", "coins-4", "major-2"], OTHERS[1]],
                 draws=("wands-1", "wands-2", "wands-3"), major_draws=("major-7",),
                 figures={"fig-swords-knave": 3})
    for card in ("coins-1", "coins-2", "coins-3"):  # seat 1 keeps only the High Priestess
        h = t.hand(1)[card]
        t.g.z.hands[1].remove(h)
        t.g.z.discard[MINOR].append(h)
    t.do(0, PlayMinor(t.hand(0)["swords-1"], "swords-1", "fig-swords-knave", 1))  # Mage Tower
    t.do(0, Pass())
    assert t.g.active == 1 and "wands-1" in t.hand(1)
    legal = t.g.legal_moves(1)
    assert Pass() not in legal and PlayMajor(t.hand(1)["major-2"], "major-2") in legal
    assert any(isinstance(m, PlayMinor) and m.card == "wands-1" for m in legal)


def test_r11_forced_draw_again_after_a_major_took_the_minors() -> None:
    t = scenario([["swords-1", "swords-2", "cups-9", "wands-10", "major-13"]] + OTHERS,
                 draws=("wands-1",), major_draws=("major-2", "major-3"))
    h = t.hand(0)["cups-9"]
    t.g.z.hands[0].remove(h)
    t.g.z.discard[MINOR].append(h)
    t.do(0, PlayMajor(t.hand(0)["major-13"], "major-13"))
    hand = t.hand(0)
    t.do(0, Discard((hand["swords-1"], hand["swords-2"]), ("swords-1", "swords-2")))
    assert "wands-1" in t.hand(0) and t.decision() == "act"
    assert all(m.card == "wands-1" for m in t.g.legal_moves(0))


def test_minor_skipped_when_no_minor_can_be_drawn() -> None:
    t = scenario([["swords-1", "swords-2", "cups-9", "wands-10", "major-4"],
                  ["coins-1", "coins-2", "coins-3", "coins-4", "major-2"], OTHERS[1]],
                 figures={"fig-swords-knave": 3})
    for card in ("coins-1", "coins-2", "coins-3"):  # seat 1 keeps only the High Priestess
        t.g.z.hands[1].remove(t.hand(1)[card])
    t.do(0, PlayMinor(t.hand(0)["swords-2"], "swords-2", "fig-swords-knave", 2))
    t.do(0, Choose("major"))
    t.g.z.deck[MINOR], t.g.z.discard[MINOR] = [], []
    t.do(0, Pass())
    assert t.g.active == 1 and t.g.minor_done
    assert set(t.g.legal_moves(1)) == {Pass(), PlayMajor(t.hand(1)["major-2"], "major-2")}


def test_a_numeral_may_move_any_figure_of_its_house_and_a_court_card_its_own_figure() -> None:
    t = scenario([["cups-8", "cups-queen", "cups-9", "wands-10", "major-4"]] + OTHERS,
                 figures={"fig-cups-queen": 3, "fig-cups-king": 8})
    legal = t.g.legal_moves(0)
    eights = {m.figure for m in legal if isinstance(m, PlayMinor) and m.card == "cups-8"}
    assert eights == {"fig-cups-knave", "fig-cups-knight", "fig-cups-queen"}
    queens = {m.dest for m in legal if isinstance(m, PlayMinor) and m.card == "cups-queen"}
    assert queens == set(range(1, 11)) - {3}
    with pytest.raises(IllegalMove):
        t.g.check(0, PlayMinor(t.hand(0)["cups-8"], "cups-8", "fig-cups-king", 8))
    with pytest.raises(IllegalMove):
        t.g.check(0, PlayMinor(t.hand(0)["cups-8"], "cups-8", "", 0))


def test_one_minor_and_one_major_per_activation_and_pass_only_after_the_minor() -> None:
    t = scenario([["swords-1", "swords-2", "cups-9", "wands-10", "major-2"]] + OTHERS,
                 major_draws=("major-3",), figures={"fig-swords-knave": 3})
    with pytest.raises(IllegalMove):
        t.g.check(0, Pass())
    t.do(0, PlayMajor(t.hand(0)["major-2"], "major-2"))
    assert not any(isinstance(m, PlayMajor) for m in t.g.legal_moves(0))
    t.do(0, PlayMinor(t.hand(0)["swords-2"], "swords-2", "fig-swords-knave", 2))
    t.do(0, Choose("minors"))
    assert t.g.active == 1


def test_lying_about_a_card_is_refused() -> None:
    t = scenario([["swords-1", "swords-2", "cups-9", "wands-10", "major-2"]] + OTHERS,
                 figures={"fig-swords-knave": 3})
    h = t.hand(0)["swords-1"]
    with pytest.raises(IllegalMove):
        t.g.check(0, PlayMinor(h, "swords-2", "fig-swords-knave", 2))
    with pytest.raises(IllegalMove):
        t.g.check(0, PlayMajor(h, "major-2"))
    with pytest.raises(IllegalMove):
        t.g.check(0, PlayMinor(t.hand(1)["coins-1"], "coins-1", "fig-coins-knave", 1))


def test_variants_and_options_are_checked_before_play() -> None:
    with pytest.raises(BadConfiguration):
        create("arcanum", 4, "NOPE")
    with pytest.raises(BadConfiguration):
        create("arcanum", 4, options={"moonDraw": 3})
    g = random_game(3, 2, "NO-MAJORS", check=True)
    assert all(g.cards[h] is None or not g.cards[h].startswith("major") for hs in g.z.hands for h in hs)


def test_first_game_variant_deals_the_major_at_turn_three() -> None:
    g = create("arcanum", 4, "FIRST-GAME", options={"first_seat": 0})
    dealer = RandomDealer(random.Random(4))
    from p2ptarot.engine import TurnKind
    majors_at: dict[int, int] = {}
    rng = random.Random(4)
    while g.turn().kind is not TurnKind.OVER and g.turn_no <= 3:
        turn = g.turn()
        if turn.kind is TurnKind.CHANCE:
            c = turn.chance
            g.resolve_chance(dealer.shuffle(g, c) if hasattr(c, "handles") else dealer.choice(c))
        elif turn.kind is TurnKind.REVEAL:
            g.resolve_reveals()
        else:
            ctx = g.ctx()
            assert ctx.name != "draw-choice" or g.turn_no >= 4
            seat = next(s for s in turn.seats if s not in ctx.answers)
            g.apply(seat, rng.choice(g.legal_moves(seat)))
        majors_at.setdefault(g.turn_no, 0)
        majors_at[g.turn_no] = max(majors_at[g.turn_no], sum(
            1 for hs in g.z.hands for h in hs if g.kind[h] == "major"))
    assert majors_at[1] == 0 and majors_at[3] >= 1
    check_invariants(g)


def test_t4_in_play_the_fools_holder_declares_after_everything_is_open() -> None:
    from p2ptarot.games.arcanum.moves import House
    t = scenario([["swords-1", "swords-2", "cups-9", "wands-10", "major-21"]] + OTHERS,
                 major_draws=("major-0",))
    fool = t.g.z.deck["major"][0]
    t.g.z.deck["major"].remove(fool)
    t.g.z.hidden[1].append(fool)  # as if seat 1 had hidden the Fool by playing it
    t.g.seen[fool] = {-1}
    t.g.prestige.update({"swords": 9, "wands": 9, "cups": 12, "coins": 9})
    t.do(0, PlayMajor(t.hand(0)["major-21"], "major-21"))
    t.do(0, Hide(()))
    assert t.decision() == "declare" and t.g.turn().seats == (1,)
    assert t.g.ctx().data["world"] is True
    assert all(-1 in t.g.seen[h] for s in range(3) for h in t.g.z.hidden[s])  # all open first
    # hidden: seat 0 wands-10, seat 1 coins-4 + the Fool, seat 2 cups-4; cups rank 1
    t.do(1, House("cups"))
    # World table: cups (rank 1) 8/4, wands and coins (rank 2) 6/3. Seat 1: coins 6 + cups 4
    # (the Fool, value 0, behind cups-4); declaring coins would have paid it only 6
    assert t.g.vp == [6, 10, 8]
