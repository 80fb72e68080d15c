"""Random legal games at 3, 4 and 5 players: figures never lost, prestige in bounds, VP from House
scorings only at scheduled scorings (or a World); the R42 winner. Deterministic replay, clones,
seat-view outcomes and views that never show an unseen value are the generic contract test's
(tests/engine/test_contract.py)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .support import random_game

VARIANTS = st.sampled_from([None, "FIRST-GAME", "NO-MAJORS", "ENGLISH-TEXT", "HIDDEN-WHEEL"])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), variant=VARIANTS)
def test_random_games_keep_every_invariant(players: int, seed: int, variant: str | None) -> None:
    g = random_game(players, seed, variant, check=True)
    out = g.outcome()
    assert out is not None and list(out.scores) == g.vp and out.winners
    schedule = g.rules.scoring_turns(players)
    assert [s["turn"] for s in g.scorings if not s["world"]] == list(schedule)
    worlds = sum(1 for s in g.scorings if s["world"])
    for turn, source, seat, delta in g.vp_log:
        if source == "scoring":
            assert turn in schedule and delta > 0
        if source == "world":
            assert worlds and delta > 0
    assert sum(d for _, src, _, d in g.vp_log if src == "scoring") == sum(
        sum(s["vp"]) for s in g.scorings if not s["world"])
    assert all(not hid for hid in g.z.hidden) and all(v == 0 for v in g.prestige.values())


def test_r42_winner_most_vp_then_most_cards_in_hand_then_shared() -> None:
    g = random_game(4, 3)
    g.vp[:] = [30, 40, 40, 40]
    hands = g.z.hands
    pool = [h for hand in hands for h in hand]
    for hand in hands:
        hand.clear()
    hands[1].extend(pool[:2])
    hands[2].extend(pool[2:4])
    hands[3].extend(pool[4:5])
    out = g.outcome()
    assert out is not None and out.winners == (1, 2) and out.scores == (30, 40, 40, 40)
    hands[2].pop()
    assert g.outcome().winners == (1,)
