"""The readable reference of the game: variants, positions, moves, notation, JSON."""

from .errors import IllegalMoveError, InvalidPositionError, InvalidVariantError, KalahError
from .notation import line_names, move_name, parse_move, pit_letter, store_letter
from .position import SWAP, Move, MoveEffect, Position
from .variant import STANDARD, Variant

__all__ = [
    "IllegalMoveError",
    "InvalidPositionError",
    "InvalidVariantError",
    "KalahError",
    "Move",
    "MoveEffect",
    "Position",
    "STANDARD",
    "SWAP",
    "Variant",
    "line_names",
    "move_name",
    "parse_move",
    "pit_letter",
    "store_letter",
]
