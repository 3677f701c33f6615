"""Connections that are slow, idle or too many are closed: ``kalah serve``'s uvicorn, guarded.

uvicorn by itself closes a connection idle *between* requests, but waits
for ever for the first request, for headers sent a byte at a time (each
byte resets its timer) and for a body that never comes; every such
connection holds a file descriptor. :func:`guarded_protocol` makes an HTTP
protocol (uvicorn's h11 one) that adds, per :class:`HttpConnectionLimits`:

- an idle timeout on a new connection as well (``idle_seconds``, uvicorn's
  ``timeout_keep_alive`` between requests);
- a header timeout: a request line and headers must be complete within
  ``header_seconds`` of the connection opening (or of the previous answer),
  however the bytes trickle in;
- a body timeout: the whole body within ``body_seconds`` of the headers;
- a cap on the connections open at once from one address
  (``per_address``; an IPv6 client counts by its /64): the next one is answered 503 and closed.

:class:`QuietLog` keeps the log readable under attack: one line per
distinct condition (no traceback), repeated at most once a minute with the
number of times it was left out.

:func:`sigterm_as_ctrl_c` makes SIGTERM stop a server as Ctrl-C does.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .clients import client_key

log = logging.getLogger("kalah.web")


@dataclass
class HttpConnectionLimits:
    """How long a client may take and how many connections one address may hold; the counts of one server."""

    idle_seconds: float = 5.0
    header_seconds: float = 10.0
    body_seconds: float = 30.0
    per_address: int = 64
    #: The largest request line and headers, in bytes (h11 answers 400 past it).
    max_header_bytes: int = 16 * 1024
    #: The largest WebSocket message, in bytes: the connection is closed past it, before the message is
    #: kept whole (uvicorn's default of 16 MiB let ten hellos take a gigabyte). KGP lines are at most 16 KiB.
    max_message_bytes: int = 64 * 1024
    open_by_address: dict[str, int] = field(default_factory=dict)


def guarded_protocol(limits: HttpConnectionLimits) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the timeouts and the per-address cap of ``limits`` (one server's)."""

    class GuardedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _waiting_for: str = ""
        _address: str | None = None
        _upgraded = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = client_key(self.client[0]) if self.client else ""
            if limits.open_by_address.get(address, 0) >= limits.per_address:
                log.warning("refused a connection from %s: it already has %d open", address, limits.per_address)
                body = f"too many connections from {address} (at most {limits.per_address})".encode()
                transport.write(
                    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
                    b"connection: close\r\nretry-after: 5\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body)
                )
                transport.close()
                return
            self._address = address
            limits.open_by_address[address] = limits.open_by_address.get(address, 0) + 1
            # uvicorn arms its idle timer only after an answer: a connection that never speaks is idle too
            self.timeout_keep_alive_task = self.loop.call_later(
                self.timeout_keep_alive, self.timeout_keep_alive_handler
            )
            self._watch()

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel()
            self._release()
            super().connection_lost(exc)

        def _release(self) -> None:
            """The connection is gone: its address may open another."""
            if self._address is not None:
                left = limits.open_by_address.get(self._address, 1) - 1
                if left > 0:
                    limits.open_by_address[self._address] = left
                else:
                    limits.open_by_address.pop(self._address, None)
                self._address = None

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            # From here the socket belongs to uvicorn's WebSocket protocol, and this one's connection_lost
            # is never called: the count of the address goes with the socket, or every push connection
            # ever opened would count against the address until the cap shut it out of the server.
            self._cancel()
            self._upgraded = True
            super().handle_websocket_upgrade(event)
            upgraded = self.transport.get_protocol()
            if upgraded is self:
                return
            lost = upgraded.connection_lost

            def connection_lost(exc: Exception | None) -> None:
                self._release()
                lost(exc)

            upgraded.connection_lost = connection_lost  # type: ignore[method-assign]

        def handle_events(self) -> None:
            super().handle_events()
            self._watch()

        def _watch(self) -> None:
            """Arm the deadline of what the client owes now: headers (IDLE), a body (SEND_BODY), or nothing."""
            if self._upgraded:  # the socket is a WebSocket's now, and h11 still waits for the request's end
                return
            state = self.conn.their_state
            owed = "headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else ""
            if owed == self._waiting_for or self.transport.is_closing():
                return
            self._cancel()
            if owed:
                seconds = limits.header_seconds if owed == "headers" else limits.body_seconds
                self._deadline = self.loop.call_later(seconds, self._too_slow, owed, seconds)
                self._waiting_for = owed

        def _cancel(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline, self._waiting_for = None, ""

        def _too_slow(self, owed: str, seconds: float) -> None:
            self._deadline, self._waiting_for = None, ""
            if self.transport.is_closing():
                return
            log.warning(
                "closed a connection from %s: its request %s took over %g s",
                self._address or "?",
                "line and headers" if owed == "headers" else "body",
                seconds,
            )
            if owed == "headers" and self.conn.our_state is h11.IDLE:
                try:  # the client may be slow rather than hostile: tell it
                    self.transport.write(
                        self.conn.send(
                            h11.Response(
                                status_code=408, headers=[(b"connection", b"close"), (b"content-length", b"0")]
                            )
                        )
                    )
                except h11.LocalProtocolError:
                    pass
            self.transport.close()

    return GuardedH11Protocol


class QuietLog(logging.Filter):
    """A log filter: a record becomes one line (its exception's type and text instead of a traceback), and
    a record like one already let through in the last ``interval`` seconds is counted instead of written.

    Records are alike when they come from the same logger with the same
    message template and exception type (the address or the count in the
    arguments does not make a new condition).
    """

    def __init__(self, interval: float = 60.0, max_conditions: int = 1000) -> None:
        super().__init__()
        self.interval = interval
        self.max_conditions = max_conditions
        self._seen: dict[tuple[str, str, str], tuple[float, int]] = {}  # condition: (last written, left out since)

    def filter(self, record: logging.LogRecord) -> bool:
        """Let ``record`` through as one line, or count it (False) when its condition was written lately."""
        error = record.exc_info[1] if record.exc_info else None
        condition = (record.name, str(record.msg), type(error).__name__ if error else "")
        now = time.monotonic()
        last, left_out = self._seen.get(condition, (-self.interval, 0))
        if now - last < self.interval:
            self._seen[condition] = (last, left_out + 1)
            return False
        if len(self._seen) >= self.max_conditions:
            self._seen.clear()
        self._seen[condition] = (now, 0)
        text = record.getMessage()
        if error is not None:
            text += f" ({type(error).__name__}: {str(error)[:200]})"
        if left_out:
            text += f" [{left_out} more like it in the last {now - last:.0f} s]"
        record.msg, record.args, record.exc_info, record.exc_text, record.stack_info = text, None, None, None, None
        return True


#: The loggers that write the conditions a flood of bad connections repeats.
NOISY_LOGGERS = ("uvicorn.error", "asyncio", "kalah.web")


def quiet_logs(interval: float = 60.0) -> QuietLog:
    """Put one :class:`QuietLog` on the loggers of the server and the event loop; returns it."""
    quiet = QuietLog(interval)
    for name in NOISY_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, QuietLog) for existing in logger.filters):
            logger.addFilter(quiet)
    return quiet


def server_config(
    app: Any,
    host: str,
    port: int,
    limits: HttpConnectionLimits | None = None,
    log_level: str = "warning",
    **options: Any,
) -> Any:
    """The uvicorn configuration ``kalah serve`` runs ``app`` with: guarded connections (``limits``);
    ``options`` are more of uvicorn's (``kalah arena serve``'s WebSocket sizes, say)."""
    import uvicorn

    limits = limits or HttpConnectionLimits()
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=guarded_protocol(limits),
        timeout_keep_alive=max(1, round(limits.idle_seconds)),
        h11_max_incomplete_event_size=limits.max_header_bytes,
        **{"ws_max_size": limits.max_message_bytes, **options},
    )
    quiet_logs()  # after uvicorn has configured its loggers
    return config


def raise_file_limit() -> int:
    """Let this process open as many files (connections) as the system allows it; returns the new limit."""
    try:
        import resource
    except ImportError:  # not POSIX
        return -1
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return int(soft)


@contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """Inside, SIGTERM (``kill``, ``systemctl stop``, ``docker stop``) does what Ctrl-C does at that moment.

    uvicorn shuts down gracefully on either signal, then raises the signal again for the handler it found.
    For SIGINT that is Python's (or ``asyncio.run``'s), which ends the server's command by its Ctrl-C path:
    the games under way marked stopped, the library closed (SQLite checkpoints the WAL and removes the
    ``-wal`` and ``-shm`` files), the shutdown line, exit code 0.
    For SIGTERM it was the default action, which killed the process there: none of that happened. Handing
    SIGTERM to the SIGINT handler in force makes the two stops one. Outside the main thread (a server in a
    test's thread) signals cannot be handled, and nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def as_ctrl_c(signum: int, frame: FrameType | None) -> None:
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler):
            handler(signal.SIGINT, frame)
        else:  # SIGINT ignored or left to the system: still stop, as Python's own handler would
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, as_ctrl_c)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
