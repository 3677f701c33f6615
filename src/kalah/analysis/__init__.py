"""Analysis that knows when it is exact: ``kalah.analyse(position, time=...)``.

A position's value is looked up or proven wherever that is cheap, and
estimated by a search only where it is not:

1. a finished game: the final margin (source ``"rules"``);
2. the shipped opening book (:func:`kalah.book.lookup`): the exact value and
   every best move (``"book"``);
3. the exact solver under a small time budget (:func:`kalah.solve`, which
   probes the endgame databases): small positions are proven in milliseconds
   (``"endgame"`` when the database alone holds the position, else ``"solver"``);
4. otherwise a search for the time left (``"search"``), labelled an estimate.

The same is done for the value of each legal move (the value of the position
it leads to, seen from the mover), so a table of moves can mix exact values
and estimates; each carries its own ``exact`` flag. Every value is in seeds,
from the point of view of the player to move: the final margin (the mover's
total minus the opponent's) under perfect play when exact.
"""

from .result import Analysis, AnalysisError, MoveAnalysis, Source
from .run import DEFAULT_TIME, EXACT_SHARE, analyse

__all__ = ["DEFAULT_TIME", "EXACT_SHARE", "Analysis", "AnalysisError", "MoveAnalysis", "Source", "analyse"]
