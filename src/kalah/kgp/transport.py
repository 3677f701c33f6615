"""Lines over a byte stream (TCP) or messages over a WebSocket, with the protocol's limits.

Both transports give the same two calls, :meth:`read_line` (``None`` when the
other side closed) and :meth:`send_line`; the server and the client are
written against that. A line longer than :data:`~kalah.wire.MAX_LINE` or not
UTF-8 raises :class:`LineError`: what to do then (an ``error``, closing) is
the caller's decision.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol
from urllib.parse import urlsplit

from .wire import MAX_LINE, KgpError


class LineError(KgpError):
    """A line that breaks the transport's rules: too long, or not UTF-8."""


class RefusedError(KgpError):
    """The server answered the WebSocket handshake with an HTTP error (a wrong path, or the client turned away)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        #: The HTTP status of the refusal, when there was one.
        self.status = status


class Connection(Protocol):
    """One KGP connection, whatever carries it."""

    peer: str

    async def read_line(self) -> str | None:
        """The next line without its line end, or None when the other side has closed."""

    async def send_line(self, line: str) -> None:
        """Send one line (the line end is added)."""

    async def close(self) -> None:
        """Close the connection (safe to call twice)."""


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise LineError("a line is not valid UTF-8") from None


class StreamConnection:
    """KGP over TCP: CRLF (or LF) terminated lines."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        address = writer.get_extra_info("peername")
        self.peer = str(address[0]) if isinstance(address, tuple) else "local"

    async def read_line(self) -> str | None:
        """The next line without its line end, or None when the other side has closed."""
        try:
            data = await self.reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as partial:
            if partial.partial and len(partial.partial) <= MAX_LINE:
                return _decode(partial.partial).rstrip("\r")
            return None
        except asyncio.LimitOverrunError:
            raise LineError(f"a line has at most {MAX_LINE} characters") from None
        except (ConnectionError, OSError):
            return None
        if len(data) > MAX_LINE + 2:
            raise LineError(f"a line has at most {MAX_LINE} characters")
        return _decode(data).rstrip("\r\n")

    async def send_line(self, line: str) -> None:
        """Send one line (the line end is added)."""
        self.writer.write(line.encode("utf-8") + b"\r\n")
        await self.writer.drain()

    async def close(self) -> None:
        """Close the connection (safe to call twice)."""
        try:
            self.writer.close()
            await asyncio.wait_for(self.writer.wait_closed(), 2)
        except (TimeoutError, ConnectionError, OSError):
            pass


async def open_tcp(host: str, port: int, timeout: float = 10.0) -> StreamConnection:
    """Connect to a KGP server over TCP."""
    # The reader's limit bounds what one line may hold in memory (one character takes up to 4 bytes).
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port, limit=4 * MAX_LINE + 2), timeout)
    return StreamConnection(reader, writer)


class WebSocketConnection:
    """KGP over a WebSocket: one command a message (several lines in one message are taken one by one)."""

    def __init__(self, socket: Any, peer: str) -> None:
        self.socket = socket
        self.peer = peer
        self._pending: list[str] = []

    async def read_line(self) -> str | None:
        """The next line without its line end, or None when the other side has closed."""
        import websockets

        while not self._pending:
            try:
                message = await self.socket.recv()
            except websockets.ConnectionClosed:
                return None
            text = _decode(message) if isinstance(message, bytes) else message
            self._pending = [line for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
            if any(len(line) > MAX_LINE for line in self._pending):
                self._pending = []
                raise LineError(f"a line has at most {MAX_LINE} characters")
        return self._pending.pop(0)

    async def send_line(self, line: str) -> None:
        """Send one line (the line end is added)."""
        await self.socket.send(line + "\r\n")

    async def close(self) -> None:
        """Close the connection (safe to call twice)."""
        try:
            await asyncio.wait_for(self.socket.close(), 2)
        except Exception:  # closing an already broken socket: nothing left to do
            pass


async def open_websocket(url: str, timeout: float = 10.0) -> WebSocketConnection:
    """Connect to a KGP server's WebSocket (``ws://host:port/socket`` or ``wss://``)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidHandshake, InvalidStatus, InvalidURI

    try:
        socket = await asyncio.wait_for(connect(url, max_size=4 * MAX_LINE, open_timeout=timeout), timeout + 1)
    except InvalidStatus as error:
        status = error.response.status_code
        if status == 404:
            path = urlsplit(url).path or "/"
            raise RefusedError(
                f"the server has no WebSocket at {path} (HTTP 404): is the path right? (kalah arena serve's is /socket)",
                status,
            ) from None
        raise RefusedError(f"the server refused the WebSocket connection (HTTP {status})", status) from None
    except InvalidURI as error:
        raise KgpError(f"not a WebSocket URL: {error}") from None
    except InvalidHandshake as error:  # a server that does not speak HTTP, or answers it oddly: worth another try
        raise OSError(f"the WebSocket handshake failed: {error}") from None
    return WebSocketConnection(socket, url)


def parse_server(server: str) -> tuple[str, str, int]:
    """``host:port``, ``ws://...`` or ``wss://...`` as (kind, host or URL, port); KgpError when it is neither."""
    if server.startswith(("ws://", "wss://")):
        return "ws", server, 0
    host, colon, port = server.rpartition(":")
    if not colon or not host or not port.isdigit():
        raise KgpError(f"a server is host:port (TCP) or a ws:// or wss:// URL, got {server!r}")
    if not 0 < int(port) < 65536:
        raise KgpError(f"port {port} of {server!r} is out of range: a port is 1 to 65535")
    return "tcp", host.strip("[]"), int(port)


async def open_connection(server: str, timeout: float = 10.0) -> Connection:
    """Connect to ``server`` (see :func:`parse_server`)."""
    kind, host, port = parse_server(server)
    if kind == "ws":
        return await open_websocket(host, timeout)
    return await open_tcp(host, port, timeout)
