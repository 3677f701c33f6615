"""Pit letters as in the seed documents: player 0 plays ``A``.., player 1 ``a``.."""

from __future__ import annotations

from .errors import IllegalMoveError
from .moves import SWAP, Move, move_name, pit_letter, store_letter
from .position import Position

__all__ = ["line_names", "move_name", "parse_move", "pit_letter", "store_letter"]


def line_names(position: Position, moves: list[Move]) -> list[str]:
    """A line of moves in pit letters (``C d swap``), as far as it is legal from ``position``."""
    names = []
    for move in moves:
        if move not in position.legal_moves():
            break
        names.append(move_name(position.to_move, move))
        position = position.play(move)
    return names


def parse_move(text: str, position: Position) -> Move:
    """Read a move typed by a person: a pit letter (either case), a pit number 1..m, or ``swap``.

    Raises :class:`IllegalMoveError` naming the legal choices when the text is
    not a legal move in ``position``.

    Raises:
        IllegalMoveError: ``text`` names no legal move of ``position``.
    """
    word = text.strip()
    legal = position.legal_moves()
    choices = ", ".join(move_name(position.to_move, move) for move in legal) or "none: the game is over"
    move: Move | None = None
    if word.lower() == SWAP:
        move = SWAP
    elif len(word) == 1 and word.isalpha():
        move = ord(word.lower()) - ord("a")
    elif word.isascii() and word.isdigit():  # "²".isdigit() is true, and int() refuses it
        move = int(word) - 1
    if move is None or move not in legal:
        raise IllegalMoveError(f"{word!r} is not a legal move; legal: {choices}")
    return move
