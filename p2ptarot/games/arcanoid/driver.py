"""The coroutine driver of the round pipeline: the generic requests of `p2ptarot.engine.flow`.

Why generators here: arcanoïd interrupts itself everywhere (a renewal vote in the middle of a
Justice draw, a Fool window inside an engagement, replays, calls, Hermit gaps).
"""

from __future__ import annotations

from p2ptarot.engine.flow import Ask, AskChance, AskReveal, Done, Flow, Request, turn_of

__all__ = ["Ask", "AskChance", "AskReveal", "Done", "Flow", "Request", "turn_of"]
