"""The game library: every game, finished or not, in one SQLite file.

Each change is one transaction, so a crash or Ctrl-C never leaves half a move;
a move is committed before the caller hears that it was stored. Games can
carry ``tags`` (a JSON object) so that tools such as the arena can find their
own games again.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

from kalah.match import GameResult, MoveEvent, Observer
from kalah.players.base import Player
from kalah.rules import SWAP, KalahError, Move, Position

from .record import GameRecord, PlayerInfo, RecordedMove, RecordError
from .writer import player_info

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (datetime('now')),
    program TEXT NOT NULL,
    variant TEXT NOT NULL,
    player0_name TEXT NOT NULL, player0_spec TEXT NOT NULL,
    player1_name TEXT NOT NULL, player1_spec TEXT NOT NULL,
    start TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',   -- playing | finished | stopped
    stop_reason TEXT,
    score0 INTEGER, score1 INTEGER,
    tags TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    player INTEGER NOT NULL,
    move TEXT NOT NULL,
    board TEXT NOT NULL,
    seconds REAL NOT NULL DEFAULT 0,
    info TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (game_id, number)
);
"""


class LibraryError(KalahError):
    """The game library cannot be opened, or has no such game."""


@dataclass(frozen=True)
class GameSummary:
    """One game of the library as a list shows it: players, variant, status and scores."""
    id: int
    started_at: str
    players: tuple[PlayerInfo, PlayerInfo]
    variant: dict[str, Any]
    moves: int
    status: str
    scores: tuple[int, int] | None
    tags: dict[str, Any]

    @property
    def winner(self) -> int | None:
        """0 or 1 for a finished game that was not a draw, else None."""
        if self.status != "finished" or self.scores is None or self.scores[0] == self.scores[1]:
            return None
        return 0 if self.scores[0] > self.scores[1] else 1

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape the web API and ``kalah games --json`` use."""
        return {
            "id": self.id,
            "started_at": self.started_at,
            "players": [{"name": p.name, "spec": p.spec} for p in self.players],
            "variant": self.variant,
            "moves": self.moves,
            "status": self.status,
            "scores": list(self.scores) if self.scores else None,
            "winner": self.winner,
            "tags": self.tags,
        }


def default_library_path() -> Path:
    """The library file used when none is given: ``games.sqlite`` in the user's data folder."""
    import platformdirs

    return Path(platformdirs.user_data_dir("kalah")) / "games.sqlite"


def _move_text(move: Move) -> str:
    return str(move)


def _move_value(text: str) -> Move:
    return SWAP if text == SWAP else int(text)


def _insert_game(db: sqlite3.Connection, record: GameRecord, tags: dict[str, Any] | None) -> int:
    """Insert a game's header row (no moves) and return its id."""
    players = record.players
    cursor = db.execute(
        "INSERT INTO games (started_at, program, variant, player0_name, player0_spec, player1_name,"
        " player1_spec, start, tags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (record.started_at, record.program, json.dumps(record.start.variant.to_dict()),
         players[0].name, players[0].spec, players[1].name, players[1].spec,
         record.start.to_json(), json.dumps(tags or {})),
    )
    return int(cursor.lastrowid or 0)


def _insert_move(db: sqlite3.Connection, game_id: int, number: int, move: RecordedMove) -> None:
    db.execute(
        "INSERT INTO moves (game_id, number, player, move, board, seconds, info) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (game_id, number, move.player, _move_text(move.move), json.dumps(move.board), move.seconds,
         json.dumps(move.info)),
    )


class GameLibrary:
    """A SQLite file of games. Safe to share between threads and processes:
    every call opens its own connection."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_library_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as connection:
                connection.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            raise LibraryError(f"cannot open the game library {self.path}: {error}") from None
        except OSError as error:
            raise LibraryError(f"cannot create the game library {self.path}: {error.strerror or error}") from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        connection = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            connection.execute("PRAGMA foreign_keys = ON")
            connection.execute("PRAGMA journal_mode = WAL")
            yield connection
        finally:
            connection.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._connect() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    # --- writing ----------------------------------------------------------------

    def create_game(self, start: Position, players: Sequence[PlayerInfo], started_at: str | None = None,
                    tags: dict[str, Any] | None = None, program: str | None = None) -> int:
        """Start a game with no moves yet; returns its id."""
        record = GameRecord(start, list(players), program=program or "")
        record.started_at = started_at or record.started_at
        with self._transaction() as db:
            return _insert_game(db, record, tags)

    def add_move(self, game_id: int, move: Move, seconds: float = 0.0, info: dict[str, Any] | None = None) -> Position:
        """Check ``move`` against the stored game and store it; returns the new position.

        Raises the rules' ``IllegalMoveError`` (and stores nothing) for an
        illegal move. The check and the insert are one transaction, so two
        writers cannot both add move N.
        """
        with self._transaction() as db:
            position, count = self._current(db, game_id)
            after = position.play(move)
            _insert_move(db, game_id, count + 1, RecordedMove(position.to_move, move, after.board, seconds, info or {}))
            status = "finished" if after.is_over else "playing"
            scores = after.scores or (None, None)
            db.execute(
                "UPDATE games SET status = ?, score0 = ?, score1 = ?, stop_reason = NULL, updated_at = datetime('now')"
                " WHERE id = ?", (status, scores[0], scores[1], game_id))
            return after

    def take_back(self, game_id: int, count: int = 1) -> Position:
        """Remove the last ``count`` moves (for take-back in friendly games)."""
        with self._transaction() as db:
            _, moves = self._current(db, game_id)
            db.execute("DELETE FROM moves WHERE game_id = ? AND number > ?", (game_id, max(0, moves - count)))
            db.execute("UPDATE games SET status = 'playing', score0 = NULL, score1 = NULL,"
                       " updated_at = datetime('now') WHERE id = ?", (game_id,))
            return self._current(db, game_id)[0]

    def mark_stopped(self, game_id: int, reason: str) -> None:
        """Mark a game that is still being played as stopped, saying why."""
        with self._transaction() as db:
            db.execute("UPDATE games SET status = 'stopped', stop_reason = ? WHERE id = ? AND status = 'playing'",
                       (reason, game_id))

    def import_record(self, record: GameRecord, tags: dict[str, Any] | None = None) -> int:
        """Store a whole record as one game (one transaction)."""
        game_id = None
        with self._transaction() as db:
            game_id = _insert_game(db, record, tags)
            for number, move in enumerate(record.moves, 1):
                _insert_move(db, game_id, number, move)
            final = record.final
            status = "finished" if final.is_over else ("stopped" if record.stop_reason else "playing")
            scores = final.scores or (None, None)
            db.execute("UPDATE games SET status = ?, score0 = ?, score1 = ?, stop_reason = ? WHERE id = ?",
                       (status, scores[0], scores[1], record.stop_reason, game_id))
        return game_id

    def delete_game(self, game_id: int) -> None:
        """Delete a game and its moves; a missing id raises :class:`LibraryError`."""
        with self._transaction() as db:
            self._row(db, game_id)
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    # --- reading ----------------------------------------------------------------

    def _row(self, db: sqlite3.Connection, game_id: int) -> sqlite3.Row:
        db.row_factory = sqlite3.Row
        row: sqlite3.Row | None = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise LibraryError(f"no game {game_id} in {self.path}")
        return row

    def _current(self, db: sqlite3.Connection, game_id: int) -> tuple[Position, int]:
        row = self._row(db, game_id)
        position = Position.from_json(row["start"])
        moves = db.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY number", (game_id,)).fetchall()
        for (move,) in moves:
            position = position.play(_move_value(move))
        return position, len(moves)

    def position(self, game_id: int) -> Position:
        """The game's current position."""
        with self._connect() as db:
            return self._current(db, game_id)[0]

    def record(self, game_id: int) -> GameRecord:
        """The game as a JSON game record (checked move by move)."""
        with self._connect() as db:
            row = self._row(db, game_id)
            moves = db.execute("SELECT player, move, board, seconds, info FROM moves WHERE game_id = ? ORDER BY number",
                               (game_id,)).fetchall()
        data = {
            "format": "kalah-game", "version": 1, "program": row["program"], "started_at": row["started_at"],
            "variant": json.loads(row["variant"]),
            "players": [{"name": row["player0_name"], "spec": row["player0_spec"]},
                        {"name": row["player1_name"], "spec": row["player1_spec"]}],
            "start": json.loads(row["start"]),
            "moves": [{"player": p, "move": _move_value(m), "board": json.loads(b), "seconds": s,
                       **({"info": json.loads(i)} if i and i != "{}" else {})} for p, m, b, s, i in moves],
            "result": {"stop_reason": row["stop_reason"]} if row["stop_reason"] else {},
        }
        try:
            return GameRecord.from_dict(data)
        except RecordError as error:
            raise LibraryError(f"game {game_id} in {self.path} is damaged: {error}") from None

    def summary(self, game_id: int) -> GameSummary:
        """The summary of one game; a missing id raises :class:`LibraryError`."""
        return next(iter(self.list_games(ids=[game_id])), None) or self._missing(game_id)

    def _missing(self, game_id: int) -> GameSummary:
        raise LibraryError(f"no game {game_id} in {self.path}")

    def list_games(self, tags: dict[str, Any] | None = None, ids: Sequence[int] | None = None,
                   limit: int | None = None) -> list[GameSummary]:
        """Games, newest first; ``tags`` keeps those whose tags contain all the given pairs."""
        query = ("SELECT g.*, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS move_count FROM games g")
        clauses: list[str] = []
        parameters: list[Any] = []
        for key, value in (tags or {}).items():
            clauses.append("json_extract(g.tags, ?) = json_extract(?, '$')")
            parameters += [f"$.{key}", json.dumps(value)]
        if ids is not None:
            clauses.append(f"g.id IN ({', '.join('?' * len(ids))})")
            parameters += list(ids)
        if clauses:
            query += " WHERE " + " AND ".join(clauses)
        query += " ORDER BY g.id DESC"
        if limit is not None:
            query += f" LIMIT {int(limit)}"
        with self._connect() as db:
            db.row_factory = sqlite3.Row
            rows = db.execute(query, parameters).fetchall()
        return [
            GameSummary(
                id=row["id"], started_at=row["started_at"],
                players=(PlayerInfo(row["player0_name"], row["player0_spec"]),
                         PlayerInfo(row["player1_name"], row["player1_spec"])),
                variant=json.loads(row["variant"]), moves=row["move_count"], status=row["status"],
                scores=(row["score0"], row["score1"]) if row["score0"] is not None else None,
                tags=json.loads(row["tags"]),
            )
            for row in rows
        ]


class LibraryWriter(Observer):
    """Stores a game in the library as it is played: each move is committed
    before the next one is asked for."""

    def __init__(self, library: GameLibrary, tags: dict[str, Any] | None = None) -> None:
        self.library = library
        self.tags = tags
        self.game_id: int | None = None

    def game_started(self, start: Position, players: Sequence[Player]) -> None:
        """Create the game in the library."""
        self.game_id = self.library.create_game(start, [player_info(p) for p in players], tags=self.tags)

    def move_played(self, event: MoveEvent) -> None:
        """Store the move."""
        assert self.game_id is not None
        self.library.add_move(self.game_id, event.move, event.seconds, event.info)

    def game_ended(self, result: GameResult) -> None:
        """Mark an unfinished game as stopped (a finished one is already complete)."""
        if self.game_id is not None and not result.finished:
            self.library.mark_stopped(self.game_id, result.stop_reason or "stopped")
