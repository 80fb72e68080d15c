"""arcanoïd on engine contract v2: `check` accepts legal moves beyond the bounded `legal_moves`
sample, refuses what the rules forbid, and the rules object drives what a variant changes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2ptarot.cards.arcanoid_tables import CHARIOT, EMPEROR, EMPRESS, LOVERS, MAGICIAN
from p2ptarot.engine import IllegalMove, create
from p2ptarot.games.arcanoid.engage import composition_error, stealable
from p2ptarot.games.arcanoid.moves import ChariotAdd, ChariotLoad, Discard
from p2ptarot.games.arcanoid.rules import DRESDEN
from p2ptarot.games.arcanoid.variants import VARIANTS, catalogue, rules_for

from .test_arcana import P1, idle, table


def test_a_three_card_chariot_load_passes_check_though_not_listed() -> None:
    t = table({P1: [CHARIOT, "swords-10", "swords-9", "swords-8"]})
    cards = ("swords-10", "swords-9", "swords-8")
    load = ChariotLoad(t.h(CHARIOT), CHARIOT, tuple(t.h(c) for c in cards), cards)
    assert load not in t.state.legal_moves(P1)  # the list is a bounded sample (≤ 2 extra cards)
    t.state.check(P1, load)
    t.do(P1, load)
    assert len(t.state.parts[P1].reserve) == 3


def test_chariot_add_is_bounded_by_the_rules() -> None:
    t = table({P1: [CHARIOT, "swords-10", "swords-9", "swords-8", "swords-7"]})
    t.do(P1, ChariotLoad(t.h(CHARIOT), CHARIOT, (t.h("swords-10"),), ("swords-10",)))
    for _ in range(3):
        idle(t)
    three = ("swords-9", "swords-8", "swords-7")
    add = ChariotAdd(tuple(t.h(c) for c in three), three)
    with pytest.raises(IllegalMove, match="add 1 to 2 cards"):
        t.state.check(P1, add)
    t.state.rules = replace(DRESDEN, chariot_add_max=0)  # MAINZ Z2: any number
    t.state.check(P1, add)


def test_check_refuses_a_discard_of_a_card_not_held_and_a_mistyped_handle() -> None:
    t = table({})
    other = t.state.parts[1].hand[0]
    with pytest.raises(IllegalMove, match="available"):
        t.state.check(P1, Discard(other))
    with pytest.raises(IllegalMove, match="handle"):
        t.state.check(P1, Discard("seven"))  # type: ignore[arg-type]
    with pytest.raises(IllegalMove):
        t.state.check(P1, Discard(True))  # type: ignore[arg-type]


def test_rules_switches_are_the_variant_points_of_section_8() -> None:
    mainz_like = replace(DRESDEN, name="TEST", aces_special=False, illegitimate_couples=False)
    assert composition_error(("swords",), ["swords-page", "swords-1"], None) is None
    assert composition_error(("swords",), ["swords-page", "swords-1"], None, mainz_like)
    assert composition_error(("swords",), ["swords-page"], None, mainz_like) is None
    assert composition_error(("cups",), [LOVERS, EMPRESS], None) is None
    assert composition_error(("cups",), [LOVERS, EMPRESS], None, mainz_like)
    assert composition_error(("cups",), [EMPEROR, EMPRESS], None, mainz_like) is None
    assert not stealable(["swords-1", "swords-2"]) and stealable(["swords-1", "swords-2"], mainz_like)
    assert composition_error(("swords",), ["swords-4", MAGICIAN], None, mainz_like) is None


def test_variants_are_data_and_only_built_ones_create() -> None:
    assert rules_for(None) is DRESDEN and VARIANTS["DRESDEN"] is DRESDEN
    assert all(VARIANTS[r.parent].name == r.parent for r in VARIANTS.values() if r.parent)
    assert DRESDEN.dresden_compositions and not replace(DRESDEN, aces_special=False).dresden_compositions
    names = [v.name for v in catalogue()]
    assert names[:6] == ["DRESDEN", "NASSAU", "KOBLENZ", "MAINZ", "MALTA", "WORMS"]
    state = create("arcanoid", 3, "DRESDEN")
    assert state.rules is DRESDEN and state.rounds == DRESDEN.rounds
    assert state.parts[0].hand_cap == DRESDEN.hand_size
