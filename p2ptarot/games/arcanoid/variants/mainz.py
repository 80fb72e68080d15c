"""MAINZ (rules §8.4, A86): NASSAU with plain aces, any Chariot add and no E7b couple.

Z1 aces have no role (a page or knight is engaged alone, the Magician joins numeric sets only,
the Fool may steal an ace); Z2 a Chariot add takes any number of cards; Z3 Lovers + Empress and
Lovers + Emperor are illegal. All three are switches read by `engage.composition_error`,
`engage.stealable` and `chariot.check_add`.
"""

from __future__ import annotations

from dataclasses import replace

from .nassau import NASSAU

MAINZ = replace(NASSAU, name="MAINZ", parent="NASSAU",
                summary="aces plain; Chariot adds any number; no E7b couples",
                aces_special=False,          # Z1
                chariot_add_max=0,           # Z2
                illegitimate_couples=False)  # Z3
