"""News of changes from every process that serves a library, delivered on this process's event loop.

A transaction tells of a change with ``Session.notify(channel, payload)``;
once it commits, every :class:`ChangeFeed` on that library hears it. On
PostgreSQL that is ``LISTEN``/``NOTIFY``, so a move made through one server
process reaches the watchers held by another; a SQLite library has one server
process (:mod:`.claim`), so the feed hears that process's own commits. A
PostgreSQL feed that loses its connection connects again and then calls
``on_resync``: notifications sent meanwhile are lost, so whoever listens
reads afresh what it shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from .errors import LibraryUnavailableError
from .store import Database

log = logging.getLogger(__name__)

#: Seconds between attempts to listen again after the database server went away.
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0)

Listener = Callable[[str], None]


class ChangeFeed:
    """Calls the listeners of a channel with each payload sent on it, on the event loop that started it."""

    def __init__(self, database: Database, on_resync: Callable[[], None] | None = None) -> None:
        self.database = database
        self.on_resync = on_resync
        self._listeners: dict[str, list[Listener]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None

    def subscribe(self, channel: str, listener: Listener) -> None:
        """Call ``listener(payload)`` for every notification on ``channel`` (before :meth:`start`)."""
        self._listeners.setdefault(channel, []).append(listener)

    async def start(self) -> None:
        """Listen from now on (on PostgreSQL: once this returns, no later notification is missed).

        Raises:
            LibraryUnavailableError: the database server cannot be reached to listen.
        """
        self._loop = asyncio.get_running_loop()
        if self.database.is_sqlite:
            self.database.add_listener(self._from_thread)
            return
        import psycopg

        try:
            connection = await self._listen()
        except psycopg.Error as error:
            raise LibraryUnavailableError(f"cannot listen to the game library {self.database.where}: {error}") from None
        self._task = asyncio.create_task(self._run(connection))

    async def stop(self) -> None:
        """Stop listening."""
        self.database.remove_listener(self._from_thread)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    def _from_thread(self, channel: str, payload: str) -> None:
        """A commit of this process (SQLite), in whatever thread made it."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._deliver, channel, payload)

    def _deliver(self, channel: str, payload: str) -> None:
        for listener in self._listeners.get(channel, ()):
            try:
                listener(payload)
            except Exception:  # one listener's bug must not stop the news for the others
                log.exception("a listener of %s failed", channel)

    async def _listen(self) -> Any:
        import psycopg

        from .store import CONNECT_SECONDS

        connection = await psycopg.AsyncConnection.connect(
            self.database.url, autocommit=True, connect_timeout=CONNECT_SECONDS, application_name="kalah feed"
        )
        for channel in self._listeners:
            await connection.execute(f'LISTEN "{channel}"')
        return connection

    async def _run(self, connection: Any) -> None:
        import psycopg

        attempt = 0
        while True:
            try:
                async for note in connection.notifies():
                    self._deliver(note.channel, note.payload)
            except psycopg.Error as error:
                log.warning("lost the change feed of %s (%s); listening again", self.database.where, error)
            with contextlib.suppress(Exception):
                await connection.close()
            while True:
                await asyncio.sleep(RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)])
                attempt += 1
                try:
                    connection = await self._listen()
                    break
                except psycopg.Error:
                    continue
            attempt = 0
            log.warning("the change feed of %s is back", self.database.where)
            if self.on_resync is not None:
                self.on_resync()
