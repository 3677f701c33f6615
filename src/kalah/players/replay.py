"""Plays the moves of a recorded game."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from kalah.rules import KalahError, Move, Position

from .base import ComputerPlayer
from .spec import PlayerSpecError, register_player


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
        try:
            return self._moves[position]
        except KeyError:
            raise ReplayExhaustedError("the record has no move for this position") from None


def _replay_player(file: str | None = None) -> ReplayPlayer:
    from kalah.records import load_record  # layer 4 sibling; imported late to keep players light

    if not file:
        raise PlayerSpecError("replay needs file=PATH of a game record")
    record = load_record(Path(file))
    player = ReplayPlayer(record.start, [recorded.move for recorded in record.moves])
    player.spec = f"replay:file={file}"
    return player


register_player("replay", _replay_player, "the moves of a recorded game", "file=PATH",
                external="reads a file on this machine")
