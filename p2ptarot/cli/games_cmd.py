"""`p2ptarot games`: the catalogue of registered games, variants and player counts."""

from __future__ import annotations

import argparse
import json

from p2ptarot.engine import games
from p2ptarot.i18n import N_, _, language

#: a variant's status as people read it (the JSON keeps the registry's word)
STATUS = {"playable": N_("playable"), "planned": N_("planned")}


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser("games", help=_("list the games this build can play"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(run=run, prog=p.prog)
    return p


def run(args: argparse.Namespace) -> int:
    catalogue = games()
    if args.json:
        print(json.dumps({"games": [g.to_json() for g in catalogue]}, sort_keys=True))
        return 0
    for g in catalogue:
        players = _("players {low}-{high}").format(low=g.min_players, high=g.max_players)
        print(f"{g.name:<12} {g.title_in(language()):<28} {players}")
        for v in g.variants:
            default = " " + _("(default)") if v.name == g.default_variant else ""
            origin = _("from {parent}: ").format(parent=v.parent) if v.parent else ""
            status = _(STATUS[v.status]) if v.status in STATUS else v.status
            print(f"    {v.name:<10} {status + default:<20} {origin}{g.summary_in(v, language())}".rstrip())
    return 0
