"""Move sentences read as English whoever the target is (issue 15: "look at you's hand")."""

from __future__ import annotations

from p2ptarot.present.arcanoid import describe


def _view(me: int) -> dict:
    empty = {"hand": [], "visible": [], "reserve": [], "finished": False}
    parts = [{"pid": k, "seat": k, "demon": False, **empty} for k in range(3)]
    parts.append({"pid": 3, "seat": 1, "demon": True, **empty})
    return {"seat": me, "participants": parts, "hands": {}}


def test_the_priestess_sentence_uses_a_possessive_for_every_target() -> None:
    move = {"kind": "priestess", "card": "trump-2", "handle": 0, "target": 2}
    assert describe(move, _view(0)).endswith("look at seat 2's hand")
    assert describe({**move, "target": 0}, _view(0)).endswith("look at your hand")
    assert describe({**move, "target": 3}, _view(1)).endswith("look at your demon's hand")
    assert "you's" not in describe({**move, "target": 1}, _view(1))
