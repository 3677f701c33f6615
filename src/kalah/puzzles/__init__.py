"""Puzzles proven by the solver: positions from real games whose best move is unique and clearly best.

A puzzle is a position (the player to move must find the move), its
``solution`` (the only move that keeps the exact value), the exact ``value``
and the ``margin``: every other move is worth at least that many seeds less
(all values proven by :func:`kalah.solve`, the endgame databases included).
Each has ``theme`` tags and a ``difficulty`` from 1 to 5:

- themes: ``capture`` (the solution captures), ``extra-turns`` (it starts a
  chain of at least two extra turns on the line of perfect play), ``sweep``
  (it ends the game: a side empties and the rest is swept into its owner's
  store), ``endgame`` (at most :data:`ENDGAME_SEEDS` seeds left in the pits),
  ``swap`` (the pie rule's swap is a legal answer); a puzzle with none of them
  is ``quiet``;
- difficulty: 1, plus one for each of: a one-move search does not choose the
  solution; a four-move search does not; it is a quiet move (no capture, no
  extra turn); five or more legal moves; a margin under 6 seeds.

:func:`find_puzzles` looks for them in game records (the library, arena games
or self-play, :func:`self_play_records`); :func:`prove` checks one again.
The package ships a set (``kalah/puzzles/data/puzzles.json.gz``; :func:`shipped`).
"""

from .file import FORMAT, MAX_FILE_BYTES, data_path, load, save, shipped
from .finding import Progress, check_variant, find_puzzles, self_play_records
from .proof import DEFAULT_MARGIN, ENDGAME_SEEDS, MAX_SEEDS, PROOF_SECONDS, examine, prove, themes_of
from .puzzle import THEMES, Puzzle, PuzzleError, puzzle_id

__all__ = [
    "DEFAULT_MARGIN",
    "ENDGAME_SEEDS",
    "FORMAT",
    "MAX_FILE_BYTES",
    "MAX_SEEDS",
    "PROOF_SECONDS",
    "Progress",
    "Puzzle",
    "PuzzleError",
    "THEMES",
    "check_variant",
    "data_path",
    "examine",
    "find_puzzles",
    "load",
    "prove",
    "puzzle_id",
    "save",
    "self_play_records",
    "shipped",
    "themes_of",
]
