"""The perfect player's choice: an exact solve, and one rule among equally good moves."""

from __future__ import annotations

import time

from kalah.rules import Move, Position
from kalah.solve import solve

from .entry import BookEntry, BookError, position_key

__all__ = ["choose", "fastest_move"]


def fastest_move(
    position: Position, value: int, best: list[Move], *, deadline: float | None = None, threads: int | None = None
) -> Move:
    """Among equally good moves: the shortest line to the end when winning, the longest otherwise.

    ``value`` is the position's exact value and ``best`` its best moves. The
    line of a move is the solver's principal variation after it; among lines of
    equal length the first move in ``best`` wins. With ``deadline`` (on
    ``time.monotonic``) only the moves measured by then are candidates, and a
    line not proven in time stops the measuring with ``best[0]``.
    """
    if len(best) == 1:
        return best[0]
    lengths: dict[Move, int] = {}
    for move in best:
        child = position.play(move)
        if child.is_over:
            lengths[move] = 0
            continue
        left = None
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0.01:
                break
        line = solve(child, left, threads=threads, best_moves=False)
        if not line.exact:
            return best[0]
        lengths[move] = len(line.pv)
    measured = [move for move in best if move in lengths] or best[:1]
    if value > 0:
        return min(measured, key=lambda move: lengths.get(move, 0))
    return max(measured, key=lambda move: lengths.get(move, 0))


def choose(position: Position, *, threads: int | None = None) -> BookEntry:
    """The perfect player's move in ``position`` with unlimited time: an exact solve and :func:`fastest_move`.

    Raises:
        BookError: the game is over, or the solver proved no value in its time.
    """
    if position.is_over:
        raise BookError("the game is over: there is no move to choose")
    result = solve(position, threads=threads, pv=False)
    if result.value is None or not result.best_moves:  # pragma: no cover - an unlimited solve is exact
        raise BookError(f"the solver proved no value for {position_key(position)}")
    move = fastest_move(position, result.value, result.best_moves, threads=threads)
    return BookEntry(move, result.value, tuple(result.best_moves))
