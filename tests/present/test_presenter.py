"""The typed presenter contract: every registered game's presenter module provides the required
part, its optional hooks are taken, and the defaults stand in for the others."""

from __future__ import annotations

import pytest

from p2ptarot.engine import games, layer_module
from p2ptarot.present import presenter
from p2ptarot.present.page import PageMoveError
from p2ptarot.present.presenter import HOOKS, Presenter


@pytest.mark.parametrize("game", sorted(g.name for g in games()))
def test_every_game_has_a_full_presenter(game: str) -> None:
    module = layer_module(game, "present")
    assert module is not None and callable(module.render) and callable(module.describe)
    p = presenter(game)
    assert p.groups == dict(module.GROUPS) and p.render is module.render
    for hook in HOOKS:  # a hook the module defines is the one used
        if hasattr(module, hook):
            assert getattr(p, hook) is getattr(module, hook), hook


def test_defaults_where_a_module_defines_no_hook() -> None:
    sinople = presenter("sinople")
    assert sinople.compose is None and not sinople.automatic({}, [object()])
    assert sinople.page_forms({}, []) == [] and list(sinople.targets({"kind": "play"}, {})) == []
    with pytest.raises(PageMoveError, match="no written moves"):
        sinople.page_move({}, [], "rule", "x")
    base = {"hand": []}
    assert sinople.group({"kind": "nothing"}) == "nothing"
    assert Presenter("x").refine_screen({}, (), base) is base
    assert presenter("eleusis").compose is not None


def test_an_unknown_game_gets_json_and_field_sentences() -> None:
    p = presenter("no-such-game")
    assert p.render({"game": "no-such-game"}) == '{\n "game": "no-such-game"\n}'
    assert p.sentence({"kind": "guess", "rule": 3}, {}) == "guess rule=3"
    assert tuple(p.rank_key({}, 0)) == ()
