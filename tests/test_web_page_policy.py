"""The API documentation pages carry a Content-Security-Policy that lets their browsers fetch nothing from
elsewhere (kalah.web.apidocs.PagePolicy); other answers are not touched by it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kalah.web import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app(tmp_path_factory.mktemp("docs") / "games.sqlite", workers=1, pool="thread")
    with TestClient(app, base_url="http://localhost") as client:
        yield client


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_documentation_pages_fetch_nothing_from_elsewhere(client, path):
    answer = client.get(path)
    assert answer.status_code == 200
    policy = answer.headers["content-security-policy"]
    assert policy.startswith("default-src 'self';") and "frame-ancestors" in policy
    assert "cdn" not in policy


def test_other_answers_keep_their_own_headers(client):
    answer = client.get("/api/info")
    assert answer.status_code == 200
    assert "img-src 'self' data:; worker-src" not in answer.headers.get("content-security-policy", "")
