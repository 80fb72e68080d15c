"""Defect 7 (issue #9): a seat may open only a card it HOLDS, never one it was merely shown.

After the High Priestess, seat 0 knows seat 1's hidden hand. It then signs a move that engages one
of seat 1's cards. The old session checked only that the mover *knew* the card, so it opened it —
seat 1 itself published the last share of its hidden card — and only then did the engine refuse
the move. Now the move
is refused before any share is published: the card stays hidden and seat 0 is blamed.
"""

from __future__ import annotations

from typing import Any

from tests.table.helpers import resign, verify
from tests.table.harness import Table

from p2ptarot.cards.arcanoid_tables import ALL_CARDS, PRIESTESS
from p2ptarot.engine import create
from p2ptarot.games.arcanoid.moves import Engage, Priestess
from p2ptarot.table.envelope import Envelope

SEATS, LOOKER, TARGET = 4, 0, 1


def _stack() -> list[str]:
    numeric = [c for c in ALL_CARDS if c.split("-")[-1].isdigit() and not c.startswith("trump")
               and not c.endswith("-1")]
    hands = [numeric[6 * k:6 * k + 6] for k in range(SEATS)]
    hands[LOOKER][0] = PRIESTESS
    dealt = [hands[i % SEATS][i // SEATS] for i in range(6 * SEATS)]
    order = create("arcanoid", SEATS, options={"first_seat": 0}).turn().chance.cards
    return dealt + [c for c in order if c not in dealt]


def test_a_card_the_mover_was_only_shown_is_never_opened() -> None:
    moves: list[Any] = []

    def script(legal: list) -> Any:
        if not moves:
            moves.append(next(m for m in legal if isinstance(m, Priestess) and m.target == TARGET))
            return moves[0]
        if len(moves) == 1:
            moves.append(next(m for m in legal if isinstance(m, Engage)))
            return moves[1]
        return None

    t = Table("arcanoid", SEATS, seed=9, options={"first_seat": 0, "rounds": 1},
              scripts={LOOKER: script}, stack=_stack())
    stolen: list[tuple[int, str]] = []
    target_shares: list[int] = []  # deck handles the target published a share of, afterwards

    def tamper(k: int, env: Envelope, data: bytes) -> bytes:
        if k == TARGET and stolen and env.kind == "mental.shares":
            target_shares.extend(item["handle"] for item in env.body["items"])
        if k == LOOKER and env.kind == "move" and env.body["move"]["kind"] == "engage" and not stolen:
            looker = t.sessions[LOOKER].game
            h = looker.parts[TARGET].hand[0]
            stolen.append((h, looker.cards[h]))  # seen through the Priestess, never held
            move = dict(env.body["move"])
            move["handles"] = [h, *move["handles"][1:]]
            move["cards"] = [looker.cards[h], *move["cards"][1:]]
            return resign(t.ids[LOOKER], env, body={**env.body, "move": move})
        return data

    t.tamper = tamper
    t.run()
    assert stolen and stolen[0][1] is not None
    handle, _ = stolen[0]
    for k in (1, 2, 3):
        aborted = t.aborted[k]
        assert aborted is not None and aborted.blame == LOOKER, aborted
    _, _, mh = t.sessions[TARGET].bridge.where[handle]
    assert mh not in target_shares  # the target never completed the opening of its own card
    for k in (2, 3):  # third parties never learnt it
        session = t.sessions[k]
        assert session.game.cards[handle] is None
        deck, epoch, _ = session.bridge.where[handle]
        assert mh not in session.mental.epoch(deck, epoch).public_cards()
    verdict = verify(t, t.records[2])
    assert (verdict.valid, verdict.seat) == (False, LOOKER)
