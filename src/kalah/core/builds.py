"""The two builds of the compiled core, and the one a board needs.

The C sources are compiled twice (csrc/board.h, setup.py): the byte build
(``kalah.core.board``, ``kalah.core.search``: a cell is a byte, a side at
most 8 pits, so that a side is one 64-bit word and a sowing one 128-bit
addition) and the big build (``kalah.core.big_board``, ``big_search``:
16-bit cells, up to 12 pits, plain loops). Every board the byte build holds
goes to it, so today's sizes keep their speed; a board with more pits or
more than 255 seeds goes to the big build. The solver, the endgame databases
and the trace build exist only as byte builds.
"""

from __future__ import annotations

from typing import Any

from kalah.rules import Position, Variant

from . import big_board, big_search, board, search

#: The most pits a side and seeds on a board of the byte build (8 and 255).
BYTE_MAX_PITS: int = board.MAX_PITS
BYTE_MAX_TOTAL: int = board.MAX_TOTAL


def needs_big(position: Position) -> bool:
    """Is ``position`` beyond the byte build: more than 8 pits a side or more than 255 seeds?"""
    return position.variant.pits > BYTE_MAX_PITS or sum(position.cells) > BYTE_MAX_TOTAL


def CoreGame(position: Position | None = None, variant: Variant | None = None) -> board.CoreGame | big_board.CoreGame:
    """A mutable game on the compiled board of the build that holds it (see ``board.CoreGame``).

    A function named as a class: it stands for the ``CoreGame`` class of either build.
    """
    start = position if position is not None else Position.start(variant)
    return big_board.CoreGame(start) if needs_big(start) else board.CoreGame(start)


def random_playouts(position: Position, games: int, seed: int = 0) -> tuple[int, int, int]:
    """``games`` uniformly random games from ``position`` in compiled code: ``(wins0, draws, wins1)``."""
    build = big_board if needs_big(position) else board
    return build.random_playouts(position, games, seed)


def mcts(position: Position, **options: Any) -> dict[str, Any]:
    """UCT from ``position`` (``search.mcts``) in the build that holds it."""
    build = big_search if needs_big(position) else search
    return build.mcts(position, **options)


def reference_alphabeta(position: Position, depth: int) -> tuple[int, int, float]:
    """The plainest compiled alpha-beta (``search.reference_alphabeta``) in the build that holds it."""
    build = big_search if needs_big(position) else search
    return build.reference_alphabeta(position, depth)


class Engine:
    """A search context for boards of any size: the byte build's engine, and the big build's when a
    board needs it (made at the first such board). Each has its own table of ``2**table_bits`` entries.

    An endgame oracle (``set_oracle``) is attached to the byte build only: the databases index byte
    boards, and a big board never has one.
    """

    def __init__(self, table_bits: int = 20) -> None:
        self._table_bits = table_bits
        self._byte = search.Engine(table_bits)
        self._big: big_search.Engine | None = None

    def set_oracle(self, capsule: object | None) -> None:
        """Attach an oracle (a PyCapsule named "kalah.oracle") to the byte build, or detach it with None."""
        self._byte.set_oracle(capsule)

    def stop(self) -> None:
        """Ask the search running on this engine (in another thread) to stop; safe from any thread."""
        self._byte.stop()
        big = self._big
        if big is not None:
            big.stop()

    def warm(self, position: Position) -> None:
        """Have the table of the build that searches ``position`` in memory now (``search.Engine.warm``)."""
        self.engine_for(position).warm()

    def engine_for(self, position: Position) -> search.Engine | big_search.Engine:
        """The build's engine that searches ``position``."""
        if not needs_big(position):
            return self._byte
        if self._big is None:
            self._big = big_search.Engine(self._table_bits)
        return self._big

    def search(self, position: Position, *args: Any, **options: Any) -> dict[str, Any]:
        """``search.Engine.search`` on the build that holds ``position``."""
        return self.engine_for(position).search(position, *args, **options)
