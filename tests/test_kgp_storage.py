"""The class server when its database fails for a while (issue: a flood of connections took every file
descriptor): a finished game's result is kept and stored later, also by the next process after a crash,
and its agents are told it and play on."""

from __future__ import annotations

import json
import logging
import sqlite3
import subprocess
import sys
import threading

import pytest

from classroom_helpers import ServerThread
from kalah.classroom import AgentBook
from kalah.classroom import games as games_module
from kalah.classroom.journal import ResultJournal, journal_path
from kalah.records import GameLibrary, LibraryError
from kalah.rules import Outcome
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
    refused = LibraryError("the game library cannot be used: unable to open database file")
    _fail_first(monkeypatch, AgentBook, "_store_results", 2, refused)
    with caplog.at_level(logging.WARNING, logger="kalah.classroom"):
        book.record_result(1, south, north, Outcome(0), "40-32", "practice", "kalah(6,6)")  # does not raise
        assert book.unsaved == 1 and book.results() == []
        assert not book.store_unsaved()  # still refused: logged once, kept
        book.record_result(2, south, north, Outcome(1), "30-42", "practice", "kalah(6,6)")
    assert book.unsaved == 0
    assert [row["game_id"] for row in book.results()] == [2, 1]
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2 and "kept in memory" in lines[0] and "stored 2 game results" in lines[1], lines
    book.close()


_CRASH_AFTER_A_REFUSED_RESULT = """
import os, signal, sys
from kalah.classroom import AgentBook
from kalah.records import LibraryError
from kalah.rules import Outcome

book = AgentBook(sys.argv[1])
south, north = book.bot("bot-a", "random").id, book.bot("bot-b", "random").id

def refused(rows):
    raise LibraryError("the game library cannot be used: database or disk is full")

book._store_results = refused
book.record_result(7, south, north, Outcome(0), "40-32", "practice", "kalah(6,6)")
assert book.unsaved == 1
os.kill(os.getpid(), signal.SIGKILL)  # nothing closed, nothing flushed on the way out
"""


def _stored_game_ids(db) -> list[int]:
    """The results in the database itself (an AgentBook would store the journal's first)."""
    with sqlite3.connect(db) as connection:
        return [row[0] for row in connection.execute("SELECT game_id FROM kgp_results ORDER BY game_id")]


def test_a_refused_result_survives_a_crash_and_the_next_server_stores_it(tmp_path):
    """Results the database refused were held in memory only: a crash lost them. Each is in the journal
    beside the database before the game is reported over, and a server started again stores it."""
    db = tmp_path / "lib.sqlite"
    crashed = subprocess.run(
        [sys.executable, "-c", _CRASH_AFTER_A_REFUSED_RESULT, str(db)], capture_output=True, text=True, timeout=120
    )
    assert crashed.returncode == -9, crashed.stderr
    journal = journal_path(db)
    lines = journal.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [
        {
            "game_id": 7,
            "south": 1,
            "north": 2,
            "score": 1.0,
            "reason": "40-32",
            "event": "practice",
            "variant": "kalah(6,6)",
        }
    ]
    assert _stored_game_ids(db) == []
    with ServerThread(db, move_time=0.3) as server:
        assert server.server.book.unsaved == 0
        assert [row["game_id"] for row in server.server.book.results()] == [7]
        assert not journal.exists()  # removed once the database held it
    assert _stored_game_ids(db) == [7]


def test_the_journal_is_stored_when_the_database_takes_writes_again(tmp_path, monkeypatch):
    """A book started while the database refuses results keeps the journal (and what it holds, in
    memory) and stores both at the first retry that succeeds; a line cut by a crash is skipped."""
    db = tmp_path / "lib.sqlite"
    first = AgentBook(db)
    south, north = first.bot("bot-a", "random").id, first.bot("bot-b", "random").id
    first.close()
    ResultJournal(journal_path(db)).add((3, south, north, 0.5, "36-36", "practice", "kalah(6,6)"))
    with open(journal_path(db), "a", encoding="utf-8") as journal:
        journal.write('{"game_id":4,"south":1,"no')  # the last append, cut by a crash
    calls = _fail_first(
        monkeypatch, AgentBook, "_store_results", 2, LibraryError("the game library is damaged: disk I/O error")
    )
    book = AgentBook(db)
    assert calls[0] == 1 and book.unsaved == 1 and journal_path(db).exists()
    book.record_result(5, south, north, Outcome(1), "30-42", "practice", "kalah(6,6)")
    assert book.unsaved == 2
    assert json.loads(journal_path(db).read_text().splitlines()[-1])["game_id"] == 5  # on a line of its own
    assert book.store_unsaved()
    assert [row["game_id"] for row in book.results()] == [5, 3]
    assert book.unsaved == 0 and not journal_path(db).exists()
    book.close()


def test_results_kept_while_the_journal_cannot_be_written_reach_it_later(tmp_path, monkeypatch):
    """No file descriptor left for the journal either: the result stays in memory, and the journal is
    written whole at a later retry that can, so a crash after that loses nothing."""
    book = AgentBook(tmp_path / "lib.sqlite")
    south, north = book.bot("bot-a", "random").id, book.bot("bot-b", "random").id
    refused = LibraryError("the game library cannot be used: unable to open database file")
    _fail_first(monkeypatch, AgentBook, "_store_results", 10, refused)
    _fail_first(monkeypatch, ResultJournal, "add", 1, OSError(24, "Too many open files"))
    book.record_result(8, south, north, Outcome(0), "40-32", "practice", "kalah(6,6)")
    assert book.unsaved == 1 and not book.journal.exists()
    assert not book.store_unsaved()
    assert list(book.journal.read()) == [8]
    book.close()


def test_the_book_needs_no_new_file_once_open(tmp_path, monkeypatch):
    """No file descriptor left: a connection per call could not be opened, and results were lost."""
    book = AgentBook(tmp_path / "lib.sqlite")
    south = book.sign_in("a-long-token", "south").id
    north = book.sign_in(None, "north").id

    def no_descriptor(*args, **kwargs):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(sqlite3, "connect", no_descriptor)
    book.record_result(7, south, north, Outcome(None), "36-36", "practice", "kalah(6,6)")
    assert book.unsaved == 0 and book.results()[0]["game_id"] == 7
    book.close()


@pytest.fixture
def quick_retries(monkeypatch):
    monkeypatch.setattr(games_module, "STORE_RETRIES", (0.01,))


def test_agents_are_told_a_result_the_database_refused_and_play_on(tmp_path, monkeypatch):
    refused = LibraryError("the game library cannot be used: unable to open database file")
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
