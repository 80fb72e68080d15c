"""roses-96: ids, canonical index, trick value, strength and points
(spec/games/roses.md, rules §1)."""

import pytest

from p2ptarot.cards import ROSES, ROSES_96, ROSES_CARDS, THREE_ROSES, UnknownCardError, deck, roses_card
from p2ptarot.cards.roses import FAMILIES


def test_counts_uniqueness_and_index_round_trip() -> None:
    d = deck("roses-96")
    assert d is ROSES_96
    assert len(d) == 96 == len(set(d.ids))
    for position, cid in enumerate(d.ids):
        assert roses_card(cid).index == position
    cats = [c.category for c in ROSES_CARDS]
    assert (cats.count("minor"), cats.count("major"), cats.count("divine")) == (60, 25, 11)


@pytest.mark.parametrize(
    ("index", "cid", "trick_value", "strength", "points"),
    [
        (0, "minor-star-1", 1, 1, 0),
        (11, "minor-star-god", 12, 56, 6),
        (18, "minor-feather-child", 7, 32, 1),
        (40, "minor-cup-5", 5, 24, 0),
        (59, "minor-mask-god", 12, 60, 6),
        (60, "major-nature-1", 1, 61, 0),
        (68, "major-role-1", 9, 69, 0),
        (83, "major-concept-8", 24, 84, 0),
        (84, "world", None, 85, 8),
        (85, "divine-1", 1, 86, 4),
        (94, "rose-inverted", 10, 95, 8),
        (95, "rose-upright", 11, 96, 8),
    ],
)
def test_rows_quoted_from_full_card_table(index, cid, trick_value, strength, points) -> None:
    card = ROSES_CARDS[index]
    assert (card.id, card.trick_value, card.strength, card.points) == (cid, trick_value, strength, points)


def test_strength_formula_and_total_order() -> None:
    assert sorted(c.strength for c in ROSES_CARDS) == list(range(1, 97))
    for c in ROSES_CARDS:
        if c.category == "minor":
            assert c.strength == 5 * (c.rank - 1) + c.family_index + 1
        elif c.category == "major":
            assert c.strength == 60 + c.value
        else:
            assert c.strength == 85 + c.value
    assert max(ROSES_CARDS, key=lambda c: c.strength).id == "rose-upright"
    assert ROSES["world"].value == 25


def test_points_totals() -> None:
    by_cat = {cat: sum(c.points for c in ROSES_CARDS if c.category == cat) for cat in ("minor", "major", "divine")}
    assert by_cat == {"minor": 105, "major": 8, "divine": 52}
    assert sum(by_cat.values()) == 165
    for family in FAMILIES:
        assert sum(c.points for c in ROSES_CARDS if c.family == family) == 21


def test_three_roses_and_families() -> None:
    assert THREE_ROSES == {"rose-upright", "rose-inverted", "world"}
    assert [c.group for c in ROSES_CARDS if c.group == "rose"] == ["rose", "rose"]
    mask = ROSES["minor-mask-ancestor"]
    assert (mask.family, mask.family_index, mask.rank, mask.points) == ("mask", 4, 11, 5)


@pytest.mark.parametrize("bad", ["minor-cup-7", "minor-cup-0", "major-nature-9", "divine-10", "rose", "World", None])
def test_unknown_ids_raise(bad) -> None:
    with pytest.raises(UnknownCardError):
        roses_card(bad)
