"""Observers that keep a game: as a JSON record file, or in the game library."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from kalah.atomic import write_atomic
from kalah.match import GameResult, MoveEvent, Observer
from kalah.players.base import Player
from kalah.rules import Position

from .record import GameRecord, PlayerInfo


def player_info(player: Player) -> PlayerInfo:
    """The name and spec that a record keeps of a player."""
    return PlayerInfo(getattr(player, "name", "player"), getattr(player, "spec", ""))


class RecordBuilder(Observer):
    """Builds a :class:`GameRecord` as the game goes."""

    def __init__(self) -> None:
        self.record: GameRecord | None = None

    def game_started(self, start: Position, players: Sequence[Player]) -> None:
        """Start a new record."""
        self.record = GameRecord(start, [player_info(p) for p in players])

    def move_played(self, event: MoveEvent) -> None:
        """Add the move to the record."""
        assert self.record is not None
        self.record.add_move(event.player, event.move, event.after, event.seconds, event.info)

    def moves_taken_back(self, position: Position, count: int) -> None:
        """Drop the moves taken back."""
        assert self.record is not None
        if count:
            del self.record.moves[-count:]

    def game_ended(self, result: GameResult) -> None:
        """Note how the game ended."""
        assert self.record is not None
        self.record.finished = result.finished
        self.record.stop_reason = result.stop_reason


class RecordFileWriter(RecordBuilder):
    """Writes the record to a file after every move, atomically, so a crash
    or Ctrl-C loses at most the move being thought about."""

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = Path(path)

    def _write(self) -> None:
        assert self.record is not None
        write_atomic(self.path, self.record.to_json() + "\n")

    def game_started(self, start: Position, players: Sequence[Player]) -> None:
        """Start the record and write it."""
        super().game_started(start, players)
        self._write()

    def move_played(self, event: MoveEvent) -> None:
        """Add the move and write the file again, so a crash loses at most this move."""
        super().move_played(event)
        self._write()

    def moves_taken_back(self, position: Position, count: int) -> None:
        """Drop the moves taken back and write the file again."""
        super().moves_taken_back(position, count)
        self._write()

    def game_ended(self, result: GameResult) -> None:
        """Write the finished record."""
        super().game_ended(result)
        self._write()
