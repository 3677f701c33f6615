"""`kalah arena serve` stopping with games under way: Ctrl-C or SIGTERM marks them stopped, quietly, and
closes the library; a crash leaves them for the next start to mark."""

from __future__ import annotations

import contextlib
import re
import signal
import socket
import sqlite3
import subprocess
import time

import pytest

from classroom_helpers import ServerThread
from kalah.classroom.games import INTERRUPTED
from kgp_interop import free_port, kalah_command


def _statuses(db) -> list[tuple[str, str | None]]:
    # closed at once: a connection left to the garbage collector keeps the -wal and -shm files there
    with contextlib.closing(sqlite3.connect(db)) as connection:
        return list(connection.execute("SELECT status, stop_reason FROM games ORDER BY id"))


def _server_with_a_game(db):
    """A server subprocess, an agent in a game against a bot that waits (the agent never answers)."""
    process = subprocess.Popen(
        [
            *kalah_command(),
            "arena",
            "serve",
            "--db",
            str(db),
            "--port",
            str(free_port()),
            "--kgp-port",
            "0",
            "--move-time",
            "60",
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stderr.readline()
    found = re.search(r"TCP 127\.0\.0\.1:(\d+)", line)
    assert found, line
    agent = socket.create_connection(("127.0.0.1", int(found.group(1))), timeout=30)
    stream = agent.makefile("rw", encoding="utf-8", newline="")
    assert " kgp 1 " in stream.readline()
    stream.write("mode freeplay\r\n")
    stream.flush()
    while " state " not in stream.readline():  # a game against a bot began (the bot may move first)
        pass
    assert _statuses(db) == [("playing", None)]
    return process, agent


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_or_sigterm_marks_the_game_under_way_stopped_and_logs_no_error(tmp_path, stop):
    """SIGTERM (kill, systemctl stop) killed the process at once: the game stayed "playing", no line said
    the server stopped. It stops as Ctrl-C does now. Both left the library's -wal and -shm files behind."""
    db = tmp_path / "lib.sqlite"
    process, agent = _server_with_a_game(db)
    with agent:
        process.send_signal(stop)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert err.endswith("kalah arena serve: stopped\n"), err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["lib.sqlite"]  # closed: the WAL checkpointed
    assert _statuses(db) == [("stopped", INTERRUPTED)]
    assert "CancelledError" not in err and "Exception in callback" not in err and "Traceback" not in err, err


def test_a_game_cut_off_by_a_crash_is_marked_stopped_by_the_next_start(tmp_path):
    db = tmp_path / "lib.sqlite"
    process, agent = _server_with_a_game(db)
    with agent:
        process.kill()
        process.communicate(timeout=60)
    assert _statuses(db) == [("playing", None)]
    with ServerThread(db, move_time=0.3):
        deadline = time.monotonic() + 10
        while _statuses(db) != [("stopped", INTERRUPTED)] and time.monotonic() < deadline:
            time.sleep(0.05)
    assert _statuses(db) == [("stopped", INTERRUPTED)]
