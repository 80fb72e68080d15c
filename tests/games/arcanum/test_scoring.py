"""§7 House scoring: the source's Luca/Piero/Mario case and the project's test cases T2–T5, T11."""

from __future__ import annotations

from p2ptarot.games.arcanum.scoring import house_ranks, score_all


def test_t1_luca_piero_mario() -> None:
    prestige = {"swords": 10, "coins": 8, "wands": 8, "cups": 3}
    assert house_ranks(prestige) == {"swords": 1, "coins": 2, "wands": 2, "cups": 4}
    hidden = [["swords-5", "coins-10", "wands-8", "cups-2", "cups-6"],
              ["swords-3", "swords-9", "coins-queen", "wands-7"],
              ["coins-2", "coins-4", "wands-king"]]
    assert score_all(prestige, hidden) == [25, 25, 24]


def test_t2_tied_players_pool_their_positions() -> None:
    prestige = {"swords": 12, "wands": 5, "cups": 5, "coins": 0}
    hidden = [["swords-5", "swords-7"], ["swords-3", "swords-9"], ["swords-1"]]
    assert score_all(prestige, hidden) == [12, 12, 4]


def test_t3_rounding_down_in_three_and_two_way_ties() -> None:
    prestige = {"swords": 10, "wands": 7, "cups": 5, "coins": 1}
    hidden = [["wands-1", "wands-8", "cups-3", "cups-4"], ["wands-2", "wands-7", "cups-2", "cups-5"],
              ["wands-3", "wands-6", "coins-1", "coins-10"], ["coins-5", "coins-6"]]
    assert score_all(prestige, hidden) == [14, 14, 13, 6]


def test_t4_the_fool_counts_as_the_declared_suit_with_value_zero() -> None:
    prestige = {"cups": 12, "coins": 9, "wands": 9, "swords": 9}
    hidden = [["cups-king", "major-0"], ["cups-4", "cups-5"], ["coins-1"]]
    assert score_all(prestige, hidden, {0: "cups"}) == [16, 8, 12]
    assert score_all(prestige, hidden, {0: "coins"}) == [14, 16, 12]


def test_t5_the_worlds_half_table_without_presence() -> None:
    prestige = {"swords": 15, "wands": 15, "cups": 4, "coins": 2}
    hidden = [["swords-2", "swords-3", "coins-9"], ["swords-king", "coins-4"], ["swords-1", "cups-5"]]
    assert score_all(prestige, hidden, world=True) == [12, 6, 5]


def test_t11_house_ranking_with_ties_leaves_the_next_rank_empty() -> None:
    ranks = house_ranks({"cups": 9, "wands": 9, "coins": 4, "swords": 1})
    assert ranks == {"cups": 1, "wands": 1, "coins": 3, "swords": 4}


def test_all_four_houses_tied_pay_the_first_row() -> None:
    prestige = {"swords": 0, "wands": 0, "cups": 0, "coins": 0}
    assert score_all(prestige, [["swords-1"], ["wands-1"], ["cups-1"]]) == [16, 16, 16]


def test_a_player_without_the_suit_scores_nothing_and_fourth_place_pays_zero() -> None:
    prestige = {"swords": 5, "wands": 0, "cups": 0, "coins": 0}
    hidden = [["swords-1"], ["swords-2"], ["swords-3"], ["swords-4"], []]
    assert score_all(prestige, hidden) == [0, 4, 8, 16, 0]
