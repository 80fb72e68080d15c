"""Final places by each game's rules (issue 33, item 4): equal scores are separated by the
tie-break the game's rules text gives, and shared where it gives none (or where it runs out).
One test per game of a tie the rules separate (where they separate any) and one they share."""

from __future__ import annotations

from typing import Any

from p2ptarot.app.table import final_standings

NAMES = ("Ann", "Bob", "Cid", "Dee")


def _places(game: str, scores: tuple[int, ...], winners: tuple[int, ...],
            view: dict[str, Any]) -> dict[str, int]:
    names = NAMES[:len(scores)]
    return {s.name: s.rank for s in final_standings(game, names, scores, winners, view)}


# ---- arcanoid: rules §5, most fields; then swords, wands, cups, coins; then the latest win ----
def _arcanoid(*rounds: dict[str, int]) -> dict[str, Any]:
    return {"game": "arcanoid", "round_winners": list(rounds)}


def test_arcanoid_three_tied_on_fields_are_separated_by_swords_then_the_latest_win() -> None:
    # Ann wins; Bob, Cid and Dee have 4 fields each: Bob 2 swords, Cid 1 and Dee 1 swords;
    # Cid and Dee are equal on every suit, Dee won swords later (round 5)
    view = _arcanoid({"swords": 1, "wands": 0, "cups": 0, "coins": 0},
                     {"swords": 1, "wands": 0, "cups": 0, "coins": 2},
                     {"swords": 2, "wands": 2, "cups": 3, "coins": 0},
                     {"swords": 0, "wands": 3, "cups": 2, "coins": 3},
                     {"swords": 3, "wands": 1, "cups": 1, "coins": 0})
    assert _places("arcanoid", (8, 4, 4, 4), (0,), view) == {"Ann": 1, "Bob": 2, "Dee": 3,
                                                             "Cid": 4}


def test_arcanoid_seats_that_never_won_a_field_share_their_place() -> None:
    view = _arcanoid(*[{"swords": 0, "wands": 1, "cups": 0, "coins": 1}] * 5)
    assert _places("arcanoid", (10, 10, 0, 0), (1,), view) == {"Bob": 1, "Ann": 2, "Cid": 3,
                                                               "Dee": 3}


# ---- sinople: rules §6 (R17), figures won; then children; then wives ----------------------
def _sinople(*held: list[str]) -> dict[str, Any]:
    return {"game": "sinople", "figures": list(held)}


def test_sinople_equal_figures_are_separated_by_children_then_wives() -> None:
    view = _sinople(["fig-a-husband", "fig-b-husband", "fig-c-husband"],
                    ["fig-a-child", "fig-b-wife"], ["fig-a-wife", "fig-c-wife"],
                    ["fig-b-husband", "fig-c-wife"])
    assert _places("sinople", (3, 2, 2, 2), (0,), view) == {"Ann": 1, "Bob": 2, "Cid": 3,
                                                            "Dee": 4}


def test_sinople_equal_on_figures_children_and_wives_share() -> None:
    view = _sinople(["fig-a-child", "fig-b-child"], ["fig-a-wife"], ["fig-b-wife"])
    assert _places("sinople", (2, 1, 1), (0,), view) == {"Ann": 1, "Bob": 2, "Cid": 2}


# ---- Arcanum: rules §4.4 (R42), VP; then cards in hand --------------------------------------
def _arcanum(*players: tuple[int, int]) -> dict[str, Any]:
    return {"game": "arcanum", "players": [{"seat": s, "vp": vp, "hand": [{}] * cards}
                                           for s, (vp, cards) in enumerate(players)]}


def test_arcanum_equal_vp_are_separated_by_cards_in_hand() -> None:
    view = _arcanum((30, 1), (20, 2), (20, 5))
    assert _places("arcanum", (30, 20, 20), (0,), view) == {"Ann": 1, "Cid": 2, "Bob": 3}


def test_arcanum_equal_vp_and_cards_in_hand_share() -> None:
    view = _arcanum((20, 3), (20, 3), (10, 7))
    assert _places("arcanum", (20, 20, 10), (0, 1), view) == {"Ann": 1, "Bob": 1, "Cid": 3}


# ---- Eleusis, trois roses, paris divins: their rules have no tie-break ---------------------
# (Eleusis §6: "equal totals share the win"; trois roses TR3: "players sharing the highest total
# share the victory"; paris divins PD7: "a tie shares the victory"): only the score separates.
def test_eleusis_separates_by_total_and_equal_totals_share() -> None:
    view = {"game": "eleusis"}
    assert _places("eleusis", (31, 17, 31, 20), (0, 2), view) == {"Ann": 1, "Cid": 1, "Dee": 3,
                                                                  "Bob": 4}


def test_trois_roses_separates_by_total_and_equal_totals_share() -> None:
    view = {"game": "trois-roses"}
    assert _places("trois-roses", (163, 160, 163), (0, 2), view) == {"Ann": 1, "Cid": 1,
                                                                     "Bob": 3}
    assert _places("trois-roses", (150, 172, 160), (1,), view) == {"Bob": 1, "Cid": 2,
                                                                   "Ann": 3}


def test_paris_divins_separates_by_reserve_and_equal_reserves_share() -> None:
    view = {"game": "paris-divins"}
    assert _places("paris-divins", (6, 6, 2), (0, 1), view) == {"Ann": 1, "Bob": 1, "Cid": 3}
    assert _places("paris-divins", (3, 9, 0, 3), (1,), view) == {"Bob": 1, "Ann": 2, "Dee": 2,
                                                                 "Cid": 4}
