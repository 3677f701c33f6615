"""A class server (`kalah arena serve`) in a thread of the test process, on free ports of 127.0.0.1."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

from kalah.classroom import ServerConfig, SessionLimits, serve
from kalah.records import GameLibrary
from kalah.rules import Variant


class ServerThread:
    """Runs :func:`kalah.classroom.serve` until :meth:`stop`; ``port`` (web) and ``kgp_port`` (TCP) once up."""

    def __init__(
        self,
        db: Path,
        move_time: float = 1.0,
        limits: SessionLimits | None = None,
        variant: Variant | None = None,
        tournament: object | None = None,
        pair_every: float = 0.2,
        connections: object | None = None,
        agents: object | None = None,
        config: ServerConfig | None = None,
    ) -> None:
        self.agents = agents
        self.db = db
        self.connections = connections
        self.config = config or ServerConfig(
            variant=variant or Variant(6, 6),
            move_time=move_time,
            pair_every=pair_every,
            limits=limits or SessionLimits(),
        )
        self.tournament = tournament
        self.server = None
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()

            def ready(listening, server) -> None:
                self.port, self.kgp_port, self.server = listening.port, listening.kgp_port, server
                self._ready.set()

            self._task = asyncio.current_task()
            await serve(
                self.config,
                self.db,
                "127.0.0.1",
                0,
                0,
                ready=ready,
                tournament=self.tournament,
                connections=self.connections,
                agents=self.agents,
            )

        try:
            asyncio.run(main())
        except asyncio.CancelledError:
            pass
        except BaseException as error:
            self.error = error
            self._ready.set()

    def __enter__(self) -> ServerThread:
        self.thread.start()
        assert self._ready.wait(30), "the class server did not start"
        if self.error is not None:
            raise self.error
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        if self._loop is not None and self._task is not None:
            self._loop.call_soon_threadsafe(self._task.cancel)
        self.thread.join(15)

    @property
    def library(self) -> GameLibrary:
        return GameLibrary(self.db)

    def finished_games(self, name: str | None = None) -> list:
        """The library's finished games (of the agent called ``name``)."""
        games = [g for g in self.library.list_games() if g.status == "finished"]
        return [g for g in games if name is None or name in (g.players[0].name, g.players[1].name)]

    def ended_games(self, name: str) -> list:
        """The library's games of the agent called ``name`` that have ended: played out, or stopped by a
        forfeit (of its opponent, when the agent itself went on to the end)."""
        games = [g for g in self.library.list_games() if g.status in ("finished", "stopped")]
        return [g for g in games if name in (g.players[0].name, g.players[1].name)]

    def wait_for(self, condition, timeout: float = 60.0, every: float = 0.2) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(every)
        return False

    def call(self, function, *args):
        """Run ``function(*args)`` on the server's loop (a coroutine function or a plain one); returns its result."""
        assert self._loop is not None

        async def run():
            result = function(*args)
            if asyncio.iscoroutine(result):
                result = await result
            return result

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(30)
