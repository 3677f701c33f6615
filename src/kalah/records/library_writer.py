"""Keeping a game in the library as it is played: an observer of the game loop."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kalah.match import GameResult, MoveEvent, Observer
from kalah.players.base import Player
from kalah.rules import Position

from .library import GameLibrary
from .writer import player_info


class LibraryWriter(Observer):
    """Stores a game in the library as it is played: each move is committed
    before the next one is asked for."""

    def __init__(self, library: GameLibrary, tags: dict[str, Any] | None = None) -> None:
        self.library = library
        self.tags = tags
        self.game_id: int | None = None

    def game_started(self, start: Position, players: Sequence[Player]) -> None:
        """Create the game in the library."""
        self.game_id = self.library.create_game(start, [player_info(p) for p in players], tags=self.tags)

    def move_played(self, event: MoveEvent) -> None:
        """Store the move (checked against the stored game)."""
        assert self.game_id is not None
        self.library.add_move(self.game_id, event.move, event.seconds, event.info)

    def moves_taken_back(self, position: Position, count: int) -> None:
        """Take the moves back in the library too."""
        if self.game_id is not None and count:
            self.library.take_back(self.game_id, count)

    def game_ended(self, result: GameResult) -> None:
        """Mark a game that stopped before its end."""
        if self.game_id is not None and not result.finished:
            self.library.mark_stopped(self.game_id, result.stop_reason or "stopped")
