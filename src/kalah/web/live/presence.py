"""Who is connected to a live game, told to its pages: this process's connections (the hub's) and those
other processes of the library stored (``live_presence``), arrivals and departures gathered for a moment
so that many go out as one message."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from ..errors import ApiError, in_thread
from .hub import Hub
from .models import PresenceMessage
from .store import LiveStore, Presence

__all__ = ["PRESENCE_DELAY", "PresenceNews"]

log = logging.getLogger(__name__)

#: Seconds news of arrivals and departures waits, so that many go out as one message.
PRESENCE_DELAY = 0.25


class PresenceNews:
    """The presence of this process's pages, stored for the other processes and pushed to every page."""

    def __init__(self, hub: Hub, store: LiveStore, server: str, alive_since: Callable[[], float]) -> None:
        self.hub = hub
        self.store = store
        self.server = server
        self._alive_since = alive_since
        self._due: set[int] = set()

    def changed(self, game_id: int) -> None:
        """A page of this process joined or left the game: tell everyone soon (arrivals and departures within
        PRESENCE_DELAY go out as one message: a thousand watchers arriving would otherwise be a million)."""
        if game_id in self._due:
            return
        self._due.add(game_id)
        asyncio.get_running_loop().call_later(
            PRESENCE_DELAY, lambda: asyncio.get_running_loop().create_task(self._store(game_id))
        )

    async def _store(self, game_id: int) -> None:
        self._due.discard(game_id)
        seats, watchers = self.hub.presence(f"game:{game_id}")
        here = Presence((seats[0], seats[1]), watchers)

        def write() -> None:
            with self.store.database.write() as db:
                self.store.set_presence(db, self.server, game_id, here)

        try:
            await in_thread(write)
        except ApiError as error:  # the library busy: the pages here still hear of it
            log.warning("presence of game %d not stored: %s", game_id, error.message)
            await self.tell(game_id)

    async def tell(self, game_id: int) -> None:
        """Push who is connected to ``game_id`` (here and in the other processes) to this process's pages."""

        def read() -> Presence:
            with self.store.database.read() as db:
                return self.store.presence(db, game_id, self.server, self._alive_since())

        try:
            others = await in_thread(read)
        except ApiError:
            others = Presence()
        seats, watchers = self.hub.presence(f"game:{game_id}")
        message = PresenceMessage(
            connected=[seats[0] or others.connected[0], seats[1] or others.connected[1]],
            watchers=watchers + others.watchers,
        )
        self.hub.send(f"game:{game_id}", message.model_dump(mode="json"))
