"""Ids in `kalah arena serve`'s routes are read as `kalah serve` reads them: digits only, in range, and a
refusal is one sentence in `detail`."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kalah.classroom import ServerConfig
from kalah.classroom.agents import AgentBook
from kalah.classroom.server import ClassServer
from kalah.classroom.web import create_app
from kalah.records import GameLibrary


@pytest.fixture
def client(tmp_path):
    library = GameLibrary(tmp_path / "class.sqlite")
    server = ClassServer(ServerConfig(), library, AgentBook(library.path))
    with TestClient(create_app(server)) as client:
        yield client
    server.book.close()


ROUTES = ["/api/games/{}", "/games/{}", "/api/agents/{}", "/agents/{}"]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("spelling", ["+1", "1.0", " 1", "1_0"])
def test_an_id_not_in_digits_is_refused_in_one_sentence(client, route, spelling):
    answer = client.get(route.format(spelling))
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert isinstance(detail, str) and "digits only" in detail, detail


@pytest.mark.parametrize("route", ROUTES)
def test_an_id_beyond_range_is_called_out_of_range(client, route):
    answer = client.get(route.format("99999999999999999999999"))
    assert answer.status_code == 422 and "out of range" in answer.json()["detail"]


def test_an_id_in_digits_that_names_nothing_is_404(client):
    answer = client.get("/api/games/12")
    assert answer.status_code == 404 and answer.json() == {"detail": "no game 12"}
