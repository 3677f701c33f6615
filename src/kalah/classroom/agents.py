"""The class server's agents and results: tables beside the game library's, in its database (SQLite or
PostgreSQL, :mod:`kalah.records.store`).

An agent is known by its token, kept only as the library's digest of it
(SHA-256 of a salt kept in the database and the token), and shown by its
name. An agent that sends
no token is anonymous: a new agent each sign-in (the server reuses one for the
same address and name). Built-in bots are agents
too, so that ratings cover everyone. Each finished (or forfeited) game leaves
one row in ``kgp_results``; ratings are fitted from those rows with the
arena's Bradley-Terry code (:func:`kalah.arena.elo.fit_ratings`). A result
the database refuses (a full disk, no file descriptor left) is kept in memory
and in a journal file beside the database (:mod:`kalah.classroom.journal`),
and stored as soon as the database takes writes again, by this process or,
after a crash, by the next one opened on the same database.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kalah.arena.elo import fit_ratings
from kalah.records import LibraryError
from kalah.records.store import Database, Session
from kalah.rules import Outcome
from kalah.rules.outcome import WORDS

from .journal import ResultJournal, Row, journal_path

SCHEMA = """
CREATE TABLE IF NOT EXISTS kgp_agents (
    id {id},
    token_hash TEXT UNIQUE,
    name TEXT NOT NULL,
    authors TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL DEFAULT 'agent',
    first_seen TEXT NOT NULL DEFAULT {now},
    last_seen TEXT NOT NULL DEFAULT {now}
);
CREATE TABLE IF NOT EXISTS kgp_results (
    game_id BIGINT PRIMARY KEY,
    south BIGINT NOT NULL REFERENCES kgp_agents(id),
    north BIGINT NOT NULL REFERENCES kgp_agents(id),
    score {real} NOT NULL,
    reason TEXT NOT NULL,
    event TEXT NOT NULL DEFAULT 'practice',
    variant TEXT NOT NULL,
    finished_at TEXT NOT NULL DEFAULT {now}
);
CREATE TABLE IF NOT EXISTS kgp_grades (
    game_id BIGINT NOT NULL,
    side INTEGER NOT NULL,
    agent_id BIGINT NOT NULL REFERENCES kgp_agents(id),
    decisions INTEGER NOT NULL,
    exact INTEGER NOT NULL,
    seeds_lost {real} NOT NULL,
    good INTEGER NOT NULL,
    blunders INTEGER NOT NULL,
    PRIMARY KEY (game_id, side)
);
CREATE TABLE IF NOT EXISTS kgp_hidden (agent_id BIGINT PRIMARY KEY REFERENCES kgp_agents(id));
CREATE TABLE IF NOT EXISTS kgp_submissions (
    event TEXT NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (event, name)
);
CREATE TABLE IF NOT EXISTS kgp_tournament_field (
    event TEXT NOT NULL,
    agent_id BIGINT NOT NULL REFERENCES kgp_agents(id),
    seat INTEGER NOT NULL,
    PRIMARY KEY (event, agent_id)
)
"""
#: The longest name, authors or description kept (longer ones are cut).
MAX_TEXT = 200
_STORE_RESULT = (
    "INSERT INTO kgp_results (game_id, south, north, score, reason, event, variant) VALUES (?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (game_id) DO UPDATE SET south = excluded.south, north = excluded.north, score = excluded.score,"
    " reason = excluded.reason, event = excluded.event, variant = excluded.variant"
)
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Agent:
    """An agent (or a built-in bot) as the server knows it."""

    id: int
    name: str
    authors: str = ""
    description: str = ""
    kind: str = "agent"
    anonymous: bool = False  # no token: left off the leaderboard unless asked for

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, without anything secret (the token's hash stays in the file)."""
        return {
            "id": self.id,
            "name": self.name,
            "authors": self.authors,
            "description": self.description,
            "kind": self.kind,
            "anonymous": self.anonymous,
        }


@dataclass(frozen=True)
class Standing:
    """One line of the leaderboard."""

    agent: Agent
    games: int
    wins: int
    draws: int
    losses: int
    elo: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; an open interval (no games) is given as null."""
        finite = self.low > -1e9 and self.high < 1e9
        return {
            **self.agent.to_dict(),
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round((self.wins + self.draws / 2) / self.games, 4) if self.games else None,
            "elo": round(self.elo, 1),
            "elo_low": round(self.low, 1) if finite else None,
            "elo_high": round(self.high, 1) if finite else None,
        }


@dataclass(frozen=True)
class Grade:
    """One side's moves in one game (or summed over games), as judged against perfect play."""

    decisions: int  # moves with a choice
    exact: int  # of them, judged exactly
    seeds_lost: float  # by the exact ones, against the best move
    good: int  # exact ones that lost at most 2 seeds (best or good)
    blunders: int  # exact ones that lost more than 8

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, with accuracy (percent) and seeds lost per exact decision (None: none judged)."""
        return {
            "decisions": self.decisions,
            "exact": self.exact,
            "seeds_lost": round(self.seeds_lost, 2),
            "accuracy": round(100 * self.good / self.exact, 1) if self.exact else None,
            "loss_per_move": round(self.seeds_lost / self.exact, 3) if self.exact else None,
            "blunders": self.blunders,
        }


def outcome_of(result: dict[str, Any]) -> Outcome:
    """How a stored result (:meth:`AgentBook.results`) ended: south is player 0; a forfeit says so in its
    reason."""
    score = result["score"]
    winner = None if score == 0.5 else 0 if score > 0.5 else 1
    if winner is not None and str(result["reason"]).startswith("forfeit"):
        return Outcome(winner, "forfeit")
    return Outcome(winner)


class AgentBook:
    """Agents and results in the database of a game library. Thread-safe."""

    def __init__(self, database: Database | str | Path) -> None:
        """The agents of the library of ``database`` (or of the SQLite file, or the address, given)."""
        database = database if isinstance(database, Database) else Database(database)
        self.database = database
        self.where = database.where
        self._unsaved: dict[int, Row] = {}  # by game id; each is in the journal too, unless _journal_behind
        self._store_lock = threading.Lock()  # the unsaved results and the journal: one store at a time
        self.journal = ResultJournal(journal_path(_journal_beside(database)))
        self._journal_behind = False  # an append failed: the journal lacks results held in memory
        self._failing = False
        database.migrate("classroom", (SCHEMA,))
        # A process that stopped while the database refused results left them in the journal.
        self._unsaved.update(self.journal.read())
        self.store_unsaved()

    def transaction(self) -> AbstractContextManager[Session]:
        """The database in one transaction (committed at the end, rolled back on an error); for the other
        modules of the class server that keep tables here (:mod:`.moderation`, :mod:`.tournament`)."""
        return self._db()

    @contextmanager
    def _db(self) -> Iterator[Session]:
        with self.database.write() as db:  # one transaction: committed on success, rolled back on error
            yield db

    def close(self) -> None:
        """Close this thread's connection to the database (the next call opens it again)."""
        self.database.close()

    def token_hash(self, token: str) -> str:
        """The stored form of a token."""
        return self.database.digest(token)

    def known_token(self, token: str) -> bool:
        """Whether an agent already uses this token."""
        with self._db() as db:
            return (
                db.execute("SELECT 1 FROM kgp_agents WHERE token_hash = ?", (self.token_hash(token),)).fetchone()
                is not None
            )

    def name_taken(self, name: str, token: str | None) -> bool:
        """Whether ``name`` belongs to an agent with a token other than ``token`` (names compared
        without case: a name that belongs to a token cannot be taken without it)."""
        digest = self.token_hash(token) if token is not None else ""
        with self._db() as db:
            row = db.execute(
                "SELECT 1 FROM kgp_agents WHERE LOWER(name) = LOWER(?) AND token_hash IS NOT NULL AND token_hash <> ?",
                (_clean(name), digest),
            ).fetchone()
        return row is not None

    def sign_in(self, token: str | None, name: str, authors: str = "", description: str = "") -> Agent:
        """The agent of ``token`` (made on first use; its name and details updated), or a new anonymous agent."""
        name, authors, description = (_clean(text) for text in (name, authors, description))
        with self._db() as db:
            if token is None:
                agent_id = db.insert(
                    "INSERT INTO kgp_agents (name, authors, description) VALUES (?, ?, ?)", (name, authors, description)
                )
                return Agent(agent_id, name, authors, description, anonymous=True)
            digest = self.token_hash(token)
            db.execute(
                "INSERT INTO kgp_agents (token_hash, name, authors, description) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(token_hash) DO UPDATE SET name = excluded.name, authors = excluded.authors,"
                f" description = excluded.description, last_seen = {db.dialect.now}",
                (digest, name, authors, description),
            )
            row = db.execute("SELECT id FROM kgp_agents WHERE token_hash = ?", (digest,)).fetchone()
            return Agent(int(row[0]), name, authors, description)

    def bot(self, name: str, spec: str) -> Agent:
        """The agent that stands for a built-in bot (one per name)."""
        with self._db() as db:
            key = "bot:" + name
            db.execute(
                "INSERT INTO kgp_agents (token_hash, name, description, kind) VALUES (?, ?, ?, 'bot')"
                " ON CONFLICT (token_hash) DO NOTHING",
                (key, name, spec),
            )
            row = db.execute("SELECT id FROM kgp_agents WHERE token_hash = ?", (key,)).fetchone()
            return Agent(int(row[0]), name, "", spec, "bot")

    def agent(self, agent_id: int) -> Agent | None:
        """The agent with that id, or None."""
        with self._db() as db:
            row = db.execute(
                "SELECT id, name, authors, description, kind, token_hash FROM kgp_agents WHERE id = ?", (agent_id,)
            ).fetchone()
        return Agent(row[0], row[1], row[2], row[3], row[4], anonymous=row[5] is None) if row else None

    def store_grades(self, game_id: int, agents: tuple[int, int], grades: list[Grade]) -> None:
        """Keep a game's grades (:mod:`.grading`), south's first; a game graded again replaces them."""
        rows = [
            (game_id, side, agents[side], g.decisions, g.exact, g.seeds_lost, g.good, g.blunders)
            for side, g in enumerate(grades)
        ]
        with self._db() as db:
            db.execute("DELETE FROM kgp_grades WHERE game_id = ?", (game_id,))
            db.executemany(
                "INSERT INTO kgp_grades (game_id, side, agent_id, decisions, exact, seeds_lost, good, blunders)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )

    def grades(self, game_id: int | None = None) -> dict[int, Grade]:
        """Grades summed by agent (of one game: by side), hidden agents left out."""
        key = "side" if game_id is not None else "agent_id"
        query = (
            f"SELECT {key}, SUM(decisions), SUM(exact), SUM(seeds_lost), SUM(good), SUM(blunders) FROM kgp_grades"
            " WHERE agent_id NOT IN (SELECT agent_id FROM kgp_hidden)"
            + (" AND game_id = ?" if game_id is not None else "")
            + f" GROUP BY {key}"
        )
        with self._db() as db:
            rows = db.execute(query, (game_id,) if game_id is not None else ()).fetchall()
        return {int(row[0]): Grade(int(row[1]), int(row[2]), float(row[3]), int(row[4]), int(row[5])) for row in rows}

    def hidden(self) -> set[int]:
        """The agents the teacher hid (:mod:`.moderation`): off the leaderboard, their games unrated."""
        with self._db() as db:
            return {int(row[0]) for row in db.execute("SELECT agent_id FROM kgp_hidden")}

    def record_result(
        self, game_id: int, south: int, north: int, outcome: Outcome, reason: str, event: str, variant: str
    ) -> None:
        """Store a game's result (south is player 0 of ``outcome``; the table keeps south's score).

        Never raises for the database: a result it refuses is kept, in memory and in the journal (on the
        disk before this returns), with any kept before, and stored by the next call or by
        :meth:`store_unsaved` (the first failure is logged, and the recovery).
        """
        row: Row = (game_id, south, north, outcome.score(0), reason, event, variant)
        with self._store_lock:
            self._unsaved[game_id] = row
            if self._store_unsaved():
                return
            try:
                self.journal.add(row)
            except OSError as error:  # no file descriptor, a full disk: caught up by a later retry
                if not self._journal_behind:
                    log.warning("cannot write %s (%s): a result is kept in memory only", self.journal.path, error)
                self._journal_behind = True

    @property
    def unsaved(self) -> int:
        """How many results wait for the database to take them."""
        return len(self._unsaved)

    def store_unsaved(self) -> bool:
        """Store the results the database refused so far (and any a stopped process left in the journal);
        returns whether none is left (never raises for the database: the next call tries again)."""
        with self._store_lock:
            return self._store_unsaved()

    def _store_unsaved(self) -> bool:
        rows = list(self._unsaved.values())
        if not rows and not self.journal.exists():
            return True
        try:
            if rows:
                self._store_results(rows)
            # The journal too, now that the database takes writes: it is what survives a crash, so it is
            # what is stored before it goes (its results are in memory as well unless another process
            # on this database wrote them).
            left = [row for game_id, row in self.journal.read().items() if self._unsaved.get(game_id) != row]
            if left:
                self._store_results(left)
            self.journal.remove()
        except (LibraryError, OSError) as error:
            if not self._failing:  # one line, not one a game (or a retry) while the database is down
                log.warning(
                    "cannot store game results in %s (%s): kept in memory and in %s until it can",
                    self.where,
                    error,
                    self.journal.path,
                )
                self._failing = True
            self._catch_up_journal()
            return False
        self._unsaved.clear()
        self._journal_behind = False
        if self._failing:
            log.warning("stored %d game results kept while %s could not be written", len(rows) + len(left), self.where)
            self._failing = False
        return True

    def _catch_up_journal(self) -> None:
        """After appends failed: write the journal whole, with every result held in memory."""
        if not self._journal_behind:
            return
        try:
            self.journal.rewrite(list({**self.journal.read(), **self._unsaved}.values()))
        except OSError:
            return  # still no file descriptor or disk space: the next retry tries again
        self._journal_behind = False
        log.warning("%s holds the %d results kept in memory again", self.journal.path, len(self._unsaved))

    def _store_results(self, rows: list[Row]) -> None:
        with self._db() as db:
            for row in rows:
                db.execute(_STORE_RESULT, row)

    def results(self, event: str | None = None, agent_id: int | None = None) -> list[dict[str, Any]]:
        """Results, newest first (of one event, or of one agent)."""
        query = "SELECT game_id, south, north, score, reason, event, variant, finished_at FROM kgp_results"
        clauses: list[str] = []
        parameters: list[object] = []
        if event is not None:
            clauses.append("event = ?")
            parameters.append(event)
        if agent_id is not None:
            clauses.append("(south = ? OR north = ?)")
            parameters += [agent_id, agent_id]
        if clauses:
            query += " WHERE " + " AND ".join(clauses)
        with self._db() as db:
            rows = db.execute(query + " ORDER BY game_id DESC", parameters).fetchall()
        keys = ("game_id", "south", "north", "score", "reason", "event", "variant", "finished_at")
        return [dict(zip(keys, row, strict=False)) for row in rows]

    def standings(self, event: str | None = None, anonymous: bool = False) -> list[Standing]:
        """Every agent that played (in ``event``), best rating first, with 95% intervals.

        Hidden agents and their games are left out (the ratings are fitted without them); so are anonymous
        agents unless ``anonymous`` (their games count for the others' ratings).
        """
        hidden = self.hidden()
        results = [r for r in self.results(event) if r["south"] not in hidden and r["north"] not in hidden]
        ids = sorted({r["south"] for r in results} | {r["north"] for r in results})
        index = {agent_id: i for i, agent_id in enumerate(ids)}
        ratings = fit_ratings(len(ids), [(index[r["south"]], index[r["north"]], r["score"]) for r in results])
        tally = {agent_id: [0, 0, 0] for agent_id in ids}  # won, drew, lost
        for r in results:
            outcome = outcome_of(r)
            for side, agent_id in enumerate((r["south"], r["north"])):
                tally[agent_id][WORDS.index(outcome.word(side))] += 1
        lines = []
        for agent_id in ids:
            agent = self.agent(agent_id)
            if agent is None or (agent.anonymous and not anonymous):
                continue
            wins, draws, losses = tally[agent_id]
            rating = ratings[index[agent_id]]
            lines.append(
                Standing(agent, wins + draws + losses, wins, draws, losses, rating.elo, rating.low, rating.high)
            )
        return sorted(lines, key=lambda line: (-line.elo, line.agent.id))


def _clean(text: str) -> str:
    """Printable text of at most MAX_TEXT characters (names come from the network)."""
    return "".join(c for c in str(text) if c.isprintable())[:MAX_TEXT].strip()


def _journal_beside(database: Database) -> Path:
    """Where the journal of results is kept: beside a SQLite library; for a database server, in this user's
    data folder, named by the database's address."""
    if database.path is not None:
        return database.path
    import platformdirs

    name = hashlib.sha256(database.where.encode()).hexdigest()[:16]
    folder = Path(platformdirs.user_data_dir("kalah"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"class-server-{name}"
