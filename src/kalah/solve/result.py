"""What a solve answers (:class:`SolveResult`) and the error it raises (:class:`SolveError`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kalah.rules import KalahError, Move

__all__ = ["SolveError", "SolveResult"]


class SolveError(KalahError, ValueError):
    """A solve that cannot be done as asked (bad options, too large without a time budget)."""


@dataclass(frozen=True)
class SolveResult:
    """What the solver proved about a position, from the side to move's point of view.

    >>> kalah.solve(kalah.Position.start(kalah.Variant(4, 2))).describe()
    '+6'
    """

    value: int | None
    """The exact final margin (the mover's total minus the opponent's) under perfect play, or None if only
    bounds were proven."""
    lower: int
    """The value is at least this (equal to ``value`` when solved)."""
    upper: int
    """The value is at most this (equal to ``value`` when solved)."""
    best_moves: list[Move] = field(default_factory=list)
    """Every move that keeps the value, in pit order (empty when only bounds were proven)."""
    pv: list[Move] = field(default_factory=list)
    """A line of perfect play from the position, the first best move first."""
    nodes: int = 0
    """Positions the solver visited."""
    seconds: float = 0.0
    """Wall-clock time of the solve, database loading included."""
    endgame_seeds: int | None = None
    """K of the endgame database that was probed, or None when none was used."""
    unproven_best_move: Move | None = None
    """When the value was not proven in time: the best move of a short heuristic search (not proven)."""
    move_bounds: dict[Move, tuple[int, int]] = field(default_factory=dict)
    """When the value was not proven in time: for root moves searched in the time left, the bounds
    proven on each one's value (lower == upper: that move's value is proven)."""

    @property
    def exact(self) -> bool:
        """True when the value is proven exactly (``value`` is not None)."""
        return self.value is not None

    def describe(self) -> str:
        """``+8``, or a bound such as ``at least +4`` / ``between -2 and +6``."""
        if self.value is not None:
            return f"{self.value:+d}"
        return f"between {self.lower:+d} and {self.upper:+d}"

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``kalah solve --json``."""
        return {
            "value": self.value,
            "exact": self.exact,
            "lower": self.lower,
            "upper": self.upper,
            "best_moves": list(self.best_moves),
            "pv": list(self.pv),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "endgame_seeds": self.endgame_seeds,
            "unproven_best_move": self.unproven_best_move,
            "move_bounds": [
                {"move": move, "lower": lower, "upper": upper} for move, (lower, upper) in self.move_bounds.items()
            ],
        }
