"""The §8 variants, each its parent plus a diff (rules.py holds DRESDEN and the registry).

Imported by rules.py once DRESDEN exists; each module defines one variant and its own moves.
"""

from __future__ import annotations

from .koblenz import KOBLENZ
from .mainz import MAINZ
from .malta import MALTA
from .nassau import NASSAU
from .worms import WORMS

#: the built variants in lineage order (DRESDEN is rules.DRESDEN)
BUILT = (NASSAU, KOBLENZ, MAINZ, MALTA, WORMS)

__all__ = ["BUILT", "KOBLENZ", "MAINZ", "MALTA", "NASSAU", "WORMS"]
