"""What an attacker found in games between people (issue 42), each closed: through the API, one process."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time

import pytest
from fastapi.testclient import TestClient

from kalah.records import GameFilter, GameLibrary
from kalah.web import create_app
from kalah.web.live import LiveLimits


def make_client(db, **settings):
    settings.setdefault("workers", 1)
    settings.setdefault("pool", "thread")
    return TestClient(AddressFromHeader(create_app(db, **settings)), base_url="http://localhost")


class AddressFromHeader:
    """The test's stand-in for a client's own address: the header X-Test-Client (one server, many clients)."""

    def __init__(self, app):
        self.app = app

    def __getattr__(self, name):  # client.app.state reaches the application
        return getattr(self.app, name)

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            for name, value in scope.get("headers", []):
                if name == b"x-test-client":
                    scope = {**scope, "client": (value.decode(), 5000)}
        await self.app(scope, receive, send)


@pytest.fixture()
def db(tmp_path):
    return tmp_path / "games.sqlite"


def start(client, clock=None):
    made = client.post("/api/live/games", json={"clock": clock or {}})
    assert made.status_code == 201, made.text
    game = made.json()
    claimed = client.post(f"/api/live/games/{game['game_id']}/claim", json={"invite": game["invite"]}).json()
    return game["game_id"], {0: game["token"], 1: claimed["token"]}


def test_live_games_count_toward_the_library_size(db):
    """A full library answered 507 to POST /api/games and 201 to a live game."""
    with make_client(db, max_library_bytes=1) as client:
        refused = client.post("/api/live/games", json={})
        assert refused.status_code == 507 and "full" in refused.json()["detail"]
        assert client.post("/api/games", json={}).status_code == 507
        assert GameLibrary(db).list_games() == []


def test_an_ipv6_client_is_one_client_for_the_live_limits_as_for_the_others(db):
    """The live routes counted each address of a /64 as a client of its own (three functions computed a
    client's address)."""
    with make_client(db, live_limits=LiveLimits(games=1)) as client:
        made = client.post("/api/live/games", json={}, headers={"X-Test-Client": "2001:db8:7:1::1"})
        assert made.status_code == 201
        refused = client.post("/api/live/games", json={}, headers={"X-Test-Client": "2001:db8:7:1::2"})
        assert refused.status_code == 429 and "Retry-After" in refused.headers
        other_network = client.post("/api/live/games", json={}, headers={"X-Test-Client": "2001:db8:7:2::1"})
        assert other_network.status_code == 201


def test_rematches_count_toward_the_cap_on_new_games(db):
    """Resign-and-rematch loops made 40 games where the cap is 30 in ten minutes."""
    with make_client(db, live_limits=LiveLimits(games=2)) as client:
        game_id, tokens = start(client)
        client.post(f"/api/live/games/{game_id}/resign", headers={"X-Seat-Token": tokens[0]})
        client.post(f"/api/live/games/{game_id}/rematch", headers={"X-Seat-Token": tokens[0]})
        second = client.post(f"/api/live/games/{game_id}/rematch", headers={"X-Seat-Token": tokens[1]})
        assert second.status_code == 200 and second.json()["live"]["rematch_game"]  # game 2 of 2
        rematch = second.json()["live"]["rematch_game"]
        client.post(f"/api/live/games/{rematch}/resign", headers={"X-Seat-Token": tokens[0]})
        client.post(f"/api/live/games/{rematch}/rematch", headers={"X-Seat-Token": tokens[0]})
        third = client.post(f"/api/live/games/{rematch}/rematch", headers={"X-Seat-Token": tokens[1]})
        assert third.status_code == 429
        assert client.get(f"/api/live/games/{rematch}").json()["live"]["rematch_game"] is None


@pytest.mark.parametrize("clock", ["{not json", '{"running": 1}', '{"kind": "clock", "ms": [1], "base_ms": 5}'])
def test_a_damaged_clock_is_422_naming_the_game(db, clock):
    with make_client(db) as client:
        game_id, tokens = start(client, {"minutes": 5})
        with sqlite3.connect(db) as write:
            write.execute("UPDATE live_games SET clock = ? WHERE game_id = ?", (clock, game_id))
        for answer in (
            client.get(f"/api/live/games/{game_id}"),
            client.post(
                f"/api/live/games/{game_id}/moves", json={"move": 0, "moves": 0}, headers={"X-Seat-Token": tokens[0]}
            ),
        ):
            assert answer.status_code == 422, answer.text
            assert f"the clock of game {game_id} is damaged" in answer.json()["detail"]


def test_no_engine_analyses_a_game_between_people_until_it_is_over(db):
    with make_client(db) as client:
        game_id, tokens = start(client)
        client.post(
            f"/api/live/games/{game_id}/moves", json={"move": 0, "moves": 0}, headers={"X-Seat-Token": tokens[0]}
        )
        for path in ("analysis", "review"):
            refused = client.post(f"/api/games/{game_id}/{path}", json={"seconds": 0.1})
            assert refused.status_code == 409 and "between people" in refused.json()["detail"], (path, refused.text)
        client.post(f"/api/live/games/{game_id}/resign", headers={"X-Seat-Token": tokens[1]})
        assert client.post(f"/api/games/{game_id}/analysis", json={"seconds": 0.1}).status_code == 200


def test_a_resigned_game_is_finished_with_its_winner_for_every_reader(db):
    with make_client(db) as client:
        game_id, tokens = start(client)
        client.post(f"/api/live/games/{game_id}/resign", headers={"X-Seat-Token": tokens[0]})
    summary = GameLibrary(db).summary(game_id)
    assert (summary.status, summary.winner) == ("finished", 1)
    for result in ("finished", "decisive"):
        assert list(GameFilter(result=result).apply([summary])) == [summary]
    assert list(GameFilter(result="unfinished").apply([summary])) == []
    record = GameLibrary(db).record(game_id)
    assert record.finished and record.result()["termination"] == "resignation"


def test_a_game_nobody_joined_or_began_is_closed_after_the_documented_time(db):
    with make_client(db, live_limits=LiveLimits(unjoined_hours=1 / 3600)) as client:  # one second
        invited = client.post("/api/live/games", json={}).json()["game_id"]  # the invitation never used
        unbegun, _ = start(client)  # both seats taken, no move
        begun, tokens = start(client)
        client.post(f"/api/live/games/{begun}/moves", json={"move": 0, "moves": 0}, headers={"X-Seat-Token": tokens[0]})
        live = client.app.state.live
        live.now = lambda: time.time() + 2  # two seconds on
        assert client.portal.call(client.app.state.live_upkeep.close_unjoined) == 2
        library = GameLibrary(db)
        assert library.summary(invited).stop_reason == "nobody joined"
        assert library.summary(unbegun).stop_reason == "nobody began"
        assert library.summary(begun).status == "playing"
        playing = [game["id"] for game in client.get("/api/games").json() if game["status"] == "playing"]
        assert invited not in playing and unbegun not in playing and begun in playing
        assert client.get(f"/api/live/games/{invited}").json()["live"]["result"] == {
            "winner": None,
            "reason": "abandoned",
        }


def test_a_lab_tree_is_parsed_and_checked_off_the_event_loop(db, monkeypatch):
    """A tree of 110,000 nodes (a megabyte) was parsed and checked on the event loop: every other client
    waited for it. It is read there, and parsed in the tree's own thread."""
    from kalah.web import lab

    seen = []
    validate = lab.TreeIn.model_validate_json

    def watched(data, *args, **kwargs):
        seen.append(threading.current_thread().name)
        return validate(data, *args, **kwargs)

    monkeypatch.setattr(lab.TreeIn, "model_validate_json", watched)
    body = {"position": {"board": [[4] * 6 + [0], [4] * 6 + [0]], "to_move": 0}, "parent": [None, 0], "move": [None, 2]}
    with make_client(db) as client:
        answer = client.post("/api/lab/tree", json={**body, "cutoff": [False, False]})
        assert answer.status_code == 200 and answer.json()["to_move"] == [0, 0]
        bad = client.post("/api/lab/tree", json={**body, "cutoff": "no"})
        assert bad.status_code == 422 and "cutoff" in bad.json()["detail"]
    assert seen and all(name.startswith("kalah-lab-tree") for name in seen)


def test_a_page_that_missed_several_moves_hears_each_of_them(db):
    """Another server process made three moves before this one read the game again (its notifications
    coalesce): each of this process's pages still gets each move as a state of its own, in order, and a page
    that had seen some of them only the rest."""
    from kalah.web.live.hub import PushConnection

    with make_client(db) as client:
        game_id, tokens = start(client)
        live = client.app.state.live
        behind, halfway = (PushConnection(None, "addr:test", f"game:{game_id}") for _ in range(2))
        view = client.portal.call(live.view, game_id)
        for connection in (behind, halfway):
            live.hub.join(connection)
            connection.version, connection.moves = view.row.version, 0
        library = live.games.library
        for number, pit in enumerate((2, 5, 0)):  # as another process would: stored, nobody here told
            library.add_move(game_id, pit, expected_moves=number)
        halfway.moves = 1  # it saw the first already
        with live.database.write() as session:  # the row moves on, as each move's transaction does
            live.store.update(session, live.store.row(session, game_id))

        async def refreshed():
            live.rereads.ask(game_id)
            while live.rereads.running(game_id):
                await asyncio.sleep(0.01)

        client.portal.call(refreshed)
        heard = {
            name: [connection.queue.get_nowait()["state"]["moves"] for _ in range(connection.queue.qsize())]
            for name, connection in (("behind", behind), ("halfway", halfway))
        }
        assert heard == {"behind": [1, 2, 3], "halfway": [2, 3]}


def test_a_change_pushed_while_a_page_is_greeted_from_an_older_read_still_reaches_it(db):
    """A page joined and its greeting was read before the first move; the move (another process's) was
    pushed to the pages greeted by then, which this one was not yet: the greeting must not be the last news
    it hears (bench_servers saw games stall at "no push of move 1")."""
    from kalah.web.live.hub import PushConnection

    with make_client(db) as client:
        game_id, _ = start(client)
        live = client.app.state.live
        page = PushConnection(None, "addr:test", f"game:{game_id}")
        live.hub.join(page)
        stale = client.portal.call(live.view, game_id)
        live.games.library.add_move(game_id, 2, expected_moves=0)  # as another process would
        with live.database.write() as session:
            live.store.update(session, live.store.row(session, game_id))

        async def pushed_then_greeted():
            live.rereads.ask(game_id)
            while live.rereads.running(game_id):
                await asyncio.sleep(0.01)
            live.hello(page, stale)
            await asyncio.sleep(0.05)
            while live.rereads.running(game_id):
                await asyncio.sleep(0.01)

        client.portal.call(pushed_then_greeted)
        heard = [page.queue.get_nowait() for _ in range(page.queue.qsize())]
        assert [message["type"] for message in heard] == ["hello", "state"]
        assert heard[0]["state"]["moves"] == 0 and heard[-1]["state"]["moves"] == 1
