"""What one board server is told when it starts: the command line's choices, as one value."""

from __future__ import annotations

from dataclasses import dataclass, field

from .limits import DEFAULT_GAMES_PER_MINUTE, DEFAULT_IMPORTS_PER_MINUTE, DEFAULT_MAX_BODY
from .live import LiveLimits
from .service import DEFAULT_MAX_LIBRARY_BYTES, DEFAULT_MOVE_SECONDS

#: The Host header names a server on loopback answers to by default: a page on
#: another site that points its own name at 127.0.0.1 (DNS rebinding) is refused.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")


@dataclass(frozen=True)
class ServerSettings:
    """A board server's settings (``kalah serve``'s options; :func:`kalah.web.create_app` takes each as a
    keyword too)."""

    workers: int = 2
    """Engine workers for computer moves, analyses and traces."""
    pool: str = "process"
    """The workers' kind: "process" (each killable alone) or "thread" (tests)."""
    allow_exec: bool = False
    """Clients may name players that run programs or read files on this machine (exec:, replay:file=)."""
    allow_delete: bool = False
    """Every client may delete games (otherwise only a client of this machine)."""
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    """The names the Host header may carry ("*": any)."""
    move_seconds: float = DEFAULT_MOVE_SECONDS
    """Engine seconds a job may think, whatever the player's spec asks."""
    max_body: int = DEFAULT_MAX_BODY
    """Bytes of a request body (413 beyond)."""
    busy_timeout: float = 1.0
    """Seconds a request waits for a library locked by another program (then 503)."""
    client_jobs: int = 4
    """Engine jobs one client may have queued or running (429 beyond)."""
    queued_jobs: int = 256
    """Engine jobs waiting, all clients together (503 beyond)."""
    games_per_minute: int = DEFAULT_GAMES_PER_MINUTE
    """New games one client address may store a minute (429 beyond)."""
    imports_per_minute: int = DEFAULT_IMPORTS_PER_MINUTE
    """Records one client address may import a minute (429 beyond)."""
    max_library_bytes: int = DEFAULT_MAX_LIBRARY_BYTES
    """No new game or import once the library is this large (507)."""
    live_limits: LiveLimits = field(default_factory=LiveLimits)
    """What one address may hold of games between people."""
    claim: bool = True
    """Take the library for this server as it starts, refusing a second server on a SQLite library (kalah
    serve takes it itself, before it starts, and says so with one line)."""
