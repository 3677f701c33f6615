"""Submitted agents run by the server: each built and started in its sandbox, each a KGP client of it.

For each submission (:mod:`.manifest`), in order: its folder is copied to a
working copy (``WORK/NAME``, fresh at every start, in a temporary folder
every agent's user can reach: the sandbox is made as that user, and a
teacher's own folders are often closed to others); its build command runs
in the sandbox (:mod:`.sandbox`) within the build time; then its run command
starts in the sandbox behind the relay (:mod:`.relay`), and must sign in
within the start time. The server listens for it on a Unix socket of its own
(``WORK/NAME.socket/server.sock``): whatever it sends, a connection there is
that agent, signed in with its manifest's name and token.

An agent is out, with the reason recorded (``kgp_submissions``, the log, the
pages), when its build fails or takes too long, it does not sign in in
time, its program ends (a crash, a limit: memory, CPU), or it lets the move
time pass without a legal move :attr:`SessionLimits.late_in_a_row` times in a row;
its process group is killed and it plays no further game (in a tournament
its games left are lost by forfeit). The others go on. An agent out in a
tournament stays out when the tournament is resumed.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from kalah.kgp import StreamConnection

from .manifest import Manifest
from .sandbox import SandboxLimits, agent_uid, build, ended, fresh_copy, kill, read_output, relay_argv, spawn
from .server import ClassServer
from .session import AgentSession

log = logging.getLogger(__name__)
#: Builds at a time (this machine has two cores).
BUILDS_AT_ONCE = 2


@dataclass
class Status:
    """Where one submission is."""

    manifest: Manifest
    state: str = "waiting"  # waiting, building, starting, playing, out
    reason: str = ""
    agent_id: int | None = None
    process: asyncio.subprocess.Process | None = None
    tail: deque[str] = field(default_factory=lambda: deque(maxlen=20))


class SubmissionRunner:
    """Builds, starts and watches the submitted agents of one server."""

    def __init__(
        self,
        manifests: list[Manifest],
        server: ClassServer,
        logs: Path,
        limits: SandboxLimits | None = None,
        event: str = "practice",
        hidden: list[Path] | None = None,
    ) -> None:
        self.server, self.logs, self.event = server, logs, event
        self.work = Path(tempfile.mkdtemp(prefix="kalah-agents-"))
        self.work.chmod(0o711)  # each agent's user passes through to its own copy, and lists nothing
        self.limits = limits or SandboxLimits()
        self.status = {manifest.name: Status(manifest) for manifest in manifests}
        self.hidden = [*(hidden or []), logs, self.work, *{manifest.folder.parent for manifest in manifests}]
        self.tasks: list[asyncio.Task[None]] = []
        self._builds = asyncio.Semaphore(BUILDS_AT_ONCE)
        self._listeners: list[asyncio.Server] = []
        self._closing = False
        server.submission_ready = self._signed_in

    # --- what the tournament asks --------------------------------------------------------

    def field(self) -> list[int] | None:
        """The playing agents' ids once every submission is playing or out (None: not yet)."""
        if any(status.state not in ("playing", "out") for status in self.status.values()):
            return None
        return [status.agent_id for status in self.status.values() if status.state == "playing" and status.agent_id]

    def waiting_for(self) -> str:
        """The submissions not yet signed in, in words."""
        left = [f"{s.manifest.name} ({s.state})" for s in self.status.values() if s.state not in ("playing", "out")]
        return f"{len(left)} submitted agents to build and sign in: " + ", ".join(left[:10])

    def to_dict(self) -> list[dict[str, object]]:
        """Each submission's state and, when out, why (JSON-ready; never the token)."""
        return [
            {"name": s.manifest.name, "state": s.state, "reason": s.reason, "agent_id": s.agent_id}
            for s in self.status.values()
        ]

    # --- running -----------------------------------------------------------------------

    async def start(self) -> None:
        """Start every submission (each in a task of its own: building, starting, watching)."""
        out = await asyncio.to_thread(self._out_before)
        self.logs.mkdir(parents=True, exist_ok=True)
        for index, status in enumerate(self.status.values()):
            if status.manifest.name in out:
                status.state, status.reason = "out", out[status.manifest.name]
                log.info("submission %s stays out: %s", status.manifest.name, status.reason)
                continue
            self.tasks.append(asyncio.create_task(self._run(status, index)))
        self.server.wake()

    async def _run(self, status: Status, index: int) -> None:
        manifest = status.manifest
        uid = agent_uid(index)
        copy = self.work / manifest.name
        sockets = self.work / f"{manifest.name}.socket"
        try:
            await asyncio.to_thread(fresh_copy, manifest.folder, copy, sockets, uid)
            if manifest.build:
                status.state = "building"
                async with self._builds:
                    problem = await self._build(status, copy, uid)
                if problem:
                    await self.stop(manifest.name, problem)
                    return
            status.state = "starting"
            listener = await asyncio.start_unix_server(
                lambda reader, writer: self._connected(manifest, reader, writer), str(sockets / "server.sock")
            )
            self._listeners.append(listener)
            (sockets / "server.sock").chmod(0o777)
            process = await spawn(manifest, copy, uid, self.limits, self.hidden, relay_argv(manifest.run), sockets)
            status.process = process
            log.info("submission %s started (pid %d)", manifest.name, process.pid)
            reading = asyncio.create_task(self._read_output(status, process))
            try:
                await asyncio.wait_for(asyncio.shield(process.wait()), self.limits.start_seconds)
            except TimeoutError:
                if status.state == "starting":
                    await self.stop(manifest.name, f"did not sign in within {self.limits.start_seconds:g} s")
            await process.wait()
            await reading
            if not self._closing and status.state != "out":
                await self.stop(manifest.name, ended(process.returncode, status.tail))
        except OSError as error:
            await self.stop(manifest.name, f"cannot be run: {error}")

    async def _build(self, status: Status, copy: Path, uid: int | None) -> str | None:
        """Why the build failed, or None."""
        manifest = status.manifest
        began = time.monotonic()
        with open(self.logs / f"{manifest.name}.log", "ab") as output:
            problem = await build(manifest, copy, uid, self.limits, self.hidden, output, status.tail)
        if problem is None:
            log.info("submission %s built in %.1f s", manifest.name, time.monotonic() - began)
            status.tail.clear()
        return problem

    async def _read_output(self, status: Status, process: asyncio.subprocess.Process) -> None:
        """The agent's output: into ``LOGS/NAME.log`` (up to :data:`MAX_LOG`), its last lines kept."""
        with open(self.logs / f"{status.manifest.name}.log", "ab") as file:
            await read_output(process, file, status.tail)

    async def _connected(self, manifest: Manifest, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = StreamConnection(reader, writer)
        connection.peer = f"submission:{manifest.name}"
        await self.server.serve_connection(connection, manifest)

    def _signed_in(self, session: AgentSession) -> None:
        status = self.status.get(session.submission.name) if session.submission else None
        if status is None or status.state == "out" or session.agent is None:
            return
        name = status.manifest.name

        def timed_out(reason: str) -> None:
            task = asyncio.ensure_future(self.stop(name, reason))
            self.tasks.append(task)

        session.on_timeout = timed_out
        if status.state != "playing":
            status.state, status.agent_id = "playing", session.agent.id
            log.info("submission %s (#%d) is playing", status.manifest.name, session.agent.id)
            self.server.wake()

    async def stop(self, name: str, reason: str) -> None:
        """Put a submission out: recorded with ``reason``, its processes killed, its connections closed."""
        status = self.status[name]
        if status.state == "out":
            return
        status.state, status.reason = "out", reason
        log.warning("submission %s is out: %s", name, reason)
        if status.process is not None and status.process.returncode is None:
            kill(status.process)
        for session in list(self.server.sessions):
            if session.submission is not None and session.submission.name == name:
                await session.refuse(f"stopped: {reason}")
        await asyncio.to_thread(self._keep, name, reason)
        self.server.wake()

    async def close(self) -> None:
        """Stop every agent (the server is stopping: nobody is put out)."""
        self._closing = True
        for status in self.status.values():
            if status.process is not None and status.process.returncode is None:
                kill(status.process)
        for listener in self._listeners:
            listener.close()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=5)
        await asyncio.to_thread(shutil.rmtree, self.work, True)

    # --- storage -----------------------------------------------------------------------

    def _out_before(self) -> dict[str, str]:
        """The submissions a stopped run of this tournament put out (practice starts everyone afresh)."""
        with self.server.book.transaction() as db:
            if self.event == "practice":
                db.execute("DELETE FROM kgp_submissions WHERE event = ?", (self.event,))
                return {}
            rows = db.execute(
                "SELECT name, reason FROM kgp_submissions WHERE event = ? AND status = 'out'", (self.event,)
            ).fetchall()
        return {str(name): str(reason) for name, reason in rows}

    def _keep(self, name: str, reason: str) -> None:
        now = time.strftime("%Y-%m-%d %H:%M:%S")
        with self.server.book.transaction() as db:  # portable: no upsert syntax of one database
            db.execute("DELETE FROM kgp_submissions WHERE event = ? AND name = ?", (self.event, name))
            db.execute(
                "INSERT INTO kgp_submissions (event, name, status, reason, updated_at) VALUES (?, ?, 'out', ?, ?)",
                (self.event, name, reason, now),
            )
