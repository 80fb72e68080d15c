"""§6.4: one test per location effect, entered by seat 0's minor in turn 1 (3 players)."""

from __future__ import annotations

from p2ptarot.engine import PUBLIC, Pass
from p2ptarot.games.arcanum.moves import Choose, Discard, Fields, Hide, PlayMinor

from .support import check_invariants, scenario

OTHERS = [["coins-1", "coins-2", "coins-3", "coins-4", "major-5"],
          ["cups-1", "cups-2", "cups-3", "cups-4", "major-6"]]


def enter(loc: int, draws: tuple[str, ...] = ("wands-1", "wands-2", "wands-3", "wands-4"),
          major_draws: tuple[str, ...] = ("major-2",)):
    """Seat 0 plays swords-`loc` and moves the knave of swords (placed elsewhere) into `loc`."""
    card = f"swords-{loc}"
    hand = [card, "cups-9", "cups-10", "wands-10", "major-4"]
    start = 1 if loc != 1 else 2
    t = scenario([hand] + OTHERS, draws=draws, major_draws=major_draws,
                 figures={"fig-swords-knave": start})
    before = {"hand": len(t.g.z.hands[0]), "vp": list(t.g.vp), "prestige": dict(t.g.prestige)}
    t.do(0, PlayMinor(t.hand(0)[card], card, "fig-swords-knave", loc))
    assert t.g.figures["fig-swords-knave"] == loc
    return t, before


def test_symbols_and_suit_prestige_on_entry() -> None:
    t, before = enter(4)  # loc 4: swords 1, coins 1, king 2, queen 1 -> knave of swords +1
    assert t.g.prestige["swords"] == 1 + 1
    check_invariants(t.g)


def test_1_mage_tower_gives_one_vp_and_a_major() -> None:
    t, before = enter(1)
    assert t.g.vp[0] == 1
    assert t.g.prestige["swords"] == 1 + 2  # wands 1, swords 1, knave 1 -> swords + knave
    hand = t.hand(0)
    assert "major-2" in hand and len(t.g.z.hands[0]) == before["hand"]  # -1 minor +1 major


def test_2_artisan_district_two_minors_or_one_major() -> None:
    t, before = enter(2)
    assert t.decision() == "artisan"
    t.do(0, Choose("minors"))
    assert {"wands-1", "wands-2"} <= set(t.hand(0))
    t2, _ = enter(2)
    t2.do(0, Choose("major"))
    assert "major-2" in t2.hand(0)


def test_3_harbour_others_choose_in_turn_and_you_match_them() -> None:
    t, before = enter(3)
    assert "wands-1" in t.hand(0)
    assert t.decision() == "harbour" and t.g.turn().seats == (1,)
    t.do(1, Choose("draw"))
    assert t.g.turn().seats == (2,)
    t.do(2, Choose("pass"))
    assert "wands-2" in t.hand(1)
    assert "wands-3" in t.hand(0) and len(t.g.z.hands[0]) == before["hand"] - 1 + 2
    assert len(t.g.z.hands[2]) == 4


def test_4_throne_room_draws_two_minors() -> None:
    t, before = enter(4)
    assert len(t.g.z.hands[0]) == before["hand"] - 1 + 2


def test_5_market_two_vp_then_an_optional_trade() -> None:
    t, before = enter(5)
    assert t.g.vp[0] == 2 and t.decision() == "market"
    cups9 = t.hand(0)["cups-9"]
    t.do(0, Discard((cups9,), ("cups-9",)))
    assert "cups-9" not in t.hand(0) and {"wands-1", "wands-2"} <= set(t.hand(0))
    assert PUBLIC in t.g.seen[cups9] and cups9 in t.g.z.discard["minor"]
    t2, _ = enter(5)
    t2.do(0, Pass())
    assert len(t2.g.z.hands[0]) == before["hand"] - 1


def test_6_fields_one_vp_and_each_house_moves_by_one() -> None:
    t, before = enter(6)
    assert t.g.vp[0] == 1 and t.decision() == "fields"
    swords = t.g.prestige["swords"]
    t.do(0, Fields((-1, 1, 1, -1)))
    assert t.g.prestige == {"swords": swords - 1, "wands": 1, "cups": 1, "coins": 0}


def test_7_treasure_vault_draws_straight_into_the_hidden_area() -> None:
    t, before = enter(7)
    hidden = t.g.z.hidden[0]
    assert len(hidden) == 2 and t.g.cards[hidden[-1]] == "wands-1"
    assert t.g.seen[hidden[-1]] == {0}
    assert len(t.g.z.hands[0]) == before["hand"] - 1


def test_8_cathedral_hide_or_draw() -> None:
    t, _ = enter(8)
    assert t.decision() == "cathedral"
    t.do(0, Hide((t.hand(0)["cups-9"],)))
    assert len(t.g.z.hidden[0]) == 2
    t2, before = enter(8)
    t2.do(0, Choose("draw"))
    assert len(t2.g.z.hands[0]) == before["hand"] - 1 + 2 and len(t2.g.z.hidden[0]) == 1


def test_9_ballroom_may_hide_one_minor() -> None:
    t, _ = enter(9)
    moves = t.g.legal_moves(0)
    assert Hide(()) in moves and not any(len(m.handles) > 1 for m in moves)
    t.do(0, Hide((t.hand(0)["cups-10"],)))
    assert len(t.g.z.hidden[0]) == 2


def test_10_castle_every_other_player_discards_one_card() -> None:
    t, _ = enter(10)
    assert t.decision() == "castle" and set(t.g.turn().seats) == {1, 2}
    t.g.apply(1, Discard((t.hand(1)["major-5"],), ("major-5",)))
    t.g.apply(2, Discard((t.hand(2)["cups-1"],), ("cups-1",)))
    t.settle()
    assert len(t.g.z.hands[1]) == 3 and len(t.g.z.hands[2]) == 3
    assert "major-5" not in t.hand(1)
