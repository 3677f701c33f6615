"""The web server's JSON API, through FastAPI's TestClient (no browser)."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from kalah import Position
from kalah.records import GameLibrary
from kalah.rules.svg import BOARD_STYLE, board_svg
from kalah.web import create_app
from kalah.web.app import STATIC
from kalah.web.levels import LEVELS, available_levels, default_level


@pytest.fixture()
def db(tmp_path):
    return tmp_path / "games.sqlite"


@pytest.fixture()
def client(db):
    with TestClient(create_app(db, workers=1, pool="thread"), base_url="http://localhost") as client:
        yield client


def new_game(client, players=("human", "random:seed=1"), **variant):
    response = client.post("/api/games", json={"players": list(players), "variant": variant})
    assert response.status_code == 201, response.text
    return response.json()


def test_page_and_static_files_are_served_locally(client):
    page = client.get("/")
    assert page.status_code == 200
    assert 'id="board"' in page.text
    assert "http://" not in page.text and "https://" not in page.text  # nothing from the internet
    names = sorted(path.name for path in STATIC.iterdir() if path.is_file())
    assert {"main.js", "style.css", "favicon.svg"} <= set(names)
    for name in names + ["board.json"]:
        response = client.get(f"/static/{name}")
        assert response.status_code == 200, name
        assert "https://" not in response.text
    # the page is ES modules from this server
    assert '<script type="module" src="/static/main.js">' in page.text


def test_the_page_and_the_svg_board_share_one_style_file(client):
    served = client.get("/static/board.json")
    assert served.headers["content-type"].startswith("application/json")
    assert served.json() == BOARD_STYLE
    svg = client.get("/api/board.svg", params={"board": "[[1,2,3,4,5,6,7],[7,6,5,4,3,2,1]]"}).text
    drawn = board_svg(Position([[1, 2, 3, 4, 5, 6, 7], [7, 6, 5, 4, 3, 2, 1]], 0))
    assert re.sub(r"kb\d+", "kb", svg) == re.sub(r"kb\d+", "kb", drawn)  # the notebook's drawing
    for light, dark in BOARD_STYLE["seed_colors"]:
        assert light in svg and dark in svg
        for script in STATIC.glob("*.js"):  # no copy of the numbers in the page's code
            assert light not in script.read_text(encoding="utf-8"), script.name


def test_openapi_documents_the_api(client):
    schema = client.get("/openapi.json").json()
    for path in (
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/moves",
        "/api/games/{game_id}/computer-move",
        "/api/games/{game_id}/takeback",
        "/api/games/{game_id}/redo",
        "/api/games/{game_id}/record",
        "/api/records",
        "/api/analyse",
    ):
        assert path in schema["paths"], path
    assert "GameState" in schema["components"]["schemas"]


def test_default_game_is_human_against_the_medium_level(client):
    state = client.post("/api/games", json={}).json()
    assert state["board"] == [[4] * 6 + [0], [4] * 6 + [0]]
    assert state["players"][0]["human"] and not state["players"][1]["human"]
    assert state["players"][1]["level"] == default_level().name
    assert state["human_to_move"] and state["to_move"] == 0 and not state["over"]
    # reloading the page does not pile up empty games
    again = client.post("/api/games", json={"reuse_unstarted": True}).json()
    assert again["id"] == state["id"]


def test_levels_offer_only_registered_engines(client):
    info = client.get("/api/info").json()
    names = [level["name"] for level in info["levels"]]
    assert names == [level.name for level in LEVELS]
    available = {level.name for level in available_levels()}
    assert "beginner" in available
    assert {lv["name"] for lv in info["levels"] if lv["available"]} == available
    assert info["default_level"] in available


def test_a_game_against_the_computer_to_the_end(client, db):
    state = new_game(client)
    game_id = state["id"]
    while not state["over"]:
        if state["human_to_move"]:
            response = act(client, game_id, "moves", move=state["legal_moves"][-1])
        else:
            response = act(client, game_id, "computer-move")
        assert response.status_code == 200, response.text
        new = response.json()
        assert new["moves"] == state["moves"] + 1
        assert new["last"]["before"] == state["board"]
        state = new
    assert sum(state["scores"]) == 48
    assert state["status"] == "finished"
    # every acknowledged move is in the library
    record = GameLibrary(db).record(game_id)
    assert len(record.moves) == state["moves"] and record.final.is_over
    games = client.get("/api/games").json()
    assert games[0]["id"] == game_id and games[0]["status"] == "finished"


def test_move_effect_describes_sowing_extra_turn_and_capture(client):
    game_id = new_game(client)["id"]
    state = act(client, game_id, "moves", move=2).json()  # C: last seed in the store
    assert state["last"]["sown"] == [3, 4, 5, 6]
    assert state["last"]["extra_turn"] and state["human_to_move"]
    assert state["last"]["name"] == "C"
    state = act(client, game_id, "moves", move="f").json()  # a pit letter works too
    assert state["history"] == ["C", "F"]


def test_bad_requests_get_clear_4xx_and_leave_the_game_alone(client, db):
    game_id = new_game(client)["id"]
    before = GameLibrary(db).record(game_id).to_dict()

    def check(response, status, words):
        assert response.status_code == status, response.text
        detail = response.json()["detail"]
        assert isinstance(detail, str) and words in detail.lower(), detail

    check(act(client, game_id, "moves", move=9), 422, "illegal move")
    check(act(client, game_id, "moves", move="swap"), 422, "swap is not allowed")
    check(act(client, game_id, "moves", move="z"), 422, "not a legal move")
    check(
        client.post(f"/api/games/{game_id}/moves", content=b"{not json", headers={"Content-Type": "application/json"}),
        422,
        "malformed json",
    )
    check(client.post(f"/api/games/{game_id}/moves", json={}), 422, "move")
    check(act(client, game_id, "computer-move"), 409, "human's turn")
    check(act(client, 9999, "moves", move=0), 404, "no game 9999")
    check(client.get("/api/games/9999"), 404, "no game")
    check(client.post("/api/games", json={"variant": {"pits": 13}}), 422, "pits")
    check(client.post("/api/games", json={"variant": {"seeds": 16}}), 422, "seeds")  # the rules allow 1 to 15
    check(client.post("/api/games", json={"players": ["human", "nosuch:depth=2"]}), 422, "unknown player")
    check(act(client, game_id, "takeback"), 409, "no move")
    check(act(client, game_id, "redo"), 409, "nothing to redo")
    # after the human's move it is the computer's turn: no second human move
    assert act(client, game_id, "moves", move=0).status_code == 200
    check(act(client, game_id, "moves", move=1), 409, "not a human's turn")
    after = GameLibrary(db).record(game_id).to_dict()
    assert len(after["moves"]) == len(before["moves"]) + 1


def test_take_back_and_redo_against_the_computer(client):
    state = new_game(client)
    game_id = state["id"]
    state = act(client, game_id, "moves", move=0).json()
    state = act(client, game_id, "computer-move").json()
    while not state["human_to_move"]:
        state = act(client, game_id, "computer-move").json()
    played = state["history"]
    assert state["can_take_back"]
    back = act(client, game_id, "takeback").json()
    assert back["moves"] == 0 and back["human_to_move"] and back["can_redo"]
    again = act(client, game_id, "redo").json()
    assert again["history"] == played and not again["can_redo"]


def test_human_against_human_and_the_pie_rule(client):
    state = new_game(client, players=("human", "human"), pie_rule=True)
    game_id = state["id"]
    state = act(client, game_id, "moves", move=0).json()
    assert "swap" in state["legal_moves"] and state["human_to_move"]
    state = act(client, game_id, "moves", move="swap").json()
    assert state["to_move"] == 0 and state["last"]["move"] == "swap"
    back = act(client, game_id, "takeback").json()  # one move at a time between people
    assert back["moves"] == 1


def test_computer_against_computer(client):
    state = new_game(client, players=("beginner", "random:seed=4"), pits=4, seeds=3)
    assert state["computer_to_move"]
    while not state["over"]:
        state = act(client, state["id"], "computer-move").json()
    assert sum(state["scores"]) == 24


def test_record_export_import_and_replay(client):
    state = new_game(client, players=("random:seed=2", "random:seed=3"), pits=5, seeds=3)
    while not state["over"]:
        state = act(client, state["id"], "computer-move").json()
    record = client.get(f"/api/games/{state['id']}/record").json()
    assert record["format"] == "kalah-game" and record["result"]["finished"]
    download = client.get(f"/api/games/{state['id']}/record?download=true")
    assert "attachment" in download.headers["content-disposition"]
    imported = client.post("/api/records", json=record)
    assert imported.status_code == 201
    copy = imported.json()
    assert copy["id"] != state["id"] and copy["board"] == state["board"] and copy["over"]
    replay = client.get(f"/api/games/{copy['id']}/replay").json()
    assert len(replay["frames"]) == len(record["moves"]) + 1
    assert replay["frames"][-1]["board"] == state["board"]
    assert [f["last"]["move"] for f in replay["frames"][1:]] == [m["move"] for m in record["moves"]]
    # a damaged record is refused with the reason
    record["moves"][0]["move"] = 4 if record["moves"][0]["move"] != 4 else 3
    record["moves"][0]["board"] = [[0]]
    bad = client.post("/api/records", json=record)
    assert bad.status_code == 422 and "move 1" in bad.json()["detail"]
    assert (
        client.post("/api/records", content=b"[1, 2", headers={"Content-Type": "application/json"}).status_code == 422
    )


def test_analysis(client):
    state = new_game(client)
    result = client.post(f"/api/games/{state['id']}/analysis", json={"seconds": 0.1}).json()
    if not result["available"]:
        assert "unavailable" in result["reason"]
        return
    legal = set(state["legal_moves"])
    assert {entry["move"] for entry in result["moves"]} <= legal
    assert result["best_move"] in legal
    assert result["pv"] and result["pv"][0] == result["best_move"]
    position = Position([[0, 0, 1, 2, 0, 1, 20], [1, 0, 0, 2, 1, 0, 20]], 0)
    small = client.post("/api/analyse", json={"position": position.to_dict(), "seconds": 0.2}).json()
    assert small["exact"] and small["value"] == 2 and small["best_move"] == 5
    bad = client.post("/api/analyse", json={"position": {"board": [[1, 2]]}})
    assert bad.status_code == 422


def test_process_pool_plays_computer_moves(db):
    with TestClient(create_app(db, workers=1), base_url="http://localhost") as client:
        state = new_game(client, players=("random:seed=5", "human"))
        state = act(client, state["id"], "computer-move").json()
        assert state["moves"] >= 1 and state["players"][1]["human"]


def test_library_list_shows_unfinished_games(client):
    first = new_game(client)
    act(client, first["id"], "moves", move=1)
    games = client.get("/api/games").json()
    entry = next(g for g in games if g["id"] == first["id"])
    assert entry["status"] == "playing" and entry["moves"] == 1
    assert entry["variant_name"] == "Kalah(6,4)"
    assert json.dumps(entry)


def act(client, game_id, action, **body):
    """POST a game action with the move count the game has now (what the page sends)."""
    state = client.get(f"/api/games/{game_id}").json()
    return client.post(f"/api/games/{game_id}/{action}", json={"moves": state.get("moves", 0), **body})


@pytest.mark.parametrize("spelling", ["99999999999999999999999", "9223372036854775808", "00000000000000000001"])
def test_a_game_id_of_digits_beyond_range_is_called_out_of_range(client, spelling):
    answer = client.get(f"/api/games/{spelling}")
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert "out of range" in detail and "digits only" not in detail, detail
