"""The pages' own files go gzipped (a phone's network: issue 48); answers that hold a secret never are."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kalah.web import create_app


@pytest.fixture()
def client(tmp_path):
    with TestClient(create_app(tmp_path / "games.sqlite", workers=1, pool="thread"), base_url="http://localhost") as c:
        yield c


@pytest.mark.parametrize("path", ["/", "/live", "/lab", "/static/board.js", "/static/style.css", "/api/puzzles"])
def test_the_pages_files_are_gzipped(client, path):
    raw = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert raw.status_code == 200 and raw.headers["content-encoding"] == "gzip"
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and raw.content == plain.content  # httpx unpacks it


def test_an_answer_with_a_secret_is_not_compressed(client):
    made = client.post("/api/live/games", json={"name": "A" * 30}, headers={"Accept-Encoding": "gzip"})
    assert made.status_code == 201 and "content-encoding" not in made.headers
    game = client.post("/api/games", json={}, headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in game.headers  # it holds the page's leave token
    listed = client.get("/api/games", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in listed.headers
