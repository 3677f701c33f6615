"""The server settles the cycle collector while it runs (kalah.web.memory): the objects made at start are
frozen and full collections are rare, so that none stalls the event loop for long; all is put back after."""

from __future__ import annotations

import gc

from fastapi.testclient import TestClient

from kalah.web import create_app
from kalah.web.memory import SERVER_THRESHOLDS, QuietCollector


def test_a_running_server_freezes_what_lives_from_the_start_and_collects_seldom(tmp_path):
    before = gc.get_threshold()
    assert before != SERVER_THRESHOLDS
    frozen_before = gc.get_freeze_count()
    app = create_app(tmp_path / "games.sqlite", workers=1, pool="thread")
    with TestClient(app, base_url="http://localhost") as client:
        assert client.get("/api/info").status_code == 200
        assert gc.get_threshold() == SERVER_THRESHOLDS
        assert gc.get_freeze_count() > frozen_before + 10_000  # the imports and the app, at least
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_collector_settles_once_and_restores_once():
    collector = QuietCollector((5000, 15, 15))
    before = gc.get_threshold()
    collector.settle()
    collector.settle()
    assert gc.get_threshold() == (5000, 15, 15)
    collector.restore()
    collector.restore()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_two_servers_of_one_process_put_the_settings_back_when_the_last_stops():
    before = gc.get_threshold()
    first, second = QuietCollector(), QuietCollector()
    first.settle()
    second.settle()
    first.restore()
    assert gc.get_threshold() == SERVER_THRESHOLDS  # the second still runs
    second.restore()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
