"""The phases of a round (spec/games/eleusis.md §2): whose decision or which effect comes next."""

from __future__ import annotations

(FIRST_DEALER, RULE, HINT, SHUFFLE, DEAL, PLAY, JUDGE, CALL, ANSWER, DEALER_PICK, SAGE_PICK,
 ANSWER_PICK, WINDOW, EFFECTS, OPEN, OVER) = range(16)
PHASE_NAMES = ("first-dealer", "rule", "hint", "shuffle", "deal", "play", "judge", "sage-call",
               "dealer-answer", "dealer-pick", "sage-pick", "dealer-answer-pick", "sage-window",
               "effects", "open", "over")
