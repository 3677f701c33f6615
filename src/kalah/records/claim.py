"""The hold a server takes on a library, so that two servers never serve it where that is unsafe.

A SQLite library is served by one process at a time: its games between
people, their clocks and watchers are shared through the database, and only
a database server tells other processes of a change (:mod:`.feed`). The
hold is an exclusive ``flock`` on a file beside the library
(``games.sqlite-server``) that names the holder; the system releases it when
the process ends, however it ends, so a crash leaves nothing to clean.
On PostgreSQL many ``kalah serve`` processes may serve one library; a role
that must be alone (the class server, which pairs agents in its memory)
holds a PostgreSQL advisory lock on a connection of its own instead.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
from pathlib import Path
from typing import Any

from .errors import LibraryError, LibraryInUseError
from .store import Database, advisory_key

#: Roles that only one process may hold on any library (on SQLite every server is alone anyway).
ALONE = ("class server",)


class ServerClaim:
    """A server's hold on a library, released by :meth:`release` (or by the end of the process)."""

    def __init__(self, release: Any = None) -> None:
        self._release = release

    def release(self) -> None:
        """Let another server take the library."""
        release, self._release = self._release, None
        if release is not None:
            release()

    def __enter__(self) -> ServerClaim:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def describe_holder(role: str, address: str = "") -> str:
    """How a claim names its holder: the role, the process, the machine and the address it listens on."""
    where = f" at {address}" if address else ""
    since = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    return f"{role}{where} (process {os.getpid()} on {socket.gethostname()}, since {since})"


def claim_library(database: Database, role: str, holder: str) -> ServerClaim:
    """Take ``database`` for a server of ``role`` described by ``holder`` (:func:`describe_holder`).

    Raises:
        LibraryInUseError: another server holds it; the message names that server.
        LibraryError: the hold cannot be taken (the folder is read-only, the database unreachable).
    """
    if database.is_sqlite:
        assert database.path is not None
        return _claim_file(Path(f"{database.path}-server"), database.where, holder)
    if role in ALONE:
        return _claim_advisory(database, role, holder)
    return ServerClaim()


def _claim_file(path: Path, where: str, holder: str) -> ServerClaim:
    while True:
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise LibraryError(f"cannot take the game library {where}: {error.strerror or error}") from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                other = os.pread(descriptor, 4096, 0).decode("utf-8", "replace")
            except OSError:
                other = ""
            os.close(descriptor)
            raise LibraryInUseError(
                _in_use(
                    where,
                    _holder_of(other),
                    "one server at a time serves a SQLite library (PostgreSQL serves many: docs/deploy.md)",
                )
            ) from None
        # The holder before may have removed the file between our open and our lock: then the lock is on a
        # file nobody else will open, and a new one must be taken.
        try:
            same = os.stat(path).st_ino == os.fstat(descriptor).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(descriptor)
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, json.dumps({"holder": holder}).encode() + b"\n", 0)

    def release() -> None:
        with contextlib.suppress(OSError):
            path.unlink()  # removed while held: nobody can be waiting on this file
        os.close(descriptor)

    return ServerClaim(release)


def _claim_advisory(database: Database, role: str, holder: str) -> ServerClaim:
    import psycopg

    key = advisory_key(f"claim:{role}")
    try:
        connection = psycopg.connect(database.url, autocommit=True, connect_timeout=5, application_name="kalah claim")
        taken = bool(connection.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()[0])  # type: ignore[index]
        connection.execute("CREATE TABLE IF NOT EXISTS kalah_servers (role TEXT PRIMARY KEY, holder TEXT NOT NULL)")
        if not taken:
            row = connection.execute("SELECT holder FROM kalah_servers WHERE role = %s", (role,)).fetchone()
            connection.close()
            raise LibraryInUseError(
                _in_use(database.where, row[0] if row else "another process", f"one {role} at a time serves it")
            )
        connection.execute(
            "INSERT INTO kalah_servers (role, holder) VALUES (%s, %s)"
            " ON CONFLICT (role) DO UPDATE SET holder = excluded.holder",
            (role, holder),
        )
    except psycopg.Error as error:
        raise LibraryError(f"cannot take the game library {database.where}: {error}") from None
    return ServerClaim(connection.close)


def _holder_of(text: str) -> str:
    try:
        return str(json.loads(text)["holder"])
    except (ValueError, KeyError, TypeError):
        return "another process"


def _in_use(where: str, holder: str, rule: str) -> str:
    return f"the game library {where} is already served by {holder}: {rule}"
