"""Fixtures shared by the tests (helper functions are in helpers.py)."""

from __future__ import annotations

import os
import random
import tempfile

import pytest

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
