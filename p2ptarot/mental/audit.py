"""The end-of-epoch audit: with every x_i public, decrypt everything and re-check every share.

Shares were proven when received, so a failure here means a proof was forged or a verifier was
skipped; the re-check still names the share's author, which is what makes claims made during
play ("I do not hold that card") checkable by anyone holding the transcript.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from p2ptarot.crypto.elgamal import decrypt
from p2ptarot.crypto.group import Point, Scalar

from .errors import MentalError, MentalViolation
from .state import Handle


def run_audit(handles: Mapping[int, Handle], secrets: Mapping[int, Scalar],
              card_by_point: Mapping[Point, str], card_ids: Sequence[str]) -> dict[int, str]:
    """handle -> card for every handle (live or retired), after checking every share."""
    x = Scalar.from_int(sum(int(k) for k in secrets.values()))
    result: dict[int, str] = {}
    for h in sorted(handles):
        for v, version in enumerate(handles[h].versions):
            ct = version.ciphertext
            for s, d in sorted(version.shares.items()):
                if ct.a * secrets[s] != d:
                    raise MentalViolation(s, f"share for handle {h} version {v} does not "
                                             f"match the revealed key")
            card = card_by_point.get(decrypt(ct, x))
            if card is None:
                raise MentalError(f"audit: handle {h} version {v} decrypts to no card")
            if result.setdefault(h, card) != card:
                raise MentalError(f"audit: versions of handle {h} hold different cards")
    live = sorted(result[h] for h, st in handles.items() if st.live)
    if live != sorted(card_ids):
        raise MentalError("audit: the live handles are not exactly the deck")
    return result
