"""Issue 26, the HTTP half: no client hurts the others or acts from another website.

Strict types, records every route can return, redo across servers, the Origin
check and frame headers, rates and caps on growth, paged listing, bounded
per-game locks, and heavy requests off the event loop. (Slow and idle
connections: tests/test_web_connections.py.)
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kalah.players import PlayerSpecError, make_player
from kalah.web import create_app


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


def new_game(client, players=("human", "human"), **body):
    response = client.post("/api/games", json={"players": list(players), **body})
    assert response.status_code == 201, response.text
    return response.json()


# --- strict input (item 11) ----------------------------------------------------------


@pytest.mark.parametrize(
    "path, body",
    [
        ("moves", {"move": True, "moves": 0}),
        ("moves", {"move": 0, "moves": "0"}),
        ("moves", {"move": 0, "moves": False}),
        ("moves", {"move": 1.0, "moves": 0}),
        ("moves", {"move": "3", "moves": 0}),
        ("moves", {"move": " 2 ", "moves": 0}),
        ("takeback", {"moves": True}),
        ("redo", {"moves": "0"}),
        ("computer-move", {"moves": 0.0}),
    ],
)
def test_booleans_and_strings_are_not_numbers_in_a_game(client, path, body):
    game = new_game(client)
    response = client.post(f"/api/games/{game['id']}/{path}", json=body)
    assert response.status_code == 422, response.text
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 0


@pytest.mark.parametrize(
    "variant", [{"pits": True}, {"seeds": "4"}, {"pits": 6.0}, {"pie_rule": "yes"}, {"empty_capture": 1}]
)
def test_a_variant_takes_integers_and_booleans_only(client, variant):
    response = client.post("/api/games", json={"players": ["human", "human"], "variant": variant})
    assert response.status_code == 422, response.text
    assert client.get("/api/games").json() == []


@pytest.mark.parametrize("body", [{"preview": "yes"}, {"reuse_unstarted": 1}])
def test_flags_of_a_new_game_are_booleans(client, body):
    assert client.post("/api/games", json={"players": ["human", "human"], **body}).status_code == 422


@pytest.mark.parametrize(
    "url, body",
    [
        ("/api/analyse", {"position": {"board": [[4] * 6 + [0], [4] * 6 + [0]], "to_move": 0}, "seconds": "1"}),
        ("/api/analyse", {"position": {"board": [[4] * 6 + [0], [4] * 6 + [0]], "to_move": 0}, "seconds": True}),
        ("/api/trace", {"position": {"board": [[4] * 6 + [0], [4] * 6 + [0]], "to_move": 0}, "depth": "3"}),
        ("/api/trace", {"position": {"board": [[4] * 6 + [0], [4] * 6 + [0]], "to_move": 0}, "depth": True}),
        ("/api/lab/line", {"position": {"board": [[4] * 6 + [0], [4] * 6 + [0]], "to_move": 0}, "moves": [True]}),
        (
            "/api/lab/tree",
            {
                "position": {"board": [[4] * 6 + [0], [4] * 6 + [0]], "to_move": 0},
                "parent": [None],
                "move": [None],
                "cutoff": [0],
            },
        ),
    ],
)
def test_engine_and_lab_requests_take_strict_types(client, url, body):
    response = client.post(url, json=body)
    assert response.status_code == 422, response.text


def test_a_pit_letter_and_swap_are_still_text(client):
    game = new_game(client, variant={"pie_rule": True})
    game = client.post(f"/api/games/{game['id']}/moves", json={"move": "C", "moves": 0}).json()
    assert game["history"] == ["C"]
    assert client.post(f"/api/games/{game['id']}/moves", json={"move": "swap", "moves": 1}).status_code == 200


def test_an_integer_still_counts_as_seconds(client):
    response = client.post(
        "/api/analyse", json={"position": {"board": [[4] * 6 + [0], [4] * 6 + [0]], "to_move": 0}, "seconds": 1}
    )
    assert response.status_code == 200, response.text


@pytest.mark.parametrize(
    "spec, words",
    [
        ("pvs:time=inf", "finite"),
        ("pvs:time=nan", "finite"),
        ("pvs:time=1e400", "finite"),
        ("pvs:time=100000", "at most"),
        ("pvs:depth=99999999999999999999", "at most"),
        ("perfect:time=inf", "finite"),
        ("perfect:fallback=-inf", "finite"),
        ("random:seed=99999999999999999999", "at most"),
    ],
)
def test_player_specs_take_finite_bounded_numbers(client, spec, words):
    with pytest.raises(PlayerSpecError, match=words):
        make_player(spec)
    response = client.post("/api/games", json={"players": [spec, "human"]})
    assert response.status_code == 422 and words in response.json()["detail"], response.text


def test_reasonable_specs_still_work():
    assert make_player("pvs:time=0.5,depth=30").spec == "pvs:time=0.5,depth=30"


# --- per-game locks (item 10) ----------------------------------------------------------


def test_requests_for_unknown_games_leave_no_lock_behind(client):
    game = new_game(client)
    for game_id in range(10_000, 12_000):
        path = ("moves", "takeback", "redo", "computer-move", "leave")[game_id % 5]
        body = {"move": 0, "moves": 0} if path == "moves" else {} if path == "leave" else {"moves": 0}
        assert client.post(f"/api/games/{game_id}/{path}", json=body).status_code == 404
        assert client.delete(f"/api/games/{game_id + 5000}").status_code == 404
    assert client.post(f"/api/games/{game['id']}/moves", json={"move": 0, "moves": 0}).status_code == 200
    locks = client.app.state.service._locks
    assert len(locks) == 0, f"{len(locks)} locks kept"


# --- records every route can return (item 5) ---------------------------------------------


def _record_with_info(info):
    from kalah import Position
    from kalah.records import GameRecord, PlayerInfo

    record = GameRecord(Position.start(), [PlayerInfo("A", "human"), PlayerInfo("B", "human")])
    record.add_move(0, 2, Position.start().play(2), info={"note": "fine"})
    data = record.to_dict()
    data["moves"][0]["info"] = info
    return data


def _nested(levels):
    value: list = []
    for _ in range(levels - 1):
        value = [value]
    return value


@pytest.mark.parametrize(
    "info, words",
    [
        ({"pv": "\ud800"}, "surrogate"),
        ({"\udfff": 1}, "surrogate"),
        ({"deep": _nested(953)}, "nested"),
        ({"deep": _nested(30)}, "nested"),
    ],
)
def test_a_record_no_route_could_return_is_refused_at_import(client, info, words):
    import json

    body = json.dumps(_record_with_info(info))  # ASCII: the surrogate travels as \ud800, as an attacker sends it
    response = client.post("/api/records", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 422, response.text
    assert words in response.json()["detail"]
    assert client.get("/api/games").json() == []


def test_an_imported_record_with_rich_info_reads_back_on_every_route(client):
    info = {"pv": ["A", "B"], "depth": 7, "text": "é ♟ 𝄞", "tree": _nested(19)}
    response = client.post("/api/records", json=_record_with_info(info))
    assert response.status_code == 201, response.text
    game_id = response.json()["id"]
    for path in ("", "/record", "/record?download=true", "/replay"):
        answer = client.get(f"/api/games/{game_id}{path}")
        assert answer.status_code == 200, (path, answer.text)
    assert client.get(f"/api/games/{game_id}/record").json()["moves"][0]["info"] == info


def test_a_bad_info_already_in_the_library_is_a_4xx_not_a_500(db, client):
    import sqlite3

    game_id = client.post("/api/records", json=_record_with_info({"pv": "ok"})).json()["id"]
    with sqlite3.connect(db) as connection:  # stored by an older version, or by hand
        connection.execute("UPDATE moves SET info = ? WHERE game_id = ?", ('{"pv": "\\ud800"}', game_id))
    for path in ("/record", "/replay", ""):
        answer = client.get(f"/api/games/{game_id}{path}")
        assert answer.status_code == 422, (path, answer.status_code, answer.text[:200])
        assert "damaged" in answer.json()["detail"]


# --- redo across servers (item 6) ---------------------------------------------------------


def _act(client, game_id, action, **body):
    return client.post(f"/api/games/{game_id}/{action}", json=body)


def test_redo_after_another_server_played_is_refused(postgres_url):
    """A plays, A takes back, B plays, A redoes: the taken-back move must not be played in B's position (two
    servers on one PostgreSQL library; a second server on a SQLite library is refused)."""
    with _client(postgres_url) as one, _client(postgres_url) as two:
        game_id = new_game(one)["id"]
        assert _act(one, game_id, "moves", move=2, moves=0).status_code == 200
        assert _act(one, game_id, "takeback", moves=1).json()["can_redo"] is True
        assert two.get(f"/api/games/{game_id}").json()["can_redo"] is True  # one library, one redo list
        assert _act(two, game_id, "moves", move=0, moves=0).status_code == 200
        assert one.get(f"/api/games/{game_id}").json()["can_redo"] is False
        response = _act(one, game_id, "redo", moves=1)
        assert response.status_code == 409, response.text
        assert "nothing to redo" in response.json()["detail"]
        assert one.get(f"/api/games/{game_id}").json()["history"] == ["A"]


def test_redo_on_another_server_replays_what_was_taken_back(postgres_url):
    with _client(postgres_url) as one, _client(postgres_url) as two:
        game_id = new_game(one, ("human", "random:seed=3"))["id"]
        assert _act(one, game_id, "moves", move=0, moves=0).status_code == 200
        assert _act(one, game_id, "computer-move", moves=1).status_code == 200
        before = one.get(f"/api/games/{game_id}").json()
        seconds = one.get(f"/api/games/{game_id}/record").json()["moves"][1]["seconds"]
        taken = _act(one, game_id, "takeback", moves=2).json()
        assert taken["moves"] == 0 and taken["can_redo"]
        redone = _act(two, game_id, "redo", moves=0)
        assert redone.status_code == 200, redone.text
        assert redone.json()["history"] == before["history"] and not redone.json()["can_redo"]
        assert _act(one, game_id, "redo", moves=2).status_code == 409  # the stack is shared: nothing left
        assert one.get(f"/api/games/{game_id}/record").json()["moves"][1]["seconds"] == seconds


def test_the_library_keeps_a_stack_of_take_backs(db):
    from kalah import Position
    from kalah.records import GameLibrary, PlayerInfo

    library = GameLibrary(db)
    game_id = library.create_game(Position.start(), [PlayerInfo("A", "human"), PlayerInfo("B", "human")])
    for number, move in enumerate([0, 1, 5]):
        library.add_move(game_id, move, expected_moves=number)
    library.take_back(game_id, 1, keep_for_redo=True)
    library.take_back(game_id, 1, keep_for_redo=True)
    assert library.redo_steps(game_id) == 2
    other = GameLibrary(db)  # another program on the same file
    assert other.redo(game_id, expected_moves=1) is not None
    assert [m.move for m in library.record(game_id).moves] == [0, 1]
    assert library.redo(game_id, expected_moves=2) is not None
    assert [m.move for m in library.record(game_id).moves] == [0, 1, 5]
    assert library.redo(game_id) is None
    library.take_back(game_id, 2, keep_for_redo=True)
    library.take_back(game_id, 1)  # a take-back that keeps nothing empties the stack
    assert library.redo_steps(game_id) == 0 and library.redo(game_id) is None
    library.add_move(game_id, 0)
    library.take_back(game_id, 1, keep_for_redo=True)
    library.delete_game(game_id)
    assert library.redo_steps(game_id) == 0  # deleted with its game


# --- other websites (item 7) -----------------------------------------------------------------


def _game_in_play(client):
    """A computer-against-computer game begun (one left before its first move is deleted, not stopped)."""
    game = new_game(client, ("random:seed=1", "random:seed=2"))
    game = client.post(f"/api/games/{game['id']}/computer-move", json={"moves": 0}).json()
    assert game["status"] == "playing" and not game["over"] and game["moves"] == 1
    return game


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},  # a form posted from another site
        {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"},  # no-cors fetch
        {"Origin": "null"},  # a sandboxed frame, a file: page
        {"Origin": "http://localhost:3000"},  # another server on this machine
        {"Origin": "http://localhost.evil.example"},
        {"Origin": "http://localhost@evil.example"},
        {"Sec-Fetch-Site": "same-site"},  # Fetch Metadata alone
        {"Sec-Fetch-Site": "cross-site", "Origin": "http://localhost"},  # the two disagree: refused
    ],
)
def test_a_cross_site_request_changes_nothing(client, headers):
    game = _game_in_play(client)
    games_before = client.get("/api/games").json()
    for method, url, body in [
        ("POST", f"/api/games/{game['id']}/leave", None),  # no body, as a form sends it
        ("POST", f"/api/games/{game['id']}/computer-move", b'{"moves": 0}'),
        ("POST", "/api/games", b'{"players": ["human", "human"]}'),
        ("DELETE", f"/api/games/{game['id']}", None),
        ("POST", "/api/analyse", b'{"position": {"board": [[4,4,4,4,4,4,0],[4,4,4,4,4,4,0]], "to_move": 0}}'),
        ("POST", "/api/lab/line", b'{"position": {"board": [[4,4,4,4,4,4,0],[4,4,4,4,4,4,0]], "to_move": 0}}'),
    ]:
        response = client.request(method, url, content=body, headers={"Content-Type": "text/plain", **headers})
        assert response.status_code == 403, (method, url, response.status_code, response.text)
        assert "another website" in response.json()["detail"]
    assert client.get("/api/games").json() == games_before
    assert client.get(f"/api/games/{game['id']}").json()["status"] == "playing"


def test_a_cross_site_image_or_script_cannot_reach_the_api(client):
    game = _game_in_play(client)
    cross = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}
    assert client.get(f"/api/games/{game['id']}/analysis", headers=cross).status_code == 403
    assert client.get("/api/board.svg?board=[[1,0],[1,0]]", headers=cross).status_code == 403
    link = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}
    assert client.get(f"/api/games/{game['id']}/record", headers=link).status_code == 200  # a followed link
    assert client.get("/", headers=cross).status_code == 200  # pages and static files are not the API


@pytest.mark.parametrize(
    "headers",
    [
        {},  # curl, scripts, kalah, agents
        {"Origin": "http://localhost"},  # the page itself
        {"Origin": "http://localhost:80", "Sec-Fetch-Site": "same-origin"},
        {"Origin": "https://localhost", "Sec-Fetch-Site": "same-origin"},  # behind a proxy that ends TLS
        {"Sec-Fetch-Site": "none"},  # typed by the user
        {"Origin": "https://kalah.example.org", "Sec-Fetch-Site": "same-origin"},  # a proxy that rewrites Host
    ],
)
def test_same_origin_pages_and_plain_clients_keep_working(client, headers):
    game = _game_in_play(client)
    response = client.post(f"/api/games/{game['id']}/leave", headers=headers)
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "stopped"
    created = client.post("/api/games", json={"players": ["human", "human"]}, headers=headers)
    assert created.status_code == 201, created.text


def test_an_allowed_host_on_its_own_port_is_same_origin(db):
    app = create_app(db, workers=1, pool="thread", allowed_hosts=["kalah.lan", "[::1]"])
    with TestClient(app, base_url="http://kalah.lan:8000") as client:
        good = client.post(
            "/api/games", json={"players": ["human", "human"]}, headers={"Origin": "http://kalah.lan:8000"}
        )
        assert good.status_code == 201, good.text
        bad = client.post(
            "/api/games", json={"players": ["human", "human"]}, headers={"Origin": "http://kalah.lan:8001"}
        )
        assert bad.status_code == 403
    with TestClient(app, base_url="http://[::1]:8000") as client:
        assert (
            client.post(
                "/api/games", json={"players": ["human", "human"]}, headers={"Origin": "http://[::1]:8000"}
            ).status_code
            == 201
        )


@pytest.mark.parametrize("path", ["/", "/lab", "/docs", "/api/info", "/static/index.html", "/api/games/999"])
def test_no_page_can_be_framed(client, path):
    response = client.get(path)
    assert response.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


# --- nothing heavy on the event loop (item 4) -------------------------------------------------


def _tree_body(nodes):
    """A traced tree's shape as the lab sends it: breadth first from the start, every 7th node a cutoff."""
    import json

    from kalah import Position

    start = Position.start()
    parent, move, cutoff, frontier = [None], [None], [False], [(0, start)]
    for node, position in frontier:
        for pit in position.legal_moves():
            if len(parent) == nodes:
                return json.dumps(
                    {"position": start.to_dict(), "parent": parent, "move": move, "cutoff": cutoff},
                    separators=(",", ":"),
                )
            parent.append(node), move.append(pit), cutoff.append(len(parent) % 7 == 0)
            frontier.append((len(parent) - 1, position.play(pit)))


def test_other_requests_are_answered_while_heavy_ones_run(db, tmp_path):
    """Lab trees (seconds of Python each), imports, exports and listings from two clients, and a third
    client's small requests still answer in milliseconds (they waited for whole trees on the event loop)."""
    import statistics
    import threading
    import time

    import httpx

    from helpers import kill_group, start_kalah_serve

    tree = _tree_body(60_000)
    assert len(tree) < 1_000_000  # under the default body limit
    process, url = start_kalah_serve(db)
    try:
        heavy = httpx.Client(base_url=url, timeout=60)
        check = heavy.post("/api/lab/tree", content=tree, headers={"Content-Type": "application/json"})
        assert check.status_code == 200 and len(check.json()["to_move"]) == 60_000, check.text[:200]
        record = heavy.get(f"/api/games/{_long_game(heavy)}/record").content
        stop = threading.Event()
        ran = []

        def load(kind):
            with httpx.Client(base_url=url, timeout=60) as client:
                while not stop.is_set():
                    if kind == "tree":
                        answer = client.post(
                            "/api/lab/tree", content=tree, headers={"Content-Type": "application/json"}
                        )
                    else:
                        answer = client.post(
                            "/api/records", content=record, headers={"Content-Type": "application/json"}
                        )
                        client.get("/api/games")
                        if answer.status_code == 201:  # a busy server may answer 429 or 503: ask again
                            client.get(f"/api/games/{answer.json()['id']}/record")
                    ran.append((kind, answer.status_code))

        loaders = [threading.Thread(target=load, args=(kind,)) for kind in ("tree", "tree", "records")]
        for thread in loaders:
            thread.start()
        time.sleep(1.0)
        latencies = []
        with httpx.Client(base_url=url, timeout=60) as probe:
            for _ in range(30):
                began = time.perf_counter()
                assert probe.get("/api/info").status_code == 200
                latencies.append(time.perf_counter() - began)
                time.sleep(0.05)
        stop.set()
        for thread in loaders:
            thread.join(timeout=60)
        assert ("tree", 200) in ran and ("records", 201) in ran, ran[:10]
        median = statistics.median(latencies)
        # on the event loop a tree blocked everyone for about a second (median 0.4-1 s); a busy shared machine
        # is allowed its noise
        assert median < 0.15, f"median {median:.3f} s, max {max(latencies):.3f} s"
    finally:
        kill_group(process)


def _long_game(client):
    """A stored game of many moves (random players): its id."""
    game = client.post(
        "/api/games", json={"players": ["random:seed=1", "random:seed=2"], "variant": {"pits": 8, "seeds": 15}}
    ).json()
    while not game["over"]:
        game = client.post(f"/api/games/{game['id']}/computer-move", json={"moves": game["moves"]}).json()
    return game["id"]


# --- bounded growth (item 9) ---------------------------------------------------------------


def test_a_client_starting_games_too_fast_gets_429_with_retry_after(db):
    with _client(db, games_per_minute=5) as client:
        for _ in range(5):
            new_game(client)
        refused = client.post("/api/games", json={"players": ["human", "human"]})
        assert refused.status_code == 429, refused.text
        assert 1 <= int(refused.headers["retry-after"]) <= 12 and "a minute" in refused.json()["detail"]
        preview = client.post("/api/games", json={"players": ["human", "human"], "preview": True})
        assert preview.status_code == 201  # stores nothing: not counted
        assert len(client.get("/api/games").json()) == 5


def test_a_client_importing_too_fast_gets_429_and_others_do_not(db):
    app = create_app(db, workers=1, pool="thread", imports_per_minute=3)
    record = _record_with_info({"pv": "ok"})
    with TestClient(app, base_url="http://localhost", client=("10.0.0.1", 5000)) as greedy:
        assert [greedy.post("/api/records", json=record).status_code for _ in range(4)] == [201, 201, 201, 429]
    with TestClient(app, base_url="http://localhost", client=("10.0.0.2", 5000)) as other:
        assert other.post("/api/records", json=record).status_code == 201


def test_the_rate_refills_over_the_minute():
    from kalah.web.limits import RateLimit

    now = [0.0]
    rate = RateLimit(6, max_keys=3, clock=lambda: now[0])
    assert [rate.take("a") for _ in range(6)] == [0.0] * 6
    assert rate.take("a") == pytest.approx(10.0)
    now[0] += 10.0
    assert rate.take("a") == 0.0 and rate.take("a") > 0
    for key in "bcdefgh":  # many addresses: the table stays small
        rate.take(key)
    assert len(rate._buckets) <= 3


def test_a_full_library_refuses_new_games_and_imports_with_507(db):
    with _client(db, max_library_bytes=1) as client:
        for url, body in [("/api/games", {"players": ["human", "human"]}), ("/api/records", _record_with_info({}))]:
            response = client.post(url, json=body)
            assert response.status_code == 507, response.text
            assert "full" in response.json()["detail"]
        assert client.get("/api/games").json() == []


def test_the_library_list_comes_a_page_at_a_time(db):
    from kalah import Position
    from kalah.records import GameLibrary, PlayerInfo

    library = GameLibrary(db)
    players = [PlayerInfo("A", "human"), PlayerInfo("B", "human")]
    ids = [library.create_game(Position.start(), players) for _ in range(250)]
    with _client(db) as client:
        first = client.get("/api/games")
        assert [game["id"] for game in first.json()] == ids[::-1][:100]
        seen, link = [game["id"] for game in first.json()], first.headers["link"]
        while link:
            page = client.get(link.split(";")[0].strip("<>"))
            seen += [game["id"] for game in page.json()]
            link = page.headers.get("link")
        assert seen == ids[::-1]
        assert [g["id"] for g in client.get(f"/api/games?limit=3&before={ids[10]}").json()] == ids[9:6:-1]
        assert client.get("/api/games?limit=5000").status_code == 422


def test_kalah_serve_takes_the_library_cap_in_megabytes(db):
    import sqlite3

    import httpx

    from helpers import kill_group, start_kalah_serve
    from kalah.records import GameLibrary

    GameLibrary(db)
    with sqlite3.connect(db) as connection:  # a library of a little over 1 MB
        connection.execute("CREATE TABLE ballast (data BLOB)")
        connection.execute("INSERT INTO ballast VALUES (?)", (b"x" * 1_200_000,))
    process, url = start_kalah_serve(db, "--max-library-mb", "1")
    try:
        response = httpx.post(f"{url}/api/games", json={"players": ["human", "human"]}, timeout=30)
        assert response.status_code == 507 and "--max-library-mb" in response.json()["detail"]
    finally:
        kill_group(process)
    process, url = start_kalah_serve(db, "--max-library-mb", "2")
    try:
        assert httpx.post(f"{url}/api/games", json={"players": ["human", "human"]}, timeout=30).status_code == 201
    finally:
        kill_group(process)


_SMALL_TREE = {
    "position": {"board": [[4] * 6 + [0], [4] * 6 + [0]], "to_move": 0},
    "parent": [None, 0],
    "move": [None, 2],
    "cutoff": [False, False],
}


def test_lab_trees_beyond_the_queue_get_503(client, monkeypatch):
    from kalah.web import lab

    others = {f"addr:192.0.2.{i}": lab.TREES_PER_CLIENT for i in range(lab.TREE_CLIENTS)}
    monkeypatch.setattr(lab, "_trees_of", others)  # every place taken: TREE_CLIENTS clients, their share each
    response = client.post("/api/lab/tree", json=_SMALL_TREE)
    assert response.status_code == 503 and "retry-after" in response.headers
    assert f"{lab.MAX_TREES} other trees" in response.json()["detail"]
    del others["addr:192.0.2.0"]
    assert client.post("/api/lab/tree", json=_SMALL_TREE).status_code == 200


def _held_trees(monkeypatch):
    """Trees are worked out only once the returned event is set: until then they run or wait."""
    import threading

    from kalah.web import lab

    release = threading.Event()
    work_out = lab._tree_facts

    def held(request):
        assert release.wait(30)
        return work_out(request)

    monkeypatch.setattr(lab, "_tree_facts", held)
    return release


def _wait_for_trees(count: int) -> None:
    import time

    from kalah.web import lab

    deadline = time.monotonic() + 10
    while sum(lab._trees_of.values()) != count and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sum(lab._trees_of.values()) == count, lab._trees_of


def test_a_few_clients_cannot_fill_the_lab_tree_queue(db, monkeypatch):
    """Three addresses with two trees each held the whole queue (five places): a fourth got 503. A client
    with no tree under way now finds a place while fewer than TREE_CLIENTS others have trees."""
    from concurrent.futures import ThreadPoolExecutor

    from kalah.web import lab

    release = _held_trees(monkeypatch)
    app = create_app(db, workers=1, pool="thread")  # the lab needs no engines: no lifespan, no workers

    def client(i):
        return TestClient(app, base_url="http://localhost", client=(f"192.0.2.{i}", 5000))

    with ThreadPoolExecutor(40) as senders:
        try:
            held = []
            for i in range(3):  # the attack: three addresses, their share each
                held += [senders.submit(client(i).post, "/api/lab/tree", json=_SMALL_TREE) for _ in range(2)]
                _wait_for_trees(len(held))
            newcomer = senders.submit(client(3).post, "/api/lab/tree", json=_SMALL_TREE)
            _wait_for_trees(7)  # queued, not refused
            assert not newcomer.done()
            for i in range(4, lab.TREE_CLIENTS):  # more clients, up to the bound: each gets its places
                held += [senders.submit(client(i).post, "/api/lab/tree", json=_SMALL_TREE) for _ in range(2)]
                _wait_for_trees(len(held) + 1)
            held.append(senders.submit(client(3).post, "/api/lab/tree", json=_SMALL_TREE))
            _wait_for_trees(lab.MAX_TREES)
            refused = client(lab.TREE_CLIENTS).post("/api/lab/tree", json=_SMALL_TREE)  # one client too many
            assert refused.status_code == 503 and refused.headers["retry-after"], refused.text
        finally:
            release.set()  # a failure above leaves no tree waiting for its 30 s
        assert newcomer.result(timeout=60).status_code == 200
        assert [answer.result(timeout=60).status_code for answer in held] == [200] * (lab.MAX_TREES - 1)
    assert lab._trees_of == {}


def test_one_client_cannot_fill_the_lab_tree_queue(db, monkeypatch):
    """Six trees at once from one address: two are taken (one worked out, one next), four get 429 naming
    the limit, and another address is still served meanwhile (it got 503 while the queue was full)."""
    from concurrent.futures import ThreadPoolExecutor

    from kalah.web import lab

    release = _held_trees(monkeypatch)
    app = create_app(db, workers=1, pool="thread")  # the lab needs no engines: no lifespan, no workers
    greedy = TestClient(app, base_url="http://localhost", client=("192.0.2.1", 5000))
    other = TestClient(app, base_url="http://localhost", client=("192.0.2.2", 5000))
    body = _SMALL_TREE
    with ThreadPoolExecutor(8) as senders:
        flood = [senders.submit(greedy.post, "/api/lab/tree", json=body) for _ in range(6)]
        refused = [answer.result(timeout=30) for answer in _first_done(flood, 4)]
        assert all(answer.status_code == 429 for answer in refused), [a.text for a in refused]
        assert "2 lab trees" in refused[0].json()["detail"] and refused[0].headers["retry-after"] == "1"
        assert lab._trees_of == {"addr:192.0.2.1": 2}
        served = senders.submit(other.post, "/api/lab/tree", json=body)
        _wait_for_trees(3)
        assert lab._trees_of.get("addr:192.0.2.2") == 1  # queued behind the greedy client's, not refused
        release.set()
        assert served.result(timeout=30).status_code == 200
        taken = [answer.result(timeout=30) for answer in flood if answer.result(timeout=30).status_code != 429]
        assert [answer.status_code for answer in taken] == [200, 200]
    assert lab._trees_of == {}  # nothing kept of clients with no tree under way


def _first_done(futures, count):
    """The first ``count`` of ``futures`` to finish (the others are held)."""
    import concurrent.futures

    done: list = []
    pending = set(futures)
    while len(done) < count:
        finished, pending = concurrent.futures.wait(pending, timeout=30, return_when="FIRST_COMPLETED")
        assert finished, "no answer in 30 s"
        done.extend(finished)
    return done
