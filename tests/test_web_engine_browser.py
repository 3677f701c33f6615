"""The engine in the page on kalah serve's board (Chromium, headless): the computer's moves, hints, analyses,
reviews and the lab's traces are made by the WebAssembly engine in the visitor's browser, and the server is
asked for none of them; where the page has no engine (``?engine=server``) the server thinks, as before, and
the page says so."""

from __future__ import annotations

import os
import re

import httpx
import pytest

from helpers import app_in_thread
from kalah import Position
from kalah.players import make_player

CHROMIUM = "/usr/bin/chromium"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

#: Requests that make the server's engines work.
ENGINE_ROUTES = re.compile(r"/api/(games/\d+/(computer-move|analysis|review)|analyse|trace|lab/)")
READY = '#board[data-busy="false"]'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from kalah.web import create_app

    db = tmp_path_factory.mktemp("web") / "games.sqlite"
    with app_in_thread(create_app(db, workers=1, pool="thread")) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield browser
        browser.close()


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.requests = []  # type: ignore[attr-defined]
    page.on("request", lambda request: page.requests.append((request.method, request.url, request.post_data)))  # type: ignore[attr-defined]
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def engine_requests(page) -> list[str]:
    return [url for _, url, _ in page.requests if ENGINE_ROUTES.search(url)]


def new_game(url: str, players: list[str]) -> int:
    answer = httpx.post(f"{url}/api/games", json={"players": players, "variant": {"pits": 4, "seeds": 3}})
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


def play_out(page) -> None:
    """Click the last legal pit until the game is over."""
    while True:
        page.wait_for_function(
            "() => { const b = document.querySelector('#board');"
            " return b.dataset.busy === 'false' && (b.dataset.humanToMove === 'true' || b.dataset.over === 'true'); }",
            timeout=30000,
        )
        if page.eval_on_selector("#board", "b => b.dataset.over") == "true":
            return
        before = int(page.eval_on_selector("#board", "b => b.dataset.moves"))
        page.locator("#board .pit.legal").last.click()
        page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.moves) > {before}")


def test_a_whole_game_against_the_computer_asks_the_server_for_no_engine_work(page, server):
    game = new_game(server, ["human", "medium"])
    page.goto(f"{server}/?anim=0#/game/{game}")
    page.wait_for_selector("html[data-engine='browser']")
    assert "in this browser" in page.locator("#engine-note").inner_text()
    page.check("#analysis-toggle")
    play_out(page)
    assert engine_requests(page) == []
    record = httpx.get(f"{server}/api/games/{game}/record").json()
    computer = [move for move in record["moves"] if move["player"] == 1]
    assert computer and all(move["info"] == {"engine": "browser"} for move in computer)
    computer_posts = [
        data for method, url, data in page.requests if method == "POST" and '"computer":true' in (data or "")
    ]
    assert len(computer_posts) == len(computer)
    # medium is pvs:depth=6: at a fixed depth the engine in the page chose the native engine's moves
    position = Position.from_dict(record["start"])
    for move in record["moves"]:
        if move["player"] == 1:
            assert move["move"] == make_player("pvs:depth=6").choose_move(position), position
        position = position.play(move["move"])


def test_hints_analyses_and_reviews_are_made_in_the_browser(page, server):
    game = new_game(server, ["human", "beginner"])
    page.goto(f"{server}/?anim=0#/game/{game}")
    page.wait_for_selector(f"{READY}[data-human-to-move='true']")
    page.click("#btn-hint")
    page.wait_for_selector("#board .pit.hint", timeout=15000)
    page.check("#analysis-toggle")
    page.wait_for_selector("#analysis [data-exact]", timeout=15000)
    play_out(page)
    page.goto(f"{server}/?anim=0#/review/{game}")
    page.wait_for_selector("#view-review[data-state='done']", timeout=60000)
    assert page.locator("#view-review li[data-move]").count() == len(
        httpx.get(f"{server}/api/games/{game}/record").json()["moves"]
    )
    assert engine_requests(page) == []


def test_the_lab_traces_in_the_browser(page, server):
    page.goto(f"{server}/lab")
    page.wait_for_selector("html[data-engine='browser']")
    page.click("#run")
    page.wait_for_function(
        "() => Number(document.querySelector('[data-node-count]').dataset.nodeCount) > 0", timeout=20000
    )
    page.wait_for_selector("[data-node-id]")
    page.goto(f"{server}/lab/mcts")
    page.wait_for_selector("[data-iteration]", timeout=20000)
    page.wait_for_selector("svg#mcts-tree [data-node-id]")
    assert engine_requests(page) == []


def test_without_an_engine_in_the_page_the_server_thinks_and_the_page_says_so(page, server):
    game = new_game(server, ["human", "medium"])
    page.goto(f"{server}/?anim=0&engine=server#/game/{game}")
    page.wait_for_selector("html[data-engine='server']")
    assert "on the server" in page.locator("#engine-note").inner_text()
    page.wait_for_selector(f"{READY}[data-human-to-move='true']")
    page.locator("#board .pit.legal").last.click()
    page.wait_for_function("() => Number(document.querySelector('#board').dataset.moves) >= 2", timeout=30000)
    assert any("/computer-move" in url for url in engine_requests(page))
