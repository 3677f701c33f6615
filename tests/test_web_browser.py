"""End-to-end tests of the browser board: Debian's Chromium, headless, driven by Playwright.

Screenshots go to tests/artifacts/ (look at them after a change to the page).
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from helpers import app_in_thread

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

READY = '#board[data-busy="false"][data-human-to-move="true"]'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from kalah.web import create_app

    db = tmp_path_factory.mktemp("web") / "games.sqlite"
    with app_in_thread(create_app(db, workers=1, pool="thread")) as url:
        yield {"url": url, "db": db}


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    outside: list[str] = []
    page.on(
        "request",
        lambda request: (
            outside.append(request.url) if not request.url.startswith(("http://127.0.0.1", "data:", "blob:")) else None
        ),
    )
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"
    assert not outside, f"the page loaded from outside: {outside}"


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def board_state(page) -> dict:
    """The board as its data attributes tell it."""
    return page.evaluate("""() => {
        const svg = document.querySelector('#board');
        const pits = {}, stores = {};
        for (const pit of svg.querySelectorAll('[data-pit]')) pits[pit.dataset.pit] = Number(pit.dataset.seeds);
        for (const store of svg.querySelectorAll('[data-store]')) stores[store.dataset.store] = Number(store.dataset.seeds);
        return {toMove: Number(svg.dataset.toMove), over: svg.dataset.over === 'true', pits, stores,
                game: Number(svg.dataset.game), moves: Number(svg.dataset.moves || 0)};
    }""")


def api_state(server, game_id: int) -> dict:
    import httpx

    return httpx.get(f"{server['url']}/api/games/{game_id}").json()


def matches_server(view: dict, state: dict) -> bool:
    board = state["board"]
    m = len(board[0]) - 1
    return (
        view["toMove"] == state["to_move"]
        and view["over"] == state["over"]
        and all(view["pits"][f"{p}-{i}"] == board[p][i] for p in (0, 1) for i in range(m))
        and all(view["stores"][str(p)] == board[p][m] for p in (0, 1))
    )


def start_game(page, server, players, variant=None, anim="0", speed=0):
    """A new game through the New game dialog."""
    page.goto(f"{server['url']}/?anim={anim}&speed={speed}")
    page.wait_for_selector('#board[data-busy="false"]')
    page.click("#btn-new")
    if variant:
        page.select_option("#ng-pits", str(variant.get("pits", 6)))
        page.select_option("#ng-seeds", str(variant.get("seeds", 4)))
    for p, player in enumerate(players):
        if player in ("human",) or player in [
            o for o in page.eval_on_selector_all(f"#ng-p{p} option", "os => os.map(o => o.value)")
        ]:
            page.select_option(f"#ng-p{p}", player)
        else:
            page.select_option(f"#ng-p{p}", "custom")
            page.fill(f"#ng-p{p}-spec", player)
    old = page.evaluate("() => location.hash")
    page.click("#ng-start")
    page.wait_for_function("old => location.hash !== old && /#\\/game\\/\\d+/.test(location.hash)", arg=old)
    game_id = int(page.evaluate("() => location.hash.match(/\\d+/)[0]"))
    page.wait_for_selector(f'#board[data-game="{game_id}"]')
    return game_id


def test_fresh_page_is_a_game_against_the_computer(page, server):
    import httpx

    stored_before = len(httpx.get(server["url"] + "/api/games").json())
    page.goto(server["url"] + "/")
    page.wait_for_selector(READY)
    assert len(httpx.get(server["url"] + "/api/games").json()) == stored_before  # a visit stores no empty game
    view = board_state(page)
    assert view["toMove"] == 0 and not view["over"]
    assert view["pits"] == {f"{p}-{i}": 4 for p in (0, 1) for i in range(6)}
    assert view["stores"] == {"0": 0, "1": 0}
    assert page.locator("#board .pit.legal").count() == 6
    assert "computer" in page.locator("#panel-top").inner_text().lower()
    shot(page, "board_start")
    # keyboard: pit letter C sows into the store and gives an extra turn (animated at the default speed)
    page.keyboard.press("c")
    page.wait_for_selector("#board[data-busy='true']", timeout=5000)
    page.wait_for_selector(READY, timeout=15000)
    view = board_state(page)
    assert view["stores"]["0"] == 1 and view["pits"]["0-2"] == 0 and view["toMove"] == 0
    assert matches_server(view, api_state(server, view["game"]))
    assert page.url.endswith(f"#/game/{view['game']}")  # stored by its first move, and addressable
    assert len(httpx.get(server["url"] + "/api/games").json()) == stored_before + 1


def test_play_a_whole_game_against_the_computer_then_find_and_replay_it(page, server):
    start_game(page, server, ["human", "beginner"])
    game_id = board_state(page)["game"]
    clicks = 0
    while True:
        page.wait_for_function(
            "() => { const b = document.querySelector('#board');"
            " return b.dataset.busy === 'false' && (b.dataset.humanToMove === 'true' || b.dataset.over === 'true'); }",
            timeout=20000,
        )
        view = board_state(page)
        assert matches_server(view, api_state(server, game_id))
        if view["over"]:
            break
        before = view["moves"]
        page.locator("#board .pit.legal").last.click()
        clicks += 1
        page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.moves) > {before}")
        if clicks == 3:
            shot(page, "board_midgame")
    assert clicks > 3
    banner = page.locator("#banner")
    assert banner.is_visible()
    text = banner.inner_text()
    state = api_state(server, game_id)
    assert state["over"] and f"{max(state['scores'])} – {min(state['scores'])}" in text
    shot(page, "board_finished")

    # reload: the game is in the library
    page.reload()
    page.wait_for_selector('#board[data-busy="false"]')
    page.click("#nav-library")
    row = page.locator(f"#library tr[data-game='{game_id}']")
    row.wait_for()
    assert row.get_attribute("data-status") == "finished"
    assert "Human vs Computer (beginner)" in row.inner_text()
    shot(page, "library")

    # replay it: step, jump, autoplay
    row.locator("a.replay").click()
    page.wait_for_selector("#board[data-replay-index='0'][data-busy='false']")
    start = board_state(page)
    assert start["pits"]["0-0"] == 4 and start["stores"] == {"0": 0, "1": 0}
    page.click("#rp-next")
    page.wait_for_selector("#board[data-replay-index='1'][data-busy='false']")
    page.keyboard.press("End")
    page.wait_for_selector("#board[data-busy='false'][data-over='true']")
    final = board_state(page)
    assert matches_server(final, state)
    page.keyboard.press("Home")
    page.wait_for_selector("#board[data-replay-index='0']")
    shot(page, "replay")


def test_computer_against_computer_with_pause(page, server):
    start_game(page, server, ["beginner", "random:seed=7"], variant={"pits": 4, "seeds": 3}, speed=1500)
    page.wait_for_selector("#btn-pause:visible")
    page.click("#btn-pause")
    assert "Resume" in page.locator("#btn-pause").inner_text()
    paused_at = board_state(page)["moves"]
    time.sleep(0.5)
    page.wait_for_selector('#board[data-busy="false"]')
    assert board_state(page)["moves"] <= paused_at + 1
    page.eval_on_selector("#speed", "input => { input.value = '0'; }")  # full speed to the end
    page.click("#btn-pause")
    page.wait_for_selector('#board[data-over="true"][data-busy="false"]', timeout=30000)
    view = board_state(page)
    assert sum(view["stores"].values()) == 24 and len(view["pits"]) == 8
    assert matches_server(view, api_state(server, view["game"]))
    shot(page, "computer_vs_computer")


def test_take_back_redo_and_analysis(page, server):
    start_game(page, server, ["human", "beginner"])
    page.wait_for_selector(READY)
    page.locator("#board [data-pit='0-0']").click()
    page.wait_for_function("() => Number(document.querySelector('#board').dataset.moves) >= 2")
    page.wait_for_selector(READY)
    page.click("#btn-takeback")
    page.wait_for_function("() => document.querySelector('#board').dataset.moves === '0'")
    assert board_state(page)["pits"]["0-0"] == 4
    page.click("#btn-redo")
    page.wait_for_function("() => Number(document.querySelector('#board').dataset.moves) >= 2")
    page.wait_for_selector(READY)
    page.check("#analysis-toggle")
    page.wait_for_function("() => !/Thinking/.test(document.querySelector('#analysis').textContent)", timeout=15000)
    text = page.locator("#analysis").inner_text()
    assert "Value" in text or "unavailable" in text
    if "Value" in text:
        page.wait_for_selector("#board .value")
        page.click("#btn-hint")
        page.wait_for_selector("#board .pit.hint", timeout=15000)
    shot(page, "analysis")


def test_import_a_record_in_the_library(page, server, tmp_path):
    import httpx

    state = httpx.post(f"{server['url']}/api/games", json={"players": ["random:seed=1", "random:seed=2"]}).json()
    while not state["over"]:
        state = httpx.post(
            f"{server['url']}/api/games/{state['id']}/computer-move", json={"moves": state["moves"]}
        ).json()
    record = httpx.get(f"{server['url']}/api/games/{state['id']}/record").json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    page.goto(f"{server['url']}/#/library")
    page.wait_for_selector("#library tbody tr")
    page.set_input_files("#import-file", str(path))
    page.wait_for_function("() => /Imported as game/.test(document.querySelector('#library-message').textContent)")


@pytest.mark.parametrize("path, operation", [("/docs", ".opblock"), ("/redoc", "[data-section-id]")])
def test_the_api_documentation_renders_without_the_internet(browser, server, path, operation):
    context = browser.new_context()
    page = context.new_page()
    fetched: list[str] = []  # what the browser got from outside (a request the page's policy blocks is not fetched)
    page.on(
        "requestfinished",
        lambda request: (
            fetched.append(request.url) if not request.url.startswith(("http://127.0.0.1", "data:", "blob:")) else None
        ),
    )
    page.route(
        "**/*", lambda route: route.continue_() if route.request.url.startswith("http://127.0.0.1") else route.abort()
    )  # as on a machine without the internet
    response = page.goto(server["url"] + path)
    assert response is not None and "default-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector(operation, timeout=20_000)
    assert page.locator(operation).count() >= 5  # the operations of the API, drawn by bundled scripts
    context.close()
    assert fetched == []


def test_redoc_asks_no_cdn_for_its_logo(browser, server):
    """ReDoc's footer named a logo on cdn.redoc.ly: the policy blocked it, but the browser still asked.
    Now no image, script or style of the page names another host (issue 32, item 7)."""
    import httpx

    assert "cdn.redoc.ly" not in httpx.get(server["url"] + "/redoc-local.js").text
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    refused: list[str] = []
    page.on(
        "console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None
    )
    page.goto(server["url"] + "/redoc")
    page.wait_for_selector("[data-section-id]", timeout=20_000)
    page.wait_for_timeout(500)
    shot(page, "redoc")
    addresses = page.evaluate("""() => [...document.querySelectorAll('img[src], script[src], link[href]')]
        .map(e => e.src || e.href)""")
    context.close()
    assert addresses and all(a.startswith((server["url"], "data:")) for a in addresses), addresses
    assert refused == [], refused


def test_no_page_scrolls_sideways_on_a_phone(browser, server):
    import httpx

    game = httpx.post(f"{server['url']}/api/games", json={"players": ["random:seed=3", "random:seed=4"]}).json()
    while not game["over"]:
        game = httpx.post(f"{server['url']}/api/games/{game['id']}/computer-move", json={"moves": game["moves"]}).json()
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    for path, ready in [("/", READY), ("/#/library", "#library tbody tr"), (f"/#/replay/{game['id']}", "#rp-slider")]:
        page.goto(server["url"] + path)
        page.wait_for_selector(ready, timeout=20_000)
        wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        shot(page, f"phone-{path.strip('/#').replace('/', '-') or 'board'}")
        assert wide <= 0, f"{path} is {wide} px wider than a 390 px phone"
    page.click("#btn-new")
    dialog = page.wait_for_selector("dialog[open]", timeout=5_000).bounding_box()
    shot(page, "phone-new-game")
    assert dialog is not None and dialog["x"] >= 0 and dialog["x"] + dialog["width"] <= 390  # the dialog fits
    context.close()


#: The board's labels as drawn on the screen, in CSS pixels: pit letters, seed counts and analysis values (each tag's
#: rounded rect and its text), and the outline of the row to move (null when the game is over).
LABELS = """() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
    const svg = document.querySelector('#board');
    const glow = svg.querySelector('.turn-glow');
    return {
        letters: [...svg.querySelectorAll('.letter')].map((e) => ({text: e.textContent, display: getComputedStyle(e).display,
                                                                   ...box(e)})),
        tags: [...svg.querySelectorAll('.count, .value')].map((e) => ({kind: e.getAttribute('class'), text: e.textContent,
                                                                      ...box(e.querySelector('rect')), font: box(e.querySelector('text'))})),
        glow: glow && box(glow), board: box(svg), width: document.documentElement.clientWidth,
    };
}"""


def overlap(a: dict, b: dict, margin: float = 0) -> bool:
    """Whether two boxes overlap, or come within `margin` of each other."""
    return (
        a["left"] < b["right"] + margin
        and b["left"] < a["right"] + margin
        and a["top"] < b["bottom"] + margin
        and b["top"] < a["bottom"] + margin
    )


def assert_clear_of_the_outline(labels: dict) -> None:
    """Every pit letter lies wholly inside or wholly outside the to-move outline, two pixels from its dashed line."""
    glow, m = labels["glow"], 2
    inner = {"left": glow["left"] + m, "top": glow["top"] + m, "right": glow["right"] - m, "bottom": glow["bottom"] - m}
    for letter in labels["letters"]:
        inside = (
            letter["left"] >= inner["left"]
            and letter["right"] <= inner["right"]
            and letter["top"] >= inner["top"]
            and letter["bottom"] <= inner["bottom"]
        )
        assert inside or not overlap(letter, glow, m), f"letter {letter['text']} is on the outline: {letter} {glow}"


def show_analysis(page) -> None:
    page.check("#analysis-toggle")
    page.wait_for_selector("#board .value", timeout=20_000)


def test_pit_letters_sit_clear_of_the_outline_of_the_row_to_move(page, server):
    page.goto(server["url"] + "/?anim=0")
    page.wait_for_selector(READY)
    show_analysis(page)
    assert_clear_of_the_outline(page.evaluate(LABELS))
    page.click("#btn-flip")  # the side to move at the top
    page.wait_for_selector("#board[data-bottom='1']")
    assert_clear_of_the_outline(page.evaluate(LABELS))


def test_every_label_is_readable_on_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(server["url"] + "/?anim=0")
    page.wait_for_selector(READY)
    show_analysis(page)
    for flipped in (False, True):
        if flipped:
            page.click("#btn-flip")
            page.wait_for_selector("#board[data-bottom='1'] .value")
        shot(page, "phone-analysis" + ("-flipped" if flipped else ""))
        labels = page.evaluate(LABELS)
        board, letters, tags = labels["board"], labels["letters"], labels["tags"]
        assert sorted(letter["text"] for letter in letters) == list("ABCDEFabcdef")
        for letter in letters:  # both rows' letters, on the board and on the screen, large enough to read
            assert letter["display"] != "none", letter
            assert board["left"] <= letter["left"] and letter["right"] <= board["right"] <= labels["width"], letter
            assert board["top"] <= letter["top"] and letter["bottom"] <= board["bottom"], letter
            assert letter["bottom"] - letter["top"] >= 12, letter
        assert sum(tag["kind"].startswith("value") for tag in tags) == 6
        for tag in tags:  # seed counts and values
            assert tag["font"]["bottom"] - tag["font"]["top"] >= 12, tag
        boxes = letters + tags
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not overlap(a, b), f"{a} overlaps {b}"
        assert_clear_of_the_outline(labels)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_the_library_shows_older_games_a_page_at_a_time(page, server):
    from kalah import Position
    from kalah.records import GameLibrary, PlayerInfo

    library = GameLibrary(server["db"])
    for _ in range(120):
        library.create_game(Position.start(), [PlayerInfo("Old", "human"), PlayerInfo("Timer", "human")])
    total = len(library.list_games())
    page.goto(f"{server['url']}/#/library")
    page.wait_for_selector("#library tbody tr")
    assert page.locator("#library tbody tr").count() == 100
    while page.locator("#library-more").is_visible():
        shown = page.locator("#library tbody tr").count()
        page.click("#library-more")
        page.wait_for_function(f"() => document.querySelectorAll('#library tbody tr').length > {shown}")
    rows = page.locator("#library tbody tr")
    assert rows.count() == total
    ids = [int(rows.nth(i).get_attribute("data-game")) for i in range(total)]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == total


def test_a_page_of_another_site_can_neither_act_nor_frame(browser, server):
    """A form posted with no body, a no-cors fetch and a frame, from a page served by another origin."""
    import http.server
    import socketserver

    import httpx

    game = httpx.post(f"{server['url']}/api/games", json={"players": ["random:seed=5", "random:seed=6"]}).json()
    target = f"{server['url']}/api/games/{game['id']}/leave"
    evil = f"""<!doctype html><body>
<form id="f" method="post" action="{target}" target="sink"></form><iframe name="sink"></iframe>
<iframe id="framed" src="{server["url"]}/"></iframe>
<script>
  fetch("{target}", {{method: "POST", mode: "no-cors"}}).then(() => document.title = "fetched", () => document.title = "fetched");
  document.getElementById("f").submit();
</script></body>""".encode()

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(evil)))
            self.end_headers()
            self.wfile.write(evil)

        def log_message(self, *args):
            pass

    with socketserver.TCPServer(("127.0.0.1", 0), Evil) as site:
        threading.Thread(target=site.serve_forever, daemon=True).start()
        context = browser.new_context()
        page = context.new_page()
        answers = []
        page.on(
            "response",
            lambda response: answers.append((response.url, response.status)) if response.url == target else None,
        )
        page.goto(f"http://localhost:{site.server_address[1]}/")  # another site: localhost is not 127.0.0.1
        page.wait_for_function("() => document.title === 'fetched'", timeout=15_000)
        page.wait_for_timeout(1000)
        framed = page.frame_locator("#framed").locator("#board")
        assert framed.count() == 0, "the board was drawn inside another site's frame"
        context.close()
        site.shutdown()
    assert answers and all(status == 403 for _, status in answers), answers
    assert httpx.get(f"{server['url']}/api/games/{game['id']}").json()["status"] == "playing"


def test_a_missing_game_shows_no_board_and_no_server_path(page, server):
    """#/replay/999 showed "no game 999 in /path/of/games.sqlite" above the previous game's board; #/game/999
    the same (issue 32, item 3)."""
    import httpx

    game = httpx.post(f"{server['url']}/api/games", json={"players": ["random:seed=3", "random:seed=4"]}).json()
    for route in ("replay", "game"):
        page.goto(f"{server['url']}/#/replay/{game['id']}")
        page.wait_for_selector("#rp-slider")
        page.goto(f"{server['url']}/#/{route}/999")
        page.wait_for_function("() => /no game 999/.test(document.querySelector('#status').textContent)")
        shot(page, f"missing-{route}")
        assert page.inner_text("#status") == "no game 999 in the library"
        assert not page.is_visible("#board-wrap") and not page.is_visible(".player-panel")
        assert page.is_visible("#missing a[href='#/library']")
        assert str(server["db"].parent) not in page.content()
    page.goto(f"{server['url']}/#/replay/{game['id']}")  # and the board comes back for a game that is there
    page.wait_for_selector("#rp-slider")
    assert page.is_visible("#board-wrap") and not page.is_visible("#missing")


def test_a_replay_does_not_congratulate_the_viewer(page, server):
    """The replay of a game a person won said "You win!" to whoever watched it (issue 32, item 3)."""
    import httpx

    from kalah import Position, search

    game = httpx.post(f"{server['url']}/api/games", json={"players": ["human", "random:seed=2"]}).json()
    while not game["over"]:
        if game["human_to_move"]:
            position = Position.from_dict(
                {"board": game["board"], "to_move": game["to_move"], "variant": game["variant"]}
            )
            move = search(position, "pvs", depth=6).best_move
            game = httpx.post(
                f"{server['url']}/api/games/{game['id']}/moves", json={"move": move, "moves": game["moves"]}
            ).json()
        else:
            game = httpx.post(
                f"{server['url']}/api/games/{game['id']}/computer-move", json={"moves": game["moves"]}
            ).json()
    assert game["winner"] == 0, game  # the person won
    page.goto(f"{server['url']}/#/replay/{game['id']}")
    page.wait_for_selector("#rp-slider")
    page.click("#rp-last")
    page.wait_for_function("() => /wins/.test(document.querySelector('#status').textContent)")
    assert "You win" not in page.inner_text("#status") and "You win" not in page.inner_text("#banner")
    assert f"{game['players'][0]['name']} wins" in page.inner_text("#status")


@pytest.mark.parametrize("width", [1280, 390])
def test_a_board_of_12_pits_is_readable_and_playable(browser, server, width):
    """Kalah(12,12): 24 pits and 288 seeds. On a phone its pits were 20 px across side by side: there the board
    stands upright (upright.js), its pits at least 30 px."""
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=width < 500)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    game_id = start_game(page, server, ["human", "random:seed=3"], variant={"pits": 12, "seeds": 12})
    page.wait_for_selector(READY)
    view = board_state(page)
    assert view["pits"] == {f"{p}-{i}": 12 for p in (0, 1) for i in range(12)}
    show_analysis(page)
    page.wait_for_function("document.querySelectorAll('#board .value').length === 12", timeout=30_000)
    shot(page, f"twelve-pits-{width}")
    assert page.get_attribute("#board", "data-upright") == ("true" if width < 500 else "false")
    cups = page.eval_on_selector_all("#board [data-pit] .cup", "cs => cs.map(c => c.getBoundingClientRect().width)")
    assert len(cups) == 24 and min(cups) >= 30, cups
    # upright, the whole board fits a phone's screen: no scrolling to see a store
    assert page.evaluate("document.querySelector('#board').getBoundingClientRect().height") <= 844 * 0.75
    labels = page.evaluate(LABELS)
    board, letters, tags = labels["board"], labels["letters"], labels["tags"]
    assert sorted(letter["text"] for letter in letters) == sorted("ABCDEFGHIJKLabcdefghijkl")
    for letter in letters:
        assert board["left"] <= letter["left"] and letter["right"] <= board["right"] <= labels["width"], letter
        assert letter["bottom"] - letter["top"] >= 12, letter
    for tag in tags:  # 24 pit counts, 2 store counts and 12 values, each large enough to read
        assert tag["font"]["bottom"] - tag["font"]["top"] >= 12, tag
    boxes = letters + tags
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not overlap(a, b), f"{a} overlaps {b}"
    assert_clear_of_the_outline(labels)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.click('#board [data-pit="0-3"] .count')  # pit D: its whole stretch, seed count to letter, answers the tap
    page.wait_for_function("id => fetch('/api/games/' + id).then(r => r.json()).then(s => s.moves > 0)", arg=game_id)
    page.wait_for_selector(READY)
    state = api_state(server, game_id)
    assert state["history"][0] == "D" and sum(state["board"][0]) + sum(state["board"][1]) == 288
    assert matches_server(board_state(page), state)
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_only_this_machines_library_page_deletes_games(browser, server):
    """The server deletes games only for a browser on its own machine; another gets no Delete button."""
    from kalah import Position
    from kalah.records import GameLibrary, PlayerInfo

    library = GameLibrary(server["db"])
    game_id = library.create_game(Position.start(), [PlayerInfo("Keep", "human"), PlayerInfo("Me", "human")])
    # the same browser seen through a proxy that names another client: it is not this machine's
    remote = browser.new_context(extra_http_headers={"X-Real-IP": "192.0.2.7"})
    try:
        page = remote.new_page()
        page.goto(f"{server['url']}/#/library")
        row = page.locator(f"#library tr[data-game='{game_id}']")
        row.wait_for()
        assert row.locator("a.replay").count() == 1 and row.locator("button.delete").count() == 0
    finally:
        remote.close()
    local = browser.new_context()
    try:
        page = local.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{server['url']}/#/library")
        page.locator(f"#library tr[data-game='{game_id}'] button.delete").click()
        page.wait_for_function(
            f"() => /Deleted game {game_id}/.test(document.querySelector('#library-message').textContent)"
        )
    finally:
        local.close()
    assert game_id not in [summary.id for summary in library.list_games()]
