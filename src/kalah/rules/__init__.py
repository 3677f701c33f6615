"""The readable reference of the game: variants, positions, moves, notation, JSON."""

from .errors import IllegalMoveError, InvalidPositionError, InvalidVariantError, KalahError
from .notation import line_names, move_name, parse_move, pit_letter, store_letter
from .outcome import Outcome, Termination
from .position import SWAP, Move, MoveEffect, Position
from .pov import PovValue
from .variant import STANDARD, Variant

__all__ = [
    "IllegalMoveError",
    "InvalidPositionError",
    "InvalidVariantError",
    "KalahError",
    "Move",
    "MoveEffect",
    "Outcome",
    "Position",
    "PovValue",
    "STANDARD",
    "SWAP",
    "Termination",
    "Variant",
    "line_names",
    "move_name",
    "parse_move",
    "pit_letter",
    "store_letter",
]
