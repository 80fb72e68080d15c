"""The deck registry and the Deck value."""

import pytest

from p2ptarot.cards import Deck, UnknownCardError, UnknownDeckError, deck, deck_names

EXPECTED = {
    "tarot-78/arcanoid": 78,
    "tarot-78/arcanum": 78,
    "standard-52x2": 104,
    "sinople-39": 39,
    "sinople-numeric-30": 30,
    "sinople-figures-9": 9,
    "roses-96": 96,
}


def test_every_registered_deck_has_its_size_and_name() -> None:
    assert set(deck_names()) == set(EXPECTED)
    for name, size in EXPECTED.items():
        d = deck(name)
        assert (d.name, len(d), len(set(d.ids))) == (name, size, size)


@pytest.mark.parametrize("bad", ["tarot-78", "roses", "", None])
def test_unknown_deck_names_raise_with_the_known_list(bad) -> None:
    with pytest.raises(UnknownDeckError) as info:
        deck(bad)
    assert "roses-96" in str(info.value)
    assert isinstance(info.value, KeyError)


def test_deck_value_behaviour() -> None:
    d = Deck("tiny", ("x", "y"))
    assert list(d) == ["x", "y"] and d[1] == "y" and d.position("y") == 1
    assert "x" in d and "z" not in d and ["x"] not in d
    assert d.check("x") == "x"
    with pytest.raises(UnknownCardError):
        d.position("z")
    with pytest.raises(UnknownCardError):
        d.check(3)
    with pytest.raises(ValueError):
        Deck("dup", ("x", "x"))
    assert Deck("tiny", ("x", "y")) == d and hash(Deck("tiny", ("x", "y"))) == hash(d)
