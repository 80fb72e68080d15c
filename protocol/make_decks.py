"""Write protocol/decks.json: the card ids of every deck a game can open, in open-deck order
(run from the repository root).

    .venv/bin/python protocol/make_decks.py            # rewrite protocol/decks.json
    .venv/bin/python protocol/make_decks.py --check    # exit 1 if the file drifted

A deck epoch's open deck is `(G, M_c + H)` for each card id c of the list below, in this order
(PROTOCOL §6.3): the order is the one the games pass to the deck layer, so a stranger can
recompute every card point, check the first shuffle of any deck, and decrypt the audit.
`tests/protocol/test_decks.py` fails on drift and checks, by playing every game, that every
deck a game opens is listed here with exactly these cards in exactly this order.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from p2ptarot.cards import (ARCANOID, ROSES_96, SINOPLE_FIGURES_9, SINOPLE_NUMERIC_30,  # noqa: E402
                            STANDARD_52X2, standard_52_copy)
from p2ptarot.cards.standard52 import MAX_COPY  # noqa: E402
from p2ptarot.games.arcanum.rules import MAJOR, MAJOR_CARDS, MINOR, MINOR_CARDS  # noqa: E402
from p2ptarot.games.arcanum.core import DECK_NAMES  # noqa: E402
from p2ptarot.games.eleusis.rules import Rules as EleusisRules  # noqa: E402

OUT = ROOT / "protocol" / "decks.json"
#: the copy index placeholder of a deck family's names and card ids
K = "{k}"


def decks() -> dict[str, Any]:
    """The file's content: fixed decks by wire id, then the Eleusis family of added copies."""
    fixed = {
        ARCANOID.deck.name: (["arcanoid"], ARCANOID.deck.ids),
        DECK_NAMES[MINOR]: (["arcanum"], MINOR_CARDS),
        DECK_NAMES[MAJOR]: (["arcanum"], MAJOR_CARDS),
        STANDARD_52X2.name: (["eleusis"], STANDARD_52X2.ids),
        SINOPLE_FIGURES_9.name: (["sinople"], SINOPLE_FIGURES_9.ids),
        SINOPLE_NUMERIC_30.name: (["sinople"], SINOPLE_NUMERIC_30.ids),
        ROSES_96.name: (["paris-divins", "trois-roses"], ROSES_96.ids),
    }
    first = EleusisRules().base_copies + 1
    template = standard_52_copy(first)
    suffix = f"#{first}"
    family = {"name": f"standard-52#{K}", "games": ["eleusis"], "k_min": first, "k_max": MAX_COPY,
              "cards": [c[:-len(suffix)] + f"#{K}" for c in template.ids]}
    assert template.name == family["name"].replace(K, str(first))
    return {
        "description": "card ids of every deck a game opens, by the deck id the mental messages "
                       "carry, in open-deck order: the open deck of an epoch is (G, M_c + H) for "
                       "each card c in this order, M_c = HP(\"p2ptarot/card\", utf8(deck), "
                       "utf8(c)) (PROTOCOL §6.3). 'families' lists decks whose name and ids "
                       "carry a copy index: replace {k} by k, k_min <= k <= k_max.",
        "decks": {name: {"games": games, "cards": list(cards)}
                  for name, (games, cards) in fixed.items()},
        "families": [family],
    }


def render() -> str:
    return json.dumps(decks(), indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="protocol/make_decks.py",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file differs")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print("protocol/decks.json drifted from the code; run protocol/make_decks.py",
                  file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {len(decks()['decks'])} decks and 1 family to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
