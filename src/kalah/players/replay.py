"""Plays the moves of a recorded game."""

from __future__ import annotations

from collections.abc import Iterable

from kalah.rules import KalahError, Move, Position

from .base import ComputerPlayer


class ReplayExhaustedError(KalahError):
    """The game reached a position the record never showed."""


class ReplayPlayer(ComputerPlayer):
    """Plays, in each position, the move the record played there.

    Kalah positions never repeat within a game (stores only grow and sowing
    that reaches no store moves seeds forward), so a position identifies the
    record's move exactly.
    """

    def __init__(self, start: Position, moves: Iterable[Move]) -> None:
        super().__init__()
        self.name = "replay"
        self.spec = "replay"
        self._moves: dict[Position, Move] = {}
        position = start
        for move in moves:
            self._moves[position] = move
            position = position.play(move)

    def choose_move(self, position: Position) -> Move:
        """The move the record played in ``position``."""
        try:
            return self._moves[position]
        except KeyError:
            raise ReplayExhaustedError("the record has no move for this position") from None
