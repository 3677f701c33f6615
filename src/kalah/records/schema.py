"""The game library's tables, in the SQL both SQLite and PostgreSQL speak, and their changes over time.

``{id}``, ``{real}`` and ``{now}`` are spelled by each database's dialect
(:class:`kalah.records.store.Dialect`). Each step runs once per library, in
order (:meth:`kalah.records.store.Database.migrate`); the first two use ``IF
NOT EXISTS`` because libraries made before the steps were counted by owner
already have those tables.
"""

from __future__ import annotations

from .store import Migration, Session

OWNER = "library"

GAMES = """
CREATE TABLE IF NOT EXISTS games (
    id {id},
    started_at TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT {now},
    program TEXT NOT NULL,
    variant TEXT NOT NULL,
    player0_name TEXT NOT NULL, player0_spec TEXT NOT NULL,
    player1_name TEXT NOT NULL, player1_spec TEXT NOT NULL,
    start TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    stop_reason TEXT,
    score0 INTEGER, score1 INTEGER,
    tags TEXT NOT NULL DEFAULT '{{}}'
);
CREATE TABLE IF NOT EXISTS moves (
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    player INTEGER NOT NULL,
    move TEXT NOT NULL,
    board TEXT NOT NULL,
    seconds {real} NOT NULL DEFAULT 0,
    info TEXT NOT NULL DEFAULT '{{}}',
    PRIMARY KEY (game_id, number)
);
CREATE TABLE IF NOT EXISTS redo (
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    moves TEXT NOT NULL,
    PRIMARY KEY (game_id, step)
)
"""
# status: playing | finished | stopped. redo: what take-backs removed, a stack per game (the highest step on
# top), as JSON [{"move", "seconds", "info"}, ...] in the order played; every other change of the game's moves
# empties it, so that the top always follows the stored game, whichever program or server made the change.

REVIEWS = """
CREATE TABLE IF NOT EXISTS reviews (
    game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    moves INTEGER NOT NULL,
    created_at TEXT NOT NULL DEFAULT {now},
    review TEXT NOT NULL
)
"""

# A game decided off the board (resignation, time, forfeit) is finished with its winner and termination; a
# game's page keeps the digest of the secret that lets it delete the game by leaving before the first move,
# so that any server process can check it.
DECISIONS = """
ALTER TABLE games ADD COLUMN winner INTEGER;
ALTER TABLE games ADD COLUMN termination TEXT;
ALTER TABLE games ADD COLUMN leave_digest TEXT
"""

STEPS: tuple[Migration, ...] = (GAMES, REVIEWS, DECISIONS)


def legacy_version(session: Session) -> int:
    """Steps a SQLite library made before steps were counted by owner had done: the games table, and the
    reviews if ``PRAGMA user_version`` says so (the count of that time)."""
    if session.dialect.name != "sqlite":
        return 0
    if session.one("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'games'") is None:
        return 0
    return 1 + int(session.value("PRAGMA user_version"))
