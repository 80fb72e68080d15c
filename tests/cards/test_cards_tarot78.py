"""tarot-78: one physical deck, the arcanoïd and Arcanum namings, and conversion between them."""

import pytest

from p2ptarot.cards import (
    ARCANOID,
    ARCANUM,
    PHYSICAL,
    PHYSICAL_CARDS,
    UnknownCardError,
    arcanoid_to_arcanum,
    arcanum_to_arcanoid,
    convert,
    deck,
)

NAMINGS = [ARCANOID, ARCANUM]


def test_physical_deck_is_78_unique_cards_named_not_numbered() -> None:
    assert len(PHYSICAL_CARDS) == 78 == len(PHYSICAL)
    kinds = [c.kind for c in PHYSICAL_CARDS]
    assert (kinds.count("minor"), kinds.count("trump"), kinds.count("fool")) == (56, 21, 1)
    assert {"justice", "strength", "fool", "world", "magician"} <= set(PHYSICAL)


@pytest.mark.parametrize("naming", NAMINGS, ids=lambda n: n.name)
def test_naming_counts_uniqueness_and_index_round_trip(naming) -> None:
    d = naming.deck
    assert len(d) == 78 == len(set(d.ids)) == len(naming.cards)
    for position, cid in enumerate(d.ids):
        card = naming.card(cid)
        assert card.index == position == d.position(cid)
        assert naming.by_index[card.index].id == cid
    assert sorted(c.physical for c in naming.by_index) == sorted(PHYSICAL)


def test_arcanoid_ids_and_indices() -> None:
    ids = ARCANOID.deck.ids
    assert ids[:14] == (
        "swords-1", "swords-2", "swords-3", "swords-4", "swords-5", "swords-6", "swords-7",
        "swords-8", "swords-9", "swords-10", "swords-page", "swords-knight", "swords-queen", "swords-king",
    )
    assert ids[56] == "fool"
    assert ids[57:] == tuple(f"trump-{n}" for n in range(1, 22))
    assert ARCANOID.card("wands-1").index == 14
    assert ARCANOID.card("coins-king").index == 55
    assert ARCANOID.card("fool").number is None and ARCANOID.card("fool").kind == "fool"


def test_arcanum_ids_and_indices_quoted_from_rules() -> None:
    # spec/games/arcanum.md, rules §2.2:
    # swords-1 = 0, swords-king = 13, wands-1 = 14, coins-king = 55.
    assert [ARCANUM.card(c).index for c in ("swords-1", "swords-king", "wands-1", "coins-king")] == [0, 13, 14, 55]
    assert ARCANUM.card("swords-knave").rank == 11
    assert ARCANUM.card("cups-queen").rank == 13
    # §2.3: canonical index of major-k = 56 + k.
    for k in range(22):
        assert ARCANUM.card(f"major-{k}").index == 56 + k
    assert ARCANUM.card("major-0").physical == "fool" and ARCANUM.card("major-0").number == 0


def test_justice_and_strength_swap_between_traditions() -> None:
    assert ARCANOID.card("trump-8").physical == "justice"
    assert ARCANOID.card("trump-11").physical == "strength"
    assert ARCANUM.card("major-8").physical == "strength"
    assert ARCANUM.card("major-11").physical == "justice"
    assert arcanoid_to_arcanum("trump-8") == "major-11"
    assert arcanoid_to_arcanum("trump-11") == "major-8"
    assert arcanum_to_arcanoid("major-11") == "trump-8"
    assert ARCANOID.card("trump-8").name == ARCANUM.card("major-11").name == "Justice"


def test_other_trumps_keep_their_number_and_courts_rename() -> None:
    for n in range(1, 22):
        expected = {8: 11, 11: 8}.get(n, n)
        assert arcanoid_to_arcanum(f"trump-{n}") == f"major-{expected}"
    assert arcanoid_to_arcanum("fool") == "major-0"
    assert arcanoid_to_arcanum("cups-page") == "cups-knave"
    assert arcanoid_to_arcanum("coins-7") == "coins-7"


@pytest.mark.parametrize("cid", ARCANOID.deck.ids)
def test_conversion_round_trips(cid: str) -> None:
    assert arcanum_to_arcanoid(arcanoid_to_arcanum(cid)) == cid
    assert convert(cid, ARCANOID, ARCANOID) == cid
    assert ARCANOID.physical_of(cid) is PHYSICAL[ARCANUM.card(arcanoid_to_arcanum(cid)).physical]


def test_minor_attributes() -> None:
    ace = ARCANOID.card("cups-1")
    assert (ace.suit, ace.suit_index, ace.rank, ace.numeric, ace.court) == ("cups", 2, 1, True, False)
    page = ARCANOID.card("wands-page")
    assert (page.suit, page.rank, page.numeric, page.court) == ("wands", 11, False, True)
    trump = ARCANOID.card("trump-21")
    assert (trump.kind, trump.suit, trump.number, trump.physical) == ("trump", None, 21, "world")
    assert sum(1 for c in ARCANOID.by_index if c.numeric) == 40
    assert sum(1 for c in ARCANOID.by_index if c.court) == 16


@pytest.mark.parametrize("bad", ["swords-knave", "major-8", "trump-0", "trump-22", "swords-11", "Fool", "", 8, None])
def test_unknown_arcanoid_ids_raise(bad) -> None:
    with pytest.raises(UnknownCardError) as info:
        ARCANOID.card(bad)
    assert "arcanoid" in str(info.value) and ARCANOID.name == "arcanoid"


@pytest.mark.parametrize("bad", ["swords-page", "trump-8", "fool", "major-22", "major-00"])
def test_unknown_arcanum_ids_raise(bad: str) -> None:
    with pytest.raises(UnknownCardError):
        ARCANUM.card(bad)
    assert bad not in ARCANUM.deck


def test_registry_serves_both_namings() -> None:
    assert deck("tarot-78/arcanoid") is ARCANOID.deck
    assert deck("tarot-78/arcanum") is ARCANUM.deck


def test_naming_is_immutable() -> None:
    with pytest.raises(AttributeError):
        ARCANOID.name = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        ARCANOID.card("fool").number = 0  # type: ignore[misc]
