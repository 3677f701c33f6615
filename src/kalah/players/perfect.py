"""The perfect player: the solver's best move, the fastest win among equals.

``perfect[:time=S,threads=N,fallback=S]`` solves each position within ``time``
seconds (default 10). Among the moves of the best value it picks the one whose
principal variation ends the game soonest when winning (latest when losing or
drawing). When the position cannot be solved in time it falls back to a
time-limited principal-variation search (``kalah.search``, ``fallback``
seconds, default 2), which probes the endgame database when one is present.
"""

from __future__ import annotations

from kalah.rules import Move, Position

from .base import ComputerPlayer
from .spec import float_option, int_option, register_player


class PerfectPlayer(ComputerPlayer):
    """Plays a best move by solving each position exactly.

    Where the solve does not finish in ``time`` seconds, it plays the move a
    ``fallback``-second search finds. Among equally good moves it wins the fastest.
    """

    def __init__(self, time: float = 10.0, threads: int | None = None, fallback: float = 2.0) -> None:
        super().__init__()
        self.time = time
        self.threads = threads
        self.fallback = fallback
        self.name = "perfect"
        options = [f"time={time:g}"] + ([f"threads={threads}"] if threads else [])
        self.spec = "perfect:" + ",".join(options)

    def choose_move(self, position: Position) -> Move:
        """A move that keeps the position's exact value, or the search's move if the solve ran out of time."""
        from kalah import solve

        moves = position.legal_moves()
        if len(moves) == 1:
            self.last_info = {"forced": True}
            return moves[0]
        result = solve(position, self.time, threads=self.threads, pv=False)
        if result.exact and result.best_moves:
            move = self._fastest(position, result.value, result.best_moves)
            self.last_info = {"value": result.value, "exact": True, "best_moves": result.best_moves, "nodes": result.nodes}
            return move
        return self._search(position, result)

    def _fastest(self, position: Position, value: int, best: list[Move]) -> Move:
        """Among equally good moves: the shortest line to the end when winning, the longest otherwise."""
        if len(best) == 1:
            return best[0]
        from kalah import solve

        lengths = {}
        for move in best:
            child = position.play(move)
            if child.is_over:
                lengths[move] = 0
                continue
            line = solve(child, self.time, threads=self.threads, best_moves=False)
            if not line.exact:
                return best[0]
            lengths[move] = len(line.pv)
        if value > 0:
            return min(best, key=lambda move: lengths[move])
        return max(best, key=lambda move: lengths[move])

    def _search(self, position: Position, solved) -> Move:
        from kalah.endgame import oracle_for
        from kalah.search import search

        result = search(position, algorithm="pvs", time=self.fallback, move_values=False, oracle=oracle_for(position.variant))
        self.last_info = {"exact": False, "lower": solved.lower, "upper": solved.upper, "value": result.value}
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
