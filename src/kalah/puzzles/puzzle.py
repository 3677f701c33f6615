"""A puzzle: a position, its one best move, its proven value and margin; its JSON and its name."""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from kalah.rules import KalahError, Move, Position, Variant, move_name
from kalah.rules.wording import shown

__all__ = ["THEMES", "Puzzle", "PuzzleError", "move_names", "puzzle_id"]

THEMES = ("capture", "extra-turns", "sweep", "endgame", "swap", "quiet")


class PuzzleError(KalahError, ValueError):
    """A puzzle file that cannot be read, a puzzle whose proof fails, or a bad request."""


@dataclass(frozen=True)
class Puzzle:
    """A position whose one best move beats every other by ``margin`` seeds, proven by the solver."""

    id: str
    """A short stable name: a checksum of the position."""
    position: Position
    """The position; the player to move is to find the move."""
    solution: Move
    """The only move that keeps the exact value."""
    value: int
    """The exact value (final margin under perfect play, for the player to move)."""
    margin: int
    """Every other move is worth at least this many seeds less than ``value``."""
    theme: list[str] = field(default_factory=list)
    """Theme tags (see :data:`THEMES`)."""
    difficulty: int = 1
    """From 1 (easy) to 5 (hard)."""
    source: str = ""
    """Where the position was found (``self-play``, ``library``, ...)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``kalah puzzles list --json`` and of the puzzle file."""
        return {
            "id": self.id,
            "variant": self.position.variant.to_dict(),
            "variant_name": self.position.variant.name,
            "position": {"board": [list(row) for row in self.position.board], "to_move": self.position.to_move},
            "legal_moves": self.position.legal_moves(),
            "solution": self.solution,
            "value": self.value,
            "margin": self.margin,
            "theme": list(self.theme),
            "difficulty": self.difficulty,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Puzzle:
        """A puzzle from its JSON shape; PuzzleError names what is wrong."""
        try:
            variant = Variant.from_dict(data["variant"])
            position = Position.from_dict({**data["position"], "variant": variant.to_dict()})
            solution = data["solution"]
            if solution not in position.legal_moves():
                raise PuzzleError(f"puzzle {shown(data.get('id'))}: {shown(solution)} is not a legal move")
            theme = [str(tag) for tag in data.get("theme", [])]
            return cls(
                str(data["id"]),
                position,
                solution,
                int(data["value"]),
                int(data["margin"]),
                theme,
                int(data.get("difficulty", 1)),
                str(data.get("source", "")),
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, PuzzleError):
                raise
            raise PuzzleError(f"a puzzle cannot be read: {_problem(error)}") from None


def move_names(position: Position, moves: Iterable[Move]) -> str:
    """Moves of the player to move in pit letters, joined with commas (``B, D``)."""
    return ", ".join(move_name(position.to_move, move) for move in moves)


def _problem(error: Exception) -> str:
    """What is wrong with a puzzle's fields, from the error reading them raised."""
    if isinstance(error, KeyError):
        return f"it has no {error.args[0]!r}"
    return str(error)


def puzzle_id(position: Position) -> str:
    """A short stable name of a position: eight hex digits of a CRC-32 of its cells, mover and variant."""
    text = json.dumps([position.variant.to_dict(), list(position.cells), position.to_move])
    return f"{zlib.crc32(text.encode()):08x}"
