"""Running the class server: the web app (pages, API, ``/socket``) and the TCP listener on one event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kalah.kgp.wire import MAX_LINE
from kalah.records import GameLibrary

from .agents import AgentBook
from .server import ClassServer, ServerConfig


@dataclass
class Listening:
    """Where a started server listens (ports chosen by the system when 0 was asked)."""

    host: str
    port: int
    kgp_port: int


async def serve(
    config: ServerConfig,
    db: Path | None,
    host: str = "127.0.0.1",
    port: int = 8080,
    kgp_port: int = 2671,
    ready: Callable[[Listening, ClassServer], None] | None = None,
    tournament: object | None = None,
) -> None:
    """Serve until cancelled. ``ready`` is called once both listeners are up."""
    import uvicorn

    from .web import create_app

    library = GameLibrary(db)
    book = AgentBook(library.path)
    server = ClassServer(config, library, book)
    if tournament is not None:
        server.tournament = tournament  # type: ignore[attr-defined]
        config.practice = False
    app = create_app(server)
    # One KGP command a WebSocket message: a message may not be much longer than a line.
    web = uvicorn.Server(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            lifespan="off",
            ws_max_size=4 * MAX_LINE + 16,
            ws_ping_interval=20,
            ws_ping_timeout=20,
            timeout_keep_alive=5,
        )
    )
    tcp = await server.start_tcp(host, kgp_port)
    web_task = asyncio.create_task(web.serve())
    while not web.started:
        if web_task.done():
            web_task.result()
            return
        await asyncio.sleep(0.02)
    bound_port = web.servers[0].sockets[0].getsockname()[1] if web.servers else port
    listening = Listening(host, int(bound_port), int(tcp.sockets[0].getsockname()[1]))
    pairing = asyncio.create_task(server.practice_loop())
    running = None
    if tournament is not None:
        running = asyncio.create_task(tournament.run(server))  # type: ignore[attr-defined]
    if ready is not None:
        ready(listening, server)
    try:
        await web_task
    finally:
        pairing.cancel()
        if running is not None:
            running.cancel()
        tcp.close()
        await server.close()
        web.should_exit = True
