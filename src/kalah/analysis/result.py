"""What an analysis answers: the position's value, its best moves, each move's value, and where each
value came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from kalah.rules import KalahError, Move, Position

__all__ = ["Analysis", "AnalysisError", "MoveAnalysis", "Source"]

#: Where a value came from.
Source = Literal["rules", "book", "endgame", "solver", "search"]


class AnalysisError(KalahError, ValueError):
    """An analysis that cannot be done as asked (not a position, a bad time)."""


@dataclass(frozen=True)
class MoveAnalysis:
    """The value of one legal move for the player to move, and whether it is proven."""

    move: Move
    """A pit index ``0..pits-1`` of the mover, or ``"swap"``."""
    value: float | int | None
    """In seeds for the player to move: exact (an ``int``) or a search's estimate; None when not valued in time."""
    exact: bool
    """True when ``value`` is proven (the final margin under perfect play after this move)."""
    source: Source
    """Where the value came from."""


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyse` found about a position, from the side to move's point of view.

    >>> analysis = kalah.analyse(kalah.Position.start(kalah.Variant(4, 2)), time=0.5)
    >>> analysis.value, analysis.exact, analysis.best_moves
    (6, True, [3])
    """

    position: Position
    """The position analysed."""
    value: float | int | None
    """The position's value in seeds for the player to move (an ``int`` when exact)."""
    exact: bool
    """True when ``value`` and ``best_moves`` are proven; False for a search's estimate."""
    best_moves: list[Move]
    """Every best move when exact and every move's value is exact; when exact with some moves
    estimated (or without ``move_values``), the best moves proven so far (at least one); the search's
    best move when estimated; empty when the game is over. In pit order, the swap last."""
    moves: list[MoveAnalysis]
    """Every legal move with its value (empty when not asked for, or the game is over)."""
    pv: list[Move] = field(default_factory=list)
    """A line of best play from the position (of perfect play when exact), ``best_move`` first."""
    source: Source = "search"
    """Where the position's value came from."""
    depth: int | None = None
    """The depth of the search that estimated the value (None when exact)."""
    seconds: float = 0.0
    """Wall-clock time of the analysis."""

    @property
    def best_move(self) -> Move | None:
        """The move to play: among moves of equal value the lowest pit (the swap last), as the search
        breaks ties; None when the game is over. A hint names it and an analysis shows it first, so
        that both name the same move where several are as good."""
        return self.best_moves[0] if self.best_moves else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``kalah analyse --json``."""
        return {
            "value": self.value,
            "exact": self.exact,
            "best_moves": list(self.best_moves),
            "best_move": self.best_move,
            "pv": list(self.pv),
            "source": self.source,
            "depth": self.depth,
            "to_move": self.position.to_move,
            "moves": [
                {"move": entry.move, "value": entry.value, "exact": entry.exact, "source": entry.source}
                for entry in self.moves
            ],
            "seconds": round(self.seconds, 6),
        }
