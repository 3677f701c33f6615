"""What games between people keep beyond their moves, in the library's database: seats, clocks, results,
requests, the lobby's challenges and who is connected where.

Every row here is read and changed inside the transactions of
:mod:`.service`, on the library's :class:`~kalah.records.store.Database`, so
that every server process on one library sees one truth: a seat's token, a
clock, a take-back request or a rematch offer lives in no process's memory.
A game's row is locked for the transaction that changes it, and each change
adds one to its ``version`` and tells every process (``kalah_live``:
``game:ID:VERSION``). A seat, an invitation and a challenge's key are kept
only as digests (:meth:`Database.digest`); rows made before that digest had
a salt keep their plain SHA-256 (``secret_scheme``), so games under way
then keep their seats.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any, Literal

from kalah.records import DamagedGameError
from kalah.records.store import Database, Migration, Session
from kalah.rules import Outcome

from .clock import Clock, DamagedClockError

#: The channel of every notification of games between people.
CHANNEL = "kalah_live"
OWNER = "live"

LIVE_GAMES = """
CREATE TABLE IF NOT EXISTS live_games (
    game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    seat0 TEXT,
    seat1 TEXT,
    invite TEXT,
    clock TEXT NOT NULL DEFAULT '{{}}',
    result TEXT
)
"""
# seat0, seat1, invite: digests (NULL: the seat is empty, the invitation spent); clock: Clock.to_json();
# result: {"winner": 0|1|null, "reason": "resign"|"time"|"abandoned"} for a game not ended on the board.

SHARED_STATE = """
ALTER TABLE live_games ADD COLUMN secret_scheme TEXT NOT NULL DEFAULT 'sha256';
ALTER TABLE live_games ADD COLUMN created_by TEXT NOT NULL DEFAULT '';
ALTER TABLE live_games ADD COLUMN created_at {real} NOT NULL DEFAULT 0;
ALTER TABLE live_games ADD COLUMN deadline {real};
ALTER TABLE live_games ADD COLUMN takeback_from INTEGER;
ALTER TABLE live_games ADD COLUMN rematch_from TEXT NOT NULL DEFAULT '[]';
ALTER TABLE live_games ADD COLUMN rematch_game BIGINT;
ALTER TABLE live_games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS live_games_deadline ON live_games (deadline);
CREATE INDEX IF NOT EXISTS live_games_creator ON live_games (created_by, created_at);
CREATE TABLE IF NOT EXISTS live_challenges (
    id TEXT PRIMARY KEY,
    key_digest TEXT NOT NULL,
    author_digest TEXT NOT NULL,
    variant TEXT NOT NULL,
    clock TEXT NOT NULL,
    address TEXT NOT NULL,
    server TEXT NOT NULL,
    created_at {real} NOT NULL,
    alive_until {real} NOT NULL
);
CREATE TABLE IF NOT EXISTS live_presence (
    server TEXT NOT NULL,
    game_id BIGINT NOT NULL,
    seat0 INTEGER NOT NULL,
    seat1 INTEGER NOT NULL,
    watchers INTEGER NOT NULL,
    PRIMARY KEY (server, game_id)
);
CREATE TABLE IF NOT EXISTS live_servers (
    server TEXT PRIMARY KEY,
    seen {real} NOT NULL
)
"""
# secret_scheme: 'salted' (Database.digest) or 'sha256' (rows of before); created_by: the creator's client key
# (kalah.web.clients), created_at: wall-clock seconds, for the cap on new games; deadline: when the running
# clock runs out (NULL: none runs), for the flag sweep; rematch_from: JSON list of the seats that asked.
# live_servers: each server process's heartbeat (seen, renewed every few seconds): what a process that stopped
# without a word left behind (presence, challenges) drops out when its heartbeat goes stale. live_presence:
# each server process's connections to a game. live_challenges: the lobby; a challenge lives while its author
# is connected to a live server (server), and for a grace after the author left (server '', alive_until).


def _deadlines(db: Session) -> None:
    """Rows of before ``deadline`` existed: the deadline of each running clock (a damaged one stays without,
    and its game is named when it is opened)."""
    for row in db.all("SELECT game_id, clock FROM live_games WHERE result IS NULL"):
        try:
            deadline = Clock.from_json(row["clock"]).deadline()
        except DamagedClockError:
            continue
        if deadline is not None:
            db.execute("UPDATE live_games SET deadline = ? WHERE game_id = ?", (deadline, row["game_id"]))


CHALLENGE_AUTHORS = """
ALTER TABLE live_challenges ADD COLUMN author_name TEXT NOT NULL DEFAULT '';
ALTER TABLE live_challenges ADD COLUMN author_seat INTEGER
"""
# author_name: the name the author gave ('' for none); author_seat: the author's side, NULL for one drawn by lot.

STEPS: tuple[Migration, ...] = (LIVE_GAMES, SHARED_STATE, _deadlines, CHALLENGE_AUTHORS)

Reason = Literal["resign", "time", "abandoned"]


@dataclass(frozen=True)
class LiveResult:
    """How a game between people ended off the board (None when it ended on it, or goes on)."""

    winner: int | None
    reason: Reason

    @classmethod
    def decided(cls, outcome: Outcome) -> LiveResult:
        """The live API's result of a game decided off the board (``outcome``, as the library stores it)."""
        reasons: dict[str, Reason] = {"resignation": "resign", "time": "time"}
        return cls(outcome.winner, reasons[outcome.termination])

    def to_dict(self) -> dict[str, Any]:
        """The result as the live API shows it."""
        return {"winner": self.winner, "reason": self.reason}


@dataclass(frozen=True)
class LiveRow:
    """A game between people as its row holds it."""

    game_id: int
    seats: tuple[str | None, str | None]
    invite: str | None
    scheme: str
    clock: Clock
    result: LiveResult | None
    takeback_from: int | None
    rematch_from: frozenset[int]
    rematch_game: int | None
    version: int
    created_at: float


@dataclass(frozen=True)
class Challenge:
    """An open challenge of the lobby."""

    id: str
    variant: dict[str, Any]
    clock: Clock
    address: str
    server: str
    author_digest: str
    author_name: str = ""
    """The name the author gave ('' for none)."""
    author_seat: int | None = None
    """The author's side; None: drawn by lot when the challenge is accepted."""


@dataclass(frozen=True)
class Presence:
    """Which seats have a page connected, and how many watchers there are (over every server process)."""

    connected: tuple[bool, bool] = (False, False)
    watchers: int = 0


class LiveStore:
    """The tables of games between people on ``database`` (migrated when made)."""

    def __init__(self, database: Database) -> None:
        self.database = database
        database.migrate(OWNER, STEPS)

    # --- secrets ----------------------------------------------------------------------

    def digest(self, secret: str) -> str:
        """What a new row keeps of ``secret``."""
        return self.database.digest(secret)

    def digest_for(self, row: LiveRow, secret: str) -> str:
        """What ``row`` keeps of ``secret``, by its scheme."""
        if row.scheme == "sha256":
            return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()
        return self.database.digest(secret)

    def holds(self, row: LiveRow, stored: str | None, secret: str | None) -> bool:
        """Whether ``secret`` is the one whose digest ``stored`` is, by the row's scheme."""
        if not secret or stored is None:
            return False
        return Database.same_secret(stored, self.digest_for(row, secret))

    def seat_of(self, row: LiveRow, token: str | None) -> int | None:
        """The seat ``token`` holds in ``row``, or None."""
        for seat, held in enumerate(row.seats):
            if self.holds(row, held, token):
                return seat
        return None

    # --- games ------------------------------------------------------------------------

    def row(self, db: Session, game_id: int, lock: bool = False) -> LiveRow | None:
        """The game's row (held until the transaction ends, with ``lock``), or None if it is not live.

        Raises:
            DamagedClockError: its clock does not read (the caller names the game).
        """
        found = (
            self.database.lock_row(db, "live_games", "game_id", game_id)
            if lock
            else db.one("SELECT * FROM live_games WHERE game_id = ?", (game_id,))
        )
        return None if found is None else _decode(found)

    def insert(
        self,
        db: Session,
        game_id: int,
        seats: tuple[str | None, str | None],
        invite: str | None,
        clock: Clock,
        created_by: str,
        now: float,
        scheme: str = "salted",
    ) -> None:
        """A new live game (seats and invitation as digests of :meth:`digest`, or of ``scheme``: a rematch
        keeps its seats' digests as they were)."""
        db.execute(
            "INSERT INTO live_games (game_id, seat0, seat1, invite, clock, secret_scheme, created_by, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, seats[0], seats[1], invite, clock.to_json(), scheme, created_by, now),
        )
        db.notify(CHANNEL, f"game:{game_id}:0")

    def update(self, db: Session, row: LiveRow) -> LiveRow:
        """Write ``row`` over the stored one (locked by :meth:`row`) as its next version, and tell every
        process; the row as stored."""
        stored = replace(row, version=row.version + 1)
        db.execute(
            "UPDATE live_games SET seat0 = ?, seat1 = ?, invite = ?, clock = ?, result = ?, deadline = ?,"
            " takeback_from = ?, rematch_from = ?, rematch_game = ?, version = ? WHERE game_id = ?",
            (
                stored.seats[0],
                stored.seats[1],
                stored.invite,
                stored.clock.to_json(),
                json.dumps(stored.result.to_dict()) if stored.result else None,
                None if stored.result else stored.clock.deadline(),
                stored.takeback_from,
                json.dumps(sorted(stored.rematch_from)),
                stored.rematch_game,
                stored.version,
                stored.game_id,
            ),
        )
        db.notify(CHANNEL, f"game:{stored.game_id}:{stored.version}")
        return stored

    def created_since(self, db: Session, address: str, since: float) -> tuple[int, float | None]:
        """How many live games ``address`` made since ``since``, and when the oldest of them was made."""
        row = db.one(
            "SELECT COUNT(*) AS made, MIN(created_at) AS oldest FROM live_games WHERE created_by = ? AND created_at > ?",
            (address, since),
        )
        return int(row["made"]), row["oldest"]

    def due(self, db: Session, until: float) -> list[tuple[int, float]]:
        """The games whose running clock runs out before ``until``: (id, deadline)."""
        return [
            (int(row["game_id"]), float(row["deadline"]))
            for row in db.all(
                "SELECT game_id, deadline FROM live_games WHERE deadline IS NOT NULL AND result IS NULL"
                " AND deadline < ?",
                (until,),
            )
        ]

    def unjoined(self, db: Session, before: float) -> list[int]:
        """Live games made before ``before`` that never began: a seat still empty, or no move played."""
        return [
            int(row["game_id"])
            for row in db.all(
                "SELECT l.game_id FROM live_games l JOIN games g ON g.id = l.game_id"
                " WHERE l.result IS NULL AND g.status = 'playing' AND l.created_at < ?"
                " AND (l.seat0 IS NULL OR l.seat1 IS NULL"
                " OR NOT EXISTS (SELECT 1 FROM moves m WHERE m.game_id = l.game_id))",
                (before,),
            )
        ]

    def is_live(self, db: Session, game_id: int) -> bool:
        """Whether ``game_id`` is a game between people."""
        return db.one("SELECT 1 FROM live_games WHERE game_id = ?", (game_id,)) is not None

    # --- servers and presence ----------------------------------------------------------

    def heartbeat(self, db: Session, server: str, now: float) -> None:
        """``server`` is alive at ``now``."""
        db.execute("DELETE FROM live_servers WHERE server = ?", (server,))
        db.execute("INSERT INTO live_servers (server, seen) VALUES (?, ?)", (server, now))

    def forget_server(self, db: Session, server: str, now: float, grace: float) -> None:
        """``server`` stops: its presence goes, its authors' challenges live on for the grace, its heartbeat
        goes."""
        for row in db.all("SELECT game_id FROM live_presence WHERE server = ?", (server,)):
            db.notify(CHANNEL, f"presence:{row['game_id']}")
        db.execute("DELETE FROM live_presence WHERE server = ?", (server,))
        db.execute("UPDATE live_challenges SET server = '', alive_until = ? WHERE server = ?", (now + grace, server))
        db.execute("DELETE FROM live_servers WHERE server = ?", (server,))

    def set_presence(self, db: Session, server: str, game_id: int, here: Presence) -> None:
        """What ``server`` holds of ``game_id``'s connections now (none: its row goes)."""
        db.execute("DELETE FROM live_presence WHERE server = ? AND game_id = ?", (server, game_id))
        if any(here.connected) or here.watchers:
            db.execute(
                "INSERT INTO live_presence (server, game_id, seat0, seat1, watchers) VALUES (?, ?, ?, ?, ?)",
                (server, game_id, int(here.connected[0]), int(here.connected[1]), here.watchers),
            )
        db.notify(CHANNEL, f"presence:{game_id}")

    def presence(self, db: Session, game_id: int, besides: str, alive_since: float) -> Presence:
        """The connections to ``game_id`` that live server processes other than ``besides`` hold."""
        row = db.one(
            "SELECT MAX(p.seat0) AS s0, MAX(p.seat1) AS s1, SUM(p.watchers) AS w FROM live_presence p"
            " JOIN live_servers s ON s.server = p.server WHERE p.game_id = ? AND p.server <> ? AND s.seen > ?",
            (game_id, besides, alive_since),
        )
        return Presence((bool(row["s0"]), bool(row["s1"])), int(row["w"] or 0))

    # --- the lobby --------------------------------------------------------------------

    #: open challenges: the author is connected to a live server, or left less than the grace ago
    _OPEN = (
        "((c.server <> '' AND EXISTS (SELECT 1 FROM live_servers s WHERE s.server = c.server AND s.seen > ?))"
        " OR (c.server = '' AND c.alive_until > ?))"
    )

    def add_challenge(self, db: Session, challenge: Challenge, key_digest: str, now: float) -> None:
        """A new open challenge, its author connected to ``challenge.server``."""
        db.execute(
            "INSERT INTO live_challenges (id, key_digest, author_digest, variant, clock, address, server,"
            " created_at, alive_until, author_name, author_seat) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                challenge.id,
                key_digest,
                challenge.author_digest,
                json.dumps(challenge.variant),
                challenge.clock.to_json(),
                challenge.address,
                challenge.server,
                now,
                now,
                challenge.author_name,
                challenge.author_seat,
            ),
        )
        db.notify(CHANNEL, "lobby")

    def challenges(self, db: Session, now: float, alive_since: float) -> list[Challenge]:
        """The open challenges, oldest first."""
        return [
            _challenge(row)
            for row in db.all(
                f"SELECT c.* FROM live_challenges c WHERE {self._OPEN} ORDER BY c.created_at, c.id",
                (alive_since, now),
            )
        ]

    def challenges_of(self, db: Session, address: str, now: float, alive_since: float) -> int:
        """How many open challenges ``address`` has."""
        return int(
            db.value(
                f"SELECT COUNT(*) FROM live_challenges c WHERE c.address = ? AND {self._OPEN}",
                (address, alive_since, now),
            )
        )

    def take_challenge(self, db: Session, challenge_id: str, alive_since: float) -> Challenge | None:
        """Remove a challenge whose author is connected, to accept it; None when it is gone (or its author
        is away)."""
        row = self.database.lock_row(db, "live_challenges", "id", challenge_id)
        if row is None or row["server"] == "":
            return None
        seen = db.value("SELECT seen FROM live_servers WHERE server = ?", (row["server"],))
        if seen is None or seen <= alive_since:
            return None
        db.execute("DELETE FROM live_challenges WHERE id = ?", (challenge_id,))
        db.notify(CHANNEL, "lobby")
        return _challenge(row)

    def withdraw_challenge(self, db: Session, challenge_id: str, server: str) -> None:
        """The author, connected to ``server``, withdraws a challenge."""
        db.execute("DELETE FROM live_challenges WHERE id = ? AND server = ?", (challenge_id, server))
        db.notify(CHANNEL, "lobby")

    def resume_challenge(self, db: Session, key_digest: str, server: str) -> Challenge | None:
        """The author is back, connected to ``server``: the challenge whose key this is stays; None when it is
        gone."""
        row = db.one("SELECT * FROM live_challenges WHERE key_digest = ?", (key_digest,))
        if row is None:
            return None
        db.execute("UPDATE live_challenges SET server = ? WHERE id = ?", (server, row["id"]))
        return _challenge(row)

    def author_left(self, db: Session, challenge_ids: list[str], alive_until: float) -> None:
        """The authors of these challenges left: each stays until ``alive_until`` unless its author comes back."""
        for challenge_id in challenge_ids:
            db.execute(
                "UPDATE live_challenges SET server = '', alive_until = ? WHERE id = ?", (alive_until, challenge_id)
            )

    def expired_challenges(self, db: Session, now: float, alive_since: float) -> int:
        """How many challenges are no longer open (their authors gone) but still stored."""
        return int(db.value(f"SELECT COUNT(*) FROM live_challenges c WHERE NOT {self._OPEN}", (alive_since, now)))

    def expire_challenges(self, db: Session, now: float, alive_since: float) -> None:
        """Remove the challenges whose authors are gone, and tell the lobby."""
        db.execute(
            f"DELETE FROM live_challenges WHERE id IN (SELECT c.id FROM live_challenges c WHERE NOT {self._OPEN})",
            (alive_since, now),
        )
        db.notify(CHANNEL, "lobby")


def _decode(found: Any) -> LiveRow:
    game_id = found["game_id"]
    try:
        clock = Clock.from_json(found["clock"])
    except DamagedClockError as error:
        raise DamagedGameError(f"the clock of game {game_id} is damaged: {error}") from None
    try:
        return _decoded(found, clock)
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise DamagedGameError(f"the live state of game {game_id} is damaged: {error}"[:300]) from None


def _decoded(found: Any, clock: Clock) -> LiveRow:
    result = json.loads(found["result"]) if found["result"] else None
    return LiveRow(
        game_id=int(found["game_id"]),
        seats=(found["seat0"], found["seat1"]),
        invite=found["invite"],
        scheme=found["secret_scheme"],
        clock=clock,
        result=LiveResult(result.get("winner"), result.get("reason", "resign")) if isinstance(result, dict) else None,
        takeback_from=found["takeback_from"],
        rematch_from=frozenset(json.loads(found["rematch_from"] or "[]")),
        rematch_game=found["rematch_game"],
        version=int(found["version"]),
        created_at=float(found["created_at"]),
    )


def _challenge(row: Any) -> Challenge:
    return Challenge(
        id=row["id"],
        variant=json.loads(row["variant"]),
        clock=Clock.from_json(row["clock"]),
        address=row["address"],
        server=row["server"],
        author_digest=row["author_digest"],
        author_name=row["author_name"],
        author_seat=row["author_seat"],
    )
