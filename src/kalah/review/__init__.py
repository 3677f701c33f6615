"""Review of a whole game: ``kalah.review.review(record, time=...)``.

Every position of the game is analysed with :func:`kalah.analysis.analyse`
(exact where the book, the endgame databases or the solver prove it, a
search's estimate elsewhere). For each move the review gives the value
before it, the best moves, the value of the move played and the seeds it
lost against the best, all from the mover's point of view, and a class:

============  =============================================
class         seeds lost (``loss``)
============  =============================================
best          0 (the move keeps the value)
good          at most 2 (one seed each way)
inaccuracy    at most 4
mistake       at most 8
blunder       more than 8
============  =============================================

Thresholds are in :data:`CLASSES`. A move is ``exact`` when both values it
was judged by are proven. Over the game the review gives an evaluation graph
(player 0's point of view, before each move and at the end), each player's
accuracy (the share of their decisions, moves with a choice, classed best or
good) and average loss, and the turning points: the moves that turned the
expected result against their player (a win into a draw or a loss, a draw
into a loss; an estimate within a seed of zero counts as a draw).
"""

from .classes import CLASSES, classify
from .result import FORMAT, GameReview, ReviewedMove, ReviewError
from .run import DEFAULT_TIME, Progress, review, review_of_analyses

__all__ = [
    "CLASSES",
    "DEFAULT_TIME",
    "FORMAT",
    "GameReview",
    "Progress",
    "ReviewError",
    "ReviewedMove",
    "classify",
    "review",
    "review_of_analyses",
]
