"""Two people at two screens (the live page, /live) in Debian's Chromium: separate browser contexts are
separate browsers (their own localStorage), so two contexts are two players and a third a watcher.

Screenshots go to tests/artifacts/live-*.png (look at them after a change to the page).
"""

from __future__ import annotations

import os
import re

import httpx
import pytest

from helpers import app_in_thread
from test_web_browser import ARTIFACTS, CHROMIUM, board_state, browser  # noqa: F401  (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

MY_TURN = '#board[data-busy="false"][data-human-to-move="true"]'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from kalah.web import create_app

    db = tmp_path_factory.mktemp("live") / "games.sqlite"
    with app_in_thread(create_app(db, workers=1, pool="thread")) as url:
        yield {"url": url, "db": db}


@pytest.fixture()
def people(browser):  # noqa: F811
    """A factory of pages, each in its own browser context (a person of their own); JavaScript errors fail."""
    contexts, errors = [], []

    def person(width=1280, height=900):
        phone = width < 600
        context = browser.new_context(
            viewport={"width": width, "height": height}, device_scale_factor=2 if phone else 1, is_mobile=phone
        )
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield person
    for context in contexts:
        with __import__("contextlib").suppress(Exception):
            context.close()
    assert not errors, f"JavaScript errors: {errors}"


class WallClock:
    """The server's wall clock for its games' clocks, moved by the test (a day passes at once)."""

    def __init__(self) -> None:
        import time

        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def own_server(tmp_path):
    """A server of one's own: its wall clock set by the test, a lobby grace of half a second."""
    from kalah.web import create_app
    from kalah.web.live import LiveLimits

    wall = WallClock()
    app = create_app(tmp_path / "games.sqlite", workers=1, pool="thread", live_limits=LiveLimits(lobby_grace=0.5))
    app.state.live.now = wall
    with app_in_thread(app) as url:
        yield {"url": url, "wall": wall}


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-{name}.png"), full_page=True)


def invite_from_form(page, server, pits="3", seeds="2", clock="3+2", pie=False):
    page.goto(f"{server['url']}/live?anim=0#/new")
    page.select_option("#lv-pits", pits)
    page.select_option("#lv-seeds", seeds)
    page.select_option("#lv-clock", clock)
    if pie:
        page.check("#lv-pie")
    page.click('[data-action="invite"]')
    link = page.wait_for_selector('[data-invite][href*="#/join/"]')
    href = link.get_attribute("href")
    game_id = int(re.search(r"#/join/(\d+)/", href).group(1))
    return game_id, href


def open_link(page, href):
    """Open a link of the page with animation off (the query goes before the fragment)."""
    base, fragment = href.split("#", 1)
    page.goto(f"{base}?anim=0#{fragment}")


def test_the_board_pages_button_makes_an_invitation(people, server):
    page = people()
    page.goto(f"{server['url']}/?anim=0")
    page.wait_for_selector('#board[data-busy="false"]')
    page.click('[data-action="invite"]')
    page.wait_for_url(re.compile(r".*/live#/game/\d+"))
    href = page.wait_for_selector('[data-invite][href*="#/join/"]').get_attribute("href")
    assert "?" not in href.split("#")[0][len(server["url"]) :]  # the invitation is in the fragment only
    watch = page.get_attribute("[data-watch]", "href")
    token = page.evaluate("() => Object.entries(localStorage).find(([k]) => k.startsWith('kalah.seat.'))[1]")
    assert token not in watch and token not in href  # the seat token is in no link
    shot(page, "invite-1280")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server["url"])
    page.click("#btn-copy")
    page.wait_for_selector("#btn-copy:text('Copied')")
    assert page.evaluate("() => navigator.clipboard.readText()") == href


def test_without_a_clipboard_the_invitation_is_selected_to_copy(people, server):
    """A page served over plain http to another machine has no navigator.clipboard."""
    page = people()
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    invite_from_form(page, server)
    href = page.get_attribute("[data-invite]", "href")
    page.click("#btn-copy")
    page.wait_for_selector("#btn-copy:text('Selected')")
    assert page.evaluate("() => getSelection().toString()") == href


def board_of(view):
    """The board ([[pits..., store], [pits..., store]]) that a page's data-seeds show."""
    pits = len(view["pits"]) // 2
    return [[view["pits"][f"{p}-{i}"] for i in range(pits)] + [view["stores"][str(p)]] for p in (0, 1)]


def running_clock(page):
    """The seat whose clock runs on ``page`` (None: neither)."""
    running = page.query_selector("[data-clock].running")
    return None if running is None else int(running.get_attribute("data-clock"))


def test_two_people_play_a_whole_game_with_a_clock_a_take_back_and_a_watcher(people, server):
    alice, bob, carol, dave = people(), people(), people(), people()
    game_id, invitation = invite_from_form(alice, server)
    open_link(bob, invitation)
    bob.wait_for_selector(f'#board[data-game="{game_id}"][data-seat="1"]')
    watch = alice.get_attribute("[data-watch]", "href")
    open_link(carol, watch)
    carol.wait_for_selector(f'#board[data-game="{game_id}"]')
    alice.wait_for_selector('#watchers[data-watchers="1"]')
    alice.wait_for_selector(MY_TURN)
    # each side sees both clocks, the server's milliseconds; none runs before the first move
    assert int(alice.get_attribute('[data-clock="1"]', "data-ms")) > 170_000
    assert running_clock(carol) is None

    # strangers cannot move: a page without a token (Carol's), and one with a forged token (Dave's)
    dave.goto(f"{server['url']}/live")
    dave.evaluate(f"() => localStorage.setItem('kalah.seat.{game_id}', 'forged-token-of-nobody-0123456789')")
    dave.goto(f"{server['url']}/live?anim=0#/game/{game_id}")
    dave.wait_for_selector(f'#board[data-game="{game_id}"][data-seat=""]')
    dave.wait_for_selector("#notice:not([hidden])")  # the server's hello: the token holds no seat
    assert "not valid" in dave.text_content("#notice")
    for page, token in ((carol, None), (dave, "forged-token-of-nobody-0123456789")):
        status = page.evaluate(
            """async ([id, token]) => (await fetch(`/api/live/games/${id}/moves`, {method: "POST",
                headers: {"Content-Type": "application/json", ...(token ? {"X-Seat-Token": token} : {})},
                body: JSON.stringify({move: 0, moves: 0})})).status""",
            [game_id, token],
        )
        assert status == 403
        assert page.get_attribute("#board", "data-human-to-move") == "false"
    refused = httpx.post(f"{server['url']}/api/live/games/{game_id}/moves", json={"move": 0, "moves": 0})
    assert refused.status_code == 403
    assert httpx.get(f"{server['url']}/api/games/{game_id}").json()["moves"] == 0  # nothing changed
    for page in (alice, bob, carol, dave):
        assert page.get_attribute("#board", "data-moves") == "0"

    # Alice plays, asks to take it back, Bob accepts: back to the start
    alice.click('#board [data-pit="0-0"].legal')
    bob.wait_for_selector('#board[data-moves="1"]')
    alice.wait_for_selector('#board[data-moves="1"][data-busy="false"]')
    alice.click("#btn-takeback")
    alice.wait_for_selector("#asked:not([hidden])")  # Alice sees that she waits for Bob
    bob.wait_for_selector("#request:not([hidden])")
    shot(bob, "takeback-request")
    bob.click("#btn-accept")
    for page in (alice, bob, carol):
        page.wait_for_selector('#board[data-moves="0"][data-busy="false"]')
    alice.wait_for_selector("#banner:not([hidden])")
    assert "take back" in alice.text_content("#banner")

    # then the whole game: whoever's turn it is plays their first legal pit; the watcher sees every move,
    # each as the server has it, and the clock of the player to move runs on every screen
    seen_by_carol = []
    pages = {0: alice, 1: bob}
    for _ in range(200):
        state = httpx.get(f"{server['url']}/api/live/games/{game_id}").json()
        if state["state"]["over"]:
            break
        mover = pages[state["state"]["to_move"]]
        mover.wait_for_selector(MY_TURN)
        moves = state["state"]["moves"]
        mover.click("#board .legal")
        for page in (alice, bob, carol):
            page.wait_for_selector(f'#board[data-moves="{moves + 1}"][data-busy="false"]')
        after = httpx.get(f"{server['url']}/api/games/{game_id}").json()
        view = board_state(carol)
        assert view["moves"] == after["moves"] == moves + 1
        assert board_of(view) == after["board"], f"the watcher's board after move {moves + 1}"
        seen_by_carol.append(carol.text_content("#history li:last-child"))
        if not after["over"]:
            assert running_clock(carol) == after["to_move"] and running_clock(alice) == after["to_move"]
    final = httpx.get(f"{server['url']}/api/games/{game_id}").json()
    assert final["over"] and final["status"] == "finished"
    assert seen_by_carol == final["history"]  # every move, in order
    for page in (alice, bob, carol):
        page.wait_for_selector('#board[data-over="true"]')
    assert running_clock(carol) is None  # the clocks stopped with the game
    shot(alice, "over-1280")
    # the game is in the library like any other
    assert any(game["id"] == game_id for game in httpx.get(f"{server['url']}/api/games").json())


def test_closing_the_tab_and_coming_back_keeps_the_seat(people, server, browser):  # noqa: F811
    alice, bob = people(), people()
    game_id, invitation = invite_from_form(alice, server, clock="")
    open_link(bob, invitation)
    bob.wait_for_selector(f'#board[data-game="{game_id}"][data-seat="1"]')
    alice.wait_for_selector('[data-presence="true"]')
    context = alice.context
    alice.close()  # the tab closes: Bob sees Alice away
    bob.wait_for_selector('#panel-top [data-presence="false"]')
    again = context.new_page()
    again.goto(f"{server['url']}/live?anim=0#/game/{game_id}")
    again.wait_for_selector(f'#board[data-seat="0"]{MY_TURN[6:]}')
    again.click('#board [data-pit="0-0"].legal')
    bob.wait_for_selector('#board[data-moves="1"]')
    # the invitation is spent: a third person who opens it only watches
    carol = people()
    open_link(carol, invitation)
    carol.wait_for_selector(f'#board[data-game="{game_id}"][data-seat=""]')
    carol.wait_for_selector("#notice:not([hidden])")
    assert "seat is taken" in carol.text_content("#notice")


def test_a_browser_that_closes_and_opens_again_keeps_its_seat(people, server, browser):  # noqa: F811
    """The whole browser context closes (as a browser quits), and one with the same stored profile opens."""
    alice, bob = people(), people()
    game_id, invitation = invite_from_form(alice, server, clock="")
    open_link(bob, invitation)
    bob.wait_for_selector(f'#board[data-game="{game_id}"][data-seat="1"]')
    alice.click('#board [data-pit="0-0"].legal')
    bob.wait_for_selector(f'#board[data-moves="1"]{MY_TURN[6:]}')
    profile = bob.context.storage_state()  # what a browser keeps on disk: localStorage among it
    bob.context.close()
    alice.wait_for_selector('#panel-top [data-presence="false"]')  # Alice sees Bob away
    again = browser.new_context(viewport={"width": 1280, "height": 900}, storage_state=profile)
    try:
        page = again.new_page()
        page.goto(f"{server['url']}/live?anim=0#/game/{game_id}")
        page.wait_for_selector(f'#board[data-seat="1"]{MY_TURN[6:]}')
        alice.wait_for_selector('#panel-top [data-presence="true"]')
        page.click("#board .legal")
        alice.wait_for_selector('#board[data-moves="2"]')
        assert httpx.get(f"{server['url']}/api/games/{game_id}").json()["moves"] == 2
    finally:
        again.close()


def test_resign_and_a_rematch_with_the_seats_swapped(people, server):
    alice, bob, carol = people(), people(width=390, height=844), people()
    game_id, invitation = invite_from_form(alice, server)
    open_link(bob, invitation)
    bob.wait_for_selector(f'#board[data-game="{game_id}"][data-seat="1"]')
    open_link(carol, alice.get_attribute("[data-watch]", "href"))
    carol.wait_for_selector(f'#board[data-game="{game_id}"]')
    alice.wait_for_selector(MY_TURN)
    alice.click('#board [data-pit="0-0"].legal')
    bob.wait_for_selector(f'#board[data-moves="1"]{MY_TURN[6:]}')
    assert bob.is_disabled("#btn-takeback")  # Bob has not moved yet: nothing of his to take back
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.click("#btn-resign")
    for page in (alice, bob, carol):
        page.wait_for_selector('#board[data-over="true"]')
    assert "Player 2 resigned: Player 1 wins" in carol.text_content("#status")
    alice.click("#btn-rematch")
    bob.wait_for_selector("#asked:not([hidden])")
    assert "asks for a rematch" in bob.text_content("#asked")
    assert bob.text_content("#btn-rematch") == "Accept the rematch"
    shot(bob, "rematch-offer-390")
    bob.click("#btn-rematch")
    # both players go to the rematch, with the seats swapped; the watcher follows them there (issue 48: a
    # watcher stayed on the old game, with a link)
    bob.wait_for_selector(f'#board:not([data-game="{game_id}"])[data-seat="0"]{MY_TURN[6:]}')
    alice.wait_for_selector(f'#board:not([data-game="{game_id}"])[data-seat="1"]')
    rematch = bob.get_attribute("#board", "data-game")
    carol.wait_for_selector(f'#board[data-game="{rematch}"][data-seat=""]')
    assert carol.evaluate("location.hash") == f"#/watch/{rematch}"


def assert_fits(page):
    wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    culprits = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .map((e) => e.tagName + '#' + e.id + '.' + e.className).slice(0, 5)""")
    assert wide <= 0, f"the live page is {wide} px wider than the screen: {culprits}"
    spilled = page.evaluate("""() => [...document.querySelectorAll('.player-panel > *')]
        .filter((e) => e.getBoundingClientRect().right > e.parentElement.getBoundingClientRect().right + 1)
        .map((e) => e.className)""")
    assert not spilled, f"these spill out of their player panel: {spilled}"


def test_a_correspondence_game_on_the_page(people, own_server):
    url, wall = own_server["url"], own_server["wall"]
    day, hour = 86_400_000, 3_600_000
    alice, bob = people(), people(width=390, height=844)
    game_id, invitation = invite_from_form(alice, own_server, pits="6", seeds="4", clock="d1")
    open_link(bob, invitation)
    bob.wait_for_selector(f'#board[data-game="{game_id}"][data-seat="1"]')
    alice.wait_for_selector(MY_TURN)
    assert alice.text_content('[data-clock="0"]') == "1d 0h" and alice.text_content('[data-clock="1"]') == "1d 0h"
    alice.click('#board [data-pit="0-0"].legal')  # 4 seeds from pit A: Bob's turn
    bob.wait_for_selector(f'#board[data-moves="1"]{MY_TURN[6:]}')
    # days and hours, not a ticking m:ss; the deadline in the status line
    assert re.fullmatch(r"1d 0h|23h 59m", bob.text_content('[data-clock="1"]'))
    assert "(by " in bob.text_content("#status")
    alice.wait_for_selector('#board[data-moves="1"][data-busy="false"]')
    assert "You may close this page" in alice.text_content("#status")
    shot(bob, "correspondence-390")
    assert_fits(bob)

    alice.context.close()  # Alice goes away for ten hours: her time does not run
    wall.now += 10 * 3600
    clock = httpx.get(f"{url}/api/live/games/{game_id}").json()["live"]["clock"]
    assert clock["ms"] == [day, day - 10 * hour] and clock["running"] == 1
    bob.reload()
    bob.wait_for_selector(f'#board[data-moves="1"]{MY_TURN[6:]}')
    assert re.fullmatch(r"14h 0m|13h 59m", bob.text_content('[data-clock="1"]'))
    assert bob.text_content('[data-clock="0"]') == "1d 0h"
    bob.click("#board .legal")
    bob.wait_for_selector('#board[data-moves="2"][data-busy="false"]')
    assert bob.text_content('[data-clock="1"]') == "1d 0h"  # full again after his move

    wall.now += 24 * 3600 + 1  # a day and a second pass: Alice let her move's time run out
    late = httpx.post(f"{url}/api/live/games/{game_id}/moves", json={"move": 0, "moves": 2})
    assert late.status_code == 403  # no token, no move, nothing changes
    refused = bob.evaluate(
        """async (id) => (await fetch(`/api/live/games/${id}/moves`, {method: "POST",
            headers: {"Content-Type": "application/json", "X-Seat-Token": localStorage.getItem(`kalah.seat.${id}`)},
            body: JSON.stringify({move: 0, moves: 2})})).status""",
        game_id,
    )
    assert refused == 409  # Bob may not move for her; the server finds her time out and ends the game
    bob.wait_for_selector('#board[data-over="true"]')
    assert "Player 1 ran out of time: Player 2 wins" in bob.text_content("#status")
    final = httpx.get(f"{url}/api/live/games/{game_id}").json()
    assert final["live"]["result"] == {"winner": 1, "reason": "time"} and final["state"]["moves"] == 2


def test_a_challenge_goes_when_withdrawn_or_when_its_author_plays_or_leaves(people, own_server):
    url = own_server["url"]
    author, taker = people(), people()
    taker.goto(f"{url}/live?anim=0#/lobby")
    author.goto(f"{url}/live?anim=0#/new")
    for leave in ("withdraw", "play", "close"):
        author.evaluate("() => { location.hash = '#/new'; }")  # the same page: its lobby connection stays open
        author.click('[data-action="challenge"]')
        author.wait_for_selector('li[data-mine="true"]')
        taker.wait_for_selector("li[data-challenge] button.accept")
        if leave == "withdraw":
            author.click("li[data-mine] button.withdraw")
        elif leave == "play":  # the author starts another game: someone accepting would pull them out of it
            author.evaluate("() => { location.hash = '#/new'; }")
            author.click('[data-action="invite"]')
            author.wait_for_selector("#board[data-game]")
        else:
            author.context.close()
        taker.wait_for_selector("li[data-challenge]", state="detached")  # pushed to the lobby's other pages
        assert httpx.get(f"{url}/api/live/challenges").json() == []


def test_the_pie_rule_swap_between_two_screens(people, server):
    alice, bob = people(), people(width=390, height=844)
    game_id, invitation = invite_from_form(alice, server, pits="6", seeds="4", pie=True)
    open_link(bob, invitation)
    bob.wait_for_selector(f'#board[data-game="{game_id}"][data-seat="1"]')
    alice.wait_for_selector(MY_TURN)
    assert alice.is_hidden("#btn-swap")  # the first player has no swap
    alice.click('#board [data-pit="0-0"].legal')
    bob.wait_for_selector(f'#board[data-moves="1"]{MY_TURN[6:]}')
    bob.click("#btn-swap")
    alice.wait_for_selector(f'#board[data-moves="2"]{MY_TURN[6:]}')  # after the swap, the first player moves
    after = httpx.get(f"{server['url']}/api/games/{game_id}").json()
    assert after["history"][-1] == "swap" and after["board"][1][0] == 0  # Bob holds the row Alice moved from
    assert board_of(board_state(alice)) == after["board"] and bob.is_hidden("#btn-swap")


def test_the_library_offers_a_live_game_to_its_players_and_to_watchers(people, server):
    alice, stranger = people(), people()
    game_id, _ = invite_from_form(alice, server, clock="")
    row = f'tr[data-game="{game_id}"]'
    for page in (alice, stranger):
        page.goto(f"{server['url']}/?anim=0#/library")
        page.wait_for_selector(f"{row} a.watch")
        assert page.query_selector(f"{row} button.delete") is None  # the server keeps it until it ends
    assert alice.query_selector(f"{row} a.continue") is not None  # her browser holds a seat
    assert stranger.query_selector(f"{row} a.continue") is None  # nothing to continue: watch only
    alice.click(f"{row} a.continue")
    alice.wait_for_selector(f'#board[data-game="{game_id}"][data-seat="0"]')


def test_the_live_page_on_a_phone(people, server):
    alice, bob = people(width=390, height=844), people(width=390, height=844)
    game_id, invitation = invite_from_form(alice, server, pits="6", seeds="4")
    open_link(bob, invitation)
    bob.wait_for_selector(f'#board[data-game="{game_id}"][data-seat="1"]')
    alice.wait_for_selector(MY_TURN)
    for name, page in (("alice", alice), ("bob", bob)):
        shot(page, f"phone-{name}")
        assert_fits(page)


def test_the_lobby_offers_a_challenge_that_another_accepts(people, server):
    author, taker = people(), people()
    author.goto(f"{server['url']}/live?anim=0#/new")
    author.select_option("#lv-clock", "5+3")
    author.click('[data-action="challenge"]')
    author.wait_for_selector('li[data-mine="true"]')
    taker.goto(f"{server['url']}/live?anim=0#/lobby")
    taker.wait_for_selector("li[data-challenge] button.accept")
    shot(taker, "lobby")
    taker.click("li[data-challenge] button.accept")
    taker.wait_for_selector('#board[data-seat="0"], #board[data-seat="1"]')
    author.wait_for_selector('#board[data-seat="0"], #board[data-seat="1"]')
    seats = {page.get_attribute("#board", "data-seat") for page in (author, taker)}
    assert seats == {"0", "1"}


def test_names_show_on_both_screens_to_watchers_in_the_lobby_and_the_library(people, server):
    """Games between people were "Player 1" against "Player 2", both dots the same blue (issue 48)."""
    ann, bo, watcher = people(), people(width=390, height=844), people()
    ann.goto(f"{server['url']}/live?anim=0#/new")
    ann.fill("#lv-name", "Ann")
    ann.select_option("#lv-pits", "3")
    ann.select_option("#lv-seeds", "2")
    ann.click('[data-action="invite"]')
    href = ann.wait_for_selector('[data-invite][href*="#/join/"]').get_attribute("href")
    game_id = int(re.search(r"#/join/(\d+)/", href).group(1))
    open_link(bo, href)  # Bo came by the link with no name kept: he gives it under the board
    bo.wait_for_selector("#name-box:not([hidden])")
    bo.fill("#name-input", "Bo")
    bo.click("#name-box button")
    open_link(watcher, ann.get_attribute("[data-watch]", "href"))
    for page, mine in ((ann, "Ann (you)"), (bo, "Bo (you)"), (watcher, None)):
        page.wait_for_function(
            "() => /Bo/.test(document.querySelector('#panel-top').textContent + "
            "document.querySelector('#panel-bottom').textContent)"
        )
        panels = page.inner_text("#panel-top") + page.inner_text("#panel-bottom")
        assert "Ann" in panels and "Bo" in panels
        if mine:
            assert mine in page.inner_text("#panel-bottom")
        colours = page.eval_on_selector_all(
            ".player-panel .dot", "ds => ds.map(d => getComputedStyle(d).backgroundColor)"
        )
        assert len(set(colours)) == 2, colours  # each seat its own colour
    assert bo.is_hidden("#name-box")
    assert bo.evaluate("localStorage.getItem('kalah.name')") == "Bo"  # kept for his next game
    shot(bo, "names-390")
    listed = httpx.get(f"{server['url']}/api/games").json()
    assert [p["name"] for p in next(g for g in listed if g["id"] == game_id)["players"]] == ["Ann", "Bo"]
    # the lobby shows who offers, the side and the clock; Ann's name is offered again from her browser
    ann.goto(f"{server['url']}/live?anim=0#/new")
    assert ann.input_value("#lv-name") == "Ann"
    ann.select_option("#lv-seat", "1")
    ann.select_option("#lv-clock", "5+3")
    ann.click('[data-action="challenge"]')
    ann.wait_for_selector('li[data-mine="true"]')
    watcher.goto(f"{server['url']}/live?anim=0#/lobby")
    line = watcher.wait_for_selector("li[data-challenge]:not([data-mine])").inner_text()
    assert "Ann plays second" in line and "5 min + 3 s" in line
    watcher.fill("#lobby-name", "Cy")
    watcher.click("li[data-challenge] button.accept")
    watcher.wait_for_selector('#board[data-seat="0"]')  # Ann chose the second seat
    assert "Cy (you)" in watcher.inner_text("#panel-bottom") and "Ann" in watcher.inner_text("#panel-top")
