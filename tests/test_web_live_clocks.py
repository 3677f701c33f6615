"""The clocks of games between people, end to end through the API: correspondence games (days a move),
and the flags of every clocked game after the server restarts (its timers are armed again as it starts).

The server's wall clock is injectable (``app.state.live.now``): a day passes in a test by setting it, and
a tiny "day" (``clock.DAY_MS``) lets the server's own timer end a game in well under a second.
"""

from __future__ import annotations

import sqlite3
import time

import pytest
from fastapi.testclient import TestClient

from kalah.records import GameLibrary
from kalah.rules.outcome import Outcome
from kalah.web import create_app
from kalah.web.live import clock as clocks

HOUR = 3600.0
DAY = 24 * HOUR


class WallClock:
    """A wall clock that moves only when a test says so."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def serve(db, wall=None):
    """A test client of a server on the library ``db``, its games' clocks read from ``wall``."""
    app = create_app(db, workers=1, pool="thread")
    if wall is not None:
        app.state.live.now = wall
    return TestClient(app, base_url="http://localhost")


def start(client, clock):
    """A game of the standard variant with both seats taken: (id, tokens by seat)."""
    made = client.post("/api/live/games", json={"clock": clock}).json()
    claimed = client.post(f"/api/live/games/{made['game_id']}/claim", json={"invite": made["invite"]}).json()
    return made["game_id"], {0: made["token"], 1: claimed["token"]}


def move(client, game_id, token, pit, moves):
    return client.post(
        f"/api/live/games/{game_id}/moves", json={"move": pit, "moves": moves}, headers={"X-Seat-Token": token}
    )


def clock_of(client, game_id):
    return client.get(f"/api/live/games/{game_id}").json()["live"]["clock"]


def next_state(socket):
    message = socket.receive_json()
    while message["type"] != "state":
        message = socket.receive_json()
    return message


def wait_until(check, seconds=10.0):
    """Poll ``check`` until it is true (the test fails rather than hangs)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.02)


def test_a_correspondence_game_between_two_seats(tmp_path):
    wall = WallClock()
    with serve(tmp_path / "games.sqlite", wall) as client:
        game_id, tokens = start(client, {"days": 1})
        first = clock_of(client, game_id)
        assert first["kind"] == "days" and first["text"] == "1 day a move"
        assert first["ms"] == [clocks.DAY_MS] * 2 and first["running"] is None  # nothing runs before the first move
        wall.now += 5 * DAY  # a game not yet begun waits as long as it likes
        assert move(client, game_id, tokens[0], 0, 0).status_code == 200  # 4 seeds from pit a: no extra turn
        wall.now += 10 * HOUR  # player 1 thinks; player 0 is away, and nothing of theirs ticks
        assert clock_of(client, game_id)["ms"] == [clocks.DAY_MS, clocks.DAY_MS - 10 * 3_600_000]
        after = move(client, game_id, tokens[1], 0, 1).json()["live"]["clock"]
        assert after["ms"] == [clocks.DAY_MS, clocks.DAY_MS] and after["running"] == 0  # full again after a move
        wall.now += DAY - 1  # a second to spare: in time
        in_time = move(client, game_id, tokens[0], 2, 2).json()  # 5 seeds from pit c: no extra turn
        assert in_time["state"]["to_move"] == 1 and in_time["live"]["clock"]["ms"] == [clocks.DAY_MS] * 2
        wall.now += DAY + 1  # player 1 let the day pass
        late = move(client, game_id, tokens[1], 1, 3)
        assert late.status_code == 409 and "time ran out" in late.json()["detail"]
        ended = client.get(f"/api/live/games/{game_id}").json()
        assert ended["live"]["result"] == {"winner": 0, "reason": "time"}
        assert ended["live"]["clock"]["running"] is None and ended["state"]["moves"] == 3
        listed = {game["id"]: game for game in client.get("/api/games").json()}
        assert (listed[game_id]["winner"], listed[game_id]["termination"]) == (0, "time")  # the library shows why
    summary = GameLibrary(tmp_path / "games.sqlite").summary(game_id)
    assert summary.status == "finished" and summary.winner == 0 and summary.outcome.termination == "time"
    assert GameLibrary(tmp_path / "games.sqlite").record(game_id).result()["termination"] == "time"


def test_the_server_ends_a_correspondence_game_when_the_day_passes(tmp_path, monkeypatch):
    monkeypatch.setattr(clocks, "DAY_MS", 800)  # a "day" of 0.8 s, so the server's own timer is seen to act
    with serve(tmp_path / "games.sqlite") as client:
        game_id, tokens = start(client, {"days": 1})
        move(client, game_id, tokens[0], 0, 0)
        with client.websocket_connect(f"ws://localhost/api/games/{game_id}/live") as waiting:
            waiting.send_json({"token": tokens[0]})  # the player who waits for an answer that never comes
            message = next_state(waiting)  # nobody moves or asks: the server decides
            assert message["live"]["result"] == {"winner": 0, "reason": "time"}
            assert message["live"]["clock"]["ms"][1] == 0
    assert GameLibrary(tmp_path / "games.sqlite").summary(game_id).status == "finished"


@pytest.mark.parametrize("clock", [{"minutes": 3, "increment": 2}, {"days": 2}])
def test_a_flag_that_fell_while_the_server_was_down_falls_as_it_starts(tmp_path, clock):
    db, wall = tmp_path / "games.sqlite", WallClock()
    with serve(db, wall) as client:
        game_id, tokens = start(client, clock)
        move(client, game_id, tokens[0], 0, 0)
        other_id, other_tokens = start(client, clock)  # its clock does not run yet: nothing to fall
    wall.now += 3 * DAY  # the server is down
    with serve(db, wall):
        # nobody opens the game: its flag falls by itself, recorded in the library
        wait_until(lambda: GameLibrary(db).summary(game_id).status == "finished")
        assert GameLibrary(db).record(game_id).decision == Outcome(0, "time")
        row = sqlite3.connect(db).execute("SELECT result FROM live_games WHERE game_id = ?", (game_id,)).fetchone()
        assert row[0] == '{"winner": 0, "reason": "time"}'
        assert GameLibrary(db).summary(other_id).status == "playing"


def test_a_flag_falls_on_time_after_a_restart_without_anyone_opening_the_game(tmp_path):
    db = tmp_path / "games.sqlite"
    with serve(db) as client:
        game_id, tokens = start(client, {"minutes": 0.02})  # 1.2 s each
        move(client, game_id, tokens[0], 0, 0)
        due = time.time() + 1.2
    with serve(db):  # restarted at once: player 2's time still runs
        assert GameLibrary(db).summary(game_id).status == "playing"
        wait_until(lambda: GameLibrary(db).summary(game_id).status == "finished")
        assert time.time() >= due - 0.05  # not before the time was out


def test_a_move_stored_without_its_clock_sets_the_clock_right_at_restart(tmp_path):
    """The server stopped between storing a move and saving the clock: at restart the clock runs for the
    player the library says is to move, and the mover is charged nothing more."""
    db, wall = tmp_path / "games.sqlite", WallClock()
    with serve(db, wall) as client:
        game_id, tokens = start(client, {"minutes": 3, "increment": 2})
        move(client, game_id, tokens[0], 0, 0)
        wall.now += 30
        before = sqlite3.connect(db).execute("SELECT clock FROM live_games WHERE game_id = ?", (game_id,)).fetchone()
        move(client, game_id, tokens[1], 0, 1)
    with sqlite3.connect(db) as write:  # the clock as it was before player 2's move
        write.execute("UPDATE live_games SET clock = ? WHERE game_id = ?", (before[0], game_id))
    wall.now += 10 * 60  # the server was down for ten minutes
    with serve(db, wall) as client:
        seen = clock_of(client, game_id)
        assert seen["running"] == 0 and seen["ms"] == [180_000, 180_000 + 2_000]  # the increment, no charge
        assert GameLibrary(db).summary(game_id).status == "playing"


def test_a_damaged_clock_keeps_neither_the_server_nor_other_flags_from_starting(tmp_path):
    db, wall = tmp_path / "games.sqlite", WallClock()
    with serve(db, wall) as client:
        games = [start(client, {"minutes": 1}) for _ in range(3)]
        for game_id, tokens in games:
            move(client, game_id, tokens[0], 0, 0)
    with sqlite3.connect(db) as write:  # written by hand: not JSON, and JSON that is no clock
        write.execute("UPDATE live_games SET clock = '{not json' WHERE game_id = ?", (games[0][0],))
        write.execute("UPDATE live_games SET clock = '{\"running\": 1}' WHERE game_id = ?", (games[1][0],))
    wall.now += 120
    with serve(db, wall) as client:
        wait_until(lambda: GameLibrary(db).summary(games[2][0]).status == "finished")
        assert client.get("/api/info").status_code == 200
