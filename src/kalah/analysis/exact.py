"""The proven values: the rules, the shipped opening book, and the solver within a budget of time."""

from __future__ import annotations

from dataclasses import dataclass

from kalah import book
from kalah.rules import Move, Position
from kalah.solve import SolveError, solve

from .result import Source

__all__ = ["Proven", "book_line", "in_move_order", "proven_value"]


@dataclass(frozen=True)
class Proven:
    """A proven value of a position, its best moves, a line of perfect play, and who proved it."""

    value: int
    best_moves: list[Move]
    pv: list[Move]
    source: Source


def proven_value(position: Position, budget: float, threads: int | None, *, best_moves: bool = True) -> Proven | None:
    """The proven value of ``position`` (rules, book or a solve within ``budget`` seconds), or None."""
    margin = position.mover_margin
    if margin is not None:  # the game is over
        return Proven(margin, [], [], "rules")
    entry = book.lookup(position)
    if entry is not None:
        return Proven(entry.value, list(entry.best_moves), book_line(position), "book")
    if budget <= 0:
        return None
    try:
        solved = solve(position, budget, threads=threads, best_moves=best_moves, pv=best_moves)
    except (SolveError, MemoryError):  # no room for the solver's table: leave it to the search
        return None
    if solved.value is None:
        return None
    held = solved.endgame_seeds is not None and position.seeds_in_pits <= solved.endgame_seeds
    return Proven(solved.value, list(solved.best_moves), list(solved.pv), "endgame" if held else "solver")


def book_line(position: Position) -> list[Move]:
    """A line of perfect play through the shipped book, as far as it holds the positions: at each, the
    lowest pit among the best moves (the rule :attr:`Analysis.best_move` names), so the line begins with it."""
    line: list[Move] = []
    entry = book.lookup(position)
    while entry is not None and entry.best_moves:
        move = in_move_order(position, list(entry.best_moves))[0]
        line.append(move)
        position = position.play(move)
        entry = book.lookup(position)
    return line


def in_move_order(position: Position, moves: list[Move]) -> list[Move]:
    """``moves`` once each, in the order of the legal moves: the lowest pit first, the swap last (the
    order in which the search breaks ties, so that ``best_move`` is the move it would play)."""
    return [move for move in position.legal_moves() if move in moves]
