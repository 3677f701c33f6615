"""``kalah site build DIR``: the board as a static site, which plays with no kalah process.

The site is built by the command, served by ``python -m http.server`` (a plain static file server) and
driven in Chromium: a whole game against the computer, its record exported and read back by the library,
a review, a puzzle, the analysis of a pasted board, the lab, and the same again offline. Nothing but static
files is asked for; the first load, the books aside, is at most 1.5 MB compressed.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from helpers import free_port
from kalah import Position
from kalah.records import GameRecord

CHROMIUM = "/usr/bin/chromium"
READY = '#board[data-busy="false"][data-human-to-move="true"]'
#: The first load's budget (issue 44), the opening books aside.
FIRST_LOAD_BYTES = 1_500_000


def kalah(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kalah", *args], capture_output=True, text=True, timeout=300)


def test_bad_places_for_a_site_are_one_line_and_exit_2(tmp_path):
    (tmp_path / "file").write_text("x")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    for target, words in (
        (tmp_path / "file", "is not a folder"),
        (tmp_path / "other", "holds no site of kalah"),
        (tmp_path / "missing" / "site", "does not exist"),
    ):
        result = kalah("site", "build", str(target))
        assert result.returncode == 2, result
        assert result.stderr.startswith("kalah: error:") and words in result.stderr and result.stderr.count("\n") == 1
    assert (tmp_path / "other" / "notes.txt").read_text() == "mine"


def test_a_site_is_built_whole_and_built_again_in_place(tmp_path):
    site = tmp_path / "site"
    assert kalah("site", "build", str(site)).returncode == 0
    first = json.loads((site / "static" / "site.json").read_text())
    assert first["format"] == "kalah-site" and {level["name"] for level in first["levels"]} >= {"beginner", "perfect"}
    for path in ("index.html", "lab/index.html", "lab/mcts/index.html", "sw.js", "manifest.webmanifest"):
        assert (site / path).is_file(), path
    assert (site / "static" / "engine" / "kalah.wasm").is_file()
    assert (site / "static" / "engine" / "data" / "kalah-6-4.book.json.gz").is_file()
    assert 'data-site="static"' in (site / "lab" / "index.html").read_text()
    assert '"/static/' not in (site / "lab" / "mcts" / "index.html").read_text()  # no address from the root
    (site / "static" / "stale.js").write_text("// left by an earlier build")
    result = kalah("site", "build", str(site))
    assert result.returncode == 0, result.stderr
    assert not (site / "static" / "stale.js").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # nothing of the build left beside it


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site") / "kalah"
    built = kalah("site", "build", str(folder))
    assert built.returncode == 0, built.stderr
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(folder), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 20
    while True:
        try:
            httpx.get(url + "/", timeout=1)
            break
        except httpx.HTTPError:
            assert time.time() < deadline, "python -m http.server did not start"
            time.sleep(0.1)
    yield {"url": url, "folder": folder}
    server.terminate()
    server.wait(10)


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def context(browser):
    """One browser for the module's tests, in order: the games stay in its storage from test to test."""
    context = browser.new_context(viewport={"width": 1100, "height": 900}, accept_downloads=True)
    yield context
    context.close()


@pytest.fixture()
def page(context):
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.requests = []  # type: ignore[attr-defined]
    page.on("request", lambda request: page.requests.append(request.url))  # type: ignore[attr-defined]
    yield page
    page.close()
    assert not errors, f"JavaScript errors: {errors}"
    assert not [url for url in page.requests if "/api/" in url], "the site asked for a server's API"  # type: ignore[attr-defined]


def play_out(page) -> int:
    """Click the last legal pit until the game is over; the moves played."""
    while True:
        page.wait_for_function(
            "() => { const b = document.querySelector('#board');"
            " return b.dataset.busy === 'false' && (b.dataset.humanToMove === 'true' || b.dataset.over === 'true'); }",
            timeout=60000,
        )
        if page.eval_on_selector("#board", "b => b.dataset.over") == "true":
            return int(page.eval_on_selector("#board", "b => b.dataset.moves"))
        before = int(page.eval_on_selector("#board", "b => b.dataset.moves"))
        page.locator("#board .pit.legal").last.click()
        page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.moves) > {before}")


@pytest.mark.browser
def test_a_whole_game_against_the_computer_with_no_kalah_process(page, site, tmp_path):
    page.goto(site["url"] + "/?anim=0")
    page.wait_for_selector("html[data-engine='browser']", state="attached", timeout=30000)
    page.wait_for_selector(READY, timeout=30000)
    first_load = sorted(set(page.requests))  # type: ignore[attr-defined]
    compressed = sum(
        len(gzip.compress(httpx.get(url).content, 6)) for url in first_load if not url.endswith(".book.json.gz")
    )
    assert any(url.endswith("/static/engine/kalah.wasm") for url in first_load)
    assert compressed <= FIRST_LOAD_BYTES, f"the first load is {compressed:,} bytes compressed"
    assert "computer" in page.locator("#panel-top").inner_text().lower()
    moves = play_out(page)
    assert moves >= 10
    banner = page.locator("#banner").inner_text()
    assert "–" in banner
    # the library of this browser holds it; its export is a record the library reads
    page.click("#nav-library")
    row = page.locator("#library tr[data-status='finished']").first
    row.wait_for()
    with page.expect_download() as download:
        row.locator("a.export").click()
    path = tmp_path / "game.json"
    download.value.save_as(path)
    record = GameRecord.from_dict(json.loads(path.read_text()))
    assert len(record.moves) == moves and record.final.is_over
    assert record.players[1].spec == "pvs:depth=6"
    assert all(move.info == {"engine": "browser"} for move in record.moves if move.player == 1)


@pytest.mark.browser
def test_review_puzzles_and_the_lab_with_no_kalah_process(page, site):
    page.goto(site["url"] + "/?anim=0#/library")
    row = page.locator("#library tr[data-status='finished']").first
    row.wait_for()
    row.locator("a.review").click()
    page.wait_for_selector("#view-review[data-state='done']", timeout=120000)
    assert page.locator("#rv-moves li[data-move]").count() > 0
    page.goto(site["url"] + "/#/puzzles")
    page.wait_for_selector("#view-puzzles[data-state='asking']")
    puzzle = page.eval_on_selector("#view-puzzles", "v => v.dataset.puzzle")
    shipped = {p["id"]: p for p in json.loads((site["folder"] / "static" / "puzzles.json").read_text())}
    page.click(f"#pz-choices button[data-choice='{shipped[puzzle]['solution']}']")
    page.wait_for_selector("#view-puzzles[data-state='solved']")
    page.goto(site["url"] + "/lab/")
    page.wait_for_selector("html[data-engine='browser']", state="attached", timeout=30000)
    page.click("#run")
    page.wait_for_function("() => Number(document.querySelector('[data-node-count]').dataset.nodeCount) > 0")
    page.click("#nav-mcts")
    page.wait_for_selector("svg#mcts-tree [data-node-id]", timeout=30000)


@pytest.mark.browser
def test_a_pasted_board_is_analysed(page, site):
    pasted = {"board": [[0, 0, 1, 2, 0, 3, 20], [1, 0, 0, 2, 1, 0, 18]], "to_move": 0}
    page.goto(site["url"] + "/lab/")
    page.click("details.loaders summary")
    page.fill("#paste", json.dumps(pasted))
    page.click("#load-paste")
    page.click("#open-analysis")
    page.wait_for_selector("#analysis [data-exact='true']", timeout=30000)
    values = page.locator("#analysis li").all_inner_texts()
    position = Position.from_dict({**pasted, "variant": {"pits": 6, "seeds": 4}})
    proven = __import__("kalah").solve(position)
    assert f"{proven.value:+d}" in page.locator("#analysis p").first.inner_text() or proven.value == 0
    assert len(values) == len(position.legal_moves())


@pytest.mark.browser
def test_the_site_works_offline_after_the_first_visit(page, site, context):
    page.goto(site["url"] + "/?anim=0")
    page.wait_for_selector(READY, timeout=30000)
    registered = "Promise.race([navigator.serviceWorker.ready.then(() => true), new Promise((r) => setTimeout(r, 20000, false))])"
    assert page.evaluate(registered), "no service worker took the site"
    page.wait_for_function(
        "() => navigator.serviceWorker.controller !== null || (location.reload(), false)", timeout=30000
    )
    context.set_offline(True)
    try:
        page.goto(site["url"] + "/?anim=0#/library")
        page.wait_for_selector("#view-library:not([hidden])", timeout=30000)
        page.goto(site["url"] + "/?anim=0")
        page.wait_for_selector("html[data-engine='browser']", state="attached", timeout=30000)
        page.wait_for_selector(READY, timeout=30000)
        page.locator("#board .pit.legal").last.click()
        page.wait_for_function("() => Number(document.querySelector('#board').dataset.moves) >= 2", timeout=60000)
    finally:
        context.set_offline(False)


def test_the_files_of_the_site_are_the_package_s(site):
    folder: Path = site["folder"]
    static = Path(__import__("kalah.web", fromlist=["x"]).__file__).parent / "static"
    for name in ("engine/kalah.wasm", "engine/engine.js", "board.js", "main.js"):
        assert (folder / "static" / name).read_bytes() == (static / name).read_bytes(), name
