"""The class server: agents connect (TCP or WebSocket), get paired, play, get rated.

Practice mode pairs the agents waiting for a game every
:attr:`ServerConfig.pair_every` seconds, in random pairs; an agent left
without a partner plays a built-in bot of graded strength: it starts at the
weakest (``random``), goes one level up after a win and one down after a loss.
Tournament mode (:mod:`.tournament`) plays a fixed field instead.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from kalah.kgp import Connection, StreamConnection
from kalah.kgp.wire import MAX_LINE
from kalah.records import GameLibrary, LibraryError
from kalah.rules import Outcome, Variant
from kalah.web.clients import client_key

from .agents import Agent, AgentBook
from .evaluation import evaluate
from .games import (
    BOT_LEVELS,
    INTERRUPTED,
    AgentSeat,
    BotSeat,
    GameAbandoned,
    GameInPlay,
    GameVoid,
    Seat,
    play_game,
)
from .grading import MAX_PITS, Grader
from .manifest import Manifest
from .session import ANONYMOUS, AgentSession, SessionLimits

log = logging.getLogger(__name__)
#: Anonymous agents remembered for their address and name (the oldest is forgotten first).
MAX_ANONYMOUS = 10_000


class TournamentPlay(Protocol):
    """What the server knows of the tournament it runs (:class:`kalah.classroom.tournament.Tournament`)."""

    async def run(self, server: ClassServer) -> None:
        """Play the tournament on ``server``."""

    def to_dict(self) -> dict[str, Any]:
        """Its status and standings, JSON-ready."""


class SubmissionView(Protocol):
    """What the pages show of the submitted agents the server runs (:mod:`.submissions`)."""

    def to_dict(self) -> list[dict[str, object]]:
        """Each submission's state and, when out, why."""


@dataclass
class ServerConfig:
    """How the server plays."""

    variant: Variant = field(default_factory=lambda: Variant(6, 6))
    move_time: float = 5.0
    pair_every: float = 1.0
    limits: SessionLimits = field(default_factory=SessionLimits)
    practice: bool = True  # pair waiting agents (off while a tournament runs its own games)
    # A tournament's field is known by its tokens: an agent without one is told so and closed.
    require_token: bool = False
    show_anonymous: bool = False  # agents without a token on the leaderboard
    grade_seconds: float = 0.0  # grade every finished game exactly, this long a position (0: never)
    bot_threads: int = 2
    seed: int = 0


class ClassServer:
    """The agents, the games under way, and the pairing."""

    def __init__(self, config: ServerConfig, library: GameLibrary, book: AgentBook) -> None:
        self.config = config
        self.library = library
        self.book = book
        self.sessions: set[AgentSession] = set()
        self.waiting: list[AgentSession] = []
        self.live: dict[int, GameInPlay] = {}
        self.by_address: Counter[str] = Counter()
        self.new_tokens: dict[str, deque[float]] = {}  # when each address last showed new tokens
        self.new_anonymous: dict[str, deque[float]] = {}  # when each address last made anonymous agents
        self.anonymous: dict[tuple[str, str], Agent] = {}  # by address and name
        self.bot_level: dict[int, int] = {}
        self.rng = random.Random(config.seed)
        self.executor = ThreadPoolExecutor(max_workers=config.bot_threads, thread_name_prefix="kalah-bot")
        self.tasks: set[asyncio.Task[object]] = set()
        self.connection_tasks: set[asyncio.Task[object]] = set()  # TCP connections, each served by a task
        self.games_played = 0
        self.grader = Grader(library, book, config.grade_seconds) if config.grade_seconds > 0 else None
        self.tournament: TournamentPlay | None = None
        self.submissions: SubmissionView | None = (
            None  # the submitted agents it runs (--agents)  # what /tournament shows (a Tournament; set by run.serve)
        )
        #: Called when a submitted agent (run by the server) signed in (:mod:`.submissions`).
        self.submission_ready: Callable[[AgentSession], None] | None = None
        self._arrived = asyncio.Event()  # an agent began to wait, or one was excluded (see next_change)
        self._bots: dict[str, Agent] = {}
        self._bots_failing = False

    # --- connections -------------------------------------------------------------------

    async def serve_connection(self, connection: Connection, submission: Manifest | None = None) -> None:
        """Serve one agent's connection until it closes (TCP, WebSocket and a submission's socket alike).

        A connection over a submitted agent's own socket is that agent: it signs in with its manifest's
        name and token, whatever it sends.
        """
        session = AgentSession(self, connection, self.config.limits)
        session.submission = submission
        address = client_key(connection.peer)  # an IPv6 client has a whole /64 to connect from
        log.info("connection from %s", connection.peer or "an unknown address")
        if self.by_address[address] >= self.config.limits.max_per_address:
            await session.refuse(
                f"too many connections from your address (at most {self.config.limits.max_per_address})"
            )
            return
        self.by_address[address] += 1
        self.sessions.add(session)
        try:
            await session.run()
        finally:
            self.sessions.discard(session)
            if session in self.waiting:
                self.waiting.remove(session)
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]

    async def handle_tcp(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """asyncio's callback for a TCP connection."""
        task = asyncio.current_task()
        if task is not None:
            self.connection_tasks.add(task)
        try:
            await self.serve_connection(StreamConnection(reader, writer))
        except asyncio.CancelledError:
            # Python 3.11's callback on this task asks a cancelled task for its exception and logs the
            # CancelledError as an error ("Exception in callback ..."): a shutdown ends it quietly instead.
            writer.close()
        finally:
            if task is not None:
                self.connection_tasks.discard(task)

    async def start_tcp(self, host: str, port: int) -> asyncio.Server:
        """Listen for agents over TCP."""
        return await asyncio.start_server(self.handle_tcp, host, port, limit=4 * MAX_LINE + 2)

    async def sign_in(self, session: AgentSession) -> str | None:
        """Give the session its agent; returns why it is refused, or None.

        An anonymous agent that comes back from the same address with the same name, while its agent is not
        playing on another connection, is the same agent again (while the server runs): a loop of short
        connections made a row of the agents' table each, on the leaderboard for ever.
        """
        limits = self.config.limits
        address = client_key(session.connection.peer)
        if session.submission is not None:
            session.name, session.token = session.submission.name, session.submission.token
        if session.token is None and self.config.require_token:
            return "the tournament needs set auth:token"
        # "anonymous", the name of those that send none, belongs to nobody
        if session.name != ANONYMOUS and await asyncio.to_thread(self.book.name_taken, session.name, session.token):
            return f"the name {session.name!r} belongs to another agent's token: choose another name"
        if session.token is None:
            key = (address, session.name)
            known = self.anonymous.get(key)
            if known is not None and not any(other.agent == known for other in self.sessions if other is not session):
                session.agent = known
                return None
            if not self._allow(self.new_anonymous, address, limits.new_anonymous_per_minute):
                return (
                    f"too many new anonymous agents from your address (at most {limits.new_anonymous_per_minute}"
                    " a minute): send a token (set auth:token)"
                )
        elif not await asyncio.to_thread(self.book.known_token, session.token):
            if not self._allow(self.new_tokens, address, limits.new_tokens_per_minute):
                return f"too many new tokens from your address (at most {limits.new_tokens_per_minute} a minute)"
        session.agent = await asyncio.to_thread(
            self.book.sign_in, session.token, session.name, session.authors, session.description
        )
        if session.token is None:
            if len(self.anonymous) >= MAX_ANONYMOUS:
                del self.anonymous[next(iter(self.anonymous))]  # the one that came first
            self.anonymous[(address, session.name)] = session.agent
        return None

    @staticmethod
    def _allow(recent_by_address: dict[str, deque[float]], address: str, per_minute: int) -> bool:
        """Whether ``address`` may have one more of what ``recent_by_address`` counts this minute (counted)."""
        recent = recent_by_address.setdefault(address, deque())
        now = time.monotonic()
        while recent and now - recent[0] > 60:
            recent.popleft()
        if len(recent) >= per_minute:
            return False
        recent.append(now)
        return True

    def agent_ready(self, session: AgentSession) -> None:
        """The session chose freeplay: it waits for a game."""
        if session not in self.waiting and not session.closed.is_set():
            self.waiting.append(session)
            if session.submission is not None and self.submission_ready is not None:
                self.submission_ready(session)
            self.wake()

    def evaluate(self, session: AgentSession) -> str | None:
        """Grade the session's decisions on proven positions (KGP ``mode eval``, :mod:`.evaluation`)."""
        if self.config.variant.pits > MAX_PITS:
            return f"mode eval needs a board of at most {MAX_PITS} pits (the solver's); this server plays more"
        if self.config.require_token:
            return "a tournament plays freeplay only"
        task = asyncio.get_running_loop().create_task(
            evaluate(session, self.config.variant, self.config.move_time, self.rng.randrange(2**31))
        )
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return None

    def wake(self) -> None:
        """Tell whoever waits in :meth:`next_change` that the agents changed."""
        self._arrived.set()

    async def next_change(self, timeout: float | None) -> None:
        """Wait until an agent begins to wait for a game (or :meth:`wake`), at most ``timeout`` seconds."""
        self._arrived.clear()
        try:
            await asyncio.wait_for(self._arrived.wait(), timeout)
        except TimeoutError:
            pass

    def take_waiting(self, sessions: list[AgentSession]) -> None:
        """Take ``sessions`` out of the queue (a tournament seats them itself)."""
        for session in sessions:
            if session in self.waiting:
                self.waiting.remove(session)

    def session_of(self, agent_id: int) -> AgentSession | None:
        """The newest open connection of the agent ``agent_id``, or None."""
        found = [s for s in self.sessions if s.agent is not None and s.agent.id == agent_id and not s.closed.is_set()]
        return max(found, key=lambda s: s.opened) if found else None

    # --- practice ----------------------------------------------------------------------

    async def practice_loop(self) -> None:
        """Pair waiting agents for ever, and store the results the database refused (cancel the task to stop)."""
        while True:
            await asyncio.sleep(self.config.pair_every)
            if self.config.practice:
                self.pair_waiting()
            if self.book.unsaved:
                await asyncio.to_thread(self.book.store_unsaved)

    def pair_waiting(self) -> None:
        """Start games for the agents waiting now: in random pairs, the one left over against a bot."""
        ready = [session for session in self.waiting if not session.closed.is_set()]
        self.waiting.clear()
        self.rng.shuffle(ready)
        while len(ready) >= 2:
            first, second = ready.pop(), ready.pop()
            self.start_game((AgentSeat(first), AgentSeat(second)), [first, second])
        if ready:
            session = ready.pop()
            assert session.agent is not None
            try:
                bot = self.bot_seat(self.bot_level.get(session.agent.id, 0))
            except LibraryError as error:  # it waits for the next round (an exception here stopped all pairing)
                self.waiting.append(session)
                if not self._bots_failing:
                    log.warning("cannot make a bot's agent, %s waits: %s", session.agent.name, error)
                self._bots_failing = True
                return
            self._bots_failing = False
            seats: tuple[Seat, Seat] = (AgentSeat(session), bot)
            if self.rng.random() < 0.5:
                seats = (bot, AgentSeat(session))
            self.start_game(seats, [session])

    def bot_seat(self, level: int) -> BotSeat:
        """A built-in bot of ``level`` (0 = random .. the strongest)."""
        name, spec = BOT_LEVELS[max(0, min(level, len(BOT_LEVELS) - 1))]
        agent = self._bots.get(name)
        if agent is None:  # once: this runs on the event loop
            agent = self._bots[name] = self.book.bot(f"bot-{name}", spec)
        if spec == "random":  # seeded from the server's generator: a server run with a seed replays
            spec = f"random:seed={self.rng.randrange(2**31)}"
        return BotSeat(agent, spec, self.executor)

    def start_game(
        self,
        seats: tuple[Seat, Seat],
        sessions: list[AgentSession],
        event: str = "practice",
        variant: Variant | None = None,
    ) -> asyncio.Task[Outcome | None]:
        """Play a game in a task; its agents wait for the next game when it ends.

        The task's result is how it ended (south is player 0), or None when the game was abandoned (the
        library refused it).
        """
        for session in sessions:
            session.in_game = True

        async def run() -> Outcome | None:
            # A game that fails must still give its agents back: they were stranded, never paired again.
            outcome: Outcome | None = None
            try:
                outcome = await play_game(
                    seats,
                    variant or self.config.variant,
                    self.config.move_time,
                    self.library,
                    self.book,
                    event,
                    self.live,
                    self.rng,
                    self._grade(seats),
                )
            except GameAbandoned as error:
                log.warning("abandoned a game of %s: %s", " and ".join(s.agent.name for s in seats), error)
            except GameVoid:
                pass  # logged: nobody lost it
            except Exception:
                log.exception("a game of %s failed", " and ".join(s.agent.name for s in seats))
            finally:
                for session in sessions:
                    session.in_game = False
            if outcome is not None:
                self.games_played += 1
                self._adjust_levels(seats, outcome)
            if event == "practice":
                for session in sessions:
                    self.agent_ready(session)
            return outcome

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def _grade(self, seats: tuple[Seat, Seat]) -> Callable[[int], None] | None:
        grader = self.grader
        if grader is None:
            return None
        return lambda game_id: grader.add(game_id, seats[0].agent.id, seats[1].agent.id)

    def _adjust_levels(self, seats: tuple[Seat, Seat], outcome: Outcome) -> None:
        for side, seat in enumerate(seats):
            other = seats[1 - side]
            if isinstance(other, BotSeat) and isinstance(seat, AgentSeat):
                score = outcome.score(side)
                level = self.bot_level.get(seat.agent.id, 0)
                self.bot_level[seat.agent.id] = max(
                    0, min(len(BOT_LEVELS) - 1, level + (1 if score > 0.5 else -1 if score < 0.5 else 0))
                )

    async def close(self) -> None:
        """Stop the games (marked stopped in the library: they never go on) and connections."""
        interrupted = list(self.live)
        games = list(self.tasks)
        for task in games:
            task.cancel()
        for session in list(self.sessions):
            await session.connection.close()
        connections = list(self.connection_tasks)
        for task in connections:
            task.cancel()
        # Awaited here, not left to asyncio.run's final cancelling, which logs what they raise as errors.
        if games or connections:
            await asyncio.wait([*games, *connections], timeout=5)
        for game_id in interrupted:
            try:
                await asyncio.to_thread(self.library.mark_stopped, game_id, INTERRUPTED)
            except LibraryError as error:  # the next start marks it (kalah.classroom.run)
                log.warning("game %d: cannot mark it stopped (%s)", game_id, error)
        self.executor.shutdown(wait=False, cancel_futures=True)
        if self.grader is not None:
            self.grader.close()
        if self.book.unsaved and not await asyncio.to_thread(self.book.store_unsaved):
            log.error(
                "stopped with %d game results the database did not take: %s keeps them for the next start",
                self.book.unsaved,
                self.book.journal.path,
            )
        self.book.close()
