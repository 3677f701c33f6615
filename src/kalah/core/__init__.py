"""The compiled core: flat boards, move generation, playouts, and the compiled
search and solving code (see csrc/ for the C, *.pyx for the Python faces)."""

from .board import CoreGame, move_code, move_from_code, random_playouts

__all__ = ["CoreGame", "move_code", "move_from_code", "random_playouts"]
