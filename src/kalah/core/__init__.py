"""The compiled core: flat boards, move generation, playouts, and the compiled
search and solving code (see csrc/ for the C, *.pyx for the Python faces).

``CoreGame`` and ``random_playouts`` take the build that holds the board
(``builds.py``: bytes up to 8 pits and 255 seeds, 16-bit cells beyond)."""

from .board import move_code, move_from_code
from .builds import CoreGame, random_playouts

__all__ = ["CoreGame", "move_code", "move_from_code", "random_playouts"]
