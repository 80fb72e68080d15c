"""Every printed test case of spec/games/roses.md, rules §2.11: trick resolution (TR-T), legal
plays (TR-L), deal
scoring (TR-S) and the match (TR-M1)."""

from __future__ import annotations

import pytest

from p2ptarot.cards.roses_tables import INDEX, POINTS
from p2ptarot.games.trois_roses import scoring, trick
from p2ptarot.games.trois_roses.legal import legal_cards

# (case, plays in order, winner position, excused positions, points to the winner)
TRICKS = [
    ("TR-T1", "minor-cup-3 minor-cup-god major-role-2 minor-cup-child", 2, (), 7),
    ("TR-T2", "minor-star-5 world minor-star-6 minor-feather-god", 1, (), 14),
    ("TR-T3", "major-nature-3 world major-concept-1 minor-staff-2", 2, (1,), 0),
    ("TR-T4", "minor-mask-2 rose-upright minor-mask-parent minor-mask-6", 2, (), 12),
    ("TR-T5", "minor-mask-2 divine-4 major-nature-1 minor-mask-god", 2, (1,), 6),
    ("TR-T6", "major-nature-5 divine-2 rose-inverted major-concept-8", 2, (), 12),
    ("TR-T7", "divine-7 minor-staff-4 minor-staff-master divine-9", 2, (), 11),
    ("TR-T8", "divine-1 divine-5 rose-upright", 2, (), 16),
    ("TR-T9", "divine-6 world minor-cup-god", 1, (0,), 14),
    ("TR-T10", "divine-6 world major-nature-2", 2, (0, 1), 0),
    ("TR-T11", "divine-2 divine-3 world minor-star-1", 1, (), 16),
    ("TR-T12", "world minor-star-god minor-cup-1", 0, (), 14),
    ("TR-T13", "minor-feather-3 minor-star-god minor-feather-1 minor-mask-ancestor minor-feather-2", 0, (), 11),
]


def _idx(text: str) -> list[int]:
    return [INDEX[c] for c in text.split()]


@pytest.mark.parametrize("case,plays,win,out,points", TRICKS, ids=[t[0] for t in TRICKS])
def test_trick_resolution(case: str, plays: str, win: int, out: tuple[int, ...], points: int) -> None:
    cards = _idx(plays)
    assert trick.winner(cards) == win
    assert trick.excused(cards) == out
    assert sum(POINTS[c] for i, c in enumerate(cards) if i not in out) == points


# (case, trick so far, hand, legal cards)
LEGAL = [
    ("TR-L1", "minor-cup-4", "minor-cup-1 major-nature-2 divine-5", "minor-cup-1 divine-5"),
    ("TR-L2", "minor-cup-1 major-role-5", "major-nature-2 major-concept-3 world minor-star-1",
     "major-concept-3 world"),
    ("TR-L3", "minor-cup-1 major-role-5", "major-nature-2 minor-star-1", "major-nature-2"),
    ("TR-L4", "world", "major-nature-2 major-role-1 minor-star-1", "major-nature-2 major-role-1"),
    ("TR-L5", "major-role-1", "minor-star-1 minor-cup-2 divine-2", "minor-star-1 minor-cup-2 divine-2"),
    ("TR-L6", "divine-9", "minor-star-1 major-role-1 divine-2", "minor-star-1 major-role-1 divine-2"),
    ("TR-L7", "divine-9 minor-star-4", "minor-star-1 major-role-1 divine-2", "minor-star-1 divine-2"),
]


@pytest.mark.parametrize("case,so_far,hand,legal", LEGAL, ids=[t[0] for t in LEGAL])
def test_legal_plays(case: str, so_far: str, hand: str, legal: str) -> None:
    assert sorted(legal_cards(_idx(so_far), _idx(hand))) == sorted(_idx(legal))


SCORES = [
    ("TR-S1", 64, 70, 0, 64), ("TR-S2", 64, 70, 1, 67), ("TR-S3", 64, 71, 1, 67),
    ("TR-S4", 64, 70, 2, 70), ("TR-S5", 64, 70, 3, 76), ("TR-S6", 64, 63, 3, 63),
    ("TR-S7", 64, 50, 2, 50), ("TR-S8", 72, 80, 2, 80), ("TR-S9", 72, 75, 3, 78),
    ("TR-S10", 56, 56, 0, 56),
    ("TR-S11", 64, 70, 2, 70),  # P2 keeps the excused World and holds rose-inverted: R = 2
]


@pytest.mark.parametrize("case,target,points,roses,score", SCORES, ids=[s[0] for s in SCORES])
def test_deal_scoring(case: str, target: int, points: int, roses: int, score: int) -> None:
    assert scoring.deal_score(points, roses, target) == score


def test_two_roses_always_score_the_raw_points() -> None:
    for target in (56, 64, 72):
        for points in range(0, 166):
            assert scoring.deal_score(points, 2, target) == points


def test_tr_m1_match() -> None:
    deals = [([72, 60, 33], [0, 0, 0]), ([40, 80, 45], [0, 2, 0]), ([51, 20, 94], [0, 0, 2])]
    totals = [0, 0, 0]
    for points, roses in deals:
        assert sum(points) == 165
        for s in range(3):
            totals[s] += scoring.deal_score(points[s], roses[s], 72)
    assert totals == [163, 160, 172]
    assert scoring.winners(totals) == (2,)
    assert scoring.winners([163, 160, 163]) == (0, 2)
