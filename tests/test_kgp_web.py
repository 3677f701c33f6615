"""The class server's pages and JSON API: after real games, escaped names, bad ids, and a look in Chromium."""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

import httpx
import pytest

from classroom_helpers import ServerThread
from kgp_interop import kalah_command

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"
HOSTILE_NAME = '<script>alert(1)</script>"&'


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    db = tmp_path_factory.mktemp("kgp-web") / "lib.sqlite"
    with ServerThread(db, move_time=1.0) as server:
        run = subprocess.run(
            [
                *kalah_command(),
                "kgp",
                f"127.0.0.1:{server.kgp_port}",
                "--player",
                "alphabeta:depth=3",
                "--name",
                HOSTILE_NAME,
                "--token",
                "web-test-token",
                "--games",
                "2",
                "--retries",
                "0",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, run.stderr
        # an agent left waiting in a game, so that /live has something to show
        sock = socket.create_connection(("127.0.0.1", server.kgp_port))
        sock.sendall(b'set info:name "thinker"\r\nmode freeplay\r\n')
        assert server.wait_for(lambda: len(server.server.live) >= 1, timeout=20)
        yield server
        sock.close()


def test_the_json_api(played):
    base = f"http://127.0.0.1:{played.port}"
    board = httpx.get(f"{base}/api/leaderboard").json()
    ours = next(row for row in board if row["name"] == HOSTILE_NAME)
    assert ours["games"] == 2 and ours["kind"] == "agent" and "token" not in str(ours)
    agent = httpx.get(f"{base}/api/agents/{ours['id']}").json()
    assert len(agent["results"]) == 2
    game = httpx.get(f"{base}/api/games/{agent['results'][0]['game_id']}").json()
    assert game["format"] == "kalah-game" and HOSTILE_NAME in [p["name"] for p in game["players"]]
    live = httpx.get(f"{base}/api/live").json()
    assert live and any(p["name"] == "thinker" for p in live[0]["players"])
    for path in ("/api/agents/999999", "/api/games/999999", "/agents/999999", "/games/999999"):
        assert httpx.get(base + path).status_code == 404
    for path in ("/api/agents/99999999999999999999999", "/api/games/-1", "/api/agents/abc"):
        answer = httpx.get(base + path)
        assert answer.status_code == 422 and answer.json()["detail"]
    assert httpx.get(f"{base}/api/tournament").status_code == 404


def test_pages_escape_agents_names(played):
    base = f"http://127.0.0.1:{played.port}"
    board = httpx.get(f"{base}/api/leaderboard").json()
    ours = next(row for row in board if row["name"] == HOSTILE_NAME)
    game_id = httpx.get(f"{base}/api/agents/{ours['id']}").json()["results"][0]["game_id"]
    for path in ("/", f"/agents/{ours['id']}", f"/games/{game_id}", "/live"):
        page = httpx.get(base + path)
        assert page.status_code == 200
        assert "<script>alert" not in page.text
    assert "&lt;script&gt;" in httpx.get(base + "/").text


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
def test_pages_in_chromium_at_desktop_and_phone_width(played):
    from playwright.sync_api import sync_playwright

    base = f"http://127.0.0.1:{played.port}"
    board = httpx.get(f"{base}/api/leaderboard").json()
    ours = next(row for row in board if row["name"] == HOSTILE_NAME)
    game_id = httpx.get(f"{base}/api/agents/{ours['id']}").json()["results"][0]["game_id"]
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for width in (1280, 390):
            page = browser.new_page(viewport={"width": width, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
            dialogs: list[str] = []
            page.on("dialog", lambda dialog, dialogs=dialogs: (dialogs.append(dialog.message), dialog.dismiss()))
            page.goto(base + "/")
            assert page.locator(f'[data-agent-id="{ours["id"]}"]').count() == 1
            page.screenshot(path=str(ARTIFACTS / f"kgp-leaderboard-{width}.png"), full_page=True)
            page.goto(f"{base}/games/{game_id}")
            slider = page.locator('input[type="range"]')
            slider.fill("0")
            assert page.locator('.frame[data-ply="0"]').is_visible()
            page.screenshot(path=str(ARTIFACTS / f"kgp-replay-{width}.png"), full_page=True)
            page.goto(base + "/live")
            assert page.locator("[data-live-game]").count() >= 1
            page.screenshot(path=str(ARTIFACTS / f"kgp-live-{width}.png"))
            # nothing is wider than the screen
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert not errors and not dialogs
            page.close()
        browser.close()
