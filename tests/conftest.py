"""Fixtures shared by the tests (helper functions are in helpers.py)."""

from __future__ import annotations

import os
import random
import signal
import tempfile

import pytest

# A suite started in the background of a script (`pytest ... &`, nohup) inherits SIGINT ignored, and so would
# every program the tests start: their Ctrl-C would do nothing, and the tests of Ctrl-C would fail for it.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The tests, and the commands they start, never read or write the user's data directory: a database
# or game library left there (by a documented command, or by the user) would change what the tests see.
_DATA_HOME = tempfile.mkdtemp(prefix="kalah-tests-data-")
os.environ["XDG_DATA_HOME"] = _DATA_HOME
os.environ["KALAH_ENDGAME_DIR"] = os.path.join(_DATA_HOME, "kalah", "endgame")


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261122)


def pytest_unconfigure(config):
    import shutil

    shutil.rmtree(_DATA_HOME, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL server for the whole run (tests/postgres_server.py); skips without PostgreSQL."""
    from postgres_server import start_server

    server = start_server()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres):
    """The address of a new empty PostgreSQL database."""
    from postgres_server import fresh_database

    return fresh_database(postgres)


@pytest.fixture(params=["sqlite", "postgresql"])
def library_target(request, tmp_path):
    """Where a test's game library lives: a SQLite file, then a PostgreSQL database (the test runs twice)."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite")
    return request.getfixturevalue("postgres_url")
