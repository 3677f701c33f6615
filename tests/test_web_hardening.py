"""The server under hostile or clumsy clients: bounded work, moves that cannot land on the wrong side,
4xx (never 5xx) for bad input, a locked or damaged library, and no processes left behind."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest
from fastapi.testclient import TestClient

from kalah import Position
from kalah.records import GameLibrary, PlayerInfo, StaleGameError
from kalah.web import create_app
from kalah.web.worker import capped_spec


@pytest.fixture()
def db(tmp_path):
    return tmp_path / "games.sqlite"


def _client(db, **options):
    # a browser on the server's machine, as kalah serve's own user is: it may delete games
    app = create_app(db, workers=1, pool="thread", **options)
    return TestClient(app, base_url="http://localhost", client=("127.0.0.1", 5000))


@pytest.fixture()
def client(db):
    with _client(db) as client:
        yield client


def new_game(client, players=("human", "human")):
    response = client.post("/api/games", json={"players": list(players)})
    assert response.status_code == 201, response.text
    return response.json()


def post(client, game, action, **body):
    return client.post(f"/api/games/{game['id']}/{action}", json=body)


# --- bounded work -------------------------------------------------------------------


def test_engine_time_is_capped_whatever_the_spec_asks():
    assert capped_spec("pvs:time=20", 5) == "pvs:time=5"
    assert capped_spec("pvs:depth=30", 5) == "pvs:depth=30,time=5"  # the search stops at whichever comes first
    assert capped_spec("alphabeta:time=0.5", 5) == "alphabeta:time=0.5"
    assert capped_spec("mcts:playouts=100000000", 2) == "mcts:playouts=100000000,time=2"
    assert capped_spec("perfect", 5) == "perfect:time=3.25,fallback=1.5"
    assert capped_spec("random:seed=3", 5) == "random:seed=3"
    assert capped_spec("pvs:time=abc", 5) == "pvs:time=abc"  # left for make_player to refuse


def test_a_slow_spec_answers_within_the_cap(db):
    with _client(db, move_seconds=0.3) as client:
        game = new_game(client, ("pvs:time=20", "human"))
        response = post(client, game, "computer-move", moves=0)
        assert response.status_code == 200, response.text
        record = client.get(f"/api/games/{game['id']}/record").json()
        assert record["moves"][0]["seconds"] < 0.3 + 0.5  # the search stopped at the cap, not at 20 s


def test_a_client_over_its_share_of_engine_jobs_gets_429_with_retry_after(db):
    with _client(db, move_seconds=1.5, client_jobs=2) as client:  # the test client: one address
        games = [new_game(client, ("pvs:time=20", "human")) for _ in range(3)]
        answers: dict[int, object] = {}

        def ask(number):
            answers[number] = post(client, games[number], "computer-move", moves=0)

        threads = [threading.Thread(target=ask, args=(number,)) for number in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        statuses = sorted(answer.status_code for answer in answers.values())
        assert statuses == [200, 200, 429], [answer.text for answer in answers.values()]
        refused = next(answer for answer in answers.values() if answer.status_code == 429)
        assert refused.headers["Retry-After"] == "1" and "engine jobs" in refused.json()["detail"]


def test_a_request_body_over_the_limit_is_refused_before_it_is_read(db):
    with _client(db, max_body=10_000) as client:
        response = client.post(
            "/api/games",
            content=b'{"names": ["' + b"x" * 20_000 + b'", null]}',
            headers={"Content-Type": "application/json"},
        )
        assert response.status_code == 413 and "larger than" in response.json()["detail"]

        def chunks():  # no Content-Length: counted as it arrives
            for _ in range(30):
                yield b" " * 1000

        response = client.post("/api/records", content=chunks(), headers={"Content-Type": "application/json"})
        assert response.status_code == 413
        assert client.get("/api/games").json() == []


def test_a_refused_body_is_not_echoed_back(client):
    response = client.post("/api/games", json={"players": ["human", "human"], "names": ["N" * 100_000, None]})
    assert response.status_code == 422 and "60 characters" in response.text
    assert len(response.content) < 2_000


# --- moves that cannot land on the wrong side ---------------------------------------


def test_a_double_click_plays_one_move(client):
    game = new_game(client)
    first = post(client, game, "moves", move=0, moves=0)
    second = post(client, game, "moves", move=1, moves=0)  # the same click, sent again
    assert first.status_code == 200 and second.status_code == 409, second.text
    assert "moved on" in second.json()["detail"]
    assert client.get(f"/api/games/{game['id']}").json()["history"] == ["A"]


def test_stale_take_back_redo_and_computer_moves_change_nothing(client):
    game = new_game(client, ("human", "random:seed=1"))
    assert post(client, game, "moves", move=0, moves=0).status_code == 200
    assert post(client, game, "computer-move", moves=0).status_code == 409
    assert post(client, game, "computer-move", moves=1).status_code == 200
    assert post(client, game, "takeback", moves=1).status_code == 409
    assert post(client, game, "takeback", moves=2).status_code == 200
    assert post(client, game, "redo", moves=2).status_code == 409
    assert post(client, game, "redo", moves=0).status_code == 200
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 2


def test_two_servers_on_one_library_cannot_both_play_a_move(postgres_url):
    with _client(postgres_url) as one, _client(postgres_url) as two:
        game = new_game(one)
        assert post(one, game, "moves", move=0, moves=0).status_code == 200
        assert post(two, game, "moves", move=5, moves=0).status_code == 409  # two saw the game before the move
    library = GameLibrary(postgres_url)
    with pytest.raises(StaleGameError):
        library.add_move(game["id"], 5, expected_moves=0)
    assert [move.move for move in library.record(game["id"]).moves] == [0]


# --- 4xx for every bad input ---------------------------------------------------------


@pytest.mark.parametrize(
    "method, url, body",
    [
        ("GET", f"/api/games/{2**63}", None),
        ("GET", "/api/games/-1", None),
        ("GET", f"/api/games?limit={10**30}", None),
        ("POST", "/api/games/1/analysis", '{"seconds": NaN}'),
        (
            "POST",
            "/api/analyse",
            '{"position": {"board": [[4,4,4,4,4,4,0],[4,4,4,4,4,4,0]], "to_move": 0}, "seconds": NaN}',
        ),
        ("POST", "/api/analyse", '{"position": {"board": ' + "[" * 5000 + "]" * 5000 + ', "to_move": 0}}'),
        ("POST", "/api/games", '{"players": ["human", "human"], "names": ["\\ud800", null]}'),
        ("POST", "/api/games", '{"players": ["human", "human"], "names": ["a\\u0000b", null]}'),
        ("POST", "/api/games", '{"players": ["human", "human"], "surprise": 1}'),
        ("GET", "/api/board.svg?board=" + "[" * 1500, None),
    ],
)
def test_bad_input_is_a_4xx(client, method, url, body):
    new_game(client)
    response = client.request(method, url, content=body, headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])


def test_odd_moves_are_refused_with_422(client):
    game = new_game(client)
    for move in ["²", "٣", "1e3", " ", "swap", 255]:
        response = post(client, game, "moves", move=move, moves=0)
        assert response.status_code == 422, (move, response.text)
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 0


def _record(**changes):
    from kalah.records import GameRecord

    record = GameRecord(Position.start(), [PlayerInfo("Ann", "human"), PlayerInfo("Bob", "human")])
    position = record.start
    for move in (2, 5):
        player, position = position.to_move, position.play(move)
        record.add_move(player, move, position)
    data = record.to_dict()
    for path, value in changes.items():
        target = data
        *parents, last = path.split(".")
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        target[int(last) if isinstance(target, list) else last] = value
    return data


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(_record(**{"result": {"stop_reason": {"an": "object"}}})),
        json.dumps(_record(**{"moves.0.seconds": 1e400})),  # written as Infinity
        json.dumps(_record(**{"moves.0.seconds": float("nan")})),
        json.dumps(_record(**{"moves.0.info": {"value": float("inf")}})),
        json.dumps(_record(**{"players.0.name": ["not", "text"]})),
        json.dumps(_record(**{"players.0.name": "x" * 1000})),
        json.dumps(_record(**{"started_at": 5})),
    ],
)
def test_records_are_checked_completely_on_import(client, text):
    response = client.post("/api/records", content=text, headers={"Content-Type": "application/json"})
    assert response.status_code == 422, response.text
    assert client.get("/api/games").json() == []


def test_whatever_is_imported_reads_back(client):
    response = client.post("/api/records", json=_record(**{"moves.0.info": {"note": "é ✓"}}))
    assert response.status_code == 201, response.text
    game_id = response.json()["id"]
    for url in (f"/api/games/{game_id}", f"/api/games/{game_id}/record", f"/api/games/{game_id}/replay", "/api/games"):
        assert client.get(url).status_code == 200


# --- a locked, read-only or damaged library ---------------------------------------------


def test_an_unknown_game_is_a_404_that_names_only_the_game(db, client):
    """The 404 said "no game 999 in /home/.../games.sqlite": nothing the server says reveals its paths."""
    for response in (
        client.get("/api/games/999"),
        client.get("/api/games/999/record"),
        client.get("/api/games/999/replay"),
        client.delete("/api/games/999"),
    ):
        assert response.status_code == 404 and response.json() == {"detail": "no game 999"}, response.text


def test_a_locked_library_answers_503_soon_and_reads_go_on(db, client):
    game = new_game(client)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program writing and not letting go
    try:
        response = post(client, game, "moves", move=0, moves=0)
        assert response.status_code == 503, response.text
        assert "locked by another program" in response.json()["detail"] and "Retry-After" in response.headers
        assert str(db) not in response.text and str(db.parent) not in response.text  # issue 32: no server paths
        assert client.get(f"/api/games/{game['id']}").status_code == 200  # WAL: readers are not blocked
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert post(client, game, "moves", move=0, moves=0).status_code == 200


def test_a_damaged_game_is_named_and_the_others_stay_usable(db, client):
    damaged, healthy = new_game(client), new_game(client)
    for game in (damaged, healthy):
        assert post(client, game, "moves", move=0, moves=0).status_code == 200
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE moves SET move = '\u00b2' WHERE game_id = ?", (damaged["id"],))
    for url in ("", "/record", "/replay"):
        response = client.get(f"/api/games/{damaged['id']}{url}")
        assert response.status_code == 422 and f"game {damaged['id']}" in response.json()["detail"], response.text
        assert str(db.parent) not in response.text, response.text
    assert client.get(f"/api/games/{healthy['id']}").status_code == 200
    assert client.get("/api/games").status_code == 200


def test_the_command_line_says_the_library_is_locked_in_one_line(db, tmp_path):
    import subprocess
    import sys

    library = GameLibrary(db)
    library.create_game(Position.start(), [PlayerInfo("A", "human"), PlayerInfo("B", "human")])
    library.close()
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("PRAGMA journal_mode = DELETE")
    holder.execute("BEGIN EXCLUSIVE")  # outside WAL an exclusive lock stops readers too
    try:
        result = subprocess.run(
            [sys.executable, "-m", "kalah.cli", "games", "--db", str(db), "delete", "1", "--yes"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"kalah: error: the game library {db} is locked by another program"]


# --- the connection after an error ------------------------------------------------------


def test_a_keep_alive_connection_survives_every_kind_of_error(db):
    """A refused request answers and keeps the connection: the next request on the same socket is served
    (a 500 used to reset it, so a client's following request failed too)."""
    import http.client

    from helpers import kill_group, start_kalah_serve

    process, url = start_kalah_serve(db)
    try:
        connection = http.client.HTTPConnection(url.removeprefix("http://"), timeout=30)
        json_header = {"Content-Type": "application/json"}

        def ask(method, path, body=None, headers=json_header):
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            return response

        assert ask("POST", "/api/games", '{"players": ["human", "human"]}').status == 201
        sock = connection.sock
        for method, path, body, status in [
            ("GET", f"/api/games/{2**63}", None, 422),
            ("GET", "/api/games/999999", None, 404),
            ("GET", f"/api/games?limit={10**30}", None, 422),
            ("POST", "/api/games", "{not json", 422),
            ("POST", "/api/games", '{"players": ["human", "human"], "names": ["\\ud800", null]}', 422),
            ("POST", "/api/games/1/moves", '{"move": 3, "moves": 7}', 409),
            ("POST", "/api/games", '{"players": ["exec:true", "human"]}', 403),
            ("POST", "/api/games", '{"players": ["' + "x" * 2_000_000 + '", "human"]}', 413),
        ]:
            response = ask(method, path, body)
            assert response.status == status, (method, path, response.status)
            assert not response.will_close, (method, path, response.getheader("connection"))
            assert ask("GET", "/api/info").status == 200
            assert connection.sock is sock, f"the connection was closed after {method} {path}"
        connection.close()
    finally:
        kill_group(process)


# --- the API schema, fuzzed -------------------------------------------------------------


def test_no_request_the_schema_allows_gets_a_server_error(db):
    schemathesis = pytest.importorskip("schemathesis")
    from hypothesis import HealthCheck, given, settings

    app = create_app(db, workers=1, pool="thread", move_seconds=0.2)
    with TestClient(app, base_url="http://localhost") as client:
        game = new_game(client, ("human", "random:seed=1"))
        schema = schemathesis.openapi.from_dict(client.get("/openapi.json").json())
        failures = []
        for result in schema.get_all_operations():
            operation = result.ok()

            @given(operation.as_strategy())
            @settings(
                max_examples=60, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
            )
            def check(case):
                if "game_id" in (case.path_parameters or {}) and case.path_parameters["game_id"] % 2:
                    case.path_parameters["game_id"] = game["id"]  # half the cases on a real game

                def given_or_none(value):
                    return None if type(value).__name__ == "NotSet" else value

                response = client.request(
                    case.method, case.formatted_path, params=given_or_none(case.query), json=given_or_none(case.body)
                )
                if response.status_code >= 500:
                    failures.append(
                        (case.method, case.formatted_path, case.body, response.status_code, response.text[:200])
                    )

            check()
        assert failures == []


def test_perfect_play_on_the_largest_variant_answers_within_the_cap(db):
    from kalah import Variant
    from kalah.records import GameRecord

    record = GameRecord(Position.start(Variant(8, 15)), [PlayerInfo("P", "perfect"), PlayerInfo("H", "human")])
    app = create_app(db, workers=1, pool="process", move_seconds=1.0)
    with TestClient(app, base_url="http://localhost") as client:
        game = client.post("/api/records", json=record.to_dict()).json()
        response = post(client, game, "computer-move", moves=0)
        assert response.status_code == 200, response.text
        seconds = client.get(f"/api/games/{game['id']}/record").json()["moves"][0]["seconds"]
        assert seconds < 1.0 + 0.5  # the solver and its fallback shared the cap


def test_games_can_be_deleted_and_a_left_computer_game_is_marked_unfinished(client):
    people = new_game(client)
    assert post(client, people, "moves", move=0, moves=0).status_code == 200
    machines = new_game(client, ("random:seed=1", "random:seed=2"))
    assert post(client, machines, "computer-move", moves=0).status_code == 200
    assert client.post(f"/api/games/{machines['id']}/leave").json()["status"] == "stopped"
    assert client.post(f"/api/games/{people['id']}/leave").json()["status"] == "playing"  # people come back
    assert client.delete(f"/api/games/{people['id']}").status_code == 204
    assert client.get(f"/api/games/{people['id']}").status_code == 404
    assert client.delete(f"/api/games/{people['id']}").status_code == 404
    assert [game["id"] for game in client.get("/api/games").json()] == [machines["id"]]


def test_new_games_offer_every_variant_the_rules_allow(client):
    for pits, seeds in ((1, 1), (8, 15)):
        response = client.post(
            "/api/games", json={"players": ["human", "human"], "variant": {"pits": pits, "seeds": seeds}}
        )
        assert response.status_code == 201 and response.json()["variant_name"] == f"Kalah({pits},{seeds})"
    assert client.post("/api/games", json={"variant": {"pits": 13}}).status_code == 422


def test_a_game_left_before_its_first_move_leaves_nothing_in_the_library(client):
    """Abandoned pages piled "in progress" games up in the library (issue 32, item 4)."""
    for players in (("human", "random:seed=1"), ("random:seed=1", "human"), ("random:seed=1", "random:seed=2")):
        game = new_game(client, players)
        left = client.post(f"/api/games/{game['id']}/leave", json={"token": game["leave_token"]})
        assert left.status_code == 200 and left.json()["moves"] == 0
        assert client.get(f"/api/games/{game['id']}").status_code == 404
    assert client.get("/api/games").json() == []


def test_only_the_page_that_stored_a_new_game_deletes_it_by_leaving(client):
    """Ids are sequential: a stranger's leave deleted every game just started by others before its first move."""
    people, machines = new_game(client), new_game(client, ("random:seed=1", "random:seed=2"))
    assert people["leave_token"] != machines["leave_token"]
    for stranger in ({}, {"token": None}, {"token": "x"}, {"token": machines["leave_token"]}, {"token": "é" * 32}):
        assert client.post(f"/api/games/{people['id']}/leave", json=stranger).json()["status"] == "playing"
    assert client.post(f"/api/games/{people['id']}/leave").json()["status"] == "playing"  # no body at all
    assert client.post(f"/api/games/{machines['id']}/leave").json()["status"] == "stopped"  # as a begun one
    assert [game["id"] for game in client.get("/api/games").json()] == [machines["id"], people["id"]]
    assert client.post(f"/api/games/{people['id']}/leave", json={"token": "x" * 65}).status_code == 422
    creator = {"token": people["leave_token"]}
    assert client.post(f"/api/games/{people['id']}/leave", json=creator).status_code == 200
    assert client.get(f"/api/games/{people['id']}").status_code == 404
    # a preview stores nothing and an unstarted game reused may be someone else's: neither has a secret
    assert client.post("/api/games", json={"preview": True}).json()["leave_token"] is None
    first = client.post("/api/games", json={}).json()
    again = client.post("/api/games", json={"reuse_unstarted": True}).json()
    assert again["id"] == first["id"] and again["leave_token"] is None
    # once begun, the creator's secret deletes it no more (a person comes back to a game begun)
    assert post(client, first, "moves", move=0, moves=0).status_code == 200
    assert post(client, first, "takeback", moves=1).json()["moves"] == 0
    left = client.post(f"/api/games/{first['id']}/leave", json={"token": first["leave_token"]})
    assert left.status_code == 200 and client.get(f"/api/games/{first['id']}").status_code == 200


def test_the_leave_secret_is_kept_in_the_library_for_every_server_process(db):
    """The secret that lets a page delete its unstarted game by leaving was held in one process's memory: a
    second server on the library, or a restart, kept the game. The library keeps its digest now."""
    with _client(db) as client:
        game = new_game(client)
        stored = sqlite3.connect(db).execute("SELECT leave_digest FROM games WHERE id = ?", (game["id"],)).fetchone()
        assert stored[0] and game["leave_token"] not in stored[0]  # a digest, not the secret
    with _client(db) as restarted:  # another process (or the same after a restart) knows it from the library
        wrong = restarted.post(f"/api/games/{game['id']}/leave", json={"token": "not-the-secret"})
        assert wrong.status_code == 200 and restarted.get(f"/api/games/{game['id']}").status_code == 200
        left = restarted.post(f"/api/games/{game['id']}/leave", json={"token": game["leave_token"]})
        assert left.status_code == 200 and restarted.get(f"/api/games/{game['id']}").status_code == 404
