"""The numbers of the game (rules §4, ruling R1), as one frozen value, and the phases of a round
(§2: whose decision or which effect comes next).

Variants, when the project adds any, derive from `STANDARD` with `dataclasses.replace`.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2ptarot.engine.registry import Option, VariantInfo, all_players, last_seat


@dataclass(frozen=True, slots=True)
class Rules:
    """Every constant the engine uses; `STANDARD` is the source's game (R1)."""

    name: str = "STANDARD"
    hand_size: int = 14
    max_run: int = 4  # runs of 2…max_run cards (§4.4)
    penalty_per_card: int = 2  # a wrong single card costs 2, a wrong run of k costs 2k (§4.7)
    penalty_no_play: int = 5
    penalty_false_prophet: int = 5
    no_play_shrink: int = 4  # a right "no play" with k ≥ 5 cards: new hand of k − 4 (§4.8, R9)
    sudden_death_layout: int = 30  # L ≥ 30 without a Sage (§4.13)
    sudden_death_after_marker: int = 20  # L − s ≥ 20 with a Sage
    empty_hand_bonus: int = 4
    not_dealt_bonus: int = 10  # §4.16
    dealer_cap_basis: str = "before"  # R24: "before" (C = s) or "after" (C = L − s)
    base_copies: int = 2  # two 52-card decks (§2.1); R12 adds copies 3, 4, …


STANDARD = Rules()


#: the phases of a round (§2)
(FIRST_DEALER, RULE, HINT, SHUFFLE, DEAL, PLAY, JUDGE, CALL, ANSWER, DEALER_PICK, SAGE_PICK,
 ANSWER_PICK, WINDOW, EFFECTS, OPEN, OVER) = range(16)
PHASE_NAMES = ("first-dealer", "rule", "hint", "shuffle", "deal", "play", "judge", "sage-call",
               "dealer-answer", "dealer-pick", "sage-pick", "dealer-answer-pick", "sage-window",
               "effects", "open", "over")

#: the variants, for the registry (rules §4, R1)
CATALOGUE = (VariantInfo(STANDARD.name, summary="New Eleusis with the Sage, the source's numbers "
                                               "(R1); the secret rule in ERL"),)
#: the table options (checked by `create`, spec/games/eleusis.md R24)
OPTIONS = {
    "rounds": Option(int, low=1, high=all_players, doc="rounds played, one dealer each"),
    "first_dealer": Option(int, low=0, high=last_seat, doc="the first round's dealer"),
    "dealer_cap_basis": Option(str, choices=("before", "after"), doc="R24"),
}
