"""The v2 engine contract on a toy game: `check` (pure, strict types), Commit/Open secrets,
numbered claims decided by an opened secret, and the registry's variant and game shapes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from p2ptarot.engine import (PLANNED, BadConfiguration, Commit, EngineError, GameInfo, GameState,
                             IllegalMove, Move, NotYourTurn, Open, Option, Outcome, Pass, Secret,
                             Turn, TurnKind, VariantInfo, create, games, last_seat, move_from_json)
from p2ptarot.engine.registry import info


@dataclass(frozen=True, slots=True)
class Guess(Move):
    """Seat 1 states the length of seat 0's secret word: a claim only the Open can decide."""

    KIND: ClassVar[str] = "guess"
    length: int


@dataclass(frozen=True, slots=True)
class Mark(Move):
    KIND: ClassVar[str] = "mark"
    handles: tuple[int, ...]
    note: str


class WordGame(GameState):
    """Seat 0 commits a word, seat 1 guesses its length (1..8), seat 0 opens the word."""

    NAME = "word"
    MOVES = {"commit": Commit, "open": Open, "guess": Guess, "mark": Mark}

    def __init__(self, omniscient: bool = True, viewer: int | None = None) -> None:
        super().__init__(2, None, {}, omniscient, viewer)
        self.phase = 0
        self.decided: list[tuple[str, str]] = []

    def turn(self) -> Turn:
        if self.phase == 3:
            return Turn(TurnKind.OVER)
        return Turn(TurnKind.SEAT, (1 if self.phase == 1 else 0,))

    def legal_moves(self, seat: int) -> list[Move]:
        if self.phase == 1:
            return [Guess(n) for n in range(1, 9)]
        return []  # Commit/Open carry a value no list can hold: `_check` judges them

    def _check(self, seat: int, move: Move) -> None:
        if self.phase == 0 and isinstance(move, Commit) and move.name == "word":
            self._check_commit(seat, move)
        elif self.phase == 2 and isinstance(move, Open):
            self._check_open(seat, move)
        elif self.phase == 1:
            super()._check(seat, move)  # the default: one of legal_moves
        else:
            raise IllegalMove(seat, f"{move.KIND} is not expected now")

    def _apply(self, seat: int, move: Move) -> None:
        if isinstance(move, Commit):
            self._record_commit(seat, move)
        elif isinstance(move, Guess):
            self._claim(seat, "word-length", {"length": move.length}, "the guess")
            self._decide()
        else:
            assert isinstance(move, Open)
            self._record_open(seat, move)
        self.phase += 1

    def _on_learn_secret(self, name: str, value: str) -> None:
        self.decided.append((name, value))
        self._decide()

    def _decide(self) -> None:
        word = self.secrets["word"].value if "word" in self.secrets else None
        if word is None:
            return
        for claim in list(self.claims):
            if dict(claim.detail)["length"] != len(word):
                raise self._false_claim(claim, f"the word has {len(word)} letters")
            self._settle_claim(claim)

    def _resolve_chance(self, result: Any) -> None:
        raise EngineError("no chance in this game")

    def _resolve_reveals(self) -> None:
        raise EngineError("no reveals in this game")

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"phase": self.phase, "word": self.secret_for("word", seat)}

    def outcome(self) -> Outcome | None:
        return Outcome((0, 0), ()) if self.phase == 3 else None


# ---- strict move parsing --------------------------------------------------------------------
def test_moves_parse_strictly_by_declared_type() -> None:
    kinds = WordGame.MOVES
    assert move_from_json(kinds, {"kind": "guess", "length": 3}) == Guess(3)
    assert move_from_json(kinds, {"kind": "mark", "handles": [1, 2], "note": "x"}) == Mark((1, 2), "x")
    for bad in ({"kind": "guess", "length": "3"}, {"kind": "guess", "length": True},
                {"kind": "guess", "length": 2.0}, {"kind": "guess", "length": [3]},
                {"kind": "mark", "handles": ["1"], "note": "x"}, {"kind": "mark", "handles": 1, "note": "x"},
                {"kind": "mark", "handles": [True], "note": "x"}, {"kind": "mark", "handles": [], "note": 5},
                {"kind": "commit", "name": "word", "value": None}, {"kind": "guess"},
                {"kind": "guess", "length": 3, "extra": 1}, {"kind": "nope"}, ["guess"]):
        with pytest.raises(EngineError):
            move_from_json(kinds, bad)


def test_a_move_built_with_a_wrong_type_is_refused_by_check() -> None:
    g = WordGame()
    g.apply(0, Commit("word", "tarot"))
    with pytest.raises(IllegalMove, match="length"):
        g.check(1, Guess("seven"))  # type: ignore[arg-type]
    with pytest.raises(IllegalMove, match="length"):
        g.check(1, Guess(True))


def test_arcanoid_discard_handle_must_be_an_int() -> None:
    state = create("arcanoid", 3, options={"first_seat": 0})
    with pytest.raises(EngineError):
        state.move_from_json({"kind": "discard", "handle": "seven"})
    with pytest.raises(EngineError):
        state.move_from_json({"kind": "discard", "handle": False})
    assert state.move_from_json({"kind": "discard", "handle": 7}).to_json() == {"kind": "discard", "handle": 7}


# ---- check ----------------------------------------------------------------------------------
def test_check_is_pure_and_names_the_reason() -> None:
    g = WordGame()
    g.apply(0, Commit("word", "tarot"))
    before = (g.phase, dict(g.secrets), list(g.claim_log), g.turn())
    g.check(1, Guess(5))
    with pytest.raises(IllegalMove, match="not a legal move"):
        g.check(1, Guess(9))
    with pytest.raises(NotYourTurn):
        g.check(0, Guess(2))
    with pytest.raises(IllegalMove, match="not a move of word"):
        g.check(1, Pass())
    assert (g.phase, dict(g.secrets), list(g.claim_log), g.turn()) == before


def test_apply_runs_check_first() -> None:
    g = WordGame()
    with pytest.raises(IllegalMove, match="already committed|not expected"):
        g.apply(0, Open("word", "x"))
    assert g.phase == 0 and g.secrets == {}


# ---- secrets --------------------------------------------------------------------------------
def test_commit_in_an_omniscient_state_needs_the_value() -> None:
    g = WordGame()
    with pytest.raises(IllegalMove, match="without its value"):
        g.check(0, Commit("word", ""))
    g.apply(0, Commit("word", "tarot"))
    assert g.secrets["word"] == Secret(0, "tarot") and g.decided == [("word", "tarot")]
    assert g.view(1)["word"] is None and g.view(0)["word"] == "tarot" and g.view(None)["word"] is None


def test_a_peer_learns_the_secret_only_at_the_open() -> None:
    peer = WordGame(omniscient=False, viewer=1)
    peer.apply(0, Commit("word", ""))
    assert peer.secrets["word"] == Secret(0, None) and peer.decided == []
    peer.apply(1, Guess(5))
    assert [c.id for c in peer.claims] == [0]
    peer.apply(0, Open("word", "tarot"))
    assert peer.decided == [("word", "tarot")] and peer.secrets["word"] == Secret(0, "tarot", opened=True)
    assert peer.claims == [] and len(peer.claim_log) == 1 and peer.view(None)["word"] == "tarot"
    assert peer.is_over()


def test_a_claim_disproved_by_the_opened_secret_blames_the_claimant_by_id() -> None:
    peer = WordGame(omniscient=False, viewer=0)
    peer.apply(0, Commit("word", ""))
    peer.apply(1, Guess(2))
    with pytest.raises(IllegalMove) as err:
        peer.apply(0, Open("word", "tarot"))
    assert (err.value.seat, err.value.claim, err.value.where) == (1, 0, "the guess")


def test_omniscient_state_decides_the_claim_at_once() -> None:
    g = WordGame()
    g.apply(0, Commit("word", "tarot"))
    with pytest.raises(IllegalMove) as err:
        g.apply(1, Guess(2))
    assert err.value.seat == 1 and err.value.claim == 0


def test_open_must_match_the_known_value_and_the_owner() -> None:
    g = WordGame()
    g.apply(0, Commit("word", "tarot"))
    g.apply(1, Guess(5))
    with pytest.raises(IllegalMove, match="did not commit"):
        g.check(0, Open("word", "arcana"))
    with pytest.raises(IllegalMove, match="no secret"):
        g.check(0, Open("bet", "tarot"))
    g.apply(0, Open("word", "tarot"))
    assert g.secrets["word"].opened


def test_record_helpers_refuse_reuse_and_strangers() -> None:
    g = WordGame()
    g._record_commit(0, Commit("word", "tarot"))
    with pytest.raises(IllegalMove, match="already committed"):
        g._record_commit(1, Commit("word", "other"))
    with pytest.raises(IllegalMove, match="belongs to seat 0"):
        g._record_open(1, Open("word", "tarot"))
    g._record_open(0, Open("word", "tarot"))
    with pytest.raises(IllegalMove, match="already open"):
        g._record_open(0, Open("word", "tarot"))


def test_illegal_move_has_no_claim_by_default() -> None:
    assert IllegalMove(2, "why").claim is None and IllegalMove(2, "why", "here", claim=4).claim == 4


# ---- registry shapes ------------------------------------------------------------------------
def _info(**kw: Any) -> GameInfo:
    return GameInfo(name="toy", title="Toy", min_players=2, max_players=3, **kw)


def test_variants_resolve_default_unknown_and_planned() -> None:
    gi = _info(variants=(VariantInfo("BASE"), VariantInfo("KID", "BASE", summary="shorter"),
                         VariantInfo("LATER", "BASE", PLANNED)), default_variant="BASE")
    assert gi.resolve_variant(None) == "BASE" and gi.resolve_variant("KID") == "KID"
    assert gi.playable_variants() == ("BASE", "KID") and gi.variant("KID").parent == "BASE"
    with pytest.raises(BadConfiguration, match="no variant 'NOPE'"):
        gi.resolve_variant("NOPE")
    with pytest.raises(BadConfiguration, match="planned, not built"):
        gi.resolve_variant("LATER")
    assert gi.to_json()["variants"][2] == {"name": "LATER", "parent": "BASE", "status": "planned",
                                           "summary": ""}


def test_game_info_rejects_inconsistent_variants() -> None:
    with pytest.raises(ValueError):
        _info(variants=(VariantInfo("A"), VariantInfo("A")))
    with pytest.raises(ValueError):
        _info(variants=(VariantInfo("A", "MISSING"),))
    with pytest.raises(ValueError):
        _info(variants=(VariantInfo("A"),), default_variant="B")
    with pytest.raises(ValueError):
        VariantInfo("A", status="someday")
    assert _info(variants=("A",)).variants == (VariantInfo("A"),)
    with pytest.raises(BadConfiguration, match="no variants"):
        _info().resolve_variant("A")
    assert _info().resolve_variant(None) is None


def test_create_refuses_an_unknown_variant_and_every_game_is_discovered() -> None:
    with pytest.raises(BadConfiguration, match="no variant"):
        create("arcanoid", 3, "NOPE")
    with pytest.raises(BadConfiguration):
        create("sinople", 3, "DRESDEN")
    names = [g.name for g in games()]
    assert {"arcanoid", "sinople"} <= set(names) and names == sorted(names)
    assert info("sinople").state is not None


# ---- options declared as data, checked by create ------------------------------------------------
@pytest.mark.parametrize(("game", "players", "options"), [
    ("arcanoid", 3, {"first_seat": 3}), ("arcanoid", 3, {"first_seat": "0"}),
    ("arcanoid", 3, {"rounds": True}), ("arcanoid", 3, {"rounds": 0}),
    ("eleusis", 4, {"rounds": 5}), ("eleusis", 4, {"dealer_cap_basis": "later"}),
    ("eleusis", 4, {"first_dealer": -1}), ("arcanum", 3, {"length": "long"}),
    ("arcanum", 4, {"length": "short"}), ("arcanum", 4, {"wheelHidesKind": 1}),
    ("sinople", 3, {"x": 1}), ("paris-divins", 3, {"rounds": 1}), ("trois-roses", 3, {1: 2}),
])
def test_a_bad_option_is_refused_before_a_state_exists(game: str, players: int,
                                                        options: dict) -> None:
    with pytest.raises(BadConfiguration):
        create(game, players, options=options)


def test_declared_options_are_accepted_and_reach_the_state() -> None:
    assert create("arcanoid", 3, options={"first_seat": 2, "rounds": 1}).first_seat == 2
    state = create("eleusis", 4, options={"rounds": 4, "first_dealer": 3,
                                          "dealer_cap_basis": "after"})
    assert state.rounds == 4 and state.rules.dealer_cap_basis == "after"
    assert create("arcanum", 3, options={"length": "short"}).rules.length == "short"
    with pytest.raises(BadConfiguration, match="played by"):
        create("sinople", True)  # type: ignore[arg-type]  # a bool is not a player count


def test_option_bounds_may_depend_on_the_player_count() -> None:
    seat = Option(int, low=0, high=last_seat)
    seat.check("g", "seat", 2, 3)
    with pytest.raises(BadConfiguration, match="0..2"):
        seat.check("g", "seat", 3, 3)
    with pytest.raises(BadConfiguration, match="must be of type int"):
        seat.check("g", "seat", False, 3)
