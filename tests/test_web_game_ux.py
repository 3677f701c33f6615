"""The game in the browser as a newcomer meets it (issue 32, item 4): refused clicks explained, the status
while a move travels, Rematch, level summaries in the New game dialog, no empty games left behind, and a
library that lines up and can be searched. Chromium through Playwright, as tests/test_web_browser.py."""

from __future__ import annotations

import os
import time

import httpx
import pytest

from test_web_browser import CHROMIUM, READY, browser, page, server, shot, start_game  # noqa: F401  (shared fixtures)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


def finished_game(server, players, **variant) -> dict:  # noqa: F811
    game = httpx.post(f"{server['url']}/api/games", json={"players": players, "variant": variant}).json()
    while not game["over"]:
        game = httpx.post(f"{server['url']}/api/games/{game['id']}/computer-move", json={"moves": game["moves"]}).json()
    return game


def test_a_click_on_an_empty_or_foreign_pit_says_why_nothing_happens(page, server):  # noqa: F811
    start_game(page, server, ["human", "random:seed=1"])
    page.wait_for_selector(READY)
    page.click('[data-pit="0-2"]')  # C: four seeds, the last in the store: an extra turn, and C is empty
    page.wait_for_selector(READY)
    page.click('[data-pit="0-2"]')
    assert page.inner_text("#status").startswith("Pit C is empty: play one of")
    assert "C is empty" in page.inner_text("#banner")
    page.click('[data-pit="1-0"]')
    assert page.inner_text("#status").startswith("Pit a is not yours")
    page.keyboard.press("c")  # a typed letter is explained the same way
    assert page.inner_text("#status").startswith("Pit C is empty")
    shot(page, "empty-pit")


def test_the_status_does_not_say_your_move_while_your_move_is_animated(page, server):  # noqa: F811
    start_game(page, server, ["human", "random:seed=1"], anim="360")
    page.wait_for_selector(READY)
    page.evaluate("""() => { window.statuses = [];
        new MutationObserver(() => window.statuses.push(document.querySelector('#status').textContent))
          .observe(document.querySelector('#status'), { childList: true, characterData: true, subtree: true }); }""")
    page.click('[data-pit="0-0"]')  # A: four seeds sown one by one, slowly; no extra turn
    page.wait_for_function("() => window.statuses.some((text) => /thinking|plays [a-f]/.test(text))", timeout=20_000)
    statuses = page.evaluate("window.statuses")
    mine = statuses[: next(i for i, text in enumerate(statuses) if "thinking" in text or " plays " in text)]
    assert mine and all(text == "You play A…" for text in mine), statuses  # never "Your move" in between


def test_a_finished_game_offers_a_rematch_with_the_same_players(page, server):  # noqa: F811
    game = finished_game(server, ["random:seed=3", "beginner"], pits=3, seeds=2)
    page.goto(f"{server['url']}/?anim=0#/game/{game['id']}")
    page.wait_for_selector("#btn-rematch:not([hidden])")
    shot(page, "rematch")
    page.click("#btn-rematch")
    page.wait_for_function(f"() => /#\\/game\\/\\d+/.test(location.hash) && location.hash !== '#/game/{game['id']}'")
    rematch_id = int(page.evaluate("() => location.hash.match(/\\d+/)[0]"))
    again = httpx.get(f"{server['url']}/api/games/{rematch_id}").json()
    assert [p["spec"] for p in again["players"]] == [p["spec"] for p in game["players"]]
    assert again["variant"] == game["variant"] and again["players"][1]["level"] == "beginner"


def test_the_new_game_dialog_names_each_level_with_its_strength(page, server):  # noqa: F811
    page.goto(f"{server['url']}/?anim=0")
    page.wait_for_selector('#board[data-busy="false"]')
    page.click("#btn-new")
    page.wait_for_selector("dialog[open]")
    levels = httpx.get(f"{server['url']}/api/info").json()["levels"]
    options = page.eval_on_selector_all("#ng-p1 option", "os => os.map(o => o.textContent)")
    for level in levels:
        if level["available"]:
            assert f"Computer, {level['name']}: {level['summary']}" in options, options
    medium = next(level for level in levels if level["name"] == "medium")
    assert medium["summary"] in page.inner_text("#ng-p1-about")
    assert not page.is_visible("#ng-types-box")  # the block of player types only for a typed spec
    shot(page, "new-game-dialog")
    page.select_option("#ng-p1", "custom")
    assert page.is_visible("#ng-types-box") and page.is_visible("#ng-p1-spec")


def test_a_game_left_before_its_first_move_is_not_kept(page, server):  # noqa: F811
    game_id = start_game(page, server, ["human", "beginner"])
    page.wait_for_selector(READY)
    page.goto(f"{server['url']}/#/library")
    page.wait_for_selector("#library tbody tr")
    # the page that goes tells the server with a beacon, which the library's list may outrun (the pages load
    # their modules at once now): the game is gone once the beacon arrived, and not listed after that
    deadline = time.monotonic() + 10
    while httpx.get(f"{server['url']}/api/games/{game_id}").status_code != 404:
        assert time.monotonic() < deadline, "the game left before its first move is still in the library"
        time.sleep(0.05)
    page.reload()
    page.wait_for_selector("#library tbody tr")
    assert page.locator(f'tr[data-game="{game_id}"]').count() == 0


def test_only_the_page_that_started_a_game_removes_it_by_leaving(browser, page, server):  # noqa: F811
    """The page sends its game's secret when it leaves; another page, which has none, removes nothing."""
    game_id = start_game(page, server, ["human", "beginner"])
    page.wait_for_selector(READY)
    other = browser.new_context().new_page()
    other.goto(f"{server['url']}/#/game/{game_id}")
    other.wait_for_selector(READY)
    other.close()  # pagehide: its beacon, without the secret
    other.context.close()
    time.sleep(0.5)
    assert httpx.get(f"{server['url']}/api/games/{game_id}").json()["status"] == "playing"
    page.close()  # pagehide: the beacon with the secret removes the game even as the page goes
    deadline = time.monotonic() + 10
    while httpx.get(f"{server['url']}/api/games/{game_id}").status_code != 404:
        assert time.monotonic() < deadline, "the game of a closed page is still in the library"
        time.sleep(0.05)


def test_the_library_lines_up_and_filters_by_player_variant_result_and_day(browser, server):  # noqa: F811
    finished_game(server, ["random:seed=11", "random:seed=12"], pits=4, seeds=3)
    finished_game(server, ["beginner", "random:seed=13"], pits=5, seeds=3)
    httpx.post(f"{server['url']}/api/games", json={"players": ["human", "random:seed=14"]})  # in progress
    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        view = context.new_page()
        view.goto(f"{server['url']}/#/library")
        view.wait_for_selector("#library tbody tr[data-game]")
        shot(view, f"library-{width}")
        if width == 1280:  # the action cell is a table cell, in line with the rest of its row
            boxes = view.evaluate("""() => [...document.querySelector('#library tbody tr[data-game]').children]
                .map((td) => { const r = td.getBoundingClientRect(); return [r.top, r.bottom, getComputedStyle(td).display]; })""")
            assert all(box[:2] == boxes[0][:2] and box[2] == "table-cell" for box in boxes), boxes

        def shown(view=view) -> set[str]:
            return set(
                view.eval_on_selector_all("#library tbody tr[data-game]", "rows => rows.map(r => r.dataset.game)")
            )

        every = shown()
        view.fill("#lib-player", "SEED=13")
        assert len(shown()) == 1
        view.fill("#lib-player", "")
        view.select_option("#lib-variant", "Kalah(4,3)")
        assert len(shown()) >= 1 and all(
            "Kalah(4,3)" in text
            for text in view.eval_on_selector_all("#library tbody tr", "rows => rows.map(r => r.textContent)")
        )
        view.select_option("#lib-variant", "")
        view.select_option("#lib-result", "unfinished")
        assert shown() and all(
            status != "finished"
            for status in view.eval_on_selector_all(
                "#library tbody tr[data-game]", "rows => rows.map(r => r.dataset.status)"
            )
        )
        view.select_option("#lib-result", "")
        view.fill("#lib-until", "2000-01-01")
        assert shown() == set() and "No game matches the filters." in view.inner_text("#library tbody")
        view.fill("#lib-until", "")
        assert shown() == every
        wide = view.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert wide <= 0, f"the library is {wide} px wider than the window"
        context.close()
