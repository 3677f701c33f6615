"""kalah: play, study and solve the board game Kalah.

The package is layered from the game outward: ``rules`` (the readable
reference), ``core`` (its compiled twin and the compiled search and solving
code), ``search``/``solve``/``endgame``/``book`` (algorithms with a small Python face), ``analysis``
(exact where proven, estimated elsewhere),
``players``/``match``/``records`` (who moves, the game loop, records), and the
faces ``cli``, ``web`` and ``notebook``.
"""

from .analysis import Analysis, MoveAnalysis, analyse
from .rules import (
    STANDARD,
    SWAP,
    IllegalMoveError,
    InvalidPositionError,
    InvalidVariantError,
    KalahError,
    Move,
    MoveEffect,
    Outcome,
    Position,
    PovValue,
    Variant,
)
from .search import Limit, SearchResult, SearchTrace, TraceNode, TraceTooLargeError, search, trace
from .solve import SolveResult, solve
from .version import __version__

__all__ = [
    "STANDARD",
    "Analysis",
    "SWAP",
    "IllegalMoveError",
    "InvalidPositionError",
    "InvalidVariantError",
    "KalahError",
    "Limit",
    "Move",
    "MoveAnalysis",
    "MoveEffect",
    "Outcome",
    "Position",
    "PovValue",
    "SearchResult",
    "SearchTrace",
    "SolveResult",
    "TraceNode",
    "TraceTooLargeError",
    "Variant",
    "__version__",
    "analyse",
    "search",
    "solve",
    "trace",
]
