"""A small alpha-beta on the compiled board, for tools that need a rough value.

The arena uses it to rank candidate openings by balance, and the ManKalah
agent falls back on it when the search package (``kalah.search``) is not
available. Values are seeds, from the point of view of the side to move:
the store difference at the horizon, the final margin at the end of a game.
It knows nothing clever; the real engines live in ``kalah.search``.
"""

from __future__ import annotations

import time

from kalah.core import CoreGame
from kalah.rules import SWAP, Move, Position

INFINITY = 10_000


class _Timeout(Exception):
    pass


def _value(game: CoreGame, depth: int, alpha: int, beta: int, deadline: float | None, counter: list[int]) -> int:
    counter[0] += 1
    if deadline is not None and counter[0] & 255 == 0 and time.perf_counter() > deadline:
        raise _Timeout
    cells = game.cells
    half = len(cells) // 2
    me = game.to_move
    if game.is_over:  # whole rows: pits left on a side belong to its owner
        return sum(cells[me * half:(me + 1) * half]) - sum(cells[(1 - me) * half:(2 - me) * half])
    if depth <= 0:
        return cells[me * half + half - 1] - cells[(1 - me) * half + half - 1]
    best = -INFINITY
    for move in _ordered(game.legal_moves()):
        child = game.copy()
        child.play(move)
        if child.to_move == me:
            value = _value(child, depth - 1, alpha, beta, deadline, counter)
        else:
            value = -_value(child, depth - 1, -beta, -alpha, deadline, counter)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def _ordered(moves: list[Move]) -> list[Move]:
    # Later pits first: they more often end in the store. Keeps results deterministic.
    pits = sorted((m for m in moves if m != SWAP), reverse=True)
    return pits + ([SWAP] if SWAP in moves else [])


def move_values(position: Position, depth: int, deadline: float | None = None) -> dict[Move, int]:
    """Each legal move's value for the player to move at ``position``."""
    game = CoreGame(position)
    me = game.to_move
    values: dict[Move, int] = {}
    counter = [0]
    for move in _ordered(game.legal_moves()):
        child = game.copy()
        child.play(move)
        value = _value(child, depth - 1, -INFINITY, INFINITY, deadline, counter)
        values[move] = value if child.to_move == me else -value
    return values


def value(position: Position, depth: int) -> int:
    """The depth-limited value of ``position`` for the player to move."""
    game = CoreGame(position)
    return _value(game, depth, -INFINITY, INFINITY, None, [0])


def best_move(position: Position, seconds: float, max_depth: int = 40) -> tuple[Move, dict[Move, int], int]:
    """Iterative deepening within ``seconds``: the best move, all move values, the depth reached."""
    deadline = time.perf_counter() + seconds
    legal = position.legal_moves()
    values: dict[Move, int] = {move: 0 for move in legal}
    reached = 0
    for depth in range(1, max_depth + 1):
        try:
            values = move_values(position, depth, deadline)
        except _Timeout:
            break
        reached = depth
        if time.perf_counter() > deadline:
            break
    best = max(_ordered(legal), key=lambda move: values[move])
    return best, values, reached
