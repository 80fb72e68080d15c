"""sinople-39 and its two sub-decks (spec/games/sinople.md, rules §2)."""

import pytest

from p2ptarot.cards import SINOPLE, SINOPLE_CARDS, UnknownCardError, deck, sinople_card


def test_counts_and_uniqueness() -> None:
    full, numeric, figures = deck("sinople-39"), deck("sinople-numeric-30"), deck("sinople-figures-9")
    assert (len(full), len(numeric), len(figures)) == (39, 30, 9)
    assert len(set(full.ids)) == 39
    assert set(numeric.ids) | set(figures.ids) == set(full.ids)
    assert not set(numeric.ids) & set(figures.ids)
    assert full.ids == numeric.ids + figures.ids


def test_canonical_index_round_trip_and_subdeck_positions() -> None:
    for position, cid in enumerate(deck("sinople-39").ids):
        assert sinople_card(cid).index == position
        assert SINOPLE_CARDS[position].id == cid
    figures = deck("sinople-figures-9")
    assert [sinople_card(c).index for c in figures.ids] == list(range(30, 39))
    assert figures.position("fig-a-husband") == 0


def test_ids_and_indices_quoted_from_rules() -> None:
    expected = {
        "num-a-0": 0, "num-a-9": 9, "num-b-0": 10, "num-b-7": 17, "num-c-9": 29,
        "fig-a-husband": 30, "fig-a-wife": 31, "fig-a-child": 32,
        "fig-b-husband": 33, "fig-c-wife": 37, "fig-c-child": 38,
    }
    assert {cid: sinople_card(cid).index for cid in expected} == expected


def test_class_sums_are_45() -> None:
    for cls in "abc":
        numerics = [c for c in SINOPLE_CARDS if c.kind == "numeric" and c.cls == cls]
        assert len(numerics) == 10
        assert sum(c.value for c in numerics) == 45 == sum(c.points for c in numerics)


def test_figure_attributes() -> None:
    wife = SINOPLE["fig-b-wife"]
    assert (wife.kind, wife.cls, wife.class_index, wife.role, wife.value) == ("figure", "b", 1, "wife", None)
    seven = SINOPLE["num-b-7"]
    assert (seven.kind, seven.cls, seven.value, seven.points, seven.role) == ("numeric", "b", 7, 7, None)


@pytest.mark.parametrize("bad", ["num-a-10", "num-d-1", "fig-a-son", "B7", "", None])
def test_unknown_ids_raise(bad) -> None:
    with pytest.raises(UnknownCardError):
        sinople_card(bad)
