"""Board literals and positions: KGP always shows the board from the side to move (south).

South is our player 0 (to move), north player 1; both rows are in sowing
order on the wire as in ``Position``, and KGP's moves are 1-based pit numbers
where ours are 0-based pit indices.
"""

from __future__ import annotations

from kalah.rules import Move, Position, Variant
from kalah.rules.variant import MAX_PITS, MAX_SEEDS, MAX_TOTAL_SEEDS

from .wire import Board, KgpError


class UnsupportedBoardError(KgpError, ValueError):
    """A board this build cannot play: more pits or seeds than the core holds."""


def variant_for(pits: int, seeds: int = 0) -> Variant:
    """The variant of a KGP game with ``pits`` a side (standard capture, no pie rule).

    ``seeds`` is the seeds a pit at the start when known, else 0 (any legal
    value does for a position in play: the rules do not depend on it).
    """
    if not 1 <= pits <= MAX_PITS:
        raise UnsupportedBoardError(f"boards of {pits} pits a side are not supported: this build plays 1 to {MAX_PITS}")
    return Variant(pits=pits, seeds=min(max(seeds, 1), MAX_SEEDS))


def position_from_board(board: Board, variant: Variant | None = None) -> Position:
    """The position a board literal shows, south (player 0) to move."""
    chosen = variant if variant is not None and variant.pits == board.size else variant_for(board.size)
    total = board.south_store + board.north_store + sum(board.south) + sum(board.north)
    if total > MAX_TOTAL_SEEDS:
        raise UnsupportedBoardError(
            f"a board of {total} seeds is not supported: this build holds at most {MAX_TOTAL_SEEDS}"
        )
    if len(board.north) != board.size:
        raise UnsupportedBoardError("the rows of the board have different lengths")
    return Position([[*board.south, board.south_store], [*board.north, board.north_store]], 0, chosen)


def board_from_position(position: Position) -> Board:
    """The board literal of ``position`` as its side to move sees it (the mover is south)."""
    me = position.to_move
    return Board(position.store(me), position.store(1 - me), position.pits(me), position.pits(1 - me))


def move_to_wire(move: Move) -> int:
    """Our 0-based pit index as KGP's 1-based pit number."""
    if not isinstance(move, int):
        raise KgpError(f"KGP has no move {move!r} (no pie rule)")
    return move + 1


def move_from_wire(number: int, position: Position) -> Move:
    """KGP's 1-based pit number as our move in ``position``; KgpError when it is not a legal move there."""
    move = number - 1
    if not 0 <= move < position.variant.pits or position.pits(position.to_move)[move] == 0:
        raise KgpError(f"move {number} is not legal on this board")
    return move
