"""Battle resolution test cases B1–B25 of rules §4.1 (DRESDEN; B26–B28 are MALTA/WORMS, not built)."""

from __future__ import annotations

import pytest

from p2ptarot.cards.arcanoid_tables import EMPEROR, EMPRESS, LOVERS, MAGICIAN, WORLD
from p2ptarot.games.arcanoid.battle import (ABDICATION, CARDS, FORCED, JUDGED, Record,
                                            battle_key, field_winner)


def eng(owner: int, field: str, *cards: str, t: str | None = None) -> Record:
    handles = tuple(range(100 * owner, 100 * owner + len(cards)))
    tr = handles[cards.index(t)] if t else -1
    return Record(owner, field, CARDS, 0, handles, tuple(cards), tr)


def ab(owner: int, field: str, ts: int, kind: str = ABDICATION) -> Record:
    return Record(owner, field, kind, ts)


def s(*ranks: int, suit: str = "swords") -> list[str]:
    return [f"{suit}-{r}" for r in ranks]


CASES = [
    ("B1", [eng(1, "swords", *s(4, 6, 7)), eng(2, "swords", *s(9, 10))], 2),
    ("B2", [eng(1, "swords", *s(4, 6, 7)), eng(2, "swords", *s(8, 9))], 1),
    ("B3", [eng(1, "swords", *s(4, 6, 7)), eng(2, "swords", *s(3, 5, 9))], 1),
    ("B4", [eng(1, "swords", *s(3, 7, 10)),
            eng(2, "swords", "wands-3", *s(8, 9), MAGICIAN, t="wands-3")], 1),
    ("B5", [eng(1, "swords", *s(3, 7, 10)),
            eng(2, "swords", "wands-5", *s(6, 9), MAGICIAN, t="wands-5")], 2),
    ("B6", [eng(1, "swords", "swords-10", "wands-10", MAGICIAN, t="wands-10"),
            eng(2, "swords", *s(3, 8, 9))], 2),
    ("B7", [eng(1, "swords", "swords-1"), eng(2, "swords", "cups-1", MAGICIAN, t="cups-1")], 1),
    ("B8", [eng(1, "swords", *s(2, 9), MAGICIAN), eng(2, "swords", *s(5, 6))], 2),
    ("B9", [eng(1, "wands", *s(1, 2, 3, 4, suit="wands")), eng(2, "wands", "wands-10")], 1),
    ("B10", [eng(1, "wands", *s(1, 2, 3, suit="wands")), eng(2, "wands", "wands-7")], 2),
    ("B11", [eng(1, "swords", "swords-knight"), eng(2, "swords", *s(8, 9))], 1),
    ("B12", [eng(1, "swords", "swords-knight", "swords-1"), eng(2, "swords", *s(8, 10))], 2),
    ("B13", [eng(1, "cups", "cups-page"), eng(2, "cups", "cups-4", "cups-10")], 1),
    ("B14", [eng(1, "cups", "cups-page", "cups-1"), eng(2, "cups", *s(2, 3, 4, 6, suit="cups"))], 2),
    ("B15", [eng(1, "coins", "coins-page", "coins-1"), eng(2, "coins", "coins-knight")], 2),
    ("B16", [eng(1, "coins", "coins-queen", "coins-king"),
             eng(2, "coins", *s(*range(1, 11), suit="coins"), "cups-10", MAGICIAN, t="cups-10")], 1),
    ("B17", [eng(1, "wands", EMPRESS, EMPEROR), eng(2, "wands", "wands-queen", "wands-king")], 1),
    ("B18", [eng(1, "cups", LOVERS, "cups-knight"), eng(2, "cups", "cups-queen", "cups-king")], 2),
    ("B19", [eng(1, "swords", LOVERS, "swords-page"), eng(2, "swords", "swords-knight"),
             eng(3, "swords", *s(5, 6, 7, 8, 9, 10))], 1),
    ("B20-swords", [eng(1, "swords", LOVERS, EMPEROR), eng(2, "swords", "swords-queen", "swords-king")], 2),
    ("B20-cups", [eng(1, "cups", LOVERS, EMPEROR), eng(3, "cups", "cups-9", "cups-10")], 1),
    ("B21-swords", [eng(1, "swords", EMPRESS, EMPEROR), eng(2, "swords", "swords-queen", "swords-king")], 1),
    ("B21-coins", [eng(1, "coins", EMPRESS, EMPEROR), eng(3, "coins", "coins-queen", "coins-king")], 1),
    ("B22", [eng(1, "coins", WORLD), ab(2, "coins", 9, FORCED), ab(3, "coins", 9, FORCED),
             ab(4, "coins", 9, FORCED)], 1),
    ("B23", [eng(1, "wands", "wands-1"), ab(2, "wands", 5), ab(3, "wands", 2, JUDGED)], 1),
    ("B24", [ab(1, "cups", 40), ab(2, "cups", 12, JUDGED), ab(3, "cups", 31)], 2),
    # B25: the demon (participant 5, master 0) wins and is credited to its master (test_game.py)
    ("B25", [eng(0, "swords", "swords-9"), eng(5, "swords", "swords-10"), eng(1, "swords", "swords-8")], 5),
]


@pytest.mark.parametrize("name,records,winner", CASES, ids=[c[0] for c in CASES])
def test_battle_cases(name: str, records: list[Record], winner: int) -> None:
    assert field_winner(records).owner == winner
    assert field_winner(list(reversed(records))).owner == winner


def test_no_ties_between_distinct_numeric_engagements() -> None:
    a = battle_key(eng(1, "swords", *s(4, 6, 7)))
    b = battle_key(eng(2, "swords", *s(3, 5, 9)))
    assert a != b and a > b


def test_empty_field_has_no_winner() -> None:
    with pytest.raises(ValueError):
        field_winner([])
