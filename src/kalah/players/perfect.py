"""The perfect player: the solver's best move, the fastest win among equals.

``perfect[:time=S,threads=N,fallback=S,book=on|off]`` first looks the
position up in the opening book of its variant that ships in the package
(:mod:`kalah.book`: moves chosen by the same rule with unlimited time;
``book=off`` skips it), else solves it within ``time`` seconds (default 10).
Among the moves of the best value it picks the one whose principal variation ends the game soonest when winning (latest when losing or
drawing). When the position cannot be solved in time it falls back to a
time-limited principal-variation search (``kalah.search``, ``fallback``
seconds, default 2), which probes the endgame database when one is present.
Boards beyond the solver's (more than 8 pits or 255 seeds) get that search at once.

``choose_move_until(position, stop)`` is the same decision, ended early (None)
when ``stop`` is set: the solve stops as at its deadline and the search
through :meth:`PerfectPlayer.interrupt` (the KGP client's ``stop``).
"""

from __future__ import annotations

import threading
import time

from kalah.book import fastest_move, lookup
from kalah.core.builds import Engine, needs_big
from kalah.endgame import oracle_for
from kalah.rules import Move, Position
from kalah.search import search
from kalah.solve import SolveResult, solve

from .base import ComputerPlayer
from .spec import PlayerSpecError, float_option, int_option, register_player


class PerfectPlayer(ComputerPlayer):
    """Plays perfectly where the solver proves the value in time, else the best move of a search."""

    transient = ("_engine",)

    def __init__(
        self, time: float = 10.0, threads: int | None = None, fallback: float = 2.0, book: bool = True
    ) -> None:
        super().__init__()
        self.time = time
        self.threads = threads
        self.fallback = fallback
        self.book = book
        #: Moves answered from the opening book so far.
        self.book_moves = 0
        self.name = "perfect"
        self._engine: Engine | None = None  # the fallback search's, which interrupt() stops
        options = [f"time={time:g}"] + ([f"threads={threads}"] if threads else []) + ([] if book else ["book=off"])
        self.spec = "perfect:" + ",".join(options)

    def choose_move(self, position: Position) -> Move:
        """A best move by the solver (the fastest win or the slowest loss), or by a search if time runs out."""
        return self._choose(position, threading.Event())

    def choose_move_until(self, position: Position, stop: threading.Event) -> Move | None:
        """:meth:`choose_move`, or None soon after ``stop`` is set (from another thread; call
        :meth:`interrupt` then too, for the search)."""
        move = self._choose(position, stop)
        return None if stop.is_set() else move

    def interrupt(self) -> None:
        """Stop the fallback search under way (from any thread); the solve watches its ``stop`` event."""
        if self._engine is not None:
            self._engine.stop()

    def _choose(self, position: Position, stop: threading.Event) -> Move:
        moves = position.legal_moves()
        if len(moves) == 1:
            self.last_info = {"forced": True}
            return moves[0]
        entry = lookup(position) if self.book else None
        if entry is not None:
            self.book_moves += 1
            self.last_info = {"value": entry.value, "exact": True, "best_moves": list(entry.best_moves), "book": True}
            return entry.move
        if needs_big(position):  # beyond the solver: the search alone
            self.last_info = {"exact": False}
            return self._search(position, None, stop)
        deadline = time.monotonic() + self.time
        result = solve(position, self.time, threads=self.threads, pv=False, stop=stop)
        if result.value is not None and result.best_moves:
            move = (
                result.best_moves[0]
                if stop.is_set()
                else self._fastest(position, result.value, result.best_moves, deadline)
            )
            self.last_info = {
                "value": result.value,
                "exact": True,
                "best_moves": result.best_moves,
                "nodes": result.nodes,
            }
            return move
        if stop.is_set():  # no time for the search: the solve's heuristic guess, else any move
            return result.unproven_best_move if result.unproven_best_move is not None else moves[0]
        return self._search(position, result, stop)

    def _fastest(self, position: Position, value: int, best: list[Move], deadline: float) -> Move:
        """Among equally good moves: the shortest line to the end when winning, the longest otherwise
        (as far as the time left allows: the moves not measured by ``deadline`` are not candidates).
        The rule is :func:`kalah.book.fastest_move`, which built the book's moves."""
        return fastest_move(position, value, best, deadline=deadline, threads=self.threads)

    def _search(self, position: Position, solved: SolveResult | None, stop: threading.Event) -> Move:
        if stop.is_set():  # stopped already: interrupt() would find no search to stop
            return position.legal_moves()[0]
        if self._engine is None:
            self._engine = Engine(20)
        oracle = oracle_for(position.variant) if not needs_big(position) else None
        result = search(
            position, algorithm="pvs", time=self.fallback, move_values=False, oracle=oracle, engine=self._engine
        )
        bounds = {"lower": solved.lower, "upper": solved.upper} if solved is not None else {}
        self.last_info = {"exact": False, **bounds, "value": result.value}
        assert result.best_move is not None  # the position is not over: the player was asked to move
        return result.best_move


def _perfect_player(
    time: str | None = None, threads: str | None = None, fallback: str | None = None, book: str | None = None
) -> PerfectPlayer:
    return PerfectPlayer(
        float_option("time", time, 10.0),
        int_option("threads", threads, None, minimum=1),
        float_option("fallback", fallback, 2.0),
        _switch("book", book, True),
    )


def _switch(name: str, value: str | None, default: bool) -> bool:
    if value is None:
        return default
    word = value.strip().lower()
    if word in ("on", "yes", "true", "1"):
        return True
    if word in ("off", "no", "false", "0"):
        return False
    raise PlayerSpecError(f"option {name} must be on or off, got {value!r}")


register_player(
    "perfect",
    _perfect_player,
    "the opening book, else the exact solver's best move (fastest win), a time-limited search when it cannot solve in time",
    "time=S, threads=N, fallback=S, book=on|off",
)
