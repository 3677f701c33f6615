"""The push hub: who is connected to which game (or to the lobby), and sending them news.

Each connection has its own bounded queue and a task that writes it to the
socket, so a slow or idle reader never holds up the others: news is put on
every queue without waiting, and a reader whose queue is full is dropped
(its page reconnects and gets the whole state again). A connection is a
seat's (it showed the seat's token) or a watcher's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket

#: Messages a connection may have waiting before it counts as gone.
QUEUE = 64


@dataclass(eq=False)
class PushConnection:
    """One push connection: its socket, what it watches, which seat it holds (None: a watcher)."""

    socket: WebSocket
    address: str
    topic: str
    seat: int | None = None
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    gone: asyncio.Event = field(default_factory=asyncio.Event)
    #: the game's version and move count this page was last sent (-1: none yet)
    version: int = -1
    moves: int = -1

    def put(self, message: dict[str, Any]) -> bool:
        """Queue ``message``; False when the reader is too far behind."""
        try:
            self.queue.put_nowait(message)
            return True
        except asyncio.QueueFull:
            return False

    async def write(self) -> None:
        """Send what is queued until told to stop (None) or the socket fails."""
        with contextlib.suppress(Exception):
            while (message := await self.queue.get()) is not None:
                await self.socket.send_json(message)


class Hub:
    """Connections by topic ("game:ID", "lobby") and by address."""

    def __init__(self) -> None:
        self.topics: dict[str, set[PushConnection]] = defaultdict(set)
        self.per_address: dict[str, int] = defaultdict(int)

    def count(self, address: str) -> int:
        """Open connections from ``address``."""
        return self.per_address.get(address, 0)

    def join(self, connection: PushConnection) -> None:
        """Count ``connection`` in its topic and its address."""
        self.topics[connection.topic].add(connection)
        self.per_address[connection.address] += 1

    def leave(self, connection: PushConnection) -> None:
        """Forget ``connection`` and tell its endpoint to close it (it may be gone already)."""
        members = self.topics.get(connection.topic)
        if members is not None and connection in members:
            members.discard(connection)
            if not members:
                del self.topics[connection.topic]
            self.per_address[connection.address] -= 1
            if self.per_address[connection.address] <= 0:
                del self.per_address[connection.address]
        connection.gone.set()  # its endpoint closes the socket

    def members(self, topic: str) -> set[PushConnection]:
        """The connections of ``topic`` now (a copy)."""
        return set(self.topics.get(topic, ()))

    def send(self, topic: str, message: dict[str, Any], seat: int | None = -1) -> None:
        """Queue ``message`` for every connection of ``topic`` (only those of ``seat`` when it is given)."""
        for connection in self.members(topic):
            if seat != -1 and connection.seat != seat:
                continue
            if not connection.put(message):
                self.leave(connection)

    def send_states(self, topic: str, version: int, states: list[tuple[int, dict[str, Any]]]) -> None:
        """Queue a game's change of ``version`` for the pages of ``topic`` that have not seen it: ``states`` are
        (move count, message), the state after each move made since the oldest page's, the last being the
        game now. A page gets the moves it has not seen, one by one (to draw each), and always the last."""
        for connection in self.members(topic):
            if connection.version < 0 or version <= connection.version:
                continue  # not greeted yet (its greeting is read after it joined), or it has this one
            for index, (moves, message) in enumerate(states):
                if (index == len(states) - 1 or moves > connection.moves) and not connection.put(message):
                    self.leave(connection)
                    break
            connection.version, connection.moves = version, states[-1][0]

    def oldest_moves(self, topic: str) -> int | None:
        """The fewest moves a greeted page of ``topic`` was sent (None: no such page)."""
        greeted = [connection.moves for connection in self.members(topic) if connection.version >= 0]
        return min(greeted) if greeted else None

    def presence(self, topic: str) -> tuple[list[bool], int]:
        """Which seats have a connection, and how many watchers there are."""
        seats = [False, False]
        watchers = 0
        for connection in self.members(topic):
            if connection.seat is None:
                watchers += 1
            else:
                seats[connection.seat] = True
        return seats, watchers
