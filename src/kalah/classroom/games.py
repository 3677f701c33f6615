"""Games on the class server: two seats (agents or built-in bots), the move time, the record.

Every move goes into the game library as it is played (a finished game is
never only in memory), and the result into the agents' results table. Bots
think in a thread pool, never on the event loop, so a deep search does not
delay any agent's messages.

What happens when an agent does not play properly:

- no legal move before the move time (late, silent, only illegal moves): a
  random legal move is played for it (the protocol's rule), and the record's
  move says so (``info.kgp``: ``late``);
- an illegal move: answered with ``error`` and ignored; the agent may still
  send a legal one in time;
- the connection is lost during the game: the game is lost by forfeit (the
  record is marked stopped, with the reason, and the result counts as a loss);
- the connection is lost in a practice game before the agent's first move: the
  game is void (marked stopped, no result). An agent's client that has played
  the games it wanted leaves as its last one ends, and the queue may have
  paired it again in that moment: it knew nothing of that game.

When the game library refuses a move (a full disk, no file descriptor left),
the move is tried again a few times; then the game is abandoned
(:class:`GameAbandoned`), and its agents go on to their next game.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Protocol

from kalah.kgp import Word
from kalah.kgp.wire import GAME_RESULT, format_game_result
from kalah.players import make_player
from kalah.records import GameLibrary, LibraryError, PlayerInfo
from kalah.rules import Move, Outcome, Position, Variant
from kalah.search import search

from .agents import Agent, AgentBook
from .session import AgentSession, Disconnected

#: Built-in opponents, weakest first: (name, player spec).
BOT_LEVELS: tuple[tuple[str, str], ...] = (
    ("random", "random"),
    ("easy", "alphabeta:depth=2"),
    ("medium", "pvs:depth=5"),
    ("hard", "pvs:depth=8"),
    ("strong", "pvs:depth=12"),
)
#: Bots' search tables are small (2^16 entries): hundreds of games may run at once.
BOT_TABLE_BITS = 16
#: Seconds between the tries of a write the game library refused (then the game is abandoned).
STORE_RETRIES: tuple[float, ...] = (0.1, 0.5, 2.0)
#: The ``program`` of the server's games in the library: the games a starting server may call its own.
PROGRAM = "kalah arena serve"
#: Why a game the server stopped (or a crash cut off) during play is stopped.
INTERRUPTED = "interrupted: the server stopped during the game"
log = logging.getLogger(__name__)
#: The teacher's log: one line an event (kalah.classroom.session writes the connections' lines).
events = logging.getLogger("kalah.classroom")


def who(seat: Seat) -> str:
    """A seat's agent for the log: name and id."""
    return f"{seat.agent.name} (#{seat.agent.id})"


class GameAbandoned(Exception):
    """The game library would not take a game's moves: the game cannot go on."""


class GameVoid(Exception):
    """A practice game whose agent left before its first move: it counts for no one."""


async def _stored(write: Any, *args: Any) -> Any:
    """``write(*args)`` in a thread, tried again after each of :data:`STORE_RETRIES` when the library
    refuses it; GameAbandoned when it never takes it."""
    for delay in (*STORE_RETRIES, None):
        try:
            return await asyncio.to_thread(write, *args)
        except LibraryError as error:
            if delay is None:
                raise GameAbandoned(str(error)) from None
        await asyncio.sleep(delay)


class Seat(Protocol):
    """Who plays one side."""

    agent: Agent

    async def choose(self, position: Position, game: GameInPlay, new_game: bool) -> tuple[Move | None, dict[str, Any]]:
        """A move for ``position`` (None: none in time), and notes for the record."""


class BotSeat:
    """A built-in bot: a player spec searched in a worker thread."""

    def __init__(self, agent: Agent, spec: str, executor: Executor | None, seed: int = 0) -> None:
        self.agent, self.spec, self.executor = agent, spec, executor
        self._player = make_player(spec)
        self._seed = seed

    def _decide(self, position: Position, seconds: float) -> Move:
        algorithm = getattr(self._player, "algorithm", None)
        depth = getattr(self._player, "depth", None)
        if algorithm is None or depth is None:
            return self._player.choose_move(position)
        # Bots keep the agents' move time too (a deep bot on a big board stops at its last finished depth).
        result = search(
            position, algorithm, depth=depth, time=seconds, move_values=False, table_bits=BOT_TABLE_BITS, threads=1
        )
        assert result.best_move is not None
        return result.best_move

    async def choose(self, position: Position, game: GameInPlay, new_game: bool) -> tuple[Move | None, dict[str, Any]]:
        """A move for ``position`` (None: none in time), and notes for the record."""
        move = await asyncio.get_running_loop().run_in_executor(self.executor, self._decide, position, game.move_time)
        return move, {}


class AgentSeat:
    """A connected agent."""

    def __init__(self, session: AgentSession) -> None:
        assert session.agent is not None
        self.session, self.agent = session, session.agent

    async def choose(self, position: Position, game: GameInPlay, new_game: bool) -> tuple[Move | None, dict[str, Any]]:
        """A move for ``position`` (None: none in time), and notes for the record."""
        opponent = game.seats[1 - position.to_move].agent.name
        pending = await self.session.decide(position, game.move_time, str(game.id), opponent, new_game)
        notes: dict[str, Any] = {}
        self.session.count_late(pending.move is None, game.id, game.move_time)
        if pending.move is None:
            notes["kgp"] = "late"
        if pending.illegal:
            notes["illegal_moves"] = pending.illegal
        return pending.move, notes

    async def tell_result(self, game_id: int, side: int, final: Position) -> None:
        """``set game:result "ID win 40-32"``, the agent's score first (an extension of this server: clients
        ignore options they do not know; ``kalah kgp`` counts its games by it)."""
        outcome, scores = Outcome.of(final), final.scores
        assert outcome is not None and scores is not None  # told of games over on the board
        try:
            await self.session.send("set", Word(GAME_RESULT), format_game_result(game_id, outcome, scores, side))
        except Disconnected:
            pass


class AbsentSeat:
    """A tournament's agent that is not connected (or was stopped): it forfeits at its first turn."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    async def choose(self, position: Position, game: GameInPlay, new_game: bool) -> tuple[Move | None, dict[str, Any]]:
        """Never a move: the agent is not there."""
        raise Disconnected("not connected")


@dataclass
class GameInPlay:
    """A game being played (what the web pages show of it)."""

    id: int
    seats: tuple[Seat, Seat]
    variant: Variant
    move_time: float
    event: str
    position: Position
    moves: int = 0
    started: float = field(default_factory=time.time)
    result: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: who plays, the position, the moves so far."""
        return {
            "id": self.id,
            "event": self.event,
            "variant": self.variant.to_dict(),
            "players": [seat.agent.to_dict() for seat in self.seats],
            "position": self.position.to_dict(),
            "moves": self.moves,
            "result": self.result,
        }


async def play_game(
    seats: tuple[Seat, Seat],
    variant: Variant,
    move_time: float,
    library: GameLibrary,
    book: AgentBook,
    event: str,
    live: dict[int, GameInPlay],
    rng: random.Random,
    played_out: Callable[[int], None] | None = None,
) -> Outcome:
    """Play one game, south (``seats[0]``) first; returns how it ended (south is player 0).

    ``played_out(game_id)`` hears a game played to its end (not a forfeit): the grader's cue.
    """
    start = Position.start(variant)
    players = [PlayerInfo(seat.agent.name, f"kgp-{seat.agent.kind}:{seat.agent.id}") for seat in seats]
    tags = {"kgp": event, "south": seats[0].agent.id, "north": seats[1].agent.id}
    game_id = await _stored(lambda: library.create_game(start, players, tags=tags, program=PROGRAM))
    game = GameInPlay(game_id, seats, variant, move_time, event, start)
    live[game_id] = game
    events.info("game %d started: %s vs %s, %s, %s", game_id, who(seats[0]), who(seats[1]), variant.name, event)
    told = [False, False]
    position = start
    try:
        while not position.is_over:
            mover = position.to_move
            legal = position.legal_moves()
            began = time.monotonic()
            try:
                move, notes = await seats[mover].choose(position, game, not told[mover])
            except Disconnected as gone:
                if event == "practice" and not told[mover]:
                    reason = f"void: {seats[mover].agent.name} left before its first move ({gone})"
                    game.result = reason
                    events.info("game %d is void: %s left before its first move (%s)", game_id, who(seats[mover]), gone)
                    await _stored(library.mark_stopped, game_id, reason)
                    raise GameVoid(reason) from None
                outcome = Outcome.decided(mover, "forfeit")
                reason = f"forfeit: {seats[mover].agent.name} disconnected ({gone})"
                await asyncio.to_thread(
                    book.record_result,
                    game_id,
                    seats[0].agent.id,
                    seats[1].agent.id,
                    outcome,
                    reason,
                    event,
                    variant.name,
                )
                game.result = reason
                events.warning("game %d: %s forfeits (%s)", game_id, who(seats[mover]), gone)
                try:
                    await _stored(library.mark_stopped, game_id, reason)
                except GameAbandoned as error:  # the result is in: the record only looks unfinished
                    log.warning("game %d: cannot mark it stopped (%s)", game_id, error)
                return outcome
            told[mover] = True
            if move is None or move not in legal:
                notes["random_move"] = True
            played: Move = move if move is not None and move in legal else rng.choice(legal)
            try:
                position = await _stored(
                    library.add_move, game_id, played, round(time.monotonic() - began, 4), notes or None
                )
            except GameAbandoned as error:
                game.result = f"abandoned: {error}"
                try:  # the library may take this again: then the record does not look still played
                    await asyncio.to_thread(library.mark_stopped, game_id, game.result)
                except LibraryError:
                    pass
                raise
            game.position, game.moves = position, game.moves + 1
        ended = Outcome.of(position)
        assert ended is not None  # the loop ends with the game
        reason = f"{position.scores[0]}-{position.scores[1]}" if position.scores else "finished"
        await asyncio.to_thread(
            book.record_result, game_id, seats[0].agent.id, seats[1].agent.id, ended, reason, event, variant.name
        )
        game.result = reason
        events.info("game %d over: %s %s %s", game_id, who(seats[0]), reason, who(seats[1]))
        if played_out is not None:
            played_out(game_id)
        for side, seat in enumerate(seats):
            if isinstance(seat, AgentSeat):
                await seat.tell_result(game_id, side, position)
        return ended
    finally:
        live.pop(game_id, None)
