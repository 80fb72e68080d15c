"""Rules §5.5 and §6 on bare numbers: T5–T17 scoring cases (R5, R11–R14, R17)."""

from p2ptarot.games.sinople.scoring import award, rank_key, trick_winner, winners
from p2ptarot.games.sinople.rules import CHILD, HUSBAND, WIFE


def test_t5_tie_on_value_last_played_wins() -> None:
    assert trick_winner([5, 7, 7, 2]) == 2


def test_t6_off_class_high_card_wins() -> None:
    assert trick_winner([3, 4, 9]) == 2


def test_t7_tie_at_zero() -> None:
    assert trick_winner([0, 0]) == 1


def test_t8_husband_tie_broken_by_dealt_hand() -> None:
    assert award(HUSBAND, [5, 5, 35], [[3, 8, 9], [0, 5], [1, 2, 4, 6, 7]], 3) == 1


def test_t9_wife_tie_broken_by_dealt_hand() -> None:
    assert award(WIFE, [20, 20, 5], [[2, 4, 6], [0, 9], [1, 3, 5, 7, 8]], 3) == 1


def test_t10_husband_tie_nobody_can_break() -> None:
    assert award(HUSBAND, [20, 25, 0, 0], [[1, 3, 5, 7, 9], [0, 2, 4, 6, 8], [], []], 4) is None


def test_wife_tie_only_candidate_with_dealt_cards_wins() -> None:
    assert award(WIFE, [20, 20, 5], [[], [4], [1]], 3) == 1


def test_single_candidate_wins_without_tie_break() -> None:
    assert award(HUSBAND, [0, 10, 35], [[], [], []], 3) == 0
    assert award(WIFE, [0, 10, 35], [[], [], []], 3) == 2


def test_t11_child_exact_hit() -> None:
    assert award(CHILD, [14, 16, 15], [[], [], []], 3) == 0


def test_t12_child_everyone_over() -> None:
    assert award(CHILD, [15, 15, 15], [[], [], []], 3) is None


def test_t13_child_tie_among_best_eligible() -> None:
    assert award(CHILD, [8, 8, 10, 9, 10], [[]] * 5, 5) is None


def test_t14_child_with_surplus() -> None:
    assert award(CHILD, [11, 10, 7, 0], [[]] * 4, 4) == 0
    assert award(CHILD, [12, 10, 6, 0], [[]] * 4, 4) == 1


def test_t15_child_two_players() -> None:
    assert award(CHILD, [22, 23], [[], []], 2) == 0
    assert award(CHILD, [23, 22], [[], []], 2) == 1


def test_r12_zero_points_is_eligible() -> None:
    assert award(CHILD, [0, 20, 25], [[]] * 3, 3) == 0


def test_t16_end_of_game_tie_break_on_wives() -> None:
    keys = [rank_key([CHILD, WIFE, HUSBAND]), rank_key([CHILD, HUSBAND, HUSBAND]), rank_key([WIFE, WIFE])]
    assert keys[0] == (3, 1, 1, 1)
    assert winners(keys) == (0,)


def test_t17_shared_victory() -> None:
    keys = [rank_key([CHILD, WIFE, HUSBAND])] * 3
    assert winners(keys) == (0, 1, 2)


def test_r17_children_beat_figure_count_tie() -> None:
    assert winners([rank_key([HUSBAND, HUSBAND]), rank_key([CHILD, HUSBAND])]) == (1,)
