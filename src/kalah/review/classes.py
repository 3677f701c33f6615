"""How a move is classed by the seeds it lost against the best."""

from __future__ import annotations

__all__ = ["CLASSES", "ESTIMATE_SLACK", "classify"]

#: (class, the largest loss in seeds it takes), from the best move down; a larger loss is a blunder.
CLASSES: tuple[tuple[str, float], ...] = (
    ("best", 0.0),
    ("good", 2.0),
    ("inaccuracy", 4.0),
    ("mistake", 8.0),
    ("blunder", float("inf")),
)
#: An estimate's loss under this many seeds counts as none: two searches of one depth differ by noise.
ESTIMATE_SLACK = 0.5


def classify(loss: float) -> str:
    """The class of a move that lost ``loss`` seeds against the best (see :data:`CLASSES`).

    >>> classify(0), classify(2), classify(3), classify(6), classify(10)
    ('best', 'good', 'inaccuracy', 'mistake', 'blunder')
    """
    for name, most in CLASSES:
        if loss <= most:
            return name
    return CLASSES[-1][0]
