"""Running the class server: the web app (pages, API, ``/socket``) and the TCP listener on one event loop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kalah.kgp.wire import MAX_LINE
from kalah.records import GameLibrary
from kalah.records.claim import claim_library, describe_holder
from kalah.rules.wording import plural

from .agents import AgentBook
from .games import INTERRUPTED, PROGRAM
from .manifest import Manifest
from .sandbox import SandboxLimits
from .server import ClassServer, ServerConfig, TournamentPlay

if TYPE_CHECKING:
    from kalah.web.connections import HttpConnectionLimits

log = logging.getLogger(__name__)


@dataclass
class Agents:
    """Submitted agents for the server to run (``--agents``): their manifests, where their output goes, and
    the sandbox's limits."""

    manifests: list[Manifest]
    logs: Path | None = None  # default: beside the database, DB.agent-logs
    limits: SandboxLimits = field(default_factory=SandboxLimits)


@dataclass
class Listening:
    """Where a started server listens (ports chosen by the system when 0 was asked)."""

    host: str
    port: int
    kgp_port: int


async def serve(
    config: ServerConfig,
    db: str | Path | None,
    host: str = "127.0.0.1",
    port: int = 8080,
    kgp_port: int = 2671,
    ready: Callable[[Listening, ClassServer], None] | None = None,
    tournament: TournamentPlay | None = None,
    connections: HttpConnectionLimits | None = None,
    agents: Agents | None = None,
) -> None:
    """Serve until cancelled. ``ready`` is called once both listeners are up.

    The web side's connections are guarded as ``kalah serve``'s are (``connections``; by default its
    timeouts, and the cap of :attr:`SessionLimits.max_per_address` open connections from one address).
    """
    library = GameLibrary(db)
    # One class server on a library: it pairs agents in its memory, and the games a second one found
    # "playing" would be the first's, marked stopped under it.
    claim = claim_library(
        library.database, "class server", describe_holder("kalah arena serve", f"http://{host}:{port}/")
    )
    try:
        await _serve(config, library, host, port, kgp_port, ready, tournament, connections, agents)
    finally:
        claim.release()


async def _serve(
    config: ServerConfig,
    library: GameLibrary,
    host: str,
    port: int,
    kgp_port: int,
    ready: Callable[[Listening, ClassServer], None] | None,
    tournament: TournamentPlay | None,
    connections: HttpConnectionLimits | None,
    agents: Agents | None,
) -> None:
    import uvicorn

    from kalah.web.connections import HttpConnectionLimits, server_config

    from .web import create_app

    # Games still "playing" were cut off by an earlier process's end (a crash, kill -9): nobody plays them on.
    cut_off = await asyncio.to_thread(library.mark_all_stopped, PROGRAM, INTERRUPTED)
    if cut_off:
        log.warning("marked %s stopped: an earlier server ended during them", plural(len(cut_off), "game"))
    book = AgentBook(library.database)
    server = ClassServer(config, library, book)
    if tournament is not None:
        server.tournament = tournament
        config.practice = False
        config.require_token = True
    app = create_app(server)
    # Without the guard, a request never finished held its socket for ever: one address opening thousands
    # took every file descriptor, and then the results of finished games could not be stored.
    connections = connections or HttpConnectionLimits(per_address=config.limits.max_per_address)
    # One KGP command a WebSocket message: a message may not be much longer than a line.
    web = uvicorn.Server(
        server_config(
            app,
            host,
            port,
            connections,
            lifespan="off",
            ws_max_size=4 * MAX_LINE + 16,
            ws_ping_interval=20,
            ws_ping_timeout=20,
        )
    )
    tcp = await server.start_tcp(host, kgp_port)

    async def serve_web() -> None:
        try:
            await web.serve()
        except SystemExit as stop:
            # uvicorn exits when it cannot bind (a port taken since the caller checked it): a SystemExit
            # escapes the event loop as a traceback, an OSError is the caller's to report in one line.
            if web.started:
                raise
            raise OSError(f"the web pages cannot listen on {host}:{port} (uvicorn stopped: {stop.code})") from None

    web_task = asyncio.create_task(serve_web())
    while not web.started:
        if web_task.done():
            tcp.close()
            web_task.result()
            return
        await asyncio.sleep(0.02)
    bound_port = web.servers[0].sockets[0].getsockname()[1] if web.servers else port
    listening = Listening(host, int(bound_port), int(tcp.sockets[0].getsockname()[1]))
    pairing = asyncio.create_task(server.practice_loop())
    grading = asyncio.create_task(server.grader.run()) if server.grader is not None else None
    running = None
    runner = None
    if agents is not None:
        from .submissions import SubmissionRunner

        event = getattr(tournament, "event", "practice")
        logs = agents.logs or _beside(library, ".agent-logs")
        hidden = [library.path.parent] if library.path is not None else []  # the library's folder: not the agents'
        runner = SubmissionRunner(agents.manifests, server, logs, agents.limits, event, hidden)
        server.submissions = runner
        if tournament is not None:
            tournament.source = runner  # type: ignore[attr-defined]
        await runner.start()
    if tournament is not None:
        running = asyncio.create_task(tournament.run(server))
    if ready is not None:
        ready(listening, server)
    try:
        await web_task
    finally:
        pairing.cancel()
        if grading is not None:
            grading.cancel()
        if running is not None:
            running.cancel()
        if runner is not None:
            await runner.close()
        tcp.close()
        await server.close()
        web.should_exit = True
        # The connection this thread opened: it stayed open to the process's end (a sqlite3 connection is in
        # a reference cycle with its statement cache, and this thread's outlives the last collection), and
        # SQLite, which removes the -wal and -shm files as the last connection closes, left them behind. The
        # worker threads' connections go with their threads, at the collection as the process ends.
        library.close()


def _beside(library: GameLibrary, suffix: str) -> Path:
    """A path beside a SQLite library (``games.sqlite.agent-logs``), or for a database server in this user's
    data folder."""
    if library.path is not None:
        return library.path.with_name(library.path.name + suffix)
    import hashlib

    import platformdirs

    name = hashlib.sha256(library.where.encode()).hexdigest()[:16]
    return Path(platformdirs.user_data_dir("kalah")) / f"class-server-{name}{suffix}"
