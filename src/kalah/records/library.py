"""The game library: every game, finished or not, in one SQLite file.

Each change is one transaction, so a crash or Ctrl-C never leaves half a move;
a move is committed before the caller hears that it was stored. Games can
carry ``tags`` (a JSON object) so that tools such as the arena can find their
own games again.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kalah.match import GameResult, MoveEvent, Observer
from kalah.players.base import Player
from kalah.rules import SWAP, KalahError, Move, Position
from kalah.rules.wording import plural

from .record import GameRecord, PlayerInfo, RecordError
from .writer import player_info

#: The largest game id the library holds: SQLite's integers are signed 64-bit.
MAX_GAME_ID = 2**63 - 1

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
-- What take-backs removed, for redo: a stack per game (the highest step on top). Every other
-- change of the game's moves empties it, so that the top always follows the stored game, whichever
-- program (or server) made the change.
CREATE TABLE IF NOT EXISTS redo (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    moves TEXT NOT NULL,   -- JSON: [{"move", "seconds", "info"}, ...] in the order they were played
    PRIMARY KEY (game_id, step)
);
"""

#: Changes of the schema since the first library, applied in order (``PRAGMA user_version`` counts
#: those done): a library of an older kalah gains the new tables and keeps its games.
MIGRATIONS = (
    # 1: the review of a game (kalah.review), stored with the game and the move count it was made for.
    """
    CREATE TABLE IF NOT EXISTS reviews (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        moves INTEGER NOT NULL,
        created_at TEXT NOT NULL DEFAULT (datetime('now')),
        review TEXT NOT NULL
    );
    """,
)


class LibraryError(KalahError):
    """The game library cannot be opened or used, or has no such game (the subclasses say which)."""


class GameNotFoundError(LibraryError):
    """The library has no game with the id asked for (the web API answers 404), or could hold none: an id
    outside 1 to ``MAX_GAME_ID``, which the message says."""

    def __init__(self, game_id: int, path: Path, why: str = "") -> None:
        super().__init__(f"no game {game_id} in {path}" + (f": {why}" if why else ""))
        self.game_id = game_id


class LibraryNotFoundError(LibraryError):
    """A library opened only to be read is not there (it is never created empty for a reader)."""


class LibraryBusyError(LibraryError):
    """The library is locked by another program (or is read-only) longer than the library waits."""


class StaleGameError(LibraryError):
    """A change made for a game as it was: the game has moved on since (another request, tab or server)."""


class DamagedGameError(LibraryError):
    """A stored game that cannot be read back (a damaged file): named, so that the rest stays usable."""


@dataclass(frozen=True)
class GameSummary:
    """A game of the library in brief, as ``kalah games list`` shows it."""

    id: int
    started_at: str
    players: tuple[PlayerInfo, PlayerInfo]
    variant: dict[str, Any]
    moves: int
    status: str
    scores: tuple[int, int] | None
    tags: dict[str, Any]
    stop_reason: str | None = None  # why a stopped game ended (e.g. "South resigned", "North ran out of time")

    @property
    def winner(self) -> int | None:
        """0 or 1 for a finished game with a winner, else None."""
        if self.status != "finished" or self.scores is None or self.scores[0] == self.scores[1]:
            return None
        return 0 if self.scores[0] > self.scores[1] else 1

    def to_dict(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict."""
        return {
            "id": self.id,
            "started_at": self.started_at,
            "players": [{"name": p.name, "spec": p.spec} for p in self.players],
            "variant": self.variant,
            "moves": self.moves,
            "status": self.status,
            "scores": list(self.scores) if self.scores else None,
            "winner": self.winner,
            "stop_reason": self.stop_reason,
            "tags": self.tags,
        }


def default_library_path() -> Path:
    """The game library of this user (``games.sqlite`` in the user data directory), unless told otherwise."""
    import platformdirs

    return Path(platformdirs.user_data_dir("kalah")) / "games.sqlite"


def _move_text(move: Move) -> str:
    return str(move)


def _move_value(text: str) -> Move:
    return SWAP if text == SWAP else int(text)


class GameLibrary:
    """A SQLite file of games. Safe to share between threads and processes:
    every call opens its own connection."""

    def __init__(self, path: str | Path | None = None, busy_timeout: float = 30.0, create: bool = True) -> None:
        """Open (or create) the library at ``path``; a call waits up to ``busy_timeout`` seconds for a lock.
        With ``create=False`` (a command that only reads) a library that is not there is a LibraryNotFoundError,
        not a new empty file."""
        self.path = Path(path) if path is not None else default_library_path()
        if not create and not self.path.exists():
            raise LibraryNotFoundError(f"no game library at {self.path}")
        self.busy_timeout = busy_timeout
        self._local = threading.local()
        self._writer = threading.Lock()
        # The user's own library lives in a directory made for it; a path given with a directory that
        # does not exist is more likely a typing slip than a wish for new directories.
        if path is not None and not self.path.parent.is_dir():
            raise LibraryError(f"cannot create the game library {self.path}: no directory {self.path.parent}")
        try:
            if path is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as connection:
                connection.executescript(SCHEMA)
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise LibraryError(f"cannot open the game library {self.path}: {error}") from None
        except OSError as error:
            raise LibraryError(f"cannot create the game library {self.path}: {error.strerror or error}") from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection to the library (opened once per thread: opening costs more than a query)."""
        try:
            yield self._connection()
        except sqlite3.OperationalError as error:
            self._forget_connection()
            text = str(error)
            if "locked" in text or "busy" in text:
                raise LibraryBusyError(f"the game library {self.path} is locked by another program") from None
            if "readonly" in text:
                raise LibraryBusyError(f"the game library {self.path} is read-only") from None
            raise LibraryError(f"the game library {self.path} cannot be used: {text}") from None
        except sqlite3.DatabaseError as error:
            self._forget_connection()
            raise LibraryError(f"the game library {self.path} is damaged: {error}") from None

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None)
            self._local.connection = connection
            connection.row_factory = sqlite3.Row
            connection.execute("PRAGMA foreign_keys = ON")
            # WAL with synchronous=NORMAL: a commit survives the program being killed (the log is
            # in the operating system's hands); only a power cut may lose the last ones, never corrupt.
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA synchronous = NORMAL")
        return connection

    def _forget_connection(self) -> None:
        connection = getattr(self._local, "connection", None)
        self._local.connection = None
        if connection is not None:
            connection.close()

    def close(self) -> None:
        """Close this thread's connection (others close when their threads end)."""
        self._forget_connection()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        # Writers of this process take turns here: waiting in SQLite's busy handler (it sleeps
        # and retries) costs far more than a queue when many threads write at once.
        with self._writer, self._connect() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    def _migrate(self) -> None:
        """Bring an older library's schema up to date, each step in its own transaction."""
        with self._connect() as connection:
            done = connection.execute("PRAGMA user_version").fetchone()[0]
        for version, script in enumerate(MIGRATIONS[done:], done + 1):
            with self._transaction() as db:
                if db.execute("PRAGMA user_version").fetchone()[0] >= version:  # another process was first
                    continue
                for statement in filter(str.strip, script.split(";")):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {version:d}")

    # --- writing ----------------------------------------------------------------

    def create_game(
        self,
        start: Position,
        players: Sequence[PlayerInfo],
        started_at: str | None = None,
        tags: dict[str, Any] | None = None,
        program: str | None = None,
    ) -> int:
        """Store a new game with no moves yet; returns its id."""
        record = GameRecord(start, list(players), program=program or "")
        record.started_at = started_at or record.started_at
        with self._transaction() as db:
            return _insert_game(db, record, tags)

    def add_move(
        self,
        game_id: int,
        move: Move,
        seconds: float = 0.0,
        info: dict[str, Any] | None = None,
        expected_moves: int | None = None,
    ) -> Position:
        """Check ``move`` against the stored game and store it; returns the new position.

        Raises the rules' ``IllegalMoveError`` (and stores nothing) for an
        illegal move, and ``StaleGameError`` when ``expected_moves`` is given
        and the game has a different number of moves. The checks and the
        insert are one transaction, so two writers (two servers on one file)
        cannot both add move N.
        """
        with self._transaction() as db:
            position, count = self._current(db, game_id)
            _check_count(game_id, count, expected_moves)
            db.execute("DELETE FROM redo WHERE game_id = ?", (game_id,))  # a new move: what was taken back is gone
            return self._play(db, game_id, position, count, move, seconds, info or {})

    def _play(
        self,
        db: sqlite3.Connection,
        game_id: int,
        position: Position,
        count: int,
        move: Move,
        seconds: float,
        info: dict[str, Any],
    ) -> Position:
        after = position.play(move)
        _insert_move(db, game_id, count + 1, position.to_move, move, after.board, seconds, info)
        status = "finished" if after.is_over else "playing"
        scores = after.scores or (None, None)
        db.execute(
            "UPDATE games SET status = ?, score0 = ?, score1 = ?, stop_reason = NULL, updated_at = datetime('now')"
            " WHERE id = ?",
            (status, scores[0], scores[1], game_id),
        )
        return after

    def take_back(
        self, game_id: int, count: int = 1, expected_moves: int | None = None, *, keep_for_redo: bool = False
    ) -> Position:
        """Remove the last ``count`` moves (for take-back in friendly games); see ``add_move`` for ``expected_moves``.

        With ``keep_for_redo`` the moves removed go on the game's redo stack
        in the library (see :meth:`redo`); without it the stack is emptied.
        """
        with self._transaction() as db:
            _, moves = self._current(db, game_id)
            _check_count(game_id, moves, expected_moves)
            first = max(0, moves - count) + 1
            if keep_for_redo and moves >= first:
                removed = [
                    {"move": _move_value(move), "seconds": seconds, "info": json.loads(info)}
                    for move, seconds, info in db.execute(
                        "SELECT move, seconds, info FROM moves WHERE game_id = ? AND number >= ? ORDER BY number",
                        (game_id, first),
                    )
                ]
                db.execute(
                    "INSERT INTO redo (game_id, step, moves) VALUES"
                    " (?, (SELECT COALESCE(MAX(step), 0) + 1 FROM redo WHERE game_id = ?), ?)",
                    (game_id, game_id, json.dumps(removed)),
                )
            else:
                db.execute("DELETE FROM redo WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM moves WHERE game_id = ? AND number >= ?", (game_id, first))
            db.execute(
                "UPDATE games SET status = 'playing', score0 = NULL, score1 = NULL,"
                " updated_at = datetime('now') WHERE id = ?",
                (game_id,),
            )
            return self._current(db, game_id)[0]

    def redo(self, game_id: int, expected_moves: int | None = None) -> Position | None:
        """Play again the moves the last take-back kept for redo (one transaction); None when there are
        none (nothing was taken back, or the game changed since, in this program or another).
        See ``add_move`` for ``expected_moves``.

        Raises:
            GameNotFoundError: there is no game ``game_id``.
            StaleGameError: the game has moved on from ``expected_moves``.
            DamagedGameError: the game's stored moves no longer play.
        """
        with self._transaction() as db:
            position, count = self._current(db, game_id)
            _check_count(game_id, count, expected_moves)
            top = db.execute(
                "SELECT step, moves FROM redo WHERE game_id = ? ORDER BY step DESC LIMIT 1", (game_id,)
            ).fetchone()
            if top is None:
                return None
            db.execute("DELETE FROM redo WHERE game_id = ? AND step = ?", (game_id, top["step"]))
            try:
                for number, played in enumerate(json.loads(top["moves"])):
                    position = self._play(
                        db, game_id, position, count + number, played["move"], played["seconds"], played["info"]
                    )
            except (KalahError, ValueError, TypeError, KeyError) as error:
                raise DamagedGameError(f"the redo of game {game_id} in {self.path} is damaged: {error}") from None
            return position

    def redo_steps(self, game_id: int) -> int:
        """How many take-backs :meth:`redo` can undo in a row."""
        self._check_id(game_id)
        with self._connect() as db:
            row = db.execute("SELECT COUNT(*) FROM redo WHERE game_id = ?", (game_id,)).fetchone()
        return int(row[0])

    def mark_stopped(self, game_id: int, reason: str) -> None:
        """Mark a game that is still playing as stopped, with the reason."""
        self._check_id(game_id)
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET status = 'stopped', stop_reason = ? WHERE id = ? AND status = 'playing'",
                (reason, game_id),
            )

    def mark_all_stopped(self, program: str, reason: str) -> list[int]:
        """Mark every game of ``program`` that is still playing as stopped, with the reason; returns their ids.

        For a server that plays its games to the end itself: those it finds playing as it starts were cut
        off by the end of an earlier process (a crash, ``kill -9``) and will never move again.
        """
        with self._transaction() as db:  # not UPDATE ... RETURNING: SQLite before 3.35 lacks it
            ids = [
                int(row[0])
                for row in db.execute(
                    "SELECT id FROM games WHERE program = ? AND status = 'playing' ORDER BY id", (program,)
                )
            ]
            db.execute(
                "UPDATE games SET status = 'stopped', stop_reason = ? WHERE program = ? AND status = 'playing'",
                (reason, program),
            )
        return ids

    def import_record(self, record: GameRecord, tags: dict[str, Any] | None = None) -> int:
        """Store a whole record as one game (one transaction)."""
        game_id = None
        with self._transaction() as db:
            game_id = _insert_game(db, record, tags)
            for number, move in enumerate(record.moves, 1):
                _insert_move(db, game_id, number, move.player, move.move, move.board, move.seconds, move.info)
            final = record.final
            status = "finished" if final.is_over else ("stopped" if record.stop_reason else "playing")
            scores = final.scores or (None, None)
            db.execute(
                "UPDATE games SET status = ?, score0 = ?, score1 = ?, stop_reason = ? WHERE id = ?",
                (status, scores[0], scores[1], record.stop_reason, game_id),
            )
        return game_id

    def delete_game(self, game_id: int) -> None:
        """Delete a game and its moves (GameNotFoundError if there is no such game)."""
        with self._transaction() as db:
            self._row(db, game_id)
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def save_review(self, game_id: int, moves: int, review: dict[str, Any]) -> None:
        """Store the review of a game (a JSON object) made when it had ``moves`` moves; replaces an older one."""
        with self._transaction() as db:
            self._row(db, game_id)
            db.execute(
                "INSERT OR REPLACE INTO reviews (game_id, moves, review) VALUES (?, ?, ?)",
                (game_id, moves, json.dumps(review)),
            )

    # --- reading ----------------------------------------------------------------

    def review(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        """The stored review of a game and the move count it was made for, or None when it has none.

        Raises:
            GameNotFoundError: there is no game ``game_id``.
            DamagedGameError: the stored review no longer reads as JSON.
        """
        with self._connect() as db:
            self._row(db, game_id)
            row = db.execute("SELECT moves, review FROM reviews WHERE game_id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        try:
            data = json.loads(row["review"])
        except ValueError as error:
            raise DamagedGameError(f"the review of game {game_id} in {self.path} is damaged: {error}") from None
        if not isinstance(data, dict):
            raise DamagedGameError(f"the review of game {game_id} in {self.path} is damaged: not an object")
        return int(row["moves"]), data

    def _check_id(self, game_id: int) -> None:
        """Raise GameNotFoundError, saying why, for an id no game can have: sqlite3 raises OverflowError for
        an integer beyond its 64 bits, from deep in a query, and ids start at 1. Every method that takes a
        game id calls it (most through ``_row``), so a caller's bad id is the library's error, not sqlite's."""
        if isinstance(game_id, int) and not 1 <= game_id <= MAX_GAME_ID:
            raise GameNotFoundError(game_id, self.path, f"a game id is a whole number from 1 to {MAX_GAME_ID}")

    def _row(self, db: sqlite3.Connection, game_id: int) -> sqlite3.Row:
        self._check_id(game_id)
        row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(game_id, self.path)
        return row  # type: ignore[no-any-return]  # sqlite3 types rows as Any

    def _current(self, db: sqlite3.Connection, game_id: int) -> tuple[Position, int]:
        row = self._row(db, game_id)
        try:
            position = Position.from_json(row["start"])
        except (KalahError, ValueError, TypeError) as error:
            raise DamagedGameError(f"game {game_id} in {self.path} is damaged: {error}") from None
        moves = db.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY number", (game_id,)).fetchall()
        try:
            for (move,) in moves:
                position = position.play(_move_value(move))
        except (KalahError, ValueError) as error:
            raise DamagedGameError(f"game {game_id} in {self.path} is damaged: {error}") from None
        return position, len(moves)

    def position(self, game_id: int) -> Position:
        """The game's current position (GameNotFoundError if there is no such game)."""
        with self._connect() as db:
            return self._current(db, game_id)[0]

    def record(self, game_id: int) -> GameRecord:
        """The game as a JSON game record (checked move by move).

        Raises:
            GameNotFoundError: there is no game ``game_id``.
            DamagedGameError: the game's stored record no longer reads as a record.
        """
        with self._connect() as db:
            row = self._row(db, game_id)
            moves = db.execute(
                "SELECT player, move, board, seconds, info FROM moves WHERE game_id = ? ORDER BY number", (game_id,)
            ).fetchall()
        try:
            data = {
                "format": "kalah-game",
                "version": 1,
                "program": row["program"],
                "started_at": row["started_at"],
                "variant": json.loads(row["variant"]),
                "players": [
                    {"name": row["player0_name"], "spec": row["player0_spec"]},
                    {"name": row["player1_name"], "spec": row["player1_spec"]},
                ],
                "start": json.loads(row["start"]),
                "moves": [
                    {
                        "player": p,
                        "move": _move_value(m),
                        "board": json.loads(b),
                        "seconds": s,
                        **({"info": json.loads(i)} if i and i != "{}" else {}),
                    }
                    for p, m, b, s, i in moves
                ],
                "result": {"stop_reason": row["stop_reason"]} if row["stop_reason"] else {},
            }
            return GameRecord.from_dict(data)
        except (RecordError, ValueError, TypeError) as error:
            raise DamagedGameError(f"game {game_id} in {self.path} is damaged: {error}") from None

    def summary(self, game_id: int) -> GameSummary:
        """The summary of one game (GameNotFoundError if there is no such game)."""
        self._check_id(game_id)
        return next(iter(self.list_games(ids=[game_id])), None) or self._missing(game_id)

    def _missing(self, game_id: int) -> GameSummary:
        raise GameNotFoundError(game_id, self.path)

    def list_games(
        self,
        tags: dict[str, Any] | None = None,
        ids: Sequence[int] | None = None,
        limit: int | None = None,
        before: int | None = None,
    ) -> list[GameSummary]:
        """Games, newest first; ``tags`` keeps those whose tags contain all the given pairs, ``ids`` those
        with these ids, ``before`` those with smaller ids (the next page after a game), ``limit`` the first
        so many. Ids no game can have (below 1, beyond ``MAX_GAME_ID``) match nothing."""
        query = "SELECT g.*, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS move_count FROM games g"
        clauses: list[str] = []
        parameters: list[Any] = []
        for key, value in (tags or {}).items():
            clauses.append("json_extract(g.tags, ?) = json_extract(?, '$')")
            parameters += [f"$.{key}", json.dumps(value)]
        # Kept within SQLite's integers: a larger one is an OverflowError in the query, not an empty answer.
        if before is not None and int(before) <= MAX_GAME_ID:
            clauses.append("g.id < ?")
            parameters.append(max(int(before), 0))
        if ids is not None:
            held = [i for i in ids if not isinstance(i, int) or 1 <= i <= MAX_GAME_ID]
            clauses.append(f"g.id IN ({', '.join('?' * len(held))})")
            parameters += held
        if clauses:
            query += " WHERE " + " AND ".join(clauses)
        query += " ORDER BY g.id DESC"
        if limit is not None:
            query += f" LIMIT {int(limit)}"
        with self._connect() as db:
            rows = db.execute(query, parameters).fetchall()
        return [
            GameSummary(
                id=row["id"],
                started_at=row["started_at"],
                players=(
                    PlayerInfo(row["player0_name"], row["player0_spec"]),
                    PlayerInfo(row["player1_name"], row["player1_spec"]),
                ),
                variant=json.loads(row["variant"]),
                moves=row["move_count"],
                status=row["status"],
                scores=(row["score0"], row["score1"]) if row["score0"] is not None else None,
                tags=json.loads(row["tags"]),
                stop_reason=row["stop_reason"],
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
        """Store the move (checked against the stored game)."""
        assert self.game_id is not None
        self.library.add_move(self.game_id, event.move, event.seconds, event.info)

    def moves_taken_back(self, position: Position, count: int) -> None:
        """Take the moves back in the library too."""
        if self.game_id is not None and count:
            self.library.take_back(self.game_id, count)

    def game_ended(self, result: GameResult) -> None:
        """Mark a game that stopped before its end."""
        if self.game_id is not None and not result.finished:
            self.library.mark_stopped(self.game_id, result.stop_reason or "stopped")


def _insert_game(db: sqlite3.Connection, record: GameRecord, tags: dict[str, Any] | None) -> int:
    """Adds the games row of ``record`` (its start and players; no moves yet) and returns its id."""
    players = record.players
    cursor = db.execute(
        "INSERT INTO games (started_at, program, variant, player0_name, player0_spec, player1_name,"
        " player1_spec, start, tags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            record.started_at,
            record.program,
            json.dumps(record.start.variant.to_dict()),
            players[0].name,
            players[0].spec,
            players[1].name,
            players[1].spec,
            record.start.to_json(),
            json.dumps(tags or {}),
        ),
    )
    assert cursor.lastrowid is not None  # an INSERT always sets it
    return cursor.lastrowid


def _insert_move(
    db: sqlite3.Connection,
    game_id: int,
    number: int,
    player: int,
    move: Move,
    board: Any,
    seconds: float,
    info: dict[str, Any],
) -> None:
    db.execute(
        "INSERT INTO moves (game_id, number, player, move, board, seconds, info) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (game_id, number, player, _move_text(move), json.dumps(board), seconds, json.dumps(info)),
    )


def _check_count(game_id: int, count: int, expected: int | None) -> None:
    if expected is not None and count != expected:
        raise StaleGameError(
            f"game {game_id} has {plural(count, 'move')}, not {expected}: it moved on since this request was made (reload it)"
        )
