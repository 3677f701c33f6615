"""A value with its point of view, as python-chess's ``PovScore``: a value says whose it is.

Every value of Kalah is a margin in seeds, one player's total minus the
other's, so the other player's view of it is its negation. A search answers
for the side to move; a graph is drawn for player 0; a move's value comes
from the position it leads to, whose mover may be the same player (an extra
turn) or the other. Carrying the player with the value lets each caller ask
for the view it needs (:meth:`PovValue.pov`) instead of negating by hand.

>>> PovValue(6, 1).pov(0), PovValue(6, 1).pov(1)
(-6, 6)
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import KalahError

__all__ = ["PovValue"]


@dataclass(frozen=True)
class PovValue:
    """A value in seeds from ``player``'s point of view (a margin: that player's total minus the other's)."""

    value: float | int
    """The value for ``player``: an ``int`` for an exact margin, a ``float`` for an estimate."""
    player: int
    """Whose point of view ``value`` is: player 0 or 1."""

    def __post_init__(self) -> None:
        if self.player not in (0, 1):
            raise KalahError(f"a point of view is player 0 or 1, not {self.player!r}")

    def pov(self, player: int) -> float | int:
        """The value from ``player``'s point of view.

        >>> PovValue(-2.5, 0).pov(1)
        2.5
        """
        return self.value if player == self.player else -self.value
