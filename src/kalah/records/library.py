"""The game library: every game, finished or not, in a SQLite file or a PostgreSQL database.

Each change is one transaction, so a crash or Ctrl-C never leaves half a move;
a move is committed before the caller hears that it was stored. A change of
a game first locks the game's row, so that two servers on one library never
both change it from the same state. Games can carry ``tags`` (a JSON object)
so that tools such as the arena can find their own games again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kalah.rules import KalahError, Move, Position
from kalah.rules.outcome import DECISIONS, Outcome, Termination
from kalah.rules.wording import plural

from . import schema
from .errors import DamagedGameError, GameNotFoundError, LibraryError, StaleGameError
from .record import GameRecord, PlayerInfo, RecordError
from .rows import insert_game, insert_move, move_value, record_of, summary_of
from .store import Database, Session
from .summary import GameSummary

#: The largest game id the library holds: both databases' integers are signed 64-bit.
MAX_GAME_ID = 2**63 - 1
#: The longest name :meth:`GameLibrary.name_player` gives a player.
NAME_LENGTH = 30


def default_library_path() -> Path:
    """The game library of this user (``games.sqlite`` in the user data directory), unless told otherwise."""
    import platformdirs

    return Path(platformdirs.user_data_dir("kalah")) / "games.sqlite"


@dataclass(frozen=True)
class StoredGame:
    """One game as one read of the library sees it: its record, summary and how many take-backs redo undoes."""

    record: GameRecord
    summary: GameSummary
    redo_steps: int


class GameLibrary:
    """The games of one library. Safe to share between threads and processes."""

    def __init__(self, path: str | Path | None = None, busy_timeout: float = 30.0, create: bool = True) -> None:
        """Open (or create) the library at ``path``: a SQLite file (default: the user's library), or a
        PostgreSQL database (``postgresql://USER@HOST/DATABASE``). A call waits up to ``busy_timeout`` seconds
        for another writer. With ``create=False`` (a command that only reads) a SQLite library that is not
        there is a LibraryNotFoundError, not a new empty file.

        Raises:
            LibraryError: the library cannot be opened or made (a subclass says when it is missing, busy or
                unreachable).
        """
        target = path if path is not None else default_library_path()
        self.database = Database(target, busy_timeout=busy_timeout, create=create)
        #: the SQLite file (None for a PostgreSQL library)
        self.path = self.database.path
        #: the library in messages: the file, or the database's address without its password
        self.where = self.database.where
        if self.path is not None:
            # The user's own library lives in a directory made for it; a path given with a directory that
            # does not exist is more likely a typing slip than a wish for new directories.
            if path is not None and not self.path.parent.is_dir():
                raise LibraryError(f"cannot create the game library {self.path}: no directory {self.path.parent}")
            try:
                if path is None:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise LibraryError(f"cannot create the game library {self.path}: {error.strerror or error}") from None
        self.database.migrate(schema.OWNER, schema.STEPS, schema.legacy_version)

    @property
    def busy_timeout(self) -> float:
        """Seconds a call waits for another writer."""
        return self.database.busy_timeout

    def close(self) -> None:
        """Close this thread's connection (others close when their threads end)."""
        self.database.close()

    # --- writing ----------------------------------------------------------------

    def create_game(
        self,
        start: Position,
        players: Sequence[PlayerInfo],
        started_at: str | None = None,
        tags: dict[str, Any] | None = None,
        program: str | None = None,
        leave_digest: str | None = None,
    ) -> int:
        """Store a new game with no moves yet; returns its id. ``leave_digest``: the digest
        (``database.digest``) of the secret with which its page may delete it by leaving before its first move."""
        record = GameRecord(start, list(players), program=program or "")
        record.started_at = started_at or record.started_at
        with self.database.write() as db:
            game_id = insert_game(db, record, tags)
            if leave_digest is not None:
                db.execute("UPDATE games SET leave_digest = ? WHERE id = ?", (leave_digest, game_id))
            return game_id

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
        insert are one transaction on the game's locked row, so two writers
        (two servers on one library) cannot both add move N.
        """
        with self.database.write() as db:
            position, count = self._current(db, game_id, lock=True)
            _check_count(game_id, count, expected_moves)
            db.execute("DELETE FROM redo WHERE game_id = ?", (game_id,))  # a new move: what was taken back is gone
            return self._play(db, game_id, position, count, move, seconds, info or {})

    def _play(
        self,
        db: Session,
        game_id: int,
        position: Position,
        count: int,
        move: Move,
        seconds: float,
        info: dict[str, Any],
    ) -> Position:
        after = position.play(move)
        insert_move(db, game_id, count + 1, position.to_move, move, after.board, seconds, info)
        status = "finished" if after.is_over else "playing"
        scores = after.scores or (None, None)
        db.execute(
            "UPDATE games SET status = ?, score0 = ?, score1 = ?, stop_reason = NULL, winner = ?, termination = ?,"
            f" leave_digest = NULL, updated_at = {db.dialect.now} WHERE id = ?",
            (status, scores[0], scores[1], after.winner, "board" if after.is_over else None, game_id),
        )
        return after

    def take_back(
        self, game_id: int, count: int = 1, expected_moves: int | None = None, *, keep_for_redo: bool = False
    ) -> Position:
        """Remove the last ``count`` moves (for take-back in friendly games); see ``add_move`` for ``expected_moves``.

        With ``keep_for_redo`` the moves removed go on the game's redo stack
        in the library (see :meth:`redo`); without it the stack is emptied.
        """
        with self.database.write() as db:
            _, moves = self._current(db, game_id, lock=True)
            _check_count(game_id, moves, expected_moves)
            first = max(0, moves - count) + 1
            if keep_for_redo and moves >= first:
                removed = [
                    {"move": move_value(row["move"]), "seconds": row["seconds"], "info": json.loads(row["info"])}
                    for row in db.all(
                        "SELECT move, seconds, info FROM moves WHERE game_id = ? AND number >= ? ORDER BY number",
                        (game_id, first),
                    )
                ]
                step = db.value("SELECT COALESCE(MAX(step), 0) + 1 FROM redo WHERE game_id = ?", (game_id,))
                db.execute(
                    "INSERT INTO redo (game_id, step, moves) VALUES (?, ?, ?)", (game_id, step, json.dumps(removed))
                )
            else:
                db.execute("DELETE FROM redo WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM moves WHERE game_id = ? AND number >= ?", (game_id, first))
            db.execute(
                "UPDATE games SET status = 'playing', score0 = NULL, score1 = NULL, winner = NULL, termination = NULL,"
                f" updated_at = {db.dialect.now} WHERE id = ?",
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
        with self.database.write() as db:
            position, count = self._current(db, game_id, lock=True)
            _check_count(game_id, count, expected_moves)
            top = db.one("SELECT step, moves FROM redo WHERE game_id = ? ORDER BY step DESC LIMIT 1", (game_id,))
            if top is None:
                return None
            db.execute("DELETE FROM redo WHERE game_id = ? AND step = ?", (game_id, top["step"]))
            try:
                for number, played in enumerate(json.loads(top["moves"])):
                    position = self._play(
                        db, game_id, position, count + number, played["move"], played["seconds"], played["info"]
                    )
            except (KalahError, ValueError, TypeError, KeyError) as error:
                raise DamagedGameError(f"the redo of game {game_id} in {self.where} is damaged: {error}") from None
            return position

    def redo_steps(self, game_id: int) -> int:
        """How many take-backs :meth:`redo` can undo in a row."""
        self._check_id(game_id)
        with self.database.read() as db:
            return int(db.value("SELECT COUNT(*) FROM redo WHERE game_id = ?", (game_id,)))

    def name_player(self, game_id: int, player: int, name: str) -> None:
        """Give side ``player`` of a game the name ``name`` (one line, at most ``NAME_LENGTH`` characters).

        Raises:
            GameNotFoundError: there is no game ``game_id``.
            KalahError: ``player`` is not 0 or 1, or ``name`` is empty, too long or more than one line.
        """
        if player not in (0, 1):
            raise KalahError(f"a game's players are 0 and 1, not {player!r}")
        if not name.strip() or len(name) > NAME_LENGTH or not name.isprintable():
            raise KalahError(f"a player's name is one line of 1 to {NAME_LENGTH} characters")
        with self.database.write() as db:
            self._row(db, game_id, lock=True)
            db.execute(f"UPDATE games SET player{player}_name = ? WHERE id = ?", (name, game_id))

    def mark_stopped(self, game_id: int, reason: str) -> None:
        """Mark a game that is still playing as stopped, with the reason."""
        self._check_id(game_id)
        with self.database.write() as db:
            db.execute(
                "UPDATE games SET status = 'stopped', stop_reason = ? WHERE id = ? AND status = 'playing'",
                (reason, game_id),
            )

    def decide(self, game_id: int, loser: int, termination: Termination, expected_moves: int | None = None) -> bool:
        """End a game that is still playing off the board: ``loser`` resigned, ran out of time or forfeited.
        Stored finished, with the winner and the termination; False (nothing changed) when the game was not
        playing any more or, with ``expected_moves``, has moved on.

        Raises:
            GameNotFoundError: there is no game ``game_id``.
            KalahError: ``termination`` is not a decision (resignation, time, forfeit) or ``loser`` not 0 or 1.
        """
        if termination not in DECISIONS:
            raise KalahError(f"a game is decided off the board by {', '.join(DECISIONS)}, not {termination!r}")
        outcome = Outcome.decided(loser, termination)
        with self.database.write() as db:
            row = self._row(db, game_id, lock=True)
            count = db.value("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,))
            if row["status"] != "playing" or (expected_moves is not None and count != expected_moves):
                return False
            db.execute(
                "UPDATE games SET status = 'finished', winner = ?, termination = ?, stop_reason = NULL,"
                f" updated_at = {db.dialect.now} WHERE id = ?",
                (outcome.winner, termination, game_id),
            )
            return True

    def mark_all_stopped(self, program: str, reason: str) -> list[int]:
        """Mark every game of ``program`` that is still playing as stopped, with the reason; returns their ids.

        For a server that plays its games to the end itself: those it finds playing as it starts were cut
        off by the end of an earlier process (a crash, ``kill -9``) and will never move again.
        """
        with self.database.write() as db:
            ids = [
                int(row["id"])
                for row in db.all(
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
        with self.database.write() as db:
            game_id = insert_game(db, record, tags)
            for number, move in enumerate(record.moves, 1):
                insert_move(db, game_id, number, move.player, move.move, move.board, move.seconds, move.info)
            final = record.final
            outcome = record.outcome
            status = "finished" if outcome else ("stopped" if record.stop_reason else "playing")
            scores = final.scores or (None, None)
            db.execute(
                "UPDATE games SET status = ?, score0 = ?, score1 = ?, stop_reason = ?, winner = ?, termination = ?"
                " WHERE id = ?",
                (
                    status,
                    scores[0],
                    scores[1],
                    record.stop_reason,
                    outcome.winner if outcome else None,
                    outcome.termination if outcome else None,
                    game_id,
                ),
            )
        return game_id

    def delete_game(self, game_id: int) -> None:
        """Delete a game and its moves (GameNotFoundError if there is no such game)."""
        with self.database.write() as db:
            self._row(db, game_id, lock=True)
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def leave_digest(self, game_id: int) -> str | None:
        """The digest of the secret that lets a game's page delete it by leaving (None once it has begun)."""
        with self.database.read() as db:
            return self._row(db, game_id)["leave_digest"]  # type: ignore[no-any-return]

    def save_review(self, game_id: int, moves: int, review: dict[str, Any]) -> None:
        """Store the review of a game (a JSON object) made when it had ``moves`` moves; replaces an older one."""
        with self.database.write() as db:
            self._row(db, game_id)
            db.execute("DELETE FROM reviews WHERE game_id = ?", (game_id,))
            db.execute(
                "INSERT INTO reviews (game_id, moves, review) VALUES (?, ?, ?)", (game_id, moves, json.dumps(review))
            )

    # --- reading ----------------------------------------------------------------

    def review(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        """The stored review of a game and the move count it was made for, or None when it has none.

        Raises:
            GameNotFoundError: there is no game ``game_id``.
            DamagedGameError: the stored review no longer reads as JSON.
        """
        with self.database.read() as db:
            self._row(db, game_id)
            row = db.one("SELECT moves, review FROM reviews WHERE game_id = ?", (game_id,))
        if row is None:
            return None
        try:
            data = json.loads(row["review"])
        except ValueError as error:
            raise DamagedGameError(f"the review of game {game_id} in {self.where} is damaged: {error}") from None
        if not isinstance(data, dict):
            raise DamagedGameError(f"the review of game {game_id} in {self.where} is damaged: not an object")
        return int(row["moves"]), data

    def _check_id(self, game_id: int) -> None:
        """Raise GameNotFoundError, saying why, for an id no game can have: the databases refuse an integer
        beyond 64 bits from deep in a query, and ids start at 1. Every method that takes a game id calls it
        (most through ``_row``), so a caller's bad id is the library's error, not the database's."""
        if isinstance(game_id, int) and not 1 <= game_id <= MAX_GAME_ID:
            raise GameNotFoundError(game_id, self.where, f"a game id is a whole number from 1 to {MAX_GAME_ID}")

    def _row(self, db: Session, game_id: int, lock: bool = False) -> Any:
        self._check_id(game_id)
        row = (
            self.database.lock_row(db, "games", "id", game_id)
            if lock
            else db.one("SELECT * FROM games WHERE id = ?", (game_id,))
        )
        if row is None:
            raise GameNotFoundError(game_id, self.where)
        return row

    def _current(self, db: Session, game_id: int, lock: bool = False) -> tuple[Position, int]:
        row = self._row(db, game_id, lock)
        try:
            position = Position.from_json(row["start"])
        except (KalahError, ValueError, TypeError) as error:
            raise DamagedGameError(f"game {game_id} in {self.where} is damaged: {error}") from None
        moves = db.all("SELECT move FROM moves WHERE game_id = ? ORDER BY number", (game_id,))
        try:
            for move in moves:
                position = position.play(move_value(move["move"]))
        except (KalahError, ValueError) as error:
            raise DamagedGameError(f"game {game_id} in {self.where} is damaged: {error}") from None
        return position, len(moves)

    def position(self, game_id: int) -> Position:
        """The game's current position (GameNotFoundError if there is no such game)."""
        with self.database.read() as db:
            return self._current(db, game_id)[0]

    def record(self, game_id: int) -> GameRecord:
        """The game as a JSON game record (checked move by move).

        Raises:
            GameNotFoundError: there is no game ``game_id``.
            DamagedGameError: the game's stored record no longer reads as a record.
        """
        with self.database.read() as db:
            return self._record(db, game_id, self._row(db, game_id))

    def game(self, game_id: int) -> StoredGame:
        """The game's record, summary and redo steps from one read (GameNotFoundError if there is none)."""
        with self.database.read() as db:
            row = self._row(db, game_id)
            record = self._record(db, game_id, row)
            steps = int(db.value("SELECT COUNT(*) FROM redo WHERE game_id = ?", (game_id,)))
        return StoredGame(record, summary_of(row, len(record.moves)), steps)

    def _record(self, db: Session, game_id: int, row: Any) -> GameRecord:
        moves = db.all(
            "SELECT player, move, board, seconds, info FROM moves WHERE game_id = ? ORDER BY number", (game_id,)
        )
        try:
            return record_of(row, moves)
        except (RecordError, ValueError, TypeError) as error:
            raise DamagedGameError(f"game {game_id} in {self.where} is damaged: {error}") from None

    def summary(self, game_id: int) -> GameSummary:
        """The summary of one game.

        Raises:
            GameNotFoundError: there is no game ``game_id``.
        """
        self._check_id(game_id)
        found = self.list_games(ids=[game_id])
        if not found:
            raise GameNotFoundError(game_id, self.where)
        return found[0]

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
        dialect = self.database.dialect
        query = "SELECT g.*, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS move_count FROM games g"
        clauses: list[str] = []
        parameters: list[Any] = []
        for key, value in (tags or {}).items():
            clauses.append(f"{dialect.json_at('g.tags')} = {dialect.json_value()}")
            parameters += [key, json.dumps(value)]
        # Kept within 64-bit integers: a larger one is an error in the query, not an empty answer.
        if before is not None and int(before) <= MAX_GAME_ID:
            clauses.append("g.id < ?")
            parameters.append(max(int(before), 0))
        if ids is not None:
            held = [i for i in ids if isinstance(i, int) and 1 <= i <= MAX_GAME_ID]
            clauses.append(f"g.id IN ({', '.join('?' * len(held))})" if held else "1 = 0")
            parameters += held
        if clauses:
            query += " WHERE " + " AND ".join(clauses)
        query += " ORDER BY g.id DESC"
        if limit is not None:
            query += f" LIMIT {int(limit)}"
        with self.database.read() as db:
            rows = db.all(query, parameters)
        return [summary_of(row, row["move_count"]) for row in rows]


def _check_count(game_id: int, count: int, expected: int | None) -> None:
    if expected is not None and count != expected:
        raise StaleGameError(
            f"game {game_id} has {plural(count, 'move')}, not {expected}: it moved on since this request was made (reload it)"
        )
