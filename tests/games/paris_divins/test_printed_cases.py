"""Every printed test case of spec/games/roses.md, rules §3.10 (PD-T1 … PD-T8), and random
games re-derived round by round from the printed §3.3–§3.6."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptarot.engine import TurnKind
from p2ptarot.games.paris_divins.category import winning_category
from p2ptarot.games.paris_divins.rules import PARIS_DIVINS
from p2ptarot.games.paris_divins.legal import stake_check
from p2ptarot.games.paris_divins.transfers import final_count, winners
from p2ptarot.cards import ROSES
from p2ptarot.cards.roses_tables import DIVINE, INDEX, MAJOR, MINOR, STRENGTH

from .support import PD_T3_HANDS, PD_T3_ROUNDS, Game, fill, random_game

ALL_MODES3 = [{"viewer": s} for s in range(3)] + [{"viewer": None, "omniscient": False}]


@pytest.mark.parametrize("present,wins", [
    ({MINOR}, MINOR), ({MAJOR}, MAJOR), ({DIVINE}, DIVINE), ({MINOR, MAJOR}, MAJOR),
    ({MAJOR, DIVINE}, DIVINE), ({MINOR, DIVINE}, MINOR), ({MINOR, MAJOR, DIVINE}, MINOR),
])
def test_pd_t1_winning_category(present: set[int], wins: int) -> None:
    assert winning_category(present) == wins
    assert winning_category(sorted(present) * 3) == wins  # how many cards of each does not matter


def test_pd_t2_strength() -> None:
    order = ("rose-upright rose-inverted divine-9 divine-1 world major-concept-8 major-nature-1 "
             "minor-mask-god minor-star-god minor-star-child minor-mask-6 minor-cup-6 minor-staff-6 "
             "minor-feather-6 minor-star-6 minor-star-1").split()
    values = [STRENGTH[INDEX[c]] for c in order]
    assert values == [96, 95, 94, 86, 85, 84, 61, 60, 56, 31, 30, 29, 28, 27, 26, 1]
    assert sorted(STRENGTH) == list(range(1, 97))  # a total order: strength never ties


def test_pd_t3_a_complete_three_player_game() -> None:
    g = Game([h.split() for h in PD_T3_HANDS], modes=ALL_MODES3)
    for k, (stakes, choices, win, supply, reserve) in enumerate(PD_T3_ROUNDS):
        for st in g.all():
            assert st.view(None)["stakes"] == stakes, k
            assert st.turn().seats == tuple(sorted(choices))
        g.round(choices)
        for st in g.all():
            last = st.history[k]
            assert last["winner"] == win and last["supply"] == supply and last["reserve"] == reserve, k
    for st in g.all():
        assert st.turn().kind is TurnKind.OVER  # P1 out at round 6, P2 at round 7: P3 alone
        assert st.eliminated == [0, 1]
        assert st.history[-1] == {"round": 7, "out": [1], "played": False}
        outcome = st.outcome()
        assert outcome.scores == (4, 4, 10) and sum(outcome.scores) == 18 and outcome.winners == (2,)
        assert outcome == g.truth.outcome()
    # unplayed cards (P1's divine-8, P2's rose-upright, ...) are never revealed
    for st in g.states:
        for seat in range(3):
            for h in g.truth.hands[seat]:
                assert st.cards[h] is None or st.viewer == seat
        assert "rose-upright" not in str(st.view(None))


def test_pd_t4_stake_check_from_a_given_state() -> None:
    staying, out = stake_check(PARIS_DIVINS, [0, 1, 2], supply=[2, 1, 2], rounds_won=[2, 0, 1])
    assert out == [0] and staying == {1: 1, 2: 2}


def test_pd_t5_nobody_can_stake() -> None:
    staying, out = stake_check(PARIS_DIVINS, [0, 1], supply=[2, 1, 0], rounds_won=[2, 1, 0])
    assert staying == {} and out == [0, 1]
    supply, reserve = [2, 1, 0], [3, 5, 7]
    final_count(supply, reserve)
    assert supply == [0, 0, 0] and reserve == [5, 6, 7] and winners(reserve) == (2,)


def test_pd_t6_every_round_without_a_winner() -> None:
    minors = [f"minor-{f}-{r}" for f in ("star", "feather") for r in range(1, 5)]
    g = Game([minors[:4] + [f"minor-cup-{r}" for r in range(1, 5)],
              minors[4:] + [f"minor-mask-{r}" for r in range(1, 5)]], modes=[{"viewer": 0}])
    for _ in range(8):
        g.round({s: (g.truth.cards[g.truth.hands[s][0]], "divine") for s in (0, 1)})
    for st in g.all():
        assert st.turn().kind is TurnKind.OVER and st.round_no == 8
        assert all(r["winner"] is None for r in st.history)
        assert st.outcome().scores == (6, 6) and st.outcome().winners == (0, 1)


def test_pd_t7_a_correct_bet_with_a_weak_card() -> None:
    g = Game(fill([["minor-star-god"], ["minor-mask-god"], ["major-nature-1"]]), modes=ALL_MODES3)
    g.round({0: ("minor-star-god", "major"), 1: ("minor-mask-god", "minor"), 2: ("major-nature-1", "major")})
    for st in g.all():
        assert st.history[0]["category"] == "major" and st.history[0]["winner"] == 2
        assert st.rounds_won == [0, 0, 1] and st.reserve == [0, 0, 2]
        assert st.supply == [4, 4, 4]  # P1, P2 lost 1 and stake 1 more; P3 took its 1 back, stakes 2
        assert st.view(None)["reserve"] == [0, 0, 2]


def test_pd_t8_a_bet_on_an_absent_category() -> None:
    g = Game(fill([["divine-2"], ["divine-5"]]))
    g.round({0: ("divine-2", "major"), 1: ("divine-5", "major")})
    assert g.truth.history[0]["category"] == "divine" and g.truth.history[0]["winner"] is None
    assert g.truth.supply == [5, 5] and g.truth.reserve == [0, 0]  # stakes back, then round 2 staked


#: §3.4 as printed: the categories present -> the winning category
_TABLE = {frozenset({"minor"}): "minor", frozenset({"major"}): "major", frozenset({"divine"}): "divine",
          frozenset({"minor", "major"}): "major", frozenset({"major", "divine"}): "divine",
          frozenset({"minor", "divine"}): "minor", frozenset({"minor", "major", "divine"}): "minor"}


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 12), seed=st.integers(0, 2**32))
def test_every_round_matches_the_printed_rules(players: int, seed: int) -> None:
    """Each recorded round re-derived from §3.3–§3.6 with the card table of p2ptarot.cards."""
    state, _ = random_game(players, seed)
    supply, reserve, won = [6] * players, [0] * players, [0] * players
    for r in state.history:
        assert all(supply[s] < (1, 2, 3)[min(won[s], 2)] for s in r["out"])  # PD5
        if not r["played"]:  # PD6: one or no player left
            assert len(state.active) <= 1
            continue
        stakes = {int(s): a for s, a in r["stakes"].items()}
        assert all(a == (1, 2, 3)[min(won[s], 2)] and a <= supply[s] for s, a in stakes.items())
        cards = {int(s): ROSES[c] for s, c in r["cards"].items()}
        category = _TABLE[frozenset(c.category for c in cards.values())]
        assert r["category"] == category
        eligible = [s for s in cards if r["bets"][str(s)] == category]
        winner = max(eligible, key=lambda s: cards[s].strength) if eligible else None
        assert r["winner"] == winner
        if winner is not None:
            won[winner] += 1
            for s, a in stakes.items():
                if s != winner:
                    supply[s] -= a
                    reserve[winner] += a
        assert r["supply"] == supply and r["reserve"] == reserve
    final = [supply[s] + reserve[s] for s in range(players)]
    assert list(state.outcome().scores) == final
