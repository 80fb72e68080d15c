"""standard-52 copies for Eleusis: ids, canonical index, added decks (R12)."""

import pytest

from p2ptarot.cards import (
    STANDARD_52X2,
    UnknownCardError,
    deck,
    standard_52_copy,
    standard_52x,
    standard_by_index,
    standard_card,
)
from p2ptarot.cards.standard52 import MAX_COPY


def test_opening_deck_has_104_unique_cards_in_canonical_order() -> None:
    d = deck("standard-52x2")
    assert d is STANDARD_52X2
    assert len(d) == 104 == len(set(d.ids))
    for position, cid in enumerate(d.ids):
        assert standard_card(cid).index == position
        assert standard_by_index(position).id == cid


def test_ids_and_indices_quoted_from_rules() -> None:
    # spec/games/eleusis.md, rules §2.1 examples, and
    # 52 × (copy − 1) + 13 × suitIndex + rank − 1.
    assert standard_card("hearts-1#1").index == 26
    queen = standard_card("hearts-12#2")
    assert (queen.index, queen.suit, queen.rank, queen.copy) == (52 + 26 + 11, "hearts", 12, 2)
    ten = standard_card("spades-10#3")
    assert ten.index == 104 + 39 + 9
    assert STANDARD_52X2.ids[0] == "clubs-1#1" and STANDARD_52X2.ids[-1] == "spades-13#2"


def test_erl_attributes() -> None:
    k = standard_card("diamonds-13#1")
    assert (k.suitnum, k.color, k.face, k.prime, k.odd) == (2, "red", True, True, True)
    a = standard_card("clubs-1#2")
    assert (a.suitnum, a.color, a.face, a.prime, a.odd) == (1, "black", False, False, True)
    assert standard_card("spades-4#1").suitnum == 4


def test_copies_are_interchangeable_through_base() -> None:
    assert standard_card("hearts-7#1").base == standard_card("hearts-7#2").base == "hearts-7"
    assert standard_card("hearts-7#1") != standard_card("hearts-7#2")


@pytest.mark.parametrize("copy", [3, 4])
def test_added_copies_extend_the_vocabulary(copy: int) -> None:
    d = standard_52_copy(copy)
    assert len(d) == 52
    assert d.ids[0] == f"clubs-1#{copy}"
    assert [standard_card(c).index for c in d.ids] == list(range(52 * (copy - 1), 52 * copy))
    assert not set(d.ids) & set(STANDARD_52X2.ids)


def test_standard_52x_concatenates_copies() -> None:
    four = standard_52x(4)
    assert len(four) == 208
    assert four.ids[:104] == STANDARD_52X2.ids
    with pytest.raises(ValueError):
        standard_52_copy(0)


@pytest.mark.parametrize(
    "bad",
    ["hearts-1", "hearts-0#1", "hearts-14#1", "hearts-1#0", "hearts-01#1", "hearts-1#01",
     f"hearts-1#{MAX_COPY + 1}", "Hearts-1#1", "cups-1#1", " hearts-1#1", 5, None],
)
def test_invalid_ids_raise(bad) -> None:
    with pytest.raises(UnknownCardError):
        standard_card(bad)
    assert bad not in STANDARD_52X2


def test_index_out_of_range_raises() -> None:
    with pytest.raises(UnknownCardError):
        standard_by_index(-1)
    with pytest.raises(UnknownCardError):
        standard_by_index(52 * MAX_COPY)
