"""Limits on what one request may send, checked before anything reads it, and on how fast a client
may make the library grow."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: New games and imported records a client (an address) may store per minute, by default.
DEFAULT_GAMES_PER_MINUTE = 60
DEFAULT_IMPORTS_PER_MINUTE = 30
#: Bytes of a request body unless the server is told otherwise: a game record
#: of the largest variant is far smaller.
DEFAULT_MAX_BODY = 1_000_000


class BodyLimit:
    """ASGI middleware: a request body over ``max_bytes`` is answered 413 without being read further.

    A declared ``Content-Length`` over the limit is refused at once; a body
    sent in chunks (or with a false length) is counted as it arrives.
    """

    def __init__(self, app: ASGIApp, max_bytes: int = DEFAULT_MAX_BODY) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared < 0 or declared > self.max_bytes:
                    await self._refuse(send)
                    return
        received = 0
        started = refused = False

        async def counted() -> Message:
            # Past the limit the 413 is sent here, and the application is told
            # that the client left: it stops reading, and what it answers is dropped.
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    refused = True
                    if not started:
                        await self._refuse(send)
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, counted, watched)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"detail": f"the request body is larger than this server accepts ({self.max_bytes} bytes)"})
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body.encode()})


class RateLimit:
    """So many actions a minute per client (a token bucket per key): :meth:`take` answers 0 when the
    client may act now, else the seconds until it may.

    A client starts with a full minute's worth (a burst), which refills
    evenly. Keys whose buckets are full again are forgotten once there are
    more than ``max_keys``, so that many addresses cannot grow the table.
    """

    def __init__(self, per_minute: int, max_keys: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.max_keys = max_keys
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key: (tokens, when counted)

    def take(self, key: str) -> float:
        """Spend one action of ``key``'s: 0.0 if allowed, else the seconds to wait (nothing spent)."""
        now = self.clock()
        tokens, then = self._buckets.get(key, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > self.max_keys:
            self._forget_full(now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        for key, (tokens, then) in list(self._buckets.items()):
            if tokens + (now - then) * self.rate >= self.capacity:
                del self._buckets[key]
        while len(self._buckets) > self.max_keys:  # all busy: the oldest go (they may act again sooner)
            del self._buckets[next(iter(self._buckets))]
