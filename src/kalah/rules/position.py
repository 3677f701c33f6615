"""The reference rules of Kalah: an immutable, hashable position and its moves.

This module is written to be read next to ``RULES.md``; speed lives in
``kalah.core``, which is tested to agree with this file move for move.

The flat board (``Position.cells``) lists player 0's pits, player 0's store,
player 1's pits, player 1's store. Pit ``i`` of one side faces pit ``m-1-i``
of the other.

The pie rule's swap is represented by exchanging the two rows of the board:
player numbers always name the same person (player 0 moved first), and after a
swap player 0, who did not swap, owns the side player 1 had and moves next.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from .errors import IllegalMoveError, InvalidPositionError, KalahError
from .moves import SWAP, Move, MoveEffect
from .pov import PovValue
from .variant import MAX_PITS, MAX_TOTAL_SEEDS, MIN_PITS, STANDARD, Variant
from .wording import kind, plural, shown

__all__ = ["SWAP", "Move", "MoveEffect", "Position"]


class Position:
    """A Kalah position: board, side to move and variant. Immutable and hashable.

    Raises:
        InvalidPositionError: (when made) the board does not fit the variant, holds
            too many seeds, or ``to_move`` is not 0 or 1.
    """

    __slots__ = ("_variant", "_cells", "_to_move", "_hash")

    def __init__(self, board: Iterable[Iterable[int]], to_move: int = 0, variant: Variant | None = None):
        rows = _rows(board)
        if variant is None:
            variant = Variant(pits=len(rows[0]) - 1) if 2 <= len(rows[0]) <= 9 else STANDARD
        if not isinstance(variant, Variant):
            raise InvalidPositionError(f"variant must be a kalah.Variant, got {type(variant).__name__}")
        m = variant.pits
        for player, row in enumerate(rows):
            if len(row) != m + 1:
                raise InvalidPositionError(
                    f"player {player}'s row has {plural(len(row), 'entry', 'entries')};"
                    f" {variant.name} needs {plural(m, 'pit')} and a store"
                )
        cells = tuple(rows[0]) + tuple(rows[1])
        if sum(cells) > MAX_TOTAL_SEEDS:
            raise InvalidPositionError(f"the board holds {sum(cells)} seeds; at most {MAX_TOTAL_SEEDS} are supported")
        if isinstance(to_move, bool) or to_move not in (0, 1):
            raise InvalidPositionError(f"to_move must be 0 or 1, got {shown(to_move)}")
        self._variant = variant
        self._cells = cells
        self._to_move = to_move
        self._hash = hash((variant, cells, to_move))

    # --- construction -------------------------------------------------------

    @classmethod
    def start(cls, variant: Variant | None = None) -> Position:
        """The starting position of ``variant`` (default: standard Kalah(6,4)), player 0 to move."""
        variant = variant or STANDARD
        row = [variant.seeds] * variant.pits + [0]
        return cls([row, row], 0, variant)

    @classmethod
    def from_cells(cls, cells: Iterable[int], to_move: int, variant: Variant) -> Position:
        """Build from the flat layout (``2 * (pits + 1)`` numbers).

        Raises:
            InvalidPositionError: the cells do not fit the variant's board, or ``to_move`` is not 0 or 1.
        """
        cells = list(cells)
        if len(cells) != 2 * (variant.pits + 1):
            raise InvalidPositionError(
                f"a flat {variant.name} board has {2 * (variant.pits + 1)} cells, got {len(cells)}"
            )
        half = variant.pits + 1
        return cls([cells[:half], cells[half:]], to_move, variant)

    # --- the board ----------------------------------------------------------

    @property
    def variant(self) -> Variant:
        """The rules this position is played under."""
        return self._variant

    @property
    def to_move(self) -> int:
        """The player to move: 0 or 1."""
        return self._to_move

    @property
    def cells(self) -> tuple[int, ...]:
        """The flat board: player 0's pits and store, then player 1's."""
        return self._cells

    @property
    def board(self) -> list[list[int]]:
        """The nested layout ``[[pits..., store], [pits..., store]]`` (a fresh copy)."""
        half = self._variant.pits + 1
        return [list(self._cells[:half]), list(self._cells[half:])]

    def pits(self, player: int) -> tuple[int, ...]:
        """The seeds in ``player``'s pits, in sowing order."""
        start = player * (self._variant.pits + 1)
        return self._cells[start : start + self._variant.pits]

    def store(self, player: int) -> int:
        """The seeds in ``player``'s store."""
        return self._cells[player * (self._variant.pits + 1) + self._variant.pits]

    @property
    def seeds_in_pits(self) -> int:
        """The seeds still in play (in the pits of both sides)."""
        return sum(self.pits(0)) + sum(self.pits(1))

    # --- game state ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True when the game has ended: one side has no seeds left in its pits."""
        return sum(self.pits(0)) == 0 or sum(self.pits(1)) == 0

    @property
    def scores(self) -> tuple[int, int] | None:
        """Final totals (store plus the seeds left on one's own side) once over, else ``None``."""
        if not self.is_over:
            return None
        return (self.store(0) + sum(self.pits(0)), self.store(1) + sum(self.pits(1)))

    @property
    def margin(self) -> int | None:
        """Player 0's final total minus player 1's, once over."""
        scores = self.scores
        return None if scores is None else scores[0] - scores[1]

    @property
    def mover_margin(self) -> int | None:
        """The side to move's final total minus the opponent's, once over: a finished game's value in search and solve.

        >>> Position([[0, 0, 0, 0, 0, 0, 30], [0, 0, 0, 0, 0, 1, 17]], to_move=1).mover_margin
        -12
        """
        margin = self.margin
        return None if margin is None else int(PovValue(margin, 0).pov(self._to_move))

    @property
    def winner(self) -> int | None:
        """0 or 1 once a player has won; ``None`` while playing or after a draw."""
        margin = self.margin
        if not margin:
            return None
        return 0 if margin > 0 else 1

    @property
    def is_first_move(self) -> bool:
        """True at the start of the game, where the pie rule denies the extra turn."""
        return self._to_move == 0 and self._cells == _start_cells(self._variant)

    @property
    def swap_available(self) -> bool:
        """True right after player 0's first move in a pie-rule game.

        Stores only grow and a move that touches no store sows forward, so no
        later position can show the board that the first move left.
        """
        if not self._variant.pie_rule or self._to_move != 1:
            return False
        return self._cells in _first_move_boards(self._variant)

    def legal_moves(self) -> list[Move]:
        """The mover's non-empty pits in ascending order, then ``SWAP`` where allowed."""
        if self.is_over:
            return []
        moves: list[Move] = [i for i, seeds in enumerate(self.pits(self._to_move)) if seeds > 0]
        if self.swap_available:
            moves.append(SWAP)
        return moves

    # --- playing --------------------------------------------------------------

    def play(self, move: Move) -> Position:
        """The position after ``move``.

        Raises:
            IllegalMoveError: ``move`` is not legal here (or the game is over).
        """
        return self.play_explained(move)[0]

    def play_explained(self, move: Move) -> tuple[Position, MoveEffect]:
        """Like :meth:`play`, also returning what the move did."""
        self._check_legal(move)
        if move == SWAP:
            half = self._variant.pits + 1
            swapped = Position.from_cells(self._cells[half:] + self._cells[:half], 0, self._variant)
            return swapped, MoveEffect(self._to_move, SWAP, (), False, 0, None, False)
        return self._sow(move)

    def _check_legal(self, move: Any) -> None:
        if self.is_over:
            raise IllegalMoveError(f"the game is over; no move {shown(move)} can be played")
        if move == SWAP:
            if not self.swap_available:
                reason = (
                    "the pie rule is off"
                    if not self._variant.pie_rule
                    else "only player 1's first action may be a swap"
                )
                raise IllegalMoveError(f"swap is not allowed here: {reason}")
            return
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError(f"a move is a pit index 0..{self._variant.pits - 1} or 'swap', got {shown(move)}")
        if not 0 <= move < self._variant.pits:
            raise IllegalMoveError(
                f"pit {move} does not exist: player {self._to_move} owns pits 0..{self._variant.pits - 1}"
            )
        if self.pits(self._to_move)[move] == 0:
            raise IllegalMoveError(f"pit {move} of player {self._to_move} is empty")

    def _sow(self, pit: int) -> tuple[Position, MoveEffect]:
        m = self._variant.pits
        me = self._to_move
        own_base, opp_base = me * (m + 1), (1 - me) * (m + 1)
        own_store = own_base + m
        # The places a seed can go from the mover's side, in sowing order; the
        # opponent's store is not among them.
        ring = [own_base + i for i in range(m + 1)] + [opp_base + i for i in range(m)]
        cells = list(self._cells)
        seeds, cells[own_base + pit] = cells[own_base + pit], 0
        place = pit
        sown = []
        for _ in range(seeds):
            place = (place + 1) % len(ring)
            cells[ring[place]] += 1
            sown.append(ring[place])
        last = ring[place]

        extra_turn = last == own_store and not (self._variant.pie_rule and self.is_first_move)
        captured, capture_pit = 0, None
        if own_base <= last < own_store and cells[last] == 1:
            opposite = opp_base + (m - 1 - (last - own_base))
            if cells[opposite] > 0 or self._variant.empty_capture:
                captured = cells[opposite] + 1
                cells[own_store] += captured
                cells[last] = cells[opposite] = 0
                capture_pit = last
        next_to_move = me if extra_turn else 1 - me

        game_over = sum(cells[0:m]) == 0 or sum(cells[m + 1 : 2 * m + 1]) == 0
        if game_over:
            for base in (0, m + 1):
                cells[base + m] += sum(cells[base : base + m])
                cells[base : base + m] = [0] * m
        after = Position.from_cells(cells, next_to_move, self._variant)
        return after, MoveEffect(me, pit, tuple(sown), extra_turn, captured, capture_pit, game_over)

    # --- JSON -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The position as a JSON-ready dict: board, side to move, variant."""
        return {"board": self.board, "to_move": self._to_move, "variant": self._variant.to_dict()}

    def to_json(self) -> str:
        """The position as JSON text (the format of the web API and of records)."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> Position:
        """A position from the dict of ``to_dict`` (InvalidPositionError naming what is wrong).

        Raises:
            InvalidPositionError: ``data`` is not an object, has unknown fields or no board, or
                its variant or board is invalid.
        """
        if not isinstance(data, dict):
            raise InvalidPositionError(f"a position must be a JSON object, got {kind(data)}")
        unknown = set(data) - {"board", "to_move", "variant"}
        if unknown:
            record = " (this looks like a game record, not a position)" if "moves" in unknown else ""
            raise InvalidPositionError(f"unknown position field(s): {', '.join(sorted(unknown))}{record}")
        if "board" not in data:
            raise InvalidPositionError("a position needs a 'board'")
        board = _rows(data["board"])
        if "variant" in data and data["variant"] is not None:
            try:
                fields = dict(data["variant"]) if isinstance(data["variant"], dict) else data["variant"]
                if isinstance(fields, dict):
                    fields.setdefault("pits", len(board[0]) - 1)
                variant = Variant.from_dict(fields)
            except KalahError as error:
                raise InvalidPositionError(f"bad variant: {error}") from None
        else:
            try:
                variant = Variant(pits=len(board[0]) - 1)
            except KalahError:
                raise InvalidPositionError(
                    f"a row has {plural(len(board[0]), 'entry', 'entries')}; rows need {MIN_PITS + 1} to {MAX_PITS + 1}"
                    f" ({MIN_PITS} to {MAX_PITS} pits and a store)"
                ) from None
        return cls(board, data.get("to_move", 0), variant)

    @classmethod
    def from_json(cls, text: str | bytes | dict[str, Any]) -> Position:
        """Parse the JSON form; also accepts an already-decoded ``dict``.

        Raises:
            InvalidPositionError: ``text`` is not JSON or not a valid position.
        """
        if isinstance(text, dict):
            return cls.from_dict(text)
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as error:
            raise InvalidPositionError(f"not valid JSON: {error}") from None
        return cls.from_dict(data)

    # --- identity -------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (self._cells, self._to_move, self._variant) == (other._cells, other._to_move, other._variant)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Position({self.board!r}, to_move={self._to_move}, variant={self._variant!r})"

    def _repr_svg_(self) -> str:
        """The board as SVG, for Jupyter (see :func:`kalah.rules.svg.board_svg`)."""
        from .svg import board_svg  # only when a notebook asks: drawing is no part of the rules

        return board_svg(self)


@lru_cache(maxsize=64)
def _start_cells(variant: Variant) -> tuple[int, ...]:
    return Position.start(variant)._cells


@lru_cache(maxsize=64)
def _first_move_boards(variant: Variant) -> frozenset[tuple[int, ...]]:
    """The boards that player 0's first move can leave (where a swap may follow)."""
    start = Position.start(variant)
    return frozenset(start._sow(pit)[0]._cells for pit in start.legal_moves() if pit != SWAP)


def _rows(board: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Validate the nested layout and return it as two tuples of ints."""
    if isinstance(board, (str, bytes)) or not hasattr(board, "__iter__"):
        raise InvalidPositionError(f"a board is two rows of counts, got {kind(board)}")
    rows = [row for row in board]
    if len(rows) != 2:
        raise InvalidPositionError(f"a board has 2 rows (one per player), got {len(rows)}")
    result = []
    for player, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not hasattr(row, "__iter__"):
            raise InvalidPositionError(f"player {player}'s row must be a list of counts, got {kind(row)}")
        row = list(row)
        for index, count in enumerate(row):
            if isinstance(count, bool) or not isinstance(count, int):
                raise InvalidPositionError(f"board[{player}][{index}] must be an integer, got {shown(count)}")
            if count < 0:
                raise InvalidPositionError(f"board[{player}][{index}] is negative ({count})")
        if len(row) < 2:
            raise InvalidPositionError(
                f"player {player}'s row has {plural(len(row), 'entry', 'entries')}; it needs pits and a store"
            )
        result.append(tuple(row))
    if len(result[0]) != len(result[1]):
        raise InvalidPositionError(f"the rows have different lengths ({len(result[0])} and {len(result[1])})")
    return result[0], result[1]
