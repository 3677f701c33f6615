"""kalah: play, study and solve the board game Kalah.

The package is layered from the game outward: ``rules`` (the readable
reference), ``core`` (its compiled twin and the compiled search and solving
code), ``search``/``solve``/``endgame`` (algorithms with a small Python face),
``players``/``match``/``records`` (who moves, the game loop, records), and the
faces ``cli``, ``web`` and ``notebook``.
"""

from importlib.metadata import PackageNotFoundError, version

from .rules import (
    STANDARD,
    SWAP,
    IllegalMoveError,
    InvalidPositionError,
    InvalidVariantError,
    KalahError,
    Move,
    MoveEffect,
    Position,
    Variant,
)
from .search import SearchResult, search
from .solve import SolveResult, solve

try:
    __version__ = version("kalah")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

__all__ = [
    "STANDARD",
    "SWAP",
    "IllegalMoveError",
    "InvalidPositionError",
    "InvalidVariantError",
    "KalahError",
    "Move",
    "MoveEffect",
    "Position",
    "SearchResult",
    "SolveResult",
    "Variant",
    "__version__",
    "search",
    "solve",
]
