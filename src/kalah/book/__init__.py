"""Opening books: the perfect player's solved moves along its own lines, looked up instead of solved.

A book of a variant holds, for each seat the perfect player can take, every
position where that player is to move during its first N decisions of a game
that it plays by the solver's choice while the opponent may play anything: at
the player's own positions only its chosen move is followed, at the
opponent's every legal move (extra turns keep the mover; a forced move is no
decision and is not stored). A book may also stop at a number of plies from
the start (``plies``: every position within that many moves of the start,
each move one ply, extra turns and forced moves included, as CMancala's book
counts), whichever limit comes first. Each entry is the move the perfect player
chooses, the exact value of the position and all its best moves, found by
:func:`kalah.solve` with the endgame database as the solver normally uses it.

The choice among equally good moves is the perfect player's rule, which lives
here (:func:`fastest_move`, used by the player too): the shortest principal
variation when winning, the longest when drawing or losing, the first in pit
order among equals. (A principal variation is one line of perfect play, not
the shortest one: which line the solver reports may depend on what its table
held, so two solves may break a tie differently. The value and the set of
best moves are exact.)

Books ship in the package (``kalah/book/data/``) as gzip-compressed JSON::

    {"format": "kalah-book", "version": 1, "variant": {...}, "moves": N, ["plies": P,]
     "built": {...build statistics...},
     "entries": {"<cells separated by dots>/<to move>": [move, value, [best moves]], ...}}

:func:`lookup` finds the shipped book of a position's variant (loaded once,
lazily) and its entry. A damaged, foreign or mismatched file raises
:class:`BookError` naming it.
"""

from .building import Progress, build_book
from .choice import choose, fastest_move
from .entry import BookEntry, BookError, position_key
from .file import FORMAT, FORMAT_VERSION, MAX_FILE_BYTES, Book, lines, load
from .shipped import book_filename, data_directory, lookup, shipped

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_FILE_BYTES",
    "Book",
    "BookEntry",
    "BookError",
    "Progress",
    "book_filename",
    "build_book",
    "choose",
    "data_directory",
    "fastest_move",
    "lines",
    "load",
    "lookup",
    "position_key",
    "shipped",
]
