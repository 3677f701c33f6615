"""A board people enjoy on every screen (issue 48), in Debian's Chromium: the phone's layout, play by keyboard
alone, no serious accessibility fault (axe-core) on any page at a phone's and a desktop's width, the library's
first click after typing, the New game dialog left behind, and screenshots at 360, 390, 768 and 1280 px
(tests/artifacts/screen-*.png: look at them after a change to the page).

axe-core comes from npm, outside the repository (`.ci/run` installs it into its cache of Node tools, as it
does TypeScript); where it is missing, the accessibility tests skip and say so.
"""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from test_web_browser import ARTIFACTS, CHROMIUM, READY, browser, server  # noqa: F401  (the shared fixtures)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

#: Where npm put axe-core: $KALAH_NODE_TOOLS (set by .ci/run), the cache .ci/run uses, or the repository's own.
TOOLS = [
    Path(os.environ.get("KALAH_NODE_TOOLS", "/nonexistent")),
    Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "kalah-ci-node",
    Path(__file__).resolve().parents[1],
]
AXE = next(
    (
        tools / "node_modules/axe-core/axe.min.js"
        for tools in TOOLS
        if (tools / "node_modules/axe-core/axe.min.js").is_file()
    ),
    None,
)

SIZES = {360: 640, 390: 844, 768: 1024, 1280: 800}


def new_page(browser, width, height=None, reduced_motion=False):  # noqa: F811
    phone = width < 600
    context = browser.new_context(
        viewport={"width": width, "height": height or SIZES.get(width, 900)},
        device_scale_factor=2 if phone else 1,
        is_mobile=phone,
        has_touch=phone,
        reduced_motion="reduce" if reduced_motion else "no-preference",
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"screen-{name}.png"), full_page=True)


def finished_game(server, players=("random:seed=3", "random:seed=4"), **variant) -> dict:  # noqa: F811
    game = httpx.post(f"{server['url']}/api/games", json={"players": list(players), "variant": variant}).json()
    while not game["over"]:
        game = httpx.post(f"{server['url']}/api/games/{game['id']}/computer-move", json={"moves": game["moves"]}).json()
    return game


def box(page, selector: str) -> dict:
    return page.eval_on_selector(
        selector, "e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }"
    )


TARGETS = """() => [...document.querySelectorAll('#board [data-pit]')].map((pit) => {
    const cup = pit.querySelector('.cup').getBoundingClientRect(), hit = pit.querySelector('.hit').getBoundingClientRect();
    return {pit: pit.dataset.pit, cup: Math.min(cup.width, cup.height), hitW: hit.width, hitH: hit.height};
})"""


@pytest.mark.parametrize("width", [360, 390])
def test_on_a_phone_every_pit_is_a_finger_wide_and_the_banner_in_sight(browser, server, width):  # noqa: F811
    """At 390 px the pits were 36 px across and the end banner wrapped ("wins 39 –" / "9") over the board."""
    game = finished_game(server, ("random:seed=5", "random:seed=6"))
    context, page, errors = new_page(browser, width)
    page.goto(f"{server['url']}/?anim=0")
    page.wait_for_selector(READY)
    assert page.get_attribute("#board", "data-upright") == "true"  # under about 500 px the board stands up
    for target in page.evaluate(TARGETS):
        assert target["cup"] >= 44 and target["hitW"] >= 44 and target["hitH"] >= 44, target
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"board-{width}")
    page.goto(f"{server['url']}/?anim=0#/replay/{game['id']}")
    page.wait_for_selector("#rp-slider")
    page.click("#rp-last")
    page.wait_for_selector("#banner:not([hidden])")
    if width < 390:  # 360 x 640: the result is a thumb's scroll away, under the board
        page.eval_on_selector("#banner", "e => e.scrollIntoView({block: 'nearest'})")
    banner, board = box(page, "#banner"), box(page, "#board")
    assert 0 <= banner["x"] and banner["x"] + banner["w"] <= width
    assert banner["y"] >= 0 and banner["y"] + banner["h"] <= SIZES[width]
    # never over the board (the last move is on it), and the score on one line
    assert banner["y"] >= board["y"] + board["h"] or banner["y"] + banner["h"] <= board["y"]
    score = page.eval_on_selector("#banner .nowrap", "e => e.getClientRects().length")
    assert score == 1
    shot(page, f"result-{width}")
    context.close()
    assert not errors, errors


def test_a_long_name_wraps_the_banner_but_never_its_score(browser, server):  # noqa: F811
    context, page, errors = new_page(browser, 390)
    page.goto(f"{server['url']}/?anim=0")
    page.wait_for_selector(READY)
    page.evaluate("""async () => { const { showBanner } = await import('/static/dom.js');
        showBanner('Someone with a name of thirty wins 39 – 9', 'result'); }""")
    lines = page.eval_on_selector("#banner .nowrap", "e => e.getClientRects().length")
    assert lines == 1 and page.inner_text("#banner .nowrap") == "39 – 9"
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("width", [360, 390, 768, 1280])
def test_screenshots_of_every_page_at_every_width(browser, server, width):  # noqa: F811
    """Pictures to look at by eye (tests/artifacts/screen-*.png); nothing scrolls sideways."""
    game = finished_game(server)
    context, page, errors = new_page(browser, width)
    for name, path, ready in [
        ("board", "/?anim=0", READY),
        ("library", "/#/library", "#library tbody tr"),
        ("puzzles", "/#/puzzles", "#pz-board [data-pit]"),
        ("replay", f"/?anim=0#/replay/{game['id']}", "#rp-slider"),
        ("live-new", "/live#/new", "#lv-invite"),
        ("lobby", "/live#/lobby", "#challenges li"),
        ("lab", "/lab", "#board [data-pit], svg [data-pit]"),
    ]:
        page.goto(server["url"] + path)
        page.wait_for_selector(ready, timeout=30_000)
        shot(page, f"{name}-{width}")
        wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert wide <= 0, f"{path} is {wide} px wider than a {width} px screen"
    context.close()
    assert not errors, errors


def test_a_whole_game_by_keyboard_alone_with_its_moves_announced(browser, server):  # noqa: F811
    """Tab reaches the pits that can be played, each labelled ("pit C, 4 seeds"); Enter plays; a screen reader
    hears each move (#announce, a live region)."""
    context, page, errors = new_page(browser, 1280)
    page.goto(f"{server['url']}/?anim=0")
    page.wait_for_selector(READY)
    # from the top of the page, Tab until a pit has the focus
    for _ in range(40):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.dataset ? document.activeElement.dataset.pit || '' : ''")
        if focused:
            break
    assert focused == "0-0", focused
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "pit A, 4 seeds"
    assert page.evaluate("document.activeElement.getAttribute('role')") == "button"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # pit C: its last seed lands in the store, an extra turn
    assert page.evaluate("document.activeElement.dataset.pit") == "0-2"
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#announce').textContent.includes('played C')")
    assert "an extra turn" in page.inner_text("#announce")
    page.wait_for_selector(f'{READY}[data-moves="1"]')
    page.keyboard.press("f")  # a pit's letter plays it too
    page.wait_for_function("Number(document.querySelector('#board').dataset.moves) >= 3")
    page.wait_for_selector(READY)
    page.wait_for_function("/played [a-f]/.test(document.querySelector('#announce').textContent)")  # the computer's
    announced = page.inner_text("#announce")
    assert announced.endswith(".")
    context.close()
    assert not errors, errors


def test_the_first_click_after_typing_in_the_librarys_filter_lands(browser, server):  # noqa: F811
    """Typing filtered the table on each key, and the field's change event (on the blur that the click makes)
    rebuilt it under the pointer: the click landed on a row that was gone."""
    game = finished_game(server)
    name = game["players"][0]["name"]
    context, page, errors = new_page(browser, 1280)
    page.goto(f"{server['url']}/#/library")
    page.wait_for_selector(f"#library tr[data-game='{game['id']}']")
    page.locator("#lib-player").press_sequentially(name[:4], delay=20)
    page.click(f"#library tr[data-game='{game['id']}'] a.replay")
    page.wait_for_function(f"location.hash === '#/replay/{game['id']}'", timeout=5_000)
    page.goto(f"{server['url']}/#/library")
    page.wait_for_selector(f"#library tr[data-game='{game['id']}']")
    page.locator("#lib-player").press_sequentially("zzz-nobody", delay=10)
    assert page.get_attribute("#library", "data-shown") == "0"
    assert page.is_visible("#library tbody tr.empty")
    page.fill("#lib-player", "")
    assert int(page.get_attribute("#library", "data-shown")) >= 1
    context.close()
    assert not errors, errors


def test_the_new_game_dialog_closes_when_the_address_goes_to_a_review(browser, server):  # noqa: F811
    game = finished_game(server, pits=3, seeds=2)
    context, page, errors = new_page(browser, 1280)
    page.goto(f"{server['url']}/?anim=0#/new")
    page.wait_for_selector("dialog#dlg-new[open]")
    page.evaluate(f"location.hash = '#/review/{game['id']}'")
    page.wait_for_selector("#view-review:not([hidden])")
    assert not page.evaluate("document.querySelector('#dlg-new').open")
    context.close()
    assert not errors, errors


def test_reduced_motion_turns_the_sowing_animation_off(browser, server):  # noqa: F811
    context, page, errors = new_page(browser, 1280, reduced_motion=True)
    page.goto(f"{server['url']}/")
    page.wait_for_selector(READY)
    assert page.input_value("#anim") == "0"
    context.close()
    context, page, errors = new_page(browser, 1280)
    page.goto(f"{server['url']}/")
    page.wait_for_selector(READY)
    assert page.input_value("#anim") == "170"
    context.close()
    assert not errors, errors


def axe_findings(page) -> list[dict]:
    """The serious and critical violations axe-core finds on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate("""async () => {
        const found = await axe.run(document, { resultTypes: ['violations'] });
        return found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ')) }));
    }""")


@pytest.mark.skipif(AXE is None, reason="axe-core is not installed (npm install axe-core; .ci/run does)")
@pytest.mark.parametrize("width", [390, 1280])
def test_no_page_has_a_serious_accessibility_fault(browser, server, width):  # noqa: F811
    game = finished_game(server, ("random:seed=7", "random:seed=8"), pits=4, seeds=3)
    live = httpx.post(f"{server['url']}/api/live/games", json={"name": "Ann"}).json()
    context, page, errors = new_page(browser, width)
    found = {}
    for name, path, ready in [
        ("board", "/?anim=0", READY),
        ("new game", "/?anim=0#/new", "dialog#dlg-new[open]"),
        ("library", "/#/library", "#library tbody tr"),
        ("puzzles", "/#/puzzles", "#pz-board [data-pit]"),
        ("replay", f"/?anim=0#/replay/{game['id']}", "#rp-slider"),
        ("review", f"/#/review/{game['id']}", "#view-review[data-state='done']"),
        ("play a friend", "/live#/new", "#lv-invite"),
        ("lobby", "/live#/lobby", "#challenges li"),
        ("live game", f"/live?anim=0#/watch/{live['game_id']}", "#board [data-pit]"),
        ("lab", "/lab", "svg [data-pit]"),
        ("mcts", "/lab/mcts", "svg [data-pit]"),
    ]:
        page.goto(server["url"] + path)
        page.wait_for_selector(ready, timeout=60_000)
        faults = axe_findings(page)
        if faults:
            found[name] = faults
    context.close()
    assert not found, found
    assert not errors, errors


@pytest.mark.parametrize(
    ("path", "ready"),
    [("/", READY), ("/live#/new", "#lv-invite"), ("/lab", "svg [data-pit]"), ("/lab/mcts", "svg [data-pit]")],
)
def test_every_module_a_page_loads_is_preloaded_at_once(browser, server, path, ready):  # noqa: F811
    """The modules came one level of imports after another, a round trip each on a phone's network: each page
    names them all in its head (kalah.web.pages), made from their imports, so a new import needs no list."""
    context, page, errors = new_page(browser, 1280)
    loaded: set[str] = set()
    page.on(
        "request",
        lambda request: loaded.add(request.url.split("/static/", 1)[1]) if request.url.endswith(".js") else None,
    )
    page.goto(server["url"] + path)
    page.wait_for_selector(ready, timeout=30_000)
    preloaded = set(
        page.eval_on_selector_all('link[rel="modulepreload"]', "ls => ls.map(l => l.getAttribute('href').slice(8))")
    )
    # the engine's worker (kalah in the browser) fetches its own modules in its own realm, which the page's
    # preloads would not serve: they are the worker's to load, when the page starts its engine
    from kalah.web.pages import module_graph

    loaded -= set(module_graph("engine/worker.js")) - preloaded
    assert loaded and preloaded == loaded, (sorted(loaded - preloaded), sorted(preloaded - loaded))
    context.close()
    assert not errors, errors


def test_a_replays_analysis_says_whose_value_it_is(browser, server):  # noqa: F811
    """Replay said "value +5" without saying for whom."""
    game = finished_game(server, ("random:seed=21", "random:seed=22"), pits=4, seeds=3)
    context, page, errors = new_page(browser, 1280)
    page.goto(f"{server['url']}/?anim=0#/replay/{game['id']}")
    page.wait_for_selector("#rp-slider")
    page.click("#rp-next")
    page.check("#analysis-toggle")
    page.wait_for_function("/Value for /.test(document.querySelector('#analysis').textContent)", timeout=20_000)
    text = page.inner_text("#analysis")
    names = [p["name"] for p in game["players"]]
    assert any(f"Value for {name} (to move):" in text for name in names), text
    context.close()
    assert not errors, errors


#: Every layout shift the page makes, as Chromium reports them (Lighthouse's CLS adds the same entries up).
SHIFTS = """window.__shifts = [];
new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__shifts.push(entry.value); })
  .observe({ type: "layout-shift", buffered: true });"""


@pytest.mark.parametrize(
    ("path", "ready"),
    [
        ("/", READY),
        ("/#/library", "#library[data-shown]"),
        ("/#/puzzles", "#pz-choices button"),
        ("/lab", "svg [data-pit]"),
        ("/live#/watch/{four}", "#board [data-pit]"),
        ("/live#/watch/{six}", "#board [data-pit]"),
    ],
)
def test_nothing_seen_moves_while_a_page_loads_on_a_phone(browser, server, path, ready):  # noqa: F811
    """Lighthouse's phone scored the live page 90 for a layout shift of 0.2: the board's room was kept for six
    pits upright, and a four-pit game is drawn flat and lower, so all under it moved up. Both sizes of game,
    and every page, at Lighthouse's phone width."""
    games = {}
    for name, pits in (("four", 4), ("six", 6)):
        made = httpx.post(f"{server['url']}/api/live/games", json={"variant": {"pits": pits, "seeds": 3}}).json()
        games[name] = made["game_id"]
    context, page, errors = new_page(browser, 412, 823)
    page.add_init_script(SHIFTS)
    page.goto(server["url"] + path.format(**games))
    page.wait_for_selector(ready, timeout=30_000)
    page.wait_for_timeout(500)
    shifts = page.evaluate("window.__shifts")
    context.close()
    assert sum(shifts) < 0.01, shifts
    assert not errors, errors
