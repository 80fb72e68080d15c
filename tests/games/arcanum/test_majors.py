"""§8: one test per major arcana, played by seat 0 before its minor in turn 1 (3 players)."""

from __future__ import annotations

import random

import pytest

from p2ptarot.engine import PUBLIC, IllegalMove, Pass
from p2ptarot.games.arcanum.moves import (Choose, Discard, Empress, Expose, Give, Hide, House,
                                          PlayMajor, PlayMinor, Relocate, Remove, Return, Swap,
                                          Tower)

from .support import check_invariants, scenario

MINORS0 = ["swords-1", "swords-2", "cups-9", "wands-10"]  # wands-10 is hidden in phase A
OTHERS = [["coins-1", "coins-2", "coins-3", "coins-4", "major-5"],
          ["cups-1", "cups-2", "cups-3", "cups-4", "major-6"]]
FIGS = {"fig-swords-knave": 3, "fig-cups-queen": 4}


def start(major: str, draws=("wands-1", "wands-2", "wands-3", "wands-4"), major_draws=("major-2", "major-3"),
          others=OTHERS, **kw):
    hand0 = MINORS0 + [major]
    t = scenario([hand0] + others, draws=draws, major_draws=major_draws, figures=FIGS, **kw)
    before = {"hand": len(t.g.z.hands[0]), "hidden": len(t.g.z.hidden[0])}
    t.do(0, PlayMajor(t.hand(0)[major], major))
    return t, before


def test_0_fool_joker_moves_any_figure_and_activates() -> None:
    t, _ = start("major-0")
    t.do(0, Choose("joker"))
    assert t.decision() == "relocate" and Pass() not in t.g.legal_moves(0)
    t.do(0, Relocate("fig-cups-queen", 8))  # cups 2 + queen 1 = +3, no suit step a
    assert t.g.prestige["cups"] == 3 and t.decision() == "cathedral"
    t.do(0, Choose("draw"))
    assert t.decision() == "act" and t.g.major_done and not t.g.minor_done
    assert t.g.cards[t.g.z.discard["major"][-1]] == "major-0"


def test_0_fool_hidden_is_public_and_counts_as_declared_suit() -> None:
    t, before = start("major-0")
    t.do(0, Choose("hide"))
    fool = t.g.z.hidden[0][-1]
    assert t.g.cards[fool] == "major-0" and PUBLIC in t.g.seen[fool]
    assert len(t.g.z.hidden[0]) == before["hidden"] + 1


def test_0_fool_cannot_be_hidden_by_a_hide_effect() -> None:
    t, _ = start("major-9")  # Hermit: hide up to 2 minors
    fool_handle = t.hand(0)["swords-1"]
    t.g.kind[fool_handle] = "major"  # a major-kind card in hand
    with pytest.raises(IllegalMove):
        t.g.check(0, Hide((fool_handle,)))


def test_1_magician_draws_two_minors_and_may_hide_one() -> None:
    t, before = start("major-1")
    assert {"wands-1", "wands-2"} <= set(t.hand(0)) and t.decision() == "hide"
    t.do(0, Hide((t.hand(0)["wands-1"],)))
    assert len(t.g.z.hidden[0]) == before["hidden"] + 1


def test_2_high_priestess_three_vp() -> None:
    t, _ = start("major-2", major_draws=("major-3",))
    assert t.g.vp[0] == 3 and t.decision() == "act"


def test_3_empress_optional_move_then_one_up_one_down() -> None:
    t, _ = start("major-3", major_draws=("major-2",))
    assert Pass() in t.g.legal_moves(0)
    t.do(0, Pass())
    assert t.decision() == "empress"
    with pytest.raises(IllegalMove):
        t.g.check(0, Empress("cups", "cups"))
    t.g.prestige["wands"] = 4
    t.do(0, Empress("cups", "wands"))
    assert t.g.prestige["cups"] == 1 and t.g.prestige["wands"] == 3


def test_4_emperor_may_hide_then_a_house_gains_three() -> None:
    t, before = start("major-4")
    t.do(0, Hide(()))
    t.do(0, House("coins"))
    assert t.g.prestige["coins"] == 3 and len(t.g.z.hidden[0]) == before["hidden"]


def test_5_hierophant_draws_a_minor_then_a_major() -> None:
    t, before = start("major-5", others=[["coins-1", "coins-2", "coins-3", "coins-4", "major-7"],
                                         OTHERS[1]])
    assert "wands-1" in t.hand(0) and "major-2" in t.hand(0)
    assert len(t.g.z.hands[0]) == before["hand"] - 1 + 2


LOVERS_OTHERS = [OTHERS[0], ["cups-1", "cups-2", "cups-3", "cups-4", "major-7"]]


def test_6_lovers_everybody_at_zero() -> None:
    t, _ = start("major-6", others=LOVERS_OTHERS)
    assert t.g.vp == [4, 2, 2]  # everybody had 0: the others +2, the active +4


def test_6_lovers_lowest_total_taken_before_any_gain() -> None:
    t = scenario([MINORS0 + ["major-6"]] + LOVERS_OTHERS, figures=FIGS)
    t.g.vp[:] = [10, 3, 7]
    t.do(0, PlayMajor(t.hand(0)["major-6"], "major-6"))
    assert t.g.vp == [12, 5, 7]
    t = scenario([MINORS0 + ["major-6"]] + LOVERS_OTHERS, figures=FIGS)
    t.g.vp[:] = [3, 3, 9]
    t.do(0, PlayMajor(t.hand(0)["major-6"], "major-6"))
    assert t.g.vp == [7, 5, 9]


def test_7_chariot_house_plus_two_then_others_discard() -> None:
    t, _ = start("major-7")
    t.do(0, House("wands"))
    assert t.g.prestige["wands"] == 2 and set(t.g.turn().seats) == {1, 2}
    t.g.apply(1, Discard((t.hand(1)["coins-1"],), ("coins-1",)))
    t.g.apply(2, Discard((t.hand(2)["cups-1"],), ("cups-1",)))
    t.settle()
    assert len(t.g.z.hands[1]) == 3 and len(t.g.z.hands[2]) == 3


def test_8_strength_two_vp_and_a_house_plus_three() -> None:
    t, _ = start("major-8")
    t.do(0, House("cups"))
    assert t.g.vp[0] == 2 and t.g.prestige["cups"] == 3


def test_9_hermit_you_hide_up_to_two_then_the_others_one() -> None:
    t, before = start("major-9")
    h = t.hand(0)
    t.do(0, Hide((h["swords-1"], h["cups-9"])))
    assert set(t.g.turn().seats) == {1, 2}
    t.g.apply(1, Hide((t.hand(1)["coins-1"],)))
    t.g.apply(2, Hide(()))
    t.settle()
    assert len(t.g.z.hidden[0]) == before["hidden"] + 2
    assert len(t.g.z.hidden[1]) == 2 and len(t.g.z.hidden[2]) == 1


def test_10_wheel_passes_two_cards_left_seen_only_by_giver_and_receiver() -> None:
    t, _ = start("major-10")
    assert set(t.g.turn().seats) == {0, 1, 2}
    gifts = {0: (t.hand(0)["swords-1"], t.hand(0)["swords-2"]),
             1: (t.hand(1)["coins-1"], t.hand(1)["major-5"]),
             2: (t.hand(2)["cups-1"], t.hand(2)["cups-2"])}
    reveals_before = None
    for s in (0, 1, 2):
        t.g.apply(s, Give(gifts[s]))
    turn = t.g.turn()
    assert turn.kind.value == "reveal"
    reveals_before = {(r.handle, r.to, r.holder) for r in turn.reveals}
    assert (gifts[0][0], 1, 0) in reveals_before and (gifts[2][1], 0, 2) in reveals_before
    t.settle()
    assert set(gifts[0]) <= set(t.g.z.hands[1]) and set(gifts[2]) <= set(t.g.z.hands[0])
    assert t.g.seen[gifts[0][0]] == {0, 1}
    assert t.g.kind[gifts[1][1]] == "major"  # kinds stay public by default (R43)


def test_11_justice_draws_minors_until_four_cards() -> None:
    t, before = start("major-11")
    assert len(t.g.z.hands[0]) == 4 and "wands-1" in t.hand(0)


def test_12_hanged_man_loses_two_vp_floor_zero_then_two_majors() -> None:
    t, before = start("major-12")
    assert t.g.vp[0] == 0 and {"major-2", "major-3"} <= set(t.hand(0))


def test_13_death_discards_minors_and_draws_as_many_majors() -> None:
    t, before = start("major-13")
    h = t.hand(0)
    with pytest.raises(IllegalMove):
        t.g.check(0, Discard((h["swords-1"], h["swords-2"], h["cups-9"]), ("swords-1", "swords-2", "cups-9")))
    t.do(0, Discard((h["swords-1"], h["swords-2"]), ("swords-1", "swords-2")))
    assert {"major-2", "major-3"} <= set(t.hand(0)) and "swords-1" not in t.hand(0)


def test_14_temperance_swaps_hand_and_hidden_cards() -> None:
    t, before = start("major-14")
    t.do(0, Pass())
    hidden = t.g.z.hidden[0][0]
    h = t.hand(0)
    t.do(0, Swap((h["swords-1"],), (hidden,), ("",)))
    assert h["swords-1"] in t.g.z.hidden[0] and hidden in t.g.z.hands[0]
    assert t.g.seen[h["swords-1"]] == {0}


def test_15_devil_doubles_the_minor_that_follows_t8() -> None:
    t = scenario([["coins-5", "swords-2", "cups-9", "wands-10", "major-15"]] + OTHERS,
                 figures={"fig-coins-knave": 2})
    t.g.prestige["coins"], t.g.vp[0] = 3, 10
    t.do(0, PlayMajor(t.hand(0)["major-15"], "major-15"))
    t.do(0, PlayMinor(t.hand(0)["coins-5"], "coins-5", "fig-coins-knave", 5))
    assert t.g.prestige["coins"] == 3 + 2 + 6 and t.g.vp[0] == 14
    t.do(0, Pass())  # no Market trade
    assert t.g.turn().seats == (1,) and not t.g.devil


def test_16_tower_freezes_locations_until_its_owners_next_activation_t12() -> None:
    t, _ = start("major-16", major_draws=(), hide={0: "wands-10", 1: "coins-1"})
    assert t.g.vp[0] == 2
    with pytest.raises(IllegalMove):
        t.g.check(0, Tower((3, 5)))
    t.do(0, Tower((4, 5)))
    t.g.figures["fig-coins-queen"] = 5
    moves = t.g.legal_moves(0)
    assert PlayMinor(t.hand(0)["swords-1"], "swords-1", "fig-swords-knave", 1) in moves
    # T12 for seat 1: coins-4 cannot enter 4; the coins queen in 5 cannot move
    t.do(0, PlayMinor(t.hand(0)["swords-2"], "swords-2", "fig-swords-knave", 2))
    t.do(0, Choose("minors"))
    assert t.g.turn().seats == (1,)
    t.g.figures["fig-coins-queen"] = 5
    legal = t.g.legal_moves(1)
    assert PlayMinor(t.hand(1)["coins-4"], "coins-4", "", 0) in legal
    assert not any(m.card == "coins-4" and m.figure for m in legal if isinstance(m, PlayMinor))
    assert t.g.tower is not None and t.g.tower.handle not in t.g.z.discard["major"]


def test_17_stars_two_minors_and_one_vp() -> None:
    t, before = start("major-17")
    assert t.g.vp[0] == 1 and len(t.g.z.hands[0]) == before["hand"] - 1 + 2


def test_18_moon_everyone_draws_two_then_hides() -> None:
    t, before = start("major-18", draws=tuple(f"wands-{i}" for i in range(1, 10)))
    assert len(t.g.z.hands[0]) == before["hand"] - 1 + 2
    assert len(t.g.z.hands[1]) == 4 + 2 and len(t.g.z.hands[2]) == 4 + 2
    h = t.hand(0)
    t.do(0, Hide((h["wands-1"], h["wands-2"])))
    t.g.apply(1, Hide(()))
    t.g.apply(2, Hide((t.hand(2)["cups-2"],)))
    t.settle()
    assert len(t.g.z.hidden[0]) == 3 and len(t.g.z.hidden[2]) == 2


def test_19_sun_others_turn_up_three_face_down_hidden_cards() -> None:
    t, _ = start("major-19")
    assert t.g.vp[0] == 2 and set(t.g.turn().seats) == {1, 2}
    for s in (1, 2):
        h = t.g.z.hidden[s][0]
        t.g.apply(s, Expose((h,), (t.g.cards[h],)))
    t.settle()
    assert all(PUBLIC in t.g.seen[t.g.z.hidden[s][0]] for s in (1, 2))
    assert t.g.face_up == {t.g.z.hidden[1][0], t.g.z.hidden[2][0]}


def test_20_judgement_discards_then_removes_three_figures_returned_next_activation() -> None:
    t, _ = start("major-20")
    t.g.apply(1, Discard((t.hand(1)["coins-1"],), ("coins-1",)))
    t.g.apply(2, Discard((t.hand(2)["cups-1"],), ("cups-1",)))
    t.settle()
    assert t.decision() == "remove"
    assert len(t.g.legal_moves(0)) == 16
    t.do(0, Remove("fig-coins-king"))
    with pytest.raises(IllegalMove):
        t.g.check(0, Remove("fig-coins-king"))  # already off the board
    t.do(0, Remove("fig-cups-king"))
    t.do(0, Remove("fig-swords-queen"))
    assert "fig-cups-king" not in t.g.figures and t.g.held[0] == [
        "fig-coins-king", "fig-cups-king", "fig-swords-queen"]
    check_invariants(t.g)
    # the rest of the turn: seat 0's minor, then seats 1 and 2 play until seat 0's next upkeep
    rng = random.Random(5)
    while t.decision() != "return":
        t.step_random(rng)
    t.do(0, Return(1))
    with pytest.raises(IllegalMove):
        t.g.check(0, Return(1))  # a different location for each figure
    t.do(0, Return(2))
    t.do(0, Return(3))
    assert {t.g.figures[f] for f in ("fig-coins-king", "fig-cups-king", "fig-swords-queen")} == {1, 2, 3}
    check_invariants(t.g)


def test_21_world_half_scoring_nothing_discarded_nothing_reset() -> None:
    t, before = start("major-21")
    t.g.prestige.update({"swords": 5, "wands": 1, "cups": 1, "coins": 1})
    t.do(0, Hide(()))
    # hidden: seat 0 wands-10, seat 1 coins-4, seat 2 cups-4
    assert t.g.vp == [6, 6, 6]  # each alone in a rank-2 House (wands, cups, coins tied at 1)
    assert len(t.g.z.hidden[0]) == 1 and t.g.prestige["swords"] == 5
    assert all(PUBLIC in t.g.seen[h] for s in range(3) for h in t.g.z.hidden[s])
