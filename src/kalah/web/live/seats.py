"""Seats of games between people: who may move which side, kept in the game library's file.

A seat is held by whoever has its token (``secrets.token_urlsafe``); the
library keeps only the token's SHA-256, so a copy of the file moves no seat.
The invitation to the empty seat is a token of its own, spent when someone
takes the seat. Each game's clock and result are here too (JSON), so that a
restarted server goes on where it was. One small table beside the library's
own, in the same SQLite file, written in transactions.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kalah.rules import KalahError

SCHEMA = """
CREATE TABLE IF NOT EXISTS live_games (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    seat0 TEXT,          -- SHA-256 of the seat token, NULL while the seat is empty
    seat1 TEXT,
    invite TEXT,         -- SHA-256 of the invitation to the empty seat, NULL once spent
    clock TEXT NOT NULL DEFAULT '{}',
    result TEXT          -- JSON {"winner": 0|1|null, "reason": ...} for a game ended by resignation or time
);
"""

#: Bytes of randomness in a token (32 characters of URL-safe text).
TOKEN_BYTES = 24


class SeatError(KalahError):
    """A seat or invitation that cannot be used (taken, spent, unknown)."""


def new_token() -> str:
    """An unguessable token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    """What the library keeps of a token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class SeatStore:
    """The ``live_games`` table of the library at ``path``: one connection per thread, writes in transactions."""

    def __init__(self, path: str | Path, busy_timeout: float = 1.0, writer: threading.Lock | None = None) -> None:
        """``writer``: the lock the library's own writers of this process take turns with (waiting in
        SQLite's busy handler costs far more than a queue)."""
        self.path = Path(path)
        self.busy_timeout = busy_timeout
        self._writer = writer or threading.Lock()
        self._local = threading.local()
        self._db().executescript(SCHEMA)

    def _db(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None)
            connection.row_factory = sqlite3.Row
            connection.execute("PRAGMA foreign_keys = ON")
            self._local.connection = connection
        return connection

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._writer:
            db = self._db()
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def add(self, game_id: int, seats: list[str | None], invite: str | None, clock: dict[str, Any]) -> None:
        """A new live game whose seats are held by the tokens of digests ``seats`` (None: empty, waiting
        for the holder of ``invite``)."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO live_games (game_id, seat0, seat1, invite, clock) VALUES (?, ?, ?, ?, ?)",
                (game_id, seats[0], seats[1], digest(invite) if invite else None, json.dumps(clock)),
            )

    def row(self, game_id: int) -> dict[str, Any] | None:
        """The game's seats (digests), clock and result, or None if it is not a live game."""
        found = self._db().execute("SELECT * FROM live_games WHERE game_id = ?", (game_id,)).fetchone()
        return None if found is None else _decode(found)

    def claim(self, game_id: int, invite: str) -> tuple[int, str]:
        """Take the empty seat with the invitation: its seat and a new token for it (the invitation is spent)."""
        token = new_token()
        with self._transaction() as db:
            found = db.execute("SELECT * FROM live_games WHERE game_id = ?", (game_id,)).fetchone()
            if found is None or found["invite"] is None or not hmac.compare_digest(found["invite"], digest(invite)):
                raise SeatError("this invitation is not valid any more: the seat is taken (you may watch the game)")
            seat = 0 if found["seat0"] is None else 1
            db.execute(
                f"UPDATE live_games SET seat{seat} = ?, invite = NULL WHERE game_id = ?", (digest(token), game_id)
            )
        return seat, token

    def save(self, game_id: int, clock: dict[str, Any], result: dict[str, Any] | None) -> None:
        """Keep the game's clock and result."""
        with self._transaction() as db:
            db.execute(
                "UPDATE live_games SET clock = ?, result = ? WHERE game_id = ?",
                (json.dumps(clock), json.dumps(result) if result else None, game_id),
            )

    def running(self) -> dict[int, dict[str, Any]]:
        """The rows (as :meth:`row`) of the games not ended whose clock runs: those whose flag can fall."""
        found = self._db().execute(
            "SELECT * FROM live_games WHERE result IS NULL"
            " AND CASE WHEN json_valid(clock) THEN json_extract(clock, '$.running') END IS NOT NULL"
        )  # a damaged clock (not JSON) is passed over rather than failing every other game's
        return {row["game_id"]: _decode(row) for row in found}

    def live_ids(self) -> set[int]:
        """Every live game's id."""
        return {row[0] for row in self._db().execute("SELECT game_id FROM live_games")}


def _decode(found: sqlite3.Row) -> dict[str, Any]:
    return {
        "seats": [found["seat0"], found["seat1"]],
        "invite": found["invite"],
        "clock": json.loads(found["clock"]),
        "result": json.loads(found["result"]) if found["result"] else None,
    }


def seat_of(row: dict[str, Any], token: str | None) -> int | None:
    """The seat ``token`` holds in the game ``row``, or None."""
    if not token:
        return None
    mine = digest(token)
    for seat, held in enumerate(row["seats"]):
        if held is not None and hmac.compare_digest(held, mine):
            return seat
    return None
