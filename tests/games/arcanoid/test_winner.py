"""Game-winner test cases G1–G8 of rules §5.1."""

from __future__ import annotations

from p2ptarot.games.arcanoid.scoring import game_winner

A, B, C, D = 0, 1, 2, 3


def rounds_from(wins: dict[int, list[tuple[int, str]]], n_rounds: int = 5) -> list[dict[str, int]]:
    """wins[seat] = [(round, field), ...] -> per-round field winners."""
    out: list[dict[str, int]] = [{} for _ in range(n_rounds)]
    for seat, items in wins.items():
        for r, f in items:
            assert f not in out[r], "one winner per field per round"
            out[r][f] = seat
    return out


def spread(seat: int, counts: dict[str, int], start: int = 0) -> list[tuple[int, str]]:
    out, r = [], start
    for f, n in counts.items():
        for _ in range(n):
            out.append((r % 5, f))
            r += 1
    return out


def test_g1_most_fields() -> None:
    rounds = [{"swords": A, "wands": A, "cups": B, "coins": C}, {"swords": A, "wands": A, "cups": B, "coins": D},
              {"swords": A, "wands": B, "cups": B, "coins": C}, {"swords": A, "wands": B, "cups": D, "coins": C},
              {"swords": B, "wands": A, "cups": D, "coins": C}]
    assert game_winner(rounds, [A, B, C, D]) == A  # A 7, B 6, C 4, D 3


def test_g2_most_swords() -> None:
    rounds = rounds_from({A: [(0, "swords"), (1, "swords"), (0, "wands"), (1, "wands"), (2, "cups"), (3, "coins")],
                          B: [(2, "swords"), (2, "wands"), (3, "wands"), (0, "cups"), (1, "cups"), (0, "coins")]})
    assert game_winner(rounds, [A, B]) == A


def test_g3_cups_breaks_tie() -> None:
    rounds = rounds_from({A: [(0, "swords"), (0, "wands"), (1, "wands"), (0, "cups"), (1, "cups"), (0, "coins")],
                          B: [(1, "swords"), (2, "wands"), (3, "wands"), (2, "cups"), (1, "coins"), (2, "coins")]})
    assert game_winner(rounds, [A, B]) == A


def test_g4_latest_swords() -> None:
    rounds = rounds_from({A: [(1, "swords"), (0, "wands"), (0, "cups"), (2, "cups"), (0, "coins")],
                          B: [(3, "swords"), (1, "wands"), (1, "cups"), (3, "cups"), (1, "coins")]})
    assert game_winner(rounds, [A, B]) == B


def test_g5_latest_wands_when_nobody_won_swords() -> None:
    rounds = rounds_from({A: [(0, "wands"), (4, "wands"), (0, "cups"), (1, "cups"), (0, "coins")],
                          B: [(1, "wands"), (2, "wands"), (2, "cups"), (3, "cups"), (1, "coins")]})
    assert game_winner(rounds, [A, B]) == A


def test_g6_four_way_tie() -> None:
    rounds = rounds_from({
        A: [(0, "swords"), (1, "swords"), (0, "wands"), (0, "cups"), (0, "coins")],
        B: [(2, "swords"), (3, "swords"), (1, "wands"), (2, "wands"), (1, "coins")],
        C: [(4, "swords"), (3, "wands"), (1, "cups"), (2, "cups"), (2, "coins")],
        D: [(4, "wands"), (3, "cups"), (4, "cups"), (3, "coins"), (4, "coins")]})
    assert game_winner(rounds, [A, B, C, D]) == B


def test_g7_demon_win_counts_for_master() -> None:
    # the engine credits demon wins to the master's seat before ranking; C's demon won coins in round 3
    rounds = rounds_from({C: [(0, "swords"), (1, "wands"), (2, "cups"), (3, "cups"), (2, "coins")],
                          B: [(1, "swords"), (2, "wands"), (0, "cups"), (4, "coins")]})
    assert game_winner(rounds, [B, C]) == C


def test_g8_no_round_completed_is_a_draw() -> None:
    assert game_winner([], [A, B, C]) is None
