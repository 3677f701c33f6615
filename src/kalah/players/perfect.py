"""The perfect player: the solver's best move, the fastest win among equals.

``perfect[:time=S,threads=N,fallback=S]`` solves each position within ``time``
seconds (default 10). Among the moves of the best value it picks the one whose
principal variation ends the game soonest when winning (latest when losing or
drawing). When the position cannot be solved in time it falls back to a
time-limited principal-variation search (``kalah.search``, ``fallback``
seconds, default 2), which probes the endgame database when one is present.
"""

from __future__ import annotations

import time

from kalah.rules import Move, Position
from kalah.endgame import oracle_for
from kalah.search import search
from kalah.solve import SolveResult, solve

from .base import ComputerPlayer
from .spec import float_option, int_option, register_player


class PerfectPlayer(ComputerPlayer):
    """Plays perfectly where the solver proves the value in time, else the best move of a search."""

    def __init__(self, time: float = 10.0, threads: int | None = None, fallback: float = 2.0) -> None:
        super().__init__()
        self.time = time
        self.threads = threads
        self.fallback = fallback
        self.name = "perfect"
        options = [f"time={time:g}"] + ([f"threads={threads}"] if threads else [])
        self.spec = "perfect:" + ",".join(options)

    def choose_move(self, position: Position) -> Move:
        """A best move by the solver (the fastest win or the slowest loss), or by a search if time runs out."""
        moves = position.legal_moves()
        if len(moves) == 1:
            self.last_info = {"forced": True}
            return moves[0]
        deadline = time.monotonic() + self.time
        result = solve(position, self.time, threads=self.threads, pv=False)
        if result.value is not None and result.best_moves:
            move = self._fastest(position, result.value, result.best_moves, deadline)
            self.last_info = {"value": result.value, "exact": True, "best_moves": result.best_moves, "nodes": result.nodes}
            return move
        return self._search(position, result)

    def _fastest(self, position: Position, value: int, best: list[Move], deadline: float) -> Move:
        """Among equally good moves: the shortest line to the end when winning, the longest otherwise
        (as far as the time left allows: the moves not measured by ``deadline`` are not candidates)."""
        if len(best) == 1:
            return best[0]
        lengths = {}
        for move in best:
            child = position.play(move)
            if child.is_over:
                lengths[move] = 0
                continue
            left = deadline - time.monotonic()
            if left <= 0.01:
                break
            line = solve(child, left, threads=self.threads, best_moves=False)
            if not line.exact:
                return best[0]
            lengths[move] = len(line.pv)
        measured = [move for move in best if move in lengths] or best[:1]
        if value > 0:
            return min(measured, key=lambda move: lengths.get(move, 0))
        return max(measured, key=lambda move: lengths.get(move, 0))

    def _search(self, position: Position, solved: SolveResult) -> Move:
        result = search(position, algorithm="pvs", time=self.fallback, move_values=False, oracle=oracle_for(position.variant))
        self.last_info = {"exact": False, "lower": solved.lower, "upper": solved.upper, "value": result.value}
        assert result.best_move is not None  # the position is not over: the player was asked to move
        return result.best_move


def _perfect_player(time: str | None = None, threads: str | None = None, fallback: str | None = None) -> PerfectPlayer:
    return PerfectPlayer(
        float_option("time", time, 10.0),
        int_option("threads", threads, None, minimum=1),
        float_option("fallback", fallback, 2.0),
    )


register_player(
    "perfect",
    _perfect_player,
    "the exact solver's best move (fastest win), a time-limited search when it cannot solve in time",
    "time=S, threads=N, fallback=S",
)
