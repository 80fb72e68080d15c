"""protocol/decks.json is what the code generates, and every deck a game really opens is listed
there with exactly the cards, in exactly the order, the game hands to the deck layer."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from p2ptarot.bots import make as make_bot
from p2ptarot.engine import GameState, Shuffle
from p2ptarot.engine.local import RandomDealer, play
from p2ptarot.engine.registry import create, games, info

ROOT = Path(__file__).resolve().parents[2]
DECKS = json.loads((ROOT / "protocol" / "decks.json").read_text(encoding="utf-8"))


def _listed(deck: str) -> list[str] | None:
    """The card list decks.json gives for a wire deck id (a family expanded), or None."""
    if deck in DECKS["decks"]:
        return DECKS["decks"][deck]["cards"]
    for fam in DECKS["families"]:
        for k in range(fam["k_min"], fam["k_max"] + 1):
            if fam["name"].replace("{k}", str(k)) == deck:
                return [c.replace("{k}", str(k)) for c in fam["cards"]]
    return None


class _Recorder(RandomDealer):
    def __init__(self) -> None:
        super().__init__(random.Random(5))
        self.opened: list[tuple[str, tuple[str, ...]]] = []

    def shuffle(self, state: GameState, request: Shuffle) -> dict[int, str]:
        if request.cards:
            self.opened.append((request.deck, request.cards))
        return super().shuffle(state, request)


def test_the_file_is_what_make_decks_writes() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "protocol" / "make_decks.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_every_listed_deck_has_distinct_cards_and_names_its_games() -> None:
    names = {g.name for g in games()}
    for deck, entry in DECKS["decks"].items():
        assert len(set(entry["cards"])) == len(entry["cards"]) >= 9, deck
        assert entry["games"] and set(entry["games"]) <= names, deck
    for fam in DECKS["families"]:
        assert "{k}" in fam["name"] and all("{k}" in c for c in fam["cards"])
        assert set(fam["games"]) <= names


@pytest.mark.parametrize("game", sorted(g.name for g in games()))
def test_every_deck_a_game_opens_is_listed_in_open_deck_order(game: str) -> None:
    gi = info(game)
    seen: set[str] = set()
    for players in sorted({gi.min_players, gi.max_players}):
        dealer = _Recorder()
        state = create(game, players)
        play(state, [make_bot("random", 11 + s) for s in range(players)], dealer)
        assert dealer.opened, f"{game} opened no deck"
        for deck, cards in dealer.opened:
            assert _listed(deck) == list(cards), f"{game} opens {deck!r} in another order"
            seen.add(deck)
    listed_for_game = {d for d, e in DECKS["decks"].items() if game in e["games"]}
    assert listed_for_game <= seen, listed_for_game - seen  # the file lists no stale deck
    if game == "eleusis":  # R12's added copies are the family's members
        assert {"standard-52#3"} <= seen


# ---- the first shuffle of every deck epoch in the vectors, checked from decks.json alone -------
def _from_vector(name: str):
    """(table id, envelopes) of a vector file, read with the standard library only."""
    import hashlib

    lines = (ROOT / "protocol" / "vectors" / name).read_bytes().splitlines()
    charter = json.loads(lines[0])["charter"]["charter"]
    canonical = json.dumps(charter, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    table_id = hashlib.sha256(b"p2ptarot/charter\0" + canonical.encode()).digest()
    return table_id, [json.loads(x) for x in lines[1:]]


@pytest.mark.parametrize("name", ["valid.jsonl", "valid-blind.jsonl", "valid-secret.jsonl"])
def test_each_epochs_first_shuffle_verifies_against_the_open_deck_of_decks_json(name: str) -> None:
    """PROTOCOL §6.3: the open deck is (G, M_c + H) for each card of decks.json, in its order, so
    seat 0's first shuffle of every epoch verifies against it (M_c and H computed here)."""
    import base64
    import hashlib

    import rbcl

    from p2ptarot.crypto.elgamal import Ciphertext
    from p2ptarot.crypto.group import Point
    from p2ptarot.crypto.shuffle import ShuffleProof, verify_shuffle

    def unb64(t: str) -> bytes:
        return base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))

    def lp(*parts: bytes) -> bytes:
        return b"".join(len(p).to_bytes(8, "big") + p for p in parts)

    def hp(label: bytes, *parts: bytes) -> bytes:
        ctr = 0
        while True:
            h = hashlib.sha512(lp(label, ctr.to_bytes(8, "big"), *parts)).digest()
            p = rbcl.crypto_core_ristretto255_from_hash(h)
            if p != bytes(32):
                return p
            ctr += 1

    g = rbcl.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little"))
    table_id, envs = _from_vector(name)
    keys: dict[tuple[str, int], list[bytes]] = {}
    checked: set[str] = set()
    for env in envs:
        body = env["body"]
        if env["kind"] == "mental.key":
            keys.setdefault((body["deck"], body["epoch"]), []).append(unb64(body["key"]))
        if env["kind"] != "mental.shuffle" or body["op"] != 1 or body["seat"] != 0:
            continue
        deck, epoch = body["deck"], body["epoch"]
        joint = keys[(deck, epoch)][0]
        for h in keys[(deck, epoch)][1:]:
            joint = rbcl.crypto_core_ristretto255_add(joint, h)
        cards = _listed(deck)
        assert cards is not None and body["inputs"] == [] and body["outputs"] == \
            list(range(len(cards)))
        open_deck = [Ciphertext.decode(g + rbcl.crypto_core_ristretto255_add(
            hp(b"p2ptarot/card", deck.encode(), c.encode()), joint)) for c in cards]
        ctx = lp(b"p2ptarot/mental/v1", table_id, deck.encode(), epoch.to_bytes(8, "big"),
                 b"shuffle", (1).to_bytes(8, "big"), (0).to_bytes(8, "big"))
        outputs = [Ciphertext.decode(unb64(x)) for x in body["ciphertexts"]]
        verify_shuffle(open_deck, outputs, Point.decode(joint),
                       ShuffleProof.decode(unb64(body["proof"]), len(cards)), ctx)
        checked.add(deck)
    assert checked == {"valid.jsonl": {"sinople-figures-9", "sinople-numeric-30"},
                       "valid-blind.jsonl": {"roses-96"},
                       "valid-secret.jsonl": {"standard-52x2"}}[name]
