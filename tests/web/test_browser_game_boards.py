"""The games' own boards in the page (real headless Chromium): Arcanum's city, prestige tracks and
players drawn from the seat's view, a minor played by clicking its card then the board fields."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.web.cdp import Browser
from p2ptarot.app.events import MovePlayed, TurnStarted, ViewChanged
from p2ptarot.present.faces import sort_key
from tests.web.tables import (CLICK, CLICK_NO_PICKER, OVER, close_table, host,
                              human, join_bot, keep_shot, play_previewed)

pytestmark = [pytest.mark.network, pytest.mark.slow]


def _latest(hub, kind):
    return next((ev for ev in reversed(hub.history) if isinstance(ev, kind)), None)


def _sent(turn: int) -> str:
    """Page expression: our move for `turn` went out. The next turn may already have come (it
    resets S.answered), so a later turn number counts too."""
    return f"S.answered || (S.turn !== null && S.turn.turn > {turn})"


async def test_arcanum_page_shows_hand_board_and_plays_by_fields(tmp_path: Path) -> None:
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    bots: list[asyncio.Task] = []
    try:
        host(alice, "arcanum", 3, on_listening=lambda url: bots.extend(
            join_bot(tmp_path, f"Bot{k}", url, "arcanum", seed=k) for k in (1, 2)))
        page = await browser.page(alice.url)
        await page.wait_for("document.getElementById('arcanum-board') !== null"
                            " && document.querySelectorAll('#hand .card').length > 0", timeout=120)
        fielded = False
        for _ in range(400):  # until a minor with a figure to move is on offer, then play it by fields
            turn = alice.hub.turn
            if turn is not None and await page.js("S.turn && !S.answered && S.turn.turn === %d" % turn.turn):
                minor = next((o for o in turn.options if o.card and len(o.targets) == 2
                              and sum(x.card == o.card for x in turn.options) > 1), None)
                if minor is not None:
                    break
                await page.js(CLICK)
            await asyncio.sleep(0.1)
        else:
            pytest.fail("no minor with a figure to move was offered")
        # the board is the seat's view: VP, names, the ten locations, the four tracks, the hand
        view = _latest(alice.hub, ViewChanged).view
        me = view["seat"]
        own = next(p for p in view["players"] if p["seat"] == me)
        hand = await page.js("Array.from(document.querySelectorAll('#hand .card')).map(c => c.dataset.card)")
        assert hand == sorted((c["card"] for c in own["hand"]), key=sort_key)
        for p in view["players"]:
            vp = await page.js(f"document.querySelector('#arcanum-board td.vp[data-seat=\"{p['seat']}\"]').textContent")
            assert vp == str(p["vp"])
        assert await page.js("document.querySelectorAll('#arcanum-board .loc').length") == 10
        assert await page.js("document.querySelectorAll('#arcanum-board .track').length") == 4
        houses = await page.js("Array.from(document.querySelectorAll('.track .tval')).map(t => t.textContent)")
        assert houses == [str(view["prestige"][h]) for h in ("swords", "wands", "cups", "coins")]
        names = await page.js("document.querySelector('.arc-players').textContent")
        assert "Alice (you)" in names and "Bot1" in names
        keep_shot(await page.screenshot(tmp_path / "arcanum-board.png"))
        # card, then destination, then (if still several) the figure: one option is left and played
        loc, figure = minor.targets
        await page.js(f"document.querySelector('#hand .card[data-card=\"{minor.card}\"]').click()")
        assert not await page.js("S.answered")  # several moves with this card: the board decides
        # answered: the page sent its move, or the next turn already came (it resets S.answered)
        answered = _sent(turn.turn)
        await page.js(f"document.querySelector('#arcanum-board .loc[data-target=\"{loc}\"]').click()")
        if not await page.js("document.getElementById('confirm') !== null"):
            await page.js(f"document.querySelector('#arcanum-board .fig[data-target=\"{figure}\"]').click()")
        # the one-line preview of the pointed move, then "Play"
        assert await page.js("document.querySelector('#preview .what').textContent") == "▶ " + minor.sentence
        await page.js("document.getElementById('confirm').click()")
        try:
            await page.wait_for(answered, timeout=30)
        except TimeoutError:
            state = await page.js("JSON.stringify({turn: S.turn && S.turn.turn, picked: S.picked,"
                                  " answered: S.answered, n: S.turn && S.turn.options.length})")
            pytest.fail(f"the board clicks did not play {minor.sentence!r} {minor.targets}: {state}")
        moved = None
        for _ in range(300):
            moved = next((ev for ev in alice.hub.history if isinstance(ev, MovePlayed)
                          and ev.seat == me and ev.sentence == minor.sentence), None)
            if moved is not None:
                break
            await asyncio.sleep(0.1)
        assert moved is not None, f"{minor.sentence!r} was not played"
    finally:
        await close_table(browser, [alice], bots)


async def _wait(predicate, timeout: float = 120.0):
    for _ in range(int(timeout * 10)):
        found = predicate()
        if found is not None:
            return found
        await asyncio.sleep(0.1)
    pytest.fail("timed out waiting for the table")


def _played(hub, seat: int) -> list[MovePlayed]:
    return [ev for ev in hub.history if isinstance(ev, MovePlayed) and ev.seat == seat]


async def test_eleusis_dealer_writes_a_rule_and_a_player_plays_a_run_in_the_page(tmp_path: Path) -> None:
    """Four people: the dealer's page writes an invalid rule (refused with its line and column,
    nothing played), then a valid one, a hint; the first player's page plays a run of 2 by
    clicking two cards."""
    browser = await Browser(tmp_path / "profile").start()
    seats = [await human(tmp_path, n) for n in ("Alice", "Bob", "Carol", "Dan")]
    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    try:
        host(seats[0], "eleusis", 4, on_listening=lambda url: listening.set_result(url))
        url = await listening
        from tests.web.tables import join_human
        for s in seats[1:]:
            join_human(s, url, "eleusis")
        dealer = await _wait(lambda: next((s for s in seats if s.hub.turn is not None), None))
        view = _latest(dealer.hub, ViewChanged).view
        assert view["phase"] == "rule" and view["dealer"] == view["seat"]
        d_seat = view["seat"]
        page = await browser.page(dealer.url)
        await page.wait_for("document.getElementById('erl-text') !== null", timeout=60)
        examples = await page.js("document.getElementById('erl-examples').options.length")
        assert examples > 10
        # an invalid rule: the peer's parser answers with the line and column; nothing is played
        await page.js("document.getElementById('erl-text').value = 'accept\\n  c.rank >> 3';"
                      "document.getElementById('erl-commit').click()")
        await page.wait_for("document.querySelector('#rule-result .msg') !== null", timeout=30)
        msg = await page.js("document.querySelector('#rule-result .msg').textContent")
        assert msg.startswith("invalid rule: ") and "(line 2, column " in msg
        caret = await page.js("document.querySelector('#rule-result pre.caret').textContent")
        assert caret.split("\n")[0] == "  c.rank >> 3" and caret.split("\n")[1].endswith("^")
        keep_shot(await page.screenshot(tmp_path / "eleusis-rule-error.png"))
        assert not _played(dealer.hub, d_seat) and not await page.js("S.answered")
        assert await page.js("document.getElementById('erl-text').value") == "accept\n  c.rank >> 3"
        # the page redraws on every event: what the dealer is typing keeps its text, focus and caret
        # (a block: `t` is the page's translation function, a global)
        await page.js("{ const ta = document.getElementById('erl-text'); ta.focus(); ta.setSelectionRange(3, 3); }"
                      "drawAll()")
        assert await page.js("[document.activeElement.id, document.activeElement.selectionStart]") == ["erl-text", 3]
        # checked only, then committed
        await page.js("document.getElementById('erl-text').value = 'accept c.color != p1.color';"
                      "document.getElementById('erl-check').click()")
        await page.wait_for("document.querySelector('#rule-result.ok') !== null", timeout=30)
        assert not _played(dealer.hub, d_seat)
        await page.js("document.getElementById('erl-commit').click()")
        await _wait(lambda: _played(dealer.hub, d_seat) or None, timeout=60)
        await _wait(lambda: (lambda v: v if v["phase"] == "hint" else None)(_latest(dealer.hub, ViewChanged).view))
        assert _latest(dealer.hub, ViewChanged).view["rule"] == "accept c.color != p1.color\n"
        # the hint: a structured one (true of the rule) and free text
        await page.wait_for("document.getElementById('hint-give') !== null", timeout=60)
        await page.js("document.querySelector('#hint-form input[value=\"ignores rank\"]').click();"
                      "document.getElementById('hint-text').value = 'look at colours'")
        assert await page.js("document.querySelector('#hint-form input[value=\"ignores colour\"]').disabled")
        keep_shot(await page.screenshot(tmp_path / "eleusis-hint.png"))
        await page.js("document.getElementById('hint-give').click()")
        await _wait(lambda: len(_played(dealer.hub, d_seat)) >= 2 or None, timeout=60)
        assert _played(dealer.hub, d_seat)[1].sentence == 'give the hint ignores rank; "look at colours"'
        # the first player plays a run of two cards, clicked in order
        def first_player():
            for s in seats:
                ev = _latest(s.hub, ViewChanged)
                if s is not dealer and ev is not None and ev.view["phase"] == "play" \
                        and ev.view["current"] == ev.view["seat"] and s.hub.turn is not None:
                    return s
            return None
        player = await _wait(first_player)
        p_seat = _latest(player.hub, ViewChanged).view["seat"]
        ppage = await browser.page(player.url)
        # the run is picked from the hand itself: "Play a run…" swaps the hand for its cards
        await ppage.wait_for("(() => { const o = document.getElementById('run-open'); "
                             "if (o) o.click(); return document.querySelectorAll('#run-cards .card')"
                             ".length >= 2; })()", timeout=60)
        assert await ppage.js("document.getElementById('handbox').hidden")
        handles = await ppage.js("Array.from(document.querySelectorAll('#run-cards .card')).map(c => Number(c.dataset.handle))")
        first, second = handles[1], handles[0]  # any order the player likes
        hand = {h["handle"]: h["card"] for h in _latest(player.hub, ViewChanged).view["hand"]}
        assert await ppage.js("document.getElementById('run-play').disabled")
        await ppage.js(f"document.querySelector('#run-cards .card[data-handle=\"{first}\"]').click()")
        await ppage.js(f"document.querySelector('#run-cards .card[data-handle=\"{second}\"]').click()")
        order = await ppage.js("Array.from(document.querySelectorAll('#run-cards .card.chosen')).map(c => [Number(c.dataset.handle), c.querySelector('.order').textContent])")
        assert sorted(order) == sorted([[first, "1"], [second, "2"]])
        keep_shot(await ppage.screenshot(tmp_path / "eleusis-run.png"))
        await ppage.js("document.getElementById('run-play').click()")
        run = await _wait(lambda: _played(player.hub, p_seat) or None, timeout=60)
        from p2ptarot.present.eleusis import cards_text
        assert run[0].sentence == f"play the run {cards_text([hand[first], hand[second]])}"
        await ppage.wait_for("document.getElementById('eleusis-layout') !== null", timeout=60)
        keep_shot(await page.screenshot(tmp_path / "eleusis-dealer-after-run.png"))
    finally:
        await close_table(browser, seats)


async def test_paris_divins_wager_is_a_card_then_a_bet_field(tmp_path: Path) -> None:
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    bots: list[asyncio.Task] = []
    try:
        host(alice, "paris-divins", 2, on_listening=lambda url: bots.append(
            join_bot(tmp_path, "Bot1", url, "paris-divins", seed=3)))
        page = await browser.page(alice.url)
        await page.wait_for("document.getElementById('wager-board') !== null && S.turn && !S.answered"
                            " && document.querySelectorAll('#hand .card.playable').length > 0", timeout=120)
        view = _latest(alice.hub, ViewChanged).view
        stakes = await page.js("Array.from(document.querySelectorAll('#wager-board tr[data-seat]'))"
                               ".map(r => r.children[2].textContent)")
        assert stakes == [str(s) for s in view["stakes"]]
        card = view["hand"][-1]
        turn_no = await page.js("S.turn.turn")
        await page.js(f"document.querySelector('#hand .card[data-card=\"{card}\"]').click()")
        assert not await page.js("S.answered")  # three bets are possible with this card
        await page.js("document.querySelector('#wager-board .bet[data-target=\"bet-divine\"]').click()")
        assert "divine" in await page.js("document.querySelector('#preview .what').textContent")
        await page.js("document.getElementById('confirm').click()")
        await page.wait_for(_sent(turn_no), timeout=10)
        keep_shot(await page.screenshot(tmp_path / "paris-divins-wager.png"))
        played = await _wait(lambda: next((ev for ev in alice.hub.history if isinstance(ev, MovePlayed)
                                           and ev.seat == view["seat"]), None), timeout=60)
        from p2ptarot.present.cards import card_name
        assert played.sentence == f"Play {card_name(card)} face down and bet on divine"
    finally:
        await close_table(browser, [alice], bots)


async def test_arcanoid_fields_board_engages_by_card_then_field(tmp_path: Path) -> None:
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    bots: list[asyncio.Task] = []
    try:
        host(alice, "arcanoid", 2, on_listening=lambda url: bots.append(
            join_bot(tmp_path, "Bot1", url, "arcanoid", seed=2)))
        page = await browser.page(alice.url)
        await page.wait_for("document.getElementById('fields-board') !== null", timeout=120)
        for _ in range(600):  # until a one-card engagement is on offer, the card having other moves
            turn = alice.hub.turn
            if turn is not None and await page.js("S.turn && !S.answered && S.turn.turn === %d" % turn.turn):
                pick = next((o for o in turn.options if o.card and len(o.targets) == 1
                             and o.sentence.startswith("Engage on")
                             and sum(x.card == o.card for x in turn.options) > 1
                             and sum(x.card == o.card and x.targets == o.targets
                                     for x in turn.options) == 1), None)
                if pick is not None:
                    break
                await page.js(CLICK)
            await asyncio.sleep(0.1)
        else:
            pytest.fail("no one-card engagement was offered")
        assert await page.js("document.querySelectorAll('#fields-board .field').length") == 4
        view = _latest(alice.hub, ViewChanged).view  # our turn is open: nobody else moves now
        for field in ("swords", "wands", "cups", "coins"):
            records = sum(field in p["records"] for p in view["participants"])
            drawn = await page.js(f"document.querySelectorAll('#fields-board .field[data-field=\"{field}\"] .entry').length")
            assert drawn == records, field
        await page.js(f"document.querySelector('#hand .card[data-card=\"{pick.card}\"]').click()")
        assert not await page.js("S.answered")
        await page.js(f"document.querySelector('#fields-board .field[data-target=\"{pick.targets[0]}\"]').click()")
        assert await page.js("document.querySelector('#preview .what').textContent") == "▶ " + pick.sentence
        await page.js("document.getElementById('confirm').click()")
        await page.wait_for(_sent(turn.turn), timeout=10)
        me = _latest(alice.hub, ViewChanged).view["seat"]
        played = await _wait(lambda: next((ev for ev in alice.hub.history if isinstance(ev, MovePlayed)
                                           and ev.seat == me and ev.sentence == pick.sentence), None), 60)
        assert played is not None
        keep_shot(await page.screenshot(tmp_path / "arcanoid-fields.png"))
    finally:
        await close_table(browser, [alice], bots)


#: a whole 3-player game may offer Alice no several-card move with a unique card set (1 local game
#: in 200, bots against the first-option policy); the next table offers one
SEVERAL_CARD_TABLES = 3
#: hang guard of one table (a whole game takes a few minutes): never reached unless the page is stuck
TABLE_GUARD = 900.0


async def _several_cards_turn(page, alice, seen: list[str]):
    """Alice plays (CLICK_NO_PICKER) until one of her turns offers a move naming several cards,
    the only one naming exactly those: (turn, that option), or None when the game ends first.
    `seen` collects each turn's decision and what the click did, for a failure's message."""
    import time

    guard = time.monotonic() + TABLE_GUARD
    while not alice.task.done():
        if time.monotonic() > guard:
            pytest.fail(f"the page stopped making progress; Alice's turns so far: {seen[-30:]}")
        turn = alice.hub.turn
        if turn is not None and await page.js("S.turn && !S.answered && S.turn.turn === %d" % turn.turn):
            multi = [o for o in turn.options if len(o.cards) >= 2]
            pick = next((o for o in multi if sum(sorted(x.cards) == sorted(o.cards) for x in multi) == 1),
                        None)
            if pick is not None:
                return turn, pick
            view = _latest(alice.hub, ViewChanged)
            decision = ((view.view.get("decision") or {}).get("name") if view else None) or "?"
            clicked = await page.js(CLICK_NO_PICKER)  # the picker is this test's to use
            seen.append(f"{turn.turn}:{decision}:{clicked or '-'}")
        else:  # a round's end holds the next deal until she continues
            await page.js(OVER)
        await asyncio.sleep(0.1)
    return None


async def test_arcanum_several_cards_are_picked_then_played(tmp_path: Path) -> None:
    """A move naming several cards (hide two minors, discard down to seven...) is played by picking
    its cards in the page's picker; the picker's button plays the one move naming exactly them."""
    browser = await Browser(tmp_path / "profile").start()
    seats: list = []
    bots: list[asyncio.Task] = []
    seen: list[str] = []
    try:
        for table in range(SEVERAL_CARD_TABLES):
            where = tmp_path / f"table{table}"
            where.mkdir()
            alice = await human(where, "Alice")
            seats.append(alice)
            host(alice, "arcanum", 3, on_listening=lambda url, where=where: bots.extend(
                join_bot(where, f"Bot{k}", url, "arcanum", seed=k) for k in (1, 2)))
            page = await browser.page(alice.url)
            found = await _several_cards_turn(page, alice, seen)
            if found is not None:
                break
            seen.append("game over")
        else:
            pytest.fail(f"no move naming several cards in {SEVERAL_CARD_TABLES} games: {seen}")
        turn, pick = found
        # the picker takes the hand's place (opened by a button while cards also play alone)
        await page.wait_for("(() => { const o = document.getElementById('pick-open'); if (o) o.click(); "
                            "return document.getElementById('card-picker') !== null; })()", timeout=10)
        assert await page.js("document.getElementById('handbox').hidden")
        assert await page.js("document.getElementById('pick-play').disabled")
        for card in pick.cards:
            await page.js(f"document.querySelector('#card-picker .card[data-card=\"{card}\"]').click()")
        line = await page.js("document.querySelector('#card-picker .runline').textContent")
        assert line == pick.sentence
        keep_shot(await page.screenshot(tmp_path / "arcanum-picker.png"))
        await page.js("document.getElementById('pick-play').click()")
        await page.wait_for(_sent(turn.turn), timeout=10)
        me = _latest(alice.hub, ViewChanged).view["seat"]
        played = await _wait(lambda: next((ev for ev in alice.hub.history if isinstance(ev, MovePlayed)
                                           and ev.seat == me and ev.sentence == pick.sentence), None), 60)
        assert played is not None
    finally:
        await close_table(browser, seats, bots)


def _fields_decision() -> tuple:
    """(seat, view, legal) of an Arcanum Fields decision, from a local random game (sans-I/O)."""
    import random

    from p2ptarot.engine import RandomDealer, create, play

    class Found(Exception):
        pass

    class Agent:
        uses_view = True

        def __init__(self) -> None:
            self.rng = random.Random(3)

        def choose(self, seat, view, legal):
            if (view.get("decision") or {}).get("name") == "fields":
                raise Found(seat, view, list(legal))
            return self.rng.choice(legal)

    try:
        play(create("arcanum", 3), [Agent()] * 3, RandomDealer(random.Random(3)))
    except Found as found:
        return found.args
    raise AssertionError("no Fields decision in the whole game")


async def test_arcanum_fields_is_four_clicks_on_the_prestige_tracks(tmp_path: Path) -> None:
    """The page's own logic on a turn published to the seat's hub (no table needed): Fields (81
    moves) lists no button; a chip on each House's track composes the move, a click on another
    chip of a House changes that House only, and "Play" sends the one move the chips name."""
    from p2ptarot.app.events import PlayMove, TableOpened
    from p2ptarot.present.rulebook import LANGUAGES, rules
    from p2ptarot.present.screen import move_options, render_text, screen

    seat, view, legal = _fields_decision()
    view = dict(view, devil=True)  # the chips and the preview show the doubled changes
    names = ["Alice", "Bob", "Carol"]
    options = move_options(legal, view, names)
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    try:
        books = {code: rules("arcanum", code) for code in LANGUAGES}
        alice.hub.publish(TableOpened("arcanum", "Arcanum", None, seat, tuple(names), 300, 0, "",
                                      {c: b.to_json() for c, b in books.items() if b is not None}))
        alice.hub.publish(ViewChanged(screen(view, names), render_text(view, names), view))
        alice.hub.publish(TurnStarted(5, options, None))
        page = await browser.page(alice.url)
        await page.wait_for("S.turn !== null && S.turn.turn === 5 && !S.answered", timeout=30)
        assert await page.js("document.querySelectorAll('#moves button.move').length") == 0
        assert await page.js("document.getElementById('moves').textContent") == "Point at the lit places on the table"
        assert await page.js("document.querySelectorAll('#arcanum-board .fchip.target.live').length") == 12
        chips = await page.js("[...document.querySelectorAll('.track[data-house=\"cups\"] .fchip')]"
                              ".map((c) => c.textContent)")
        cups = view["prestige"]["cups"]
        assert chips == [f"−2 → {max(0, cups - 2)}", f"0 → {cups}", f"+2 → {min(21, cups + 2)}"]
        click = "document.querySelector('[data-target=\"%s\"]').click()"
        for target in ("fields-swords+1", "fields-wands-1", "fields-cups0", "fields-swords-1"):
            await page.js(click % target)
        # swords changed from +1 to -1, wands and cups kept: three Houses chosen, 3 moves left
        assert await page.js("[...document.querySelectorAll('.fchip.picked')].map((c) => c.dataset.target)"
                             ".sort().join(' ')") == "fields-cups0 fields-swords-1 fields-wands-1"
        assert await page.js("S.sel.options.length") == 3
        assert await page.js("document.querySelectorAll('#moves button.move').length") <= 3
        await page.js(click % "fields-coins+1")
        want = next(o for o in options if legal[o.index].changes == (-1, -1, 0, 1))
        assert await page.js("document.querySelector('#preview .what').textContent") == "▶ " + want.sentence
        assert "+2" in want.sentence and "-2" in want.sentence  # the Devil doubles
        sent = await play_previewed(page, alice.hub)
        assert sent == PlayMove(5, options.index(want) + 1)
    finally:
        await browser.close()
        await alice.server.close()


async def test_a_long_move_group_is_folded_and_stays_open_once_opened(tmp_path: Path) -> None:
    """The page's own logic on an injected turn (no table needed): a group of more than 16 moves
    is folded with its count; opened, it stays open when the page redraws for the next event."""
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    try:
        page = await browser.page(alice.url)
        await page.wait_for("S.connected === true", timeout=30)
        await page.js("S.turn = {turn: 7, since: [], deadline: null, options: Array.from({length: 20},"
                      " (_, i) => ({index: i, sentence: 'load ' + i, group: 'Chariot', card: null,"
                      " targets: [], cards: []})).concat([{index: 20, sentence: 'pass', group: 'pass',"
                      " card: null, targets: [], cards: []}])}; S.answered = false; drawAll()")
        assert await page.js("document.querySelector('#moves details summary').textContent") == "Chariot — 20 choices"
        assert await page.js("document.querySelector('#moves details').open") is False
        assert await page.js("document.querySelectorAll('#moves h3').length") == 1  # 'pass' is not folded
        await page.js("document.querySelector('#moves details summary').click()")
        await page.wait_for("S.unfolded && S.unfolded.has('7/Chariot')", timeout=10)
        await page.js("drawAll()")
        assert await page.js("document.querySelector('#moves details').open") is True
    finally:
        await browser.close()
        await alice.server.close()
