"""Limits on what one request may send, checked before anything reads it."""

from __future__ import annotations

import json
from typing import Any, Awaitable, Callable, MutableMapping

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

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
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body.encode()})
