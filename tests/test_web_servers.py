"""Two ``kalah serve`` processes on one library: on PostgreSQL they serve it together, on SQLite the second is
refused. Tried as an attacker did (issue 42): the second process moved without a seat token, ended a game on
time from a stale clock while the players moved in time through the first, and never told its watchers of
moves made through the first. Each test runs real server processes (helpers.start_kalah_serve)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time

import httpx
import pytest
import websockets

from helpers import free_port, kill_group, start_kalah_serve


@pytest.fixture
def two_servers(postgres_url):
    """Two kalah serve processes on one PostgreSQL library: (url of A, url of B, the library's address)."""
    first, url_a = start_kalah_serve(postgres_url, "--workers", "1")
    try:
        second, url_b = start_kalah_serve(postgres_url, "--workers", "1")
    except BaseException:
        kill_group(first)
        raise
    yield url_a, url_b, postgres_url
    kill_group(first)
    kill_group(second)


def start(url, clock=None):
    """A game made through ``url`` with both seats taken: (id, tokens by seat)."""
    made = httpx.post(f"{url}/api/live/games", json={"clock": clock or {}}).json()
    claimed = httpx.post(f"{url}/api/live/games/{made['game_id']}/claim", json={"invite": made["invite"]}).json()
    return made["game_id"], {0: made["token"], 1: claimed["token"]}


def move(url, game_id, token, pit, moves):
    headers = {"X-Seat-Token": token} if token else {}
    return httpx.post(f"{url}/api/live/games/{game_id}/moves", json={"move": pit, "moves": moves}, headers=headers)


async def states(url, game_id, token=None):
    """A push connection to the game: the messages' states as they come (after the hello)."""
    socket = await websockets.connect(url.replace("http", "ws") + f"/api/games/{game_id}/live")
    await socket.send(json.dumps({"token": token} if token else {}))
    return socket


async def next_state(socket, seconds=10.0):
    async def first():
        async for raw in socket:
            message = json.loads(raw)
            if message["type"] in ("state", "hello"):
                return message

    return await asyncio.wait_for(first(), seconds)


def test_a_move_through_one_server_reaches_a_watcher_of_the_other(two_servers):
    url_a, url_b, _ = two_servers
    game_id, tokens = start(url_a)

    async def watch():
        socket = await states(url_b, game_id)
        hello = await next_state(socket)
        assert hello["type"] == "hello" and hello["state"]["moves"] == 0
        sent = time.monotonic()
        assert move(url_a, game_id, tokens[0], 0, 0).status_code == 200
        pushed = await next_state(socket)
        await socket.close()
        return pushed, time.monotonic() - sent

    pushed, _ = asyncio.run(watch())
    assert pushed["type"] == "state" and pushed["state"]["moves"] == 1 and pushed["state"]["last"]["move"] == 0
    # and who is connected counts both processes' pages: a seat's page on A, seen from B
    assert httpx.get(f"{url_b}/api/live/games/{game_id}").json()["live"]["seats_taken"] == [True, True]


def test_no_route_of_the_other_server_moves_without_a_seat_token(two_servers):
    url_a, url_b, _ = two_servers
    game_id, tokens = start(url_a)
    assert move(url_b, game_id, None, 0, 0).status_code == 403
    assert move(url_b, game_id, "a-token-of-nobody-at-all", 0, 0).status_code == 403
    for path, body in (("moves", {"move": 0, "moves": 0}), ("takeback", {"moves": 0}), ("redo", {"moves": 0})):
        refused = httpx.post(f"{url_b}/api/games/{game_id}/{path}", json=body)
        assert refused.status_code == 403 and "between people" in refused.json()["detail"], (path, refused.text)
    assert httpx.post(f"{url_b}/api/games/{game_id}/computer-move", json={"moves": 0}).status_code == 403
    assert httpx.get(f"{url_b}/api/games/{game_id}").json()["moves"] == 0
    assert move(url_b, game_id, tokens[0], 0, 0).status_code == 200  # the seat's token works on either


def test_a_clock_falls_once_and_not_while_the_players_move_in_time_through_the_other(two_servers):
    """B watches (so it keeps a timer for the game, from its first look); the players move through A, each
    well within 2 s, for longer than a player's whole time: B must not end the game from its copy of the
    clock. Then player 1 stops: the flag falls once, seen alike by both."""
    url_a, url_b, library = two_servers
    game_id, tokens = start(url_a, {"minutes": 0.04, "increment": 1})  # 2.4 s each, 1 s a move

    async def play():
        watcher = await states(url_b, game_id)
        await next_state(watcher)
        count, began = 0, time.monotonic()
        while time.monotonic() - began < 4.0:  # longer than 2.4 s: B's stale clock would have fallen
            position = httpx.get(f"{url_a}/api/games/{game_id}").json()
            if position["over"]:
                break
            seat = position["to_move"]
            answer = move(url_a, game_id, tokens[seat], position["legal_moves"][0], count)
            assert answer.status_code == 200, answer.text
            count += 1
            await asyncio.sleep(0.3)
        live = httpx.get(f"{url_b}/api/live/games/{game_id}").json()
        assert live["live"]["result"] is None or live["state"]["over"], live["live"]
        version = _version(library, game_id)
        ended = None
        while ended is None:  # now nobody moves: the running player's flag falls
            message = await asyncio.wait_for(next_state(watcher, 20), 20)
            if message["live"]["result"]:
                ended = message
        await watcher.close()
        return ended, version

    ended, version = asyncio.run(play())
    if ended["state"]["over"]:
        pytest.skip("the game ended on the board before the clocks were tried (a different opening?)")
    assert ended["live"]["result"]["reason"] == "time"
    time.sleep(1.0)  # both processes' timers have fired by now
    assert _version(library, game_id) == version + 1  # one change: the flag, written once
    seen = [httpx.get(f"{url}/api/live/games/{game_id}").json()["live"]["result"] for url in (url_a, url_b)]
    assert seen[0] == seen[1] == ended["live"]["result"]
    stored = httpx.get(f"{url_a}/api/games/{game_id}").json()
    assert (stored["status"], stored["termination"]) == ("finished", "time")


def _version(library, game_id):
    import psycopg

    with psycopg.connect(library) as connection:
        return connection.execute("SELECT version FROM live_games WHERE game_id = %s", (game_id,)).fetchone()[0]


def _serve(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``kalah serve`` or ``kalah arena serve`` expected to stop at once (refused): its output."""
    return subprocess.run(
        [sys.executable, "-m", "kalah", *arguments], capture_output=True, text=True, timeout=60, check=False
    )


def test_a_second_server_on_a_sqlite_library_is_refused_with_one_line(tmp_path):
    db = tmp_path / "games.sqlite"
    first, url = start_kalah_serve(db, "--workers", "1")
    try:
        game_id, _ = start(url)
        refused = _serve("serve", "--db", str(db), "--port", str(free_port()))
        assert refused.returncode == 2
        line = refused.stderr.strip()
        assert line.count("\n") == 0 and line.startswith("kalah: error: ")
        assert "already served by kalah serve at " + url in line and "PostgreSQL" in line
        class_server = _serve("arena", "serve", "--db", str(db), "--port", "0", "--kgp-port", "0")
        assert class_server.returncode == 2 and "already served by kalah serve" in class_server.stderr
        assert httpx.get(f"{url}/api/live/games/{game_id}").json()["state"]["status"] == "playing"  # untouched
    finally:
        kill_group(first)
    # the holder gone (killed, even), the library is free again
    second, _ = start_kalah_serve(db, "--workers", "1")
    kill_group(second)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_class_server_started_twice_is_refused_and_leaves_the_first_alone(backend, tmp_path, request):
    db = str(tmp_path / "games.sqlite") if backend == "sqlite" else request.getfixturevalue("postgres_url")
    first = subprocess.Popen(
        [sys.executable, "-m", "kalah", "arena", "serve", "--db", db, "--port", "0", "--kgp-port", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert "kalah arena serve: pages" in first.stderr.readline()  # it listens
        refused = _serve("arena", "serve", "--db", db, "--port", "0", "--kgp-port", "0")
        assert refused.returncode == 2, refused.stderr
        assert "already served by kalah arena serve" in refused.stderr
        assert first.poll() is None
    finally:
        kill_group(first)
