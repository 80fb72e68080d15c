"""The rules §8 variants, each its parent plus a diff (one module each, with its own moves), and the
catalogue the registry lists: the built variants and the GAZA combinations (§8.7). rules.py holds
the `Rules` data and the base rules DRESDEN, so this package imports it and never the reverse.
"""

from __future__ import annotations

from dataclasses import replace

from p2ptarot.engine.errors import BadConfiguration
from p2ptarot.engine.registry import VariantInfo

from ..rules import DRESDEN, Rules
from .koblenz import KOBLENZ
from .mainz import MAINZ
from .malta import MALTA
from .nassau import NASSAU
from .worms import WORMS
from p2ptarot.i18n.message import tr

#: the variants built so far, by name, in lineage order (DRESDEN is rules.DRESDEN)
VARIANTS: dict[str, Rules] = {r.name: r for r in (DRESDEN, NASSAU, KOBLENZ, MAINZ, MALTA, WORMS)}

#: the add-on combinable with any variant, even with itself (§8.7 G1): one USA seat per GAZA
GAZA = "GAZA"
#: "GAZA" on its own means MAINZ + GAZA (G1)
GAZA_DEFAULT_BASE = "MAINZ"

#: the §8 lineage not built yet: listed by `p2ptarot games`, refused by `create` and `host`
PLANNED_VARIANTS: tuple[VariantInfo, ...] = ()


def combined(name: str) -> Rules | None:
    """The rules of a GAZA combination (`MALTA+GAZA`, `GAZA+GAZA`, `GAZA`), or None when `name`
    is not one: at most one built base variant (MAINZ when none) plus k >= 1 GAZA parts."""
    parts = name.split("+")
    k = parts.count(GAZA)
    bases = [p for p in parts if p != GAZA]
    if k == 0 or len(bases) > 1 or any(b not in VARIANTS for b in bases):
        return None
    base = VARIANTS[bases[0] if bases else GAZA_DEFAULT_BASE]
    parent = base.name if k == 1 else "+".join([base.name] + [GAZA] * (k - 1))
    if name == GAZA:
        parent = base.name
    return replace(base, name=name, parent=parent, usa_seats=base.usa_seats + k,
                   summary=f"{base.name} plus {k} automatic USA participant{'s' * (k > 1)}")


#: the GAZA combinations listed (and so covered by the contract test); any other, e.g.
#: `MALTA+GAZA+GAZA`, is accepted by `rules_for` and `GameInfo.resolve_variant` all the same
LISTED_COMBINATIONS: tuple[str, ...] = (GAZA,) + tuple(f"{n}+{GAZA}" for n in (
    "DRESDEN", "NASSAU", "KOBLENZ", "MALTA", "WORMS")) + (f"{GAZA}+{GAZA}",)


def combination_info(name: str) -> VariantInfo | None:
    """The registry's view of a GAZA combination (GameInfo.combine)."""
    rules = combined(name)
    return None if rules is None else rules.variant_info()


def catalogue() -> tuple[VariantInfo, ...]:
    """Every variant for the registry: the built ones, then the listed GAZA combinations."""
    built = tuple(r.variant_info() for r in VARIANTS.values())
    combos = []
    for name in LISTED_COMBINATIONS:
        info = combination_info(name)
        assert info is not None
        # a listed parent must be listed before it: "GAZA+GAZA" derives from "GAZA" (MAINZ+GAZA)
        combos.append(info if name != f"{GAZA}+{GAZA}" else VariantInfo(name, GAZA, info.status,
                                                                          info.summary))
    names = {v.name for v in built}
    return built + tuple(combos) + tuple(v for v in PLANNED_VARIANTS if v.name not in names)


def rules_for(variant: str | None) -> Rules:
    """The rules object of a built variant or GAZA combination (DRESDEN when None)."""
    rules = VARIANTS.get(variant or DRESDEN.name) or combined(variant or "")
    if rules is None:
        raise BadConfiguration(tr("{game} variant {variant} is not built (built: {built}, each "
                                  "optionally +GAZA)",
                                  game="arcanoid", variant=repr(variant),
                                  built=', '.join(VARIANTS)))
    return rules


__all__ = ["GAZA", "KOBLENZ", "MAINZ", "MALTA", "NASSAU", "PLANNED_VARIANTS", "SUMMARIES_FR", "VARIANTS",
           "WORMS", "catalogue", "combination_info", "combined", "rules_for"]


#: the variants' summaries in French, data beside the English ones (spec/APP.md, "Languages")
_FR_BASE = {"DRESDEN": "les règles de base (§1-§7)",
            "NASSAU": "personne ne s'engage sur un champ tempéré ; retirer la Tempérance",
            "KOBLENZ": "un engagement secret (face cachée) par manche",
            "MAINZ": "as simples ; le Chariot ajoute autant de cartes qu'on veut ; pas de couples E7b",
            "MALTA": "le Bateleur rend un engagement secret",
            "WORMS": "un as seul peut être renforcé une fois"}


def _gaza_fr(name: str) -> str:
    """'MALTA plus 1 participant USA automatique', as `variants.combined` words it in English."""
    parts = name.split("+")
    k = parts.count(GAZA)
    base = next((p for p in parts if p != GAZA), GAZA_DEFAULT_BASE)
    return f"{base} plus {k} participant{'s' * (k > 1)} USA automatique{'s' * (k > 1)}"


#: every listed variant's summary in French (the registration hands it to the engine)
SUMMARIES_FR: dict[str, str] = _FR_BASE | {n: _gaza_fr(n) for n in LISTED_COMBINATIONS}
