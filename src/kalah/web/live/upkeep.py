"""What each server process does every few seconds for the games between people, whatever else happens.

- Its heartbeat (``live_servers``): while it beats, the other processes count
  the pages it holds and the challenges of its authors; a process that stops
  without a word drops out within :data:`~.service.STALE_SECONDS`.
- The flags' safety net: every running clock whose time runs out soon gets a
  timer here too, so a flag falls on time though the process that armed it
  stopped (the transaction that ends the game decides once).
- The lobby's challenges whose authors are gone for good are removed.
- Games between people that nobody joined, or nobody began, within
  ``LiveLimits.unjoined_hours`` are closed: stored stopped ("nobody joined"
  or "nobody began"), out of the list of games in progress.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import replace

from kalah.records import LibraryError

from ..errors import ApiError, in_thread
from .lobby import Lobby
from .service import LiveService
from .store import LiveResult
from .view import View

log = logging.getLogger(__name__)

#: Seconds between heartbeats (and sweeps of the flags and the lobby).
BEAT_SECONDS = 5.0
#: Seconds between looks for games nobody joined.
CLOSE_SECONDS = 60.0


class Upkeep:
    """The background task of one server process's live games."""

    def __init__(self, live: LiveService, lobby: Lobby) -> None:
        self.live = live
        self.lobby = lobby
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Beat once (so that this process's pages and authors count from the start), then every few seconds."""
        await in_thread(self.live.write, lambda db: self.live.store.heartbeat(db, self.live.server, time.time()))
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop, and take this process's presence and heartbeat out of the library (its authors' challenges
        live on for the grace)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        live = self.live
        with contextlib.suppress(ApiError):
            await in_thread(
                live.write,
                lambda db: live.store.forget_server(db, live.server, time.time(), live.limits.lobby_grace),
            )

    async def _run(self) -> None:
        waited = 0.0
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            waited += BEAT_SECONDS
            try:
                await self.beat()
                if waited >= CLOSE_SECONDS:
                    waited = 0.0
                    await self.close_unjoined()
            except (ApiError, LibraryError) as error:  # the library away for a while: the next beat tries again
                log.warning("upkeep of live games: %s", getattr(error, "message", error))

    async def beat(self) -> None:
        """One heartbeat, flag sweep and lobby sweep."""
        live = self.live
        await in_thread(live.write, lambda db: live.store.heartbeat(db, live.server, time.time()))
        soon = live.now() + 2 * BEAT_SECONDS  # the game clocks' time
        for game_id, deadline in await in_thread(live.read, lambda db: live.store.due(db, soon)):
            live.arm_at(game_id, deadline)
        await self.lobby.expire()

    async def close_unjoined(self) -> int:
        """Close the games nobody joined or began in time; how many it closed."""
        live = self.live
        before = live.now() - live.limits.unjoined_hours * 3600
        closed = 0
        for game_id in await in_thread(live.read, lambda db: live.store.unjoined(db, before)):
            view = await in_thread(self._close_sync, game_id, before)
            if view is not None:
                live.publish(view)
                closed += 1
        return closed

    def _close_sync(self, game_id: int, before: float) -> View | None:
        live = self.live
        with live.database.write() as db:
            row = live.store.row(db, game_id, lock=True)
            if row is None or row.result is not None or row.created_at >= before:
                return None
            stored = live.games.library.game(game_id)
            if stored.summary.status != "playing":
                return None
            if None not in row.seats and stored.record.moves:
                return None  # begun since the look
            reason = "nobody joined" if None in row.seats else "nobody began"
            live.games.library.mark_stopped(game_id, reason)
            now = live.now()
            row = live.store.update(db, replace(row, clock=row.clock.stop(now), result=LiveResult(None, "abandoned")))
            return View(
                row, live.games.state_sync(game_id), live.store.presence(db, game_id, live.server, live.alive_since)
            )
