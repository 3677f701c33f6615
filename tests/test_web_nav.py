"""One navigation bar on every page (Chromium, Playwright, at desktop and phone widths): the same links in the
same order, the page shown marked, the bar within the screen. Each page had its own bar: the lab's had no
Puzzles, the live page's no Lab, the board page's no MCTS."""

from __future__ import annotations

import os
import re
from pathlib import Path

import httpx
import pytest

from test_web_browser import CHROMIUM, browser, server, shot  # noqa: F401  (the shared fixtures)

STATIC_DIR = Path(__file__).resolve().parents[1] / "src" / "kalah" / "web" / "static"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing"),
]

LINKS = [
    ("new", "New game"),
    ("play", "Play"),
    ("puzzles", "Puzzles"),
    ("friend", "Play a friend"),
    ("lobby", "Lobby"),
    ("library", "Library"),
    ("lab", "Lab"),
    ("mcts", "MCTS"),
]

BAR = """() => {
    const bar = document.querySelector('header.topbar'), box = bar.getBoundingClientRect();
    return {height: box.height, wide: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        links: [...bar.querySelectorAll('nav a')].map((a) => {
            const r = a.getBoundingClientRect();
            return {name: a.dataset.nav, text: a.textContent, current: a.getAttribute('aria-current'),
                marked: a.classList.contains('current'), left: r.left, right: r.right, height: r.height};
        })};
}"""


def test_every_page_of_the_site_loads_the_shared_bar():
    """A page added later gets the bar too: every HTML page of the site has the empty header nav.js fills, and
    no bar of its own."""
    pages = sorted(STATIC_DIR.rglob("*.html"))
    assert {p.relative_to(STATIC_DIR).as_posix() for p in pages} == {
        "index.html",
        "lab.html",
        "live.html",
        "lab/mcts.html",
    }
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert '<header class="topbar"></header>' in text and "<nav" not in text, page.name
        module = re.search(r'<script type="module" src="/static/([\w/]+\.js)"', text).group(1)
        assert "mountNav();" in (STATIC_DIR / module).read_text(encoding="utf-8"), module


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)])
def test_every_page_has_the_same_bar_with_its_page_marked(browser, server, width, height):  # noqa: F811
    game = httpx.post(f"{server['url']}/api/games", json={"players": ["random:seed=1", "random:seed=2"]}).json()
    pages = [
        ("/", "play"),
        (f"/#/game/{game['id']}", "play"),
        ("/#/puzzles", "puzzles"),
        ("/#/library", "library"),
        (f"/#/replay/{game['id']}", "library"),
        ("/#/review/999999", "library"),  # a missing game: the view says so, under the same bar
        ("/live#/new", "friend"),
        ("/live#/lobby", "lobby"),
        ("/lab", "lab"),
        ("/lab/mcts", "mcts"),
    ]
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    for path, current in pages:
        page.goto("about:blank")
        page.goto(server["url"] + path)
        page.wait_for_selector("header.topbar nav a[aria-current='page']")
        bar = page.evaluate(BAR)
        if path in ("/", "/lab"):
            shot(page, f"nav-{path.strip('/') or 'play'}-{width}")
        assert [(link["name"], link["text"]) for link in bar["links"]] == LINKS, path
        assert [link["name"] for link in bar["links"] if link["current"] == "page"] == [current], path
        assert [link["name"] for link in bar["links"] if link["marked"]] == [current], path
        assert bar["wide"] <= 0, f"{path} is {bar['wide']} px wider than the screen"
        assert all(0 <= link["left"] and link["right"] <= width for link in bar["links"]), path
        # a tap target each, and on a phone two rows at most (three took a fifth of the screen)
        assert min(link["height"] for link in bar["links"]) >= 30, path
        assert bar["height"] <= (100 if width < 500 else 70), (path, bar["height"])
    # within the board page the mark follows the view
    page.goto(server["url"] + "/")
    page.wait_for_selector("header.topbar nav a[aria-current='page'][data-nav='play']")
    page.click("#nav-library")
    page.wait_for_selector("header.topbar nav a[aria-current='page'][data-nav='library']")
    assert page.locator("header.topbar nav a[aria-current='page']").count() == 1
    context.close()
    assert not errors, errors


def test_new_game_from_another_page_opens_the_dialog_on_the_board_page(browser, server):  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{server['url']}/lab")
    page.click("#btn-new")
    page.wait_for_selector("dialog#dlg-new[open]")
    assert re.search(r"/#/$", page.url), page.url  # the dialog opens once: a reload does not bring it back
    page.click("#ng-cancel")
    # on the board page the same link opens the dialog in place, without going anywhere
    page.click("#btn-new")
    page.wait_for_selector("dialog#dlg-new[open]")
    assert re.search(r"/#/$", page.url), page.url
    context.close()
