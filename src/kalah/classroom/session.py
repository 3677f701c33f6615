"""One agent's connection to the class server: the KGP handshake, its limits, and its decisions.

Everything an agent sends is bounded: a line's length and encoding (by the
transport), commands a second (a token bucket), the time to choose a mode,
the time a write may wait for a reader that does not read, and silence (a
``ping`` after :attr:`SessionLimits.ping_every` seconds without a line, and the
connection closed when no answer comes). Breaking a limit gets an ``error``
and a closed connection; nothing an agent sends reaches other agents' games.

A decision: the server sends ``ID state <board>`` (the mover is south), takes
every legal ``@ID move k`` (the last one counts), and ends at ``@ID yield`` or
at the move time, when it sends ``@ID stop`` (never after a yield: pykgp can
deadlock on that). An illegal move gets an ``error`` and is ignored; with no
legal move the game makes a random one (as the protocol says).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from kalah.kgp import (
    Board,
    Command,
    Connection,
    KgpError,
    KgpSyntaxError,
    LineError,
    Word,
    board_from_position,
    format_command,
    move_from_wire,
    parse_line,
)
from kalah.rules import Move, Position

from .agents import Agent
from .manifest import Manifest

log = logging.getLogger("kalah.classroom")

PROTOCOL_VERSION = (1, 0, 1)
#: The name of an agent that sends none.
ANONYMOUS = "anonymous"


@dataclass
class SessionLimits:
    """What one connection may do."""

    handshake_seconds: float = 20.0  # from the greeting to ``mode``
    # A search agent sends a move an iteration: a quick game is hundreds of commands in a second or two.
    commands_per_second: float = 500.0
    burst: int = 500  # one second's worth: a flood is cut within a second, as documented
    write_seconds: float = 10.0  # a write that waits longer (nobody reads) closes the connection
    ping_every: float = 30.0  # silence before a ping
    pong_seconds: float = 20.0  # then silence before the connection is closed
    max_per_address: int = 64  # open connections from one address
    # Tokens never seen before, from one address, a minute: guessing another agent's token takes for ever,
    # while a class behind one NAT address can still sign in.
    new_tokens_per_minute: int = 60
    # New anonymous agents (no token), from one address, a minute: each is a row on the leaderboard.
    new_anonymous_per_minute: int = 60
    min_token_length: int = 8
    # A submitted agent (run by the server) this many moves in a row without a legal move in time is stopped.
    late_in_a_row: int = 3


class Scheduler(Protocol):
    """What a session needs of the server: a sign-in and a seat in the queue (as go-kgp's ``Scheduler``)."""

    async def sign_in(self, session: AgentSession) -> str | None:
        """Give ``session`` its agent; returns why it is refused, or None."""

    def agent_ready(self, session: AgentSession) -> None:
        """``session`` chose its mode and waits for a game."""

    def evaluate(self, session: AgentSession) -> str | None:
        """``session`` chose ``mode eval``: grade its decisions (returns why not, or None)."""


class Disconnected(Exception):
    """The agent's connection is gone."""


class Closing(Exception):
    """Close this connection, after telling the agent why."""


@dataclass
class Pending:
    """A decision the agent is working on."""

    state_id: int
    position: Position
    done: asyncio.Event = field(default_factory=asyncio.Event)
    move: Move | None = None
    moves: int = 0
    illegal: int = 0
    evaluation: float | None = None  # the agent's ``eval``: its estimate of the position (mode eval)


class AgentSession:
    """Serves one connection until it closes."""

    def __init__(self, scheduler: Scheduler, connection: Connection, limits: SessionLimits) -> None:
        self.scheduler = scheduler
        self.connection = connection
        self.limits = limits
        self.agent: Agent | None = None
        self.name = ANONYMOUS
        self.authors = self.description = ""
        self.token: str | None = None
        self.mode: str | None = None
        self.pending: Pending | None = None
        self.closed = asyncio.Event()
        self.close_reason = ""
        self.in_game = False
        self.opened = time.monotonic()
        self.submission: Manifest | None = None  # a submitted agent the server runs (its own socket)
        self.late_in_a_row = 0
        #: Called with the reason when a submitted agent let the move time pass too often in a row.
        self.on_timeout: Callable[[str], None] | None = None
        self._next_id = 0
        self._tokens = float(self.limits.burst)
        self._refilled = time.monotonic()
        self._write_lock = asyncio.Lock()

    # --- sending ---------------------------------------------------------------------

    async def send(self, name: str, *args: object, ref: int | None = None) -> int:
        """Send a command with a fresh (even) id; returns the id. Disconnected when the write fails or stalls."""
        self._next_id += 2
        await self._write(format_command(name, *args, id=self._next_id, ref=ref))  # type: ignore[arg-type]
        return self._next_id

    async def _write(self, line: str) -> None:
        if self.closed.is_set():
            raise Disconnected(self.close_reason)
        try:
            async with self._write_lock:
                await asyncio.wait_for(self.connection.send_line(line), self.limits.write_seconds)
        except (TimeoutError, OSError, ConnectionError, RuntimeError) as error:
            self._mark_closed("the agent does not read" if isinstance(error, asyncio.TimeoutError) else "write failed")
            raise Disconnected(self.close_reason) from None
        except Exception as error:  # the WebSocket libraries raise their own "closed" errors
            self._mark_closed(f"write failed: {type(error).__name__}")
            raise Disconnected(self.close_reason) from None

    def _mark_closed(self, reason: str) -> None:
        if not self.closed.is_set():
            self.close_reason = reason
            self.closed.set()
            if self.pending is not None:
                self.pending.done.set()

    def describe(self) -> str:
        """Who this is, for the log: the agent's name and id once signed in, else the name and address."""
        if self.agent is not None:
            return f"{self.agent.name} (#{self.agent.id})"
        return f"{self.name} from {self.connection.peer}"

    async def refuse(self, message: str) -> None:
        """Tell the agent why and close."""
        log.warning("closed %s: %s", self.describe(), message)
        try:
            await self.send("error", message)
            await self.send("goodbye")
        except Disconnected:
            pass
        self._mark_closed(message)
        await self.connection.close()

    # --- reading ---------------------------------------------------------------------

    async def run(self) -> None:
        """Greet, then read commands until the connection closes or breaks a limit."""
        try:
            await self.send("kgp", *PROTOCOL_VERSION)
            started = time.monotonic()
            ping_sent: float | None = None
            while not self.closed.is_set():
                if self.mode is None:
                    wait = self.limits.handshake_seconds - (time.monotonic() - started)
                    if wait <= 0:
                        raise Closing("no mode chosen in time")
                else:
                    wait = self.limits.pong_seconds if ping_sent is not None else self.limits.ping_every
                try:
                    line = await asyncio.wait_for(self.connection.read_line(), wait)
                except TimeoutError:
                    if self.mode is None:
                        raise Closing("no mode chosen in time") from None
                    if ping_sent is not None:
                        raise Closing("no answer to ping") from None
                    await self.send("ping")
                    ping_sent = time.monotonic()
                    continue
                if line is None:
                    self._mark_closed("the agent closed the connection")
                    log.info("%s disconnected", self.describe())
                    break
                ping_sent = None  # any line shows the agent is alive
                self._take_token()
                try:
                    command = parse_line(line)
                except KgpSyntaxError as error:
                    await self.send("error", str(error))
                    continue
                await self._handle(command)
        except LineError as error:
            await self.refuse(str(error))
        except Closing as stop:
            await self.refuse(str(stop))
        except Disconnected:
            pass
        except Exception:  # a bug must cost one connection, never the server: logged, and this agent told
            logging.getLogger(__name__).exception("serving %s (%s) failed", self.name, self.connection.peer)
            await self.refuse("internal error of the server")
        finally:
            self._mark_closed(self.close_reason or "closed")
            await self.connection.close()

    def _take_token(self) -> None:
        now = time.monotonic()
        self._tokens = min(
            float(self.limits.burst), self._tokens + (now - self._refilled) * self.limits.commands_per_second
        )
        self._refilled = now
        if self._tokens < 1:
            raise Closing(f"too many commands: at most {self.limits.commands_per_second:g} a second")
        self._tokens -= 1

    async def _handle(self, command: Command) -> None:
        name = command.name
        if name == "set":
            await self._set(command)
        elif name == "mode":
            await self._mode(command)
        elif name in ("move", "yield", "stop"):  # a client's stop ends its answer (mode eval), as yield does
            await self._decision(command)
        elif name == "ping":
            await self.send("pong", ref=command.id)
        elif name == "goodbye":
            self._mark_closed("the agent said goodbye")
            log.info("%s said goodbye", self.describe())
        elif name == "eval":
            value = command.args[0] if command.args else None
            if self.pending is not None and command.ref == self.pending.state_id and isinstance(value, (int, float)):
                self.pending.evaluation = float(value)
        elif name in ("pong", "ok", "error"):
            pass
        else:
            await self.send("error", f"unknown command {name!r}", ref=command.id)

    async def _set(self, command: Command) -> None:
        key, value = command.text(0), command.text(1)
        if key is None or value is None or self.mode is not None:
            return  # unknown or late options are ignored, as the protocol asks
        if key == "info:name":
            self.name = value
        elif key in ("info:authors", "info:author"):
            self.authors = value
        elif key == "info:description":
            self.description = value
        elif key == "auth:token":
            if self.submission is not None:
                return  # its manifest's token counts
            if len(value) < self.limits.min_token_length:
                raise Closing(f"a token has at least {self.limits.min_token_length} characters")
            self.token = value

    async def _mode(self, command: Command) -> None:
        if self.mode is not None:
            await self.send("error", "the mode is already chosen", ref=command.id)
            return
        mode = command.text(0)
        if mode not in ("freeplay", "eval"):
            raise Closing(f"unsupported activity {mode!r}: this server plays freeplay and eval")
        refusal = await self.scheduler.sign_in(self)
        if refusal:
            raise Closing(refusal)
        assert self.agent is not None
        log.info(
            "%s signed in from %s%s",
            self.describe(),
            self.connection.peer,
            "" if self.token is not None else " (anonymous: no token)",
        )
        self.mode = mode
        if mode == "eval":
            refusal = self.scheduler.evaluate(self)
            if refusal:
                raise Closing(refusal)
            await self.send("ok", ref=command.id)
            return
        await self.send("ok", ref=command.id)
        self.scheduler.agent_ready(self)

    async def _decision(self, command: Command) -> None:
        pending = self.pending
        if pending is None or command.ref != pending.state_id:
            return  # a move after stop (or for another state) is silently ignored, as the protocol says
        if command.name in ("yield", "stop"):
            pending.done.set()
            return
        number = command.args[0] if command.args else None
        try:
            if not isinstance(number, int) or isinstance(number, bool):
                raise KgpError("a move is a pit number")
            pending.move = move_from_wire(number, pending.position)
            pending.moves += 1
        except KgpError as error:
            pending.illegal += 1
            await self.send("error", f"illegal move: {error}", ref=command.id)

    # --- deciding --------------------------------------------------------------------

    async def decide(self, position: Position, move_time: float, game: str, opponent: str, new_game: bool) -> Pending:
        """Ask the agent for a move in ``position`` (its mover is the agent); returns what it said in time.

        Raises :class:`Disconnected` when the agent is gone.
        """
        if new_game:
            await self.send("set", Word("game:id"), game)
            await self.send("set", Word("game:opponent"), opponent)
        self._next_id += 2
        pending = Pending(self._next_id, position)
        self.pending = pending
        board: Board = board_from_position(position)
        await self._write(f"{pending.state_id} state {board}")
        try:
            await asyncio.wait_for(pending.done.wait(), move_time)
            late = False
        except TimeoutError:
            late = True
        self.pending = None
        if self.closed.is_set():
            raise Disconnected(self.close_reason)
        if late:
            await self.send("stop", ref=pending.state_id)
        return pending

    def count_late(self, late: bool, game: int, move_time: float) -> None:
        """Note whether a decision had no legal move in time (logged); a submitted agent that is late
        :attr:`SessionLimits.late_in_a_row` times in a row is timed out (:attr:`on_timeout`)."""
        if not late:
            self.late_in_a_row = 0
            return
        self.late_in_a_row += 1
        log.info("game %d: %s made no legal move in %g s: a random move is played", game, self.describe(), move_time)
        if self.submission is not None and self.late_in_a_row >= self.limits.late_in_a_row and self.on_timeout:
            self.on_timeout(f"timed out: no legal move in time {self.late_in_a_row} times in a row")
