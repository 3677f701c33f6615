"""Live games against a real server (uvicorn, as kalah serve runs it): the access log holds no token,
and a thousand idle push connections do not slow a game. No timed test of speed: the bound is generous
(benchmarks/bench_live.py measures)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import statistics
import threading
import time

import httpx
import pytest
import websockets

from kalah.rules.outcome import Outcome
from kalah.web import create_app
from kalah.web.live import LiveLimits


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture()
def server(tmp_path):
    """A server with its access log on, into a list; the per-address caps raised for 1000 connections."""
    import uvicorn

    records = Records()
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn"):
        logging.getLogger(name).addHandler(records)
        logging.getLogger(name).setLevel(logging.INFO)
    app = create_app(
        tmp_path / "games.sqlite", workers=1, pool="thread", live_limits=LiveLimits(connections=2000, games=100)
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, access_log=True, log_level="info")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started and time.time() < deadline:
        time.sleep(0.05)
    assert server.started
    yield {"url": f"http://127.0.0.1:{port}", "log": records.lines}
    server.should_exit = True
    thread.join(timeout=10)
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn"):
        logging.getLogger(name).removeHandler(records)


def start(url):
    made = httpx.post(f"{url}/api/live/games", json={}).json()
    claimed = httpx.post(f"{url}/api/live/games/{made['game_id']}/claim", json={"invite": made["invite"]}).json()
    return made["game_id"], {0: made["token"], 1: claimed["token"]}, made["invite"]


async def wait_for_moves(socket_, count, seconds=30.0):
    """The first pushed state with at least ``count`` moves (a test fails rather than hangs)."""

    async def first():
        async for raw in socket_:
            message = json.loads(raw)
            if message["type"] in ("hello", "state") and message["state"]["moves"] >= count:
                return message

    return await asyncio.wait_for(first(), seconds)


def test_no_token_reaches_the_servers_log(server):
    url = server["url"]
    game_id, tokens, invite = start(url)

    async def play():
        async with websockets.connect(url.replace("http", "ws") + f"/api/games/{game_id}/live") as push:
            await push.send(json.dumps({"token": tokens[1]}))
            await wait_for_moves(push, 0)
            async with httpx.AsyncClient() as http:
                answer = await http.post(
                    f"{url}/api/live/games/{game_id}/moves",
                    json={"move": 0, "moves": 0},
                    headers={"X-Seat-Token": tokens[0]},
                )
                assert answer.status_code == 200
            await wait_for_moves(push, 1)

    asyncio.run(play())
    log = "\n".join(server["log"])
    assert f"/api/live/games/{game_id}/moves" in log and "/claim" in log  # the access log is on
    for secret in (*tokens.values(), invite):
        assert secret not in log


def test_a_thousand_idle_push_connections_do_not_slow_a_game(server):
    url = server["url"]
    ws = url.replace("http", "ws")
    idle_game, _, _ = start(url)
    game_id, tokens, _ = start(url)

    async def scenario():
        idle = []
        for _ in range(10):  # a thousand watchers of another game, idle
            batch = await asyncio.gather(
                *(websockets.connect(f"{ws}/api/games/{idle_game}/live", ping_interval=None) for _ in range(100))
            )
            for connection in batch:
                await connection.send("{}")
            idle.extend(batch)
        latencies = []
        async with (
            websockets.connect(f"{ws}/api/games/{game_id}/live") as first,
            websockets.connect(f"{ws}/api/games/{game_id}/live") as second,
            httpx.AsyncClient() as http,
        ):
            pushes = {0: first, 1: second}
            for seat, push in pushes.items():
                await push.send(json.dumps({"token": tokens[seat]}))
            state = (await wait_for_moves(second, 0))["state"]
            await wait_for_moves(first, 0)
            while not state["over"] and state["moves"] < 20:
                mover = state["to_move"]
                began = time.perf_counter()
                answer = await http.post(
                    f"{url}/api/live/games/{game_id}/moves",
                    json={"move": state["legal_moves"][0], "moves": state["moves"]},
                    headers={"X-Seat-Token": tokens[mover]},
                )
                assert answer.status_code == 200, answer.text
                state = (await wait_for_moves(pushes[1 - mover], state["moves"] + 1))["state"]
                latencies.append(time.perf_counter() - began)
                await wait_for_moves(pushes[mover], state["moves"])
        seen = httpx.get(f"{url}/api/live/games/{idle_game}").json()["live"]["watchers"]
        for connection in idle:
            await connection.close()
        return latencies, seen

    latencies, watchers = asyncio.run(scenario())
    assert watchers == 1000
    assert len(latencies) >= 10
    assert statistics.median(latencies) < 1.0, latencies  # generous: a few milliseconds on an idle machine


def serve_process(db):
    """``kalah serve``'s app on the library ``db`` in a process of its own (a new session, for SIGKILL):
    (process, url) once it answers."""
    import subprocess
    import sys

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = (
        "import sys, uvicorn; from kalah.web import create_app; "
        "uvicorn.run(create_app(sys.argv[1], workers=1, pool='thread'), host='127.0.0.1',"
        " port=int(sys.argv[2]), log_level='warning')"
    )
    process = subprocess.Popen([sys.executable, "-c", code, str(db), str(port)], start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if httpx.get(f"{url}/api/info", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("the server did not start")


def stop_process(process):
    import os
    import signal

    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def test_an_acknowledged_move_and_the_seats_survive_a_sigkill(tmp_path):
    """The server is killed (SIGKILL) right after answering a move: the move is in the library, and the
    restarted server still knows who holds which seat."""
    db = tmp_path / "games.sqlite"
    process, url = serve_process(db)
    try:
        game_id, tokens, _ = start(url)
        answer = httpx.post(
            f"{url}/api/live/games/{game_id}/moves", json={"move": 0, "moves": 0}, headers={"X-Seat-Token": tokens[0]}
        )  # 4 seeds from pit a: no extra turn
        assert answer.status_code == 200
    finally:
        stop_process(process)
    from kalah.records import GameLibrary

    assert [m.move for m in GameLibrary(db).record(game_id).moves] == [0]
    process, url = serve_process(db)
    try:
        assert (
            httpx.post(
                f"{url}/api/live/games/{game_id}/moves",
                json={"move": 0, "moves": 1},
                headers={"X-Seat-Token": tokens[0]},
            ).status_code
            == 409
        )  # player 1's turn
        again = httpx.post(
            f"{url}/api/live/games/{game_id}/moves", json={"move": 0, "moves": 1}, headers={"X-Seat-Token": tokens[1]}
        )
        assert again.status_code == 200, again.text
        listed = {g["id"]: g for g in httpx.get(f"{url}/api/games").json()}
        assert listed[game_id]["live"] is True
    finally:
        stop_process(process)


def test_after_a_restart_flags_fall_on_time_without_anyone_opening_the_games(tmp_path):
    """The server arms every running clock as it starts: a game whose time ran out while it was down ends
    at once, another when its time runs out though nobody opens it, and a third's waiting player, connected
    by push, hears of it."""
    from kalah.records import GameLibrary

    db = tmp_path / "games.sqlite"
    process, url = serve_process(db)
    due = {}
    try:
        games = {name: start_clocked(url, minutes) for name, minutes in (("down", 0.02), ("quiet", 0.2), ("seen", 0.2))}
        for name, (game_id, tokens) in games.items():
            played = httpx.post(
                f"{url}/api/live/games/{game_id}/moves",
                json={"move": 0, "moves": 0},
                headers={"X-Seat-Token": tokens[0]},
            )
            assert played.status_code == 200, played.text
            due[name] = time.time() + played.json()["live"]["clock"]["ms"][1] / 1000  # player 2's time runs
    finally:
        stop_process(process)
    time.sleep(max(0.0, due["down"] - time.time()) + 0.1)  # the first game's time runs out while the server is down
    library = GameLibrary(db)
    assert all(library.summary(game_id).status == "playing" for game_id, _ in games.values())

    async def waiting_player_hears(url):
        game_id, tokens = games["seen"]
        async with websockets.connect(url.replace("http", "ws") + f"/api/games/{game_id}/live") as push:
            await push.send(json.dumps({"token": tokens[0]}))
            connected = time.time()

            async def ended():
                async for raw in push:
                    message = json.loads(raw)
                    if message["type"] in ("hello", "state") and message["live"]["result"]:
                        return message["type"], message["live"]["result"], connected, time.time()

            return await asyncio.wait_for(ended(), 60)

    process, url = serve_process(db)
    try:
        started = time.time()
        quiet_id = games["quiet"][0]
        quiet_before = library.summary(quiet_id).status
        wait_until(lambda: library.summary(games["down"][0]).status == "finished", 10)
        assert library.record(games["down"][0]).decision == Outcome(0, "time")
        kind, result, connected, heard = asyncio.run(waiting_player_hears(url))
        assert result == {"winner": 0, "reason": "time"} and heard >= due["seen"] - 0.05
        if connected < due["seen"] - 0.5:  # connected before the flag fell (a busy machine may start too late)
            assert kind == "state"  # pushed as it fell
        wait_until(lambda: library.summary(quiet_id).status == "finished", 10)
        fell = time.time()
        assert library.record(quiet_id).decision == Outcome(0, "time")
        if started < due["quiet"] - 1:  # the server started well before the time ran out (a busy machine may not)
            assert quiet_before == "playing"
        assert fell >= due["quiet"] - 0.05
        # nobody opened the quiet game: the server itself let its flag fall, on time (generously)
        assert fell < max(due["quiet"], started) + 5
    finally:
        stop_process(process)


def start_clocked(url, minutes):
    made = httpx.post(f"{url}/api/live/games", json={"clock": {"minutes": minutes}}).json()
    claimed = httpx.post(f"{url}/api/live/games/{made['game_id']}/claim", json={"invite": made["invite"]}).json()
    return made["game_id"], {0: made["token"], 1: claimed["token"]}


def wait_until(check, seconds):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)
