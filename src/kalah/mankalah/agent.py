"""A ManKalah agent: our players behind the protocol, over any text streams.

:class:`Agent` is the protocol as a state machine (a line in, the lines to
answer out), so it is tested without processes; :func:`run_agent` drives it
over a pair of streams (``kalah mankalah`` uses stdin and stdout).

The agent keeps its own position (``kalah.rules``) and its player number
(0 if it started as South). Every ``CHANGE`` replaces the position by the
engine's state, read through :func:`~kalah.mankalah.protocol.position_of`
with the swap flag, so it follows the engine even where the two would
disagree. Whatever its player answers, only a legal move is ever sent.

:class:`MankalahEngine` is the default player: a time-limited search
(``kalah.search`` with ``pvs`` and the strong evaluation). Its swap
decision is the search's own: at North's first turn the swap is one of the
root moves, so the search compares the position after the swap (its value
for the opponent, who then moves, with the sign turned) with every pit move.
Its clock: each move may use ``move_time`` (default 1/100 of the hour, 36
s), but never more than a tenth of what is left of 90% of the total time,
so the hour is never used up however long the game.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TextIO

from kalah.players.base import ComputerPlayer, Player
from kalah.rules import SWAP, KalahError, Move, Position, Variant

from .protocol import (
    MANKALAH,
    SOUTH,
    Change,
    End,
    ProtocolError,
    Start,
    format_agent_move,
    parse_engine_message,
    position_of,
)

TOTAL_TIME = 3600.0
MOVE_SHARE = 1 / 100
RESERVE = 0.10


class ConnectionClosed(KalahError):
    """The engine closed the connection before the match was over."""


class TimeBudget:
    """How long the next move may take, out of the match's total time."""

    def __init__(self, total: float = TOTAL_TIME, move_time: float | None = None) -> None:
        if total <= 0:
            raise KalahError(f"the total time must be positive, got {total}")
        self.total = float(total)
        self.move_time = float(move_time) if move_time is not None else self.total * MOVE_SHARE
        if self.move_time <= 0:
            raise KalahError(f"the time per move must be positive, got {move_time}")
        self.used = 0.0

    def allowance(self) -> float:
        """Seconds the next move may take: a tenth of what is left after the reserve, at most the move limit."""
        usable = self.total * (1 - RESERVE) - self.used
        return max(0.01, min(self.move_time, usable / 10))

    def spend(self, seconds: float) -> None:
        """Count ``seconds`` as used."""
        self.used += seconds


class MankalahEngine(ComputerPlayer):
    """A time-managed search player for protocol matches (see the module docstring)."""

    def __init__(self, budget: TimeBudget | None = None) -> None:
        super().__init__()
        self.budget = budget or TimeBudget()
        self.name = "kalah mankalah engine"
        self.spec = "mankalah"

    def choose_move(self, position: Position) -> Move:
        """The move of a search timed by the budget, from the game's position."""
        seconds = self.budget.allowance()
        began = time.perf_counter()
        try:
            move, info = self._think(position, seconds)
        finally:
            self.budget.spend(time.perf_counter() - began)
        self.last_info = info
        return move

    def _think(self, position: Position, seconds: float) -> tuple[Move, dict]:
        legal = position.legal_moves()
        if len(legal) == 1:
            return legal[0], {"forced": True}
        from kalah.search import search

        result = search(position, algorithm="pvs", time=seconds * 0.9, evaluation="strong", move_values=True)
        values = {m.move: m.value for m in result.moves}
        info = {"value": result.value, "depth": result.depth, "exact": result.exact}
        if SWAP in values:
            info["swap_value"] = values[SWAP]
            info["best_pit_value"] = max((v for m, v in values.items() if m != SWAP and v is not None), default=None)
        move = result.best_move if result.best_move in legal else legal[0]
        return move, info


class Agent:
    """The protocol as a state machine: ``handle(line)`` returns the lines to send."""

    def __init__(self, player: Player, variant: Variant = MANKALAH) -> None:
        self.player = player
        self.variant = variant
        self.me: int | None = None  # 0 if we started as South
        self.swapped = False
        self.position: Position | None = None
        self.game_over = False
        self.match_over = False
        self.moves_sent = 0
        self.thinking = 0.0  # seconds spent choosing moves

    def handle(self, line: str) -> list[str]:
        """Answer one message of the game server: the lines to send back (none when it is not our turn)."""
        if self.match_over:
            raise ProtocolError(f"message {line.strip()!r} after END")
        message = parse_engine_message(line, self.variant)
        if isinstance(message, End):
            self.match_over = True
            return []
        if isinstance(message, Start):
            if self.me is not None:
                raise ProtocolError("a second START message")
            self.me = 0 if message.side == SOUTH else 1
            self.position = Position.start(self.variant)
            return [self._answer()] if self.me == 0 else []
        assert isinstance(message, Change)
        if self.me is None:
            raise ProtocolError("a CHANGE message before START")
        if self.game_over:
            raise ProtocolError("a CHANGE message after the game ended")
        if message.move == "SWAP":
            if self.swapped or self.me != 0:
                raise ProtocolError("the engine reports a swap that cannot have happened")
            self.swapped = True
        if message.turn == "END":
            self.game_over = True
            self.position = position_of(message.state, self.swapped, 0, self.variant)
            return []
        to_move = self.me if message.turn == "YOU" else 1 - self.me
        self.position = position_of(message.state, self.swapped, to_move, self.variant)
        if self.position.is_over:
            raise ProtocolError(f"the engine says {message.turn} but the game in its state is over")
        return [self._answer()] if message.turn == "YOU" else []

    def _answer(self) -> str:
        assert self.position is not None
        legal = self.position.legal_moves()
        began = time.perf_counter()
        try:
            move = self.player.choose_move(self.position)
        except KalahError:
            move = None
        self.thinking += time.perf_counter() - began
        if move not in legal:
            move = legal[0]  # never send an illegal move, whatever the player did
        if move == SWAP:
            self.position = self.position.play(SWAP)
            self.swapped = True  # the engine sends the swapper no echo
        self.moves_sent += 1
        return format_agent_move(move)


def run_agent(
    player: Player,
    input: TextIO | Iterable[str],
    output: TextIO,
    variant: Variant = MANKALAH,
    log: Callable[[str], None] | None = None,
) -> Agent:
    """Play one ManKalah match over text streams; returns the agent when the engine says END.

    Raises :class:`ProtocolError` for a message that does not parse and
    :class:`ConnectionClosed` if the input ends, or the output breaks,
    before the match is over.
    """
    agent = Agent(player, variant)
    for line in input:
        if not line.strip():
            continue
        if log is not None:
            log(f"< {line.rstrip()}")
        for answer in agent.handle(line):
            if log is not None:
                log(f"> {answer}")
            try:
                output.write(answer + "\n")
                output.flush()
            except (BrokenPipeError, OSError, ValueError):
                raise ConnectionClosed("the engine closed the connection (cannot send our move)") from None
        if agent.match_over:
            return agent
    if agent.game_over:
        return agent  # the game was over; only the final END was missing
    raise ConnectionClosed("the engine closed the connection before the match was over")
