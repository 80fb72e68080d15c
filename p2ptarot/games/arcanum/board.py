"""The board's left-side symbols and the Tower geometry (rules §5), read from a replaceable file.

The default file (`board.json`, id `project-default-1`) ships in the package; a table may agree on
another file describing its own physical board (R21, R22). The engine never hard-codes symbols.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

from p2ptarot.engine import BadConfiguration

from .rules import HOUSES, LOCATIONS, RANKS, figure_house, figure_rank
from p2ptarot.i18n.message import tr

SYMBOLS = HOUSES + RANKS
FORMAT = "arcanum-board/1"


@dataclass(frozen=True)
class Board:
    id: str
    symbols: Mapping[int, Mapping[str, int]]
    tower_pairs: frozenset[frozenset[int]]
    digest: str

    def gain(self, fig: str, loc: int) -> int:
        """§6.1 c: symbols of `loc` equal to the figure's suit plus those equal to its type."""
        s = self.symbols[loc]
        return s.get(figure_house(fig), 0) + s.get(figure_rank(fig), 0)


def parse_board(data: Any) -> Board:
    """Validate a board document (§5.3) strictly; BadConfiguration explains the first fault."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadConfiguration(tr("a board file is an object with format {format}",
                                  format=repr(FORMAT)))
    if not isinstance(data.get("id"), str) or not data["id"]:
        raise BadConfiguration(tr("a board file needs a string id"))
    symbols = data.get("symbols")
    if not isinstance(symbols, dict) or set(symbols) != {str(k) for k in LOCATIONS}:
        raise BadConfiguration(tr("board symbols need exactly the keys '1' … '10'"))
    parsed: dict[int, dict[str, int]] = {}
    for key, entry in symbols.items():
        if not isinstance(entry, dict) or not set(entry) <= set(SYMBOLS):
            raise BadConfiguration(tr("location {key}: symbols are among {symbols}",
                                      key=key, symbols=', '.join(SYMBOLS)))
        for name, count in entry.items():
            if type(count) is not int or not 0 <= count <= 9:
                raise BadConfiguration(tr("location {key}: count of {name} must be an integer 0…9",
                                          key=key, name=name))
        parsed[int(key)] = {n: c for n, c in entry.items() if c}
    pairs = data.get("towerPairs")
    if not isinstance(pairs, list):
        raise BadConfiguration(tr("towerPairs is a list of location pairs"))
    tower: set[frozenset[int]] = set()
    for pair in pairs:
        if (not isinstance(pair, list) or len(pair) != 2 or any(type(x) is not int for x in pair)
                or pair[0] == pair[1] or not set(pair) <= set(LOCATIONS)):
            raise BadConfiguration(tr("bad tower pair {pair}: two distinct locations 1…10",
                                      pair=repr(pair)))
        tower.add(frozenset(pair))
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
    return Board(data["id"], parsed, frozenset(tower), digest)


@lru_cache(maxsize=4)
def load_board(board_id: str = "project-default-1") -> Board:
    """A board shipped in the package by id (only the default one today)."""
    if board_id != "project-default-1":
        raise BadConfiguration(tr("no board file {board_id} is shipped", board_id=repr(board_id)))
    text = resources.files(__package__).joinpath("board.json").read_text(encoding="utf-8")
    return parse_board(json.loads(text))
