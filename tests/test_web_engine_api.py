"""What kalah serve gives the engine in the page (docs/browser.md): its modules and books, the headers that
isolate the pages (SharedArrayBuffer, by which a page stops its engine), and the route that stores a
computer's move chosen in the page, so that the server does no engine work for it."""

from __future__ import annotations

import gzip
import json

import pytest
from fastapi.testclient import TestClient

from kalah.web import create_app


@pytest.fixture()
def client(tmp_path):
    with TestClient(
        create_app(tmp_path / "games.sqlite", workers=1, pool="thread"), base_url="http://localhost"
    ) as client:
        yield client


def test_pages_and_files_are_cross_origin_isolated(client):
    for url in ("/", "/lab", "/static/engine/engine.js", "/api/info"):
        headers = client.get(url).headers
        assert headers["cross-origin-opener-policy"] == "same-origin", url
        assert headers["cross-origin-embedder-policy"] == "require-corp", url
        assert headers["x-frame-options"] == "DENY", url


def test_the_engine_modules_and_the_opening_books_are_served(client):
    for name in ("kalah.wasm", "kalah-big.wasm", "kalah-trace.wasm"):
        answer = client.get(f"/static/engine/{name}")
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/wasm"
        assert answer.content[:4] == b"\0asm"
    book = client.get("/static/engine/data/kalah-6-4.book.json.gz")
    assert book.status_code == 200
    assert json.loads(gzip.decompress(book.content))["format"] == "kalah-book"
    for name in ("kalah-9-9.book.json.gz", "..%2F..%2Fversion.py", "puzzles.json.gz"):
        assert client.get(f"/static/engine/data/{name}").status_code == 404


def _game(client, players):
    answer = client.post("/api/games", json={"players": players, "variant": {"pits": 4, "seeds": 3}})
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_the_page_plays_the_computers_move_its_engine_chose(client):
    game = _game(client, ["human", "pvs:depth=4"])
    stale = client.post(f"/api/games/{game['id']}/moves", json={"move": 0, "moves": 0, "computer": True})
    assert stale.status_code == 409 and "a person" in stale.json()["detail"]
    human = client.post(f"/api/games/{game['id']}/moves", json={"move": 0, "moves": 0}).json()
    assert human["computer_to_move"]
    as_human = client.post(f"/api/games/{game['id']}/moves", json={"move": 1, "moves": 1})
    assert as_human.status_code == 409 and "a computer" in as_human.json()["detail"]
    illegal = client.post(f"/api/games/{game['id']}/moves", json={"move": 7, "moves": 1, "computer": True})
    assert illegal.status_code == 422
    move = human["legal_moves"][-1]
    after = client.post(f"/api/games/{game['id']}/moves", json={"move": move, "moves": 1, "computer": True})
    assert after.status_code == 200, after.text
    assert after.json()["moves"] == 2 and after.json()["history"][-1] == "abcd"[move]
    assert after.json()["human_to_move"] or after.json()["computer_to_move"]
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["moves"][1]["info"] == {"engine": "browser"}
    assert record["players"][1]["spec"] == "pvs:depth=4"
