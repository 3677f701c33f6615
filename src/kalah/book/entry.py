"""What a book says of a position, under which key, and the error of a book that cannot be used."""

from __future__ import annotations

from dataclasses import dataclass

from kalah.rules import KalahError, Move, Position

__all__ = ["BookEntry", "BookError", "position_key"]


class BookError(KalahError):
    """An opening book that cannot be used (damaged, foreign, another variant) or built as asked."""


@dataclass(frozen=True)
class BookEntry:
    """What the book says about one position, from the side to move's point of view."""

    move: Move
    """The perfect player's move: a best move, by its rule among equals (see :func:`fastest_move`)."""
    value: int
    """The exact final margin (the mover's total minus the opponent's) under perfect play."""
    best_moves: tuple[Move, ...]
    """Every move that keeps the value, in pit order (then the swap)."""


def position_key(position: Position) -> str:
    """The book's key of a position: its cells separated by dots, a slash, the player to move.

    >>> position_key(kalah.Position.start(kalah.Variant(3, 2)))
    '2.2.2.0.2.2.2.0/0'
    """
    return ".".join(map(str, position.cells)) + f"/{position.to_move}"
