"""A game of the library in brief, as lists of games show it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kalah.rules.outcome import Outcome

from .record import PlayerInfo


@dataclass(frozen=True)
class GameSummary:
    """A game of the library in brief, as ``kalah games list`` shows it."""

    id: int
    started_at: str
    players: tuple[PlayerInfo, PlayerInfo]
    variant: dict[str, Any]
    moves: int
    status: str
    scores: tuple[int, int] | None
    tags: dict[str, Any]
    stop_reason: str | None = None  # why a stopped game ended (e.g. "left unfinished", "interrupted")
    outcome: Outcome | None = None  # how a finished game ended; set for every game stored finished

    @property
    def winner(self) -> int | None:
        """0 or 1 for a finished game with a winner, else None."""
        if self.status != "finished":
            return None
        if self.outcome is not None:
            return self.outcome.winner
        if self.scores is None or self.scores[0] == self.scores[1]:
            return None
        return 0 if self.scores[0] > self.scores[1] else 1

    @property
    def decided(self) -> bool:
        """Whether the game was decided off the board (resignation, time, forfeit)."""
        return self.outcome is not None and self.outcome.termination != "board"

    def to_dict(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict."""
        return {
            "id": self.id,
            "started_at": self.started_at,
            "players": [{"name": p.name, "spec": p.spec} for p in self.players],
            "variant": self.variant,
            "moves": self.moves,
            "status": self.status,
            "scores": list(self.scores) if self.scores else None,
            "winner": self.winner,
            "termination": self.outcome.termination if self.outcome else None,
            "stop_reason": self.stop_reason,
            "tags": self.tags,
        }
