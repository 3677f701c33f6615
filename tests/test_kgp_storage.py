"""The class server when its database fails for a while (issue: a flood of connections took every file
descriptor): a finished game's result is kept and stored later, and its agents are told it and play on."""

from __future__ import annotations

import logging
import sqlite3
import threading

import pytest

from classroom_helpers import ServerThread
from kalah.classroom import AgentBook
from kalah.classroom import games as games_module
from kalah.records import GameLibrary, LibraryError
from test_kgp_hostile import WellBehaved


def _fail_first(monkeypatch, owner: type, name: str, times: int, error: Exception) -> list[int]:
    """Make ``owner.name`` raise ``error`` on its first ``times`` calls (from any thread); returns the count
    of calls."""
    real = getattr(owner, name)
    calls = [0]
    lock = threading.Lock()

    def failing(*args, **kwargs):
        with lock:
            calls[0] += 1
            failed = calls[0] <= times
        if failed:
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, failing)
    return calls


def test_a_result_the_database_refuses_is_kept_and_stored_later(tmp_path, monkeypatch, caplog):
    book = AgentBook(tmp_path / "lib.sqlite")
    south, north = book.bot("bot-a", "random").id, book.bot("bot-b", "random").id
    refused = sqlite3.OperationalError("unable to open database file")
    _fail_first(monkeypatch, AgentBook, "_store_results", 2, refused)
    with caplog.at_level(logging.WARNING, logger="kalah.classroom"):
        book.record_result(1, south, north, 1.0, "40-32", "practice", "kalah(6,6)")  # does not raise
        assert book.unsaved == 1 and book.results() == []
        assert not book.store_unsaved()  # still refused: logged once, kept
        book.record_result(2, south, north, 0.0, "30-42", "practice", "kalah(6,6)")
    assert book.unsaved == 0
    assert [row["game_id"] for row in book.results()] == [2, 1]
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2 and "kept in memory" in lines[0] and "stored 2 game results" in lines[1], lines
    book.close()


def test_the_book_needs_no_new_file_once_open(tmp_path, monkeypatch):
    """No file descriptor left: a connection per call could not be opened, and results were lost."""
    book = AgentBook(tmp_path / "lib.sqlite")
    south = book.sign_in("a-long-token", "south").id
    north = book.sign_in(None, "north").id

    def no_descriptor(*args, **kwargs):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(sqlite3, "connect", no_descriptor)
    book.record_result(7, south, north, 0.5, "36-36", "practice", "kalah(6,6)")
    assert book.unsaved == 0 and book.results()[0]["game_id"] == 7
    book.close()


@pytest.fixture
def quick_retries(monkeypatch):
    monkeypatch.setattr(games_module, "STORE_RETRIES", (0.01,))


def test_agents_are_told_a_result_the_database_refused_and_play_on(tmp_path, monkeypatch):
    refused = sqlite3.OperationalError("unable to open database file")
    calls = _fail_first(monkeypatch, AgentBook, "_store_results", 1, refused)
    with ServerThread(tmp_path / "lib.sqlite", move_time=0.3) as server:
        good = WellBehaved(server, games=2)  # it counts its games by the results it is told
        good.check()
        assert calls[0] >= 2
        finished = {game.id for game in server.finished_games("good-agent")}
        assert server.wait_for(lambda: finished <= {row["game_id"] for row in server.server.book.results()}, 10)
        assert server.server.book.unsaved == 0


def test_a_game_the_library_refuses_is_abandoned_and_its_agent_plays_on(tmp_path, monkeypatch, quick_retries):
    refused = LibraryError("the game library cannot be used: unable to open database file")
    calls = _fail_first(monkeypatch, GameLibrary, "add_move", 2, refused)  # the first try and its one retry
    with ServerThread(tmp_path / "lib.sqlite", move_time=0.3) as server:
        # the client counts the abandoned game as over when the next one's first board comes
        good = WellBehaved(server, games=2)
        good.check()
        assert calls[0] > 2
        games = server.library.list_games()
        assert any(game.status == "finished" for game in games)
        abandoned = [game for game in games if game.status == "stopped"]
        assert any((game.stop_reason or "").startswith("abandoned") for game in abandoned), abandoned
