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


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-{name}.png"), full_page=True)


def invite_from_form(page, server, pits="3", seeds="2", clock="3+2"):
    page.goto(f"{server['url']}/live?anim=0#/new")
    page.select_option("#lv-pits", pits)
    page.select_option("#lv-seeds", seeds)
    page.select_option("#lv-clock", clock)
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


def test_two_people_play_a_whole_game_with_a_clock_a_take_back_and_a_watcher(people, server):
    alice, bob, carol = people(), people(), people()
    game_id, invitation = invite_from_form(alice, server)
    open_link(bob, invitation)
    bob.wait_for_selector(f'#board[data-game="{game_id}"][data-seat="1"]')
    watch = alice.get_attribute("[data-watch]", "href")
    open_link(carol, watch)
    carol.wait_for_selector(f'#board[data-game="{game_id}"]')
    alice.wait_for_selector('#watchers[data-watchers="1"]')
    alice.wait_for_selector(MY_TURN)
    # each side sees both clocks, the server's milliseconds
    assert int(alice.get_attribute('[data-clock="1"]', "data-ms")) > 170_000

    # a stranger (no token: Carol's page) cannot move: the server says 403 and nothing changes
    refused = httpx.post(f"{server['url']}/api/live/games/{game_id}/moves", json={"move": 0, "moves": 0})
    assert refused.status_code == 403
    assert carol.get_attribute("#board", "data-human-to-move") == "false"

    # Alice plays, asks to take it back, Bob accepts: back to the start
    alice.click('#board [data-pit="0-0"].legal')
    bob.wait_for_selector('#board[data-moves="1"]')
    alice.wait_for_selector('#board[data-moves="1"][data-busy="false"]')
    alice.click("#btn-takeback")
    bob.wait_for_selector("#request:not([hidden])")
    shot(bob, "takeback-request")
    bob.click("#btn-accept")
    for page in (alice, bob, carol):
        page.wait_for_selector('#board[data-moves="0"][data-busy="false"]')

    # then the whole game: whoever's turn it is plays their first legal pit; the watcher sees every move
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
        seen_by_carol.append(board_state(carol))
        view = board_state(carol)
        after = httpx.get(f"{server['url']}/api/games/{game_id}").json()
        assert view["moves"] == after["moves"]
    final = httpx.get(f"{server['url']}/api/games/{game_id}").json()
    assert final["over"] and final["status"] == "finished"
    assert len(seen_by_carol) == final["moves"]
    for page in (alice, bob, carol):
        page.wait_for_selector('#board[data-over="true"]')
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
    assert "seat is taken" in carol.text_content("#notice")


def test_the_live_page_on_a_phone(people, server):
    alice, bob = people(width=390, height=844), people(width=390, height=844)
    game_id, invitation = invite_from_form(alice, server, pits="6", seeds="4")
    open_link(bob, invitation)
    bob.wait_for_selector(f'#board[data-game="{game_id}"][data-seat="1"]')
    alice.wait_for_selector(MY_TURN)
    for name, page in (("alice", alice), ("bob", bob)):
        shot(page, f"phone-{name}")
        wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        culprits = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
            .map((e) => e.tagName + '#' + e.id + '.' + e.className).slice(0, 5)""")
        assert wide <= 0, f"the live page is {wide} px wider than a 390 px phone: {culprits}"


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
