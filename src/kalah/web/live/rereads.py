"""Rereading a game that another server process changed, a burst of changes at a time.

Each change of a game reaches every process as a notification. A process that shows or times the game
reads it again and pushes it; while that read is under way, more notifications of the same game only ask
for one more read after it, so that a burst of moves costs a process at most two reads, in order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

__all__ = ["Rereads"]


class Rereads:
    """``reread(game_id)`` run on the event loop for each game asked, one at a time per game."""

    def __init__(self, reread: Callable[[int], Awaitable[None]]) -> None:
        self._reread = reread
        self._running: set[int] = set()
        #: games changed again while their read ran: read once more
        self._again: set[int] = set()

    def ask(self, game_id: int) -> None:
        """Read ``game_id`` again soon."""
        if game_id in self._running:
            self._again.add(game_id)
            return
        self._running.add(game_id)
        asyncio.get_running_loop().create_task(self._run(game_id))

    def running(self, game_id: int) -> bool:
        """Whether a read of ``game_id`` is under way or due."""
        return game_id in self._running

    async def _run(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                await self._reread(game_id)
                if game_id not in self._again:
                    return
        finally:
            self._running.discard(game_id)
