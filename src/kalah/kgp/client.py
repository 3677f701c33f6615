"""The KGP client: any player plays freeplay (or answers ``mode eval``) on a KGP server.

One asyncio task reads the server's commands and answers ``ping`` at once;
the player thinks in a worker thread (:mod:`kalah.kgp.thinker`), and its moves
go out as it finds them. A lost connection is tried again with growing pauses;
the run ends when the server says ``goodbye``, when ``games`` games are
played, or when the server cannot be reached, and :class:`ClientReport` says
which.

Games: go-kgp never says when a game starts or ends, so a game ends when the
client's own move ends it, when the server names a new ``game:id``, or when a
state shows fewer seeds in the stores than the last one (a new game began).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from kalah.players import Player
from kalah.rules import Move, Outcome, Position
from kalah.rules.wording import plural

from .board import UnsupportedBoardError, move_to_wire, position_from_board
from .thinker import Thinker
from .transport import Connection, LineError, RefusedError, open_connection, parse_server
from .wire import (
    GAME_RESULT,
    Board,
    Command,
    KgpError,
    KgpSyntaxError,
    Word,
    format_command,
    parse_game_result,
    parse_line,
)

PROTOCOL_MAJOR = 1
#: Seconds a server has to greet (a KGP server greets at once; a web server says nothing until asked).
GREETING_SECONDS = 3.0
#: Seconds between attempts to connect again: doubling from the first to the last.
BACKOFF_FIRST, BACKOFF_LAST = 1.0, 30.0

#: Called with what happens (``connected``, ``game``, ``error``, ``retry``, ...) and a sentence about it.
Events = Callable[[str, str], None]


@dataclass
class ClientOptions:
    """How the client connects and introduces itself."""

    server: str
    name: str | None = None
    authors: str | None = None
    description: str | None = None
    token: str | None = field(default=None, repr=False)  # a secret: never shown
    games: int | None = None
    mode: str = "freeplay"
    #: Times to try again after a failed attempt to connect, in a row, before giving up (0: at once).
    retries: int = 8
    backoff_first: float = BACKOFF_FIRST

    def __post_init__(self) -> None:
        parse_server(self.server)
        if self.mode not in ("freeplay", "eval"):
            raise KgpError(f"mode must be freeplay or eval, got {self.mode!r}")
        if self.games is not None and self.games < 1:
            raise KgpError(f"games must be at least 1, got {self.games}")
        if self.retries < 0:
            raise KgpError(f"retries must be 0 or more, got {self.retries}")
        if self.token is not None and not self.token.strip():
            raise KgpError("a token must not be empty")


@dataclass
class ClientReport:
    """How a client run ended."""

    reason: str
    games: int = 0
    decisions: int = 0
    #: The games by their outcome for this agent ("won", "drew", "lost": ``Outcome.word``), where it is known: the final
    #: board after the agent's last move, or the server's ``game:result`` (kalah arena serve); a game the
    #: opponent ended on a server that says nothing of results is counted in ``games`` only.
    outcomes: dict[str, int] = field(default_factory=dict)
    #: The run ended because it played the ``games`` it was asked for.
    all_played: bool = False
    errors: list[str] = field(default_factory=list)
    ok: bool = True
    #: The server answered the WebSocket handshake with an HTTP error until the client gave up (a wrong URL?).
    refused: bool = False


class _Stop(Exception):
    """Ends the run (not a connection problem: do not reconnect)."""

    def __init__(self, reason: str, ok: bool = True, refused: bool = False) -> None:
        super().__init__(reason)
        self.reason, self.ok, self.refused = reason, ok, refused


class KgpClient:
    """Plays ``player`` on the server of ``options``; :meth:`run` until it stops."""

    def __init__(self, player: Player, options: ClientOptions, events: Events | None = None) -> None:
        self.player = player
        self.options = options
        self.events = events or (lambda kind, text: None)
        self.thinker = Thinker(player)
        self.report = ClientReport("not started")
        self._game_key: object = None
        self._last_stores = -1
        self._game_over = False
        self._decision: tuple[int, threading.Event] | None = None  # the state being decided, its stop flag
        self._thinking: asyncio.Task[None] | None = None
        self._next_id = 1
        self._pending_stop: _Stop | None = None  # set by a decision that ends the run; the session raises it
        self._game_began = False  # on this connection: a connection that never got a state counts as a failure

    async def run(self) -> ClientReport:
        """Connect, play, reconnect after losses; returns why it stopped."""
        failures = 0
        pause = self.options.backoff_first
        while True:
            try:
                connection = await open_connection(self.options.server)
            except RefusedError as error:
                refused: RefusedError | None = error
                reason = f"{self.options.server}: {error}"
            except (TimeoutError, OSError, KgpError) as error:
                refused = None
                reason = f"cannot reach {self.options.server}: {_describe(error)}"
            else:
                refused = None
                played = await self._connected(connection)
                if played is None:
                    return self.report
                reason, began = played
                if began:
                    # A connection that played is no failed attempt: the next one starts a fresh count.
                    failures, pause = 0, self.options.backoff_first
                    self.events("retry", f"{reason}; connecting again in {pause:g} s")
                    await asyncio.sleep(pause)
                    continue
                # A server that accepts and hangs up at once would otherwise be called again forever.
                reason += " before a game began"
            failures += 1
            if failures > self.options.retries:
                # Counted as --retries counts them: the attempts after the first failure.
                retried = failures - 1
                detail = (
                    f"{failures} attempts: the first and {plural(retried, 'retry', 'retries')}"
                    if retried
                    else "1 attempt, no retries"
                )
                self.report.reason, self.report.ok = f"{reason} (gave up after {detail})", False
                self.report.refused = refused is not None
                return self.report
            self.events("retry", f"{reason}; trying again in {pause:g} s")
            await asyncio.sleep(pause)
            pause = min(pause * 2, BACKOFF_LAST)

    async def _connected(self, connection: Connection) -> tuple[str, bool] | None:
        """Play on one connection: why it ended and whether a game began on it, or None when the run ends."""
        self.events("connected", f"connected to {self.options.server}")
        self._game_began = False
        try:
            await self._session(connection)
            reason = "the server closed the connection"
        except _Stop as stop:
            self.report.reason, self.report.ok, self.report.refused = stop.reason, stop.ok, stop.refused
            return None
        except (TimeoutError, OSError, LineError) as error:
            reason = f"connection lost: {_describe(error)}"
        finally:
            await self._abandon(raise_pending=False)
            await connection.close()
        return reason, self._game_began

    # --- one connection ---------------------------------------------------------

    async def _session(self, connection: Connection) -> None:
        self._connection = connection
        self._greeted = False
        self._refusal: str | None = None  # an error before any game: the server turning this agent away
        while True:
            if self._greeted:
                line = await connection.read_line()
            else:
                line = await self._greeting(connection)
            if self._pending_stop is not None:
                raise self._pending_stop
            if line is None:
                if self._refusal is not None:
                    raise _Stop(f"the server refused this agent: {self._refusal}", ok=False, refused=True)
                return
            try:
                command = parse_line(line)
            except KgpSyntaxError as error:
                self.events("error", f"ignored a line from the server: {error}")
                continue
            await self._handle(command)

    def _port_hint(self) -> str:
        return (
            f"is {self.options.server} a KGP port? (kalah arena serve takes agents on its KGP port, 2671 by "
            "default, or at ws://HOST:WEBPORT/socket)"
        )

    async def _greeting(self, connection: Connection) -> str | None:
        """The server's first line, within :data:`GREETING_SECONDS`: a KGP server greets at once, a web
        server (the class server's web port instead of its KGP port) waits for a request."""
        hint = self._port_hint()
        try:
            line = await asyncio.wait_for(connection.read_line(), GREETING_SECONDS)
        except TimeoutError:
            raise _Stop(f"no KGP greeting within {GREETING_SECONDS:g} s: {hint}", ok=False, refused=True) from None
        if line is not None and line.startswith("HTTP/"):
            raise _Stop(f"the server answered as a web server does, not in KGP: {hint}", ok=False, refused=True)
        return line

    async def _send(self, name: str, *args: object, ref: int | None = None) -> None:
        ident = self._next_id
        self._next_id += 2  # odd ids: the server's ids never meet ours in a log
        await self._connection.send_line(format_command(name, *args, id=ident, ref=ref))  # type: ignore[arg-type]

    async def _handle(self, command: Command) -> None:
        name = command.name
        if name == "kgp":
            self._greeted = True
            await self._greet(command)
        elif name == "ping":
            await self._send("pong", *command.args[:1], ref=command.id)
        elif name == "state":
            await self._state(command)
        elif name == "stop":
            if self._decision is not None and self._decision[0] == command.ref:
                self._decision[1].set()
                self.thinker.interrupt()
        elif name == "set":
            if command.text(0) == "game:id":
                self._game_named(command.text(1))
            elif command.text(0) == GAME_RESULT:  # kalah arena serve says when a game ends: "ID win 40-32"
                told = parse_game_result(command.text(1) or "")
                if told is None:  # said otherwise than this server says it: passed on as it is
                    self.events("result", f"game result: {command.text(1)}")
                self._finish_game(None if told is None else (told.outcome, told.scores))
                await self._check_games_done()
        elif name == "error":
            message = command.text(0) or "(no message)"
            self.report.errors.append(message)
            self.events("error", f"the server says: {message}")
            if not self._game_began:
                self._refusal = message
        elif name == "goodbye":
            if self._refusal is not None and not self._game_began:
                raise _Stop(f"the server refused this agent: {self._refusal}", ok=False, refused=True)
            raise _Stop("the server said goodbye")
        # ok, pong and commands of later versions need no answer

    async def _greet(self, command: Command) -> None:
        version = command.args
        if not version or not isinstance(version[0], int) or version[0] != PROTOCOL_MAJOR:
            await self._send(
                "error", f"protocol version {version[0] if version else '?'} is not supported", ref=command.id
            )
            raise _Stop(
                f"the server speaks KGP {'.'.join(map(str, version))}; this client speaks {PROTOCOL_MAJOR}.x", ok=False
            )
        for key, value in (
            ("info:name", self.options.name),
            ("info:authors", self.options.authors),
            ("info:description", self.options.description),
            ("auth:token", self.options.token),
        ):
            if value:
                await self._send("set", Word(key), value)
        await self._send("mode", self.options.mode)

    async def _state(self, command: Command) -> None:
        board = command.args[0] if command.args else None
        if not isinstance(board, Board) or command.id is None:
            self.events("error", "ignored a state without an id or a board")
            return
        try:
            position = position_from_board(board)
        except UnsupportedBoardError as error:
            await self._send("error", str(error), ref=command.id)
            raise _Stop(f"the server plays a board this build cannot: {error}", ok=False) from None
        await self._abandon()
        self._game_began = True
        self._track_game(board)
        if self._all_played():
            raise self._all_played_stop()
        stopped = threading.Event()
        self._decision = (command.id, stopped)
        self._thinking = asyncio.create_task(self._decide(command.id, position, stopped))

    async def _decide(self, state_id: int, position: Position, stopped: threading.Event) -> None:
        loop = asyncio.get_running_loop()
        evaluate = self.options.mode == "eval"
        last: list[Move] = []

        def report(move: Move, value: float | int | None) -> None:
            if stopped.is_set():
                return
            last[:] = [move]
            argument: int | float = float(value or 0.0) if evaluate else move_to_wire(move)
            asyncio.run_coroutine_threadsafe(self._send("eval" if evaluate else "move", argument, ref=state_id), loop)

        try:
            await asyncio.to_thread(self.thinker.think, position, report, stopped, evaluate)
        except Exception as error:  # a player that fails (an exec: program that died): say so, do not hang
            await self._end_run(_Stop(f"the player failed: {_describe(error)}", ok=False))
            return
        if stopped.is_set():
            return
        self.report.decisions += 1
        final = position.play(last[0]) if not evaluate and last else None
        if final is not None and final.is_over:
            outcome, scores = Outcome.of(final), final.scores
            assert outcome is not None and scores is not None  # a finished game has them
            self._finish_game((outcome, scores))  # this agent is player 0 (south, the mover)
        await self._send("stop" if evaluate else "yield", ref=state_id)
        await self._check_games_done()

    def _all_played(self) -> bool:
        return self.options.games is not None and self.report.games >= self.options.games

    def _all_played_stop(self) -> _Stop:
        self.report.all_played = True
        return _Stop(f"played {plural(self.report.games, 'game')}")

    async def _check_games_done(self) -> None:
        if self._all_played():
            await self._end_run(self._all_played_stop())

    async def _end_run(self, stop: _Stop) -> None:
        """End the run from a decision's task: the session sees the closed connection and raises ``stop``."""
        self._pending_stop = stop
        await self._connection.close()

    async def _abandon(self, raise_pending: bool = True) -> None:
        """Stop the decision under way and wait until its thread has returned."""
        task, decision = self._thinking, self._decision
        self._thinking = self._decision = None
        if decision is not None:
            decision[1].set()
        while task is not None and not task.done():
            self.thinker.interrupt()  # again until seen: the search may not have started yet
            await asyncio.wait([task], timeout=0.005)
        if task is not None and not task.cancelled():
            task.exception()  # retrieved: a send that failed on a closed connection is no news
        if raise_pending and self._pending_stop is not None:
            raise self._pending_stop

    # --- games --------------------------------------------------------------------

    def _track_game(self, board: Board) -> None:
        stores = board.south_store + board.north_store
        if not isinstance(self._game_key, tuple):  # the server names no games: infer them
            if self._game_key is None or self._game_over or self._game_key != board.size or stores < self._last_stores:
                self._begin_game(board.size)
        self._last_stores = stores

    def _game_named(self, name: str | None) -> None:
        key = ("id", name)
        if key != self._game_key:
            self._begin_game(key)

    def _begin_game(self, key: object) -> None:
        self._finish_game()
        self._game_key, self._game_over = key, False
        if not self._all_played():  # the state of a game after the last: the run ends before it
            self.events("game", f"game {self.report.games + 1} begins")

    def _finish_game(self, result: tuple[Outcome, tuple[int, int]] | None = None) -> None:
        """Count the game under way as over, once: by the agent's last move, the server's result or the
        next game's first state, whichever comes first; ``result`` is the outcome (this agent is player 0)
        and the scores (its own first), if known."""
        if self._game_key is not None and not self._game_over:
            self._game_over = True
            self.report.games += 1
            told = ""
            if result is not None:
                outcome, (mine, theirs) = result
                word = outcome.word(0)
                self.report.outcomes[word] = self.report.outcomes.get(word, 0) + 1
                told = f": {word} {mine}-{theirs}"
            self.events("game", f"game {self.report.games} is over{told}")


def _describe(error: BaseException) -> str:
    return str(error) or type(error).__name__


def run_client(player: Player, options: ClientOptions, events: Events | None = None) -> ClientReport:
    """Run a :class:`KgpClient` until it stops (blocks)."""
    return asyncio.run(KgpClient(player, options, events).run())
